package browser

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/vera-run/vera/internal/testsite"
	"github.com/vera-run/vera/runtime"
)

// TestStressBrowserConcurrent is the stress tier's case for one Browser
// serving many runs (issue 18): each iteration runs 8 teller flows at
// once on one launched Browser, each in its own driver and browser
// context and each for a different member; every flow must answer its
// own member's balances (a misreport otherwise), and no driver, browser
// context or page may be left after an iteration. The Browser keeps its
// spare (a launched Browser's default), so the runs also take it, and the
// next one opened as each closes, under load.
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
	// The Browser's spare (WithSpare, on for a launched one) is counted
	// once its open ended, before and after every iteration.
	readySpare(t, b)
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
		readySpare(t, b)
		if ctxs, pages := browserTargets(t, b.wsURL); len(ctxs) != len(contexts0) || pages != pages0 {
			t.Errorf("iteration %d: %d browser contexts and %d pages left, want %d and %d", i, len(ctxs), pages, len(contexts0), pages0)
		}
	}
	y.done()
	if err := b.Close(); err != nil {
		t.Error(err)
	}
}

// TestStressBrowserSpare is the stress tier's case for the Browser's
// spare (WithSpare): each iteration launches a Browser and runs three
// teller flows in turn, each on a driver NewDriver hands out while the
// spare the last close started may still be opening; between the first
// two, a NewDriver whose ctx ends within milliseconds either fails or
// hands out a driver that works (it must never hand out a broken one);
// then the Browser is closed right after a driver's close started the
// next spare's open. Every flow must answer its member's balances (a
// misreport otherwise); TestMain checks that no process or goroutine of
// the Browsers is left.
func TestStressBrowserSpare(t *testing.T) {
	n := stressIterations(t)
	s := sites(t)
	c := exampleTeller(t, s)
	y := &tally{t: t, name: "browser-spare"}
	flow := func(i int, b *Browser) {
		t.Helper()
		for f, p := range runBrowserFlows(t, b, c, 1, 4*time.Minute) {
			y.runs++
			if len(p) > 0 {
				y.misreports++
				t.Errorf("iteration %d flow %d: MISREPORT: %s", i, f, strings.Join(p, "; "))
			}
		}
	}
	for i := 0; i < n; i++ {
		b, err := LaunchBrowser(tctx(t, 60*time.Second))
		if err != nil {
			t.Fatal(err)
		}
		flow(i, b)
		short, cancel := context.WithTimeout(context.Background(), time.Duration(1+i%5)*time.Millisecond)
		d, err := b.NewDriver(short)
		cancel()
		if err == nil {
			// It got a driver: the driver must work.
			if _, err := d.URL(tctx(t, 30*time.Second)); err != nil {
				y.misreports++
				t.Errorf("iteration %d: the driver a short NewDriver handed out does not work: %v", i, err)
			}
			_ = d.Close()
		} else if !errors.Is(err, runtime.ErrBrowserUnavailable) {
			t.Errorf("iteration %d: short NewDriver: %v", i, err)
		}
		flow(i, b)
		flow(i, b)
		if a := b.Active(); a != 0 {
			t.Errorf("iteration %d: %d drivers still open", i, a)
		}
		if err := b.Close(); err != nil {
			t.Errorf("iteration %d: Close: %v", i, err)
		}
	}
	y.done()
}
