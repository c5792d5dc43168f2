package browser

import (
	"fmt"
	"strings"
	"sync"
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

// BenchmarkFindRoleCold10k measures the first role + exact name lookup on
// a fresh 10,000-node document: every iteration navigates (untimed) to a
// new document, so nothing the browser or the driver built for the last
// one (accessibility tree, page-side state, cached objects) is reused.
// The lookup the warm benchmarks repeat costs this once per document.
func BenchmarkFindRoleCold10k(b *testing.B) {
	benchFindCold(b, "/stress/nodes/10000", locator.Candidate{Strategy: locator.Role, Role: "button", Name: "Target button", Exact: true}, 1)
}

// BenchmarkFindRoleSubstringCold10k is the cold lookup with a
// case-insensitive substring name.
func BenchmarkFindRoleSubstringCold10k(b *testing.B) {
	benchFindCold(b, "/stress/nodes/10000", locator.Candidate{Strategy: locator.Role, Role: "button", Name: "target"}, 1)
}

// BenchmarkFindRoleManyCold10k is a cold role lookup whose name many
// elements could carry ("Button 1" is a substring of 1,111 names), so the
// page-side pre-filter cannot narrow it to a handful of candidates.
func BenchmarkFindRoleManyCold10k(b *testing.B) {
	benchFindCold(b, "/stress/nodes/10000", locator.Candidate{Strategy: locator.Role, Role: "button", Name: "Button 1"}, 1111)
}

// BenchmarkFindLabelCold10k measures the first label lookup on a fresh
// 10,000-control document.
func BenchmarkFindLabelCold10k(b *testing.B) {
	benchFindCold(b, "/stress/controls/10000", locator.Candidate{Strategy: locator.Label, Label: "Field 1999", Exact: true}, 1)
}

func benchFindCold(b *testing.B, path string, c locator.Candidate, want int) {
	d := shared(b)
	s := sites(b)
	ctx := tctx(b, 10*time.Minute)
	top, _, err := d.Frame(ctx, nil)
	if err != nil {
		b.Fatal(err)
	}
	i := 0
	var nav time.Duration
	for b.Loop() {
		b.StopTimer()
		i++
		// A new query string is a new document (the page is no-store).
		t0 := time.Now()
		if err := d.Navigate(ctx, fmt.Sprintf("%s%s?cold=%d", s.Stress.URL(), path, i)); err != nil {
			b.Fatal(err)
		}
		nav += time.Since(t0)
		b.StartTimer()
		var mu sync.Mutex
		var calls []string
		t1 := time.Now()
		d.setCallTrace(func(method string, start time.Time) {
			mu.Lock()
			calls = append(calls, fmt.Sprintf("%s +%v %v", method, start.Sub(t1).Round(100*time.Microsecond), time.Since(start).Round(100*time.Microsecond)))
			mu.Unlock()
		})
		els, err := d.Find(ctx, top, nil, c)
		d.setCallTrace(nil)
		if i == 1 {
			b.Logf("first cold lookup, %v: %s", time.Since(t1).Round(100*time.Microsecond), strings.Join(calls, "; "))
		}
		if err != nil {
			b.Fatal(err)
		}
		if len(els) != want {
			b.Fatalf("Find = %d elements, want %d", len(els), want)
		}
	}
	// The navigation is not timed, but a driver that moved work into it
	// must show it: report it beside the lookup.
	b.ReportMetric(float64(nav.Microseconds())/1000/float64(max(i, 1)), "nav-ms/op")
}
