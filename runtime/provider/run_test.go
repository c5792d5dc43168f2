package provider

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/runtimetest"
)

// approveAll is a host approver that approves everything: the boundary
// must still stop a draft request.
var approveAll = runtime.ApproverFunc(func(_ context.Context, r runtime.ApprovalRequest) (runtime.Approval, error) {
	return runtime.Approval{ActionID: r.ActionID, Approved: true, Approver: "owner"}, nil
})

func runFake(t *testing.T, site string, req *ActionRequest, gates GateSource, opts ...runtime.Option) (*Outcome, *runtimetest.Driver) {
	t.Helper()
	c := composeCap(t, placeholderOrigin)
	d := runtimetest.NewDriver(loadSite(t, site))
	t.Cleanup(func() { d.Close() })
	opts = append([]runtime.Option{runtime.WithDriver(d), runtime.WithRunDir(t.TempDir())}, opts...)
	out, err := Run(ctxT(t), req, c, gates, opts...)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return out, d
}

// Smoke (gate): a draft request stops at the first consequential action's
// gate, never dispatches it, and names the exact decision, even when the
// host's approver approves everything.
func TestDraftStopsAtGate(t *testing.T) {
	c := composeCap(t, placeholderOrigin)
	for _, host := range []struct {
		name string
		opts []runtime.Option
	}{{"no host approver", nil}, {"host approves everything", []runtime.Option{runtime.WithApprover(approveAll)}}} {
		t.Run(host.name, func(t *testing.T) {
			g := gatesWith(t, GateState{GateID: "gate_example_draft_review", Revision: 4, Status: GatePending})
			out, d := runFake(t, "compose.json", draftRequest(t, c), g, host.opts...)
			r := out.Receipt
			if r.StopReason != StopAtGate || out.Result.StoppedAt != "publish-post" {
				t.Fatalf("stop %s at %q, want stopped_at_gate at publish-post", r.StopReason, out.Result.StoppedAt)
			}
			if r.ObservedFacts.FinalActionClicked || out.Result.EffectDispatched {
				t.Error("the final action was dispatched")
			}
			if contains(d.Clicks(), "publish") {
				t.Errorf("clicks %v include publish", d.Clicks())
			}
			if !contains(d.Clicks(), "save-draft") || !r.ObservedFacts.ScreenReached {
				t.Errorf("the draft was not saved: clicks %v", d.Clicks())
			}
			want := "Approve or reject: Publish the post on the synthetic post composer"
			if out.Decision != want {
				t.Errorf("decision %q, want %q", out.Decision, want)
			}
			if strings.Contains(strings.ToLower(out.Decision), "waiting") {
				t.Error("the decision says waiting")
			}
			if !strings.Contains(out.Refusal, "allowed_actions") {
				t.Errorf("refusal %q", out.Refusal)
			}
			if r.AttemptedActionUnit != "draft_until_review_gate" || r.Evidence.Handle != out.Result.ReceiptHash {
				t.Errorf("receipt %+v", r)
			}
			// Vera's own receipt passes the validator.
			cur := GateState{GateID: "gate_example_draft_review", Revision: 4, Status: GatePending}
			if _, err := ValidateReceipt(ctxT(t), mustJSON(t, r), draftRequest(t, c), &cur, &MemoryStore{}); err != nil {
				t.Errorf("Vera's receipt rejected: %v", err)
			}
		})
	}
}

// A draft request whose capability lets publish through (the capability
// "says" go on: the action is allowed in the capability) still stops: the
// request cannot even list it.
func TestDraftCannotAllowConsequential(t *testing.T) {
	c := composeCap(t, placeholderOrigin)
	r := draftRequest(t, c)
	r.WriteScope.AllowedActions = append(r.WriteScope.AllowedActions, "publish-post")
	_, err := Run(ctxT(t), r, c, gatesWith(t, GateState{GateID: "gate_example_draft_review", Revision: 4, Status: GatePending}))
	if !errors.Is(err, ErrInvalidRequest) || !errors.Is(err, CodeActionNotCovered) {
		t.Fatalf("err = %v, want action_not_covered", err)
	}
}

// Smoke (unknown modal): an unrecognized modal gives
// blocked_by_unknown_modal and no state-changing action.
func TestUnknownModal(t *testing.T) {
	c := composeCap(t, placeholderOrigin)
	g := gatesWith(t, GateState{GateID: "gate_example_draft_review", Revision: 5, Status: GateOpen})
	out, d := runFake(t, "compose_survey.json", publishRequest(t, c, 5), g, runtime.WithApprover(approveAll))
	r := out.Receipt
	if r.StopReason != StopBlockedByUnknownModal || !r.ObservedFacts.UnknownModal {
		t.Fatalf("stop %s facts %+v, want blocked_by_unknown_modal", r.StopReason, r.ObservedFacts)
	}
	if r.ObservedFacts.FinalActionClicked || contains(d.Clicks(), "publish") || contains(d.Clicks(), "survey-later") {
		t.Errorf("a state-changing action happened: clicks %v", d.Clicks())
	}
	if out.Decision != "" {
		t.Errorf("decision %q for a modal", out.Decision)
	}
	cur := GateState{GateID: "gate_example_draft_review", Revision: 5, Status: GateOpen}
	if _, err := ValidateReceipt(ctxT(t), mustJSON(t, r), publishRequest(t, c, 5), &cur, &MemoryStore{}); err != nil {
		t.Errorf("Vera's modal receipt rejected: %v", err)
	}
}

