package provider

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/canonjson"
	"github.com/vera-run/vera/internal/strictjson"
)

// ParseRequest reads a serialized action request strictly (at most
// [MaxRecordBytes], no unknown or duplicate member, exact JSON types) and
// validates its structure ([ActionRequest.Validate]). Errors are
// *[ProblemError] wrapping [ErrInvalidRequest].
func ParseRequest(data []byte) (*ActionRequest, error) {
	var ps problems
	if len(data) > MaxRecordBytes {
		ps.add("", CodeMalformed, "request is %d bytes, over the limit of %d", len(data), MaxRecordBytes)
		return nil, ps.err(ErrInvalidRequest)
	}
	var r ActionRequest
	if err := strictjson.Decode(data, &r); err != nil {
		var se *strictjson.Error
		code := CodeMalformed
		path := ""
		if errors.As(err, &se) {
			path = se.Path
			switch se.Kind {
			case strictjson.KindUnknownMember:
				code = CodeUnknownMember
			case strictjson.KindWrongType:
				code = CodeWrongType
			}
		}
		ps.add(path, code, "%v", err)
		return nil, ps.err(ErrInvalidRequest)
	}
	if err := r.Validate(); err != nil {
		return nil, err
	}
	return &r, nil
}

// RequestHash is the request's identity: "sha256:" + hex over the RFC 8785
// canonical JSON of the serialized request (Secrets are not part of it).
// Vera uses it as the receipt's idempotency_key, so one bounded request
// (including its gate revision) has at most one accepted receipt.
func RequestHash(r *ActionRequest) (string, error) {
	if r == nil {
		return "", fmt.Errorf("%w: nil request", ErrInvalidArgument)
	}
	return canonjson.Digest(r)
}

// validID reports whether s is a non-empty identifier of [A-Za-z0-9._:-]
// within MaxIDLen.
func validID(s string) bool {
	if s == "" || len(s) > MaxIDLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == ':' || c == '-') {
			return false
		}
	}
	return true
}

func checkID(ps *problems, path, v string) {
	switch {
	case v == "":
		ps.add(path, CodeMissing, "required")
	case !validID(v):
		ps.add(path, CodeBadIdentifier, "not an identifier of at most %d characters of [A-Za-z0-9._:-]", MaxIDLen)
	}
}

func checkText(ps *problems, path, v string) {
	switch {
	case strings.TrimSpace(v) == "":
		ps.add(path, CodeMissing, "required")
	case len(v) > MaxTextLen:
		ps.add(path, CodeTooLong, "over %d bytes", MaxTextLen)
	}
}

// Validate checks the request's structure alone, every problem at once:
// schema_version, identifiers, the closed effect-class set, the write
// scope, the gate binding's shape, and the gate rule that needs no gate
// source (external_write and credential_use carry a binding). Errors are
// *[ProblemError] wrapping [ErrInvalidRequest].
func (r *ActionRequest) Validate() error {
	if r == nil {
		return fmt.Errorf("%w: nil request", ErrInvalidArgument)
	}
	var ps problems
	if r.SchemaVersion != SchemaRequest {
		ps.add("schema_version", CodeSchemaVersion, "must be %q", SchemaRequest)
	}
	checkID(&ps, "goal_id", r.GoalID)
	checkID(&ps, "todo_id", r.TodoID)
	checkID(&ps, "provider_id", r.ProviderID)
	checkID(&ps, "action_unit", r.ActionUnit)
	if !r.EffectClass.Valid() {
		ps.add("effect_class", CodeEffectClass, "must be one of %v", EffectClasses())
	}
	ws := r.WriteScope
	if len(ws.AllowedActions) == 0 || len(ws.AllowedActions) > MaxAllowedActions {
		ps.add("write_scope.allowed_actions", CodeAllowedActions, "must list 1 to %d action ids", MaxAllowedActions)
	}
	for i, a := range ws.AllowedActions {
		p := fmt.Sprintf("write_scope.allowed_actions[%d]", i)
		checkID(&ps, p, a)
		if slices.Index(ws.AllowedActions, a) != i {
			ps.add(p, CodeAllowedActions, "duplicate action id")
		}
	}
	if ws.ForbiddenEffectClasses == nil {
		ps.add("write_scope.forbidden_effect_classes", CodeMissing, "required (may be empty)")
	}
	for i, f := range ws.ForbiddenEffectClasses {
		p := fmt.Sprintf("write_scope.forbidden_effect_classes[%d]", i)
		switch {
		case !f.Valid():
			ps.add(p, CodeEffectClass, "must be one of %v", EffectClasses())
		case f == r.EffectClass:
			ps.add(p, CodeEffectForbidden, "the request's own effect_class is forbidden")
		}
	}
	if b := r.GateBinding; b != nil {
		if !validID(b.GateID) {
			ps.add("gate_binding.gate_id", CodeGateInvalid, "not an identifier")
		}
		if b.Revision < 1 {
			ps.add("gate_binding.revision", CodeGateInvalid, "revisions start at 1")
		}
		if !b.Status.Valid() {
			ps.add("gate_binding.status", CodeGateInvalid, "must be open, pending or closed")
		}
		if r.EffectClass.Gated() && b.Status != GateOpen && on(CodeGateNotOpen) {
			ps.add("gate_binding.status", CodeGateNotOpen, "a request of class %s needs an open gate binding", r.EffectClass)
		}
	} else if r.EffectClass.Gated() && on(CodeGateRequired) {
		ps.add("gate_binding", CodeGateRequired, "a request of class %s needs an open gate binding at the current revision", r.EffectClass)
	}
	checkText(&ps, "stop_condition", r.StopCondition)
	checkText(&ps, "validation_target", r.ValidationTarget)
	checkID(&ps, "capability.id", r.Capability.ID)
	if !canonjson.ValidDigest(r.Capability.ExecutionHash) {
		ps.add("capability.execution_hash", CodeCapabilityMismatch, "not a sha256: digest")
	}
	if r.Inputs == nil {
		ps.add("inputs", CodeMissing, "required (may be empty)")
	}
	return ps.err(ErrInvalidRequest)
}

