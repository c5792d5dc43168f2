package browser

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/vera-run/vera/internal/chromeproc"
	"github.com/vera-run/vera/runtime"
)

// EnvBrowser is the environment variable [Launch] reads for the browser
// executable when no [WithBrowserPath] is given.
const EnvBrowser = chromeproc.EnvBrowser

// InstallHint is the remedy every "no browser" error names.
const InstallHint = chromeproc.InstallHint

// maxTmpLen bounds the TMPDIR given to Chromium so that its singleton
// socket path (TMPDIR + about 50 bytes) fits the 108-byte limit.
const maxTmpLen = 56

// DefaultLaunchTimeout bounds how long [Launch] waits for the browser to
// announce its DevTools endpoint when ctx has no earlier deadline.
const DefaultLaunchTimeout = 60 * time.Second

// findBrowser resolves the executable: explicit path, then VERA_BROWSER,
// then the usual install locations (one rule, chromeproc.Find). It never
// downloads a browser. The error wraps [runtime.ErrBrowserUnavailable]
// and names [InstallHint].
func findBrowser(_ context.Context, o options) (string, error) {
	return chromeproc.Find(o.browserPath)
}

// launchFlags are the fixed switches of a provider-owned browser.
func launchFlags(profile string, extra []string) []string {
	f := []string{
		"--headless",
		"--remote-debugging-port=0",
		"--remote-debugging-address=127.0.0.1",
		"--user-data-dir=" + profile,
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
		"--disable-features=Translate,OptimizationHints,MediaRouter,DialMediaRouteProvider,AutofillServerCommunication,CertificateTransparencyComponentUpdater,HttpsUpgrades,InterestFeedContentSuggestions",
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
	f = append(f, extra...)
	return append(f, "about:blank")
}

// process is a launched browser and the temporary directory it owns.
type process struct {
	cmd  *exec.Cmd
	root string // temporary root: profile, xdg dirs, default downloads
	// extraTmp is a short TMPDIR outside root, used when root's path is
	// too long for Chromium's socket; "" otherwise.
	extraTmp string
	exited   chan struct{}
	stderr   *stderrWatcher

	killOnce sync.Once
}

// startProcess starts the browser and waits for its DevTools websocket URL.
func startProcess(ctx context.Context, bin string, o options) (*process, string, string, error) {
	root, err := os.MkdirTemp("", "vera-b-")
	if err != nil {
		return nil, "", "", fmt.Errorf("%w: temporary profile: %v", runtime.ErrBrowserLaunchFailed, err)
	}
	profile := filepath.Join(root, "profile")
	downloads := filepath.Join(root, "downloads")
	tmp := filepath.Join(root, "t")
	var extraTmp string
	if len(tmp) > maxTmpLen && filepath.IsAbs("/tmp") {
		// Chromium puts its singleton socket under TMPDIR and a Unix socket
		// path must fit in 108 bytes: use a short folder of our own.
		if t, err := os.MkdirTemp("/tmp", "vera-t-"); err == nil {
			tmp, extraTmp = t, t
		}
	}
	for _, d := range []string{profile, downloads, filepath.Join(root, "config"), filepath.Join(root, "cache"), tmp} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			_ = os.RemoveAll(root)
			if extraTmp != "" {
				_ = os.RemoveAll(extraTmp)
			}
			return nil, "", "", fmt.Errorf("%w: temporary profile: %v", runtime.ErrBrowserLaunchFailed, err)
		}
	}
	cmd := exec.Command(bin, launchFlags(profile, o.extraFlags)...)
	// XDG dirs and TMPDIR inside the temporary root keep every helper
	// (crash handler included) pointed at it, so Close can find and end
	// them all and delete what they wrote.
	cmd.Env = append(os.Environ(),
		"XDG_CONFIG_HOME="+filepath.Join(root, "config"),
		"XDG_CACHE_HOME="+filepath.Join(root, "cache"),
		"TMPDIR="+tmp)
	w := newStderrWatcher()
	cmd.Stderr = w
	cmd.WaitDelay = 2 * time.Second
	chromeproc.SetProcessGroup(cmd)
	if err := cmd.Start(); err != nil {
		_ = os.RemoveAll(root)
		if extraTmp != "" {
			_ = os.RemoveAll(extraTmp)
		}
		return nil, "", "", fmt.Errorf("%w: %s: %v", runtime.ErrBrowserLaunchFailed, filepath.Base(bin), err)
	}
	p := &process{cmd: cmd, root: root, extraTmp: extraTmp, exited: make(chan struct{}), stderr: w}
	go func() {
		_ = cmd.Wait()
		close(p.exited)
	}()
	tctx, cancel := context.WithTimeout(ctx, DefaultLaunchTimeout)
	defer cancel()
	select {
	case ws := <-w.url:
		return p, ws, downloads, nil
	case <-p.exited:
		p.kill(o.killTimeout)
		return nil, "", "", fmt.Errorf("%w: %s exited during start: %s", runtime.ErrBrowserLaunchFailed, filepath.Base(bin), w.tail())
	case <-tctx.Done():
		p.kill(o.killTimeout)
		return nil, "", "", fmt.Errorf("%w: no DevTools endpoint announced: %w", runtime.ErrBrowserLaunchFailed, tctx.Err())
	}
}

// kill ends the browser, every process it started and everything that
// still names its temporary root, waits for them, and deletes the root.
func (p *process) kill(timeout time.Duration) {
	p.killOnce.Do(func() {
		pid := p.cmd.Process.Pid
		chromeproc.KillTree(pid)
		deadline := time.Now().Add(timeout)
		select {
		case <-p.exited:
		case <-time.After(timeout):
		}
		for {
			n := chromeproc.KillProcesses(p.root)
			if n == 0 || time.Now().After(deadline) {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		for _, dir := range []string{p.root, p.extraTmp} {
			for i := 0; dir != "" && i < 50; i++ {
				if err := os.RemoveAll(dir); err == nil {
					break
				}
				time.Sleep(20 * time.Millisecond)
			}
		}
	})
}

// alive reports whether the browser process is still running.
func (p *process) alive() bool {
	select {
	case <-p.exited:
		return false
	default:
		return true
	}
}

// stderrWatcher scans the browser's stderr for the DevTools announcement
// and keeps a short tail for error messages.
type stderrWatcher struct {
	mu   sync.Mutex
	buf  []byte
	last []byte
	url  chan string
	sent bool
}

const stderrTail = 2048

func newStderrWatcher() *stderrWatcher { return &stderrWatcher{url: make(chan string, 1)} }

func (w *stderrWatcher) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.last = append(w.last, b...)
	if len(w.last) > stderrTail {
		w.last = append([]byte(nil), w.last[len(w.last)-stderrTail:]...)
	}
	if w.sent {
		return len(b), nil
	}
	w.buf = append(w.buf, b...)
	for {
		i := bytes.IndexByte(w.buf, '\n')
		if i < 0 {
			break
		}
		line := string(w.buf[:i])
		w.buf = w.buf[i+1:]
		if j := strings.Index(line, "DevTools listening on "); j >= 0 {
			u := strings.TrimSpace(line[j+len("DevTools listening on "):])
			if strings.HasPrefix(u, "ws://") {
				w.sent = true
				w.buf = nil
				w.url <- u
				break
			}
		}
	}
	if len(w.buf) > 64<<10 {
		w.buf = nil
	}
	return len(b), nil
}

func (w *stderrWatcher) tail() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	s := strings.TrimSpace(string(w.last))
	if s == "" {
		return "(no output)"
	}
	return s
}
