package docs

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/runtimetest"
)

// Blank values (FORMAT.md 3.2, 10.2 rule run.cap.outputs): a completed
// run never holds a blank string for a required text output. The base is
// a completed run, by the fake driver over the close fixture, of the
// close capability extended with a required text output (the summary's
// balance line).

// capNote is the close capability with the required text output.
const capNote = "capabilities/valid/teller-close-note.json"

// noteCompleted names the completed run of capNote among the close runs.
const noteCompleted = "note-completed"

// noteCapability derives capNote from the close capability: a required
// text output balance_line, read by read-balance-line after read-summary.
func noteCapability(t *testing.T, close *capability.Capability) *capability.Capability {
	t.Helper()
	c, err := close.Clone()
	if err != nil {
		t.Fatal(err)
	}
	c.ID = "teller.member-close-note"
	c.Name = "Member account closing with the balance line"
	c.Goal = "Look up a member by ID, read the summary and its balance line, close the account after an approval and hand over the paper form when the console asks for one."
	c.Outputs = append(c.Outputs, capability.Output{Name: "balance_line", Kind: capability.OutputText,
		Exposure: capability.ExposureModelAndArtifact, Required: true, Description: "The balance as the console shows it"})
	m := &c.Milestones[1]
	line := capability.Action{ID: "read-balance-line", Operation: capability.OpExtract, Intent: "Read the balance line",
		Effect: capability.EffectReadOnly, Confirmation: capability.ConfirmNone,
		LocatorCandidates: []locator.Candidate{{Strategy: locator.TestID, TestID: "member-balance"}},
		Output:            "balance_line", Extract: &capability.Extraction{Mode: capability.ExtractText},
		Postcondition: &capability.Condition{Kind: capability.CondOutputProduced, Output: "balance_line"}}
	m.Actions = append([]capability.Action{m.Actions[0], line}, m.Actions[1:]...)
	if err := c.Validate(); err != nil {
		t.Fatalf("note capability: %v", err)
	}
	if err := c.ValidateForExecution(); err != nil {
		t.Fatalf("note capability for execution: %v", err)
	}
	return c
}

// buildNoteRun runs capNote to completion and returns it normalized.
func buildNoteRun(t *testing.T, c *capability.Capability) *runFiles {
	t.Helper()
	d := runtimetest.NewDriver(closeSite(true, false))
	approve := runtime.WithApprover(runtime.ApproverFunc(func(_ context.Context, req runtime.ApprovalRequest) (runtime.Approval, error) {
		return runtime.Approval{ActionID: req.ActionID, Approved: true, Approver: "branch manager"}, nil
	}))
	res, err := runtime.Execute(context.Background(), c, map[string]any{exampleInputName: exampleMemberID, "passcode": examplePasscode},
		runtime.WithDriver(d), runtime.WithRunDir(filepath.Join(t.TempDir(), noteCompleted)), runtime.WithRequester("teller 7"), approve)
	if cerr := d.Close(); cerr != nil {
		t.Fatal(cerr)
	}
	if err != nil {
		t.Fatalf("note run: %v", err)
	}
	if res.State != runtime.StateCompleted {
		t.Fatalf("note run: state %s (%+v)", res.State, res.Failure)
	}
	return loadRun(t, res.RunDir, confRunID)
}

// addNoteBase adds capNote and its completed run to the base.
func (b *confBase) addNoteBase(t *testing.T) {
	t.Helper()
	c := noteCapability(t, b.close)
	var err error
	if b.capFiles[capNote], err = c.Marshal(); err != nil {
		t.Fatal(err)
	}
	b.closeRuns[noteCompleted] = buildNoteRun(t, c)
}

// setNoteLine sets balance_line's value in outputs.json and the receipt's
// output hash to match, so only the blank rule can reject it.
func setNoteLine(v string) func(t *testing.T, b *confBase, rf *runFiles) {
	return func(t *testing.T, b *confBase, rf *runFiles) {
		i := outputIndex(t, rf, "balance_line")
		rf.o.Outputs[i].Value = v
		h, err := receipt.OutputHash(&rf.o.Outputs[i])
		if err != nil {
			t.Fatal(err)
		}
		rf.r.Outputs[i].Hash = h
	}
}

func outputIndex(t *testing.T, rf *runFiles, name string) int {
	t.Helper()
	for i := range rf.o.Outputs {
		if rf.o.Outputs[i].Name == name {
			if rf.r.Outputs[i].Name != name {
				t.Fatalf("output %s at another index in the receipt", name)
			}
			return i
		}
	}
	t.Fatalf("no output %s", name)
	return -1
}

func init() {
	runCases = append(runCases,
		runCase{id: "note-valid-required-text", from: noteCompleted, capability: capNote,
			rules: []string{"run.cap.outputs"}, note: "a completed run of the close capability with a required text output (balance_line) read non-blank"},
		runCase{id: "note-valid-zero-width-inside", from: noteCompleted, capability: capNote, edit: setNoteLine("1,234.50\u200b EUR"),
			rules: []string{"run.cap.outputs"}, note: "a required text holding a zero-width character inside other text is not blank (1.4)"},
		runCase{id: "note-required-text-empty", from: noteCompleted, capability: capNote, edit: setNoteLine(""),
			codes: []string{"outputs"}, rules: []string{"run.cap.outputs"}, note: "a completed run whose required text output is \"\" (3.2 \"Blank values\")"},
		runCase{id: "note-required-text-zero-width", from: noteCompleted, capability: capNote, edit: setNoteLine("\u200b\u2060 \u00a0"),
			codes: []string{"outputs"}, rules: []string{"run.cap.outputs"}, note: "a completed run whose required text output holds only zero-width characters and white space: blank (1.4)"},
	)
}
