package provider

import (
	"errors"
	"slices"
	"testing"

	"github.com/vera-run/vera/capability"
)

func TestRequestValidation(t *testing.T) {
	c := composeCap(t, placeholderOrigin)
	for _, tc := range []struct {
		name   string
		mutate func(r *ActionRequest)
		want   Code
	}{
		// Smoke: an external_write or credential_use request without a
		// current gate binding is rejected.
		{"external_write without gate", func(r *ActionRequest) {
			r.EffectClass, r.GateBinding = EffectExternalWrite, nil
			r.WriteScope.ForbiddenEffectClasses = []EffectClass{}
		}, CodeGateRequired},
		{"credential_use without gate", func(r *ActionRequest) {
			r.EffectClass, r.GateBinding = EffectCredentialUse, nil
			r.WriteScope.ForbiddenEffectClasses = []EffectClass{}
		}, CodeGateRequired},
		{"external_write with a pending binding", func(r *ActionRequest) {
			r.EffectClass = EffectExternalWrite
			r.WriteScope.ForbiddenEffectClasses = []EffectClass{}
		}, CodeGateNotOpen},
		{"schema version", func(r *ActionRequest) { r.SchemaVersion = "v0" }, CodeSchemaVersion},
		{"missing goal", func(r *ActionRequest) { r.GoalID = "" }, CodeMissing},
		{"bad todo id", func(r *ActionRequest) { r.TodoID = "todo example" }, CodeBadIdentifier},
		{"unknown effect class", func(r *ActionRequest) { r.EffectClass = "publish" }, CodeEffectClass},
		{"unknown forbidden class", func(r *ActionRequest) { r.WriteScope.ForbiddenEffectClasses = []EffectClass{"delete"} }, CodeEffectClass},
		{"own class forbidden", func(r *ActionRequest) { r.WriteScope.ForbiddenEffectClasses = []EffectClass{EffectDraft} }, CodeEffectForbidden},
		{"no allowed actions", func(r *ActionRequest) { r.WriteScope.AllowedActions = nil }, CodeAllowedActions},
		{"duplicate allowed action", func(r *ActionRequest) {
			r.WriteScope.AllowedActions = append(r.WriteScope.AllowedActions, "save-draft")
		}, CodeAllowedActions},
		{"null forbidden list", func(r *ActionRequest) { r.WriteScope.ForbiddenEffectClasses = nil }, CodeMissing},
		{"gate revision zero", func(r *ActionRequest) { r.GateBinding.Revision = 0 }, CodeGateInvalid},
		{"gate status unknown", func(r *ActionRequest) { r.GateBinding.Status = "approved" }, CodeGateInvalid},
		{"blank stop condition", func(r *ActionRequest) { r.StopCondition = " " }, CodeMissing},
		{"execution hash not a digest", func(r *ActionRequest) { r.Capability.ExecutionHash = "abc" }, CodeCapabilityMismatch},
		// Bound to the capability.
		{"another capability", func(r *ActionRequest) { r.Capability.ID = "content.other" }, CodeCapabilityMismatch},
		{"another execution hash", func(r *ActionRequest) {
			r.Capability.ExecutionHash = "sha256:0000000000000000000000000000000000000000000000000000000000000000"
		}, CodeCapabilityMismatch},
		{"unknown action", func(r *ActionRequest) {
			r.WriteScope.AllowedActions = append(r.WriteScope.AllowedActions, "delete-post")
		}, CodeActionUnknown},
		{"draft allows publish", func(r *ActionRequest) {
			r.WriteScope.AllowedActions = append(r.WriteScope.AllowedActions, "publish-post")
		}, CodeActionNotCovered},
		{"read does not cover saving a draft", func(r *ActionRequest) {
			r.EffectClass = EffectRead
			r.WriteScope.ForbiddenEffectClasses = []EffectClass{EffectExternalWrite}
		}, CodeActionNotCovered},
		{"a fill left unstoppable", func(r *ActionRequest) { r.WriteScope.AllowedActions = []string{"fill-body", "save-draft"} }, CodeActionNotStoppable},
		{"unknown input", func(r *ActionRequest) { r.Inputs["summary"] = "x" }, CodeInputUnknown},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := draftRequest(t, c)
			tc.mutate(r)
			err := r.Check(c)
			var pe *ProblemError
			if !errors.As(err, &pe) || !errors.Is(err, ErrInvalidRequest) {
				t.Fatalf("err = %v", err)
			}
			if got := pe.Codes(); !slices.Equal(got, []Code{tc.want}) {
				t.Fatalf("codes %v, want [%s]: %v", got, tc.want, err)
			}
		})
	}
	if err := draftRequest(t, c).Check(c); err != nil {
		t.Fatalf("the seed's draft request: %v", err)
	}
}

// credential_use: a capability that types a secret needs a credential_use
// request; the secret is never serialized.
func TestCredentialUse(t *testing.T) {
	c := composeCap(t, placeholderOrigin)
	c.Inputs[1].Secret = true // the body becomes a secret input
	h, err := c.ExecutionHash()
	if err != nil {
		t.Fatal(err)
	}
	r := draftRequest(t, c)
	r.Capability.ExecutionHash = h
	err = r.Check(c)
	if !errors.Is(err, CodeSecretInput) || !errors.Is(err, CodeActionNotCovered) {
		t.Fatalf("draft request typing a secret: %v", err)
	}
	delete(r.Inputs, "body")
	r.Secrets = map[string]any{"body": "hunter2"}
	r.EffectClass = EffectCredentialUse
	r.WriteScope.ForbiddenEffectClasses = []EffectClass{EffectExternalWrite}
	r.GateBinding.Status = GateOpen
	if err := r.Check(c); err != nil {
		t.Fatalf("credential_use request: %v", err)
	}
	if raw := string(mustJSON(t, r)); contains([]string{raw}, "hunter2") || len(raw) == 0 {
		t.Fatal("secret serialized")
	}
	if ClassOfAction(c, &c.Milestones[0].Actions[1]) != EffectCredentialUse {
		t.Error("filling a secret is not credential_use")
	}
}

func TestParseRequest(t *testing.T) {
	c := composeCap(t, placeholderOrigin)
	raw := mustJSON(t, draftRequest(t, c))
	r, err := ParseRequest(raw)
	if err != nil {
		t.Fatal(err)
	}
	h1, _ := RequestHash(r)
	h2, _ := RequestHash(draftRequest(t, c))
	if h1 != h2 {
		t.Error("hash changed by a round trip")
	}
	for _, tc := range []struct {
		raw  string
		want Code
	}{
		{`{"schema_version": 1}`, CodeWrongType},
		{`{"schema_version": "computer_use_action_request_v0", "extra": 1}`, CodeUnknownMember},
		{`{"a":1,"a":2}`, CodeMalformed},
		{`nope`, CodeMalformed},
	} {
		if _, err := ParseRequest([]byte(tc.raw)); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %s", tc.raw, err, tc.want)
		}
	}
}

func TestEffectTable(t *testing.T) {
	for e, want := range map[capability.Effect]EffectClass{
		capability.EffectReadOnly: EffectRead, capability.EffectReversible: EffectDraft,
		capability.EffectConsequential: EffectExternalWrite, "bogus": "",
	} {
		if got := ClassOfEffect(e); got != want {
			t.Errorf("ClassOfEffect(%s) = %s, want %s", e, got, want)
		}
	}
	if !EffectCredentialUse.Covers(EffectExternalWrite) || EffectDraft.Covers(EffectExternalWrite) || !EffectDraft.Covers(EffectRead) || EffectClass("x").Covers(EffectRead) {
		t.Error("Covers")
	}
}
