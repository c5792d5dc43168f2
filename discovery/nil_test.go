package discovery

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/vera-run/vera/capability"
)

// TestNilArguments: nil contexts and nil documents give typed errors,
// never a panic.
func TestNilArguments(t *testing.T) {
	var nilCtx context.Context
	page := &fakePage{script: snaps(ledgerPage(1))}
	ev, rec, draft := reviewedLedger(t)
	dir, _, _, _ := sealed(t)
	tests := []struct {
		name string
		call func() error
		want error
	}{
		{"Observe(nil ctx)", func() error { _, err := Observe(nilCtx, page); return err }, ErrInvalidArgument},
		{"Observe(nil page)", func() error { _, err := Observe(context.Background(), nil); return err }, ErrInvalidOption},
		{"SealPack(nil ctx)", func() error {
			_, err := SealPack(nilCtx, filepath.Join(t.TempDir(), "p"), ev, rec, draft)
			return err
		}, ErrInvalidArgument},
		{"SealPack(nil documents)", func() error {
			_, err := SealPack(context.Background(), filepath.Join(t.TempDir(), "p"), nil, nil, nil)
			return err
		}, ErrPack},
		{"VerifyPack(nil ctx)", func() error { _, err := VerifyPack(nilCtx, dir); return err }, ErrInvalidArgument},
		{"ApproveTransfer(nil ctx)", func() error {
			_, err := ApproveTransfer(nilCtx, dir, "reviewer", time.Now())
			return err
		}, ErrInvalidArgument},
		{"NewRecord(nil evidence)", func() error { _, err := NewRecord(nil, ledgerSpec()); return err }, ErrInvalid},
		{"DraftFromRecord(nil)", func() error { _, err := DraftFromRecord(nil); return err }, ErrInvalid},
		{"ValidateDraft(nil)", func() error { return ValidateDraft(nil) }, capability.ErrInvalid},
		{"Promote(nil draft)", func() error { _, err := Promote(nil, rec, capability.Review{}); return err }, ErrPromotion},
		{"Promote(nil record)", func() error { _, err := Promote(draft, nil, capability.Review{}); return err }, ErrPromotion},
		{"CheckEvidence(nil)", func() error { return rec.CheckEvidence(nil) }, ErrInvalid},
		{"CheckStep(nil snapshot)", func() error { return CheckStep(nil, Step{}, Policy{}) }, ErrRefused},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.call(); !errors.Is(err, tt.want) {
				t.Errorf("err = %v, want %v", err, tt.want)
			}
		})
	}
	var counts *RedactionCounts
	_ = RedactText("card 4111 1111 1111 1111", 100, counts) // a nil counter is allowed
}
