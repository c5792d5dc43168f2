package receipt_test

import (
	"context"
	"errors"
	"testing"

	"github.com/vera-run/vera/internal/runwrite"
	"github.com/vera-run/vera/receipt"
)

// TestVerifyFailedExtractionOutput: a failed extraction leaves its output
// unproduced (FORMAT.md 3.2 "Outputs of a failed extraction", 10.2
// run.cap.outputs). A run that ended at a failed read-movements (its
// second visit), or that failed records_incomplete at completion naming
// it, is rejected with ErrOutputs while movements is recorded and
// written produced, by VerifyRun and, from the receipt alone, by
// VerifyReceipt; with movements unproduced both runs verify (the record
// count sum of its passed visits is then not checked).
func TestVerifyFailedExtractionOutput(t *testing.T) {
	atAction := func(run *runwrite.Run) {
		r := run.Receipt
		r.Actions = r.Actions[:9]
		f := &receipt.Failure{Category: receipt.CategoryExtractionFailed, Reason: "required_field_empty"}
		r.Terminal = receipt.Terminal{State: receipt.TerminalFailed, Action: "read-movements", Failure: f}
		last := &r.Actions[8]
		last.Status, last.Failure, last.Records, last.Postcondition = receipt.ActionFailed, f, nil, ""
		r.Milestones[3].Status, r.Milestones[3].Next = "failed", ""
		r.Clean = false
	}
	atCompletion := func(run *runwrite.Run) {
		r := run.Receipt
		f := &receipt.Failure{Category: receipt.CategoryExtractionFailed, Reason: "records_incomplete"}
		r.Terminal = receipt.Terminal{State: receipt.TerminalFailed, Action: "read-movements", Failure: f}
		r.Clean = false
	}
	unproduced := func(run *runwrite.Run) {
		run.Outputs.Outputs[1].Produced, run.Outputs.Outputs[1].Value = false, nil
	}
	for _, tt := range []struct {
		name   string
		mutate []func(*runwrite.Run)
		bad    bool
	}{
		{"failed at the extraction, output produced", []func(*runwrite.Run){atAction}, true},
		{"failed at the extraction, output unproduced", []func(*runwrite.Run){atAction, unproduced}, false},
		{"records_incomplete at completion, output produced", []func(*runwrite.Run){atCompletion}, true},
		{"records_incomplete at completion, output unproduced", []func(*runwrite.Run){atCompletion, unproduced}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := testCapability()
			dir := writeRun(t, cleanRun(t, c, func(run *runwrite.Run) {
				for _, m := range tt.mutate {
					m(run)
				}
			}))
			rep, err := receipt.VerifyRun(context.Background(), dir, c)
			files := map[string]bool{}
			for _, p := range rep.Problems {
				if errors.Is(p.Err, receipt.ErrOutputs) {
					files[p.File] = true
				}
			}
			rrep, rerr := receipt.VerifyReceipt(readFile(t, dir, receipt.FileReceipt), c)
			if tt.bad {
				if !errors.Is(err, receipt.ErrOutputs) || !files[receipt.FileReceipt] || !files[receipt.FileOutputs] {
					t.Errorf("VerifyRun accepted the failed extraction's output: err %v, problems %+v", err, rep.Problems)
				}
				if !errors.Is(rerr, receipt.ErrOutputs) {
					t.Errorf("VerifyReceipt accepted the failed extraction's output: err %v, problems %+v", rerr, rrep.Problems)
				}
				return
			}
			if err != nil {
				t.Errorf("VerifyRun: %v (%+v)", err, rep.Problems)
			}
			if rerr != nil {
				t.Errorf("VerifyReceipt: %v (%+v)", rerr, rrep.Problems)
			}
		})
	}
}
