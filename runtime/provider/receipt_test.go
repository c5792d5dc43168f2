package provider

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
)

// baseReceipt is a conformant receipt of another provider for req: the
// seed's shape with a handle.
func baseReceipt(req *ActionRequest) map[string]any {
	r := map[string]any{
		"schema_version":        SchemaReceipt,
		"goal_id":               req.GoalID,
		"todo_id":               req.TodoID,
		"provider_id":           req.ProviderID,
		"attempted_action_unit": req.ActionUnit,
		"stop_reason":           "stopped_at_gate",
		"observed_facts": map[string]any{
			"screen_reached":       true,
			"draft_present":        true,
			"final_action_clicked": false,
			"unknown_modal":        false,
		},
		"evidence": map[string]any{
			"handle_kind":             "host_replay_or_screenshot_pointer",
			"handle":                  "replay:host/42",
			"raw_evidence_copied":     false,
			"private_source_redacted": true,
		},
		"idempotency_key":   "action_request_example_attempt_1",
		"session_reference": "provider_owned_opaque_session_handle",
	}
	if b := req.GateBinding; b != nil {
		r["gate_binding"] = map[string]any{"gate_id": b.GateID, "revision": b.Revision, "status": string(b.Status)}
	}
	return r
}

func facts(r map[string]any) map[string]any    { return r["observed_facts"].(map[string]any) }
func evidence(r map[string]any) map[string]any { return r["evidence"].(map[string]any) }

// badCase is one receipt that must be rejected for exactly one reason.
type badCase struct {
	name string
	// raw, when set, is the receipt; else mutate changes baseReceipt.
	raw    string
	mutate func(r map[string]any)
	// publish judges against the external_write request at revision 5.
	publish bool
	// gate is the current gate state; default: the request's binding.
	gate *GateState
	// claimed is a key already in the store.
	claimed string
	want    Code
}

var pngBase64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="

