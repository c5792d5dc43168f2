package docs

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/canonjson"
	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/runtimetest"
)

// The second worked capability of the conformance vectors (issue 14): the
// teller closes a member's account. It has what the first lacks: a
// business outcome (member_not_found), a consequential action behind the
// action-time approval gate (close-account) and a native action (the
// paper form a person signs). Four runs of the fake driver over fixtures
// of the teller page, normalized like the first run, are the bases of the
// run cases below: completed after an approval, native_gap after an
// approval, business_outcome before the gate, stopped_at_gate when the
// approver refuses.

// capClose is the second worked capability's path in the tree.
const capClose = "capabilities/valid/teller-close.json"

// The bases of the close runs.
const (
	closeApproved = "approved"
	closeNative   = "native"
	closeNotFound = "not-found"
	closeRefused  = "refused"
	// closeUnconfirmed: the approved close click changes nothing on the
	// page, so its postcondition fails after the click was dispatched.
	closeUnconfirmed = "unconfirmed"
)

// closeCapability derives the close capability from the discovered
// worked capability: the same find-member milestone, a business outcome
// after the look-up, a close-account milestone (read the member, close
// the account behind the gate) and a hand-over milestone whose only
// action is native.
func closeCapability(t *testing.T, worked *capability.Capability) *capability.Capability {
	t.Helper()
	c, err := worked.Clone()
	if err != nil {
		t.Fatal(err)
	}
	role := func(r, name string) []locator.Candidate {
		return []locator.Candidate{{Strategy: locator.Role, Role: r, Name: name, Exact: true}}
	}
	text := func(s string) *capability.Condition {
		return &capability.Condition{Kind: capability.CondTextVisible, Text: s}
	}
	c.ID = "teller.member-close"
	c.Name = "Member account closing"
	c.Goal = "Look up a member by ID, read the summary, close the account after an approval and hand over the paper form when the console asks for one."
	c.Authority.MaxEffect = capability.EffectConsequential
	c.Outputs = c.Outputs[:1] // member
	summary := role("region", "Member summary")
	read, _, _, ok := worked.Action("read-summary")
	if !ok {
		t.Fatal("no read-summary")
	}
	c.Milestones[1].ID = "close-account"
	c.Milestones[1].Intent = "Read the member summary and close the account"
	c.Milestones[1].Actions = []capability.Action{*read, {
		ID: "close-account", Operation: capability.OpClick, Intent: "Close the member's account",
		Effect: capability.EffectConsequential, Confirmation: capability.ConfirmActionTime,
		LocatorCandidates: role("button", "Close account"), Postcondition: text("Account closed"),
		// A bounded wait, so the run where the click changes nothing
		// (closeUnconfirmed) fails in 2 s rather than the default 10 s.
		TimeoutMS: 2000}}
	c.Milestones[1].Transitions = []capability.Transition{
		{When: *text("Paper form required"), To: "hand-over"},
		{When: capability.Condition{Kind: capability.CondAlways}, To: "completed"},
	}
	c.Milestones[0].Transitions = []capability.Transition{
		{When: capability.Condition{Kind: capability.CondLocatorVisible, LocatorCandidates: summary}, To: "close-account"},
	}
	c.Milestones = append(c.Milestones[:2], capability.Milestone{ID: "hand-over", Intent: "Hand the signed paper form to the branch",
		Actions: []capability.Action{{ID: "sign-paper-form", Operation: capability.OpNative, Intent: "Have the member sign the paper closing form",
			Effect: capability.EffectReadOnly, Confirmation: capability.ConfirmNone,
			NativeGap: "The member signs the printed closing form at the counter; the teller files it. No browser step exists."}}})
	c.BusinessOutcomes = []capability.BusinessOutcome{{Code: "member_not_found", Description: "No member has this ID",
		Detect: capability.OutcomeDetect{VisibleText: "No member with this ID", AfterAction: "look-up"}}}
	if err := c.Validate(); err != nil {
		t.Fatalf("close capability: %v", err)
	}
	if err := c.ValidateForExecution(); err != nil {
		t.Fatalf("close capability for execution: %v", err)
	}
	return c
}

// closeSite is the teller page: the look-up shows the summary (found) or
// a not-found notice; closing shows "Account closed" and, when paper is
// set, "Paper form required".
func closeSite(found, paper bool) *runtimetest.Site {
	show := []string{"summary"}
	if !found {
		show = []string{"not-found"}
	}
	closed := []string{"closed"}
	if paper {
		closed = append(closed, "paper")
	}
	return &runtimetest.Site{Pages: map[string]*runtimetest.Page{exampleOrigin + "/members": {
		Title: "Members",
		Body: []*runtimetest.Node{
			{Tag: "input", ID: "member-id", Label: "Member ID"},
			{Tag: "input", ID: "passcode", Label: "Passcode", Attributes: map[string]string{"type": "password"}},
			{Tag: "button", ID: "look-up", Text: "Look up"},
			{Tag: "p", ID: "not-found", Text: "No member with this ID", Hidden: true},
			{Tag: "section", ID: "summary", Role: "region", Name: "Member summary", Hidden: true, Children: []*runtimetest.Node{
				{Tag: "h2", Text: "Member summary"},
				{Tag: "span", TestID: "member-name", Text: "Ada Lovelace"},
				{Tag: "span", TestID: "member-balance", Text: "1,234.50"},
				{Tag: "button", ID: "close", Text: "Close account"},
			}},
			{Tag: "p", ID: "closed", Text: "Account closed", Hidden: true},
			{Tag: "p", ID: "paper", Text: "Paper form required", Hidden: true},
		},
		Rules: []runtimetest.Rule{
			{On: runtimetest.Trigger{Node: "look-up", Act: runtime.ActClick}, Effects: []runtimetest.Effect{{Show: show}}},
			{On: runtimetest.Trigger{Node: "close", Act: runtime.ActClick}, Effects: []runtimetest.Effect{{Show: closed}}},
		},
	}}}
}

