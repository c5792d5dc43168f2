package chromeproc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/vera-run/vera/runtime"
)

// EnvBrowser is the environment variable [Find] reads when no explicit
// path is given. runtime/browser.EnvBrowser is this constant.
const EnvBrowser = "VERA_BROWSER"

// InstallHint is the remedy every "no browser" error names.
// runtime/browser.InstallHint is this constant.
const InstallHint = "install Chromium: apt-get install chromium (Debian/Ubuntu), or set VERA_BROWSER to a Chrome/Chromium binary"

// DefaultStartTimeout bounds how long [Start] waits for the DevTools
// endpoint when ctx has no earlier deadline.
const DefaultStartTimeout = 30 * time.Second

// CloseTimeout bounds how long [Process.Close] waits for the browser and
// its helpers to exit after killing them.
const CloseTimeout = 5 * time.Second

// maxTempBase is the longest temporary base directory used for the
// profile; longer ones fall back to /tmp. The singleton socket path is the
// base plus about 60 bytes and must fit in 108.
const maxTempBase = 40

// stderrTail is how much of the browser's stderr an error quotes.
const stderrTail = 1024

var (
	// ErrNotFound: no browser executable was found (or the one named is
	// not executable). It wraps runtime.ErrBrowserUnavailable.
	ErrNotFound = fmt.Errorf("browser: no browser executable: %w", runtime.ErrBrowserUnavailable)
	// ErrStart: a browser was found but did not announce its DevTools
	// endpoint. It wraps runtime.ErrBrowserLaunchFailed.
	ErrStart = fmt.Errorf("browser: did not start: %w", runtime.ErrBrowserLaunchFailed)
	// ErrClose: Close could not end every process or delete the
	// temporary directory.
	ErrClose = errors.New("browser: close")
)

// Option configures [Start].
type Option func(*options)

type options struct {
	path  string
	flags []string
	log   *slog.Logger
}

// WithPath names the Chrome or Chromium executable. It takes precedence
// over VERA_BROWSER and the usual install locations; "" means "search".
func WithPath(path string) Option { return func(o *options) { o.path = path } }

// WithFlags appends command-line switches ("--lang=it") after the fixed
// ones.
func WithFlags(flags ...string) Option {
	return func(o *options) { o.flags = append(o.flags, flags...) }
}

// WithLogger sets the logger for start and stop records (nil discards).
func WithLogger(l *slog.Logger) Option { return func(o *options) { o.log = l } }

// Find resolves the browser executable: path when not empty, else the
// VERA_BROWSER environment variable, else [LookPath] (the
// usual install locations). It never downloads. The error wraps
// [ErrNotFound] and names [InstallHint].
func Find(path string) (string, error) {
	check := func(source, p string) (string, error) {
		abs, err := exec.LookPath(p)
		if err != nil {
			return "", fmt.Errorf("%w: %s %q is not an executable (%v); %s", ErrNotFound, source, p, err, InstallHint)
		}
		return abs, nil
	}
	if path != "" {
		return check("browser path", path)
	}
	if p := os.Getenv(EnvBrowser); p != "" {
		return check(EnvBrowser, p)
	}
	if p, ok := LookPath(); ok {
		return p, nil
	}
	return "", fmt.Errorf("%w: no Chrome or Chromium in the usual locations; %s", ErrNotFound, InstallHint)
}

// DefaultFlags returns the fixed switches of every browser Vera starts
// (runtime/browser.Launch and StartLocal, and this package's Start),
// without the per-start ones (the profile directory and the debugging
// port, which [Flags] adds). It is the one list: a browser is headless,
// quiet (no first run, background networking, component updates, sync,
// crash reporting, GPU, the windows' omnibox WebUI pages), listens for
// DevTools on 127.0.0.1 only, has no QUIC and no non-proxied WebRTC UDP
// (which would bypass a network gate that sees TCP through a proxy), no
// throttling of background pages, no scrollbars and a 1280x800 window;
// --no-sandbox only when running as root. Callers can append switches,
// never remove these (a second --disable-features replaces this list:
// repeat it whole).
func DefaultFlags() []string {
	f := []string{
		"--headless",
		"--remote-debugging-address=127.0.0.1",
		"--no-first-run",
		"--no-default-browser-check",
		"--disable-background-networking",
		"--disable-component-update",
		"--disable-sync",
		"--disable-gpu",
		// QUIC (UDP) and WebRTC's UDP paths would bypass the network
		// gate, which sees only TCP through the context's proxy: no QUIC,
		// and WebRTC only through the proxy (TURN over TCP, which the
		// gate then checks like any tunnel).
		"--disable-quic",
		"--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
		"--disable-breakpad",
		"--disable-crash-reporter",
		"--disable-dev-shm-usage",
		"--disable-default-apps",
		"--disable-extensions",
		"--disable-domain-reliability",
		"--disable-client-side-phishing-detection",
		"--disable-hang-monitor",
		"--disable-ipc-flooding-protection",
		"--disable-renderer-backgrounding",
		"--disable-background-timer-throttling",
		"--disable-backgrounding-occluded-windows",
		// WebUIOmniboxPopup and WebUIOmniboxAimPopup: every window (one
		// per browser context, so one per run) otherwise builds its
		// omnibox popups as top-chrome WebUI pages in renderers of their
		// own, which nothing headless ever shows: two thirds of the
		// browser's CPU time per context (650 ms -> 195 ms measured on
		// Chromium 156; TestNoWindowUI).
		"--disable-features=Translate,OptimizationHints,MediaRouter,DialMediaRouteProvider,AutofillServerCommunication,CertificateTransparencyComponentUpdater,HttpsUpgrades,InterestFeedContentSuggestions,WebUIOmniboxPopup,WebUIOmniboxAimPopup",
		"--metrics-recording-only",
		"--no-pings",
		"--password-store=basic",
		"--use-mock-keychain",
		"--mute-audio",
		"--hide-scrollbars",
		"--window-size=1280,800",
	}
	if os.Geteuid() == 0 {
		f = append(f, "--no-sandbox")
	}
	return f
}