func badReceipts() []badCase {
	set := func(path []string, v any) func(map[string]any) {
		return func(r map[string]any) {
			m := r
			for _, p := range path[:len(path)-1] {
				m = m[p].(map[string]any)
			}
			m[path[len(path)-1]] = v
		}
	}
	del := func(path ...string) func(map[string]any) {
		return func(r map[string]any) {
			m := r
			for _, p := range path[:len(path)-1] {
				m = m[p].(map[string]any)
			}
			delete(m, path[len(path)-1])
		}
	}
	deep := any("x")
	for range MaxDepth + 1 {
		deep = []any{deep}
	}
	return []badCase{
		// Structure.
		{name: "not JSON", raw: `{"schema_version":`, want: CodeMalformed},
		{name: "duplicate member", raw: `{"goal_id":"loopx-meta","goal_id":"other"}`, want: CodeMalformed},
		{name: "array root", raw: `[]`, want: CodeMalformed},
		{name: "too deep", mutate: set([]string{"observed_facts", "nested"}, deep), want: CodeMalformed},
		{name: "too large", mutate: set([]string{"observed_facts", "pad"}, strings.Repeat("a b ", MaxRecordBytes/4+1)), want: CodeMalformed},
		{name: "schema version", mutate: set([]string{"schema_version"}, "computer_use_receipt_v1"), want: CodeSchemaVersion},
		{name: "missing goal_id", mutate: del("goal_id"), want: CodeMissing},
		{name: "goal_id number", mutate: set([]string{"goal_id"}, 7), want: CodeWrongType},
		{name: "observed_facts string", mutate: set([]string{"observed_facts"}, "fine"), want: CodeWrongType},
		{name: "evidence missing", mutate: del("evidence"), want: CodeMissing},
		{name: "unknown top-level member", mutate: set([]string{"notes"}, "all good"), want: CodeUnknownMember},
		{name: "session_reference too long", mutate: set([]string{"session_reference"}, strings.Repeat("s", MaxKeyLen+1)), want: CodeTooLong},
		// Identity.
		{name: "goal mismatch", mutate: set([]string{"goal_id"}, "other-goal"), want: CodeIdentityGoal},
		{name: "todo mismatch", mutate: set([]string{"todo_id"}, "todo_other"), want: CodeIdentityTodo},
		{name: "provider mismatch", mutate: set([]string{"provider_id"}, "another_runtime"), want: CodeIdentityProvider},
		{name: "action unit mismatch", mutate: set([]string{"attempted_action_unit"}, "publish_after_review"), want: CodeIdentityUnit},
		{name: "stop reason outside the enum", mutate: set([]string{"stop_reason"}, "waiting_for_user"), want: CodeStopReason},
		// Writeback-shaped members and values.
		{name: "complete_todo member", mutate: set([]string{"complete_todo"}, true), want: CodeWriteback},
		{name: "create_user_gate member", mutate: set([]string{"create_user_gate"}, map[string]any{"title": "review"}), want: CodeWriteback},
		{name: "camelCase closeGate fact", mutate: set([]string{"observed_facts", "closeGate"}, true), want: CodeWriteback},
		{name: "past-tense todo_completed fact", mutate: set([]string{"observed_facts", "todo_completed"}, true), want: CodeWriteback},
		{name: "command value", mutate: set([]string{"observed_facts", "next"}, "complete_todo"), want: CodeWriteback},
		{name: "prose command value", mutate: set([]string{"observed_facts", "note"}, "assign the todo to alice"), want: CodeWriteback},
		{name: "decision member", mutate: set([]string{"observed_facts", "decision"}, "go"), want: CodeWriteback},
		{name: "nested kernel writeback", mutate: set([]string{"evidence", "extra"}, []any{map[string]any{"proposed": map[string]any{"kernel_writeback": "x"}}}), want: CodeWriteback},
		{name: "update_quota in array", mutate: set([]string{"observed_facts", "steps"}, []any{"opened screen", "update_quota"}), want: CodeWriteback},
		// Raw screenshots.
		{name: "png base64 in a compact fact", mutate: set([]string{"observed_facts", "thumb"}, pngBase64), want: CodeScreenshot},
		{name: "data URL", mutate: set([]string{"evidence", "preview"}, "data:image/png;base64,AAAA"), want: CodeScreenshot},
		{name: "jpeg base64", mutate: set([]string{"observed_facts", "shot"}, "/9j/4AAQSkZJRgABAQAAAQABAAD"), want: CodeScreenshot},
		{name: "long base64 run", mutate: set([]string{"observed_facts", "blob"}, strings.Repeat("QUJD", 60)), want: CodeScreenshot},
		{name: "screenshot nested in an array", mutate: set([]string{"evidence", "frames"}, []any{map[string]any{"png": pngBase64}}), want: CodeScreenshot},
		// Cookies.
		{name: "cookie header", mutate: set([]string{"observed_facts", "note"}, "Cookie: sid=abc123def456"), want: CodeCookie},
		{name: "set-cookie value", mutate: set([]string{"observed_facts", "seen"}, "sessionid=abc123; Path=/; HttpOnly"), want: CodeCookie},
		{name: "cookies member", mutate: set([]string{"evidence", "cookies"}, []any{map[string]any{"name": "sid", "value": "x"}}), want: CodeCookie},
		// Credentials.
		{name: "password member", mutate: set([]string{"observed_facts", "password"}, "hunter2hunter2"), want: CodeCredential},
		{name: "api key in a compact fact", mutate: set([]string{"observed_facts", "summary"}, "used sk_live_4eC39HqLyjWDarjtT1zdp7dc"), want: CodeCredential},
		{name: "authorization header", mutate: set([]string{"observed_facts", "hdr"}, "Authorization: Basic dXNlcjpwYXNzd29yZA=="), want: CodeCredential},
		{name: "url credentials", mutate: set([]string{"observed_facts", "url"}, "https://user:pa55word@example.com/x"), want: CodeCredential},
		{name: "private key", mutate: set([]string{"evidence", "key"}, "-----BEGIN PRIVATE KEY-----MIIB"), want: CodeCredential},
		{name: "secret-shaped member name", mutate: set([]string{"observed_facts", "AKIAIOSFODNN7EXAMPLE"}, true), want: CodeCredential},
		// Session tokens.
		{name: "jwt as session reference", mutate: set([]string{"session_reference"}, "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.sig"), want: CodeSessionToken},
		{name: "bearer token", mutate: set([]string{"observed_facts", "auth"}, "Bearer abcdef0123456789ABCDEF"), want: CodeSessionToken},
		{name: "session_token member", mutate: set([]string{"observed_facts", "session_token"}, "abc"), want: CodeSessionToken},
		{name: "high-entropy token", mutate: set([]string{"observed_facts", "ref"}, "Zx9Qm2Lp8Rt4Vw6Yb1Nc3Kd5Hf7Gj0Sa"), want: CodeSessionToken},
		// Page bodies.
		{name: "page markup", mutate: set([]string{"observed_facts", "page"}, "<html><body>Balance 1,234</body></html>"), want: CodePageBody},
		{name: "long page text", mutate: set([]string{"observed_facts", "text"}, strings.Repeat("member balance ", 20)), want: CodePageBody},
		// Evidence.
		{name: "raw evidence copied", mutate: set([]string{"evidence", "raw_evidence_copied"}, true), want: CodeRawEvidence},
		{name: "private source not redacted", mutate: set([]string{"evidence", "private_source_redacted"}, false), want: CodeRawEvidence},
		{name: "no handle", mutate: del("evidence", "handle"), want: CodeEvidenceHandle},
		// Idempotency.
		{name: "key with spaces", mutate: set([]string{"idempotency_key"}, "attempt one"), want: CodeIdempotencyKey},
		{name: "replayed key", claimed: "action_request_example_attempt_1", want: CodeReplayed},
		// Gates.
		{name: "stale revision", gate: &GateState{GateID: "gate_example_draft_review", Revision: 5, Status: GatePending}, want: CodeGateStale},
		{name: "another revision than the request's", mutate: set([]string{"gate_binding", "revision"}, 3), want: CodeGateMismatch},
		{name: "another gate", mutate: set([]string{"gate_binding", "gate_id"}, "gate_other"), want: CodeGateMismatch},
		{name: "gate binding dropped", mutate: del("gate_binding"), want: CodeGateMismatch},
		{name: "revision as string", mutate: set([]string{"gate_binding", "revision"}, "4"), want: CodeGateInvalid},
		{name: "gate closed since the request", publish: true, gate: &GateState{GateID: "gate_example_draft_review", Revision: 5, Status: GateClosed}, want: CodeGateNotOpen},
		// Facts against the request.
		{name: "draft request clicked the final action", mutate: func(r map[string]any) {
			r["stop_reason"] = "completed"
			facts(r)["final_action_clicked"] = true
		}, want: CodeEffectBeyond},
		{name: "unknown modal with a state-changing action", publish: true, mutate: func(r map[string]any) {
			r["stop_reason"] = "blocked_by_unknown_modal"
			facts(r)["unknown_modal"] = true
			facts(r)["final_action_clicked"] = true
		}, want: CodeModalEffect},
	}
}

