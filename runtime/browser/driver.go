package browser

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/go-rod/rod/lib/cdp"
	"github.com/go-rod/rod/lib/proto"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/browser/internal/cdpws"
	"github.com/vera-run/vera/runtime/browser/internal/netgate"
	"github.com/vera-run/vera/runtime/grant"
)

// CloseTimeout bounds Close: the CDP clean-up calls of a connected
// driver (disposing its browser context) share one deadline of
// CloseTimeout, and dropping the connection never waits for the
// endpoint. A launched browser's process tree gets up to CloseTimeout
// more to exit after it is killed.
const CloseTimeout = 5 * time.Second

// Driver drives one page of a real Chrome or Chromium through the Chrome
// DevTools Protocol. It implements [runtime.Driver]. Create one with
// [Launch] or [Connect]; always Close it.
type Driver struct {
	log  *slog.Logger
	info runtime.DriverInfo

	authz       grant.Authorization // what it was launched or connected under (grant.go)
	proc        *process            // launched browsers only
	host        *Browser            // the Browser that handed this driver out, or nil
	ws          *cdpws.Conn
	endpoint    string // scheme://host of the CDP connection, for errors
	cdp         *cdp.Client
	downloadDir string        // browser_path route only
	gate        *netgate.Gate // the context's network gate; nil for a remote browser
	// viewportW, viewportH: WithViewport's size, 0 without it
	// (viewport.go); viewportErr: setting it on the page failed.
	viewportW, viewportH int
	viewportErr          error

	lifeCtx    context.Context
	lifeCancel context.CancelFunc
	wg         sync.WaitGroup // event loop and handler goroutines
	loopDone   chan struct{}
	// fences are the event loop's other input (see dispatched): each is
	// closed once every event received before it was dispatched.
	fences chan chan struct{}

	browserCtxID proto.BrowserBrowserContextID
	pageTarget   proto.TargetTargetID
	pageSID      proto.TargetSessionID
	pageReady    chan struct{}
	top          *scope

	mu         sync.Mutex
	closing    bool
	closed     bool
	crashErr   error
	dialog     string
	url        string // the main frame's committed URL
	topDoc     proto.RuntimeRemoteObjectID
	helpers    map[helperKey]proto.RuntimeRemoteObjectID // installed document helpers (helpers.go)
	installing map[helperKey]bool                        // helpers being installed
	inflight   map[uint64]context.CancelCauseFunc
	nextID     uint64
	origins    *originScope
	epochs     scopeEpochs // which documents are an earlier scope's (scopegen.go)
	violations []runtime.Violation
	targets    map[proto.TargetSessionID]*target
	byTarget   map[proto.TargetTargetID]*target
	frames     map[proto.PageFrameID]bool
	elems      map[elemKey]*element
	recent     []*element // the handles returned last, newest last (find.go)
	waiters    map[uint64]func(*cdp.Event)
	// adopted: targets of the context the host's attacher holds for this
	// driver (attach.go), each with the func that lets it run once the
	// driver's own session is set up; hosted drivers only.
	adopted map[proto.TargetTargetID]func()
	// foreign counts attached targets of other browser contexts this
	// driver's connection saw (a hosted driver sees none; tests).
	foreign  int
	pendings []*pendingDownload
	causal   causal
	seedURL  string    // the seed page Seed is loading, answered by interception (seed.go)
	capt     *capState // runtime.WithCapture's observation (capture.go), nil when off

	closeOnce sync.Once
	closeErr  error

	// callTrace, when set (tests and benchmarks only), sees every CDP
	// command the driver sends and how long its answer took (since
	// start). It is atomic: the event loop's goroutines send commands
	// (Fetch.continueRequest) while a test sets or clears it.
	callTrace atomic.Pointer[func(method string, start time.Time)]
	// declTrace, when set (tests only, as callTrace), sees the function
	// declaration of every Runtime.callFunctionOn callOn sends and the
	// expression of every Runtime.evaluate evalObject sends.
	declTrace atomic.Pointer[func(decl string)]
	// dispatchHook, when set (tests only), runs in the event loop before
	// each event is dispatched: a test delays one there to widen the
	// gap between the loop receiving an event and dispatching it.
	dispatchHook atomic.Pointer[func(ev *cdp.Event)]
	// pressHook, when set (tests only), runs just before a click's mouse
	// press goes out (after its guards are armed).
	pressHook atomic.Pointer[func()]
}

