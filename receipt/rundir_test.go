package receipt_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vera-run/vera/internal/runwrite"
	"github.com/vera-run/vera/receipt"
)

// TestReserveRunDir: the reserved directory is fresh, empty, owner-only
// and under the (created) parent; WriteReserved fills exactly it and the
// run verifies.
func TestReserveRunDir(t *testing.T) {
	parent := filepath.Join(t.TempDir(), "a", "b")
	dir, err := runwrite.ReserveRunDir(parent)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(dir) != parent {
		t.Fatalf("reserved %s outside %s", dir, parent)
	}
	fi, err := os.Lstat(dir)
	if err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
		t.Fatalf("reserved %v %v", fi, err)
	}
	if es, _ := os.ReadDir(dir); len(es) != 0 {
		t.Fatalf("the probe was left behind: %v", es)
	}
	c := testCapability()
	h, err := runwrite.WriteReserved(dir, cleanRun(t, c, nil))
	if err != nil || h == "" {
		t.Fatalf("WriteReserved: %q %v", h, err)
	}
	if _, err := receipt.VerifyRun(context.Background(), dir, c); err != nil {
		t.Fatal(err)
	}
	// Twice into the same directory: refused, nothing replaced.
	if _, err := runwrite.WriteReserved(dir, cleanRun(t, c, nil)); !errors.Is(err, runwrite.ErrWrite) {
		t.Fatalf("second write: %v", err)
	}
	if _, err := receipt.VerifyRun(context.Background(), dir, c); err != nil {
		t.Fatal(err)
	}
}

// TestWriteReservedRefuses: a link, a file, a missing directory and a nil
// run are refused with ErrWrite before anything is written.
func TestWriteReservedRefuses(t *testing.T) {
	base := t.TempDir()
	real := filepath.Join(base, "real")
	if err := os.Mkdir(real, 0o700); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(base, "link")
	if err := os.Symlink(real, link); err != nil {
		t.Skip(err)
	}
	file := filepath.Join(base, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	c := testCapability()
	for _, dir := range []string{link, file, filepath.Join(base, "missing")} {
		if _, err := runwrite.WriteReserved(dir, cleanRun(t, c, nil)); !errors.Is(err, runwrite.ErrWrite) {
			t.Errorf("%s: %v", dir, err)
		}
	}
	if _, err := runwrite.WriteReserved(real, nil); !errors.Is(err, runwrite.ErrWrite) {
		t.Errorf("nil run: %v", err)
	}
	if es, _ := os.ReadDir(real); len(es) != 0 {
		t.Errorf("written through the link: %v", es)
	}
}

// TestReserveRunDirUndo: when the reservation fails after ancestors were
// created, they are removed again; WriteRun reports the refusal as both
// ErrWrite and ErrRunDir.
func TestReserveRunDirUndo(t *testing.T) {
	base := t.TempDir()
	// "new" can be created, the over-long name below it cannot.
	long := strings.Repeat("n", 300)
	_, err := runwrite.ReserveRunDir(filepath.Join(base, "new", long))
	var rde *receipt.RunDirError
	if !errors.As(err, &rde) || rde.Check != receipt.RunDirReserve {
		t.Fatalf("err %v", err)
	}
	if es, _ := os.ReadDir(base); len(es) != 0 {
		t.Fatalf("left behind: %v", es)
	}
	repo := filepath.Join(base, "repo")
	if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o700); err != nil {
		t.Fatal(err)
	}
	_, _, err = runwrite.WriteRun(filepath.Join(repo, "runs"), cleanRun(t, testCapability(), nil))
	if !errors.Is(err, runwrite.ErrWrite) || !errors.Is(err, receipt.ErrRunDir) || !errors.As(err, &rde) || rde.Check != receipt.RunDirGitWorkTree {
		t.Fatalf("WriteRun in a work tree: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(repo, "runs")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("runs created in the work tree: %v", err)
	}
	if _, err := runwrite.ReserveRunDir(""); !errors.As(err, &rde) || rde.Check != receipt.RunDirLocation {
		t.Errorf("empty: %v", err)
	}
}

// TestReserveRunDirNamed: with RunDirName the directory is named after
// the run id; an existing directory of that name and a name that is not
// a run id (or only dots) are refused, never reused.
func TestReserveRunDirNamed(t *testing.T) {
	parent := t.TempDir()
	id := runwrite.NewRunID()
	dir, err := runwrite.ReserveRunDir(parent, runwrite.WithRunDirName(id))
	if err != nil {
		t.Fatal(err)
	}
	if dir != filepath.Join(parent, id) {
		t.Fatalf("reserved %s, want %s", dir, filepath.Join(parent, id))
	}
	for _, name := range []string{id, "..", ".", "a/b", "x y"} {
		_, err := runwrite.ReserveRunDir(parent, runwrite.WithRunDirName(name))
		var rde *receipt.RunDirError
		if !errors.As(err, &rde) || rde.Check != receipt.RunDirReserve {
			t.Errorf("RunDirName(%q): %v, want a reserve refusal", name, err)
		}
	}
	if es, _ := os.ReadDir(parent); len(es) != 1 {
		t.Fatalf("parent holds %d entries, want only %s", len(es), id)
	}
}
