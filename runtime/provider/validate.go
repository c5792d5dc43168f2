package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/vera-run/vera/internal/canonjson"
	"github.com/vera-run/vera/internal/redact"
	"github.com/vera-run/vera/internal/strictjson"
)

// Report is what [ValidateReceipt] learned about a receipt. It is filled
// as far as possible even when the receipt is rejected.
type Report struct {
	StopReason     StopReason `json:"stop_reason,omitempty"`
	IdempotencyKey string     `json:"idempotency_key,omitempty"`
	// Digest is the sha256 of the receipt's canonical JSON, when it parsed.
	Digest string `json:"digest,omitempty"`
	// Accepted is true when the receipt passed and its key was claimed.
	Accepted bool      `json:"accepted"`
	Problems []Problem `json:"problems,omitempty"`
}

// receiptMembers are the top-level members of computer_use_receipt_v0.
var receiptMembers = []string{
	"schema_version", "goal_id", "todo_id", "provider_id", "attempted_action_unit",
	"stop_reason", "gate_binding", "observed_facts", "evidence", "idempotency_key",
	"session_reference",
}

// exemptValues are the top-level members whose string values are judged
// by their own rule (identity against the request, the closed enum) and
// not by the writeback value rule.
var exemptValues = map[string]bool{
	"schema_version": true, "goal_id": true, "todo_id": true, "provider_id": true,
	"attempted_action_unit": true, "stop_reason": true,
}

