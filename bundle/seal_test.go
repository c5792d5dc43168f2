package bundle_test

import (
	"context"
	"testing"

	"github.com/vera-run/vera/bundle"
)

func TestSealVerifyValidated(t *testing.T) {
	f := validatedFixture(t)
	rep, err := bundle.Verify(context.Background(), f.dir)
	if err != nil {
		t.Fatalf("Verify: %v", err)
	}
	t.Logf("valid: %v", rep.Valid)
}
