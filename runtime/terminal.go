package runtime

import "github.com/vera-run/vera/receipt"

// The terminal states of a run, re-exported from package receipt so a host
// can branch on Result.State with this package alone.
const (
	StateCompleted             = receipt.TerminalCompleted
	StateBusinessOutcome       = receipt.TerminalBusinessOutcome
	StateStoppedAtGate         = receipt.TerminalStoppedAtGate
	StateBlockedByUnknownModal = receipt.TerminalBlockedByUnknownModal
	StateNativeGap             = receipt.TerminalNativeGap
	StateRecoveryRequested     = receipt.TerminalRecoveryRequested
	StateFailed                = receipt.TerminalFailed
)
