package chromeproc_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/vera-run/vera/internal/chromeproc"
	"github.com/vera-run/vera/internal/testmain"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/browser"
)

// tmp is the test binary's private TMPDIR: every directory Start creates
// lives under it, so TestMain can prove nothing survived.
var tmp string

func TestMain(m *testing.M) {
	if os.Getenv(envOrphanHelper) == "1" {
		orphanHelper()
		return
	}
	dir, err := os.MkdirTemp("", "vcpt-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	tmp = dir
	os.Setenv("TMPDIR", dir)
	testmain.SetTestCeiling()
	code := m.Run()
	if n := chromeproc.CountProcesses(dir); n > 0 {
		fmt.Fprintf(os.Stderr, "FAIL: %d browser processes left running\n", n)
		code = 1
	}
	if ents, _ := os.ReadDir(dir); len(ents) > 0 && code == 0 {
		fmt.Fprintf(os.Stderr, "FAIL: %d temporary entries left in %s\n", len(ents), dir)
		code = 1
	}
	if err := goleak.Find(); err != nil && code == 0 {
		fmt.Fprintln(os.Stderr, "FAIL: goroutine leak:", err)
		code = 1
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

// requireBrowser skips without a browser unless VERA_REQUIRE_BROWSER=1.
func requireBrowser(t *testing.T) string {
	t.Helper()
	p, err := chromeproc.Find("")
	if err != nil {
		if os.Getenv("VERA_REQUIRE_BROWSER") == "1" {
			t.Fatalf("VERA_REQUIRE_BROWSER=1 but no browser: %v", err)
		}
		t.Skipf("no Chrome/Chromium found (%v); set VERA_REQUIRE_BROWSER=1 to make this a failure", err)
	}
	return p
}

func TestStartConnectClose(t *testing.T) {
	bin := requireBrowser(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	p, err := chromeproc.Start(ctx, chromeproc.WithPath(bin))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if !strings.HasPrefix(p.Endpoint(), "ws://127.0.0.1:") || !strings.Contains(p.Endpoint(), "/devtools/browser/") {
		t.Errorf("Endpoint = %q", p.Endpoint())
	}
	if !strings.HasPrefix(p.HTTPEndpoint(), "http://127.0.0.1:") || !strings.HasPrefix(p.Dir(), tmp) || p.Path() != bin || !p.Alive() {
		t.Errorf("HTTPEndpoint %q Dir %q Path %q alive %v", p.HTTPEndpoint(), p.Dir(), p.Path(), p.Alive())
	}
	if n := chromeproc.CountProcesses(p.Dir()); n < 2 {
		t.Errorf("CountProcesses = %d, want the browser and its helpers", n)
	}

	// The HTTP endpoint names the same browser.
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, p.HTTPEndpoint()+"/json/version", nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		WS string `json:"webSocketDebuggerUrl"`
	}
	err = json.NewDecoder(res.Body).Decode(&v)
	res.Body.Close()
	http.DefaultClient.CloseIdleConnections()
	if err != nil || v.WS != p.Endpoint() {
		t.Errorf("/json/version webSocketDebuggerUrl = %q (%v), want %q", v.WS, err, p.Endpoint())
	}

	// Both endpoint forms connect, and a connected driver leaves it alive.
	for _, ep := range []string{p.Endpoint(), p.HTTPEndpoint()} {
		d, err := browser.Connect(ctx, ep)
		if err != nil {
			t.Fatalf("Connect(%s): %v", ep, err)
		}
		if mode := d.Info().Mode; mode != runtime.ModeLiveConnected {
			t.Errorf("mode = %q", mode)
		}
		if err := d.Close(); err != nil {
			t.Fatal(err)
		}
		if !p.Alive() {
			t.Fatal("the browser died when the driver disconnected")
		}
	}

	dir := p.Dir()
	if err := p.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	select {
	case <-p.Done():
	default:
		t.Error("Done not closed after Close")
	}
	if n := chromeproc.CountProcesses(dir); n != 0 {
		t.Errorf("%d processes survived Close", n)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("directory not deleted: %v", err)
	}
	if err := p.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func TestCloseFromAnotherGoroutine(t *testing.T) {
	requireBrowser(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	p, err := chromeproc.Start(ctx)
	if err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 2)
	for range 2 {
		go func() { errs <- p.Close() }()
	}
	for range 2 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	if n := chromeproc.CountProcesses(p.Dir()); n != 0 {
		t.Errorf("%d processes survived Close", n)
	}
}

func TestFind(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no-such-chrome")
	cases := []struct {
		name, path, env string
		ok              bool
	}{
		{"explicit missing", missing, "", false},
		{"env missing", "", missing, false},
		{"explicit wins over env", "/bin/sh", missing, true},
		{"directory", t.TempDir(), "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv(chromeproc.EnvBrowser, c.env)
			got, err := chromeproc.Find(c.path)
			if c.ok {
				if err != nil || got == "" {
					t.Fatalf("Find = %q, %v", got, err)
				}
				return
			}
			if !errors.Is(err, chromeproc.ErrNotFound) || !errors.Is(err, runtime.ErrBrowserUnavailable) {
				t.Fatalf("Find = %q, %v; want ErrNotFound", got, err)
			}
			if !strings.Contains(err.Error(), chromeproc.InstallHint) {
				t.Errorf("error does not say what to install: %v", err)
			}
		})
	}
}

func TestStartFailures(t *testing.T) {
	before := entries(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	// A program that exits at once is not a browser.
	_, err := chromeproc.Start(ctx, chromeproc.WithPath("/bin/false"))
	if !errors.Is(err, chromeproc.ErrStart) || !errors.Is(err, runtime.ErrBrowserLaunchFailed) {
		t.Errorf("Start(/bin/false) = %v, want ErrStart", err)
	}
	// A program that never announces an endpoint: ctx bounds the wait.
	silent := filepath.Join(t.TempDir(), "silent")
	if err := os.WriteFile(silent, []byte("#!/bin/sh\nexec sleep 30\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	short, cancel2 := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel2()
	_, err = chromeproc.Start(short, chromeproc.WithPath(silent))
	if !errors.Is(err, chromeproc.ErrStart) || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Start(sleep) = %v, want ErrStart and DeadlineExceeded", err)
	}
	// A canceled context starts nothing.
	done, cancel3 := context.WithCancel(ctx)
	cancel3()
	_, err = chromeproc.Start(done, chromeproc.WithPath("/bin/sh"))
	if !errors.Is(err, chromeproc.ErrStart) || !errors.Is(err, context.Canceled) {
		t.Errorf("Start(canceled) = %v", err)
	}
	// Not found.
	_, err = chromeproc.Start(ctx, chromeproc.WithPath(filepath.Join(tmp, "nope")))
	if !errors.Is(err, chromeproc.ErrNotFound) {
		t.Errorf("Start(missing) = %v", err)
	}
	if after := entries(t); after != before {
		t.Errorf("failed starts left %d temporary entries (before %d)", after, before)
	}
}

// entries counts the entries of the test's TMPDIR that Start created.
func entries(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir(tmp)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), "vcp-") {
			n++
		}
	}
	return n
}

func TestConstantsMatchBrowser(t *testing.T) {
	if chromeproc.EnvBrowser != browser.EnvBrowser || chromeproc.InstallHint != browser.InstallHint {
		t.Error("EnvBrowser or InstallHint drifted from runtime/browser")
	}
}

func TestFlags(t *testing.T) {
	f := strings.Join(chromeproc.Flags("/tmp/x/p"), " ")
	for _, want := range []string{"--headless", "--remote-debugging-port=0", "--remote-debugging-address=127.0.0.1", "--user-data-dir=/tmp/x/p", "--disable-quic",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"} {
		if !strings.Contains(f, want) {
			t.Errorf("flags lack %s", want)
		}
	}
	if root := os.Geteuid() == 0; root != strings.Contains(f, "--no-sandbox") {
		t.Errorf("--no-sandbox present = %v, running as root = %v", !root, root)
	}
}

// TestNoWindowUI checks that a browser started with the default flags
// opens a run's window (a browser context and its page, as every driver
// does) without the omnibox popup WebUI pages Chromium otherwise builds
// for each window, in renderers of their own (about 450 ms of the
// browser's CPU per context). The targets are read from the browser's
// HTTP list, which shows every target, browser_ui ones included.
func TestNoWindowUI(t *testing.T) {
	bin := requireBrowser(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for _, c := range []struct {
		name  string
		flags []string
		want  bool // browser_ui targets expected
	}{
		// The control: without the two features off, the window has
		// them, so the check below can fail.
		{"features on", []string{"--disable-features=Translate"}, true},
		{"default flags", nil, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := chromeproc.Start(ctx, chromeproc.WithPath(bin), chromeproc.WithFlags(c.flags...))
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			d, err := browser.Connect(ctx, p.HTTPEndpoint())
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			if err := d.Navigate(ctx, "about:blank"); err != nil {
				t.Fatal(err)
			}
			// The window builds its UI while the page starts (the
			// control shows it within half a second on a quiet machine):
			// the control asks until it shows, the default case looks
			// again after 1.5 s.
			ui := browserUI(t, ctx, p.HTTPEndpoint())
			if c.want {
				for deadline := time.Now().Add(10 * time.Second); len(ui) == 0 && time.Now().Before(deadline); {
					time.Sleep(50 * time.Millisecond)
					ui = browserUI(t, ctx, p.HTTPEndpoint())
				}
			} else if len(ui) == 0 {
				time.Sleep(1500 * time.Millisecond)
				ui = browserUI(t, ctx, p.HTTPEndpoint())
			}
			if c.want != (len(ui) > 0) {
				t.Errorf("browser_ui targets %q, want some: %v", ui, c.want)
			}
		})
	}
}

// browserUI lists the browser's browser_ui targets (their URLs) from its
// HTTP endpoint.
func browserUI(t *testing.T, ctx context.Context, endpoint string) []string {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, endpoint+"/json/list", nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	defer http.DefaultClient.CloseIdleConnections()
	var ts []struct {
		Type string `json:"type"`
		URL  string `json:"url"`
	}
	if err := json.NewDecoder(res.Body).Decode(&ts); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, x := range ts {
		if x.Type == "browser_ui" || strings.Contains(x.URL, "top-chrome") {
			out = append(out, x.URL)
		}
	}
	return out
}
