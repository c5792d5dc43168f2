package browser

import (
	"context"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vera-run/vera/runtime"
)

// TestStartLocalConnectRunClose: the public starter gives an endpoint
// Connect attaches to, a page runs in it, closing the Driver leaves the
// browser running, and Close ends every process and deletes the profile.
func TestStartLocalConnectRunClose(t *testing.T) {
	bin := requireBrowser(t)
	lb, err := StartLocal(tctx(t, 30*time.Second), WithBrowserPath(bin))
	if err != nil {
		t.Fatal(err)
	}
	profile := lb.ProfileDir()
	if !strings.HasPrefix(lb.Endpoint(), "ws://127.0.0.1:") || !strings.HasPrefix(lb.HTTPEndpoint(), "http://127.0.0.1:") {
		t.Fatalf("endpoints %q %q", lb.Endpoint(), lb.HTTPEndpoint())
	}
	if st, err := os.Stat(profile); err != nil || !st.IsDir() {
		t.Fatalf("profile %q: %v", profile, err)
	}
	if n := countByPathMarker(profile); n == 0 {
		t.Fatalf("no process names the profile %q", profile)
	}
	s := sites(t)
	ctx := tctx(t, 30*time.Second)
	for _, ep := range []string{lb.Endpoint(), lb.HTTPEndpoint()} {
		d, err := Connect(ctx, ep)
		if err != nil {
			t.Fatalf("Connect(%s): %v", ep, err)
		}
		if d.Info().Mode != runtime.ModeLiveConnected {
			t.Errorf("mode %s", d.Info().Mode)
		}
		if err := d.RestrictOrigins(ctx, runtime.OriginScope{Allowed: []string{s.Teller.Origin()}}); err != nil {
			t.Fatal(err)
		}
		if err := d.Navigate(ctx, s.Teller.Origin()+"/login"); err != nil {
			t.Fatal(err)
		}
		if els, err := d.Find(ctx, nil, nil, roleC("heading", "Teller console", true)); err != nil || len(els) != 1 {
			t.Fatalf("heading: %d %v", len(els), err)
		}
		if err := d.Close(); err != nil {
			t.Fatal(err)
		}
		select {
		case <-lb.Done():
			t.Fatal("closing the connected Driver ended the local browser")
		default:
		}
	}
	if err := lb.Close(); err != nil {
		t.Fatal(err)
	}
	if n := countByPathMarker(profile); n != 0 {
		t.Errorf("%d processes still name the profile after Close", n)
	}
	if _, err := os.Stat(profile); !os.IsNotExist(err) {
		t.Errorf("profile left behind: %v", err)
	}
	select {
	case <-lb.Done():
	default:
		t.Error("Done not closed after Close")
	}
	if err := lb.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func TestStartLocalFlags(t *testing.T) {
	bin := requireBrowser(t)
	lb, err := StartLocal(tctx(t, 30*time.Second), WithBrowserPath(bin), WithExtraFlags("--lang=it"))
	if err != nil {
		t.Fatal(err)
	}
	defer lb.Close()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(lb.Pid()) + "/cmdline")
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	cmd := strings.Split(string(b), "\x00")
	for _, want := range append(DefaultFlags(), "--lang=it", "--remote-debugging-port=0") {
		if !contains(cmd, want) {
			t.Errorf("command line lacks %s", want)
		}
	}
}

func TestStartLocalErrors(t *testing.T) {
	_, err := StartLocal(context.Background(), WithBrowserPath("/nonexistent/chromium"))
	if !errors.Is(err, runtime.ErrBrowserUnavailable) || !strings.Contains(err.Error(), InstallHint) {
		t.Errorf("missing browser: %v", err)
	}
	//nolint:staticcheck // a nil ctx is the misuse under test
	if _, err := StartLocal(nil); !errors.Is(err, runtime.ErrInvalidArgument) {
		t.Errorf("nil ctx: %v", err)
	}
	bin := requireBrowser(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := StartLocal(ctx, WithBrowserPath(bin)); !errors.Is(err, runtime.ErrBrowserLaunchFailed) || !errors.Is(err, context.Canceled) {
		t.Errorf("canceled start: %v", err)
	}
	var nilLB *LocalBrowser
	if err := nilLB.Close(); !errors.Is(err, runtime.ErrInvalidArgument) {
		t.Errorf("nil Close: %v", err)
	}
}

// TestLaunchUsesDefaultFlags: Launch and StartLocal share one flag list.
func TestLaunchUsesDefaultFlags(t *testing.T) {
	requireBrowser(t)
	d, err := Launch(tctx(t, 30*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(d.proc.pid()) + "/cmdline")
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	cmd := strings.Split(string(b), "\x00")
	for _, want := range DefaultFlags() {
		if !contains(cmd, want) {
			t.Errorf("Launch command line lacks %s", want)
		}
	}
	if !contains(DefaultFlags(), "--remote-debugging-address=127.0.0.1") {
		t.Error("DefaultFlags lacks --remote-debugging-address=127.0.0.1")
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
