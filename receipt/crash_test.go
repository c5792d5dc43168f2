package receipt_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"testing"

	"github.com/vera-run/vera/internal/runwrite"
	"github.com/vera-run/vera/internal/safefs"
	"github.com/vera-run/vera/receipt"
)

var errCrash = errors.New("simulated crash")

// crashStep is the state a crash leaves one file's atomic write in.
type crashStep string

const (
	crashBefore      crashStep = "before"       // nothing of this file written
	crashTempCreated crashStep = "temp-created" // empty temporary file
	crashPartial     crashStep = "partial"      // temporary file with half the data
	crashSynced      crashStep = "synced"       // complete temporary file, no final name
	crashLinked      crashStep = "linked"       // final name published, temporary name not yet removed
)

// tempFor returns a temporary name of the shape safefs uses.
func tempFor(name string, i int) string {
	return fmt.Sprintf(".%s.tmp-%016x", name, 0xabc0+i)
}

func leave(t *testing.T, root *os.Root, name string, data []byte) {
	t.Helper()
	f, err := root.OpenFile(name, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestCrashSafety interrupts WriteRun at every step of every file and
// shows VerifyRun reports the run as incomplete, never as tampered; the
// uninterrupted run verifies.
func TestCrashSafety(t *testing.T) {
	c := testCapability()
	for _, recovered := range []bool{false, true} {
		files := []string{receipt.FileOutputs, receipt.FileReceipt, receipt.FileLock}
		if recovered {
			files = []string{receipt.FileOutputs, receipt.FileProposals, receipt.FileReceipt, receipt.FileLock}
		}
		for _, file := range files {
			for _, step := range []crashStep{crashBefore, crashTempCreated, crashPartial, crashSynced, crashLinked} {
				t.Run(fmt.Sprintf("recovered=%t/%s/%s", recovered, file, step), func(t *testing.T) {
					if !safefs.IsTempName(tempFor(file, 0)) {
						t.Fatal("test temp name does not have safefs's shape")
					}
					run := cleanRun(t, c, nil)
					if recovered {
						makeRecovered(run)
					}
					restore := runwrite.SetPutHook(func(root *os.Root, name string, data []byte) error {
						if name != file {
							return nil
						}
						switch step {
						case crashTempCreated:
							leave(t, root, tempFor(name, 1), nil)
						case crashPartial:
							leave(t, root, tempFor(name, 2), data[:len(data)/2])
						case crashSynced:
							leave(t, root, tempFor(name, 3), data)
						case crashLinked:
							leave(t, root, name, data)
							leave(t, root, tempFor(name, 4), data)
						}
						return errCrash
					})
					dir, _, err := runwrite.WriteRun(t.TempDir(), run)
					restore()
					if !errors.Is(err, errCrash) || !errors.Is(err, runwrite.ErrWrite) {
						t.Fatalf("WriteRun err = %v, want the simulated crash", err)
					}
					rep, err := receipt.VerifyRun(context.Background(), dir, c)
					if !errors.Is(err, receipt.ErrIncomplete) || rep.Complete {
						t.Fatalf("VerifyRun: complete=%t err=%v, want incomplete", rep.Complete, err)
					}
					for _, p := range rep.Problems {
						if !errors.Is(p.Err, receipt.ErrIncomplete) {
							t.Errorf("problem %v is not an incompleteness", p)
						}
					}
					if _, err := receipt.Load(context.Background(), dir); !errors.Is(err, receipt.ErrIncomplete) {
						t.Errorf("Load err = %v, want ErrIncomplete", err)
					}
				})
			}
		}
	}
	t.Run("uninterrupted", func(t *testing.T) {
		dir := writeRun(t, cleanRun(t, c, nil))
		if rep, err := receipt.VerifyRun(context.Background(), dir, c); err != nil || !rep.Complete {
			t.Fatalf("complete=%t err=%v", rep.Complete, err)
		}
	})
	t.Run("tampered is not incomplete", func(t *testing.T) {
		dir := writeRun(t, cleanRun(t, c, nil))
		if err := os.Remove(dir + "/" + receipt.FileOutputs); err != nil {
			t.Fatal(err)
		}
		rep, err := receipt.VerifyRun(context.Background(), dir, c)
		if !rep.Complete || errors.Is(err, receipt.ErrIncomplete) || !errors.Is(err, receipt.ErrMissingFile) {
			t.Fatalf("complete=%t err=%v, want complete with a missing file", rep.Complete, err)
		}
	})
}
