package browser

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/vera-run/vera/internal/chromeproc"
	"github.com/vera-run/vera/runtime"
)

// EnvBrowser is the environment variable [Launch] and [StartLocal] read
// for the browser executable when no [WithBrowserPath] is given.
const EnvBrowser = chromeproc.EnvBrowser

// InstallHint is the remedy every "no browser" error names.
const InstallHint = chromeproc.InstallHint

// DefaultLaunchTimeout bounds how long [Launch] waits for the browser to
// announce its DevTools endpoint when ctx has no earlier deadline.
const DefaultLaunchTimeout = 60 * time.Second

// DefaultFlags returns the fixed command-line switches of every browser
// Vera starts ([Launch] and [StartLocal]): headless, quiet (no first run,
// background networking, component updates, sync, crash reporting or
// GPU), DevTools on 127.0.0.1 only, no QUIC and no non-proxied WebRTC
// UDP (they would bypass the network gate), no background throttling,
// no omnibox popup WebUI pages in each window (two renderers per browser
// context that nothing headless shows, two thirds of the browser's CPU
// per context: a host that starts its own Chromium for [Connect] should
// pass the same --disable-features), hidden scrollbars, a 1280x800
// window, and --no-sandbox only when running as root. Each start adds
// its own profile directory and --remote-debugging-port=0;
// [WithExtraFlags] appends switches after these and cannot remove them
// (a second --disable-features replaces the list's: repeat it whole). The
// list is a copy: changing it changes nothing.
func DefaultFlags() []string { return chromeproc.DefaultFlags() }

// findBrowser resolves the executable: explicit path, then VERA_BROWSER,
// then the usual install locations (one rule, chromeproc.Find). It never
// downloads a browser. The error wraps [runtime.ErrBrowserUnavailable]
// and names [InstallHint].
func findBrowser(_ context.Context, o options) (string, error) {
	return chromeproc.Find(o.browserPath)
}

// process is a launched browser: the one launcher's process
// (internal/chromeproc) and its private temporary directory.
type process struct {
	p      *chromeproc.Process
	root   string // temporary root: profile, xdg dirs, default downloads
	exited <-chan struct{}
}

// startProcess starts the browser through the one launcher and returns
// it with its DevTools websocket URL and default download folder.
func startProcess(ctx context.Context, bin string, o options) (*process, string, string, error) {
	tctx, cancel := context.WithTimeout(ctx, DefaultLaunchTimeout)
	defer cancel()
	cp, err := chromeproc.Start(tctx, chromeproc.WithPath(bin), chromeproc.WithFlags(o.extraFlags...), chromeproc.WithLogger(o.logger))
	if err != nil {
		return nil, "", "", err
	}
	p := &process{p: cp, root: cp.Dir(), exited: cp.Done()}
	downloads := filepath.Join(cp.Dir(), "downloads")
	if err := os.Mkdir(downloads, 0o700); err != nil {
		p.kill()
		return nil, "", "", fmt.Errorf("%w: download folder: %v", runtime.ErrBrowserLaunchFailed, err)
	}
	return p, cp.Endpoint(), downloads, nil
}

// kill ends the browser, every process it started and everything that
// still names its temporary root, waits for them (at most
// chromeproc.CloseTimeout), and deletes the root. It is idempotent.
func (p *process) kill() { _ = p.p.Close() }

// alive reports whether the browser process is still running.
func (p *process) alive() bool { return p.p.Alive() }

// pid is the browser's process id.
func (p *process) pid() int { return p.p.Pid() }
