package runtimetest_test

import (
	"context"
	"errors"
	"io"
	"testing"

	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/runtimetest"
)

// TestNilArguments: nil arguments to the package's functions give typed
// errors, never a panic (the driver's own nil cases are in the
// conformance suite, NilArguments).
func TestNilArguments(t *testing.T) {
	var r io.Reader
	if _, err := runtimetest.LoadSite(r); !errors.Is(err, runtimetest.ErrInvalidFixture) || !errors.Is(err, runtime.ErrInvalidArgument) {
		t.Errorf("LoadSite(nil) = %v", err)
	}
	d := runtimetest.NewDriver(nil)
	defer d.Close()
	if err := d.Navigate(context.Background(), "http://127.0.0.1:1/"); !errors.Is(err, runtimetest.ErrInvalidFixture) {
		t.Errorf("NewDriver(nil).Navigate = %v", err)
	}
	var nilCtx context.Context
	if err := d.Navigate(nilCtx, "http://127.0.0.1:1/"); !errors.Is(err, runtime.ErrInvalidArgument) {
		t.Errorf("Navigate(nil ctx) = %v", err)
	}
}
