package runtimetest_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/runtimetest"
)

func TestConformanceSiteValid(t *testing.T) {
	if err := runtimetest.ConformanceSite().Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestValidate(t *testing.T) {
	n := func(nodes ...*runtimetest.Node) *runtimetest.Site { return page("/", nodes) }
	withRules := func(nodes []*runtimetest.Node, rules ...runtimetest.Rule) *runtimetest.Site {
		return page("/", nodes, rules...)
	}
	btn := []*runtimetest.Node{{Tag: "button", ID: "b", Text: "B"}}
	tests := []struct {
		name string
		site *runtimetest.Site
		want string // substring of one problem
	}{
		{"no pages", &runtimetest.Site{}, "at least one page"},
		{"nil page", &runtimetest.Site{Pages: map[string]*runtimetest.Page{origin + "/": nil}}, "page is nil"},
		{"relative key", &runtimetest.Site{Pages: map[string]*runtimetest.Page{"/login": {}}}, "absolute http(s)"},
		{"key without path", &runtimetest.Site{Pages: map[string]*runtimetest.Page{origin: {}}}, "explicit path"},
		{"key with fragment", &runtimetest.Site{Pages: map[string]*runtimetest.Page{origin + "/#x": {}}}, "no fragment"},
		{"upper-case host", &runtimetest.Site{Pages: map[string]*runtimetest.Page{"http://LOCALHOST:1/": {}}}, "lower-case"},
		{"default port", &runtimetest.Site{Pages: map[string]*runtimetest.Page{"http://localhost:80/": {}}}, "canonical"},
		{"reserved path", &runtimetest.Site{Pages: map[string]*runtimetest.Page{origin + "/__vera/x": {}}}, "reserved"},
		{"origin mismatch", &runtimetest.Site{Pages: map[string]*runtimetest.Page{origin + "/": {Origin: "http://localhost:1"}}}, "not the origin"},
		{"unknown tag", n(&runtimetest.Node{Tag: "script"}), "not supported"},
		{"upper-case tag", n(&runtimetest.Node{Tag: "DIV"}), "lower-case"},
		{"bad id", n(&runtimetest.Node{ID: "1x"}), "must match"},
		{"duplicate id", n(&runtimetest.Node{ID: "x"}, &runtimetest.Node{ID: "x"}), "duplicate id"},
		{"unknown role", n(&runtimetest.Node{Role: "buton"}), "not an ARIA role"},
		{"control char", n(&runtimetest.Node{Text: "a\x00b"}), "control character"},
		{"bad utf8", n(&runtimetest.Node{Text: "\xff"}), "UTF-8"},
		{"li outside list", n(&runtimetest.Node{Tag: "li"}), "must be a child of"},
		{"div in table", n(&runtimetest.Node{Tag: "table", Children: []*runtimetest.Node{{Tag: "div"}}}), "cannot contain"},
		{"div in p", n(&runtimetest.Node{Tag: "p", Children: []*runtimetest.Node{{Tag: "span", Children: []*runtimetest.Node{{Tag: "div"}}}}}), "inside <p>"},
		{"nested links", n(&runtimetest.Node{Tag: "a", Children: []*runtimetest.Node{{Tag: "a"}}}), "cannot be nested"},
		{"void with text", n(&runtimetest.Node{Tag: "input", Text: "x"}), "void element"},
		{"text in tr", n(&runtimetest.Node{Tag: "table", Children: []*runtimetest.Node{{Tag: "tr", Text: "x"}}}), "own text"},
		{"label on div", n(&runtimetest.Node{ID: "d", Label: "L"}), "can be labelled"},
		{"label without id", n(&runtimetest.Node{Tag: "input", Label: "L"}), "needs an id"},
		{"placeholder on div", n(&runtimetest.Node{Placeholder: "p"}), "placeholders"},
		{"value on div", n(&runtimetest.Node{Value: "v"}), "only form controls have values"},
		{"disabled div", n(&runtimetest.Node{Disabled: true}), "only form controls can be disabled"},
		{"iframe without frame", n(&runtimetest.Node{Tag: "iframe"}), "needs a frame"},
		{"frame on div", n(&runtimetest.Node{Tag: "div", Frame: &runtimetest.FrameFixture{URL: "/x"}}), "is an <iframe>"},
		{"frame url", n(&runtimetest.Node{Frame: &runtimetest.FrameFixture{URL: "ftp://x/"}}), "bad URL"},
		{"style", n(&runtimetest.Node{Attributes: map[string]string{"style": "display:none"}}), "reserved"},
		{"id attribute", n(&runtimetest.Node{Attributes: map[string]string{"id": "x"}}), "use Node.ID"},
		{"handler", n(&runtimetest.Node{Attributes: map[string]string{"onclick": "x()"}}), "event handler"},
		{"aria-hidden", n(&runtimetest.Node{Attributes: map[string]string{"aria-hidden": "true"}}), "aria-hidden"},
		{"attribute name", n(&runtimetest.Node{Attributes: map[string]string{"Data-X": "1"}}), "lower-case"},
		{"javascript href", n(&runtimetest.Node{Tag: "a", Attributes: map[string]string{"href": "javascript:alert(1)"}}), "script"},
		{"unencoded href", n(&runtimetest.Node{Tag: "a", Attributes: map[string]string{"href": "/a b"}}), "percent-encode"},
		{"input type", n(&runtimetest.Node{Tag: "input", Attributes: map[string]string{"type": "date"}}), "not supported"},
		{"rule node", withRules(btn, on("nope", runtime.ActClick, setText("b", "x"))), "no node with id"},
		{"rule act", withRules(btn, on("b", "hover", setText("b", "x"))), "unknown action"},
		{"press without key", withRules(btn, on("b", runtime.ActPress, setText("b", "x"))), "key is required"},
		{"key on click", withRules(btn, runtimetest.Rule{On: runtimetest.Trigger{Node: "b", Act: runtime.ActClick, Key: "a"}, Effects: []runtimetest.Effect{setText("b", "x")}}), "only for them"},
		{"no effects", withRules(btn, on("b", runtime.ActClick)), "at least one effect"},
		{"two fields", withRules(btn, on("b", runtime.ActClick, runtimetest.Effect{Show: []string{"b"}, Hide: []string{"b"}})), "exactly one field"},
		{"zero fields", withRules(btn, on("b", runtime.ActClick, runtimetest.Effect{})), "exactly one field"},
		{"show unknown", withRules(btn, on("b", runtime.ActClick, runtimetest.Effect{Show: []string{"x"}})), "no node with id"},
		{"set text unknown", withRules(btn, on("b", runtime.ActClick, setText("x", "y"))), "no node with id"},
		{"bad template", withRules(btn, on("b", runtime.ActClick, runtimetest.Effect{Navigate: "#{{query}}"})), "unknown template"},
		{"template node", withRules(btn, on("b", runtime.ActClick, runtimetest.Effect{Navigate: "#{{value:x}}"})), "names no node"},
		{"unknown download", withRules(btn, on("b", runtime.ActClick, runtimetest.Effect{Download: "x"})), "no download"},
		{"dialog not last", withRules(btn, on("b", runtime.ActClick,
			runtimetest.Effect{Dialog: &runtimetest.DialogEffect{Kind: runtimetest.DialogAlert}}, setText("b", "x"))), "last effect"},
		{"dialog kind", withRules(btn, on("b", runtime.ActClick, runtimetest.Effect{Dialog: &runtimetest.DialogEffect{Kind: "modal"}})), "unknown dialog kind"},
		{"add parent", withRules(btn, on("b", runtime.ActClick, runtimetest.Effect{Add: &runtimetest.AddEffect{Parent: "x", Nodes: []*runtimetest.Node{{ID: "n"}}}})), "no node with id"},
		{"add without id", withRules(btn, on("b", runtime.ActClick, runtimetest.Effect{Add: &runtimetest.AddEffect{Parent: "b", Nodes: []*runtimetest.Node{{Tag: "span"}}}})), "needs an id"},
		{"add li to div", withRules([]*runtimetest.Node{{ID: "d"}, {Tag: "button", ID: "b"}}, on("b", runtime.ActClick, runtimetest.Effect{Add: &runtimetest.AddEffect{Parent: "d", Nodes: []*runtimetest.Node{{Tag: "li", ID: "n"}}}})), "must be a child of"},
		{"added descendant collides", withRules(btn, on("b", runtime.ActClick, runtimetest.Effect{Add: &runtimetest.AddEffect{Parent: "b", Nodes: []*runtimetest.Node{{Tag: "span", ID: "n", Children: []*runtimetest.Node{{Tag: "span", ID: "b"}}}}}})), "already in the page body"},
		{"download name", &runtimetest.Site{Pages: n().Pages, Downloads: map[string]runtimetest.DownloadFixture{"r": {Name: "../x"}}}, "file name"},
		{"download both", &runtimetest.Site{Pages: n().Pages, Downloads: map[string]runtimetest.DownloadFixture{"r": {Name: "x", Text: "a", Data: []byte("b")}}}, "not both"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.site.Validate()
			var ve *runtimetest.ValidationError
			if !errors.As(err, &ve) || !errors.Is(err, runtimetest.ErrInvalidFixture) {
				t.Fatalf("Validate() = %v, want a *ValidationError", err)
			}
			for _, p := range ve.Problems {
				if strings.Contains(p.Detail, tt.want) {
					return
				}
			}
			t.Errorf("no problem mentions %q: %v", tt.want, ve.Problems)
		})
	}
}

