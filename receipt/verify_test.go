package receipt_test

import (
	"testing"

	"github.com/vera-run/vera/receipt"
)

func TestVerifyRunClean(t *testing.T) {
	c := testCapability()
	dir := writeRun(t, cleanRun(t, c, nil))
	rep, err := receipt.VerifyRun(dir, c)
	if err != nil {
		t.Fatalf("VerifyRun: %v", err)
	}
	if !rep.Complete || len(rep.Problems) != 0 || rep.ReceiptHash == "" || rep.RunID == "" {
		t.Fatalf("report = %+v", rep)
	}
}

func TestTestCapabilityValid(t *testing.T) {
	if err := testCapability().Validate().Err(); err != nil {
		t.Fatal(err)
	}
}
