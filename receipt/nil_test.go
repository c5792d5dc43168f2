package receipt_test

import (
	"context"
	"errors"
	"testing"

	"github.com/vera-run/vera/internal/runwrite"
	"github.com/vera-run/vera/receipt"
)

// TestNilArguments: nil arguments give typed errors (or a documented zero
// value), never a panic.
func TestNilArguments(t *testing.T) {
	tests := []struct {
		name string
		call func() error
		want error
	}{
		{"OutputHash(nil)", func() error { _, err := receipt.OutputHash(nil); return err }, receipt.ErrInvalidArgument},
		{"WriteRun(nil run)", func() error { _, _, err := runwrite.WriteRun(t.TempDir(), nil); return err }, runwrite.ErrWrite},
		{"WriteReserved(nil run)", func() error { _, err := runwrite.WriteReserved(t.TempDir(), nil); return err }, runwrite.ErrWrite},
		{"Compare(nil, nil)", func() error { _, err := receipt.Compare(nil, nil); return err }, receipt.ErrCompare},
		{"Finalize(nil capability)", func() error { _, err := receipt.Finalize(context.Background(), nil, []string{"a", "b"}); return err }, receipt.ErrFinalize},
		{"CheckClaim(nil capability)", func() error { return receipt.CheckClaim(context.Background(), nil, nil) }, receipt.ErrClaim},
		{"VerifyRun(nil capability)", func() error { _, err := receipt.VerifyRun(context.Background(), t.TempDir(), nil); return err }, receipt.ErrVerify},
		{"nil WriteOption", func() error {
			_, err := runwrite.ReserveRunDir(t.TempDir(), nil)
			return err
		}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call()
			if tt.want == nil && err != nil || tt.want != nil && !errors.Is(err, tt.want) {
				t.Errorf("err = %v, want %v", err, tt.want)
			}
		})
	}
	if n := runwrite.OutputCount(nil); n != 0 {
		t.Errorf("OutputCount(nil) = %d", n)
	}
}