func TestValidateReportsEveryProblem(t *testing.T) {
	err := page("/", []*runtimetest.Node{{Tag: "script"}, {ID: "1"}, {Tag: "li"}}).Validate()
	var ve *runtimetest.ValidationError
	if !errors.As(err, &ve) || len(ve.Problems) < 3 {
		t.Fatalf("want at least three problems, got %v", err)
	}
	for _, p := range ve.Problems {
		if !strings.HasPrefix(p.Path, `pages["`+origin+`/"].body[`) {
			t.Errorf("problem path %q", p.Path)
		}
	}
}

func TestLoadSite(t *testing.T) {
	good := `{"pages": {"http://127.0.0.1:4010/": {"title": "T", "body": [{"tag": "button", "id": "b", "text": "Go"}],
	  "rules": [{"on": {"node": "b", "act": "click"}, "effects": [{"navigate": "#x"}]}]}},
	  "downloads": {"r": {"name": "a.txt", "data": "AAEC"}}}`
	s, err := runtimetest.LoadSite(strings.NewReader(good))
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Downloads["r"].Bytes(); string(got) != "\x00\x01\x02" {
		t.Errorf("data = %q", got)
	}
	for name, doc := range map[string]string{
		"unknown field":  `{"pages": {"http://127.0.0.1:4010/": {"body": [], "result": "42"}}}`,
		"duplicate key":  `{"pages": {"http://127.0.0.1:4010/": {"body": [], "body": []}}}`,
		"duplicate page": `{"pages": {"http://127.0.0.1:4010/": {"body": []}, "http://127.0.0.1:4010/": {"body": []}}}`,
		"trailing":       `{"pages": {"http://127.0.0.1:4010/": {"body": []}}} {}`,
		"not an object":  `[]`,
		"invalid":        `{"pages": {"http://127.0.0.1:4010/": {"body": [{"tag": "script"}]}}}`,
		"empty":          ``,
		"syntax":         `{"pages": `,
	} {
		if _, err := runtimetest.LoadSite(strings.NewReader(doc)); !errors.Is(err, runtimetest.ErrInvalidFixture) {
			t.Errorf("%s: %v, want ErrInvalidFixture", name, err)
		}
	}
	big := `{"pages": {"http://127.0.0.1:4010/": {"title": "` + strings.Repeat("x", runtimetest.MaxSiteBytes) + `", "body": []}}}`
	if _, err := runtimetest.LoadSite(strings.NewReader(big)); !errors.Is(err, runtimetest.ErrInvalidFixture) {
		t.Errorf("oversized: %v", err)
	}
}

func TestTestdataSites(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.json"))
	if len(files) == 0 {
		t.Fatal("no testdata sites")
	}
	for _, f := range files {
		raw, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		s, err := runtimetest.LoadSite(raw)
		raw.Close()
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		for key := range s.Pages {
			if _, ok := s.RenderHTML(key); !ok {
				t.Errorf("%s: page %s does not render", f, key)
			}
		}
	}
}
