package provider

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"sync"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/runtime"
)

// BoundaryApprover is the approver identity the boundary records when it
// refuses a consequential action on its own (not allowed, not covered, the
// gate not open at the current revision).
const BoundaryApprover = "provider_boundary"

// Outcome is what [Run] returns: the computer-use receipt, the runtime's
// full result (for the host's own logs; never for the reducer) and, when
// the run stopped where a person must act, the exact decision.
type Outcome struct {
	Receipt *Receipt
	Result  *runtime.Result
	// Decision names the exact human decision when the receipt's
	// stop_reason is stopped_at_gate: "Approve or reject: <action intent>
	// on <site>" at an approval gate, "Do by hand: <native step> on
	// <site>" at a native step. Empty otherwise.
	Decision string
	// Refusal says why the boundary refused the consequential action the
	// run stopped at, when it did ("" when the host's approver decided or
	// nothing was refused).
	Refusal string
}

// Run executes req with c through runtime.Execute and writes its receipt.
//
// Before the first browser call it checks the request ([ActionRequest.Check])
// and, when the request has a gate binding, the gate's current state from
// gates (at the current revision; open for external_write and
// credential_use). It then runs c with req.Inputs and req.Secrets and with
// the boundary's approver put in front of the host's (the last
// runtime.WithApprover in opts, if any): a consequential action runs only
// when it is in write_scope.allowed_actions, its class is covered and not
// forbidden, the request's class is gated and the gate is still open at
// the bound revision when the action is reached; then the host's approver,
// if there is one, is asked too (without one, the open gate is the
// approval). Otherwise the boundary denies it and the run stops at that
// gate with nothing dispatched, whatever the host's approver would say.
//
// opts must give the run a driver and a run directory (the receipt points
// at the run's evidence; without a written run receipt Run fails with
// [ErrNoEvidence] and returns the Outcome with the Result). Refusals are
// *[ProblemError] wrapping [ErrInvalidRequest]; misuse wraps
// [ErrInvalidArgument]; runtime errors are returned as Execute returns them.
func Run(ctx context.Context, req *ActionRequest, c *capability.Capability, gates GateSource, opts ...runtime.Option) (*Outcome, error) {
	if ctx == nil {
		return nil, fmt.Errorf("%w: nil context", ErrInvalidArgument)
	}
	if req == nil || c == nil {
		return nil, fmt.Errorf("%w: nil request or capability", ErrInvalidArgument)
	}
	if err := req.Check(c); err != nil {
		return nil, err
	}
	if err := req.CheckGate(ctx, gates); err != nil {
		return nil, err
	}
	b := &boundary{req: req, cap: c, gates: gates, host: runtime.ApproverOf(opts...)}
	inputs := make(map[string]any, len(req.Inputs)+len(req.Secrets))
	maps.Copy(inputs, req.Inputs)
	maps.Copy(inputs, req.Secrets)
	runOpts := append(slices.Clip(opts), runtime.WithApprover(b))
	res, err := runtime.Execute(ctx, c, inputs, runOpts...)
	out := &Outcome{Result: res}
	if err != nil {
		return out, err
	}
	out.Receipt, err = NewReceipt(req, res)
	if err != nil {
		return out, err
	}
	out.Refusal = b.refusalFor(res.StoppedAt)
	if out.Receipt.StopReason == StopAtGate {
		out.Decision = decision(c, res)
	}
	return out, nil
}

// decision names the exact human decision of a run stopped at a gate.
func decision(c *capability.Capability, res *runtime.Result) string {
	var act *capability.Action
	for _, a := range c.Actions {
		if a.ID == res.StoppedAt {
			act = a
			break
		}
	}
	site := c.Site.Name
	switch {
	case act == nil:
		return "Review the stopped run of " + c.Name + " on " + site
	case res.State == runtime.StateNativeGap:
		gap := res.NativeGap
		if gap == "" {
			gap = act.Intent
		}
		return "Do by hand: " + gap + " on " + site
	}
	return "Approve or reject: " + act.Intent + " on " + site
}

// boundary is the approver Run puts in front of the host's.
type boundary struct {
	req   *ActionRequest
	cap   *capability.Capability
	gates GateSource
	host  runtime.Approver

	mu       sync.Mutex
	refusals map[string]string // action id -> why the boundary refused it
}

