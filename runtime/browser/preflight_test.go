package browser

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/vera-run/vera/runtime"
)

// checkReport checks what every successful preflight report holds.
func checkReport(t *testing.T, rep *runtime.PreflightReport, mode runtime.ExecutionMode, route runtime.DownloadRoute, before time.Time) {
	t.Helper()
	if rep.Failure != nil {
		t.Fatalf("failure = %+v", rep.Failure)
	}
	if rep.Mode != mode || rep.DownloadRoute != route {
		t.Errorf("mode %s, route %s; want %s, %s", rep.Mode, rep.DownloadRoute, mode, route)
	}
	if !strings.HasPrefix(rep.Browser, "Chrome/") || rep.ProtocolVersion == "" || rep.UserAgent == "" {
		t.Errorf("browser %q, protocol %q, user agent %q", rep.Browser, rep.ProtocolVersion, rep.UserAgent)
	}
	if rep.CheckedAt.Before(before) || rep.CheckedAt.After(time.Now()) || rep.Duration <= 0 {
		t.Errorf("checked at %v (test started %v), duration %v", rep.CheckedAt, before, rep.Duration)
	}
	if !reflect.DeepEqual(rep.Limits, runtime.DefaultLimits()) {
		t.Errorf("limits = %+v", rep.Limits)
	}
	if rep.Library == "" || rep.GoVersion == "" || rep.OS == "" || rep.Arch == "" {
		t.Errorf("environment = %+v", rep)
	}
}

// TestPreflightLaunch: the factory launches a browser; Preflight reports
// it and closes it, leaving no process and no profile behind.
func TestPreflightLaunch(t *testing.T) {
	requireBrowser(t)
	var launched *Driver
	before := time.Now()
	rep, err := runtime.Preflight(tctx(t, 60*time.Second), func(ctx context.Context) (runtime.Driver, error) {
		d, err := Launch(ctx)
		launched = d
		return d, err
	})
	if err != nil {
		t.Fatal(err)
	}
	checkReport(t, rep, runtime.ModeLiveLaunched, runtime.DownloadBrowserPath, before)
	root := launched.proc.root
	if n := countMarked(root, 3*time.Second); n != 0 {
		t.Errorf("%d browser processes left after Preflight", n)
	}
	if launched.proc.alive() {
		t.Error("the launched browser still runs")
	}
	if _, err := launched.URL(context.Background()); !errors.Is(err, runtime.ErrClosed) {
		t.Errorf("driver after Preflight: %v, want ErrClosed", err)
	}
}

// TestPreflightConnect: the factory connects to an external browser;
// Preflight reports it and disconnects, leaving the browser running.
func TestPreflightConnect(t *testing.T) {
	ext := startExternal(t)
	before := time.Now()
	rep, err := runtime.Preflight(tctx(t, 30*time.Second), func(ctx context.Context) (runtime.Driver, error) {
		return Connect(ctx, ext.endpoint)
	})
	if err != nil {
		t.Fatal(err)
	}
	checkReport(t, rep, runtime.ModeLiveConnected, runtime.DownloadDirectory, before)
	if !ext.alive(t) {
		t.Fatal("Preflight closed the external browser")
	}
}

// TestPreflightNoBrowser: a missing executable is reported as
// browser_unavailable, with the error wrapping both sentinels.
func TestPreflightNoBrowser(t *testing.T) {
	rep, err := runtime.Preflight(tctx(t, 10*time.Second), func(ctx context.Context) (runtime.Driver, error) {
		return Launch(ctx, WithBrowserPath("/nonexistent/chromium"))
	})
	if !errors.Is(err, runtime.ErrPreflight) || !errors.Is(err, runtime.ErrBrowserUnavailable) {
		t.Fatalf("err = %v", err)
	}
	if rep == nil || rep.Failure == nil || rep.Failure.Reason != "browser_unavailable" || rep.Mode != "" {
		t.Fatalf("report = %+v", rep)
	}
	if !strings.Contains(err.Error(), InstallHint) {
		t.Errorf("the error does not say what to install: %v", err)
	}
}
