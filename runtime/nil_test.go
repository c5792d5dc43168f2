package runtime_test

import (
	"context"
	"errors"
	"testing"

	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/runtimetest"
)

// TestNilArguments: nil arguments to Execute and Preflight give typed
// errors, never a panic, and never reach the driver; nil options are
// ignored or fall back to their documented defaults.
func TestNilArguments(t *testing.T) {
	var nilCtx context.Context
	c := loadCap(t, "teller.json")
	newDriver := func() *recordingDriver {
		inner := runtimetest.NewDriver(tellerSite())
		t.Cleanup(func() { _ = inner.Close() })
		return &recordingDriver{inner: inner}
	}
	t.Run("Execute refusals", func(t *testing.T) {
		tests := []struct {
			name string
			ctx  context.Context
			opts func(d runtime.Driver) []runtime.Option
			want error
		}{
			{"nil context", nilCtx, func(d runtime.Driver) []runtime.Option { return []runtime.Option{runtime.WithDriver(d)} }, runtime.ErrInvalidArgument},
			{"nil driver", t.Context(), func(runtime.Driver) []runtime.Option { return []runtime.Option{runtime.WithDriver(nil)} }, runtime.ErrNoDriver},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				d := newDriver()
				res, err := runtime.Execute(tt.ctx, c, tellerInputs, append(tt.opts(d), runtime.WithRunDir(t.TempDir()))...)
				if res != nil || !errors.Is(err, tt.want) {
					t.Fatalf("res %v err %v, want %v", res, err, tt.want)
				}
				if calls := d.Calls(); len(calls) != 0 {
					t.Errorf("driver calls %v", calls)
				}
			})
		}
		if _, err := runtime.Execute(t.Context(), nil, nil); !errors.Is(err, runtime.ErrInvalidCapability) {
			t.Errorf("nil capability: %v", err)
		}
	})
	t.Run("Execute nil options", func(t *testing.T) {
		d := newDriver()
		res, err := runtime.Execute(t.Context(), c, tellerInputs, nil, runtime.WithDriver(d), runtime.WithHooks(nil),
			runtime.WithLogger(nil), runtime.WithApprover(nil), runtime.WithHandoff(nil), runtime.WithRunDir(t.TempDir()))
		if err != nil || !res.Clean {
			t.Fatalf("res %v err %v", res, err)
		}
	})
	t.Run("Preflight", func(t *testing.T) {
		open := func(context.Context) (runtime.Driver, error) { return newDriver(), nil }
		if rep, err := runtime.Preflight(nilCtx, open); rep == nil || !errors.Is(err, runtime.ErrInvalidArgument) || !errors.Is(err, runtime.ErrPreflight) {
			t.Errorf("nil context: %v %v", rep, err)
		}
		if rep, err := runtime.Preflight(t.Context(), nil); rep == nil || !errors.Is(err, runtime.ErrNoDriver) {
			t.Errorf("nil open: %v %v", rep, err)
		}
		nilDriver := func(context.Context) (runtime.Driver, error) { return nil, nil }
		if rep, err := runtime.Preflight(t.Context(), nilDriver); rep == nil || !errors.Is(err, runtime.ErrNoDriver) {
			t.Errorf("open returning nil: %v %v", rep, err)
		}
	})
}