// setCallTrace sets (nil: clears) the callTrace hook; safe while the
// driver works.
func (d *Driver) setCallTrace(f func(method string, start time.Time)) {
	if f == nil {
		d.callTrace.Store(nil)
		return
	}
	d.callTrace.Store(&f)
}

// setDeclTrace sets (nil: clears) the declTrace hook, as setCallTrace.
func (d *Driver) setDeclTrace(f func(decl string)) {
	if f == nil {
		d.declTrace.Store(nil)
		return
	}
	d.declTrace.Store(&f)
}

var _ runtime.Driver = (*Driver)(nil)

// Launch starts a provider-owned headless Chromium with a fresh temporary
// profile and returns a driver for one page in its own browser context.
// The executable comes from [WithBrowserPath], else the VERA_BROWSER
// environment variable, else the usual install locations; Vera never
// downloads a browser. Without a browser the error
// wraps [runtime.ErrBrowserUnavailable] and names what to install; a
// browser that does not start gives [runtime.ErrBrowserLaunchFailed].
// ctx bounds the start only, not the driver's life. A nil ctx is refused
// with [runtime.ErrInvalidArgument].
func Launch(ctx context.Context, opts ...Option) (*Driver, error) {
	o, proc, wsURL, downloads, err := launchTarget(ctx, opts)
	if err != nil {
		return nil, err
	}
	if o.downloadDir != "" {
		downloads = o.downloadDir
	}
	d, err := open(ctx, wsURL, o, proc, downloads)
	if err != nil {
		proc.kill()
		if errors.Is(err, runtime.ErrBrowserUnavailable) {
			err = fmt.Errorf("%w: %w", runtime.ErrBrowserLaunchFailed, err)
		}
		return nil, err
	}
	o.logger.Info("browser launched", "browser", d.info.Browser, "pid", proc.pid())
	return d, nil
}

// launchTarget is the part of Launch and LaunchBrowser that starts the
// process: the options (checked), the executable found, Chromium started
// (its WebSocket URL and the browser's own download folder), and a
// WithDownloadDirectory folder checked (the process is killed when it is
// not a directory).
func launchTarget(ctx context.Context, opts []Option) (options, *process, string, string, error) {
	if ctx == nil {
		return options{}, nil, "", "", errNilContext
	}
	o := buildOptions(opts)
	if err := o.check(); err != nil {
		return options{}, nil, "", "", err
	}
	if err := ctx.Err(); err != nil {
		return options{}, nil, "", "", fmt.Errorf("%w: %w", runtime.ErrBrowserLaunchFailed, err)
	}
	// Authorization before any side effect: no grant, no process.
	authz, err := authorizeLaunch(ctx, o)
	if err != nil {
		return options{}, nil, "", "", err
	}
	o.auth.authz = authz
	proc, wsURL, downloads, err := startProcess(ctx, authz.Target.Executable, o)
	if err != nil {
		return options{}, nil, "", "", err
	}
	if o.downloadDir != "" {
		if st, err := os.Stat(o.downloadDir); err != nil || !st.IsDir() {
			proc.kill()
			return options{}, nil, "", "", fmt.Errorf("%w: download folder %q is not a directory", runtime.ErrBrowserLaunchFailed, o.downloadDir)
		}
	}
	return o, proc, wsURL, downloads, nil
}

// connectTarget is the part of Connect and ConnectBrowser that decides
// the endpoint: the options (checked), the endpoint's WebSocket URL (an
// http endpoint resolved through /json/version) and the endpoint itself.
// A remote browser cannot reach a proxy on this host's loopback, so only
// the first gate layer (interception and connect policy) applies to it.
func connectTarget(ctx context.Context, endpointURL string, opts []Option) (options, string, endpoint, error) {
	if ctx == nil {
		return options{}, "", endpoint{}, errNilContext
	}
	o := buildOptions(opts)
	if err := o.check(); err != nil {
		return options{}, "", endpoint{}, err
	}
	ep, err := parseEndpoint(endpointURL, o.remote)
	if err != nil {
		return options{}, "", endpoint{}, err
	}
	// Authorization before the first request to the endpoint.
	authz, err := authorizeConnect(o, endpointURL)
	if err != nil {
		return options{}, "", endpoint{}, err
	}
	o.auth.authz = authz
	wsURL, err := ep.webSocketURL(ctx)
	if err != nil {
		return options{}, "", endpoint{}, err
	}
	if o.downloadDir != "" {
		if st, err := os.Stat(o.downloadDir); err != nil || !st.IsDir() {
			return options{}, "", endpoint{}, fmt.Errorf("%w: download folder %q is not a directory", runtime.ErrBrowserUnavailable, o.downloadDir)
		}
	}
	o.noGate = !ep.local
	return o, wsURL, ep, nil
}

