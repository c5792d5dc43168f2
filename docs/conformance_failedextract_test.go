package docs

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/runtimetest"
)

// A failed extraction leaves its output unproduced (FORMAT.md 4.2, 10.2
// rule run.cap.outputs): the base is a run of the close capability, by
// the fake driver, whose read-summary fails coercion_failed (the balance
// reads "n/a", not a number).

// closeExtractFailed names the failed run of the close capability.
const closeExtractFailed = "extract-failed"

// addExtractFailedBase adds the run whose read-summary fails to the
// close runs.
func (b *confBase) addExtractFailedBase(t *testing.T) {
	t.Helper()
	site := closeSite(true, false)
	var balance *runtimetest.Node
	var walk func(ns []*runtimetest.Node)
	walk = func(ns []*runtimetest.Node) {
		for _, n := range ns {
			if n.TestID == "member-balance" {
				balance = n
			}
			walk(n.Children)
		}
	}
	walk(site.Pages[exampleOrigin+"/members"].Body)
	if balance == nil {
		t.Fatal("no member-balance in the close site")
	}
	balance.Text = "n/a"
	d := runtimetest.NewDriver(site)
	res, err := runtime.Execute(context.Background(), b.close, map[string]any{exampleInputName: exampleMemberID, "passcode": examplePasscode},
		runtime.WithDriver(d), runtime.WithRunDir(filepath.Join(t.TempDir(), closeExtractFailed)), runtime.WithRequester("teller 7"))
	if cerr := d.Close(); cerr != nil {
		t.Fatal(cerr)
	}
	if err != nil {
		t.Fatalf("failed extraction run: %v", err)
	}
	if res.State != runtime.StateFailed || res.Failure == nil || res.Failure.Reason != "coercion_failed" || res.StoppedAt != "read-summary" {
		t.Fatalf("failed extraction run: state %s at %q (%+v)", res.State, res.StoppedAt, res.Failure)
	}
	b.closeRuns[closeExtractFailed] = loadRun(t, res.RunDir, confRunID)
}

// produceMember writes the member output of the failed run as produced,
// with the name read before the balance failed, and its count and hash
// in the receipt to match: only the failed extraction rule can reject it.
func produceMember(t *testing.T, b *confBase, rf *runFiles) {
	i := outputIndex(t, rf, "member")
	v := &rf.o.Outputs[i]
	v.Produced, v.Value = true, map[string]any{"name": "Ada Lovelace", "balance": nil}
	h, err := receipt.OutputHash(v)
	if err != nil {
		t.Fatal(err)
	}
	rf.r.Outputs[i].Hash, rf.r.Outputs[i].Count = h, 1
}

func init() {
	runCases = append(runCases,
		runCase{id: "close-valid-extraction-failed", from: closeExtractFailed,
			rules: []string{"run.cap.outputs", "run.file.receipt"}, note: "read-summary failed extraction_failed / coercion_failed: the run fails there and its output member is not produced"},
		runCase{id: "close-extraction-failed-output-produced", from: closeExtractFailed, edit: produceMember,
			codes: []string{"outputs"}, rules: []string{"run.cap.outputs"}, note: "the failed read-summary's output member written produced with the part it read (4.2: a failed extraction leaves its output unproduced)"},
	)
}
