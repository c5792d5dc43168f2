package runtimetest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/runtime"
)

// FakeBrowser is the browser name the fake reports in [runtime.DriverInfo].
const FakeBrowser = "vera-fake/1"

// ErrUnknownNode is returned by [Driver.Rename] when no node has the id.
var ErrUnknownNode = errors.New("no fixture node with that id")

// Option configures a [Driver].
type Option func(*options)

type options struct {
	downloadDir string
	latency     time.Duration
	actDelay    time.Duration
	logger      *slog.Logger
}

// WithDownloadDirectory makes the fake report the [runtime.DownloadDirectory]
// route and save every download into dir (which must exist), as a browser
// saves into the operator's Downloads folder: through a ".crdownload"
// partial renamed to a name that never overwrites an existing file. Events
// then carry no Path. Without it the fake reports
// [runtime.DownloadBrowserPath] and saves into a temporary directory it owns
// and removes on Close.
func WithDownloadDirectory(dir string) Option {
	return func(o *options) { o.downloadDir = dir }
}

// WithLatency delays every driver call by d, honouring ctx: a call whose
// ctx ends first returns ctx.Err().
func WithLatency(d time.Duration) Option {
	return func(o *options) { o.latency = d }
}

// WithActDelay makes Act on an element that is not interactable (hidden,
// disabled, read-only) wait up to d, bounded by ctx, before failing with
// [runtime.ErrNotInteractable], as a browser driver waits. Without it the
// fake fails at once: nothing in a fixture changes over time, so waiting
// could not help.
func WithActDelay(d time.Duration) Option {
	return func(o *options) { o.actDelay = d }
}

// WithLogger sets the logger for rule and download tracing (debug level).
// The default discards.
func WithLogger(l *slog.Logger) Option {
	return func(o *options) {
		if l != nil {
			o.logger = l
		}
	}
}

// Method names a [Driver] method in a [Call].
type Method string

// The logged methods.
const (
	MethodRestrictOrigins Method = "RestrictOrigins"
	MethodViolations      Method = "Violations"
	MethodSettle          Method = "Settle"
	MethodNavigate        Method = "Navigate"
	MethodURL             Method = "URL"
	MethodFrame           Method = "Frame"
	MethodFrameURL        Method = "FrameURL"
	MethodFind            Method = "Find"
	MethodAct             Method = "Act"
	MethodRead            Method = "Read"
	MethodVisible         Method = "Visible"
	MethodArmDownload     Method = "ArmDownload"
)

// Call is one logged driver call. Only the fields of its method are set.
type Call struct {
	Method    Method
	URL       string            // Navigate
	Selectors []string          // Frame
	Candidate locator.Candidate // Find
	Act       runtime.Act       // Act
	Read      runtime.Read      // Read
	// Element is the fixture id of the element acted on, read or checked
	// ("<tag>" when it has none).
	Element string
	// Err is the call's error, nil on success.
	Err error
}

// Driver is the fake [runtime.Driver]: it runs a [Site] of declarative
// fixtures in memory, with no browser. It reports [runtime.ModeSimulated].
//
// Like every Driver it is not safe for concurrent use, except for the test
// knobs [Driver.Crash], [Driver.Calls], [Driver.Clicks], [Driver.Rename],
// [Driver.DismissDialog] and [Driver.Dialog], which may be called from any
// goroutine.
type Driver struct {
	opts     options
	info     runtime.DriverInfo
	siteErr  error
	doneOnce sync.Once
	done     chan struct{} // closed by Close and Crash

	mu         sync.Mutex
	site       *Site // private copy
	allowed    map[string]bool
	violations []runtime.Violation
	top        *document
	dialog     *DialogEffect
	pending    []*pendingDownload
	calls      [][]Call // the call log in blocks of callBlock (never copied as it grows)
	clicks     []string
	closed     bool
	crashed    bool
	tmpDir     string
	seeded     []runtime.SeedState // seed.go
	// frameBudget counts the frame documents a load may still create.
	frameBudget int
	// capturing is set between StartCapture and StopCapture (capture.go).
	capturing bool
}

