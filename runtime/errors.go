package runtime

import (
	"errors"
	"fmt"
	"strings"

	"github.com/vera-run/vera/capability"
)

// Errors for misuse. Execute returns them before it touches the driver;
// no evidence is written for a refused run.
var (
	// ErrNotExecutable: the capability's state does not allow a run (a
	// scaffold or a draft, or an unknown state).
	ErrNotExecutable = errors.New("runtime: capability is not executable in its state")
	// ErrInvalidCapability: the capability breaks the contract. The error is
	// a *[CapabilityError] whose Problems list every problem.
	ErrInvalidCapability = errors.New("runtime: invalid capability")
	// ErrInputs: inputs are missing, unknown or mistyped. The error is an
	// *[InputError] listing every problem.
	ErrInputs = errors.New("runtime: invalid inputs")
	// ErrInvalidArgument: a nil context, or a nil argument a function
	// needs. Execute and [Preflight] return it for a nil ctx; drivers
	// (runtime/browser, runtime/runtimetest) wrap it for a nil ctx or a nil
	// element. It is never a panic.
	ErrInvalidArgument = errors.New("runtime: invalid argument")
	// ErrNoDriver: Execute was called without [WithDriver].
	ErrNoDriver = errors.New("runtime: no driver")
	// ErrInvalidProposal: a recovery proposal breaks the recovery rules. The
	// error is a *[ProposalError].
	ErrInvalidProposal = errors.New("runtime: invalid recovery proposal")
	// ErrRunDir: the run folder ([WithRunDir], or the default) was refused
	// before the run: inside a Git work tree without
	// [WithAllowGitWorkTree], a dangling symbolic link or a symbolic link
	// as the folder itself, a regular file (or another non-directory) as
	// the folder or an ancestor, no permission to create entries, or no
	// fresh run directory could be reserved or written. The error wraps a
	// *[receipt.RunDirError] whose Check names the failed check. The
	// driver was not called and nothing was written or left behind.
	ErrRunDir = errors.New("runtime: run folder refused")
	// ErrEvidence: the run finished but its evidence could not be written
	// into the reserved run directory (a full disk, a directory removed
	// during the run). Execute returns the Result together with this
	// error; the Result is then never Clean, and its RunDir names the
	// incomplete run directory (no run.lock.json) or is empty when nothing
	// was written.
	ErrEvidence = errors.New("runtime: evidence not written")
	// ErrCanceled is wrapped, together with the context's error, when the
	// caller's context ended the run. Execute returns the Result (state
	// failed, category canceled) together with this error.
	ErrCanceled = errors.New("runtime: run canceled by caller")
)

// CapabilityError reports a capability Execute refused to run. It wraps
// the [capability.ErrorList], so errors.Is(err, capability.ErrInvalid) and
// errors.As(err, &list) work.
type CapabilityError struct {
	Problems capability.ErrorList
}

// Error implements error.
func (e *CapabilityError) Error() string {
	return "runtime: invalid capability: " + e.Problems.Error()
}

// Is matches [ErrInvalidCapability].
func (e *CapabilityError) Is(target error) bool { return target == ErrInvalidCapability }

// Unwrap returns the problem list.
func (e *CapabilityError) Unwrap() error { return e.Problems }

// Input problem codes reported in [InputError].
const (
	InputMissing   = "input_missing"    // a required input was not supplied
	InputUnknown   = "input_unknown"    // a supplied input is not declared
	InputType      = "input_type"       // the Go value does not fit the declared type
	InputEnum      = "input_enum"       // an enum value outside the declared values
	InputRange     = "input_range"      // below minimum or above maximum (or a limit below 1)
	InputFormat    = "input_format"     // a malformed date or invalid UTF-8
	InputLength    = "input_length"     // a string longer than max_length
	InputNotFinite = "input_not_finite" // NaN or infinity
)

// InputProblem is one problem with one input. It never holds the value.
type InputProblem struct {
	Name    string `json:"name"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

// InputError lists every input problem, sorted by name then code. Values
// are never echoed, secret or not.
type InputError struct {
	Problems []InputProblem
}

// Error implements error.
func (e *InputError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "runtime: %d input problem(s)", len(e.Problems))
	for _, p := range e.Problems {
		fmt.Fprintf(&b, "; %s: %s [%s]", p.Name, p.Message, p.Code)
	}
	return b.String()
}

// Is matches [ErrInputs].
func (e *InputError) Is(target error) bool { return target == ErrInputs }

// Has reports whether the error lists code for the named input.
func (e *InputError) Has(name, code string) bool {
	for _, p := range e.Problems {
		if p.Name == name && p.Code == code {
			return true
		}
	}
	return false
}

// Proposal problem codes reported in [ProposalError].
const (
	ProposalUnknownTarget  = "proposal_unknown_target"   // no such action or field
	ProposalConsequential  = "proposal_consequential"    // consequential actions are never recovered
	ProposalNoLocator      = "proposal_no_locator"       // the action has no locator to recover
	ProposalChoice         = "proposal_choice"           // not exactly one of locator / use_resolved_action_root
	ProposalBadLocator     = "proposal_bad_locator"      // the candidate breaks a static locator rule
	ProposalCSSNotField    = "proposal_css_not_field"    // CSS is only allowed for an extraction field
	ProposalRootNotField   = "proposal_root_not_field"   // use_resolved_action_root needs a field target
	ProposalTextTooLong    = "proposal_text_too_long"    // rationale or uncertainty beyond MaxProposalText
	ProposalRedactedMarker = "proposal_redaction_marker" // the discovery redaction marker used literally
)

// ProposalError reports a recovery proposal the executor refused.
type ProposalError struct {
	Code    string
	Message string
}

// Error implements error.
func (e *ProposalError) Error() string {
	return "runtime: invalid recovery proposal: " + e.Message + " [" + e.Code + "]"
}

// Is matches [ErrInvalidProposal].
func (e *ProposalError) Is(target error) bool { return target == ErrInvalidProposal }
