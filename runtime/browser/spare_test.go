package browser

import (
	"context"
	"errors"
	"syscall"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"
	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/runtime"
)

// spareOf is b's spare slot now (nil for none).
func spareOf(b *Browser) *spareSlot {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.spare
}

// readySpare waits until b's spare open ended and returns the slot (nil
// when b has no spare).
func readySpare(t *testing.T, b *Browser) *spareSlot {
	t.Helper()
	s := spareOf(b)
	if s == nil {
		return nil
	}
	select {
	case <-s.done:
	case <-time.After(30 * time.Second):
		t.Fatal("the spare's open did not end within 30 s")
	}
	if s.err != nil {
		t.Fatalf("spare open: %v", s.err)
	}
	return s
}

// launchSpareBrowser launches a Browser with opts, closed when the test
// ends.
func launchSpareBrowser(t *testing.T, opts ...Option) *Browser {
	t.Helper()
	bin := requireBrowser(t)
	b, err := LaunchBrowser(tctx(t, 60*time.Second), append([]Option{WithBrowserPath(bin)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	return b
}

// pageCookie navigates d to the teller's login page and returns its
// document.cookie after setting one named name (when set).
func pageCookie(t *testing.T, ctx context.Context, d *Driver, origin, url, set string) string {
	t.Helper()
	if err := d.RestrictOrigins(ctx, runtime.OriginScope{Allowed: []string{origin}}); err != nil {
		t.Fatal(err)
	}
	if err := d.Navigate(ctx, url); err != nil {
		t.Fatal(err)
	}
	expr := `document.cookie`
	if set != "" {
		expr = `(document.cookie = ` + jsString(set) + `, document.cookie)`
	}
	var r proto.RuntimeEvaluateResult
	if err := d.call(ctx, d.pageSID, proto.RuntimeEvaluate{Expression: expr, ReturnByValue: true}, &r); err != nil {
		t.Fatal(err)
	}
	return r.Result.Value.Str()
}

// TestBrowserSpare: a launched Browser opens a spare when it starts and
// NewDriver hands that very driver out; the next spare is opened only
// when a driver is closed, in a browser context of its own, so the
// cookie the first run set is not in the second run's context.
func TestBrowserSpare(t *testing.T) {
	t.Parallel()
	s := sites(t)
	b := launchSpareBrowser(t)
	sp := readySpare(t, b)
	if sp == nil {
		t.Fatal("a launched Browser has no spare after it started")
	}
	ctx := tctx(t, 60*time.Second)
	d, err := b.NewDriver(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if d != sp.d {
		t.Fatal("NewDriver did not hand out the ready spare")
	}
	if a := b.Active(); a != 1 {
		t.Errorf("Active() = %d with the spare handed out", a)
	}
	if spareOf(b) != nil {
		t.Error("a spare is opened while the driver that took the last one runs")
	}
	if c := pageCookie(t, ctx, d, s.Teller.Origin(), s.Teller.URL()+"/login", "run=first"); c != "run=first" {
		t.Fatalf("cookie in the first run: %q", c)
	}
	first := d.browserCtxID
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	sp2 := readySpare(t, b)
	if sp2 == nil {
		t.Fatal("no spare opened after the driver closed")
	}
	d2, err := b.NewDriver(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer d2.Close()
	if d2 != sp2.d || d2.browserCtxID == first {
		t.Fatalf("second driver: spare %v, context %s (first %s)", d2 == sp2.d, d2.browserCtxID, first)
	}
	if c := pageCookie(t, ctx, d2, s.Teller.Origin(), s.Teller.URL()+"/login", ""); c != "" {
		t.Errorf("the second run's context sees the first run's cookie: %q", c)
	}
	// The spare's warm-up ran the helpers on its blank page: on the
	// run's first document they answer as on any other.
	top, _, err := d2.Frame(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	counts, err := d2.FindCounts(ctx, top, nil, []locator.Candidate{{Strategy: locator.Label, Label: "Username"}, {Strategy: locator.Text, Text: "vera warm-up"}, {Strategy: locator.CSS, CSS: "input"}})
	if err != nil || len(counts) != 3 || counts[0] != 1 || counts[1] != 0 || counts[2] < 2 {
		t.Errorf("FindCounts on the first document after the warm-up: %v, %v", counts, err)
	}
	for _, c := range []locator.Candidate{{Strategy: locator.Label, Label: "Username"}, {Strategy: locator.Role, Role: "textbox", Name: "Password"}} {
		if els, err := d2.Find(ctx, top, nil, c); err != nil || len(els) != 1 {
			t.Errorf("Find %v after the warm-up: %d, %v", c, len(els), err)
		}
	}
	if d2.Info().Mode != runtime.ModeLiveLaunched {
		t.Errorf("mode = %q", d2.Info().Mode)
	}
}

// TestBrowserSpareOff: WithSpare(false) on a launched Browser, and a
// connected Browser by default, open no spare.
func TestBrowserSpareOff(t *testing.T) {
	t.Parallel()
	b := launchSpareBrowser(t, WithSpare(false))
	d, err := b.NewDriver(tctx(t, 60*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	_ = d.Close()
	if readySpare(t, b) != nil {
		t.Error("WithSpare(false): a spare was opened")
	}
	ext := startExternal(t)
	before, _ := browserTargets(t, ext.Endpoint())
	cb, err := ConnectBrowser(tctx(t, 30*time.Second), ext.endpoint)
	if err != nil {
		t.Fatal(err)
	}
	defer cb.Close()
	d, err = cb.NewDriver(tctx(t, 60*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	_ = d.Close()
	if readySpare(t, cb) != nil {
		t.Error("ConnectBrowser without WithSpare opened a spare")
	}
	if after, _ := browserTargets(t, ext.Endpoint()); len(after) != len(before) {
		t.Errorf("browser contexts: %d before, %d after a driver closed", len(before), len(after))
	}
}

// TestBrowserSpareConnectedClose: a connected Browser with WithSpare(true)
// keeps one more browser context (the spare's) and Close disposes it,
// leaving the operator's browser running as it found it.
func TestBrowserSpareConnectedClose(t *testing.T) {
	t.Parallel()
	ext := startExternal(t)
	ws := ext.Endpoint()
	before, pages := browserTargets(t, ws)
	b, err := ConnectBrowser(tctx(t, 30*time.Second), ext.endpoint, WithSpare(true))
	if err != nil {
		t.Fatal(err)
	}
	if readySpare(t, b) == nil {
		t.Fatal("WithSpare(true): no spare")
	}
	with, withPages := browserTargets(t, ws)
	if len(with) != len(before)+1 || withPages != pages+1 {
		t.Errorf("with the spare: %d contexts and %d pages, before: %d and %d", len(with), withPages, len(before), pages)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if !ext.alive(t) {
		t.Fatal("the connected browser did not survive Close")
	}
	after, afterPages := browserTargets(t, ws)
	if len(after) != len(before) || afterPages != pages {
		t.Errorf("after Close: %d contexts and %d pages, before: %d and %d", len(after), afterPages, len(before), pages)
	}
}

// TestBrowserSpareDead: a spare whose page was closed from outside while
// it waited is not handed out: NewDriver opens a fresh driver that works,
// and the dead spare's context is disposed.
func TestBrowserSpareDead(t *testing.T) {
	t.Parallel()
	ext := startExternal(t)
	ws := ext.Endpoint()
	s := sites(t)
	before, _ := browserTargets(t, ws)
	b, err := ConnectBrowser(tctx(t, 30*time.Second), ext.endpoint, WithSpare(true))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	sp := readySpare(t, b)
	if sp == nil {
		t.Fatal("no spare")
	}
	var closed proto.TargetCloseTargetResult
	browserCall(t, ws, proto.TargetCloseTarget{TargetID: sp.d.pageTarget}, &closed)
	ctx := tctx(t, 60*time.Second)
	d, err := b.NewDriver(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if d == sp.d {
		t.Fatal("NewDriver handed out the spare whose page was closed")
	}
	if c := pageCookie(t, ctx, d, s.Teller.Origin(), s.Teller.URL()+"/login", "alive=1"); c != "alive=1" {
		t.Errorf("fresh driver: cookie %q", c)
	}
	if ctxs, _ := browserTargets(t, ws); len(ctxs) != len(before)+1 {
		t.Errorf("browser contexts: %d before the Browser, %d with one driver open (the dead spare's left?)", len(before), len(ctxs))
	}
}

// TestBrowserSpareCrashed: when the launched browser dies with a spare
// ready, NewDriver fails with ErrBrowserCrashed instead of handing out a
// driver of a browser that is gone.
func TestBrowserSpareCrashed(t *testing.T) {
	b := launchSpareBrowser(t)
	if readySpare(t, b) == nil {
		t.Fatal("no spare")
	}
	if err := syscall.Kill(b.proc.pid(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-b.Done()
	d, err := b.NewDriver(tctx(t, 30*time.Second))
	if !errors.Is(err, runtime.ErrBrowserCrashed) {
		if d != nil {
			_ = d.Close()
		}
		t.Fatalf("NewDriver after the browser died: %v", err)
	}
}

// TestBrowserSpareWait: NewDriver waits for a spare whose open is under
// way; a caller whose ctx ends first gets ErrBrowserUnavailable and the
// spare stays for the next caller, which gets that very driver once its
// open ended. The slot is driven by hand so the open's timing cannot
// decide the case.
func TestBrowserSpareWait(t *testing.T) {
	t.Parallel()
	b := launchSpareBrowser(t, WithSpare(false))
	slot := &spareSlot{done: make(chan struct{})}
	b.mu.Lock()
	b.spare = slot
	b.mu.Unlock()

	short, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if d, err := b.NewDriver(short); !errors.Is(err, runtime.ErrBrowserUnavailable) || !errors.Is(err, context.DeadlineExceeded) {
		if d != nil {
			_ = d.Close()
		}
		t.Fatalf("NewDriver whose ctx ended while the spare opened: %v", err)
	}
	if spareOf(b) != slot {
		t.Fatal("the spare was not kept after a caller stopped waiting for it")
	}
	b.mu.Lock()
	wanted := slot.wanted
	b.mu.Unlock()
	if wanted {
		t.Error("a spare given back is still marked as waited for (its open would skip the warm-up)")
	}

	got := make(chan *Driver, 1)
	errc := make(chan error, 1)
	go func() {
		d, err := b.NewDriver(tctx(t, 60*time.Second))
		got <- d
		errc <- err
	}()
	// Once the caller waits, the slot is marked so (the open that ends
	// then skips the warm-up).
	for deadline := time.Now().Add(10 * time.Second); ; {
		b.mu.Lock()
		wanted := slot.wanted
		b.mu.Unlock()
		if wanted {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("a NewDriver waiting for the spare did not mark it as waited for")
		}
		time.Sleep(time.Millisecond)
	}
	// Open the spare's driver and end the slot's open.
	d, private, err := b.openDriver(tctx(t, 60*time.Second), b.o)
	if err != nil {
		t.Fatal(err)
	}
	b.mu.Lock()
	slot.d, slot.private = d, private
	close(slot.done)
	b.mu.Unlock()
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	if h := <-got; h != d {
		_ = h.Close()
		t.Fatal("the waiting caller did not get the spare")
	}
	if a := b.Active(); a != 1 {
		t.Errorf("Active() = %d", a)
	}
}

// TestBrowserSpareCloseOpening: Close while the spare is being opened
// ends that open; TestMain checks that no process or goroutine is left.
func TestBrowserSpareCloseOpening(t *testing.T) {
	t.Parallel()
	bin := requireBrowser(t)
	for range 3 {
		b, err := LaunchBrowser(tctx(t, 60*time.Second), WithBrowserPath(bin))
		if err != nil {
			t.Fatal(err)
		}
		if err := b.Close(); err != nil {
			t.Fatal(err)
		}
		if spareOf(b) != nil {
			t.Error("a spare is left after Close")
		}
	}
}
