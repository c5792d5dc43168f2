package provider

import (
	"fmt"

	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
)

// StopReasonFor maps a Vera run's terminal state, failure and dispatch
// fact onto the closed stop-reason enum. It is the one table of FORMAT.md
// ("Stop reasons"):
//
//	completed                          -> completed
//	business_outcome (any code)        -> completed (facts.business_outcome names it)
//	stopped_at_gate (no_approver, denied, approver_error)
//	                                   -> stopped_at_gate
//	native_gap                         -> stopped_at_gate (a person does the native step)
//	blocked_by_unknown_modal (unknown_modal, native_dialog)
//	                                   -> blocked_by_unknown_modal, or failed when a
//	                                      consequential input was already dispatched
//	recovery_requested                 -> failed (a locator needs recovery)
//	failed, reason unknown_modal or native_dialog, nothing dispatched
//	                                   -> blocked_by_unknown_modal
//	failed, effect_unconfirmed (outcome_unconfirmed_after_effect)
//	                                   -> failed (facts: final_action_clicked, effect_unconfirmed)
//	failed, any other category/reason  -> failed
//	any other state                    -> failed
//
// "blocked_by_unknown_modal" promises that no state-changing action was
// dispatched; a run that dispatched one and was then blocked reports
// failed with the facts, never a cleaner reason than the truth.
func StopReasonFor(state runtime.TerminalState, f *runtime.Failure, dispatched bool) StopReason {
	modal := f != nil && (f.Reason == string(runtime.ReasonUnknownModal) || f.Reason == string(runtime.ReasonNativeDialog))
	switch state {
	case receipt.TerminalCompleted, receipt.TerminalBusinessOutcome:
		return StopCompleted
	case receipt.TerminalStoppedAtGate, receipt.TerminalNativeGap:
		return StopAtGate
	case receipt.TerminalBlockedByUnknownModal:
		if dispatched {
			return StopFailed
		}
		return StopBlockedByUnknownModal
	case receipt.TerminalFailed:
		if modal && !dispatched {
			return StopBlockedByUnknownModal
		}
	}
	return StopFailed
}

// NewReceipt writes the computer-use receipt of a finished run for req:
// attempted_action_unit echoes req.ActionUnit, the gate binding is echoed,
// stop_reason comes from [StopReasonFor], observed_facts are facts of res
// only, evidence is the run receipt's hash, the idempotency key is
// [RequestHash] of req and the session reference is the run id. It fails
// with [ErrNoEvidence] when res has no receipt hash.
func NewReceipt(req *ActionRequest, res *runtime.Result) (*Receipt, error) {
	if req == nil || res == nil {
		return nil, fmt.Errorf("%w: nil request or result", ErrInvalidArgument)
	}
	if res.ReceiptHash == "" {
		return nil, ErrNoEvidence
	}
	key, err := RequestHash(req)
	if err != nil {
		return nil, err
	}
	facts := ObservedFacts{
		ScreenReached:      len(res.Milestones) > 0,
		FinalActionClicked: res.EffectDispatched,
		EffectUnconfirmed:  res.Unconfirmed,
		TerminalState:      string(res.State),
		BusinessOutcome:    res.Outcome,
		StoppedAtAction:    res.StoppedAt,
		ExecutionMode:      string(res.Mode),
	}
	if f := res.Failure; f != nil {
		facts.FailureCategory, facts.FailureReason = string(f.Category), f.Reason
		facts.UnknownModal = f.Reason == string(runtime.ReasonUnknownModal) || f.Reason == string(runtime.ReasonNativeDialog)
	}
	for _, a := range res.Actions {
		if a.Status == receipt.ActionPassed {
			facts.ActionsSucceeded++
		}
	}
	r := &Receipt{
		SchemaVersion:       SchemaReceipt,
		GoalID:              req.GoalID,
		TodoID:              req.TodoID,
		ProviderID:          req.ProviderID,
		AttemptedActionUnit: req.ActionUnit,
		StopReason:          StopReasonFor(res.State, res.Failure, res.EffectDispatched),
		ObservedFacts:       facts,
		Evidence: Evidence{
			HandleKind:            HandleKindRunReceipt,
			Handle:                res.ReceiptHash,
			RawEvidenceCopied:     false,
			PrivateSourceRedacted: true,
		},
		IdempotencyKey:   key,
		SessionReference: res.RunID,
	}
	if b := req.GateBinding; b != nil {
		cp := *b
		r.GateBinding = &cp
	}
	return r, nil
}
