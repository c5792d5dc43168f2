package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"

	"github.com/go-rod/rod/lib/cdp"
	"github.com/go-rod/rod/lib/proto"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/browser/internal/cdpws"
)

// attacher is a Browser's one attach path: one CDP connection of its own
// with browser-level auto-attach and the debugger pause, so every new
// target of the browser is held before its first request by this
// connection only, however many drivers are open. It routes each
// attached target by its browserContextId to the driver owning that
// context ([Driver.adopt]), which attaches a session of its own on its
// own connection, installs interception, policy and viewport there, and
// then lets the target run through the release func; a target of no
// open driver's context (an operator's tab, a context being disposed) is
// released at once. A driver of a Browser therefore never sees, touches
// or delays a target of another context.
//
// The attacher makes no decision about a request: it only holds and
// releases. When its connection ends while the Browser is open, no new
// target could be held any more, so the Browser marks every driver
// crashed (lost) and opens no new one.
type attacher struct {
	log      *slog.Logger
	ws       *cdpws.Conn
	cdp      *cdp.Client
	endpoint string
	ver      proto.BrowserGetVersionResult // Browser.getVersion, asked once

	ctx    context.Context // the release calls'; cancelled by close
	cancel context.CancelFunc
	wg     sync.WaitGroup // event loop and release goroutines
	done   chan struct{}  // closed when the event loop ended

	mu      sync.Mutex
	closing bool
	owners  map[proto.BrowserBrowserContextID]*Driver

	// lost is called once, from the event loop, when the connection
	// ended while the attacher was not closing.
	lost func(error)
	// syncs asks the event loop to answer once every event it received
	// before is routed (sync).
	syncs chan chan struct{}
	// routed, when set (tests only, before dial returns), sees every
	// target the attacher attached and the driver it went to (nil: none).
	routed func(info *proto.TargetTargetInfo, to *Driver)
}

// dialAttacher opens the attach connection to wsURL, asks the browser's
// version once and turns on browser-level auto-attach. ctx bounds the
// dial and the two calls. Errors wrap [runtime.ErrBrowserUnavailable].
func dialAttacher(ctx context.Context, wsURL string, o options, lost func(error)) (*attacher, error) {
	endpoint, ws, err := dialCDP(ctx, wsURL, o, "attach websocket")
	if err != nil {
		return nil, err
	}
	actx, cancel := context.WithCancel(context.Background())
	a := &attacher{
		log:      o.logger,
		ws:       ws,
		cdp:      cdp.New().Logger(discardLogger{}).Start(ws),
		endpoint: endpoint,
		ctx:      actx,
		cancel:   cancel,
		done:     make(chan struct{}),
		owners:   map[proto.BrowserBrowserContextID]*Driver{},
		syncs:    make(chan chan struct{}),
		lost:     lost,
		routed:   o.attachTrace,
	}
	a.wg.Add(1)
	go a.loop()
	fail := func(step string, err error) error {
		if cerr := a.connErr(); cerr != nil {
			err = cerr
		} else if ctx.Err() != nil {
			err = ctx.Err()
		}
		a.close()
		return fmt.Errorf("%w: %s: %s: %w", runtime.ErrBrowserUnavailable, endpoint, step, err)
	}
	if err := a.call(ctx, proto.BrowserGetVersion{}, &a.ver); err != nil {
		return nil, fail("version", err)
	}
	if err := a.call(ctx, proto.TargetSetAutoAttach{AutoAttach: true, WaitForDebuggerOnStart: true, Flatten: true}, nil); err != nil {
		return nil, fail("auto-attach", err)
	}
	return a, nil
}

func (a *attacher) call(ctx context.Context, req proto.Request, res any) error {
	return callOn(ctx, a.cdp, "", req, res)
}

// connErr is the public form of the error that ended the connection, or
// nil while it lives or after close.
func (a *attacher) connErr() error {
	err := a.ws.Err()
	if err == nil || errors.Is(err, cdpws.ErrClosed) {
		return nil
	}
	return publicConnErr(a.endpoint, err)
}

// loop reads the attach connection's events. Like the driver's event
// loop it never makes a CDP call itself.
func (a *attacher) loop() {
	defer a.wg.Done()
	defer close(a.done)
	events := a.cdp.Event()
	for {
		var ev *cdp.Event
		select {
		case done := <-a.syncs:
			close(done)
			continue
		case e, ok := <-events:
			if !ok {
				events = nil
			}
			ev = e
		}
		if events == nil {
			break
		}
		if ev.Method != "Target.attachedToTarget" || ev.SessionID != "" {
			continue
		}
		var e proto.TargetAttachedToTarget
		if decode(ev, &e) && e.TargetInfo != nil {
			a.route(&e)
		}
	}
	a.mu.Lock()
	closing := a.closing
	a.mu.Unlock()
	if !closing && a.lost != nil {
		err := a.connErr()
		if err == nil {
			err = fmt.Errorf("%w: %s: attach connection closed", ErrDisconnected, a.endpoint)
		}
		a.lost(err)
	}
}

