package browser

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"
	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/runtime"
)

// TestSettleHoldsThroughNextLoad: a form post whose next document runs a
// slow script, which then loads an image from outside the origin scope.
// The barrier after the click must hold until that document stopped
// loading, so the blocked image is a violation when Settle returns.
// Chromium clears the scheduled navigation (frameClearedScheduledNavigation)
// right after the frame starts loading; the barrier used to take that for
// the end of the load, and only the 60 ms quiet window after the document
// reply held it, far less than the slow script takes. The document reply
// for the loading frame now opens no window at all: the load holds the
// barrier instead, and the image (which delays the load event, so it is
// paused before the frame can stop loading) is always seen.
func TestSettleHoldsThroughNextLoad(t *testing.T) {
	t.Parallel()
	d := shared(t)
	ctx := tctx(t, 120*time.Second)
	var outsideHits atomic.Int64
	outside := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		outsideHits.Add(1)
		w.Header().Set("Content-Type", "image/png")
	}))
	t.Cleanup(outside.Close)
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/" && r.Method == http.MethodGet:
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, `<!doctype html><title>Form</title><form method=post action=/submit><button>Send</button></form>`)
		case r.URL.Path == "/submit" && r.Method == http.MethodPost:
			http.Redirect(w, r, "/next", http.StatusSeeOther)
		case r.URL.Path == "/next":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, `<!doctype html><title>Next</title><h1>Next</h1><script src="/slow.js"></script>`)
		case r.URL.Path == "/slow.js":
			// A slow server: the script arrives well after the
			// document (and its quiet window) did.
			select {
			case <-time.After(400 * time.Millisecond):
			case <-r.Context().Done():
				return
			}
			w.Header().Set("Content-Type", "text/javascript")
			fmt.Fprintf(w, `const img = document.createElement('img'); img.alt = ''; img.src = %q; document.body.appendChild(img);`, outside.URL+"/pixel.png")
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(site.Close)
	if err := d.RestrictOrigins(ctx, runtime.OriginScope{Allowed: []string{site.URL}}); err != nil {
		t.Fatal(err)
	}
	for i := range barrierRepeat(t) {
		if err := d.Navigate(ctx, site.URL+"/"); err != nil {
			t.Fatal(err)
		}
		if err := d.Settle(ctx); err != nil {
			t.Fatal(err)
		}
		if vs, err := d.Violations(ctx); err != nil || len(vs) != 0 {
			t.Fatalf("run %d: violations before the click = %v, %v", i, vs, err)
		}
		top, _, err := d.Frame(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		els, err := d.Find(ctx, top, nil, role("button", "Send"))
		if err != nil || len(els) != 1 {
			t.Fatalf("run %d: Find = %d, %v", i, len(els), err)
		}
		if err := d.Act(ctx, els[0], runtime.Act{Kind: runtime.ActClick}); err != nil {
			t.Fatalf("run %d: click: %v", i, err)
		}
		if err := d.Settle(ctx); err != nil {
			t.Fatal(err)
		}
		vs, err := d.Violations(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(vs) != 1 || vs[0].Kind != runtime.ViolationSubresource || vs[0].Origin != outside.URL {
			t.Fatalf("run %d: violations when Settle returned = %+v, want the blocked image from %s", i, vs, outside.URL)
		}
	}
	if n := outsideHits.Load(); n != 0 {
		t.Errorf("the outside origin was reached %d times", n)
	}
}

// TestActPaths: a fill of a ready control costs one call that checks and
// prepares it, the text, and one call that checks it took and fires the
// change event; a top-level click that reached its element sends no
// call to disarm its guard (the guard removed itself at the press), and
// the page's own events after it are not stopped; a control that is read-only at first, one that
// moves while it is filled, a date input and a contenteditable element
// are filled all the same through the polling path, and a malformed date
// is refused as unsupported.
func TestActPaths(t *testing.T) {
	requireBrowser(t)
	ctx := tctx(t, 120*time.Second)
	var (
		counting atomic.Bool
		mu       sync.Mutex
		calls    = map[string]int{}
	)
	d, err := Launch(ctx, withCallTrace(func(method string, _ time.Time) {
		if counting.Load() {
			mu.Lock()
			calls[method]++
			mu.Unlock()
		}
	}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><title>Fill</title>
<button id=go onclick="this.dataset.n = +(this.dataset.n || 0) + 1">Go</button>
<button id=other onpointerdown="this.dataset.down = 1" onclick="this.dataset.n = +(this.dataset.n || 0) + 1">Other</button>
<label>Plain <input id=plain></label>
<label>Later <input id=later readonly></label>
<p><label>Moving <input id=moving style="position:relative"></label></p>
<label>When <input id=when type=date></label>
<div id=notes contenteditable role=textbox aria-label=Notes>old notes</div>
<p id=log></p>
<script>
const log = [];
for (const el of document.querySelectorAll('input, [contenteditable]')) {
  el.addEventListener('input', () => log.push('input ' + el.id));
  el.addEventListener('change', () => log.push('change ' + el.id));
}
window.unlockLater = () => setTimeout(() => { document.getElementById('later').readOnly = false; }, 200);
window.startMoving = () => {
  const m = document.getElementById('moving'); let n = 0;
  const iv = setInterval(() => { m.style.left = (++n) + 'px'; if (n >= 60) clearInterval(iv); }, 5);
};
window.fillLog = () => log.join(',');
</script>`)
	}))
	t.Cleanup(site.Close)
	if err := d.Navigate(ctx, site.URL+"/"); err != nil {
		t.Fatal(err)
	}
	top, _, err := d.Frame(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	find := func(label string) runtime.Element {
		t.Helper()
		els, err := d.Find(ctx, top, nil, locator.Candidate{Strategy: locator.Label, Label: label, Exact: true})
		if err != nil || len(els) != 1 {
			t.Fatalf("Find %q = %d, %v", label, len(els), err)
		}
		return els[0]
	}
	eval := func(expr string) string {
		t.Helper()
		var res proto.RuntimeEvaluateResult
		if err := d.call(ctx, d.pageSID, proto.RuntimeEvaluate{Expression: expr, ReturnByValue: true}, &res); err != nil || res.ExceptionDetails != nil {
			t.Fatalf("evaluate %s: %v %+v", expr, err, res.ExceptionDetails)
		}
		return res.Result.Value.Str()
	}
	fill := func(label, value string) error {
		el := find(label)
		return d.Act(ctx, el, runtime.Act{Kind: runtime.ActFill, Value: value})
	}

	plain := find("Plain")
	counting.Store(true)
	if err := d.Act(ctx, plain, runtime.Act{Kind: runtime.ActFill, Value: "teller1"}); err != nil {
		t.Fatal(err)
	}
	counting.Store(false)
	mu.Lock()
	got := fmt.Sprint(calls)
	cfo, ins := calls["Runtime.callFunctionOn"], calls["Input.insertText"]
	mu.Unlock()
	if cfo != 2 || ins != 1 {
		t.Errorf("a plain fill sent %s, want 2 Runtime.callFunctionOn (checked and prepared, checked and change) and 1 Input.insertText", got)
	}

	goBtn, err := d.Find(ctx, top, nil, role("button", "Go"))
	if err != nil || len(goBtn) != 1 {
		t.Fatalf("Find Go = %d, %v", len(goBtn), err)
	}
	mu.Lock()
	clear(calls)
	mu.Unlock()
	counting.Store(true)
	if err := d.Act(ctx, goBtn[0], runtime.Act{Kind: runtime.ActClick}); err != nil {
		t.Fatal(err)
	}
	counting.Store(false)
	mu.Lock()
	got = fmt.Sprint(calls)
	cfo, mouse := calls["Runtime.callFunctionOn"], calls["Input.dispatchMouseEvent"]
	mu.Unlock()
	if cfo != 3 || mouse != 3 {
		t.Errorf("a top-level click sent %s, want 3 Runtime.callFunctionOn (two measurements an animation frame apart in one, arm, read) and 3 Input.dispatchMouseEvent", got)
	}
	// The page's own press elsewhere and its click go through: no guard
	// is left on the window.
	if got := eval(`(() => { const o = document.getElementById('other');
		o.dispatchEvent(new PointerEvent('pointerdown', {bubbles: true}));
		o.click();
		return [document.getElementById('go').dataset.n, o.dataset.down, o.dataset.n].join(' ') })()`); got != "1 1 1" {
		t.Errorf("after the click: go clicks, other pressed, other clicks = %q, want \"1 1 1\"", got)
	}

	eval("unlockLater()")
	if err := fill("Later", "later text"); err != nil {
		t.Fatalf("fill of an input read-only at first: %v", err)
	}
	eval("startMoving()")
	if err := fill("Moving", "moving text"); err != nil {
		t.Fatalf("fill of a moving input: %v", err)
	}
	if err := fill("When", "2026-12-01"); err != nil {
		t.Fatalf("fill of a date input: %v", err)
	}
	want := map[string]string{
		"plain": "teller1", "later": "later text", "moving": "moving text", "when": "2026-12-01",
	}
	for id, v := range want {
		if got := eval(`document.getElementById('` + id + `').value`); got != v {
			t.Errorf("#%s value = %q, want %q", id, got, v)
		}
	}
	if err := fill("Notes", "new notes"); err != nil {
		t.Fatalf("fill of a contenteditable element: %v", err)
	}
	if got := eval(`document.getElementById('notes').textContent`); got != "new notes" {
		t.Errorf("#notes text = %q, want %q", got, "new notes")
	}
	if err := fill("When", "not a date"); !errors.Is(err, runtime.ErrUnsupported) {
		t.Errorf("fill of a date input with a malformed value = %v, want ErrUnsupported", err)
	}
	// Each control got its text in one input event. (One change event
	// follows each fill; see TestFillEventsOnce.)
	if got, want := eval("fillLog().split(',').filter(e => e.startsWith('input ')).join(',')"), "input plain,input later,input moving,input when,input notes"; got != want {
		t.Errorf("input events = %s, want %s", got, want)
	}
}

// TestSettleForgetsLoadsOfReplacedDocument: a click that starts a fetch
// the server never answers and navigates to another site (a new renderer
// process) in the same handler. The old renderer never reports the end
// of that load; the barrier forgets a frame's loads when its document is
// replaced, so neither the click's Settle nor a later one waits for the
// load to the cap. The counts are the driver's own facts.
func TestSettleForgetsLoadsOfReplacedDocument(t *testing.T) {
	t.Parallel()
	d := shared(t)
	ctx := tctx(t, 60*time.Second)
	other := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><title>Other</title><h1>Other</h1>`)
	}))
	l, err := net.Listen("tcp", "localhost:0")
	if err != nil {
		t.Fatal(err)
	}
	other.Listener.Close()
	other.Listener = l
	other.Start()
	t.Cleanup(other.Close)
	otherURL := "http://localhost:" + strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
	hang := make(chan struct{})
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprintf(w, `<!doctype html><title>Leave</title><button onclick='fetch("/hang"); location.href = %q'>Leave</button>`, otherURL+"/")
		case "/hang":
			select {
			case <-hang:
			case <-r.Context().Done():
			}
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(site.Close)
	t.Cleanup(func() { close(hang) })
	if err := d.RestrictOrigins(ctx, runtime.OriginScope{Allowed: []string{site.URL, otherURL}}); err != nil {
		t.Fatal(err)
	}
	if err := d.Navigate(ctx, site.URL+"/"); err != nil {
		t.Fatal(err)
	}
	if err := d.Settle(ctx); err != nil {
		t.Fatal(err)
	}
	top, _, err := d.Frame(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	els, err := d.Find(ctx, top, nil, role("button", "Leave"))
	if err != nil || len(els) != 1 {
		t.Fatalf("Find = %d, %v", len(els), err)
	}
	if n := settlesCapped(t, ctx, d, func() error { return d.Act(ctx, els[0], runtime.Act{Kind: runtime.ActClick}) }); n != 0 {
		t.Errorf("%d Settle calls reached the cap after the document that started the load was replaced", n)
	}
	d.mu.Lock()
	open := len(d.causal.loads)
	d.mu.Unlock()
	if open != 0 {
		t.Errorf("%d loads still pending after the navigation", open)
	}
	if u, err := d.URL(ctx); err != nil || !strings.HasPrefix(u, otherURL) {
		t.Errorf("URL = %q, %v, want the other site's", u, err)
	}
}