var _ runtime.Driver = (*Driver)(nil)

// NewDriver returns a fake driver over a private deep copy of site. An
// invalid site does not panic: every later call fails with the
// *[ValidationError] (wrapping [ErrInvalidFixture]). The top-level page
// starts at about:blank and no origin is allowed until RestrictOrigins.
func NewDriver(site *Site, opts ...Option) *Driver {
	d := &Driver{done: make(chan struct{}), allowed: map[string]bool{}}
	d.opts.logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	for _, o := range opts {
		if o != nil {
			o(&d.opts)
		}
	}
	d.info = runtime.DriverInfo{
		Mode:          runtime.ModeSimulated,
		Browser:       FakeBrowser,
		UserAgent:     FakeBrowser,
		DownloadRoute: runtime.DownloadBrowserPath,
	}
	if d.opts.downloadDir != "" {
		d.info.DownloadRoute = runtime.DownloadDirectory
	}
	d.siteErr = site.Validate()
	d.site = site.Clone()
	if d.site == nil {
		d.site = &Site{}
	}
	d.top = d.blankDocument()
	return d
}

// Info describes the fake. It never blocks and never changes.
func (d *Driver) Info() runtime.DriverInfo { return d.info }

// stateErr is the error every call returns once the driver is unusable.
func (d *Driver) stateErr() error {
	switch {
	case d.closed:
		return runtime.ErrClosed
	case d.crashed:
		return runtime.ErrBrowserCrashed
	case d.siteErr != nil:
		return d.siteErr
	}
	return nil
}

// do runs one logged call: the state check, the configured latency, then
// fn under the lock. The lock is released even if fn panics (a fake bug),
// so the panic reaches the test instead of a deferred Close hanging on
// the lock.
func (d *Driver) do(ctx context.Context, c Call, fn func() error) error {
	err := d.enter(ctx)
	if err == nil {
		defer d.mu.Unlock()
		d.frameBudget = maxFrameDocs
		err = fn()
		d.log(c, err)
		return err
	}
	d.mu.Lock()
	d.log(c, err)
	d.mu.Unlock()
	return err
}

// enter returns with d.mu held and nil, or without the lock and an error.
func (d *Driver) enter(ctx context.Context) error {
	if ctx == nil {
		return fmt.Errorf("runtimetest: %w: nil context", runtime.ErrInvalidArgument)
	}
	d.mu.Lock()
	err := d.stateErr()
	d.mu.Unlock()
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if d.opts.latency > 0 {
		t := time.NewTimer(d.opts.latency)
		defer t.Stop()
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-d.done:
		case <-t.C:
		}
	}
	d.mu.Lock()
	if err := d.stateErr(); err != nil {
		d.mu.Unlock()
		return err
	}
	return nil
}

func (d *Driver) log(c Call, err error) {
	c.Err = err
	if n := len(d.calls); n == 0 || len(d.calls[n-1]) == cap(d.calls[n-1]) {
		d.calls = append(d.calls, make([]Call, 0, callBlock))
	}
	last := &d.calls[len(d.calls)-1]
	*last = append(*last, c)
}

// callBlock is the size of one block of the call log.
const callBlock = 256

// RestrictOrigins installs the origin scope. Only Allowed origins may serve
// documents (top-level pages and frames); the fake has no subresources.
func (d *Driver) RestrictOrigins(ctx context.Context, scope runtime.OriginScope) error {
	return d.do(ctx, Call{Method: MethodRestrictOrigins}, func() error {
		d.allowed = map[string]bool{}
		for _, o := range scope.Allowed {
			if o = normOrigin(o); o != "" {
				d.allowed[o] = true
			}
		}
		return nil
	})
}

// Violations returns the blocked requests since the last call and clears
// them.
func (d *Driver) Violations(ctx context.Context) ([]runtime.Violation, error) {
	var out []runtime.Violation
	err := d.do(ctx, Call{Method: MethodViolations}, func() error {
		out, d.violations = d.violations, nil
		return nil
	})
	return out, err
}