// Connect attaches to an externally owned Chrome through its DevTools
// endpoint: "http://127.0.0.1:9222" (resolved through /json/version) or a
// "ws://127.0.0.1:PORT/devtools/browser/..." URL. Loopback endpoints
// (127.0.0.1, localhost, [::1]) with an explicit port are accepted; a
// remote ws:// or wss:// endpoint needs [WithRemoteEndpoint]; anything
// else is an [*EndpointError]. The driver opens its page in a new browser
// context of that browser and never changes the browser's settings; Close
// closes only that context and disconnects, leaving the browser running.
// A nil ctx is refused with [runtime.ErrInvalidArgument].
func Connect(ctx context.Context, endpointURL string, opts ...Option) (*Driver, error) {
	o, wsURL, ep, err := connectTarget(ctx, endpointURL, opts)
	if err != nil {
		return nil, err
	}
	d, err := open(ctx, wsURL, o, nil, o.downloadDir)
	if err != nil {
		return nil, err
	}
	o.logger.Info("browser connected", "browser", d.info.Browser, "endpoint", ep.redacted())
	return d, nil
}

// dialCDP opens a CDP WebSocket to wsURL for a driver or a Browser's
// attacher (what names it in errors). It returns the redacted endpoint;
// errors wrap [runtime.ErrBrowserUnavailable] (and ctx's error when ctx
// ended the dial).
func dialCDP(ctx context.Context, wsURL string, o options, what string) (string, *cdpws.Conn, error) {
	endpoint := redactURL(wsURL)
	ws, err := cdpws.Dial(ctx, wsURL, cdpws.Options{MaxMessageBytes: o.maxMessage})
	if err != nil {
		if ctx.Err() != nil {
			return endpoint, nil, fmt.Errorf("%w: %s: %s: %w", runtime.ErrBrowserUnavailable, endpoint, what, ctx.Err())
		}
		return endpoint, nil, fmt.Errorf("%w: %s: %s: %v", runtime.ErrBrowserUnavailable, endpoint, what, err)
	}
	return endpoint, ws, nil
}

// open connects to wsURL and prepares the driver's browser context and page.
func open(ctx context.Context, wsURL string, o options, proc *process, downloads string) (*Driver, error) {
	endpoint, ws, err := dialCDP(ctx, wsURL, o, "websocket")
	if err != nil {
		return nil, err
	}
	lifeCtx, lifeCancel := context.WithCancel(context.Background())
	d := &Driver{
		log:         o.logger,
		proc:        proc,
		ws:          ws,
		endpoint:    endpoint,
		cdp:         cdp.New().Logger(discardLogger{}).Start(ws),
		downloadDir: downloads,
		viewportW:   o.viewportW,
		viewportH:   o.viewportH,
		lifeCtx:     lifeCtx,
		lifeCancel:  lifeCancel,
		loopDone:    make(chan struct{}),
		fences:      make(chan chan struct{}),
		pageReady:   make(chan struct{}),
		inflight:    map[uint64]context.CancelCauseFunc{},
		targets:     map[proto.TargetSessionID]*target{},
		byTarget:    map[proto.TargetTargetID]*target{},
		frames:      map[proto.PageFrameID]bool{},
		elems:       map[elemKey]*element{},
		waiters:     map[uint64]func(*cdp.Event){},
		adopted:     map[proto.TargetTargetID]func(){},
		url:         "about:blank",
		causal:      newCausal(),
		host:        o.host,
		authz:       o.auth.authz,
	}
	d.setCallTrace(o.callTrace)
	d.wg.Add(1)
	go d.eventLoop()
	if exited := d.launchedProcess(); exited != nil {
		d.wg.Add(1)
		go func() {
			defer d.wg.Done()
			select {
			case <-exited.exited:
				d.markCrashed("browser process exited")
			case <-lifeCtx.Done():
			}
		}()
	}
	if err := d.setup(ctx, o); err != nil {
		d.shutdown()
		return nil, err
	}
	return d, nil
}

