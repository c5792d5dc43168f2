package runtime_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/runtimetest"
)

func TestPreflight(t *testing.T) {
	var d *runtimetest.Driver
	rep, err := runtime.Preflight(context.Background(), func(context.Context) (runtime.Driver, error) {
		d = runtimetest.NewDriver(exampleSite())
		return d, nil
	})
	if err != nil || rep.Mode != runtime.ModeSimulated || rep.Browser != runtimetest.FakeBrowser || rep.Limits != runtime.DefaultLimits() ||
		rep.CheckedAt.IsZero() || rep.Library != "vera/"+runtime.Version {
		t.Fatalf("%+v %v", rep, err)
	}
	if _, err := d.URL(context.Background()); !errors.Is(err, runtime.ErrClosed) {
		t.Errorf("driver not closed: %v", err)
	}
	rep, err = runtime.Preflight(context.Background(), func(context.Context) (runtime.Driver, error) {
		return nil, fmt.Errorf("no chromium: %w", runtime.ErrBrowserUnavailable)
	})
	if !errors.Is(err, runtime.ErrPreflight) || !errors.Is(err, runtime.ErrBrowserUnavailable) || rep.Failure == nil ||
		rep.Failure.Category != receipt.CategoryBrowserUnavailable || rep.Library == "" {
		t.Fatalf("%+v %v", rep, err)
	}
	if _, err := runtime.Preflight(context.Background(), nil); !errors.Is(err, runtime.ErrNoDriver) {
		t.Errorf("nil factory: %v", err)
	}
}