// Settle is the causal barrier. Every effect of a fixture rule happens
// inside the call that triggered it (violations, dialogs and downloads
// are recorded before Act returns), so nothing is ever pending and Settle
// returns at once: nil, or [runtime.ErrNativeDialog] while a native dialog
// is open.
func (d *Driver) Settle(ctx context.Context) error {
	return d.do(ctx, Call{Method: MethodSettle}, func() error {
		if d.dialog != nil {
			return d.dialogErr()
		}
		return nil
	})
}

// Navigate loads url in the top-level page. A URL that differs from the
// current one only by a fragment is a same-document navigation that keeps
// the page's state; anything else loads the page fixture afresh. An origin
// outside the scope fails with [runtime.ErrOriginBlocked] (the page stays)
// and is recorded as a navigation violation; a URL with no page fixture
// commits an empty document and fails with [runtime.ErrTargetUnreachable],
// like an HTTP 404.
func (d *Driver) Navigate(ctx context.Context, url string) error {
	return d.do(ctx, Call{Method: MethodNavigate, URL: url}, func() error {
		if d.dialog != nil {
			return d.dialogErr()
		}
		if url == "about:blank" {
			d.replaceTop(d.blankDocument())
			return nil
		}
		if !strings.HasPrefix(url, "http://") && !strings.HasPrefix(url, "https://") {
			return fmt.Errorf("%w: %q is not an absolute http(s) URL", runtime.ErrTargetUnreachable, url)
		}
		u, err := resolveRef(url, url)
		if err != nil {
			return fmt.Errorf("%w: %q is not an absolute http(s) URL", runtime.ErrTargetUnreachable, url)
		}
		origin, _ := originOf(u)
		if !d.allowed[origin] {
			d.violate(runtime.ViolationNavigation, origin)
			return fmt.Errorf("%w: %s", runtime.ErrOriginBlocked, origin)
		}
		if sameDocument(d.top.url, u) {
			d.top.url = u
			return nil
		}
		doc := d.load(u, nil, 0)
		d.replaceTop(doc)
		if doc.page == nil {
			return fmt.Errorf("%w: no page fixture for %s (HTTP 404)", runtime.ErrTargetUnreachable, stripQuery(u))
		}
		return nil
	})
}

func stripQuery(u string) string {
	u, _, _ = strings.Cut(u, "#")
	u, _, _ = strings.Cut(u, "?")
	return u
}

// URL returns the top-level page's current URL, about:blank before the
// first navigation.
func (d *Driver) URL(ctx context.Context) (string, error) {
	var out string
	err := d.do(ctx, Call{Method: MethodURL}, func() error {
		out = d.top.url
		return nil
	})
	return out, err
}

// FrameURL returns the URL of scope's document (nil: the top-level
// page): a frame fixture's URL, changed by the navigations its rules make.
func (d *Driver) FrameURL(ctx context.Context, scope runtime.Scope) (string, error) {
	var out string
	err := d.do(ctx, Call{Method: MethodFrameURL}, func() error {
		doc, err := d.scopeDoc(scope)
		if err != nil {
			return err
		}
		out = doc.url
		return nil
	})
	return out, err
}

