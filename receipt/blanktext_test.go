package receipt_test

import (
	"context"
	"errors"
	"testing"

	"github.com/vera-run/vera/internal/runwrite"
	"github.com/vera-run/vera/receipt"
)

// TestVerifyRunRequiredTextBlank: a completed run's required text output
// is never blank (FORMAT.md 1.4, 4.2, 10.2): "", white space and
// zero-width characters only are reported as ErrOutputs in outputs.json.
// A text output that is not required may be blank, and so may a required
// one in a run that did not complete.
func TestVerifyRunRequiredTextBlank(t *testing.T) {
	for _, tt := range []struct {
		name     string
		required bool
		value    string
		failed   bool
		bad      bool
	}{
		{"required filled", true, "VIP member", false, false},
		{"required empty", true, "", false, true},
		{"required white space", true, " \u00a0\t", false, true},
		{"required zero-width", true, "\u200b\u2060\ufeff", false, true},
		{"required zero-width inside text", true, "VIP\u200bmember", false, false},
		{"optional empty", false, "", false, false},
		{"optional zero-width", false, "\u200b", false, false},
		{"required blank in a failed run", true, "\u200b", true, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := testCapability()
			c.Outputs[2].Required = tt.required
			if err := c.Validate().Err(); err != nil {
				t.Fatal(err)
			}
			dir := writeRun(t, cleanRun(t, c, func(run *runwrite.Run) {
				run.Outputs.Outputs[2].Value = tt.value
				if tt.failed {
					r := run.Receipt
					f := &receipt.Failure{Category: receipt.CategoryUIAssertionFailed, Reason: "postcondition_failed"}
					r.Terminal = receipt.Terminal{State: receipt.TerminalFailed, Action: "next-page", Failure: f}
					r.Actions[len(r.Actions)-1].Status = receipt.ActionFailed
					r.Actions[len(r.Actions)-1].Failure = f
					r.Actions[len(r.Actions)-1].Postcondition = "failed"
					r.Milestones[len(r.Milestones)-1].Status, r.Milestones[len(r.Milestones)-1].Next = "failed", ""
					r.Clean = false
				}
			}))
			rep, err := receipt.VerifyRun(context.Background(), dir, c)
			found := false
			for _, p := range rep.Problems {
				if errors.Is(p.Err, receipt.ErrOutputs) && p.File == receipt.FileOutputs {
					found = true
				}
			}
			if tt.bad && (!found || !errors.Is(err, receipt.ErrOutputs)) {
				t.Fatalf("a blank required text verified: err %v, problems %+v", err, rep.Problems)
			}
			if !tt.bad && err != nil {
				t.Fatalf("VerifyRun: %v (%+v)", err, rep.Problems)
			}
		})
	}
}
