package browser

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/chromeproc"
	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
)

// Actionability across the fold, in the fold app (testsite
// /stress/fold): every control sits where a naive "any overlap with the
// viewport is in view" rule clicked nothing, at every window size, in
// launch and connect mode.

// foldSizes are the window sizes every case runs at.
var foldSizes = []struct{ w, h int }{{1280, 720}, {800, 600}, {390, 700}}

// foldCases are the fold app's controls and how each is reached.
var foldCases = []struct {
	name  string
	query string   // added to /stress/fold
	frame []string // frame path
	css   string
}{
	{"scrolled-container", "", nil, "#in-pane"},
	{"right-edge", "", nil, "#right"},
	{"below-fold", "", nil, "#below"},
	{"above-fold-sticky-header", "?top=above", nil, "#above"},
	{"in-view-under-sticky-header", "?under=above", nil, "#above"},
	{"iframe-nested-containers", "", []string{"iframe#panel"}, "#framed"},
	{"oopif-nested-containers", "?frame=localhost", []string{"iframe#panel"}, "#framed"},
}

// setWindow sets the page's viewport to w x h CSS pixels until the test
// ends.
func setWindow(t *testing.T, ctx context.Context, d *Driver, w, h int) {
	t.Helper()
	if err := d.call(ctx, d.pageSID, proto.EmulationSetDeviceMetricsOverride{Width: w, Height: h, DeviceScaleFactor: 1}, nil); err != nil {
		t.Fatalf("setDeviceMetricsOverride %dx%d: %v", w, h, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = d.call(ctx, d.pageSID, proto.EmulationClearDeviceMetricsOverride{}, nil)
	})
}

// openFold navigates to the fold app and returns the scope of frame and
// the element css in it, once the app has mounted.
func openFold(t *testing.T, ctx context.Context, d *Driver, origin, query string, frame []string, css string) (runtime.Scope, runtime.Element) {
	t.Helper()
	if err := d.Navigate(ctx, origin+"/stress/fold"+query); err != nil {
		t.Fatal(err)
	}
	top, _, err := d.Frame(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	findOne(t, ctx, d, top, locator.Candidate{Strategy: locator.CSS, CSS: "#root[data-ready=true]"})
	sc := top
	if frame != nil {
		if sc, _, err = d.Frame(ctx, frame); err != nil {
			t.Fatal(err)
		}
		findOne(t, ctx, d, sc, locator.Candidate{Strategy: locator.CSS, CSS: "#root[data-ready=true]"})
	}
	return sc, findOne(t, ctx, d, sc, locator.Candidate{Strategy: locator.CSS, CSS: css})
}

func clicksOf(t *testing.T, ctx context.Context, d *Driver, el runtime.Element) string {
	t.Helper()
	v, err := d.Read(ctx, el, runtime.Read{Kind: runtime.ReadAttribute, Name: "data-clicks"})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func foldMatrix(t *testing.T, d *Driver) {
	s := sites(t)
	for _, sz := range foldSizes {
		t.Run(itoa(sz.w)+"x"+itoa(sz.h), func(t *testing.T) {
			ctx := tctx(t, 60*time.Second)
			setWindow(t, ctx, d, sz.w, sz.h)
			foldRun(t, ctx, d, s.Stress.Origin(), sz.w)
		})
	}
}

// foldRun clicks every fold control once, each on a fresh page, and
// checks and unchecks the checkbox; the viewport must be w wide (w > 0)
// or is logged.
func foldRun(t *testing.T, ctx context.Context, d *Driver, origin string, w int) {
	for _, tc := range foldCases {
		t.Run(tc.name, func(t *testing.T) {
			sc, el := openFold(t, ctx, d, origin, tc.query, tc.frame, tc.css)
			if oop := sc.(*scope).sid != d.pageSID; oop != strings.HasPrefix(tc.name, "oopif") {
				t.Fatalf("out-of-process frame: %v", oop)
			}
			// The premise: the control is not fully in view (or is
			// covered), so a click needs a scroll.
			st, err := d.state(ctx, el.(*element), true, nil)
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case tc.frame != nil:
			case w > 0 && (st.VW > float64(w) || st.VW < float64(w-20)):
				// A connected browser shows scrollbars (about 15 px).
				t.Fatalf("viewport %vx%v, want %d wide less any scrollbar", st.VW, st.VH, w)
			case w == 0 && tc.name == foldCases[0].name:
				t.Logf("viewport %vx%v", st.VW, st.VH)
			}
			if strings.HasPrefix(tc.name, "in-view-") {
				// In view but covered: only a scroll with another
				// alignment can reach it.
				if !st.Full || st.Over == "" {
					t.Fatalf("%s: full %v, covered by %q; want in view and covered", tc.css, st.Full, st.Over)
				}
			} else if st.Full {
				t.Fatalf("%s is fully in view before the click (box %v,%v %vx%v, viewport %vx%v): the case tests nothing",
					tc.css, st.X, st.Y, st.W, st.H, st.VW, st.VH)
			}
			actx, cancel := context.WithTimeout(ctx, 5*time.Second)
			start := time.Now()
			err = d.Act(actx, el, runtime.Act{Kind: runtime.ActClick})
			cancel()
			if err != nil {
				t.Fatalf("click %s after %v: %v", tc.css, time.Since(start).Round(time.Millisecond), err)
			}
			if got := clicksOf(t, ctx, d, el); got != "1" {
				t.Fatalf("%s counted %s clicks, want 1", tc.css, got)
			}
		})
	}
	t.Run("check-below-fold", func(t *testing.T) { foldCheck(t, ctx, d, origin) })
}

// TestFoldClickWindowSizes: no emulation, the browser's own window
// decides: a launched browser and a connected one (standing in for the
// operator's), each started with --window-size. The viewport is then
// what the window leaves (a connected headless window of 1280x720 showed
// 1265x618 with scrollbars; windows are at least 500 wide), so the sizes
// are logged, not asserted.
func TestFoldClickWindowSizes(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts six browsers; the emulated sizes run in -short too")
	}
	bin := requireBrowser(t)
	s := sites(t)
	for _, sz := range foldSizes {
		flag := "--window-size=" + itoa(sz.w) + "," + itoa(sz.h)
		t.Run("launch/"+itoa(sz.w)+"x"+itoa(sz.h), func(t *testing.T) {
			ctx := tctx(t, 60*time.Second)
			d, err := Launch(ctx, WithExtraFlags(flag))
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			foldRun(t, ctx, d, s.Stress.Origin(), 0)
		})
		t.Run("connect/"+itoa(sz.w)+"x"+itoa(sz.h), func(t *testing.T) {
			ctx := tctx(t, 60*time.Second)
			p, err := chromeproc.Start(ctx, chromeproc.WithPath(bin), chromeproc.WithFlags(flag))
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			d, err := Connect(ctx, p.HTTPEndpoint())
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			foldRun(t, ctx, d, s.Stress.Origin(), 0)
		})
	}
}

