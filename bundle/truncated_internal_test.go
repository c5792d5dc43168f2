package bundle

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadLockAfterTruncatedListing: when the listing stopped at
// MaxFiles before it reached the lock (directory order decides which
// entries come first), the lock is looked at directly, never reported
// missing while present.
func TestReadLockAfterTruncatedListing(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, FileLock), []byte(`{"schema":"not-a-lock"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	for _, truncated := range []bool{false, true} {
		v := &verifier{ctx: context.Background(), cfg: newConfig(nil), rep: &Report{Dir: dir}, root: root,
			disk: map[string]diskEntry{}, seen: map[string]bool{}, bad: map[string]bool{}, verified: map[string][]byte{},
			truncated: truncated}
		v.readLock()
		missing := false
		for _, p := range v.rep.LockProblems {
			missing = missing || strings.Contains(p.Message, "missing")
		}
		if truncated && missing {
			t.Errorf("truncated listing: the present lock is reported missing: %v", v.rep.LockProblems)
		}
		if truncated && v.rep.LockHash == "" {
			t.Errorf("truncated listing: the lock was not read")
		}
		if !truncated && !missing {
			t.Errorf("complete listing without the lock: not reported missing: %v", v.rep.LockProblems)
		}
	}
}
