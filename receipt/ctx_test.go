package receipt_test

import (
	"context"
	"errors"
	"testing"

	"github.com/vera-run/vera/receipt"
)

// TestContext: the calls that read files or verify receipts take ctx
// first. A nil ctx is a typed invalid-argument error; a done ctx stops
// the call with ctx's error, which is not a verification failure.
func TestContext(t *testing.T) {
	c, claimed := finalized(t)
	orig := testCapability()
	dir := writeRun(t, cleanRun(t, orig, nil))
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	var nilCtx context.Context

	calls := []struct {
		name string
		call func(ctx context.Context) error
		// also is the sentinel the done-context error wraps besides
		// context.Canceled (nil: none).
		also error
	}{
		{"Load", func(ctx context.Context) error { _, err := receipt.Load(ctx, dir); return err }, nil},
		{"VerifyRun", func(ctx context.Context) error { _, err := receipt.VerifyRun(ctx, dir, orig); return err }, nil},
		{"Finalize", func(ctx context.Context) error {
			_, err := receipt.Finalize(ctx, orig, []string{dir, writeRun(t, cleanRun(t, orig, nil))})
			return err
		}, receipt.ErrFinalize},
		{"CheckClaim", func(ctx context.Context) error { return receipt.CheckClaim(ctx, c, claimed) }, receipt.ErrClaim},
	}
	for _, tc := range calls {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.call(context.Background()); err != nil {
				t.Fatalf("live context: %v", err)
			}
			if err := tc.call(nilCtx); !errors.Is(err, receipt.ErrInvalidArgument) {
				t.Errorf("nil context: err = %v, want ErrInvalidArgument", err)
			}
			err := tc.call(canceled)
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("canceled context: err = %v, want context.Canceled", err)
			}
			if errors.Is(err, receipt.ErrVerify) {
				t.Errorf("canceled context: %v matches ErrVerify; cancellation is not a verification failure", err)
			}
			if tc.also != nil && !errors.Is(err, tc.also) {
				t.Errorf("canceled context: err = %v, want it to match %v", err, tc.also)
			}
		})
	}
}
