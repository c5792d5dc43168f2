package grant

import (
	"errors"
	"fmt"
)

// The sentinel errors of the package. Every error it returns wraps one of
// them, so callers test with errors.Is; the concrete types below carry
// the details for errors.As.
var (
	// ErrCeiling is wrapped by every refusal of a ceiling's own
	// configuration ([ParseEnv], [FromEnv], [Ceiling.Validate]): bad JSON,
	// a relative or unclean root, a duplicate entry, a malformed origin,
	// endpoint or variable name.
	ErrCeiling = errors.New("grant: invalid ceiling")
	// ErrNotGranted is wrapped when browser automation is attempted with
	// no grant (and no auto-grant ceiling). The message says what to
	// grant.
	ErrNotGranted = errors.New("grant: browser automation is not granted")
	// ErrExceedsCeiling is wrapped by every [*ExceedError]: the grant asks
	// for more than the ceiling allows.
	ErrExceedsCeiling = errors.New("grant: exceeds the ceiling")
	// ErrInvalidGrant is wrapped by every refusal of a grant document
	// ([Parse], [Grant.Validate]) or commitment ([Commitment.Validate]).
	ErrInvalidGrant = errors.New("grant: invalid grant")
	// ErrNotCovered is wrapped when a grant does not cover the run it is
	// used for: another capability (execution hash), an origin it does not
	// list, or another browser target.
	ErrNotCovered = errors.New("grant: does not cover this run")
)

// EnvError is a ceiling environment variable that does not parse. It
// wraps [ErrCeiling].
type EnvError struct {
	// Var is the variable's name, e.g. "VERA_BROWSER_EXECUTABLE_ROOTS_JSON".
	Var string
	// Reason says what is wrong. It never repeats the value.
	Reason string
}

func (e *EnvError) Error() string { return fmt.Sprintf("%v: %s: %s", ErrCeiling, e.Var, e.Reason) }

// Unwrap returns [ErrCeiling].
func (e *EnvError) Unwrap() error { return ErrCeiling }

// Field names an [ExceedError] reports.
const (
	FieldEnabled    = "enabled"
	FieldExecutable = "executable"
	FieldEndpoint   = "endpoint"
	FieldOrigin     = "origin"
	FieldEnv        = "env"
	FieldNetwork    = "network_class"
)

// ExceedError is one member of a requested grant that the ceiling does
// not allow. It wraps [ErrExceedsCeiling].
type ExceedError struct {
	// Field is one of the Field constants.
	Field string
	// Value is the refused value (a path, endpoint, origin, variable name
	// or network class; never a secret).
	Value string
	// Reason says what the ceiling allows instead.
	Reason string
}

func (e *ExceedError) Error() string {
	if e.Value == "" {
		return fmt.Sprintf("%v: %s: %s", ErrExceedsCeiling, e.Field, e.Reason)
	}
	return fmt.Sprintf("%v: %s %q: %s", ErrExceedsCeiling, e.Field, e.Value, e.Reason)
}

// Unwrap returns [ErrExceedsCeiling].
func (e *ExceedError) Unwrap() error { return ErrExceedsCeiling }