// After approval (a new open revision) the re-issued request completes.
func TestPublishAfterApproval(t *testing.T) {
	c := composeCap(t, placeholderOrigin)
	g := gatesWith(t, GateState{GateID: "gate_example_draft_review", Revision: 5, Status: GateOpen})
	out, d := runFake(t, "compose.json", publishRequest(t, c, 5), g)
	r := out.Receipt
	if r.StopReason != StopCompleted || !r.ObservedFacts.FinalActionClicked || !contains(d.Clicks(), "publish") {
		t.Fatalf("stop %s facts %+v clicks %v", r.StopReason, r.ObservedFacts, d.Clicks())
	}
	ap := out.Result.Actions[len(out.Result.Actions)-1].Approval
	if ap == nil || ap.Approver != "gate:gate_example_draft_review@5" {
		t.Errorf("approval %+v", ap)
	}
}

// The host approver is still asked for an allowed action and can deny.
func TestHostApproverDenies(t *testing.T) {
	c := composeCap(t, placeholderOrigin)
	deny := runtime.ApproverFunc(func(_ context.Context, r runtime.ApprovalRequest) (runtime.Approval, error) {
		return runtime.Approval{ActionID: r.ActionID, Approved: false, Approver: "owner"}, nil
	})
	g := gatesWith(t, GateState{GateID: "gate_example_draft_review", Revision: 5, Status: GateOpen})
	out, d := runFake(t, "compose.json", publishRequest(t, c, 5), g, runtime.WithApprover(deny))
	if out.Receipt.StopReason != StopAtGate || contains(d.Clicks(), "publish") || out.Refusal != "" {
		t.Fatalf("stop %s refusal %q clicks %v", out.Receipt.StopReason, out.Refusal, d.Clicks())
	}
}

// A gate closed (or revised) while the run is under way stops the run at
// the consequential action: the boundary asks the gate source again.
func TestGateChangedDuringRun(t *testing.T) {
	c := composeCap(t, placeholderOrigin)
	g := gatesWith(t, GateState{GateID: "gate_example_draft_review", Revision: 5, Status: GateOpen})
	hooks := &runtime.Hooks{ActionStart: func(i runtime.ActionStartInfo) {
		if i.ID == "save-draft" {
			if err := g.Set(GateState{GateID: "gate_example_draft_review", Revision: 6, Status: GatePending}); err != nil {
				t.Error(err)
			}
		}
	}}
	out, d := runFake(t, "compose.json", publishRequest(t, c, 5), g, runtime.WithHooks(hooks))
	if out.Receipt.StopReason != StopAtGate || contains(d.Clicks(), "publish") {
		t.Fatalf("stop %s clicks %v", out.Receipt.StopReason, d.Clicks())
	}
	if !strings.Contains(out.Refusal, string(CodeGateStale)) {
		t.Errorf("refusal %q, want gate_stale", out.Refusal)
	}
}

// Refusals before any browser call: stale binding, gate not open, unknown
// gate. The driver is never touched.
func TestRunRefusals(t *testing.T) {
	c := composeCap(t, placeholderOrigin)
	for _, tc := range []struct {
		name string
		req  *ActionRequest
		gate GateState
		want Code
	}{
		{"stale draft binding", draftRequest(t, c), GateState{GateID: "gate_example_draft_review", Revision: 5, Status: GatePending}, CodeGateStale},
		{"write with pending gate", publishRequest(t, c, 5), GateState{GateID: "gate_example_draft_review", Revision: 5, Status: GatePending}, CodeGateNotOpen},
		{"write with stale revision", publishRequest(t, c, 4), GateState{GateID: "gate_example_draft_review", Revision: 5, Status: GateOpen}, CodeGateStale},
		{"unknown gate", draftRequest(t, c), GateState{GateID: "another_gate", Revision: 1, Status: GateOpen}, CodeGateUnknown},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := runtimetest.NewDriver(loadSite(t, "compose.json"))
			defer d.Close()
			_, err := Run(ctxT(t), tc.req, c, gatesWith(t, tc.gate), runtime.WithDriver(d), runtime.WithRunDir(t.TempDir()))
			if !errors.Is(err, ErrInvalidRequest) || !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %s", err, tc.want)
			}
			if n := len(d.Calls()); n != 0 {
				t.Errorf("%d driver calls before the refusal", n)
			}
		})
	}
}

func TestRunMisuse(t *testing.T) {
	c := composeCap(t, placeholderOrigin)
	//lint:ignore SA1012 testing the nil-context guard
	if _, err := Run(nil, draftRequest(t, c), c, &Gates{}); !errors.Is(err, ErrInvalidArgument) { //nolint:staticcheck
		t.Errorf("nil ctx: %v", err)
	}
	if _, err := Run(ctxT(t), nil, c, &Gates{}); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("nil request: %v", err)
	}
	if _, err := Run(ctxT(t), draftRequest(t, c), nil, &Gates{}); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("nil capability: %v", err)
	}
	if _, err := Run(ctxT(t), draftRequest(t, c), c, nil); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("nil gates: %v", err)
	}
}
