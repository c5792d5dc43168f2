package bundle_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/vera-run/vera/bundle"
)

// TestOverfullBundleIsOrderFree holds FORMAT.md 10.5 step 2: when the
// walk would pass 64 entries in a directory, none of that directory's
// entries is looked at (a bounded listing is in the file system's order);
// the lock and every listed file are looked up by name and checked, so
// the report is the limit and nothing that depends on listing order.
func TestOverfullBundleIsOrderFree(t *testing.T) {
	f := discoveredFixture(t)
	for i := 0; i < 2*bundle.MaxFiles; i++ {
		if err := os.WriteFile(filepath.Join(f.dir, fmt.Sprintf("junk-%03d.txt", i)), []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	rep, err := bundle.Verify(context.Background(), f.dir)
	if err == nil {
		t.Fatal("an overfull bundle verified")
	}
	if len(rep.Limits) != 1 || len(rep.Unlisted) != 0 || len(rep.Missing) != 0 || len(rep.LockProblems) != 0 ||
		len(rep.Mismatched) != 0 || len(rep.Unsafe) != 0 || len(rep.Forbidden) != 0 || len(rep.Capability) != 0 {
		t.Errorf("report = %+v, want exactly one limit problem", rep)
	}
	for _, p := range []string{bundle.FileCapability, bundle.FileReadme} {
		if !slices.Contains(rep.Valid, p) {
			t.Errorf("%s was not looked up and verified by name (valid %v)", p, rep.Valid)
		}
	}
}
