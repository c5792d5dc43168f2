package receipt_test

import (
	"context"
	"testing"

	"github.com/vera-run/vera/download"
	"github.com/vera-run/vera/internal/canonjson"
	"github.com/vera-run/vera/receipt"
)

func TestVerifyRunClean(t *testing.T) {
	c := testCapability()
	dir := writeRun(t, cleanRun(t, c, nil))
	rep, err := receipt.VerifyRun(context.Background(), dir, c)
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

// TestOutputHashAgreesWithSetHash: a download set's output hash is
// download.SetHash of its files, with the same bounds: byte lengths in
// [0, 2^53-1] and well-formed digests.
func TestOutputHashAgreesWithSetHash(t *testing.T) {
	digest := canonjson.SumBytes([]byte("statement"))
	for _, tt := range []struct {
		bytes  int64
		sha256 string
		ok     bool
	}{
		{0, digest, true},
		{9, digest, true},
		{download.MaxSafeBytes, digest, true},
		{download.MaxSafeBytes + 1, digest, false},
		{-1, digest, false},
		{9, "sha256:00", false},
	} {
		o := &receipt.OutputValue{Name: "statements", Kind: "download_set", Exposure: "artifact_only", Produced: true,
			Files: []receipt.DownloadFile{{Path: "/tmp/x", Bytes: tt.bytes, SHA256: tt.sha256}}}
		got, err := receipt.OutputHash(o)
		want, werr := download.SetHash([]download.File{{Size: tt.bytes, SHA256: tt.sha256, Path: "/elsewhere"}})
		if (err == nil) != tt.ok || (werr == nil) != tt.ok || got != want {
			t.Errorf("bytes %d sha256 %q: OutputHash = %q, %v; SetHash = %q, %v", tt.bytes, tt.sha256, got, err, want, werr)
		}
	}
	empty, err := receipt.OutputHash(&receipt.OutputValue{Kind: "download_set"})
	if want, _ := download.SetHash(nil); err != nil || empty != want {
		t.Errorf("empty set: %q, %v, want %q", empty, err, want)
	}
}
