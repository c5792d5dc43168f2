package browser

import (
	"context"
	"fmt"

	"github.com/vera-run/vera/internal/chromeproc"
	"github.com/vera-run/vera/runtime"
)

// DefaultStartLocalTimeout bounds how long [StartLocal] waits for the
// browser's DevTools endpoint when ctx has no earlier deadline.
const DefaultStartLocalTimeout = chromeproc.DefaultStartTimeout

// LocalCloseTimeout bounds how long [LocalBrowser.Close] waits for the
// browser and its helpers to exit after killing them.
const LocalCloseTimeout = chromeproc.CloseTimeout

// ErrLocalClose is wrapped by the error of [LocalBrowser.Close] when a
// browser process survived or the temporary directory could not be
// deleted.
var ErrLocalClose = chromeproc.ErrClose

// LocalBrowser is a Chrome or Chromium that [StartLocal] started for
// development and tests: a stand-in for an operator's own browser, with a
// DevTools endpoint that [Connect] attaches to. It is owned by the
// caller, not by a Driver: closing a connected Driver leaves it running;
// [LocalBrowser.Close] ends it. Its methods are safe for concurrent use.
type LocalBrowser struct {
	p *chromeproc.Process
}

// StartLocal starts a headless browser with a fresh, throw-away profile in
// a new private temporary directory, with the same switches as [Launch]
// ([DefaultFlags]), and waits, bounded by ctx (or
// [DefaultStartLocalTimeout] when ctx has no deadline), for its DevTools
// endpoint on 127.0.0.1. The executable is found as Launch finds it:
// [WithBrowserPath], else [EnvBrowser], else the usual install locations;
// nothing is ever downloaded. [WithExtraFlags] and [WithLogger] apply;
// the other options are Connect's and Launch's and are ignored here.
//
// Errors wrap [runtime.ErrBrowserUnavailable] (no browser: the message
// names [InstallHint]) or [runtime.ErrBrowserLaunchFailed] (it did not
// start); a failed or canceled start leaves no process and no directory.
//
// StartLocal is for development, tests and examples of connect mode (a
// program that needs a browser of its own to run capabilities should
// use Launch): the browser is reachable by any local process that finds
// its port, as an operator's Chrome started with --remote-debugging-port
// is.
func StartLocal(ctx context.Context, opts ...Option) (*LocalBrowser, error) {
	if ctx == nil {
		return nil, errNilContext
	}
	o := buildOptions(opts)
	// A StartLocal browser is a launch: authorized before it starts.
	authz, err := authorizeLaunch(ctx, o)
	if err != nil {
		return nil, err
	}
	p, err := chromeproc.Start(ctx, chromeproc.WithPath(authz.Target.Executable), chromeproc.WithFlags(o.extraFlags...), chromeproc.WithLogger(o.logger))
	if err != nil {
		return nil, err
	}
	return &LocalBrowser{p: p}, nil
}

// FindBrowser resolves the Chrome or Chromium executable as [Launch] and
// [StartLocal] do: path when not empty, else the [EnvBrowser] environment
// variable, else the usual install locations of Chrome, Chromium and Edge.
// It never downloads anything. The error wraps
// [runtime.ErrBrowserUnavailable] and names [InstallHint].
func FindBrowser(path string) (string, error) { return chromeproc.Find(path) }

// Path returns the executable that was started.
func (b *LocalBrowser) Path() string { return b.p.Path() }

// Endpoint returns the browser's DevTools WebSocket URL,
// "ws://127.0.0.1:PORT/devtools/browser/<id>", for [Connect].
func (b *LocalBrowser) Endpoint() string { return b.p.Endpoint() }

// HTTPEndpoint returns the DevTools HTTP endpoint, "http://127.0.0.1:PORT"
// (Connect accepts it too and resolves it through /json/version).
func (b *LocalBrowser) HTTPEndpoint() string { return b.p.HTTPEndpoint() }

// ProfileDir returns the browser's profile directory. It is inside the
// browser's private temporary directory, which Close deletes.
func (b *LocalBrowser) ProfileDir() string { return b.p.ProfileDir() }

// Pid returns the browser's main process id.
func (b *LocalBrowser) Pid() int { return b.p.Pid() }

// Done is closed when the browser's main process has exited.
func (b *LocalBrowser) Done() <-chan struct{} { return b.p.Done() }

// Close kills the browser and every process it started (its process group,
// then anything that still names its temporary directory), waits for them
// (at most [LocalCloseTimeout]) and deletes the directory with the
// profile. After it returns no process of this browser is running. It is
// idempotent; every call returns the first call's result, an error
// wrapping [ErrLocalClose] when a process survived or the directory could
// not be deleted.
func (b *LocalBrowser) Close() error {
	if b == nil || b.p == nil {
		return fmt.Errorf("%w: nil LocalBrowser", runtime.ErrInvalidArgument)
	}
	return b.p.Close()
}