// foldCheck checks and unchecks the styled checkbox below the fold.
func foldCheck(t *testing.T, ctx context.Context, d *Driver, origin string) {
	_, el := openFold(t, ctx, d, origin, "", nil, "#agree")
	for _, want := range []bool{true, false} {
		kind := runtime.ActCheck
		if !want {
			kind = runtime.ActUncheck
		}
		actx, cancel := context.WithTimeout(ctx, 5*time.Second)
		err := d.Act(actx, el, runtime.Act{Kind: kind})
		cancel()
		if err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		st, err := d.state(ctx, el.(*element), false, nil)
		if err != nil || st.Checked != want {
			t.Fatalf("after %s: checked %v, %v", kind, st.Checked, err)
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestFoldClickLaunch: every fold control is clicked, once, at every
// window size, in a launched browser.
func TestFoldClickLaunch(t *testing.T) {
	t.Parallel()
	foldMatrix(t, shared(t))
}

// TestFoldClickConnect: the same in a connected browser.
func TestFoldClickConnect(t *testing.T) {
	ext := startExternal(t)
	ctx := tctx(t, 30*time.Second)
	d, err := Connect(ctx, ext.endpoint)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := d.Close(); err != nil {
			t.Error(err)
		}
	}()
	foldMatrix(t, d)
}

// TestFoldModalCover: a control under a modal overlay is not clicked;
// the action fails within its timeout with ErrNotInteractable, and the
// error names the failed check, the cover, the point, the box and the
// viewport.
func TestFoldModalCover(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	ctx := tctx(t, 30*time.Second)
	setWindow(t, ctx, d, 800, 600)
	for _, tc := range foldCases[:3] {
		t.Run(tc.name, func(t *testing.T) {
			_, el := openFold(t, ctx, d, s.Stress.Origin(), "?modal=1", tc.frame, tc.css)
			const timeout = 1500 * time.Millisecond
			actx, cancel := context.WithTimeout(ctx, timeout)
			start := time.Now()
			err := d.Act(actx, el, runtime.Act{Kind: runtime.ActClick})
			took := time.Since(start)
			cancel()
			if !errors.Is(err, runtime.ErrNotInteractable) || !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("Act = %v, want ErrNotInteractable and DeadlineExceeded", err)
			}
			if took > timeout+time.Second {
				t.Errorf("Act took %v with a %v timeout", took, timeout)
			}
			var ne *NotInteractableError
			if !errors.As(err, &ne) {
				t.Fatalf("Act = %T %v, want a *NotInteractableError", err, err)
			}
			if ne.Check != CheckReceivesEvents || !strings.Contains(ne.Cover, "modal-backdrop") || ne.At == nil ||
				ne.ViewportW != 800 || ne.Box.W <= 0 || ne.Box.H <= 0 {
				t.Fatalf("error %+v: want check %s, a modal-backdrop cover, a point, the box and an 800-wide viewport", ne, CheckReceivesEvents)
			}
			for _, want := range []string{"covered by <div class=modal-backdrop> at (", "; box {x:", "; viewport 800x600"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not say %q", err, want)
				}
			}
			if got := clicksOf(t, ctx, d, el); got != "0" {
				t.Errorf("%s counted %s clicks under the modal", tc.css, got)
			}
		})
	}
}