func (b *boundary) refusalFor(actionID string) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.refusals[actionID]
}

// Approve applies the request's bounds, then the gate, then the host.
func (b *boundary) Approve(ctx context.Context, ar runtime.ApprovalRequest) (runtime.Approval, error) {
	if why := b.bounds(ar); why != "" {
		b.mu.Lock()
		if b.refusals == nil {
			b.refusals = make(map[string]string)
		}
		b.refusals[ar.ActionID] = why
		b.mu.Unlock()
		return runtime.Approval{ActionID: ar.ActionID, Approved: false, Approver: BoundaryApprover}, nil
	}
	gb := b.req.GateBinding
	cur, err := b.gates.GateState(ctx, gb.GateID)
	if err != nil {
		return runtime.Approval{}, fmt.Errorf("gate state: %w", err)
	}
	var ps problems
	checkBindingAgainst(gb, cur, b.req.EffectClass, &ps)
	if len(ps) > 0 {
		b.mu.Lock()
		if b.refusals == nil {
			b.refusals = make(map[string]string)
		}
		b.refusals[ar.ActionID] = string(ps[0].Code) + ": " + ps[0].Message
		b.mu.Unlock()
		return runtime.Approval{ActionID: ar.ActionID, Approved: false, Approver: BoundaryApprover}, nil
	}
	if b.host != nil {
		return b.host.Approve(ctx, ar)
	}
	return runtime.Approval{ActionID: ar.ActionID, Approved: true,
		Approver: "gate:" + gb.GateID + "@" + strconv.FormatInt(gb.Revision, 10)}, nil
}

// bounds returns why the request does not let the action run, or "".
func (b *boundary) bounds(ar runtime.ApprovalRequest) string {
	if ar.ExecutionHash != b.req.Capability.ExecutionHash || ar.CapabilityID != b.req.Capability.ID {
		return "the action belongs to another capability than the request's"
	}
	if !slices.Contains(b.req.WriteScope.AllowedActions, ar.ActionID) {
		return "action " + ar.ActionID + " is not in write_scope.allowed_actions"
	}
	class := ClassOfEffect(ar.Effect)
	for _, a := range b.cap.Actions {
		if a.ID == ar.ActionID {
			class = ClassOfAction(b.cap, a)
			break
		}
	}
	switch {
	case !b.req.EffectClass.Covers(class):
		return "effect_class " + string(b.req.EffectClass) + " does not cover " + string(class)
	case slices.Contains(b.req.WriteScope.ForbiddenEffectClasses, class):
		return string(class) + " is a forbidden effect class"
	case !b.req.EffectClass.Gated() || b.req.GateBinding == nil:
		return "a consequential action needs a gated request"
	}
	return ""
}

// CheckGate checks the request's gate binding against the gate's current
// state from gates: at the current revision (gate_stale, gate_mismatch),
// known to the source (gate_unknown), and open for external_write and
// credential_use (gate_not_open). A request without a binding passes (its
// class needs none, which [ActionRequest.Validate] checks). Refusals are
// *[ProblemError] wrapping [ErrInvalidRequest]; a nil gates for a bound
// request wraps [ErrInvalidArgument]; other gate-source errors are
// returned wrapped.
func (r *ActionRequest) CheckGate(ctx context.Context, gates GateSource) error {
	if ctx == nil || r == nil {
		return fmt.Errorf("%w: nil context or request", ErrInvalidArgument)
	}
	if r.GateBinding == nil {
		return nil
	}
	if gates == nil {
		return fmt.Errorf("%w: a gate-bound request needs a gate source", ErrInvalidArgument)
	}
	var ps problems
	cur, err := gates.GateState(ctx, r.GateBinding.GateID)
	switch {
	case errors.Is(err, ErrGateNotFound):
		ps.add("gate_binding.gate_id", CodeGateUnknown, "the gate source does not know gate %s", r.GateBinding.GateID)
	case err != nil:
		return fmt.Errorf("provider: gate state: %w", err)
	default:
		checkBindingAgainst(r.GateBinding, cur, r.EffectClass, &ps)
	}
	return ps.err(ErrInvalidRequest)
}
