package browser

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/cdp"
	"github.com/go-rod/rod/lib/proto"
	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/testsite"
	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
)

// routeLog records what a Browser's attacher did with every target it
// attached (withAttachTrace).
type routeLog struct {
	mu     sync.Mutex
	routes []routeEntry
}

type routeEntry struct {
	ctx  proto.BrowserBrowserContextID
	typ  proto.TargetTargetInfoType
	to   *Driver
	toBC proto.BrowserBrowserContextID // to's context at routing time
}

func (l *routeLog) note(info *proto.TargetTargetInfo, to *Driver) {
	e := routeEntry{ctx: info.BrowserContextID, typ: info.Type, to: to}
	if to != nil {
		to.mu.Lock()
		e.toBC = to.browserCtxID
		to.mu.Unlock()
	}
	l.mu.Lock()
	l.routes = append(l.routes, e)
	l.mu.Unlock()
}

// pagesTo counts the page targets routed to d.
func (l *routeLog) pagesTo(d *Driver) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, r := range l.routes {
		if r.to == d && r.typ == proto.TargetTargetInfoTypePage {
			n++
		}
	}
	return n
}

func (d *Driver) foreignSeen() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.foreign
}

// openPopup navigates d to the popup escape page and clicks "Open popup".
func openPopup(ctx context.Context, d *Driver, s *testsite.Sites) error {
	if err := d.Navigate(ctx, s.Teller.URL()+testsite.EscapePopup); err != nil {
		return err
	}
	els, err := d.Find(ctx, nil, nil, role("button", "Open popup"))
	if err != nil || len(els) != 1 {
		return fmt.Errorf("find Open popup: %d %v", len(els), err)
	}
	return d.Act(ctx, els[0], runtime.Act{Kind: runtime.ActClick})
}