// setup creates the browser context and the page and installs the
// interception that every target of the context goes through.
func (d *Driver) setup(ctx context.Context, o options) error {
	fail := func(step string, err error) error {
		if cerr := d.connErr(); cerr != nil {
			return fmt.Errorf("%w: %s: %w", runtime.ErrBrowserUnavailable, step, cerr)
		}
		if ctx.Err() != nil {
			return fmt.Errorf("%w: %s: %w", runtime.ErrBrowserUnavailable, step, ctx.Err())
		}
		return fmt.Errorf("%w: %s: %v", runtime.ErrBrowserUnavailable, step, err)
	}
	// A Browser asked the version once, on its attach connection.
	att := d.attacher()
	if att != nil {
		d.info = driverInfo(att.ver)
	} else {
		var ver proto.BrowserGetVersionResult
		if err := d.call(ctx, "", proto.BrowserGetVersion{}, &ver); err != nil {
			return fail("version", err)
		}
		d.info = driverInfo(ver)
	}
	if d.launchedProcess() != nil {
		d.info.Mode = runtime.ModeLiveLaunched
		d.info.DownloadRoute = runtime.DownloadBrowserPath
	} else {
		d.info.Mode = runtime.ModeLiveConnected
		d.info.DownloadRoute = runtime.DownloadDirectory
		// Named once: the runtime watches the folder the context saves
		// into (WithDownloadDirectory) without a second option.
		d.info.DownloadFolder = d.downloadDir
	}
	// The context sends all its traffic, loopback included ("<-loopback>"
	// removes Chromium's implicit loopback bypass), through the network
	// gate, the second layer of the origin scope (see netgate.go).
	bcReq := proto.TargetCreateBrowserContext{DisposeOnDetach: true}
	if !o.noGate && !o.forceNoGate {
		g, err := netgate.New(netgate.WithLogger(d.log), netgate.WithRefusalHandler(d.onRefusal), netgate.WithResolver(o.resolver))
		if err != nil {
			return fail("network gate", err)
		}
		d.gate = g
		bcReq.ProxyServer = "http://" + g.Addr()
		bcReq.ProxyBypassList = "<-loopback>"
	}
	var bc proto.TargetCreateBrowserContextResult
	if err := d.call(ctx, "", bcReq, &bc); err != nil {
		return fail("browser context", err)
	}
	d.mu.Lock()
	d.browserCtxID = bc.BrowserContextID
	d.mu.Unlock()
	dl := proto.BrowserSetDownloadBehavior{
		Behavior:         proto.BrowserSetDownloadBehaviorBehaviorDefault,
		BrowserContextID: bc.BrowserContextID,
		EventsEnabled:    true,
	}
	switch {
	case d.info.DownloadRoute == runtime.DownloadBrowserPath:
		dl.Behavior = proto.BrowserSetDownloadBehaviorBehaviorAllowAndName
		dl.DownloadPath = d.downloadDir
	case d.downloadDir != "":
		// Connected with WithDownloadDirectory: the driver's own context saves
		// into that folder, which the runtime watches (directory route).
		// Other contexts are untouched. Behavior "allow" would replace a
		// file of the same name, so the browser saves under the GUID and
		// the driver gives the file its name (see nameDownload).
		dl.Behavior = proto.BrowserSetDownloadBehaviorBehaviorAllowAndName
		dl.DownloadPath = d.downloadDir
	}
	if err := d.call(ctx, "", dl, nil); err != nil {
		return fail("download behavior", err)
	}
	// Browser-level auto-attach with the debugger pause is the only way to
	// reach a popup before its first request; page-level auto-attach only
	// covers frames and workers. A Browser's driver does not turn it on
	// on its own connection: the Browser's attacher holds every new
	// target and hands the context's to this driver (attach.go), so no
	// driver delays another's targets.
	if att != nil {
		if err := att.own(bc.BrowserContextID, d); err != nil {
			return fail("auto-attach", err)
		}
	} else if err := d.call(ctx, "", proto.TargetSetAutoAttach{AutoAttach: true, WaitForDebuggerOnStart: true, Flatten: true}, nil); err != nil {
		return fail("auto-attach", err)
	}
	var ct proto.TargetCreateTargetResult
	if err := d.call(ctx, "", proto.TargetCreateTarget{URL: "about:blank", BrowserContextID: bc.BrowserContextID}, &ct); err != nil {
		return fail("page", err)
	}
	select {
	case <-d.pageReady:
	case <-ctx.Done():
		return fail("page", ctx.Err())
	case <-d.loopDone:
		return fail("page", errors.New("connection closed"))
	}
	d.mu.Lock()
	ok, verr := d.pageTarget == ct.TargetID, d.viewportErr
	d.mu.Unlock()
	if !ok {
		return fail("page", errors.New("unexpected first target in the new browser context"))
	}
	if verr != nil {
		return fail("viewport", verr)
	}
	d.top = &scope{sid: d.pageSID, frame: proto.PageFrameID(d.pageTarget), top: true}
	return nil
}