// foldCap clicks "Below action" on the fold app and expects the header
// to count it.
func foldCap(origin string, timeoutMS int) *capability.Capability {
	c := barrierCap(origin, "/stress/fold",
		barrierClick("below", capability.EffectReadOnly, textCond("1 clicks"), role("button", "Below action")))
	c.ID = "test.fold"
	c.Runtime.ActionTimeoutMS = timeoutMS
	return c
}

// TestFoldExecute: through runtime.Execute a capability whose button is
// across the fold ends completed at every window size; under a modal it
// ends failed ui_assertion_failed/not_interactable within the action
// timeout, the debug detail naming the cover. (Under a visible dialog the
// runtime stops first, blocked_by_unknown_modal, so the cover here is a
// busy overlay.)
func TestFoldExecute(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	origin := s.Stress.Origin()
	for _, sz := range foldSizes {
		t.Run(itoa(sz.w)+"x"+itoa(sz.h), func(t *testing.T) {
			ctx := tctx(t, 60*time.Second)
			setWindow(t, ctx, d, sz.w, sz.h)
			res := execute(t, ctx, d, foldCap(origin, 5000), nil)
			if res.State != runtime.StateCompleted {
				t.Fatalf("run ended %s, want completed", describeResult(res))
			}
		})
	}
	t.Run("busy-overlay", func(t *testing.T) {
		ctx := tctx(t, 60*time.Second)
		setWindow(t, ctx, d, 800, 600)
		c := foldCap(origin, 2000)
		c.Runtime.Start = "/stress/fold/busy"
		var logs bytes.Buffer
		log := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
		start := time.Now()
		res := execute(t, ctx, d, c, nil, runtime.WithLogger(log))
		took := time.Since(start)
		if res.State != runtime.StateFailed || res.Failure == nil ||
			res.Failure.Category != receipt.CategoryUIAssertionFailed || res.Failure.Reason != string(runtime.ReasonNotInteractable) {
			t.Fatalf("run ended %s, want failed ui_assertion_failed/not_interactable", describeResult(res))
		}
		if !strings.Contains(logs.String(), "covered by <div class=modal-backdrop busy>") {
			t.Errorf("the debug detail does not name the cover:\n%s", logs.String())
		}
		if took > 10*time.Second {
			t.Errorf("the run took %v with a 2 s action timeout", took)
		}
	})
}

// TestNotInteractableErrorMessage: the message names the check's
// finding, the point, the box and the viewport, and the error matches
// both sentinels.
func TestNotInteractableErrorMessage(t *testing.T) {
	for _, tc := range []struct {
		err  *NotInteractableError
		want string
	}{
		{&NotInteractableError{Check: CheckReceivesEvents, Detail: "covered by <header class=sticky>", Cover: "<header class=sticky>",
			At: &Point{640, 30.25}, Box: Rect{600, 10, 80.5, 40}, ViewportW: 1280, ViewportH: 720, Err: context.DeadlineExceeded},
			"element not interactable: covered by <header class=sticky> at (640,30.3); box {x:600 y:10 w:80.5 h:40}; viewport 1280x720: context deadline exceeded"},
		{&NotInteractableError{Check: CheckEnabled, Detail: "disabled", Box: Rect{-3, 2000, 10, 10}, ViewportW: 390, ViewportH: 700},
			"element not interactable: disabled; box {x:-3 y:2000 w:10 h:10}; viewport 390x700"},
	} {
		if got := tc.err.Error(); got != tc.want {
			t.Errorf("Error() =\n%s\nwant\n%s", got, tc.want)
		}
		var err error = fmt.Errorf("browser: click: %w", tc.err)
		if !errors.Is(err, runtime.ErrNotInteractable) || (tc.err.Err != nil) != errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("%v: errors.Is does not match the sentinels", err)
		}
		var ne *NotInteractableError
		if !errors.As(err, &ne) || ne.Check != tc.err.Check {
			t.Errorf("%v: errors.As = %+v", err, ne)
		}
	}
}

// TestStressFold is the fold capability in the stress tier (VERA_STRESS=1,
// on a saturated CPU): at every window size, launch mode, the button
// across the fold must end completed, every iteration.
func TestStressFold(t *testing.T) {
	n := stressIterations(t)
	d := shared(t)
	s := sites(t)
	c := foldCap(s.Stress.Origin(), 5000)
	y := &tally{t: t, name: "fold"}
	for i := range n {
		for _, sz := range foldSizes {
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			if err := d.call(ctx, d.pageSID, proto.EmulationSetDeviceMetricsOverride{Width: sz.w, Height: sz.h, DeviceScaleFactor: 1}, nil); err != nil {
				cancel()
				t.Fatal(err)
			}
			res := execute(t, ctx, d, c, nil)
			var problems []string
			if res.State != runtime.StateCompleted {
				problems = append(problems, itoa(sz.w)+"x"+itoa(sz.h)+": not completed")
			}
			y.judge(i, res, problems)
			cancel()
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	_ = d.call(ctx, d.pageSID, proto.EmulationClearDeviceMetricsOverride{}, nil)
	cancel()
	y.done()
}
