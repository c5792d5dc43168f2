package receipt_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/vera-run/vera/receipt"
)

// TestOverfullRunDirIsOrderFree holds FORMAT.md 10.2 step 1: counting
// stops at entry 65, and then no entry is reported by name (which 64 a
// bounded listing returns is the file system's choice); the run files are
// looked up by name, so a committed run is never called incomplete and a
// leftover temporary file among the junk is not reported either.
func TestOverfullRunDirIsOrderFree(t *testing.T) {
	c := testCapability()
	dir := writeRun(t, cleanRun(t, c, nil))
	for i := 0; i < 2*receipt.MaxDirEntries; i++ {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("junk-%03d", i)), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, ".run.receipt.json.tmp-0123456789abcdef"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	rep, err := receipt.VerifyRun(context.Background(), dir, c)
	if err == nil {
		t.Fatal("an overfull run directory verified")
	}
	if !rep.Complete {
		t.Errorf("a committed run with an overfull directory is reported incomplete: %+v", rep.Problems)
	}
	if len(rep.Problems) != 1 || rep.Problems[0].Code != "unexpected_file" || rep.Problems[0].File != "" {
		t.Errorf("problems = %+v, want exactly one unexpected_file for the directory", rep.Problems)
	}
}
