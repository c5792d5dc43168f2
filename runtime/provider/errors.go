package provider

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Sentinel errors. Every error of the package wraps one of them; a
// [*ProblemError] also matches each [Code] it carries with errors.Is.
var (
	// ErrInvalidArgument is misuse: a nil context, request, capability,
	// gate source or store, or a bad option value.
	ErrInvalidArgument = errors.New("provider: invalid argument")
	// ErrInvalidRequest is wrapped by every refusal of an action request
	// (structure, capability binding, gate binding).
	ErrInvalidRequest = errors.New("provider: action request refused")
	// ErrInvalidReceipt is wrapped by every rejection of a receipt.
	ErrInvalidReceipt = errors.New("provider: receipt rejected")
	// ErrNoEvidence: the run ended without a written run receipt, so no
	// computer-use receipt can point at its evidence (give the run a
	// runtime.WithRunDir).
	ErrNoEvidence = errors.New("provider: the run wrote no evidence")
	// ErrStore is wrapped by idempotency store failures (I/O, a corrupt
	// entry), never by a replay.
	ErrStore = errors.New("provider: idempotency store")
)

// Code is a stable machine-readable problem code. A Code is an error so a
// caller can ask errors.Is(err, provider.CodeGateStale).
type Code string

// Error returns the code itself.
func (c Code) Error() string { return string(c) }

// The problem codes. Request codes refuse an action request; receipt
// codes reject a receipt. Codes are shared where the rule is the same
// (the gate codes).
const (
	// Shared structure.
	CodeMalformed     Code = "malformed"      // not one JSON object, a duplicate member, over the size or depth limit
	CodeSchemaVersion Code = "schema_version" // schema_version missing or not this record's
	CodeMissing       Code = "missing_member" // a required member is absent or empty
	CodeWrongType     Code = "wrong_type"     // a member has the wrong JSON type
	CodeUnknownMember Code = "unknown_member" // a top-level member the record does not define
	CodeTooLong       Code = "too_long"       // a string over its documented limit
	CodeBadIdentifier Code = "bad_identifier" // an id outside [A-Za-z0-9._:-]

	// Requests.
	CodeEffectClass        Code = "effect_class_unknown"    // effect_class or a forbidden class outside the closed set
	CodeEffectForbidden    Code = "effect_class_forbidden"  // effect_class is itself listed as forbidden
	CodeAllowedActions     Code = "allowed_actions_invalid" // empty or duplicate allowed_actions
	CodeCapabilityMismatch Code = "capability_mismatch"     // capability id or execution hash differ from the capability given
	CodeActionUnknown      Code = "action_unknown"          // an allowed action the capability does not have
	CodeActionNotCovered   Code = "action_not_covered"      // an allowed action whose class effect_class does not cover, or that is forbidden
	CodeActionNotStoppable Code = "action_not_stoppable"    // a non-consequential action left out of allowed_actions: no gate can stop it
	CodeSecretInput        Code = "secret_input_in_request" // a secret input value in the serialized request
	CodeInputUnknown       Code = "input_unknown"           // an input the capability does not declare
	CodeGateRequired       Code = "gate_required"           // an external_write or credential_use request without a gate binding

	// Gates (requests and receipts).
	CodeGateInvalid  Code = "gate_binding_invalid" // gate_id, revision or status malformed
	CodeGateNotOpen  Code = "gate_not_open"        // the gate an external_write or credential_use needs is not open
	CodeGateStale    Code = "gate_stale"           // the binding's revision is older than the gate's current one
	CodeGateMismatch Code = "gate_mismatch"        // the receipt's binding is not the request's
	CodeGateUnknown  Code = "gate_unknown"         // the gate source does not know the gate

	// Receipts.
	CodeIdentityGoal     Code = "goal_id_mismatch"
	CodeIdentityTodo     Code = "todo_id_mismatch"
	CodeIdentityProvider Code = "provider_id_mismatch"
	CodeIdentityUnit     Code = "attempted_action_unit_mismatch"
	CodeStopReason       Code = "stop_reason_unknown"      // stop_reason outside the closed enum
	CodeWriteback        Code = "writeback_member"         // a member name or value that commands a host-state mutation
	CodeScreenshot       Code = "raw_screenshot"           // image bytes: base64 image signatures, data: URLs, long base64 runs
	CodeCookie           Code = "cookie"                   // a cookie header, cookie member or cookie-shaped pair
	CodeCredential       Code = "credential"               // credential-shaped content (keys, passwords, authorization)
	CodeSessionToken     Code = "session_token"            // a session or bearer token, a JWT, a high-entropy token
	CodePageBody         Code = "page_body"                // markup or text longer than a compact fact
	CodeRawEvidence      Code = "raw_evidence_copied"      // evidence claims raw_evidence_copied: true
	CodeEvidenceHandle   Code = "evidence_handle"          // evidence without a usable handle
	CodeIdempotencyKey   Code = "idempotency_key_invalid"  // missing, too long or outside the key alphabet
	CodeReplayed         Code = "idempotency_key_replayed" // the key was already accepted
	CodeEffectBeyond     Code = "effect_beyond_class"      // an external action reported for a request whose class does not allow it
	CodeModalEffect      Code = "modal_with_effect"        // blocked_by_unknown_modal or stopped_at_gate with a state-changing action
)

// Problem is one finding: a JSON path ("" for the root, "observed_facts.x",
// "evidence.items[2]"), a code and a message. A Problem never repeats the
// offending value when it is secret-shaped.
type Problem struct {
	Path    string `json:"path"`
	Code    Code   `json:"code"`
	Message string `json:"message"`
}

// String is "path: code: message".
func (p Problem) String() string {
	if p.Path == "" {
		return string(p.Code) + ": " + p.Message
	}
	return p.Path + ": " + string(p.Code) + ": " + p.Message
}

// ProblemError carries every problem found at once. It matches its kind
// ([ErrInvalidRequest] or [ErrInvalidReceipt]) and each of its codes with
// errors.Is.
type ProblemError struct {
	// Kind is ErrInvalidRequest or ErrInvalidReceipt.
	Kind     error
	Problems []Problem
}

// Error lists the problems.
func (e *ProblemError) Error() string {
	parts := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		parts[i] = p.String()
	}
	return fmt.Sprintf("%v: %s", e.Kind, strings.Join(parts, "; "))
}

// Is matches the kind and every code of the problems.
func (e *ProblemError) Is(target error) bool {
	if target == e.Kind {
		return true
	}
	if c, ok := target.(Code); ok {
		return e.Has(c)
	}
	return false
}

// Unwrap returns the kind.
func (e *ProblemError) Unwrap() error { return e.Kind }

// Has reports whether any problem has code c.
func (e *ProblemError) Has(c Code) bool {
	return slices.ContainsFunc(e.Problems, func(p Problem) bool { return p.Code == c })
}

// Codes returns the distinct codes in first-seen order.
func (e *ProblemError) Codes() []Code {
	var out []Code
	for _, p := range e.Problems {
		if !slices.Contains(out, p.Code) {
			out = append(out, p.Code)
		}
	}
	return out
}

// problems collects findings.
type problems []Problem

func (ps *problems) add(path string, c Code, format string, args ...any) {
	*ps = append(*ps, Problem{Path: path, Code: c, Message: fmt.Sprintf(format, args...)})
}

func (ps problems) err(kind error) error {
	if len(ps) == 0 {
		return nil
	}
	return &ProblemError{Kind: kind, Problems: slices.Clone(ps)}
}