// Frame resolves a frame path. Each selector is evaluated with the fake's
// CSS subset in the previous document and must match exactly one <iframe>.
// A frame whose document was blocked by the origin scope still resolves:
// its FrameInfo carries the blocked document's actual origin (so the
// runtime sees an origin it did not allow) and its scope is an empty
// document in which nothing is ever found.
func (d *Driver) Frame(ctx context.Context, selectors []string) (runtime.Scope, []runtime.FrameInfo, error) {
	var scope runtime.Scope
	var infos []runtime.FrameInfo
	err := d.do(ctx, Call{Method: MethodFrame, Selectors: slices.Clone(selectors)}, func() error {
		if d.dialog != nil {
			return d.dialogErr()
		}
		doc := d.top
		for _, s := range selectors {
			sel, err := ParseSelector(s)
			if err != nil {
				return err
			}
			var frames []*elem
			doc.root.walk(func(e *elem) bool {
				if e.tag == "iframe" && e.frame != nil && sel.matches(e) {
					frames = append(frames, e)
				}
				return true
			})
			switch len(frames) {
			case 0:
				return fmt.Errorf("%w: %q", runtime.ErrFrameNotFound, s)
			case 1:
			default:
				return fmt.Errorf("%w: %q matches %d frames", runtime.ErrFrameAmbiguous, s, len(frames))
			}
			doc = frames[0].frame
			infos = append(infos, runtime.FrameInfo{Selector: s, Origin: doc.origin})
		}
		scope = doc
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return scope, infos, nil
}

// Find returns the elements matching c in scope (nil means the top-level
// document), or among root's descendants, in document order. See the
// package doc for the matching rules of each strategy.
func (d *Driver) Find(ctx context.Context, scope runtime.Scope, root runtime.Element, c locator.Candidate) ([]runtime.Element, error) {
	var out []runtime.Element
	err := d.do(ctx, Call{Method: MethodFind, Candidate: c}, func() error {
		if d.dialog != nil {
			return d.dialogErr()
		}
		if c.Scope != nil {
			return fmt.Errorf("%w: a scoped candidate (resolve its scope first)", runtime.ErrUnsupported)
		}
		doc, err := d.scopeDoc(scope)
		if err != nil {
			return err
		}
		from := doc.root
		if root != nil {
			r, err := d.element(root)
			if err != nil {
				return err
			}
			if r.doc != doc {
				return fmt.Errorf("%w: root element belongs to another document", runtime.ErrStaleElement)
			}
			from = r
		}
		els, err := find(doc, from, root != nil, c)
		for _, e := range els {
			out = append(out, e)
		}
		return err
	})
	return out, err
}

// scopeDoc validates a scope handle.
func (d *Driver) scopeDoc(s runtime.Scope) (*document, error) {
	if s == nil {
		return d.top, nil
	}
	doc, ok := s.(*document)
	if !ok || doc.driver != d {
		return nil, fmt.Errorf("%w: scope %T is not a document of this driver", runtime.ErrStaleElement, s)
	}
	if !doc.live {
		return nil, fmt.Errorf("%w: the scope's document was navigated away", runtime.ErrStaleElement)
	}
	return doc, nil
}

// element validates an element handle and reports it attached.
func (d *Driver) element(el runtime.Element) (*elem, error) {
	if el == nil {
		return nil, fmt.Errorf("runtimetest: %w: nil element", runtime.ErrInvalidArgument)
	}
	e, ok := el.(*elem)
	if !ok || e == nil || e.doc == nil || e.doc.driver != d {
		return nil, fmt.Errorf("%w: %T is not an element of this driver", runtime.ErrStaleElement, el)
	}
	if !attached(e) {
		return nil, fmt.Errorf("%w: %s is no longer attached", runtime.ErrStaleElement, describe(e))
	}
	return e, nil
}

// attached reports whether e is in a live document.
func attached(e *elem) bool {
	for x := e; x != nil; x = x.parent {
		if x == e.doc.root {
			return e.doc.live
		}
	}
	return false
}

func describe(e *elem) string {
	if id := e.id(); id != "" {
		return id
	}
	return "<" + e.tag + ">"
}

// Act performs one action. An element that is hidden, disabled (or
// read-only, for fill) fails with [runtime.ErrNotInteractable] at once, or
// after the [WithActDelay] wait. An action kind the element cannot take
// (fill on a <div>, select on an <input>, uncheck on a radio button) fails
// with [runtime.ErrUnsupported]; a select with no matching option with
// [runtime.ErrNotInteractable]. Rules of the page fire as described on
// [Trigger]; default actions follow the browser (a link navigates, a label
// clicks its control, Enter activates buttons and links and submits a form
// by clicking its default button, Space activates buttons and check boxes,
// a one-character key types into a text field). An action that opens a
// native dialog returns [runtime.ErrNativeDialog], wrapped in a
// *[runtime.DispatchError] for a click, press, check or uncheck.
func (d *Driver) Act(ctx context.Context, el runtime.Element, a runtime.Act) error {
	c := Call{Method: MethodAct, Act: a}
	if e, ok := el.(*elem); ok && e != nil {
		c.Element = describe(e)
	}
	return d.do(ctx, c, func() error {
		if d.dialog != nil {
			return d.dialogErr()
		}
		e, err := d.element(el)
		if err != nil {
			return err
		}
		if !slices.Contains(actKinds, a.Kind) {
			return fmt.Errorf("%w: action kind %q", runtime.ErrUnsupported, a.Kind)
		}
		if why := notInteractable(e, a.Kind); why != "" {
			if d.opts.actDelay > 0 {
				d.mu.Unlock()
				t := time.NewTimer(d.opts.actDelay)
				select {
				case <-ctx.Done():
				case <-t.C:
				case <-d.done:
				}
				t.Stop()
				d.mu.Lock()
				if err := d.stateErr(); err != nil {
					return err
				}
			}
			return fmt.Errorf("%w: %s is %s", runtime.ErrNotInteractable, describe(e), why)
		}
		if err := d.act(e, a); err != nil {
			return err
		}
		if d.dialog != nil {
			// The action opened a native dialog: its input reached the
			// page, as a browser's click or key press would have.
			if dispatches(a.Kind) {
				return &runtime.DispatchError{Err: d.dialogErr()}
			}
			return d.dialogErr()
		}
		return nil
	})
}

// dispatches reports whether an act kind sends real input (a click or a
// key press) whose effect the page may act on.
func dispatches(k runtime.ActKind) bool {
	switch k {
	case runtime.ActClick, runtime.ActPress, runtime.ActCheck, runtime.ActUncheck:
		return true
	}
	return false
}

// notInteractable says why e cannot take an action now, "" when it can.
func notInteractable(e *elem, k runtime.ActKind) string {
	switch {
	case !rendered(e):
		return "not visible"
	case e.disabled():
		return "disabled"
	case k == runtime.ActFill && e.has("readonly"):
		return "read-only"
	}
	return ""
}

// Read reads the element's rendered text (innerText, whitespace collapsed),
// its current value ("" for elements without one) or an attribute ("" when
// absent).
func (d *Driver) Read(ctx context.Context, el runtime.Element, r runtime.Read) (string, error) {
	c := Call{Method: MethodRead, Read: r}
	if e, ok := el.(*elem); ok && e != nil {
		c.Element = describe(e)
	}
	var out string
	err := d.do(ctx, c, func() error {
		if d.dialog != nil {
			return d.dialogErr()
		}
		e, err := d.element(el)
		if err != nil {
			return err
		}
		switch r.Kind {
		case runtime.ReadText:
			out = innerText(e)
		case runtime.ReadValue:
			out = e.currentValue()
		case runtime.ReadAttribute:
			out = e.attrs[strings.ToLower(r.Name)]
		default:
			return fmt.Errorf("%w: read kind %q", runtime.ErrUnsupported, r.Kind)
		}
		return nil
	})
	return out, err
}

// Visible reports whether el is attached and it and all its ancestors are
// rendered (no hidden attribute, a <dialog> open). A detached element is
// simply not visible.
func (d *Driver) Visible(ctx context.Context, el runtime.Element) (bool, error) {
	c := Call{Method: MethodVisible}
	if e, ok := el.(*elem); ok && e != nil {
		c.Element = describe(e)
	}
	var out bool
	err := d.do(ctx, c, func() error {
		if d.dialog != nil {
			return d.dialogErr()
		}
		if el == nil {
			return fmt.Errorf("runtimetest: %w: nil element", runtime.ErrInvalidArgument)
		}
		e, ok := el.(*elem)
		if !ok || e == nil || e.doc == nil || e.doc.driver != d {
			return fmt.Errorf("%w: %T is not an element of this driver", runtime.ErrStaleElement, el)
		}
		out = attached(e) && rendered(e)
		return nil
	})
	return out, err
}

// ArmDownload arms a listener for the next download of the page (started
// by any of its frames).
func (d *Driver) ArmDownload(ctx context.Context) (runtime.PendingDownload, error) {
	var p *pendingDownload
	err := d.do(ctx, Call{Method: MethodArmDownload}, func() error {
		p = &pendingDownload{d: d, arrived: make(chan struct{}), closedCh: make(chan struct{})}
		d.pending = append(d.pending, p)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return p, nil
}

// Close releases everything the fake owns (its download directory, pending
// listeners). It is idempotent; every later call fails with
// [runtime.ErrClosed].
func (d *Driver) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return nil
	}
	d.closed = true
	d.doneOnce.Do(func() { close(d.done) })
	d.top.kill()
	var err error
	if d.tmpDir != "" {
		err = os.RemoveAll(d.tmpDir)
		d.tmpDir = ""
	}
	return err
}

// Crash simulates the browser going away: every later call fails with
// [runtime.ErrBrowserCrashed] and pending download waits return it. Close
// still succeeds. Safe from any goroutine.
func (d *Driver) Crash() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.crashed = true
	d.doneOnce.Do(func() { close(d.done) })
}

// Calls returns the log of driver calls so far, in order.
func (d *Driver) Calls() []Call {
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []Call
	for _, b := range d.calls {
		out = append(out, b...)
	}
	return out
}

// Clicks returns the fixture id ("<tag>" without one) of every element
// clicked so far, in order, including clicks a key press or a label caused.
func (d *Driver) Clicks() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return slices.Clone(d.clicks)
}

