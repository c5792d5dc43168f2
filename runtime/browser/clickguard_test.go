package browser

import (
	"fmt"
	"testing"
	"time"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/testsite"
	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/runtime"
)

// TestClickLayoutMovesUnderPointer: on the shift page the first mouse
// move puts "Delete everything" where "Save" was measured. A blind click
// would delete; the guarded click stops that press (no delete happens),
// measures Save again and clicks it.
func TestClickLayoutMovesUnderPointer(t *testing.T) {
	d := shared(t)
	s := sites(t)
	c := barrierCap(s.Teller.Origin(), testsite.ShiftPath,
		barrierClick("save", capability.EffectReversible, textCond("Saved"), role("button", "Save")),
		capability.Action{ID: "read", Operation: capability.OpExtract, Intent: "Read the status counters",
			Effect: capability.EffectReadOnly, Confirmation: capability.ConfirmNone, Output: "status",
			LocatorCandidates: []locator.Candidate{{Strategy: locator.Role, Role: "status"}},
			Extract: &capability.Extraction{Mode: capability.ExtractSingle, Fields: []capability.Field{
				{Name: "saves", Type: capability.FieldInteger, LocatorCandidates: []locator.Candidate{}, Read: capability.ReadAttribute, Attribute: "data-saves"},
				{Name: "deletes", Type: capability.FieldInteger, LocatorCandidates: []locator.Candidate{}, Read: capability.ReadAttribute, Attribute: "data-deletes"},
			}},
			Postcondition: &capability.Condition{Kind: capability.CondOutputProduced, Output: "status"}},
	)
	c.Outputs = []capability.Output{{Name: "status", Kind: capability.OutputRecord, Exposure: capability.ExposureModelAndArtifact,
		Fields: []capability.OutputField{{Name: "saves", Type: capability.FieldInteger}, {Name: "deletes", Type: capability.FieldInteger}}}}
	if errs := c.ValidateForExecution(); len(errs) > 0 {
		t.Fatalf("capability: %v", errs)
	}
	res := execute(t, tctx(t, 60*time.Second), d, c, nil)
	wantState(t, res, runtime.StateCompleted, "")
	got := fmt.Sprint(res.ModelOutputs["status"])
	if want := fmt.Sprint(map[string]any{"deletes": 0, "saves": 1}); got != want {
		t.Fatalf("status %s, want %s", got, want)
	}
}

// TestSlowTellerFlow: the teller flow on a site that answers every
// request 400 ms late. The member page's stylesheet arrives after the
// search button was measured and moves it; the click must still reach it
// (it used to land beside it, so the search form was never sent).
func TestSlowTellerFlow(t *testing.T) {
	d := shared(t)
	s := sites(t)
	s.Teller.SetLatency(400 * time.Millisecond)
	m := testsite.TellerMembers[0]
	c := tellerCapability(t, s)
	res := execute(t, tctx(t, 90*time.Second), d, c, tellerInputs(m.ID))
	if p := tellerProblems(t, c, m, res); len(p) > 0 {
		t.Fatalf("%v", p)
	}
}