// judge runs one case and returns the error.
func (tc badCase) judge(t *testing.T) (*Report, error) {
	t.Helper()
	c := composeCap(t, placeholderOrigin)
	req := draftRequest(t, c)
	if tc.publish {
		req = publishRequest(t, c, 5)
	}
	gate := &GateState{GateID: req.GateBinding.GateID, Revision: req.GateBinding.Revision, Status: req.GateBinding.Status}
	if tc.gate != nil {
		gate = tc.gate
	}
	raw := []byte(tc.raw)
	if tc.raw == "" {
		r := baseReceipt(req)
		if tc.mutate != nil {
			tc.mutate(r)
		}
		raw = mustJSON(t, r)
	}
	store := &MemoryStore{}
	if tc.claimed != "" {
		if err := store.Claim(context.Background(), tc.claimed, "sha256:earlier"); err != nil {
			t.Fatal(err)
		}
	}
	return ValidateReceipt(ctxT(t), raw, req, gate, store)
}

func TestBadReceipts(t *testing.T) {
	cases := badReceipts()
	if len(cases) < 40 {
		t.Fatalf("%d bad receipts, want at least 40", len(cases))
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := tc.judge(t)
			var pe *ProblemError
			if !errors.As(err, &pe) || !errors.Is(err, ErrInvalidReceipt) {
				t.Fatalf("err = %v, want a ProblemError", err)
			}
			if got := pe.Codes(); !slices.Equal(got, []Code{tc.want}) {
				t.Fatalf("codes %v, want exactly [%s]: %v", got, tc.want, err)
			}
			if !errors.Is(err, tc.want) {
				t.Errorf("errors.Is(err, %s) is false", tc.want)
			}
			if rep == nil || rep.Accepted || len(rep.Problems) == 0 {
				t.Errorf("report %+v", rep)
			}
		})
	}
}

