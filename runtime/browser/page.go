package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/go-rod/rod/lib/cdp"
	"github.com/go-rod/rod/lib/proto"
	"github.com/vera-run/vera/runtime"
)

// RestrictOrigins installs the origin scope. From then on every request of
// the page, its frames (out-of-process ones included), its popups and its
// workers is paused by the browser (Fetch interception, installed on each
// target before it runs) and continued only when its origin is allowed;
// documents need an Allowed origin, other resources an Allowed or a
// Subresources origin. Blocked requests fail as "blocked by client" and
// are recorded as violations (origin only). Every document loaded from
// then on also carries the scope's connect-src policy, which holds
// WebSocket handshakes to the scope, and the driver's network gate (the
// context's proxy) admits connections only to the scope's hosts and ports
// (see the package documentation); a new scope closes the gate's idle
// upstream connections. Entries must be bare http(s) origins, else the error wraps
// [ErrInvalidOrigin] and the old scope stays. Before the first call
// nothing is blocked. It begins a run: a navigation of the page (or of a
// popup) still pending, the previous run's, is stopped first.
func (d *Driver) RestrictOrigins(ctx context.Context, s runtime.OriginScope) error {
	cctx, done, err := d.begin(ctx)
	if err != nil {
		return err
	}
	defer done()
	sc, err := newOriginScope(s)
	if err != nil {
		return err
	}
	if d.gate != nil {
		if err := d.gate.SetScope(gateScope(sc)); err != nil {
			return err
		}
	}
	d.mu.Lock()
	d.origins = sc
	d.epochs.newScopeLocked()
	var docs []*target
	var stop []proto.TargetSessionID
	for _, t := range d.targets {
		if t.typ == proto.TargetTargetInfoTypePage || t.typ == targetTypeIframe {
			docs = append(docs, t)
		}
		if t.typ == proto.TargetTargetInfoTypePage && d.causal.navigatingLocked(t.sid, proto.PageFrameID(t.id)) {
			stop = append(stop, t.sid)
		}
	}
	d.mu.Unlock()
	// A navigation of a top-level document still pending (the previous
	// run's act, answered late or never) is stopped: Chromium answers
	// the connect policy's install only once it has its response, and a
	// server that never answers failed the next run as
	// restrict_origins_failed (TestRestrictStopsPendingNavigation). The
	// run navigates to its start next.
	for _, sid := range stop {
		if err := d.call(cctx, sid, proto.PageStopLoading{}, nil); err != nil {
			d.log.Debug("restrict origins: pending navigation not stopped", "err", err)
		}
	}
	for _, t := range docs {
		if err := d.installPolicy(cctx, t, sc.csp); err != nil {
			d.mu.Lock()
			attached := d.targets[t.sid] == t
			d.mu.Unlock()
			if attached { // a frame or popup that went away needs none
				return d.fail(cctx, "connect policy", err)
			}
		}
	}
	return nil
}

// Violations returns the requests and connections blocked since the last
// call, by interception, the connect policy or the network gate, in the
// order they were blocked, and clears the list.
func (d *Driver) Violations(ctx context.Context) ([]runtime.Violation, error) {
	if ctx == nil {
		return nil, errNilContext
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return nil, runtime.ErrClosed
	}
	v := d.violations
	d.violations = nil
	return v, nil
}

