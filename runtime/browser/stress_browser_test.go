package browser

import (
	"strings"
	"testing"
	"time"

	"github.com/vera-run/vera/internal/testsite"
)

// TestStressBrowserConcurrent is the stress tier's case for one Browser
// serving many runs (issue 18): each iteration runs 8 teller flows at
// once on one launched Browser, each in its own driver and browser
// context and each for a different member; every flow must answer its
// own member's balances (a misreport otherwise), and no driver, browser
// context or page may be left after an iteration.
func TestStressBrowserConcurrent(t *testing.T) {
	n := stressIterations(t)
	s := sites(t)
	c := exampleTeller(t, s)
	b, err := LaunchBrowser(tctx(t, 60*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	y := &tally{t: t, name: "browser-concurrent-8"}
	contexts0, pages0 := browserTargets(t, b.wsURL)
	for i := 0; i < n; i++ {
		for f, p := range runBrowserFlows(t, b, c, 8, 4*time.Minute) {
			y.runs++
			if len(p) > 0 {
				y.misreports++
				t.Errorf("iteration %d flow %d (member %s): MISREPORT: %s", i, f, testsite.TellerMembers[f].ID, strings.Join(p, "; "))
			}
		}
		if a := b.Active(); a != 0 {
			t.Errorf("iteration %d: %d drivers still open", i, a)
		}
		if ctxs, pages := browserTargets(t, b.wsURL); len(ctxs) != len(contexts0) || pages != pages0 {
			t.Errorf("iteration %d: %d browser contexts and %d pages left, want %d and %d", i, len(ctxs), pages, len(contexts0), pages0)
		}
	}
	y.done()
	if err := b.Close(); err != nil {
		t.Error(err)
	}
}