// Check validates the request ([ActionRequest.Validate]) and binds it to
// c: the capability's id and execution hash, its declared inputs (no
// secret value in the serialized inputs; secrets only for credential_use),
// and the effect-class rule over its actions:
//
//   - every allowed action exists, and its class ([ClassOfAction]) is
//     covered by effect_class and not forbidden;
//   - every non-consequential action is allowed: only a consequential
//     action has an action-time gate where a run can stop, so a request
//     that would leave any other action unstoppable is refused;
//   - a consequential action that is not allowed is where the run stops
//     (a draft or read request always stops at the first one); a native
//     step always stops the run and need not be listed.
//
// Errors are *[ProblemError] wrapping [ErrInvalidRequest].
func (r *ActionRequest) Check(c *capability.Capability) error {
	if err := r.Validate(); err != nil {
		return err
	}
	if c == nil {
		return fmt.Errorf("%w: nil capability", ErrInvalidArgument)
	}
	var ps problems
	h, err := c.ExecutionHash()
	if err != nil {
		return fmt.Errorf("%w: capability hash: %w", ErrInvalidArgument, err)
	}
	if r.Capability.ID != c.ID {
		ps.add("capability.id", CodeCapabilityMismatch, "the request names %q, the capability is %q", r.Capability.ID, c.ID)
	}
	if r.Capability.ExecutionHash != h {
		ps.add("capability.execution_hash", CodeCapabilityMismatch, "the request names another execution hash than the capability's")
	}
	secret := map[string]bool{}
	declared := map[string]bool{}
	for _, in := range c.Inputs {
		declared[in.Name] = true
		secret[in.Name] = in.Secret
	}
	for _, name := range sortedKeys(r.Inputs) {
		switch {
		case !declared[name]:
			ps.add("inputs."+name, CodeInputUnknown, "the capability declares no such input")
		case secret[name]:
			ps.add("inputs."+name, CodeSecretInput, "a secret input is never serialized; pass it in Secrets")
		}
	}
	for _, name := range sortedKeys(r.Secrets) {
		if !secret[name] {
			ps.add("secrets."+name, CodeInputUnknown, "not a secret input of the capability")
		}
	}
	allowed := map[string]bool{}
	for _, id := range r.WriteScope.AllowedActions {
		allowed[id] = true
	}
	found := map[string]bool{}
	for _, a := range c.Actions {
		found[a.ID] = true
		class := ClassOfAction(c, a)
		switch {
		case allowed[a.ID] && !r.EffectClass.Covers(class):
			ps.add("write_scope.allowed_actions", CodeActionNotCovered, "action %s is %s; effect_class %s does not cover it", a.ID, class, r.EffectClass)
		case allowed[a.ID] && slices.Contains(r.WriteScope.ForbiddenEffectClasses, class):
			ps.add("write_scope.allowed_actions", CodeActionNotCovered, "action %s is %s, a forbidden effect class", a.ID, class)
		case !allowed[a.ID] && a.Effect != capability.EffectConsequential && a.Operation != capability.OpNative:
			ps.add("write_scope.allowed_actions", CodeActionNotStoppable, "action %s (%s) is not allowed but has no gate to stop at", a.ID, class)
		}
	}
	for i, id := range r.WriteScope.AllowedActions {
		if !found[id] {
			ps.add(fmt.Sprintf("write_scope.allowed_actions[%d]", i), CodeActionUnknown, "the capability has no action %q", id)
		}
	}
	return ps.err(ErrInvalidRequest)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