// Info describes the driver and its browser.
func (d *Driver) Info() runtime.DriverInfo { return d.info }

// begin starts one driver call: it fails fast when the driver is closed,
// crashed or blocked by a native dialog, and derives a context that those
// events cancel with their sentinel as the cause.
func (d *Driver) begin(ctx context.Context) (context.Context, func(), error) {
	if ctx == nil {
		return nil, nil, errNilContext
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	switch {
	case d.closed || d.closing:
		return nil, nil, runtime.ErrClosed
	case d.crashErr != nil:
		return nil, nil, d.crashErr
	}
	if cerr := d.connErr(); cerr != nil {
		// The connection is gone and the event loop has not marked the
		// crash yet: fail the same way it will.
		return nil, nil, fmt.Errorf("%w: %w", runtime.ErrBrowserCrashed, cerr)
	}
	switch {
	case d.dialog != "":
		return nil, nil, fmt.Errorf("%w: %s", runtime.ErrNativeDialog, d.dialog)
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	cctx, cancel := context.WithCancelCause(ctx)
	d.nextID++
	id := d.nextID
	d.inflight[id] = cancel
	return cctx, func() {
		d.mu.Lock()
		delete(d.inflight, id)
		d.mu.Unlock()
		cancel(nil)
	}, nil
}

// interrupt cancels every call in flight with cause.
func (d *Driver) interruptLocked(cause error) {
	for _, c := range d.inflight {
		c(cause)
	}
}

// fail turns an error seen inside a call into the error the call returns:
// the interruption cause when there is one (dialog, crash, close), the
// crash when the browser went away, else err with op for context.
func (d *Driver) fail(ctx context.Context, op string, err error) error {
	if err == nil {
		return nil
	}
	if c := interruption(ctx); c != nil {
		return fmt.Errorf("browser: %s: %w", op, c)
	}
	if ctx.Err() == nil && (isConnError(err) || d.ws.Err() != nil) {
		// The reader has not seen the connection drop yet; give it a
		// moment so the caller gets ErrBrowserCrashed, not a socket error.
		select {
		case <-d.loopDone:
		case <-time.After(time.Second):
		}
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) && d.ws.Err() == nil {
		// The call ran out of time: make sure the endpoint itself is not
		// the one that stopped answering. A live browser answers the
		// ping at once; a stalled endpoint ends the connection here.
		if d.ws.Probe() != nil {
			select {
			case <-d.loopDone:
			case <-time.After(time.Second):
			}
		}
	}
	d.mu.Lock()
	crash := d.crashErr
	d.mu.Unlock()
	if crash != nil {
		return fmt.Errorf("browser: %s: %w", op, crash)
	}
	if cerr := d.connErr(); cerr != nil {
		return fmt.Errorf("browser: %s: %w: %w", op, runtime.ErrBrowserCrashed, cerr)
	}
	if ctx.Err() != nil {
		return fmt.Errorf("browser: %s: %w", op, ctx.Err())
	}
	return fmt.Errorf("browser: %s: %w", op, err)
}

// interruption returns the cause a dialog, crash or Close cancelled ctx
// with, or nil when ctx is live or ended by its caller.
func interruption(ctx context.Context) error {
	c := context.Cause(ctx)
	if c == nil || errors.Is(c, context.Canceled) || errors.Is(c, context.DeadlineExceeded) {
		return nil
	}
	return c
}

// isConnError reports whether err comes from the connection itself.
func isConnError(err error) bool {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	var ne net.Error
	if errors.As(err, &ne) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, net.ErrClosed) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) {
		return true
	}
	s := err.Error()
	return strings.Contains(s, "connection reset") || strings.Contains(s, "broken pipe") || strings.Contains(s, "closed network connection")
}

