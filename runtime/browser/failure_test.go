package browser

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/cdp"
	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/runtime"
)

// launchOwn launches a driver for one test (for tests that break it).
func launchOwn(t *testing.T) *Driver {
	t.Helper()
	requireBrowser(t)
	d, err := Launch(tctx(t, 30*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

func TestBrowserKilledMidWait(t *testing.T) {
	d := launchOwn(t)
	s := sites(t)
	ctx := tctx(t, 30*time.Second)
	if err := d.Navigate(ctx, s.Stress.URL()+"/stress/never-settles"); err != nil {
		t.Fatal(err)
	}
	top, _, _ := d.Frame(ctx, nil)
	btn := findOne(t, ctx, d, top, role("button", "Never ready"))
	errc := make(chan error, 1)
	go func() { errc <- d.Act(ctx, btn, runtime.Act{Kind: runtime.ActClick}) }()
	time.Sleep(300 * time.Millisecond)
	killed := time.Now()
	if err := syscall.Kill(d.proc.pid(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-errc:
		if !errors.Is(err, runtime.ErrBrowserCrashed) {
			t.Fatalf("Act = %v, want ErrBrowserCrashed", err)
		}
		t.Logf("Act returned %v after the kill", time.Since(killed))
	case <-time.After(3 * time.Second):
		t.Fatal("Act did not return after the browser was killed")
	}
	start := time.Now()
	for _, err := range []error{
		d.Navigate(ctx, s.Stress.URL()),
		func() error { _, err := d.URL(ctx); return err }(),
		func() error { _, err := d.Find(ctx, top, nil, role("button", "x")); return err }(),
		func() error { _, _, err := d.Frame(ctx, nil); return err }(),
		func() error { _, err := d.ArmDownload(ctx); return err }(),
	} {
		if !errors.Is(err, runtime.ErrBrowserCrashed) {
			t.Errorf("after crash: %v, want ErrBrowserCrashed", err)
		}
	}
	if el := time.Since(start); el > time.Second {
		t.Errorf("calls after the crash took %v", el)
	}
	if err := d.Close(); err != nil {
		t.Errorf("Close after crash: %v", err)
	}
	if _, err := os.Stat(d.proc.root); !os.IsNotExist(err) {
		t.Errorf("profile not deleted: %v", err)
	}
}

func TestCancelMidClickNeverReady(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	ctx := tctx(t, 30*time.Second)
	if err := d.Navigate(ctx, s.Stress.URL()+"/stress/never-settles"); err != nil {
		t.Fatalf("Navigate on a never-settling page: %v", err)
	}
	top, _, _ := d.Frame(ctx, nil)
	btn := findOne(t, ctx, d, top, role("button", "Never ready"))

	// Cancellation mid-wait.
	cctx, cancel := context.WithCancel(ctx)
	errc := make(chan error, 1)
	go func() { errc <- d.Act(cctx, btn, runtime.Act{Kind: runtime.ActClick}) }()
	time.Sleep(200 * time.Millisecond)
	cancel()
	start := time.Now()
	select {
	case err := <-errc:
		if !errors.Is(err, runtime.ErrNotInteractable) || !errors.Is(err, context.Canceled) {
			t.Fatalf("Act = %v, want ErrNotInteractable and context.Canceled", err)
		}
		if el := time.Since(start); el > time.Second {
			t.Fatalf("Act returned %v after cancel", el)
		}
	case <-time.After(time.Second):
		t.Fatal("Act did not return within 1s of cancel")
	}

	// A deadline ends the wait.
	dctx, dcancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer dcancel()
	start = time.Now()
	err := d.Act(dctx, btn, runtime.Act{Kind: runtime.ActClick})
	if !errors.Is(err, runtime.ErrNotInteractable) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Act = %v", err)
	}
	if el := time.Since(start); el > 1300*time.Millisecond {
		t.Fatalf("deadline wait took %v", el)
	}
	// The driver is still usable.
	if _, err := d.URL(ctx); err != nil {
		t.Fatal(err)
	}
}

func TestNavigateFailures(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	ctx := tctx(t, 30*time.Second)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + ln.Addr().String()
	ln.Close()
	if err := d.Navigate(ctx, dead+"/"); !errors.Is(err, runtime.ErrTargetUnreachable) {
		t.Errorf("closed port: %v", err)
	}
	if err := d.Navigate(ctx, s.Teller.URL()+"/no-such-page"); !errors.Is(err, runtime.ErrTargetUnreachable) {
		t.Errorf("404: %v", err)
	}
	sctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	if err := d.Navigate(sctx, s.Stress.URL()+"/stress/slow/5000"); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("slow page: %v", err)
	}
	if el := time.Since(start); el > 1300*time.Millisecond {
		t.Errorf("slow navigation returned after %v", el)
	}
	if err := d.Navigate(ctx, "about:blank"); err != nil {
		t.Fatal(err)
	}
	// Scope checks before any request.
	if err := d.RestrictOrigins(ctx, runtime.OriginScope{Allowed: []string{"ftp://x"}}); !errors.Is(err, ErrInvalidOrigin) {
		t.Errorf("bad scope: %v", err)
	}
	if err := d.RestrictOrigins(ctx, runtime.OriginScope{Allowed: []string{s.Teller.Origin()}}); err != nil {
		t.Fatal(err)
	}
	if err := d.Navigate(ctx, "file:///etc/passwd"); !errors.Is(err, runtime.ErrOriginBlocked) {
		t.Errorf("file URL: %v", err)
	}
	// Hash navigation on an allowed page returns at once.
	if err := d.Navigate(ctx, s.Teller.URL()+"/login"); err != nil {
		t.Fatal(err)
	}
	if err := d.Navigate(ctx, s.Teller.URL()+"/login#x"); err != nil {
		t.Fatal(err)
	}
	if u, _ := d.URL(ctx); u != s.Teller.URL()+"/login#x" {
		t.Errorf("URL = %q", u)
	}
}

// TestNativeDialog: a click that opens window.confirm. The test waits for
// the browser's own Page.javascriptDialogOpening event (bounded by ctx),
// not for a guessed delay: once the driver has seen it, the act in flight
// and every later call must fail with ErrNativeDialog, and the dialog
// must stay unanswered.
func TestNativeDialog(t *testing.T) {
	d := launchOwn(t)
	s := sites(t)
	ctx := tctx(t, 30*time.Second)
	s.Invoicing.ShowNativeDialog(true)
	if err := d.Navigate(ctx, s.Invoicing.URL()+"/billing"); err != nil {
		t.Fatal(err)
	}
	sc, _, err := d.Frame(ctx, ledgerPath)
	if err != nil {
		t.Fatal(err)
	}
	issue := findOne(t, ctx, d, sc, role("button", "Issue invoice"))
	opened := make(chan struct{})
	var once sync.Once
	remove := d.addWaiter(func(ev *cdp.Event) {
		if ev.Method == "Page.javascriptDialogOpening" {
			once.Do(func() { close(opened) })
		}
	})
	defer remove()
	actErr := d.Act(ctx, issue, runtime.Act{Kind: runtime.ActClick})
	select {
	case <-opened:
	case <-ctx.Done():
		t.Fatalf("no dialog opened after the click (Act: %v)", actErr)
	}
	if actErr != nil && !errors.Is(actErr, runtime.ErrNativeDialog) {
		t.Errorf("Act: %v, want nil or ErrNativeDialog", actErr)
	}
	if _, err := d.Find(ctx, sc, nil, role("button", "Issue invoice")); !errors.Is(err, runtime.ErrNativeDialog) {
		t.Errorf("Find after confirm(): %v, want ErrNativeDialog", err)
	}
	if _, err := d.URL(ctx); !errors.Is(err, runtime.ErrNativeDialog) {
		t.Errorf("URL with a dialog open: %v", err)
	}
	if err := d.Navigate(ctx, "about:blank"); !errors.Is(err, runtime.ErrNativeDialog) {
		t.Errorf("Navigate with a dialog open: %v", err)
	}
	if n := s.Invoicing.IssuedCount(); n != 0 {
		t.Errorf("dialog was accepted: %d invoices issued", n)
	}
}

func TestClosed(t *testing.T) {
	d := launchOwn(t)
	ctx := tctx(t, 10*time.Second)
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if err := d.Navigate(ctx, "about:blank"); !errors.Is(err, runtime.ErrClosed) {
		t.Errorf("Navigate after Close: %v", err)
	}
	if _, err := d.Find(ctx, nil, nil, locator.Candidate{Strategy: locator.CSS, CSS: "a"}); !errors.Is(err, runtime.ErrClosed) {
		t.Errorf("Find after Close: %v", err)
	}
	if n := countByPathMarker(d.proc.root); n != 0 {
		t.Errorf("%d processes left after Close", n)
	}
	if _, err := os.Stat(d.proc.root); !os.IsNotExist(err) {
		t.Errorf("profile left after Close: %v", err)
	}
}

func TestLaunchNoBrowser(t *testing.T) {
	ctx := tctx(t, 5*time.Second)
	_, err := Launch(ctx, WithBrowserPath("/nonexistent/chromium"))
	if !errors.Is(err, runtime.ErrBrowserUnavailable) {
		t.Fatalf("Launch = %v", err)
	}
	t.Setenv(EnvBrowser, "/nonexistent/chrome")
	_, err = Launch(ctx)
	if !errors.Is(err, runtime.ErrBrowserUnavailable) || !strings.Contains(err.Error(), "apt-get install chromium") {
		t.Fatalf("Launch via env = %v", err)
	}
	// A file that is not a browser starts and exits: launch failed.
	_, err = Launch(ctx, WithBrowserPath("/bin/false"))
	if !errors.Is(err, runtime.ErrBrowserLaunchFailed) {
		t.Fatalf("Launch(/bin/false) = %v", err)
	}
}

// TestLaunchLongTMPDIR launches with a TMPDIR too long for Chromium's
// singleton socket: the launcher must use a short folder instead and
// delete it on Close. (The one launcher, internal/chromeproc, moves the
// whole temporary root to /tmp; the old Launch moved only TMPDIR.)
func TestLaunchLongTMPDIR(t *testing.T) {
	requireBrowser(t)
	long := testTmp + "/" + strings.Repeat("x", 60)
	if err := os.MkdirAll(long, 0o700); err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(long)
	t.Setenv("TMPDIR", long)
	d, err := Launch(tctx(t, 30*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	extra := d.proc.root
	if strings.HasPrefix(extra, long) || len(extra) > 60 {
		t.Errorf("temporary root %q is not a short folder", extra)
	}
	if err := d.Navigate(tctx(t, 10*time.Second), "about:blank"); err != nil {
		t.Fatal(err)
	}
	d.Close()
	if _, err := os.Stat(extra); extra != "" && !os.IsNotExist(err) {
		t.Errorf("short TMPDIR left behind: %v", err)
	}
}

// TestNavigateStatus checks the main document's status as Navigate reads
// it from the browser's response event (the final response, after
// redirects), without asking the page: a 200 loads, a 404 or 500 (error
// page and all) fails with ErrTargetUnreachable naming the status, a
// redirect to either decides by where it lands, and a load answers
// without a Runtime.evaluate (the page's main thread is busy with its
// first render then; the status is known already).
func TestNavigateStatus(t *testing.T) {
	t.Parallel()
	d := shared(t)
	ctx := tctx(t, 30*time.Second)
	mux := http.NewServeMux()
	page := func(code int) http.HandlerFunc {
		return func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.WriteHeader(code)
			fmt.Fprintf(w, "<!doctype html><title>%d</title><h1>Status %d</h1>", code, code)
		}
	}
	mux.HandleFunc("GET /ok", page(200))
	mux.HandleFunc("GET /missing", page(404))
	mux.HandleFunc("GET /boom", page(500))
	mux.HandleFunc("GET /to-ok", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/ok", http.StatusFound) })
	mux.HandleFunc("GET /to-missing", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/missing", http.StatusMovedPermanently)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	for _, c := range []struct {
		path string
		want int // 0: loads
	}{
		{"/ok", 0}, {"/missing", 404}, {"/boom", 500}, {"/to-ok", 0}, {"/to-missing", 404}, {"/ok?again", 0},
	} {
		var evals atomic.Int32
		d.setCallTrace(func(m string, _ time.Time) {
			if m == "Runtime.evaluate" {
				evals.Add(1)
			}
		})
		err := d.Navigate(ctx, srv.URL+c.path)
		d.setCallTrace(nil)
		switch {
		case c.want == 0 && err != nil:
			t.Errorf("%s: %v", c.path, err)
		case c.want != 0 && (!errors.Is(err, runtime.ErrTargetUnreachable) || !strings.Contains(fmt.Sprint(err), fmt.Sprintf("HTTP %d", c.want))):
			t.Errorf("%s: %v, want ErrTargetUnreachable with HTTP %d", c.path, err, c.want)
		}
		if n := evals.Load(); n != 0 {
			t.Errorf("%s: Navigate asked the page %d times for what the response event said", c.path, n)
		}
	}
	// about:blank has no response: the page is asked, and it loads.
	if err := d.Navigate(ctx, "about:blank"); err != nil {
		t.Fatal(err)
	}
}
