package receipt_test

import (
	"context"
	"testing"

	"github.com/vera-run/vera/internal/runwrite"
	"github.com/vera-run/vera/receipt"
)

func BenchmarkLoadReceipt(b *testing.B) {
	dir := writeRun(b, cleanRun(b, testCapability(), nil))
	raw := readFile(b, dir, receipt.FileReceipt)
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := receipt.LoadReceipt(raw); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkVerifyRun(b *testing.B) {
	c := testCapability()
	dir := writeRun(b, cleanRun(b, c, nil))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := receipt.VerifyRun(context.Background(), dir, c); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCompare(b *testing.B) {
	c := testCapability()
	x := cleanRun(b, c, nil).Receipt
	y := cleanRun(b, c, func(r *runwrite.Run) { r.Outputs.Outputs[2].Value = "changed" }).Receipt
	rule := receipt.WithRule(receipt.Rule{Kind: receipt.ArtifactEnvironment, Find: "Chrome/", Replace: "Browser/"})
	b.ReportAllocs()
	for b.Loop() {
		if _, err := receipt.Compare(x, y, rule); err != nil {
			b.Fatal(err)
		}
	}
}