// Navigate loads rawURL in the page and waits for its load event. A URL
// outside the scope is refused before any request ([runtime.ErrOriginBlocked]
// and a navigation violation); a redirect out of the scope is blocked by
// interception and also gives ErrOriginBlocked. Network errors and an
// HTTP status of 400 or more on the main document (its final response,
// after redirects, as the browser's response event reports it) give
// [runtime.ErrTargetUnreachable]; in the latter case the error page has
// loaded and stays. Navigate returns at the load event without a call
// into the page, whose main thread then lays out and paints the new
// document (the next call into the page waits for that). A
// same-document navigation (only the fragment changes) returns at once. When ctx's deadline passes after the document
// committed but before its load event (a slow image or script, HTML
// still streaming), the target was reached: the main document's status
// decides as above, read within committedStatusWait after the deadline,
// and the load that goes on is the barrier's to hold ([Driver.Settle]).
// Only a navigation that never committed (no response, a refused
// connection) fails with the deadline, and is stopped (Page.stopLoading)
// so that it cannot commit later.
func (d *Driver) Navigate(ctx context.Context, rawURL string) error {
	cctx, done, err := d.begin(ctx)
	if err != nil {
		return err
	}
	defer done()
	u, perr := url.Parse(rawURL)
	if perr != nil || (u.Scheme == "" && rawURL != "about:blank") {
		return fmt.Errorf("%w: not an absolute URL", runtime.ErrTargetUnreachable)
	}
	origin, governed := originOf(rawURL)
	d.mu.Lock()
	// The new document's loads are the navigation's, not a past act's.
	d.causal.actOpen = false
	sc := d.origins
	blocked := sc != nil && ((governed && !sc.permits(origin, true)) || (!governed && rawURL != "about:blank"))
	if blocked && governed {
		d.violations = append(d.violations, runtime.Violation{Kind: runtime.ViolationNavigation, Origin: origin})
	}
	d.mu.Unlock()
	if blocked {
		if !governed {
			origin = u.Scheme + ":"
		}
		d.log.Info("navigation blocked", "origin", origin)
		return fmt.Errorf("%w: %s", runtime.ErrOriginBlocked, origin)
	}
	main := proto.PageFrameID(d.pageTarget)
	loads := make(chan proto.NetworkLoaderID, 32)
	sameDoc := make(chan struct{}, 1)
	// The main document's HTTP status, by loader, as the browser
	// reported its response (the final one, after redirects): read
	// from the event, not from the page, whose main thread is busy
	// laying out and painting a large document right after its load
	// event (an evaluate there waited 100-200 ms on 10,000 elements).
	var statusMu sync.Mutex
	statuses := map[proto.NetworkLoaderID]int{}
	remove := d.addWaiter(func(ev *cdp.Event) {
		if proto.TargetSessionID(ev.SessionID) != d.pageSID {
			return
		}
		switch ev.Method {
		case "Network.responseReceived":
			var e struct {
				LoaderID proto.NetworkLoaderID     `json:"loaderId"`
				Type     proto.NetworkResourceType `json:"type"`
				FrameID  proto.PageFrameID         `json:"frameId"`
				Response struct {
					Status int `json:"status"`
				} `json:"response"`
			}
			if json.Unmarshal(ev.Params, &e) == nil && e.Type == proto.NetworkResourceTypeDocument && e.FrameID == main && e.Response.Status > 0 {
				statusMu.Lock()
				statuses[e.LoaderID] = e.Response.Status
				statusMu.Unlock()
			}
		case "Page.lifecycleEvent":
			var e proto.PageLifecycleEvent
			if json.Unmarshal(ev.Params, &e) == nil && e.Name == "load" && e.FrameID == main {
				select {
				case loads <- e.LoaderID:
				default:
				}
			}
		case "Page.navigatedWithinDocument":
			var e proto.PageNavigatedWithinDocument
			if json.Unmarshal(ev.Params, &e) == nil && e.FrameID == main {
				select {
				case sameDoc <- struct{}{}:
				default:
				}
			}
		}
	})
	defer remove()
	var res proto.PageNavigateResult
	if err := d.call(cctx, d.pageSID, proto.PageNavigate{URL: rawURL}, &res); err != nil {
		if interruption(cctx) == nil && cctx.Err() != nil {
			// Given up before it committed (a server that never
			// answers): stop it, or it stays pending in the page, where
			// it could commit in the middle of the next run and held the
			// browser's next Page.removeScriptToEvaluateOnNewDocument
			// (the next run's RestrictOrigins) until it ended.
			sctx, stop := context.WithTimeout(context.WithoutCancel(cctx), committedStatusWait)
			_ = d.call(sctx, d.pageSID, proto.PageStopLoading{}, nil)
			stop()
		}
		return d.fail(cctx, "navigate", err)
	}
	if res.ErrorText != "" {
		if strings.Contains(res.ErrorText, "ERR_BLOCKED_BY_CLIENT") {
			return fmt.Errorf("%w: %s", runtime.ErrOriginBlocked, res.ErrorText)
		}
		return fmt.Errorf("%w: %s", runtime.ErrTargetUnreachable, res.ErrorText)
	}
	if res.LoaderID == "" {
		// Same-document navigation: the URL changes when the browser
		// reports it, shortly after; an unchanged URL reports nothing.
		select {
		case <-sameDoc:
		case <-time.After(sameDocumentWait):
		case <-cctx.Done():
			return d.fail(cctx, "navigate", cctx.Err())
		}
		return nil
	}
	sctx, late := cctx, false
	for loaded := false; !loaded; {
		select {
		case l := <-loads:
			loaded = l == res.LoaderID
		case <-cctx.Done():
			if interruption(cctx) != nil || !errors.Is(cctx.Err(), context.DeadlineExceeded) {
				return d.fail(cctx, "navigate: waiting for the load event", cctx.Err())
			}
			// The deadline passed after the document committed
			// (Page.navigate answered with its loader): the target was
			// reached and shows its document, only its subresources (a
			// slow image, a stalled script) or the rest of its HTML are
			// still coming. Reporting that as unreachable was a wrong
			// answer (under load, a slow page read as a dead one). The
			// status decides as after a load; the barrier holds the load
			// that goes on (Settle), and the next step's waits bound it.
			var stop context.CancelFunc
			sctx, stop = context.WithTimeout(context.WithoutCancel(cctx), committedStatusWait)
			defer stop()
			loaded, late = true, true
		}
	}
	// The response event comes before the commit (and so before the
	// load event) on the page's session; a document without one (an
	// about: URL, a response the event did not report) is asked.
	statusMu.Lock()
	st, known := statuses[res.LoaderID]
	statusMu.Unlock()
	if !known {
		st, err = d.evalNumber(sctx, d.pageSID, `(() => { const e = performance.getEntriesByType('navigation')[0]; return e && e.responseStatus ? e.responseStatus : 0 })()`)
	}
	if err != nil {
		if late {
			return d.fail(cctx, "navigate: waiting for the load event", cctx.Err())
		}
		return d.fail(cctx, "navigate: status", err)
	}
	if late && st > 0 && st < 400 {
		d.log.Info("navigation committed; its load event did not come before the deadline", "status", st)
	}
	if st >= 400 {
		return fmt.Errorf("%w: HTTP %d", runtime.ErrTargetUnreachable, st)
	}
	return nil
}

