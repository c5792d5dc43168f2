package runtime

import (
	"time"

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
)

// Result is the typed outcome of [Execute]. Terminal states are data: a
// business outcome, a gate, a native gap, a recovery request and a failed
// run all return a Result and a nil error.
type Result struct {
	// State is the terminal state.
	State TerminalState
	// Outcome is the business outcome code when State is business_outcome.
	Outcome string
	// Failure is set when State is failed (and for recovery requests, the
	// failure that triggered them).
	Failure *Failure
	// StoppedAt is the id of the action the run stopped at, if any.
	StoppedAt string
	// NativeGap describes the native step handed to the operator.
	NativeGap string

	// ModelOutputs are the values the host model may see: model_and_artifact
	// outputs in full and model_summary outputs as summaries. artifact_only
	// values never appear here.
	ModelOutputs map[string]any
	// ArtifactOutputs names the artifact_only outputs with their counts; the
	// values stay in outputs.json.
	ArtifactOutputs map[string]int

	// Actions are the per-action outcomes in execution order.
	Actions []ActionOutcome
	// Milestones are the milestone visits in execution order.
	Milestones []receipt.MilestoneRecord

	// RecoveryRequest is set when State is recovery_requested.
	RecoveryRequest *RecoveryRequest
	// Recovered is true when a recovery proposal was used.
	Recovered bool
	// HandedOff is true when a person took over the page.
	HandedOff bool
	// Clean is true for a completed run from the declared start with no
	// recovery, handoff or locator change: the only kind that can count
	// toward validation.
	Clean bool

	// Mode is the execution mode the driver reported.
	Mode ExecutionMode
	// Started and Finished bound the run.
	Started, Finished time.Time

	// RunDir is the run directory holding the evidence, when evidence was
	// written.
	RunDir string
	// ReceiptHash is the sha256 of run.receipt.json, when written.
	ReceiptHash string
}

// Duration is Finished minus Started.
func (r *Result) Duration() time.Duration { return r.Finished.Sub(r.Started) }

// ActionOutcome is one executed action.
type ActionOutcome struct {
	ID        string
	Milestone string
	Status    receipt.ActionStatus
	// LocatorIndex is the winning candidate's index, -1 when none.
	LocatorIndex int
	// Tried explains each candidate tried before the winner ("no_match",
	// "ambiguous:3"), for the receipt and for debugging.
	Tried    []string
	Failure  *Failure
	Duration time.Duration
	Records  int
}

// RecoveryRequest is the model-visible request for a locator recovery. It
// carries the unchanged action contract, the exact target, where the page
// was (origin and query-free path) and the failure hash, never an input
// value.
type RecoveryRequest struct {
	Target receipt.RecoveryTarget `json:"target"`
	// Action is the unchanged action contract, as in the capability.
	Action any `json:"action"`
	// ContractHash is the sha256 of the canonical JSON of the action.
	ContractHash string `json:"contract_hash"`
	Origin       string `json:"origin"`
	Path         string `json:"path"`
	FailureHash  string `json:"failure_hash"`
}
