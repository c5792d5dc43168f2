package runtime

import (
	"time"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/receipt"
)

// Terminal states and failure categories are the receipt's, re-exported so
// hosts need only this package.
type (
	// TerminalState is how a run ended.
	TerminalState = receipt.TerminalState
	// Category is a stable failure category.
	Category = receipt.Category
	// Failure is a sanitized failure: category, reason code, detail hash.
	Failure = receipt.Failure
	// RecoveryTarget is the exact action or extraction field to recover.
	RecoveryTarget = receipt.RecoveryTarget
)

// Result is the typed outcome of [Execute]. Terminal states are data: a
// business outcome, a gate, a native gap, a recovery request and a failed
// run all return a Result and a nil error.
type Result struct {
	// RunID identifies the run and its evidence.
	RunID string
	// State is the terminal state.
	State TerminalState
	// Outcome is the business outcome code when State is business_outcome.
	Outcome string
	// Failure is set when State is failed, for recovery requests (the
	// failure that triggered them), for blocked_by_unknown_modal (reason
	// unknown_modal or native_dialog) and for stopped_at_gate (category
	// approval_refused, reason no_approver, denied or approver_error).
	Failure *Failure
	// Cause is the local, sanitized explanation of the failure when the
	// runtime has one (a locator miss, an element that never became
	// interactable): see [Cause]. It is never part of any evidence file.
	Cause *Cause `json:"-"`
	// StoppedAt is the id of the action the run stopped at, if any.
	StoppedAt string
	// NativeGap describes the native step handed to the operator.
	NativeGap string

	// ModelOutputs are the values the host model may see: model_and_artifact
	// outputs in full and model_summary outputs as summaries (an
	// [OutputSummary] for records and record sets, the text itself for a
	// text output). artifact_only values never appear here. Only produced
	// outputs are listed.
	ModelOutputs map[string]any
	// ArtifactOutputs names the produced artifact_only outputs with their
	// counts; the values stay in outputs.json.
	ArtifactOutputs map[string]int

	// Actions are the per-action outcomes in execution order.
	Actions []ActionOutcome
	// Milestones are the milestone visits in execution order.
	Milestones []receipt.MilestoneRecord

	// RecoveryRequest is set when State is recovery_requested.
	RecoveryRequest *RecoveryRequest
	// ProposalOutcome is the outcome of a supplied recovery proposal:
	// "recovered" or "failed"; "" without a proposal.
	ProposalOutcome string
	// Recovered is true when a recovery proposal made its target succeed.
	Recovered bool
	// LocatorChangesDuringRun is true when a recovery proposal replaced a
	// locator in this run.
	LocatorChangesDuringRun bool
	// HandedOff is true when a person took over the page.
	HandedOff bool
	// Clean is true for a completed run from the declared start with no
	// recovery, handoff, locator change or blocked request: the only kind
	// that can count toward validation.
	Clean bool

	// EffectDispatched is true when the input of at least one consequential
	// action (its click, key press, check or download click) was sent to
	// the page, whatever happened after. Such a run may have had its
	// effect even when it failed: a host must not retry it blindly.
	EffectDispatched bool
	// Unconfirmed is true when the run failed after a consequential
	// action was dispatched and before its outcome was confirmed (category
	// effect_unconfirmed, reason outcome_unconfirmed_after_effect; State
	// is failed). The effect may or may not have happened.
	Unconfirmed bool

	// Origins are the query-free origins the page and its frames reached,
	// sorted.
	Origins []string
	// BlockedRequests counts the requests the browser blocked by origin
	// scope. A run with any blocked request is never Clean.
	BlockedRequests int

	// Mode is the execution mode the driver reported.
	Mode ExecutionMode
	// Started and Finished bound the run.
	Started, Finished time.Time

	// RunDir is the run directory holding the evidence, when evidence was
	// written. With [ErrEvidence] it is the incomplete run directory (no
	// run.lock.json), or empty when nothing could be written.
	RunDir string
	// ReceiptHash is the sha256 of run.receipt.json, when written.
	ReceiptHash string
}

// Duration is Finished minus Started.
func (r *Result) Duration() time.Duration { return r.Finished.Sub(r.Started) }

// OutputSummary is what a model_summary record or record set shows the
// model: its kind, how many records and the declared field names, never a
// value.
type OutputSummary struct {
	Kind   string   `json:"kind"`
	Count  int      `json:"count"`
	Fields []string `json:"fields,omitempty"`
}

// ActionOutcome is one executed action.
type ActionOutcome struct {
	ID        string
	Milestone string
	Visit     int
	Operation string
	Effect    string
	Status    receipt.ActionStatus
	// LocatorIndex is the winning candidate's index, -1 when none.
	LocatorIndex int
	// LocatorMatches is the number of elements each candidate matched in
	// the winning resolution, from candidate 0 to the winner (nil when none
	// won); the receipt's locator_matches.
	LocatorMatches []int
	// Tried explains each candidate tried before the winner (or every
	// candidate when none won).
	Tried []locator.Attempt
	// Postcondition is "verified", "failed" or "" when not reached.
	Postcondition string
	Failure       *Failure
	// Cause is the local explanation of Failure, when there is one; never
	// evidence (see [Cause]).
	Cause    *Cause `json:"-"`
	Duration time.Duration
	// Records is the number of records an extraction added.
	Records int
	// Recovered marks an action that succeeded through a recovery proposal.
	Recovered bool
	// Approval is the action-time approval of a consequential action.
	Approval *receipt.ApprovalProof
	// Download is the verified download of a download action.
	Download *receipt.DownloadProof
	// Dispatched marks a consequential action whose input was sent to the
	// page (see [Result.EffectDispatched]).
	Dispatched bool
}

// RecoveryRequest is the model-visible request for a locator recovery. It
// carries the unchanged action contract, the exact target, where the page
// was (origin and query-free path) and the failure hash, never an input
// value.
type RecoveryRequest struct {
	Target RecoveryTarget `json:"target"`
	// Milestone is the milestone of the action.
	Milestone string `json:"milestone"`
	// Action is the unchanged action contract, as in the capability
	// (templates unsubstituted).
	Action capability.Action `json:"action"`
	// ContractHash is the sha256 of the canonical JSON of the action.
	ContractHash string `json:"contract_hash"`
	Origin       string `json:"origin"`
	Path         string `json:"path"`
	// Tried explains why each candidate failed.
	Tried       []locator.Attempt `json:"tried,omitempty"`
	FailureHash string            `json:"failure_hash"`
}