// Flags returns the switches Start passes for a profile directory, before
// any [WithFlags] and the initial about:blank: [DefaultFlags] plus an
// OS-chosen debugging port and the profile.
func Flags(profile string) []string {
	return append(DefaultFlags(), "--remote-debugging-port=0", "--user-data-dir="+profile)
}

// Process is a running browser started by [Start]. Close it.
type Process struct {
	cmd    *exec.Cmd
	bin    string
	dir    string
	ws     string
	http   string
	log    *slog.Logger
	exited chan struct{}

	closeOnce sync.Once
	closeErr  error
}

// Start starts a headless browser with a fresh profile in a new short
// temporary directory and waits, bounded by ctx (or [DefaultStartTimeout]),
// for its DevTools endpoint. Errors wrap [ErrNotFound] or [ErrStart]; a
// failed start leaves no process and no directory behind.
func Start(ctx context.Context, opts ...Option) (*Process, error) {
	var o options
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	log := o.log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	bin, err := Find(o.path)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrStart, err)
	}
	dir, err := shortTempDir()
	if err != nil {
		return nil, fmt.Errorf("%w: temporary directory: %v", ErrStart, err)
	}
	sub := func(name string) string { return filepath.Join(dir, name) }
	for _, d := range []string{"p", "t", "c", "k", "h"} {
		if err := os.Mkdir(sub(d), 0o700); err != nil {
			_ = os.RemoveAll(dir)
			return nil, fmt.Errorf("%w: temporary directory: %v", ErrStart, err)
		}
	}
	errFile, err := os.OpenFile(sub("stderr.log"), os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, fmt.Errorf("%w: temporary directory: %v", ErrStart, err)
	}
	args := append(Flags(sub("p")), o.flags...)
	args = append(args, "about:blank")
	cmd := exec.Command(bin, args...)
	// Every helper writes under dir (TMPDIR, XDG dirs, HOME), so Close
	// finds it by name and deletes what it wrote.
	cmd.Env = append(os.Environ(),
		"TMPDIR="+sub("t"),
		"XDG_CONFIG_HOME="+sub("c"),
		"XDG_CACHE_HOME="+sub("k"),
		"HOME="+sub("h"))
	// An *os.File needs no copying goroutine and no pipe a helper could
	// hold open.
	cmd.Stdout = nil
	cmd.Stderr = errFile
	SetProcessGroup(cmd)
	p := &Process{cmd: cmd, bin: bin, dir: dir, log: log, exited: make(chan struct{})}
	// The browser is started and waited for on one locked OS thread:
	// Linux sends the parent-death signal when the thread that started
	// the child exits, and Go ends a thread when a goroutine that locked
	// it returns locked, which another goroutine of the host may do on
	// the thread this one ran on. Locked, no other goroutine runs on it
	// until the browser has exited (Wait blocks a thread meanwhile in
	// any case).
	started := make(chan error, 1)
	go func() {
		goruntime.LockOSThread()
		defer goruntime.UnlockOSThread()
		err := cmd.Start()
		started <- err
		if err != nil {
			return
		}
		_ = cmd.Wait()
		close(p.exited)
	}()
	err = <-started
	_ = errFile.Close()
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, fmt.Errorf("%w: %s: %v", ErrStart, filepath.Base(bin), err)
	}

	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultStartTimeout)
		defer cancel()
	}
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		if port, path, ok := readActivePort(sub("p")); ok {
			p.http = "http://127.0.0.1:" + port
			p.ws = "ws://127.0.0.1:" + port + path
			log.Info("browser started", "browser", filepath.Base(bin), "pid", cmd.Process.Pid, "endpoint", p.http)
			return p, nil
		}
		select {
		case <-p.exited:
			tail := p.stderrTail()
			_ = p.Close()
			return nil, fmt.Errorf("%w: %s exited during start: %s", ErrStart, filepath.Base(bin), tail)
		case <-ctx.Done():
			_ = p.Close()
			return nil, fmt.Errorf("%w: no DevTools endpoint: %w", ErrStart, ctx.Err())
		case <-tick.C:
		}
	}
}