// markCrashed records that the browser or the connection went away and
// interrupts every call in flight. When the connection ended with an
// error of its own (a protocol violation, a close frame, a stall) that
// error is the cause, reason otherwise.
func (d *Driver) markCrashed(reason string) {
	cerr := d.connErr()
	d.mu.Lock()
	if d.closing || d.closed || d.crashErr != nil {
		d.mu.Unlock()
		return
	}
	if cerr != nil {
		d.crashErr = fmt.Errorf("%w: %w", runtime.ErrBrowserCrashed, cerr)
		reason = cerr.Error()
	} else {
		d.crashErr = fmt.Errorf("%w: %s", runtime.ErrBrowserCrashed, reason)
	}
	d.interruptLocked(d.crashErr)
	for _, p := range d.pendings {
		p.fail(d.crashErr)
	}
	d.mu.Unlock()
	d.log.Warn("browser gone", "reason", reason)
	d.lifeCancel()
}

// call sends one CDP command on session sid ("" for the browser) and
// decodes its result into res when res is not nil.
func (d *Driver) call(ctx context.Context, sid proto.TargetSessionID, req proto.Request, res any) error {
	if trace := d.callTrace.Load(); trace != nil {
		defer (*trace)(req.ProtoReq(), time.Now())
	}
	return callOn(ctx, d.cdp, sid, req, res)
}

// attacher is the host Browser's attach path, nil for a standalone
// driver.
func (d *Driver) attacher() *attacher {
	if d.host == nil {
		return nil
	}
	return d.host.att
}

// adopt takes over a target of the driver's context that the host's
// attacher holds: the driver attaches a session of its own to it (its
// attachedToTarget event then runs onAttached on this connection), and
// onAttached calls release once the session is set up. It reports false
// when the driver is closing or gone (the attacher then releases the
// target itself). It never blocks: the attacher's event loop calls it.
func (d *Driver) adopt(info *proto.TargetTargetInfo, release func()) bool {
	id := info.TargetID
	d.mu.Lock()
	if d.closing || d.closed || d.crashErr != nil {
		d.mu.Unlock()
		return false
	}
	d.adopted[id] = release
	// The barrier waits for it from now on, before the driver's own
	// session exists (onAttached moves the wait to that session).
	d.causal.targets[adoptKey(id)] = time.Now()
	d.causal.noteLocked()
	// Added under mu: Close sets closing under mu before it waits.
	d.wg.Add(1)
	d.mu.Unlock()
	go func() {
		defer d.wg.Done()
		if err := d.call(d.lifeCtx, "", proto.TargetAttachToTarget{TargetID: id, Flatten: true}, nil); err != nil {
			// Gone before the driver reached it (closed at once, or the
			// driver is closing): nothing of it may wait on the driver.
			d.log.Debug("target not adopted", "target_type", string(info.Type), "err", err)
			if rel := d.takeAdopted(id); rel != nil {
				rel()
			}
		}
	}()
	return true
}

// takeAdopted removes and returns the release func of target id, nil
// when the driver does not hold it.
func (d *Driver) takeAdopted(id proto.TargetTargetID) func() {
	d.mu.Lock()
	defer d.mu.Unlock()
	rel := d.adopted[id]
	delete(d.adopted, id)
	d.targetDecidedLocked(adoptKey(id))
	return rel
}

// adoptKey is the causal barrier's key of an adopted target until the
// driver's own session to it exists.
func adoptKey(id proto.TargetTargetID) proto.TargetSessionID {
	return proto.TargetSessionID("adopt:" + string(id))
}

// browserRoundTrip is Settle's confirming round trip through the browser:
// Browser.getVersion on the driver's connection, which the browser
// answers after every event it had for it; for a Browser's driver also
// through the attach connection, where the driver's new targets are
// first attached (attacher.sync).
func (d *Driver) browserRoundTrip(ctx context.Context) error {
	if att := d.attacher(); att != nil {
		if err := att.sync(ctx); err != nil {
			return err
		}
	}
	return d.call(ctx, "", proto.BrowserGetVersion{}, nil)
}