func TestGoodReceiptAccepted(t *testing.T) {
	c := composeCap(t, placeholderOrigin)
	req := draftRequest(t, c)
	gate := &GateState{GateID: "gate_example_draft_review", Revision: 4, Status: GatePending}
	raw := mustJSON(t, baseReceipt(req))
	store := &MemoryStore{}
	rep, err := ValidateReceipt(ctxT(t), raw, req, gate, store)
	if err != nil || !rep.Accepted || rep.StopReason != StopAtGate {
		t.Fatalf("rep %+v err %v", rep, err)
	}
	// The same receipt again is a replay.
	_, err = ValidateReceipt(ctxT(t), raw, req, gate, store)
	if !errors.Is(err, CodeReplayed) {
		t.Fatalf("replay: %v", err)
	}
	// A rejected receipt does not burn its key.
	store2 := &MemoryStore{}
	bad := baseReceipt(req)
	bad["complete_todo"] = true
	if _, err := ValidateReceipt(ctxT(t), mustJSON(t, bad), req, gate, store2); !errors.Is(err, CodeWriteback) {
		t.Fatal(err)
	}
	if _, err := ValidateReceipt(ctxT(t), raw, req, gate, store2); err != nil {
		t.Fatalf("key burnt by a rejected receipt: %v", err)
	}
}

func TestValidateMisuse(t *testing.T) {
	c := composeCap(t, placeholderOrigin)
	req := draftRequest(t, c)
	raw := mustJSON(t, baseReceipt(req))
	gate := &GateState{GateID: "gate_example_draft_review", Revision: 4, Status: GatePending}
	if _, err := ValidateReceipt(ctxT(t), raw, req, gate, nil); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("nil store: %v", err)
	}
	if _, err := ValidateReceipt(ctxT(t), raw, req, nil, &MemoryStore{}); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("nil gate for a bound request: %v", err)
	}
	if _, err := ValidateReceipt(ctxT(t), raw, nil, gate, &MemoryStore{}); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("nil request: %v", err)
	}
}

// Facts a conformant provider reports must not trip the writeback or
// content rules (the near misses).
func TestNearMissesAccepted(t *testing.T) {
	c := composeCap(t, placeholderOrigin)
	req := draftRequest(t, c)
	gate := &GateState{GateID: "gate_example_draft_review", Revision: 4, Status: GatePending}
	r := baseReceipt(req)
	f := facts(r)
	f["draft_created"] = true       // a draft is not a host object
	f["form_submitted"] = false     // no host object
	f["gate_screen_visible"] = true // a host object, no verb
	f["title_length"] = json.Number("13")
	f["page_title"] = "Review post"
	f["origin"] = "http://127.0.0.1:4010/compose/review"
	f["digest"] = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	f["stopped_at_action"] = "publish-post"
	evidence(r)["handle"] = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	if _, err := ValidateReceipt(ctxT(t), mustJSON(t, r), req, gate, &MemoryStore{}); err != nil {
		t.Fatal(err)
	}
}

// Vera's own vocabulary (terminal states, categories, reasons, modes) never
// trips a content rule: a Vera receipt is never rejected for its facts.
func TestVeraVocabularyIsFacts(t *testing.T) {
	var vocab []string
	vocab = append(vocab, runtime.Reasons()...)
	for _, s := range []string{
		string(runtime.StateCompleted), string(runtime.StateBusinessOutcome), string(runtime.StateStoppedAtGate),
		string(runtime.StateBlockedByUnknownModal), string(runtime.StateNativeGap), string(runtime.StateRecoveryRequested),
		string(runtime.StateFailed), string(runtime.ModeLiveConnected), string(runtime.ModeLiveLaunched), string(runtime.ModeSimulated),
		HandleKindRunReceipt, ProviderID, "run_0123456789abcdef0123456789abcdef",
	} {
		vocab = append(vocab, s)
	}
	for _, c := range []receipt.Category{receipt.CategoryBrowserUnavailable, receipt.CategoryBrowserLaunchFailed, receipt.CategoryTargetNotAllowed,
		receipt.CategoryOriginNotAllowed, receipt.CategoryTargetUnreachable, receipt.CategoryUIAssertionFailed, receipt.CategoryLocatorNotFound,
		receipt.CategoryFrameNotAllowed, receipt.CategoryExtractionFailed, receipt.CategoryDownloadFailed, receipt.CategoryApprovalRefused,
		receipt.CategoryRunTimeout, receipt.CategoryBrowserCrashed, receipt.CategoryCanceled, receipt.CategoryLimitExceeded,
		receipt.CategoryInternal, receipt.CategoryEffectUnconfirmed} {
		vocab = append(vocab, string(c))
	}
	for _, v := range vocab {
		if c := stringCode(v); c != "" {
			t.Errorf("%q trips %s", v, c)
		}
	}
	for _, name := range jsonNames(reflect.TypeFor[ObservedFacts]()) {
		if writebackShaped(name) || secretMemberCode(name) != "" {
			t.Errorf("fact %s trips a member rule", name)
		}
	}
}