// Rename changes the accessible name (aria-label) of every node with the
// fixture id, in the site's fixtures (so later loads see it) and in the
// live documents: the UI changed between runs. It fails with
// [ErrUnknownNode] when no page has such a node.
func (d *Driver) Rename(nodeID, name string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	found := false
	for _, p := range d.site.Pages {
		rename := func(n *Node) {
			if n.ID == nodeID {
				n.Name = name
				found = true
			}
		}
		walkNodes(p.Body, rename)
		for _, r := range p.Rules {
			for _, e := range r.Effects {
				if e.Add != nil {
					walkNodes(e.Add.Nodes, rename)
				}
			}
		}
	}
	d.top.walkDocs(func(doc *document) {
		doc.root.walk(func(e *elem) bool {
			if e.id() == nodeID {
				found = true
				if name == "" {
					delete(e.attrs, "aria-label")
				} else {
					e.attrs["aria-label"] = name
				}
			}
			return true
		})
	})
	if !found {
		return fmt.Errorf("%w: %q", ErrUnknownNode, nodeID)
	}
	return nil
}

// Dialog reports the native dialog open in the page, if any.
func (d *Driver) Dialog() (kind DialogKind, message string, open bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.dialog == nil {
		return "", "", false
	}
	return d.dialog.Kind, d.dialog.Message, true
}

// DismissDialog closes the open native dialog, as an operator would; the
// driver itself never accepts or dismisses one. The effects that followed
// the dialog's rule do not run. It reports whether a dialog was open.
func (d *Driver) DismissDialog() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	open := d.dialog != nil
	d.dialog = nil
	return open
}

// ElementID returns the fixture id of an element handle this driver
// returned ("" when the node has none), and whether el is such a handle.
func (d *Driver) ElementID(el runtime.Element) (string, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	e, ok := el.(*elem)
	if !ok || e == nil || e.doc == nil || e.doc.driver != d {
		return "", false
	}
	return e.id(), true
}

func (d *Driver) dialogErr() error {
	return fmt.Errorf("%w: %s %q", runtime.ErrNativeDialog, d.dialog.Kind, d.dialog.Message)
}

func (d *Driver) violate(kind runtime.ViolationKind, origin string) {
	d.violations = append(d.violations, runtime.Violation{Kind: kind, Origin: origin})
	d.opts.logger.Debug("runtimetest: blocked", "kind", kind, "origin", origin)
}
