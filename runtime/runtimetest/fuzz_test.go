package runtimetest

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/runtime"
)

// FuzzParseSelector checks that the CSS parser never panics, that every
// error is a *SelectorError wrapping one of its two sentinels, and that an
// accepted selector can be matched against a document.
func FuzzParseSelector(f *testing.F) {
	for _, s := range []string{
		"div", "#a", ".b.c", "[x]", "[x='y']", `[x="y"]`, "[x~=y]", "a > b c", "a, b", ".n:visible",
		"*", "-x", "--y", "p:first-child", "a + b", "a ~ b", `#a\:b`, "[x=y i]", "::before", "",
		",", "a,", "[", "[x=", "a >", "é", "#é", "[é=é]", "div{}", "a   >   b",
	} {
		f.Add(s)
	}
	root := cssPage()
	f.Fuzz(func(t *testing.T, s string) {
		sel, err := ParseSelector(s)
		if err != nil {
			var se *SelectorError
			if !errors.As(err, &se) {
				t.Fatalf("error %T is not a *SelectorError", err)
			}
			if !errors.Is(err, runtime.ErrUnsupported) && !errors.Is(err, ErrInvalidSelector) {
				t.Fatalf("error %v wraps no sentinel", err)
			}
			if se.Offset < 0 || se.Offset > len(s) {
				t.Fatalf("offset %d outside %q", se.Offset, s)
			}
			return
		}
		if sel.String() != s || len(sel.list) == 0 {
			t.Fatalf("parsed %q badly", s)
		}
		root.walk(func(e *elem) bool {
			sel.matches(e)
			return true
		})
	})
}

// FuzzLoadSite checks that loading never panics and that every site it
// accepts validates, renders and runs in the fake.
func FuzzLoadSite(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.json"))
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"pages":{"http://127.0.0.1:1/":{"body":[{"tag":"button","id":"b","text":"x"}],"rules":[{"on":{"node":"b","act":"click"},"effects":[{"navigate":"#{{value}}"}]}]}}}`))
	f.Add([]byte(`{"pages":{"http://127.0.0.1:1/":{"body":[],"body":[]}}}`))
	f.Add([]byte(`{"pages":{}}`))
	f.Add([]byte(`[`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		s, err := LoadSite(bytes.NewReader(raw))
		if err != nil {
			if !errors.Is(err, ErrInvalidFixture) {
				t.Fatalf("error %v does not wrap ErrInvalidFixture", err)
			}
			return
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("LoadSite accepted an invalid site: %v", err)
		}
		if _, err := json.Marshal(s); err != nil {
			t.Fatal(err)
		}
		d := NewDriver(s)
		defer d.Close()
		ctx := t.Context()
		_ = d.RestrictOrigins(ctx, runtime.OriginScope{Allowed: s.Origins()})
		for key := range s.Pages {
			if _, ok := s.RenderHTML(key); !ok {
				t.Fatalf("page %s does not render", key)
			}
			if err := d.Navigate(ctx, key); err != nil {
				t.Fatalf("Navigate(%s): %v", key, err)
			}
			els, err := d.Find(ctx, nil, nil, locator.Candidate{Strategy: locator.CSS, CSS: "*"})
			if err != nil {
				t.Fatal(err)
			}
			for _, el := range els {
				_, _ = d.Read(ctx, el, runtime.Read{Kind: runtime.ReadText})
				_ = d.Act(ctx, el, runtime.Act{Kind: runtime.ActClick})
				d.DismissDialog()
			}
		}
	})
}
