package bundle

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestRenameFallback(t *testing.T) {
	dir := t.TempDir()
	from := filepath.Join(dir, "from")
	to := filepath.Join(dir, "to")
	if err := os.Mkdir(from, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := renameFallback(from, to); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("rename over a file: %v", err)
	}
	if err := os.Remove(to); err != nil {
		t.Fatal(err)
	}
	if err := renameFallback(from, to); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(to); err != nil || !fi.IsDir() {
		t.Fatalf("renamed directory: %v", err)
	}
	// The primary path refuses an existing empty directory atomically.
	if err := os.Mkdir(from, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := renameNoReplace(from, to); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("renameNoReplace over an empty directory: %v", err)
	}
}

// TestReadLongerThanDeclared covers a file that grew after its size was
// checked: the limited reader stops at declared+1 bytes and the read is a
// mismatch, never a larger read.
func TestReadLongerThanDeclared(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "f"), make([]byte, 3<<20), 0o600); err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	v := &verifier{ctx: context.Background(), root: root}
	for _, keep := range []bool{false, true} {
		res, err := v.read("f", 1<<20, keep)
		if !errors.Is(err, errTooLong) {
			t.Fatalf("keep=%v: %v", keep, err)
		}
		if res.n > 1<<20+1 || len(res.data) > 1<<20+1 {
			t.Fatalf("keep=%v: read %d bytes past the limit", keep, res.n)
		}
	}
	if _, err := v.read("missing", 1, false); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing file: %v", err)
	}
}