// sameDocumentWait bounds how long Navigate waits for a fragment-only
// navigation to be reported.
const sameDocumentWait = time.Second

// committedStatusWait bounds the status read of a document that committed
// but did not load before Navigate's deadline.
const committedStatusWait = time.Second

// evalNumber evaluates an expression returning a number.
func (d *Driver) evalNumber(ctx context.Context, sid proto.TargetSessionID, expr string) (int, error) {
	var res struct {
		Result           remoteObject                   `json:"result"`
		ExceptionDetails *proto.RuntimeExceptionDetails `json:"exceptionDetails"`
	}
	if err := d.call(ctx, sid, proto.RuntimeEvaluate{Expression: expr, ReturnByValue: true}, &res); err != nil {
		return 0, err
	}
	if res.ExceptionDetails != nil {
		return 0, &jsError{msg: exceptionText(res.ExceptionDetails)}
	}
	var n float64
	if err := json.Unmarshal(res.Result.Value, &n); err != nil {
		return 0, err
	}
	return int(n), nil
}

// URL returns the page's current URL: the main frame's last committed
// URL, fragment changes included, as the browser reported it. It never
// waits on the page.
func (d *Driver) URL(ctx context.Context) (string, error) {
	_, done, err := d.begin(ctx)
	if err != nil {
		return "", err
	}
	defer done()
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.url, nil
}