// buildCloseRuns runs the close capability five times and returns the
// normalized runs by base name.
func buildCloseRuns(t *testing.T, c *capability.Capability) map[string]*runFiles {
	t.Helper()
	tmp := t.TempDir()
	approver := func(ok bool) runtime.Option {
		return runtime.WithApprover(runtime.ApproverFunc(func(_ context.Context, req runtime.ApprovalRequest) (runtime.Approval, error) {
			return runtime.Approval{ActionID: req.ActionID, Approved: ok, Approver: "branch manager"}, nil
		}))
	}
	out := map[string]*runFiles{}
	for _, rc := range []struct {
		name         string
		found, paper bool
		approve      bool
		want         receipt.TerminalState
		noEffect     bool // the close click shows nothing
	}{
		{closeApproved, true, false, true, runtime.StateCompleted, false},
		{closeNative, true, true, true, runtime.StateNativeGap, false},
		{closeNotFound, false, false, true, runtime.StateBusinessOutcome, false},
		{closeRefused, true, false, false, runtime.StateStoppedAtGate, false},
		{closeUnconfirmed, true, false, true, runtime.StateFailed, true},
	} {
		site := closeSite(rc.found, rc.paper)
		if rc.noEffect {
			pg := site.Pages[exampleOrigin+"/members"]
			pg.Rules = pg.Rules[:1]
		}
		d := runtimetest.NewDriver(site)
		res, err := runtime.Execute(context.Background(), c, map[string]any{exampleInputName: exampleMemberID, "passcode": examplePasscode},
			runtime.WithDriver(d), runtime.WithRunDir(filepath.Join(tmp, rc.name)), runtime.WithRequester("teller 7"), approver(rc.approve))
		if cerr := d.Close(); cerr != nil {
			t.Fatal(cerr)
		}
		if err != nil {
			t.Fatalf("close run %s: %v", rc.name, err)
		}
		if res.State != rc.want {
			t.Fatalf("close run %s: state %s, want %s (%+v)", rc.name, res.State, rc.want, res.Failure)
		}
		out[rc.name] = loadRun(t, res.RunDir, confRunID)
	}
	return out
}

// loadRun reads the receipt and outputs.json of the run directory dir and
// normalizes them (normalizeRun) with the run id runID.
func loadRun(t *testing.T, dir, runID string) *runFiles {
	t.Helper()
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	r, err := receipt.LoadReceipt(read(receipt.FileReceipt))
	if err != nil {
		t.Fatal(err)
	}
	o, err := receipt.LoadOutputs(read(receipt.FileOutputs))
	if err != nil {
		t.Fatal(err)
	}
	normalizeRun(r, o, runID)
	return &runFiles{r: r, o: o}
}

// closeApproval returns the approval proof of close-account in rf.
func closeApproval(rf *runFiles) *receipt.ApprovalProof {
	ap := rf.r.Actions[actionIndex(rf.r, "close-account")].Approval
	if ap == nil {
		panic("tamper: close-account has no approval")
	}
	return ap
}

