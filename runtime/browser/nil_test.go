package browser

import (
	"context"
	"errors"
	"testing"

	"github.com/vera-run/vera/runtime"
)

// TestNilArguments: Launch and Connect refuse a nil context with
// runtime.ErrInvalidArgument before starting or dialing anything (the
// driver calls are covered by the conformance suite, NilArguments).
func TestNilArguments(t *testing.T) {
	var nilCtx context.Context
	if d, err := Launch(nilCtx, WithLogger(nil)); d != nil || !errors.Is(err, runtime.ErrInvalidArgument) {
		t.Errorf("Launch(nil ctx) = %v, %v", d, err)
	}
	if d, err := Connect(nilCtx, "http://127.0.0.1:9222"); d != nil || !errors.Is(err, runtime.ErrInvalidArgument) {
		t.Errorf("Connect(nil ctx) = %v, %v", d, err)
	}
}
