package browser

import (
	"fmt"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"
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
	t.Parallel()
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
	t.Parallel()
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

// TestClickDocumentGoneBeforePress: the page replaces the iframe of the
// element being clicked (a framework's keyed remount) after the click's
// guards were armed and before its press goes out; the new frame, at the
// same place, shows the first submission's confirmation and an empty
// form. The press lands in the new document, and the element's guard,
// in the document that went away, cannot say where. That click is no
// click of the element: the action fails not_interactable (dispatched,
// so a consequential
// one would be effect_unconfirmed), the button is released away from the
// point so that the new frame's button gets no click, and the run never
// reads the first reference as the second. Before, the guard's stale
// read was the stale element of a click that navigated, counted as
// done: the postcondition ("Expense submitted") held on the remounted
// frame and ref2 = ref1 with one submission on the server (the stress
// tier's TestUnseen2Frame/remount=300, 2 of 5 runs).
func TestClickDocumentGoneBeforePress(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	ctx := tctx(t, 60*time.Second)
	presses := 0
	var hookErr error
	hook := func() {
		presses++
		if presses != 2 { // the second milestone's submit
			return
		}
		var res struct {
			Result remoteObject `json:"result"`
		}
		hookErr = d.call(ctx, d.pageSID, proto.RuntimeEvaluate{AwaitPromise: true, ReturnByValue: true, Expression: `new Promise(r => {
  const old = document.getElementById("expense-frame");
  const ref = old.contentDocument.querySelector("[data-testid=expense-ref]").textContent;
  const f = document.createElement("iframe");
  f.id = "expense-frame"; f.title = "Expense form";
  f.src = "/unseen2/frame/form?done=" + encodeURIComponent(ref) + "&remounted=1";
  f.addEventListener("load", () => {
    window.__newFrameClicks = 0;
    f.contentWindow.addEventListener("click", () => window.__newFrameClicks++, true);
    r(1);
  });
  old.replaceWith(f);
})`}, &res)
	}
	d.pressHook.Store(&hook)
	defer d.pressHook.Store(nil)
	before := s.Stress.Unseen2Expenses()
	c := wcCapabilityQuery(t, s.Stress.Origin(), "unseen2-frame", "/unseen2/frame", `[]`, unseen2Expense())
	res := execute(t, ctx, d, c, map[string]any{
		"desc1": "Taxi to client", "amount1": "42.50", "desc2": "Hotel Milano", "amount2": "180.00"})
	if hookErr != nil {
		t.Fatalf("remount: %v", hookErr)
	}
	if presses < 2 {
		t.Fatalf("%d presses, want the second submit's", presses)
	}
	got := s.Stress.Unseen2Expenses()[len(before):]
	if len(got) != 1 {
		t.Fatalf("server received %d submissions, want 1", len(got))
	}
	if r, ok := res.ModelOutputs["ref2"]; ok {
		t.Errorf("ref2 = %q reported for a press that went into a remounted frame (ref1 %q)", r, got[0].Ref)
	}
	if res.State != runtime.StateFailed || res.StoppedAt != "submit-2" || res.Failure == nil || res.Failure.Reason != "not_interactable" {
		t.Fatalf("run %s, want failed not_interactable at submit-2", describeResult(res))
	}
	var clicks int
	obsEval(t, ctx, d, `window.__newFrameClicks`, &clicks)
	if clicks != 0 {
		t.Errorf("the remounted frame got %d clicks from the press that was meant for the old one", clicks)
	}
	// The button is up again: the next click works.
	hook2 := func() {}
	d.pressHook.Store(&hook2)
	c2 := wcCapabilityQuery(t, s.Stress.Origin(), "unseen2-frame", "/unseen2/frame", `[]`, unseen2Expense())
	res = execute(t, ctx, d, c2, map[string]any{
		"desc1": "Taxi to client", "amount1": "42.50", "desc2": "Hotel Milano", "amount2": "180.00"})
	wantState(t, res, runtime.StateCompleted, "")
}
