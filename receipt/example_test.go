package receipt_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/vera-run/vera/internal/runwrite"
	"github.com/vera-run/vera/receipt"
)

// exampleRuns writes n clean live runs of the test capability into a
// temporary directory; cleanup removes it.
func exampleRuns(n int) (dirs []string, cleanup func()) {
	parent, err := os.MkdirTemp("", "vera-example-")
	if err != nil {
		panic(err)
	}
	c := testCapability()
	for range n {
		dir, _, err := runwrite.WriteRun(parent, cleanRun(exampleTB{}, c, nil))
		if err != nil {
			panic(err)
		}
		dirs = append(dirs, dir)
	}
	return dirs, func() { os.RemoveAll(parent) }
}

func ExampleVerifyRun() {
	c := testCapability()
	dirs, cleanup := exampleRuns(1)
	defer cleanup()

	rep, err := receipt.VerifyRun(context.Background(), dirs[0], c)
	fmt.Println("complete:", rep.Complete, "problems:", len(rep.Problems), "err:", err)

	// Tamper with the outputs: the lock no longer matches.
	f := filepath.Join(dirs[0], receipt.FileOutputs)
	b, _ := os.ReadFile(f)
	_ = os.WriteFile(f, bytes.Replace(b, []byte("Mario"), []byte("Maria"), 1), 0o600)
	rep, err = receipt.VerifyRun(context.Background(), dirs[0], c)
	fmt.Println("hash mismatch:", errors.Is(err, receipt.ErrHashMismatch))
	for _, p := range rep.Problems {
		fmt.Println(p.File, p.Code)
	}

	// An interrupted run (no lock) is incomplete, not tampered.
	_ = os.Remove(filepath.Join(dirs[0], receipt.FileLock))
	rep, err = receipt.VerifyRun(context.Background(), dirs[0], c)
	fmt.Println("complete:", rep.Complete, "incomplete:", errors.Is(err, receipt.ErrIncomplete))
	// Output:
	// complete: true problems: 0 err: <nil>
	// hash mismatch: true
	// outputs.json hash_mismatch
	// run.receipt.json hash_mismatch
	// complete: false incomplete: true
}

func ExampleFinalize() {
	c := testCapability()
	dirs, cleanup := exampleRuns(2)
	defer cleanup()

	clock := receipt.WithClock(func() time.Time { return time.Date(2026, 3, 2, 8, 0, 0, 0, time.UTC) })
	v, err := receipt.Finalize(context.Background(), c, dirs, clock)
	if err != nil {
		fmt.Println(err)
		return
	}
	h1, _ := c.ExecutionHash()
	h2, _ := v.ExecutionHash()
	fmt.Println(c.State, "->", v.State)
	fmt.Println("receipts:", len(v.Validation.Receipts), "mode:", v.Validation.ExecutionMode)
	fmt.Println("finalized at:", v.Validation.FinalizedAt)
	fmt.Println("execution hash unchanged:", h1 == h2)

	// The same run twice never counts.
	_, err = receipt.Finalize(context.Background(), c, []string{dirs[0], dirs[0]}, clock)
	var fe receipt.FinalizeErrors
	fmt.Println(errors.As(err, &fe), fe.Checks())
	// Output:
	// discovered -> validated_local
	// receipts: 2 mode: live_connected_chrome
	// finalized at: 2026-03-02T08:00:00Z
	// execution hash unchanged: true
	// true [unique]
}

func ExampleCompare() {
	c := testCapability()
	a := cleanRun(exampleTB{}, c, nil).Receipt
	b := cleanRun(exampleTB{}, c, func(r *runwrite.Run) {
		r.Receipt.DurationMS = 9000                            // timings are ignored
		r.Receipt.Environment.Browser = "Chrome/157.0.7000.10" // normalized by a rule below
		r.Outputs.Outputs[2].Value = "regular member"          // a real change
	}).Receipt

	cmp, err := receipt.Compare(a, b,
		receipt.WithRule(receipt.Rule{Kind: receipt.ArtifactEnvironment, Find: "Chrome/157.0.7000.10", Replace: "Chrome/156.0.8078.73"}),
		receipt.WithMaxChanges(10))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("verdict:", cmp.Verdict)
	for _, ch := range cmp.Changes {
		fmt.Println(ch.Kind, ch.Name, ch.Status)
	}
	fmt.Println("steps:", cmp.Totals.Steps, "unchanged:", cmp.Totals.StepsUnchanged)
	// Output:
	// verdict: changed
	// output note changed
	// steps: 10 unchanged: 10
}
