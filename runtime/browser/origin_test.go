package browser

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/vera-run/vera/internal/testsite"
	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/runtime"
)

// waitViolations polls until the driver reports at least n violations.
func waitViolations(t *testing.T, ctx context.Context, d *Driver, n int) []runtime.Violation {
	t.Helper()
	var all []runtime.Violation
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		v, err := d.Violations(ctx)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, v...)
		if len(all) >= n {
			return all
		}
		time.Sleep(25 * time.Millisecond)
	}
	t.Fatalf("got %d violations %v, want %d", len(all), all, n)
	return nil
}

func findOne(t *testing.T, ctx context.Context, d *Driver, sc runtime.Scope, c locator.Candidate) runtime.Element {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		els, err := d.Find(ctx, sc, nil, c)
		if err != nil {
			t.Fatalf("Find(%v): %v", c, err)
		}
		if len(els) == 1 {
			return els[0]
		}
		if time.Now().After(deadline) {
			t.Fatalf("Find(%v): %d matches", c, len(els))
		}
		time.Sleep(25 * time.Millisecond)
	}
}

// role is a role candidate, exact when it has a name (exact without a name
// is locator_exact_not_allowed).
func role(r, name string) locator.Candidate {
	return locator.Candidate{Strategy: locator.Role, Role: r, Name: name, Exact: name != ""}
}

func TestOriginEscapes(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	out := s.Outside.Origin()
	cases := []struct {
		name    string
		path    string
		navErr  error
		click   locator.Candidate
		want    []runtime.Violation
		subOK   bool // allow Outside for subresources
		wantHit int
	}{
		{name: "redirect", path: testsite.EscapeRedirect, navErr: runtime.ErrOriginBlocked,
			want: []runtime.Violation{{Kind: runtime.ViolationNavigation, Origin: out}}},
		{name: "js-redirect", path: testsite.EscapeJSRedirect,
			want: []runtime.Violation{{Kind: runtime.ViolationNavigation, Origin: out}}},
		{name: "popup", path: testsite.EscapePopup, click: role("button", "Open popup"),
			want: []runtime.Violation{{Kind: runtime.ViolationPopup, Origin: out}}},
		{name: "iframe", path: testsite.EscapeIframe,
			want: []runtime.Violation{{Kind: runtime.ViolationFrame, Origin: out}}},
		{name: "form-post", path: testsite.EscapeForm, click: role("button", "Send"),
			want: []runtime.Violation{{Kind: runtime.ViolationNavigation, Origin: out}}},
		{name: "link", path: testsite.EscapeLink, click: role("link", "Leave"),
			want: []runtime.Violation{{Kind: runtime.ViolationNavigation, Origin: out}}},
		{name: "subresource", path: testsite.EscapeSubresource,
			want: []runtime.Violation{{Kind: runtime.ViolationSubresource, Origin: out}, {Kind: runtime.ViolationSubresource, Origin: out}}},
		{name: "subresource-allowed", path: testsite.EscapeSubresource, subOK: true, wantHit: 2},
		{name: "iframe-subresource-only", path: testsite.EscapeIframe, subOK: true,
			want: []runtime.Violation{{Kind: runtime.ViolationFrame, Origin: out}}},
		{name: "direct", path: "", navErr: runtime.ErrOriginBlocked,
			want: []runtime.Violation{{Kind: runtime.ViolationNavigation, Origin: out}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := tctx(t, 20*time.Second)
			s.Outside.ResetHits()
			scope := runtime.OriginScope{Allowed: []string{s.Teller.Origin()}}
			if tc.subOK {
				scope.Subresources = []string{out}
			}
			if err := d.RestrictOrigins(ctx, scope); err != nil {
				t.Fatal(err)
			}
			if err := d.Navigate(ctx, "about:blank"); err != nil {
				t.Fatal(err)
			}
			_, _ = d.Violations(ctx)
			target := s.Teller.URL() + tc.path
			if tc.path == "" {
				target = out + "/page"
			}
			err := d.Navigate(ctx, target)
			if !errors.Is(err, tc.navErr) && !(tc.navErr == nil && err == nil) {
				t.Fatalf("Navigate = %v, want %v", err, tc.navErr)
			}
			if tc.click.Strategy != "" {
				top, _, err := d.Frame(ctx, nil)
				if err != nil {
					t.Fatal(err)
				}
				if err := d.Act(ctx, findOne(t, ctx, d, top, tc.click), runtime.Act{Kind: runtime.ActClick}); err != nil {
					t.Fatal(err)
				}
			}
			var got []runtime.Violation
			if len(tc.want) > 0 {
				got = waitViolations(t, ctx, d, len(tc.want))
			} else {
				time.Sleep(300 * time.Millisecond)
				got, _ = d.Violations(ctx)
			}
			slices.SortFunc(got, func(a, b runtime.Violation) int { return compareStr(string(a.Kind), string(b.Kind)) })
			if !slices.Equal(got, tc.want) {
				t.Errorf("violations = %v, want %v", got, tc.want)
			}
			if tc.name == "iframe" {
				_, infos, err := d.Frame(ctx, []string{"iframe#outside-frame"})
				if err != nil {
					t.Fatal(err)
				}
				if infos[0].Origin == out {
					t.Errorf("blocked frame reports origin %s", infos[0].Origin)
				}
			}
			time.Sleep(100 * time.Millisecond)
			if n := s.Outside.TotalHits(); n != tc.wantHit {
				t.Errorf("Outside received %d requests %v, want %d", n, s.Outside.Requests(), tc.wantHit)
			}
		})
	}
}

func compareStr(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