// Close releases everything the driver owns. A launched browser is killed
// with every process it started, and its temporary profile (and the
// default download folder) is deleted. A connected browser keeps running:
// only the driver's browser context (its page and any popups) is closed
// and the connection dropped. Close waits for the driver's goroutines and
// is idempotent.
func (d *Driver) Close() error {
	d.closeOnce.Do(func() {
		d.mu.Lock()
		d.closing = true
		d.interruptLocked(runtime.ErrClosed)
		for _, p := range d.pendings {
			p.fail(runtime.ErrClosed)
		}
		crashed := d.crashErr != nil
		bc := d.browserCtxID
		dialog := d.dialog != ""
		d.mu.Unlock()
		if d.proc == nil && !crashed && bc != "" {
			ctx, cancel := context.WithTimeout(context.Background(), CloseTimeout)
			if dialog {
				d.releaseDialog(ctx)
			}
			if err := d.call(ctx, "", proto.TargetDisposeBrowserContext{BrowserContextID: bc}, nil); err != nil {
				d.closeErr = fmt.Errorf("browser: close browser context: %w", err)
			}
			if d.attacher() == nil {
				_ = d.call(ctx, "", proto.TargetSetAutoAttach{AutoAttach: false, Flatten: true}, nil)
			}
			cancel()
		}
		d.shutdown()
		d.mu.Lock()
		d.closed = true
		d.mu.Unlock()
		if d.host != nil {
			d.host.release(d)
		}
		if d.proc != nil {
			d.log.Info("browser closed")
		} else {
			d.log.Info("browser disconnected")
		}
	})
	return d.closeErr
}

// launchedProcess is the provider-owned browser this driver runs in: its
// own (Launch) or its host's (a launched Browser); nil when connected.
func (d *Driver) launchedProcess() *process {
	if d.proc != nil {
		return d.proc
	}
	if d.host != nil {
		return d.host.proc
	}
	return nil
}

// shutdown kills a launched browser, drops the connection and waits for
// every goroutine.
func (d *Driver) shutdown() {
	d.mu.Lock()
	d.closing = true // adopt takes no target from now on
	d.mu.Unlock()
	if d.proc != nil {
		d.proc.kill()
	}
	_ = d.ws.Close()
	d.lifeCancel()
	d.wg.Wait()
	if att := d.attacher(); att != nil {
		d.mu.Lock()
		bc := d.browserCtxID
		held := make([]func(), 0, len(d.adopted))
		for id, rel := range d.adopted {
			held = append(held, rel)
			delete(d.adopted, id)
			delete(d.causal.targets, adoptKey(id))
		}
		d.mu.Unlock()
		if bc != "" {
			att.disown(bc, d)
		}
		// Targets the driver took and never set up (its connection
		// ended first) are not left paused.
		for _, rel := range held {
			rel()
		}
	}
	if d.gate != nil {
		_ = d.gate.Close()
	}
}

// connErr is the public form of the error that ended the CDP
// connection, or nil while it lives or after a local Close.
func (d *Driver) connErr() error {
	err := d.ws.Err()
	if err == nil || errors.Is(err, cdpws.ErrClosed) {
		return nil
	}
	return publicConnErr(d.endpoint, err)
}

// publicConnErr maps a transport error to the package's typed errors.
func publicConnErr(endpoint string, err error) error {
	var (
		pe *cdpws.ProtocolError
		ce *cdpws.CloseError
		se *cdpws.StallError
		le *cdpws.LostError
	)
	switch {
	case errors.As(err, &pe):
		return &ProtocolError{Endpoint: endpoint, Reason: pe.Reason}
	case errors.As(err, &ce):
		return &CloseError{Endpoint: endpoint, Code: ce.Code, Reason: ce.Reason}
	case errors.As(err, &se):
		return fmt.Errorf("%w: %s: %s within %v", ErrEndpointStalled, endpoint, se.What, se.Timeout)
	case errors.As(err, &le):
		return fmt.Errorf("%w: %s: %v", ErrDisconnected, endpoint, le.Err)
	}
	return fmt.Errorf("%w: %s: %v", ErrDisconnected, endpoint, err)
}

// redactURL is a URL's scheme and host only.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparsable URL)"
	}
	return u.Scheme + "://" + u.Host
}

// discardLogger silences rod's CDP logger.
type discardLogger struct{}

func (discardLogger) Println(...interface{}) {}
