package receipt_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/canonjson"
	"github.com/vera-run/vera/receipt"
)

var fixedClock = receipt.WithClock(func() time.Time { return time.Date(2026, 3, 2, 9, 0, 0, 0, time.FixedZone("CET", 3600)) })

// finalized returns a validated capability and its two receipts by digest.
func finalized(t *testing.T) (*capability.Capability, map[string][]byte) {
	t.Helper()
	c := testCapability()
	a := writeRun(t, cleanRun(t, c, nil))
	b := writeRun(t, cleanRun(t, c, nil))
	v, err := receipt.Finalize(context.Background(), c, []string{a, b}, fixedClock)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string][]byte{}
	for _, d := range []string{a, b} {
		raw := readFile(t, d, receipt.FileReceipt)
		m[canonjson.SumBytes(raw)] = raw
	}
	return v, m
}

func TestCheckClaimAccepts(t *testing.T) {
	c, m := finalized(t)
	if err := receipt.CheckClaim(context.Background(), c, m); err != nil {
		t.Fatalf("CheckClaim: %v", err)
	}
}

func TestCheckClaimRejects(t *testing.T) {
	tests := []struct {
		name  string
		edit  func(c *capability.Capability, m map[string][]byte)
		check receipt.Check
	}{
		{"not validated", func(c *capability.Capability, m map[string][]byte) { c.State = capability.StateDiscovered }, receipt.CheckState},
		{"no validation", func(c *capability.Capability, m map[string][]byte) { c.Validation = nil }, receipt.CheckClaimed},
		{"one receipt named", func(c *capability.Capability, m map[string][]byte) {
			delete(m, c.Validation.Receipts[1])
			c.Validation.Receipts = c.Validation.Receipts[:1]
		}, receipt.CheckRuns},
		{"receipt missing", func(c *capability.Capability, m map[string][]byte) { delete(m, c.Validation.Receipts[0]) }, receipt.CheckClaimed},
		{"extra receipt", func(c *capability.Capability, m map[string][]byte) { m[fileA] = []byte("{}") }, receipt.CheckClaimed},
		{"same receipt twice", func(c *capability.Capability, m map[string][]byte) {
			c.Validation.Receipts[1] = c.Validation.Receipts[0]
		}, receipt.CheckUnique},
		{"unsorted", func(c *capability.Capability, m map[string][]byte) {
			c.Validation.Receipts[0], c.Validation.Receipts[1] = c.Validation.Receipts[1], c.Validation.Receipts[0]
		}, receipt.CheckClaimed},
		{"claim text changed", func(c *capability.Capability, m map[string][]byte) { c.Validation.Claim = "attested" }, receipt.CheckClaimed},
		{"simulated claimed", func(c *capability.Capability, m map[string][]byte) { c.Validation.ExecutionMode = "simulated" }, receipt.CheckMode},
		{"bytes swapped", func(c *capability.Capability, m map[string][]byte) {
			a, b := c.Validation.Receipts[0], c.Validation.Receipts[1]
			m[a], m[b] = m[b], m[a]
		}, receipt.CheckReceiptHash},
		{"capability changed", func(c *capability.Capability, m map[string][]byte) { c.Runtime.Start = "/other" }, receipt.CheckExecutionHash},
		{"version changed", func(c *capability.Capability, m map[string][]byte) { c.Version = "1.3.0" }, receipt.CheckVersion},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, m := finalized(t)
			tt.edit(c, m)
			err := receipt.CheckClaim(context.Background(), c, m)
			if !errors.Is(err, receipt.ErrClaim) {
				t.Fatalf("err = %v, want ErrClaim", err)
			}
			var ce *receipt.ClaimError
			if !errors.As(err, &ce) || !ce.Problems.Has("", tt.check) {
				t.Fatalf("want check %s, got %v", tt.check, err)
			}
		})
	}
}