// sync returns once every target the browser attached before the call
// is routed (handed to its driver, which then tracks it, or released):
// a round trip through the attach connection (the browser sent every
// event it had before it answers, and the client hands an event to the
// loop before it reads what follows), then one through the loop.
func (a *attacher) sync(ctx context.Context) error {
	if err := a.call(ctx, proto.BrowserGetVersion{}, nil); err != nil {
		return err
	}
	done := make(chan struct{})
	select {
	case a.syncs <- done:
	case <-a.done:
		return fmt.Errorf("%w: %s: attach connection closed", ErrDisconnected, a.endpoint)
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// route hands one attached target to the driver owning its context, or
// releases it.
func (a *attacher) route(e *proto.TargetAttachedToTarget) {
	a.mu.Lock()
	d := a.owners[e.TargetInfo.BrowserContextID]
	a.mu.Unlock()
	if e.TargetInfo.BrowserContextID == "" {
		d = nil
	}
	rel := a.releaser(e.SessionID, e.WaitingForDebugger)
	if d != nil && !d.adopt(e.TargetInfo, rel) {
		d = nil
	}
	if a.routed != nil {
		a.routed(e.TargetInfo, d)
	}
	if d == nil {
		rel()
	}
}

// releaser returns the func that lets the target of the attach session
// sid run and detaches from it; it runs at most once and does not block.
func (a *attacher) releaser(sid proto.TargetSessionID, waiting bool) func() {
	var once sync.Once
	return func() {
		once.Do(func() {
			a.mu.Lock()
			if a.closing {
				// Dropping the connection detaches the session, which
				// releases the target.
				a.mu.Unlock()
				return
			}
			a.wg.Add(1)
			a.mu.Unlock()
			go func() {
				defer a.wg.Done()
				if waiting {
					_ = callOn(a.ctx, a.cdp, sid, proto.RuntimeRunIfWaitingForDebugger{}, nil)
				}
				_ = callOn(a.ctx, a.cdp, "", proto.TargetDetachFromTarget{SessionID: sid}, nil)
			}()
		})
	}
}

// own registers d as the owner of browser context bc: from now on the
// context's new targets go to d. It fails when the attach connection is
// gone (no target of the context could be held).
func (a *attacher) own(bc proto.BrowserBrowserContextID, d *Driver) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.closing {
		return runtime.ErrClosed
	}
	select {
	case <-a.done:
		if err := a.connErr(); err != nil {
			return err
		}
		return fmt.Errorf("%w: %s: attach connection closed", ErrDisconnected, a.endpoint)
	default:
	}
	a.owners[bc] = d
	return nil
}

// disown forgets the owner of bc; later targets of bc (a context being
// disposed) are released at once.
func (a *attacher) disown(bc proto.BrowserBrowserContextID, d *Driver) {
	a.mu.Lock()
	if a.owners[bc] == d {
		delete(a.owners, bc)
	}
	a.mu.Unlock()
}

// close drops the connection (which releases every target still held)
// and waits for the attacher's goroutines.
func (a *attacher) close() {
	a.mu.Lock()
	a.closing = true
	a.mu.Unlock()
	_ = a.ws.Close()
	a.cancel()
	a.wg.Wait()
}

// callOn sends one CDP command on session sid of client c and decodes
// its result into res when res is not nil.
//
// The call's context is cancelled when the call returns. rod's client
// answers a pending call from its reader with a send that waits for the
// caller or for the call's context; a call whose Send fails returns at
// once, so when the connection ends between the call's registration and
// its Send the reader would wait on that context (a driver's or the
// attach connection's lifetime) and deliver no further message and no
// end of the connection: a lost attach connection went unnoticed for a
// minute (TestCallOnSendFailsWhileReaderAnswers).
func callOn(ctx context.Context, c *cdp.Client, sid proto.TargetSessionID, req proto.Request, res any) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	b, err := c.Call(ctx, string(sid), req.ProtoReq(), req)
	if err != nil {
		return err
	}
	if res == nil {
		return nil
	}
	return json.Unmarshal(b, res)
}

// driverInfo is the DriverInfo part a Browser.getVersion answers.
func driverInfo(ver proto.BrowserGetVersionResult) runtime.DriverInfo {
	return runtime.DriverInfo{
		Browser:         strings.Replace(ver.Product, "HeadlessChrome/", "Chrome/", 1),
		ProtocolVersion: ver.ProtocolVersion,
		UserAgent:       ver.UserAgent,
	}
}
