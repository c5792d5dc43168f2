package browser

import (
	"testing"
	"time"

	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/runtime"
)

// BenchmarkFindRole10k measures one role + exact name lookup through the
// accessibility tree on a page with 10,000 generated elements.
func BenchmarkFindRole10k(b *testing.B) {
	benchFind(b, "/stress/nodes/10000", locator.Candidate{Strategy: locator.Role, Role: "button", Name: "Target button", Exact: true}, 1)
}

// BenchmarkFindRoleSubstring10k is the same lookup with a case-insensitive
// substring name: the tree is queried by role only and names are
// filtered in Go.
func BenchmarkFindRoleSubstring10k(b *testing.B) {
	benchFind(b, "/stress/nodes/10000", locator.Candidate{Strategy: locator.Role, Role: "button", Name: "target"}, 1)
}

// BenchmarkFindText10k measures a bounded visible-text lookup.
func BenchmarkFindText10k(b *testing.B) {
	benchFind(b, "/stress/nodes/10000", locator.Candidate{Strategy: locator.Text, Text: "Target button", Exact: true}, 1)
}

// BenchmarkFindCSS10k measures a CSS lookup.
func BenchmarkFindCSS10k(b *testing.B) {
	benchFind(b, "/stress/nodes/10000", locator.Candidate{Strategy: locator.CSS, CSS: "button#target:visible"}, 1)
}

func benchFind(b *testing.B, path string, c locator.Candidate, want int) {
	d := shared(b)
	s := sites(b)
	ctx := tctx(b, 5*time.Minute)
	if err := d.Navigate(ctx, s.Stress.URL()+path); err != nil {
		b.Fatal(err)
	}
	top, _, err := d.Frame(ctx, nil)
	if err != nil {
		b.Fatal(err)
	}
	// The first query builds the accessibility tree; time the steady state.
	start := time.Now()
	els, err := d.Find(ctx, top, nil, c)
	if err != nil || len(els) != want {
		b.Fatalf("Find = %d, %v", len(els), err)
	}
	b.Logf("first lookup (cold): %v", time.Since(start))
	var last []runtime.Element
	b.ResetTimer()
	for b.Loop() {
		last, err = d.Find(ctx, top, nil, c)
		if err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if len(last) != want || last[0] != els[0] {
		b.Fatalf("unstable result")
	}
}

// BenchmarkClickInView measures one click on a button already fully in
// view (the probe page's "Save"): the path every ordinary action takes,
// which actionability must keep at two state reads and the mouse events.
func BenchmarkClickInView(b *testing.B) {
	d := shared(b)
	s := sites(b)
	ctx := tctx(b, 5*time.Minute)
	if err := d.Navigate(ctx, s.Stress.URL()+"/stress/probe"); err != nil {
		b.Fatal(err)
	}
	top, _, err := d.Frame(ctx, nil)
	if err != nil {
		b.Fatal(err)
	}
	els, err := d.Find(ctx, top, nil, locator.Candidate{Strategy: locator.CSS, CSS: "#save"})
	if err != nil || len(els) != 1 {
		b.Fatalf("Find = %d, %v", len(els), err)
	}
	b.ResetTimer()
	for b.Loop() {
		if err := d.Act(ctx, els[0], runtime.Act{Kind: runtime.ActClick}); err != nil {
			b.Fatal(err)
		}
	}
}