// readActivePort reads DevToolsActivePort: the port on the first line and
// the browser target path on the second.
func readActivePort(profile string) (port, path string, ok bool) {
	b, err := os.ReadFile(filepath.Join(profile, "DevToolsActivePort"))
	if err != nil {
		return "", "", false
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 2 {
		return "", "", false
	}
	port, path = strings.TrimSpace(lines[0]), strings.TrimSpace(lines[1])
	if n, err := strconv.Atoi(port); err != nil || n <= 0 || n > 65535 || !strings.HasPrefix(path, "/devtools/browser/") {
		return "", "", false
	}
	return port, path, true
}

// shortTempDir creates the private directory under os.TempDir() when that
// is short enough for Chromium's socket paths, else under /tmp.
func shortTempDir() (string, error) {
	base := os.TempDir()
	if len(base) > maxTempBase {
		if st, err := os.Stat("/tmp"); err == nil && st.IsDir() {
			base = "/tmp"
		}
	}
	return os.MkdirTemp(base, "vcp-")
}

// Endpoint returns the browser's DevTools WebSocket URL,
// "ws://127.0.0.1:PORT/devtools/browser/<id>".
func (p *Process) Endpoint() string { return p.ws }

// HTTPEndpoint returns the DevTools HTTP endpoint, "http://127.0.0.1:PORT"
// (browser.Connect resolves it through /json/version).
func (p *Process) HTTPEndpoint() string { return p.http }

// ProfileDir returns the browser's profile directory, inside [Process.Dir].
func (p *Process) ProfileDir() string { return filepath.Join(p.dir, "p") }

// Dir returns the process's private temporary directory. Every process of
// this browser names it on its command line; Close deletes it.
func (p *Process) Dir() string { return p.dir }

// Path returns the executable that was started.
func (p *Process) Path() string { return p.bin }

// Pid returns the browser's process id.
func (p *Process) Pid() int { return p.cmd.Process.Pid }

// Done is closed when the browser's main process has exited.
func (p *Process) Done() <-chan struct{} { return p.exited }

// Alive reports whether the browser's main process is still running.
func (p *Process) Alive() bool {
	select {
	case <-p.exited:
		return false
	default:
		return true
	}
}

// Close kills the browser's process group and every remaining process
// that names [Process.Dir], waits for them (at most [CloseTimeout]) and
// deletes the directory with the profile. It is idempotent; every call
// returns the first call's result, an error wrapping [ErrClose] when a
// process survived or the directory could not be deleted.
func (p *Process) Close() error {
	p.closeOnce.Do(func() {
		deadline := time.Now().Add(CloseTimeout)
		KillTree(p.cmd.Process.Pid)
		select {
		case <-p.exited:
		case <-time.After(CloseTimeout):
		}
		left := 0
		for {
			left = killByMarker(p.dir)
			if left == 0 || time.Now().After(deadline) {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		// Killed helpers may still hold files for a moment: retry.
		var rmErr error
		for i := 0; i < 50; i++ {
			if rmErr = os.RemoveAll(p.dir); rmErr == nil {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		var errs []error
		if left > 0 {
			errs = append(errs, fmt.Errorf("%w: %d browser processes still running", ErrClose, left))
		}
		if rmErr != nil {
			errs = append(errs, fmt.Errorf("%w: %v", ErrClose, rmErr))
		}
		p.closeErr = errors.Join(errs...)
		p.log.Info("browser stopped", "pid", p.cmd.Process.Pid, "error", p.closeErr)
	})
	return p.closeErr
}

// stderrTail returns the end of the browser's stderr, for errors.
func (p *Process) stderrTail() string {
	f, err := os.Open(filepath.Join(p.dir, "stderr.log"))
	if err != nil {
		return "(no output)"
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Size() > stderrTail {
		_, _ = f.Seek(st.Size()-stderrTail, io.SeekStart)
	}
	b, _ := io.ReadAll(io.LimitReader(f, stderrTail))
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return "(no output)"
	}
	return string(b)
}