// ValidateReceipt judges any provider's computer-use receipt against the
// action request it claims to answer and the gate's current state (nil
// when the request has no gate binding), and claims its idempotency key
// in store when, and only when, every other rule passed. It rejects, every
// problem at once (see the Code constants and FORMAT.md):
//
//   - malformed JSON, duplicate members, over [MaxRecordBytes] or
//     [MaxDepth]; a wrong schema_version; missing, mistyped or unknown
//     top-level members;
//   - an identity mismatch on goal_id, todo_id, provider_id or
//     attempted_action_unit (the request's action_unit);
//   - a stop_reason outside the closed enum;
//   - any writeback-shaped member name or value, at any depth (the
//     structural rule of writebackShaped, not a word list alone);
//   - raw screenshot bytes, cookies, credentials, session tokens or page
//     bodies in any member name or string, nested included, whatever
//     evidence.raw_evidence_copied claims; raw_evidence_copied true or
//     private_source_redacted false; an evidence object without a handle;
//   - a gate binding that is missing, another gate's or another revision
//     than the request's (gate_mismatch), older than the gate's current
//     revision (gate_stale), or a gated request whose gate is not open;
//   - final_action_clicked for a read or draft request (effect_beyond_class)
//     and blocked_by_unknown_modal with final_action_clicked
//     (modal_with_effect);
//   - a malformed or replayed idempotency_key.
//
// The error is a *[ProblemError] wrapping [ErrInvalidReceipt] (and every
// code), [ErrInvalidArgument] for misuse, or one wrapping [ErrStore] when
// the store failed. The report is returned in every case but misuse.
func ValidateReceipt(ctx context.Context, data []byte, req *ActionRequest, gate *GateState, store KeyStore) (*Report, error) {
	if ctx == nil || store == nil {
		return nil, fmt.Errorf("%w: nil context or key store", ErrInvalidArgument)
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	if req.GateBinding != nil && gate == nil {
		return nil, fmt.Errorf("%w: the request has a gate binding; the gate's current state is needed", ErrInvalidArgument)
	}
	rep := &Report{}
	var ps problems
	defer func() { rep.Problems = ps }()
	if len(data) > MaxRecordBytes {
		ps.add("", CodeMalformed, "receipt is %d bytes, over the limit of %d", len(data), MaxRecordBytes)
		return rep, ps.err(ErrInvalidReceipt)
	}
	doc, err := strictjson.Parse(data)
	if err != nil {
		ps.add("", CodeMalformed, "%v", err)
		return rep, ps.err(ErrInvalidReceipt)
	}
	rep.Digest = canonjson.SumBytes(doc.Canonical())
	obj, ok := doc.Value().(map[string]any)
	if !ok {
		ps.add("", CodeMalformed, "a receipt is a JSON object")
		return rep, ps.err(ErrInvalidReceipt)
	}
	if d := depth(obj); d > MaxDepth {
		ps.add("", CodeMalformed, "nested %d levels deep, over the limit of %d", d, MaxDepth)
		return rep, ps.err(ErrInvalidReceipt)
	}

	// Content rules over the whole document, member names and values.
	scan(&ps, "", "", obj, true)

	// Structure.
	flagged := map[string]bool{}
	for _, p := range ps {
		flagged[p.Path] = true
	}
	for _, name := range sortedKeys(obj) {
		if !slices.Contains(receiptMembers, name) && !flagged[memberPath("", name)] {
			ps.add(memberPath("", name), CodeUnknownMember, "not a member of %s", SchemaReceipt)
		}
	}
	str := func(name string, required bool) (string, bool) {
		v, present := obj[name]
		if !present {
			if required {
				ps.add(name, CodeMissing, "required")
			}
			return "", false
		}
		s, isStr := v.(string)
		if !isStr {
			ps.add(name, CodeWrongType, "must be a string")
			return "", false
		}
		if required && s == "" {
			ps.add(name, CodeMissing, "required")
		}
		return s, true
	}
	if v, _ := str("schema_version", true); v != "" && v != SchemaReceipt {
		ps.add("schema_version", CodeSchemaVersion, "must be %q", SchemaReceipt)
	}
	for _, id := range []struct {
		name, want string
		code       Code
	}{
		{"goal_id", req.GoalID, CodeIdentityGoal},
		{"todo_id", req.TodoID, CodeIdentityTodo},
		{"provider_id", req.ProviderID, CodeIdentityProvider},
		{"attempted_action_unit", req.ActionUnit, CodeIdentityUnit},
	} {
		if v, ok := str(id.name, true); ok && v != "" && v != id.want && on(id.code) {
			ps.add(id.name, id.code, "the receipt answers another %s than the request's %q", id.name, id.want)
		}
	}
	if v, ok := str("stop_reason", true); ok && v != "" {
		rep.StopReason = StopReason(v)
		if !slices.Contains(StopReasons(), rep.StopReason) {
			ps.add("stop_reason", CodeStopReason, "must be one of %v", StopReasons())
		}
	}
	if v, ok := str("idempotency_key", true); ok && v != "" {
		rep.IdempotencyKey = v
		if len(v) > MaxKeyLen || !validID(v) && !canonjson.ValidDigest(v) {
			ps.add("idempotency_key", CodeIdempotencyKey, "at most %d characters of [A-Za-z0-9._:-]", MaxKeyLen)
		}
	}
	if v, ok := str("session_reference", true); ok && len(v) > MaxKeyLen {
		ps.add("session_reference", CodeTooLong, "over %d bytes", MaxKeyLen)
	}
	facts, _ := member[map[string]any](&ps, obj, "observed_facts", true)
	checkEvidence(&ps, obj)
	checkReceiptGate(&ps, obj, req, gate)

	// Consistency of the facts with the request and the stop reason.
	clicked, _ := facts["final_action_clicked"].(bool)
	if clicked && on(CodeEffectBeyond) && !req.EffectClass.Covers(EffectExternalWrite) {
		ps.add("observed_facts.final_action_clicked", CodeEffectBeyond, "a request of class %s never lets a final action be clicked", req.EffectClass)
	}
	if clicked && on(CodeModalEffect) && rep.StopReason == StopBlockedByUnknownModal {
		ps.add("observed_facts.final_action_clicked", CodeModalEffect, "blocked_by_unknown_modal promises no state-changing action")
	}

	if len(ps) > 0 {
		return rep, ps.err(ErrInvalidReceipt)
	}
	if err := store.Claim(ctx, rep.IdempotencyKey, rep.Digest); err != nil {
		if errors.Is(err, ErrReplayed) && on(CodeReplayed) {
			ps.add("idempotency_key", CodeReplayed, "the key was already accepted; the receipt is a replay")
			return rep, ps.err(ErrInvalidReceipt)
		}
		if !errors.Is(err, ErrReplayed) {
			return rep, err
		}
	}
	rep.Accepted = true
	return rep, nil
}

// member returns obj[name] as a T, recording a missing or mistyped member.
func member[T any](ps *problems, obj map[string]any, name string, required bool) (T, bool) {
	var zero T
	v, ok := obj[name]
	if !ok {
		if required {
			ps.add(name, CodeMissing, "required")
		}
		return zero, false
	}
	t, ok := v.(T)
	if !ok {
		ps.add(name, CodeWrongType, "has the wrong JSON type")
		return zero, false
	}
	return t, true
}

func checkEvidence(ps *problems, obj map[string]any) {
	ev, ok := member[map[string]any](ps, obj, "evidence", true)
	if !ok {
		return
	}
	for _, name := range []string{"handle_kind", "handle"} {
		s, isStr := ev[name].(string)
		if !isStr || strings.TrimSpace(s) == "" {
			ps.add("evidence."+name, CodeEvidenceHandle, "an evidence handle needs a non-empty %s string", name)
		} else if len(s) > MaxKeyLen {
			ps.add("evidence."+name, CodeEvidenceHandle, "a handle is at most %d bytes; it points at evidence, it is not evidence", MaxKeyLen)
		}
	}
	switch v, present := ev["raw_evidence_copied"]; {
	case !present:
		ps.add("evidence.raw_evidence_copied", CodeMissing, "required")
	case v != false:
		if _, isBool := v.(bool); !isBool {
			ps.add("evidence.raw_evidence_copied", CodeWrongType, "must be a boolean")
		} else if on(CodeRawEvidence) {
			ps.add("evidence.raw_evidence_copied", CodeRawEvidence, "raw evidence stays in the host's store")
		}
	}
	if v, present := ev["private_source_redacted"]; present {
		if b, isBool := v.(bool); !isBool {
			ps.add("evidence.private_source_redacted", CodeWrongType, "must be a boolean")
		} else if !b && on(CodeRawEvidence) {
			ps.add("evidence.private_source_redacted", CodeRawEvidence, "private source material must be redacted")
		}
	}
}

func checkReceiptGate(ps *problems, obj map[string]any, req *ActionRequest, gate *GateState) {
	raw, present := obj["gate_binding"]
	if !present {
		if req.GateBinding != nil && on(CodeGateMismatch) {
			ps.add("gate_binding", CodeGateMismatch, "the request was bound to gate %s; the receipt names no gate", req.GateBinding.GateID)
		}
		return
	}
	gb, ok := raw.(map[string]any)
	if !ok {
		ps.add("gate_binding", CodeWrongType, "must be an object")
		return
	}
	id, _ := gb["gate_id"].(string)
	num, _ := gb["revision"].(json.Number)
	rev, err := num.Int64()
	status, _ := gb["status"].(string)
	if !validID(id) || err != nil || rev < 1 || !GateStatus(status).Valid() || len(gb) != 3 {
		ps.add("gate_binding", CodeGateInvalid, "a gate binding is exactly gate_id, revision (an integer from 1) and status (open, pending or closed)")
		return
	}
	b := req.GateBinding
	switch {
	case b == nil:
		if on(CodeGateMismatch) {
			ps.add("gate_binding", CodeGateMismatch, "the request had no gate binding")
		}
		return
	case id != b.GateID || rev != b.Revision:
		if on(CodeGateMismatch) {
			ps.add("gate_binding", CodeGateMismatch, "the receipt names another gate or revision (%d) than the request's %s revision %d", rev, b.GateID, b.Revision)
		}
		return
	}
	if gate.GateID != b.GateID {
		ps.add("gate_binding.gate_id", CodeGateMismatch, "the current gate state is for another gate")
		return
	}
	if rev < gate.Revision && on(CodeGateStale) {
		ps.add("gate_binding.revision", CodeGateStale, "revision %d is older than the gate's current revision %d", rev, gate.Revision)
	}
	if req.EffectClass.Gated() && gate.Status != GateOpen && on(CodeGateNotOpen) {
		ps.add("gate_binding.status", CodeGateNotOpen, "a %s receipt needs its gate open; it is %s", req.EffectClass, gate.Status)
	}
}

// scan applies the content rules to v at path (member name name), every
// member name and string at any depth.
func scan(ps *problems, path, name string, v any, top bool) {
	switch x := v.(type) {
	case map[string]any:
		for _, k := range sortedKeys(x) {
			p := memberPath(path, k)
			switch {
			case on(CodeWriteback) && writebackShaped(k):
				ps.add(p, CodeWriteback, "a receipt reports facts; a member that commands a host-state change is out of contract")
			case secretValue(x[k]) && secretMemberCode(k) != "" && on(secretMemberCode(k)):
				ps.add(p, secretMemberCode(k), "a %s member never belongs in a receipt", secretMemberCode(k))
				continue
			default:
				if kind, ok := redact.FindSecret(k); ok && on(secretCode(kind)) {
					ps.add(p, secretCode(kind), "a secret-shaped member name (%s)", kind)
					continue
				}
			}
			if top && exemptValues[k] {
				continue
			}
			if top && k == "gate_binding" {
				continue // judged by checkReceiptGate
			}
			scan(ps, p, k, x[k], false)
		}
	case []any:
		for i, e := range x {
			scan(ps, indexPath(path, i), name, e, false)
		}
	case string:
		if c := stringCode(x); c != "" {
			ps.add(path, c, "%s", codeMessage(c))
		}
	}
}

// secretValue reports whether v can hold a secret: a non-empty string,
// object or array (a boolean or number is a fact about one).
func secretValue(v any) bool {
	switch x := v.(type) {
	case string:
		return x != ""
	case map[string]any:
		return len(x) > 0
	case []any:
		return len(x) > 0
	}
	return false
}

// stringCode is the first content rule a string breaks, in precedence
// order: image bytes, cookie attributes, a secret shape, a writeback
// command, page text.
func stringCode(s string) Code {
	switch {
	case on(CodeScreenshot) && imageShaped(s):
		return CodeScreenshot
	case on(CodeCookie) && cookieShaped(s):
		return CodeCookie
	}
	if kind, ok := redact.FindSecret(s); ok && on(secretCode(kind)) {
		return secretCode(kind)
	}
	switch {
	case on(CodeWriteback) && writebackShaped(s):
		return CodeWriteback
	case on(CodePageBody) && (len(s) > MaxFactLen || markupShaped(s)):
		return CodePageBody
	}
	return ""
}

// cookieShaped reports a Set-Cookie style value: a name=value pair with
// cookie attributes.
func cookieShaped(s string) bool {
	lower := strings.ToLower(s)
	if !strings.Contains(lower, "=") {
		return false
	}
	for _, attr := range []string{"; path=", ";path=", "httponly", "samesite=", "; secure", "; domain=", "max-age=", "; expires="} {
		if strings.Contains(lower, attr) {
			return true
		}
	}
	return false
}

func codeMessage(c Code) string {
	switch c {
	case CodeScreenshot:
		return "raw image bytes never belong in a receipt; keep a handle"
	case CodeCookie:
		return "cookie-shaped content never belongs in a receipt"
	case CodeCredential:
		return "credential-shaped content never belongs in a receipt"
	case CodeSessionToken:
		return "session-token-shaped content never belongs in a receipt"
	case CodeWriteback:
		return "a value that commands a host-state change is out of contract"
	case CodePageBody:
		return fmt.Sprintf("page markup or text over %d bytes is not a compact fact", MaxFactLen)
	}
	return string(c)
}

func depth(v any) int {
	switch x := v.(type) {
	case map[string]any:
		d := 0
		for _, e := range x {
			d = max(d, depth(e))
		}
		return d + 1
	case []any:
		d := 0
		for _, e := range x {
			d = max(d, depth(e))
		}
		return d + 1
	}
	return 0
}