// settlesCapped runs act (failing the test on its error), then Settle
// twice, and returns how many of those Settle calls reached the cap.
func settlesCapped(t *testing.T, ctx context.Context, d *Driver, act func() error) uint64 {
	t.Helper()
	capped := func() uint64 {
		d.mu.Lock()
		defer d.mu.Unlock()
		return d.causal.capped
	}
	capped0 := capped()
	if err := act(); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		if err := d.Settle(ctx); err != nil {
			t.Fatal(err)
		}
	}
	return capped() - capped0
}

// TestSettleHoldsThroughLoadHandler: a form post whose next document's
// load handler adds an image from outside the origin scope. The frame's
// load now ends at that document's load lifecycle event, before
// Chromium reports the frame stopped; what the load handler started must
// still be seen when Settle returns (the confirming round trips after the
// load event order it), so the blocked image is a violation by then.
func TestSettleHoldsThroughLoadHandler(t *testing.T) {
	t.Parallel()
	d := shared(t)
	ctx := tctx(t, 120*time.Second)
	var outsideHits atomic.Int64
	outside := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		outsideHits.Add(1)
		w.Header().Set("Content-Type", "image/png")
	}))
	t.Cleanup(outside.Close)
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/" && r.Method == http.MethodGet:
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, `<!doctype html><title>Form</title><form method=post action=/submit><button>Send</button></form>`)
		case r.URL.Path == "/submit" && r.Method == http.MethodPost:
			http.Redirect(w, r, "/next", http.StatusSeeOther)
		case r.URL.Path == "/next":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprintf(w, `<!doctype html><title>Next</title><h1>Next</h1><script>
addEventListener('load', () => { const img = document.createElement('img'); img.alt = ''; img.src = %q; document.body.appendChild(img); });
</script>`, outside.URL+"/pixel.png")
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(site.Close)
	if err := d.RestrictOrigins(ctx, runtime.OriginScope{Allowed: []string{site.URL}}); err != nil {
		t.Fatal(err)
	}
	for i := range barrierRepeat(t) {
		if err := d.Navigate(ctx, site.URL+"/"); err != nil {
			t.Fatal(err)
		}
		if err := d.Settle(ctx); err != nil {
			t.Fatal(err)
		}
		if vs, err := d.Violations(ctx); err != nil || len(vs) != 0 {
			t.Fatalf("run %d: violations before the click = %v, %v", i, vs, err)
		}
		top, _, err := d.Frame(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		els, err := d.Find(ctx, top, nil, role("button", "Send"))
		if err != nil || len(els) != 1 {
			t.Fatalf("run %d: Find = %d, %v", i, len(els), err)
		}
		d.mu.Lock()
		loaded := d.causal.loadEnds
		d.mu.Unlock()
		if err := d.Act(ctx, els[0], runtime.Act{Kind: runtime.ActClick}); err != nil {
			t.Fatalf("run %d: click: %v", i, err)
		}
		if err := d.Settle(ctx); err != nil {
			t.Fatal(err)
		}
		vs, err := d.Violations(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(vs) != 1 || vs[0].Kind != runtime.ViolationSubresource || vs[0].Origin != outside.URL {
			t.Fatalf("run %d: violations when Settle returned = %+v, want the blocked image from %s", i, vs, outside.URL)
		}
		d.mu.Lock()
		loaded = d.causal.loadEnds - loaded
		d.mu.Unlock()
		if loaded == 0 {
			t.Fatalf("run %d: no frame load ended at its document's load event", i)
		}
	}
	if n := outsideHits.Load(); n != 0 {
		t.Errorf("the outside origin was reached %d times", n)
	}
}
