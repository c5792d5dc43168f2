package bundle_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/vera-run/vera/bundle"
	"github.com/vera-run/vera/capability"
)

// TestSealProjectCapabilities seals the project's sample capabilities
// (promoted to discovered with a review) and verifies them: the content
// rules must not reject real capabilities.
func TestSealProjectCapabilities(t *testing.T) {
	paths, err := filepath.Glob("../capability/testdata/valid/*.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Skip("no sample capabilities")
	}
	for _, p := range paths {
		t.Run(filepath.Base(p), func(t *testing.T) {
			raw, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			c, err := capability.ParseBytes(raw)
			if err != nil {
				t.Skipf("sample does not parse (capability package in flux?): %v", err)
			}
			c.State = capability.StateDiscovered
			c.Validation = nil
			c.Provenance = &capability.Provenance{
				DiscoveryHash: discoveryHash, DiscoveryModel: "test-model", DiscoveryRunID: "discovery-1",
				Review: &capability.Review{Reviewer: "operator", ReviewedAt: "2026-01-02T03:04:05Z",
					RecordHash: discoveryHash, AuthoringApproved: true},
			}
			if errs := c.Validate(); len(errs) > 0 {
				t.Skipf("sample invalid as discovered: %v", errs)
			}
			dst := filepath.Join(t.TempDir(), "bundle")
			if _, err := bundle.Seal(context.Background(), dst, c, nil); err != nil {
				t.Fatalf("Seal: %v", err)
			}
			if _, err := bundle.Verify(context.Background(), dst); err != nil {
				t.Fatalf("Verify: %v", err)
			}
		})
	}
}