// TestBrowserAttachOnePath: drivers of one Browser do not auto-attach
// browser wide. K idle drivers are open while N more open at once and
// each opens a popup: no driver's own connection ever receives an
// attached target of another browser context (each driver's count of
// foreign attach events stays 0), the idle drivers are handed nothing
// after their own page, and every target the Browser's attacher routed
// went to the driver owning its context. A standalone Connect driver on
// the same browser, opened afterwards, is the control: its
// browser-level auto-attach sees the Browser's targets.
func TestBrowserAttachOnePath(t *testing.T) {
	ext := startExternal(t)
	s := sites(t)
	s.Outside.ResetHits()
	var log routeLog
	ctx := tctx(t, 90*time.Second)
	b, err := ConnectBrowser(ctx, ext.endpoint, withAttachTrace(log.note))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()

	const idle, busy = 4, 3
	var idles []*Driver
	for range idle {
		d, err := b.NewDriver(ctx)
		if err != nil {
			t.Fatal(err)
		}
		idles = append(idles, d)
	}
	busyDrivers := make([]*Driver, busy)
	errs := make([]error, busy)
	var wg sync.WaitGroup
	for i := range busy {
		wg.Go(func() {
			d, err := b.NewDriver(ctx)
			if err != nil {
				errs[i] = err
				return
			}
			busyDrivers[i] = d
			if err := d.RestrictOrigins(ctx, runtime.OriginScope{Allowed: []string{s.Teller.Origin()}}); err != nil {
				errs[i] = err
				return
			}
			errs[i] = openPopup(ctx, d, s)
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("driver %d: %v", i, err)
		}
	}
	for i, d := range busyDrivers {
		defer d.Close()
		if v := waitViolations(t, ctx, d, 1); v[0].Kind != runtime.ViolationPopup {
			t.Errorf("busy driver %d: violations %v", i, v)
		}
		if n := log.pagesTo(d); n != 2 {
			t.Errorf("busy driver %d was handed %d pages, want 2 (its page and its popup)", i, n)
		}
	}
	for i, d := range append(slices.Clone(idles), busyDrivers...) {
		if n := d.foreignSeen(); n != 0 {
			t.Errorf("driver %d: its connection saw %d targets of other browser contexts", i, n)
		}
	}
	for i, d := range idles {
		if n := log.pagesTo(d); n != 1 {
			t.Errorf("idle driver %d was handed %d pages, want 1 (its own)", i, n)
		}
	}
	log.mu.Lock()
	for _, r := range log.routes {
		if r.to != nil && r.toBC != r.ctx {
			t.Errorf("a %s target of context %s went to the driver of context %s", r.typ, r.ctx, r.toBC)
		}
	}
	log.mu.Unlock()
	// The control, opened only now: a driver that auto-attaches browser
	// wide on its own connection sees the Browser's open pages. (Opened
	// earlier, it would release the Browser drivers' popups before their
	// owners' interception is in place: one session's
	// Runtime.runIfWaitingForDebugger lets the target run for all.)
	control, err := Connect(ctx, ext.endpoint)
	if err != nil {
		t.Fatal(err)
	}
	defer control.Close()
	if n := control.foreignSeen(); n < idle+busy {
		t.Errorf("control driver saw %d foreign targets, want at least %d", n, idle+busy)
	}
	if n := s.Outside.TotalHits(); n != 0 {
		t.Errorf("Outside received %d requests", n)
	}
}

// TestBrowserPopupsGatedPerDriver: two drivers of one Browser with
// different origin scopes open a popup to the outside origin at once,
// with the network gate off so only the hold and the interception stand
// between the popup and its first request. The driver whose scope
// excludes the outside origin records the popup violation and the
// outside server never sees its request; the driver whose scope allows
// it loads the popup (exactly one request for the outside page), and
// records nothing.
func TestBrowserPopupsGatedPerDriver(t *testing.T) {
	bin := requireBrowser(t)
	s := sites(t)
	s.Outside.ResetHits()
	ctx := tctx(t, 90*time.Second)
	b, err := LaunchBrowser(ctx, WithBrowserPath(bin), withoutGate())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	scopes := []runtime.OriginScope{
		{Allowed: []string{s.Teller.Origin()}},
		{Allowed: []string{s.Teller.Origin(), s.Outside.Origin()}},
	}
	ds := make([]*Driver, len(scopes))
	for i, sc := range scopes {
		d, err := b.NewDriver(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		if err := d.RestrictOrigins(ctx, sc); err != nil {
			t.Fatal(err)
		}
		ds[i] = d
	}
	errs := make([]error, len(ds))
	var wg sync.WaitGroup
	for i, d := range ds {
		wg.Go(func() { errs[i] = openPopup(ctx, d, s) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("driver %d: %v", i, err)
		}
	}
	v := waitViolations(t, ctx, ds[0], 1)
	if len(v) != 1 || v[0] != (runtime.Violation{Kind: runtime.ViolationPopup, Origin: s.Outside.Origin()}) {
		t.Errorf("restricted driver: violations %v", v)
	}
	// The allowed popup loads its page: wait for it in that driver.
	sid := popupSession(t, ctx, ds[1])
	if got := innerSize(t, ctx, ds[1], sid, "location.href.endsWith('/page') && document.readyState === 'complete'"); got == "" {
		t.Fatal("allowed popup has no size")
	}
	if got, err := ds[1].Violations(ctx); err != nil || len(got) != 0 {
		t.Errorf("allowing driver: violations %v %v", got, err)
	}
	if n := s.Outside.Hits("/page"); n != 1 {
		t.Errorf("Outside /page received %d requests, want 1 (the allowed popup's only): %v", n, s.Outside.Requests())
	}
}

// waitErr polls a driver call until it fails, bounded by ctx, and
// returns the error.
func waitErr(t *testing.T, ctx context.Context, d *Driver) error {
	t.Helper()
	for {
		_, err := d.URL(ctx)
		if err != nil {
			return err
		}
		select {
		case <-ctx.Done():
			t.Fatalf("driver still answers: %v", ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// TestBrowserKilledReachesEveryDriver: a launched Browser killed under
// its open drivers fails each of them with runtime.ErrBrowserCrashed,
// and NewDriver too; Close still releases everything (TestMain checks
// no process or goroutine is left).
func TestBrowserKilledReachesEveryDriver(t *testing.T) {
	bin := requireBrowser(t)
	ctx := tctx(t, 60*time.Second)
	b, err := LaunchBrowser(ctx, WithBrowserPath(bin))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	var ds []*Driver
	for range 3 {
		d, err := b.NewDriver(ctx)
		if err != nil {
			t.Fatal(err)
		}
		ds = append(ds, d)
	}
	if err := syscall.Kill(b.proc.pid(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	for i, d := range ds {
		if err := waitErr(t, ctx, d); !errors.Is(err, runtime.ErrBrowserCrashed) {
			t.Errorf("driver %d after the kill: %v, want ErrBrowserCrashed", i, err)
		}
	}
	select {
	case <-b.Done():
	case <-ctx.Done():
		t.Fatal("Done not closed after the kill")
	}
	if _, err := b.NewDriver(ctx); !errors.Is(err, runtime.ErrBrowserCrashed) {
		t.Errorf("NewDriver after the kill: %v, want ErrBrowserCrashed", err)
	}
	if err := b.Close(); err != nil {
		t.Logf("Close after the kill: %v", err)
	}
}

// TestBrowserAttachLost: when the Browser's attach connection ends (the
// endpoint dropped it) no new target could be held before its first
// request, so every open driver fails with runtime.ErrBrowserCrashed and
// NewDriver with runtime.ErrBrowserUnavailable; the connected browser
// keeps running and Close still disposes the drivers' contexts.
func TestBrowserAttachLost(t *testing.T) {
	ext := startExternal(t)
	ctx := tctx(t, 60*time.Second)
	b, err := ConnectBrowser(ctx, ext.endpoint)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	var ds []*Driver
	for range 2 {
		d, err := b.NewDriver(ctx)
		if err != nil {
			t.Fatal(err)
		}
		ds = append(ds, d)
	}
	ctxs, _ := browserTargets(t, b.wsURL)
	// The endpoint's side of a lost connection: the socket ends without
	// the attacher closing.
	_ = b.att.ws.Close()
	for i, d := range ds {
		if err := waitErr(t, ctx, d); !errors.Is(err, runtime.ErrBrowserCrashed) {
			t.Errorf("driver %d after the attach connection ended: %v, want ErrBrowserCrashed", i, err)
		}
	}
	if _, err := b.NewDriver(ctx); !errors.Is(err, runtime.ErrBrowserUnavailable) {
		t.Errorf("NewDriver after the attach connection ended: %v, want ErrBrowserUnavailable", err)
	}
	if err := b.Close(); err != nil {
		t.Logf("Close: %v", err)
	}
	if !ext.alive(t) {
		t.Fatal("the connected browser did not survive")
	}
	if after, _ := browserTargets(t, b.wsURL); len(after) > len(ctxs)-2 {
		t.Errorf("browser contexts: %d with two drivers open, %d after Close", len(ctxs), len(after))
	}
}

// TestBarrierPopupBrowserDriver: the causal barrier of a Browser's
// driver covers a popup its click opened although the popup is first
// attached by the Browser's attach connection, not the driver's: a
// click that opens a popup to an origin outside the scope ends the run
// as popup_blocked, counted, every time.
func TestBarrierPopupBrowserDriver(t *testing.T) {
	bin := requireBrowser(t)
	s := sites(t)
	s.Outside.ResetHits()
	b, err := LaunchBrowser(tctx(t, 60*time.Second), WithBrowserPath(bin))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	c := barrierCap(s.Teller.Origin(), testsite.EscapePopup,
		barrierClick("open", capability.EffectReadOnly, textCond("Popup escape"), role("button", "Open popup")))
	n := barrierRepeat(t)
	for i := range n {
		ctx := tctx(t, 60*time.Second)
		d, err := b.NewDriver(ctx)
		if err != nil {
			t.Fatal(err)
		}
		res := execute(t, ctx, d, c, nil)
		_ = d.Close()
		if res.State != runtime.StateFailed || res.Failure == nil ||
			res.Failure.Category != receipt.CategoryOriginNotAllowed || res.Failure.Reason != "popup_blocked" {
			t.Fatalf("run %d/%d ended %s, want failed origin_not_allowed/popup_blocked", i+1, n, describeResult(res))
		}
		if res.BlockedRequests < 1 || res.Clean {
			t.Fatalf("run %d/%d: blocked_requests %d, clean %v", i+1, n, res.BlockedRequests, res.Clean)
		}
	}
	if hits := s.Outside.TotalHits(); hits != 0 {
		t.Errorf("the outside origin got %d requests", hits)
	}
}

// endingWS is a CDP socket whose connection ends while a call is being
// sent: Send lets Read fail, waits until the reader has answered the
// pending call with the error (it blocks handing it over) and then
// fails too, the order in which a real connection's end can reach a
// call.
type endingWS struct {
	ending chan struct{} // closed by Send: Read fails
	read   chan struct{} // closed when Read returned its error
}

func (w *endingWS) Send([]byte) error {
	close(w.ending)
	<-w.read
	// The reader answers the pending call right after Read returned;
	// let it get there before the call sees its own error (the order
	// that loses the connection's end; the test passes either way on
	// the fixed code).
	time.Sleep(50 * time.Millisecond)
	return errors.New("send: connection ended")
}

func (w *endingWS) Read() ([]byte, error) {
	<-w.ending
	close(w.read)
	return nil, errors.New("read: connection ended")
}

// TestCallOnSendFailsWhileReaderAnswers: a call whose Send fails while
// the client's reader answers it with the connection's end must not
// leave the reader waiting on the call's context: the reader ends and
// closes the event channel (which is how a driver and the attach
// connection learn that the connection is gone).
func TestCallOnSendFailsWhileReaderAnswers(t *testing.T) {
	ws := &endingWS{ending: make(chan struct{}), read: make(chan struct{})}
	c := cdp.New().Logger(discardLogger{}).Start(ws)
	// A lifetime context, cancelled only at the end of the test: the
	// reader must not need it.
	life, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := callOn(life, c, "", proto.BrowserGetVersion{}, nil); err == nil {
		t.Fatal("call on an ended connection succeeded")
	}
	select {
	case _, ok := <-c.Event():
		if ok {
			t.Fatal("an event from a connection that sent none")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the client's reader did not end: it waits to answer a call that returned")
	}
}
