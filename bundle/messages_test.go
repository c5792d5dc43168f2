package bundle_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vera-run/vera/bundle"
)

// TestMessagesSayWhatIsWrong: issue 14's misleading messages.
func TestMessagesSayWhatIsWrong(t *testing.T) {
	ctx := context.Background()
	t.Run("missing folder", func(t *testing.T) {
		rep, err := bundle.Verify(ctx, filepath.Join(t.TempDir(), "absent"))
		if !errors.Is(err, bundle.ErrMissing) {
			t.Fatalf("err = %v", err)
		}
		if msg := err.Error(); !strings.Contains(msg, "the bundle directory does not exist") || strings.Contains(msg, "lock") {
			t.Errorf("message = %q, want the directory named missing and no lock mentioned", msg)
		}
		if rep.Lock != nil || len(rep.LockProblems) != 0 {
			t.Errorf("report = %+v", rep)
		}
	})
	t.Run("more than MaxFiles entries", func(t *testing.T) {
		f := discoveredFixture(t)
		// A fresh folder filled with junk first and the bundle's files
		// last, so a directory listing in creation or hash order may stop
		// before the lock.
		dir := filepath.Join(t.TempDir(), "crowded")
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 4*bundle.MaxFiles; i++ {
			for _, pre := range []string{"a", "z"} {
				if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%s%03d.txt", pre, i)), []byte("x"), 0o600); err != nil {
					t.Fatal(err)
				}
			}
		}
		for _, name := range []string{bundle.FileCapability, bundle.FileReadme, bundle.FileLock} {
			b, err := os.ReadFile(filepath.Join(f.dir, name))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		rep, err := bundle.Verify(ctx, dir)
		if !errors.Is(err, bundle.ErrLimit) {
			t.Fatalf("err = %v", err)
		}
		t.Logf("lock problems %v; lock read %t", rep.LockProblems, rep.Lock != nil)
		for _, p := range rep.LockProblems {
			if strings.Contains(p.Message, "missing") {
				t.Errorf("the present lock is reported missing: %v", p)
			}
		}
		if rep.Lock == nil {
			t.Errorf("the present lock was not read")
		}
	})
	t.Run("seal with an empty destination", func(t *testing.T) {
		_, err := bundle.Seal(ctx, "", testCapability(), nil)
		if !errors.Is(err, bundle.ErrSeal) || !errors.Is(err, bundle.ErrInvalidArgument) || !errors.Is(err, fs.ErrInvalid) {
			t.Fatalf("err = %v", err)
		}
		if msg := err.Error(); !strings.Contains(msg, "empty destination") || strings.Contains(msg, "seal :") {
			t.Errorf("message = %q", msg)
		}
	})
}