// closeRunCases are the run cases of the close capability.
var closeRunCases = []runCase{
	{id: "close-valid-approved", from: closeApproved,
		rules: []string{"run.file.receipt", "run.cap.approvals", "run.cap.inputs", "run.seq.completed"},
		note:  "the close capability completed: close-account approved by another person (approval with shown_inputs and shown_hash)"},
	{id: "close-valid-native-gap", from: closeNative, rules: []string{"run.file.receipt", "run.cap.approvals", "run.seq.last"},
		note: "approved close, then the console asks for the paper form: the native action ends the run native_gap (no failure)"},
	{id: "close-valid-business-outcome", from: closeNotFound, rules: []string{"run.file.receipt", "run.seq.last"},
		note: "no member with this ID after the look-up: business_outcome member_not_found (no failure), nothing reached the gate"},
	{id: "close-valid-stopped-at-gate", from: closeRefused, rules: []string{"run.file.receipt", "run.cap.approvals", "run.seq.last"},
		note: "the approver refused close-account: stopped_at_gate with its approval_refused failure, nothing clicked"},

	// Wrong pairings of 8.1.
	{id: "close-native-gap-with-failure", from: closeNative, edit: func(t *testing.T, b *confBase, rf *runFiles) {
		f := receipt.Failure{Category: receipt.CategoryApprovalRefused, Reason: "denied"}
		rf.r.Terminal.Failure = &f
	}, codes: []string{"inconsistent"}, rules: []string{"run.file.receipt"}, note: "native_gap carrying a failure (8.1)"},
	{id: "close-business-outcome-with-failure", from: closeNotFound, edit: func(t *testing.T, b *confBase, rf *runFiles) {
		f := receipt.Failure{Category: receipt.CategoryLocatorNotFound, Reason: "locator_not_found"}
		rf.r.Terminal.Failure = &f
	}, codes: []string{"inconsistent"}, rules: []string{"run.file.receipt"}, note: "business_outcome carrying a failure (8.1)"},
	{id: "close-outcome-on-completed", from: closeApproved, edit: func(t *testing.T, b *confBase, rf *runFiles) {
		rf.r.Terminal.Outcome = "member_not_found"
	}, codes: []string{"inconsistent"}, rules: []string{"run.file.receipt"}, note: "terminal.outcome set on a completed run (8.1)"},
	{id: "close-stopped-at-gate-wrong-failure", from: closeRefused, edit: func(t *testing.T, b *confBase, rf *runFiles) {
		f := failedDownload()
		rf.r.Terminal.Failure = &f
	}, codes: []string{"inconsistent"}, rules: []string{"run.file.receipt"}, note: "stopped_at_gate carrying a download_failed failure (8.1)"},

	// Approval records.
	{id: "close-approval-removed", from: closeApproved, edit: func(t *testing.T, b *confBase, rf *runFiles) {
		rf.r.Actions[actionIndex(rf.r, "close-account")].Approval = nil
	}, codes: []string{"sequence"}, rules: []string{"run.seq.actions"}, note: "the passed consequential close-account without its approval record"},
	{id: "close-approval-forged-hash", from: closeApproved, edit: func(t *testing.T, b *confBase, rf *runFiles) {
		closeApproval(rf).ShownHash = canonjson.SumBytes([]byte("forged"))
	}, codes: []string{"inputs"}, rules: []string{"run.cap.approvals"}, note: "shown_hash is not the hash rebuilt from the input records"},
	{id: "close-approval-shown-inputs", from: closeApproved, edit: func(t *testing.T, b *confBase, rf *runFiles) {
		closeApproval(rf).ShownInputs = []string{exampleInputName}
	}, codes: []string{"inputs"}, rules: []string{"run.cap.approvals"}, note: "shown_inputs names member_id, which the close-account milestone does not fill before the gate (ApprovalInputs is empty)"},
	{id: "close-approval-self-approved-forged", from: closeApproved, edit: func(t *testing.T, b *confBase, rf *runFiles) {
		closeApproval(rf).Approver = closeApproval(rf).Requester
	}, codes: []string{"inconsistent"}, rules: []string{"run.file.receipt"}, note: "approver rewritten to the requester while self_approved stays false"},
	{id: "close-approval-on-read-only", from: closeApproved, edit: func(t *testing.T, b *confBase, rf *runFiles) {
		ap := *closeApproval(rf)
		rf.r.Actions[actionIndex(rf.r, "look-up")].Approval = &ap
	}, codes: []string{"inconsistent", "inputs"}, rules: []string{"run.file.receipt", "run.cap.approvals"},
		note: "the close-account approval copied onto the read-only look-up: an approval on an action that is not consequential, and its shown_hash is not the look-up's"},
	{id: "close-business-outcome-undeclared", from: closeNotFound, edit: func(t *testing.T, b *confBase, rf *runFiles) {
		rf.r.Terminal.Outcome = "member_vanished"
	}, codes: []string{"sequence"}, rules: []string{"run.seq.limits"}, note: "business_outcome naming an outcome code the capability does not declare"},
	{id: "close-native-gap-approval-removed", from: closeNative, edit: func(t *testing.T, b *confBase, rf *runFiles) {
		rf.r.Actions[actionIndex(rf.r, "close-account")].Approval = nil
	}, codes: []string{"sequence"}, rules: []string{"run.seq.actions"}, note: "the native_gap run with the approval of the passed close-account removed"},
	{id: "close-stopped-at-gate-approval-forged", from: closeRefused, edit: func(t *testing.T, b *confBase, rf *runFiles) {
		closeApproval(rf).Approved = true
	}, codes: []string{"inconsistent"}, rules: []string{"run.file.receipt"}, note: "the refused approval rewritten to approved while the run stays stopped_at_gate"},
}

func init() { runCases = append(runCases, closeRunCases...) }

// runBase returns the base run of a case: the worked run, a close run
// or a live run.
func (b *confBase) runBase(t *testing.T, from string) *runFiles {
	t.Helper()
	if from == "" {
		return b.run
	}
	if rf, ok := b.closeRuns[from]; ok {
		return rf
	}
	if rf, ok := b.liveRuns[from]; ok {
		return rf
	}
	if rf, ok := b.decoyRuns[from]; ok {
		return rf
	}
	t.Fatal(fmt.Sprintf("no base run %q", from))
	return nil
}
