package bundle_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/vera-run/vera/bundle"
	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/runwrite"
	"github.com/vera-run/vera/receipt"
)

// handAuthored is testCapability written by hand: state authored and a
// hand_authored provenance without any discovery member.
func handAuthored() *capability.Capability {
	c := testCapability()
	c.State = capability.StateAuthored
	c.Provenance = &capability.Provenance{Kind: capability.ProvenanceHandAuthored, Author: "maintainer",
		Reason: "written against the synthetic teller; no discovery session",
		Review: &capability.Review{Reviewer: "operator", ReviewedAt: "2026-01-02T03:04:05Z", AuthoringApproved: true}}
	return c
}

// TestHandAuthoredBundles seals an authored capability and its
// validated_local promotion, verifies both, and rejects every forged
// state/provenance combination written into a sealed bundle.
func TestHandAuthoredBundles(t *testing.T) {
	ctx := context.Background()
	c := handAuthored()
	authored := filepath.Join(t.TempDir(), "bundle")
	if _, err := bundle.Seal(ctx, authored, c, nil); err != nil {
		t.Fatalf("Seal authored: %v", err)
	}
	if _, err := bundle.Verify(ctx, authored); err != nil {
		t.Fatalf("Verify authored: %v", err)
	}

	runs := t.TempDir()
	noDiscovery := func(r *runwrite.Run) { r.Receipt.Capability.DiscoveryHash = "" }
	dirs := []string{writeRun(t, runs, cleanRun(t, c, noDiscovery)), writeRun(t, runs, cleanRun(t, c, noDiscovery))}
	v, err := receipt.Finalize(context.Background(), c, dirs, receipt.WithClock(fixedClock))
	if err != nil {
		t.Fatalf("Finalize: %v", err)
	}
	validated := filepath.Join(t.TempDir(), "bundle")
	if _, err := bundle.Seal(ctx, validated, v, dirs); err != nil {
		t.Fatalf("Seal validated: %v", err)
	}
	if _, err := bundle.Verify(ctx, validated); err != nil {
		t.Fatalf("Verify validated: %v", err)
	}

	tests := []struct {
		name   string
		dir    string
		forged func(c *capability.Capability)
	}{
		{"authored with an invented discovery hash", authored, func(c *capability.Capability) { c.Provenance.DiscoveryHash = discoveryHash }},
		{"authored claiming discovered", authored, func(c *capability.Capability) { c.State = capability.StateDiscovered }},
		{"authored over a discovery provenance", authored, func(c *capability.Capability) { *c.Provenance = *testCapability().Provenance }},
		{"authored without review", authored, func(c *capability.Capability) { c.Provenance.Review = nil }},
		{"validated without author", validated, func(c *capability.Capability) { c.Provenance.Author = "" }},
		{"validated review naming a record", validated, func(c *capability.Capability) { c.Provenance.Review.RecordHash = discoveryHash }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dst := copyDir(t, tc.dir)
			editCapability(t, dst, tc.forged)
			if _, err := bundle.Verify(ctx, dst); !errors.Is(err, bundle.ErrCapability) {
				t.Fatalf("Verify = %v, want ErrCapability", err)
			}
			forged, err := capability.ParseBytes(readFile(t, dst, bundle.FileCapability))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := bundle.Seal(ctx, filepath.Join(t.TempDir(), "again"), forged, nil); err == nil {
				t.Fatal("Seal accepted a forged capability")
			}
		})
	}
}
