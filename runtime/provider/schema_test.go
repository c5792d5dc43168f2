package provider

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

func resolved(t *testing.T, raw []byte) *jsonschema.Resolved {
	t.Helper()
	var s jsonschema.Schema
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

func instance(t *testing.T, v any) any {
	t.Helper()
	var out any
	if err := json.Unmarshal(mustJSON(t, v), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// jsonNames lists the JSON member names of a struct type.
func jsonNames(typ reflect.Type) []string {
	var names []string
	for f := range typ.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name != "" && name != "-" {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

func schemaProps(t *testing.T, raw []byte) []string {
	t.Helper()
	var s struct {
		Properties map[string]any `json:"properties"`
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}
	return sortedKeys(s.Properties)
}

// The schemas list exactly the Go records' members and accept what Vera
// writes; they refuse the structural smokes.
func TestSchemas(t *testing.T) {
	for _, tc := range []struct {
		raw []byte
		typ reflect.Type
	}{
		{ProfileSchema(), reflect.TypeFor[Profile]()},
		{RequestSchema(), reflect.TypeFor[ActionRequest]()},
		{ReceiptSchema(), reflect.TypeFor[Receipt]()},
	} {
		if got, want := schemaProps(t, tc.raw), jsonNames(tc.typ); !slices.Equal(got, want) {
			t.Errorf("%s: schema members %v, Go members %v", tc.typ, got, want)
		}
	}
	c := composeCap(t, placeholderOrigin)
	req := resolved(t, RequestSchema())
	for _, r := range []*ActionRequest{draftRequest(t, c), publishRequest(t, c, 5)} {
		if err := req.Validate(instance(t, r)); err != nil {
			t.Errorf("request %s: %v", r.ActionUnit, err)
		}
	}
	ungated := publishRequest(t, c, 5)
	ungated.GateBinding = nil
	if err := req.Validate(instance(t, ungated)); err == nil {
		t.Error("the schema accepts an ungated external_write request")
	}
	rec := resolved(t, ReceiptSchema())
	d := draftRequest(t, c)
	if err := rec.Validate(instance(t, baseReceipt(d))); err != nil {
		t.Errorf("seed-shaped receipt: %v", err)
	}
	for name, mutate := range map[string]func(map[string]any){
		"writeback member":    func(r map[string]any) { r["complete_todo"] = true },
		"raw evidence copied": func(r map[string]any) { evidence(r)["raw_evidence_copied"] = true },
		"stop reason":         func(r map[string]any) { r["stop_reason"] = "waiting_for_user" },
	} {
		r := baseReceipt(d)
		mutate(r)
		if err := rec.Validate(instance(t, r)); err == nil {
			t.Errorf("receipt schema accepts %s", name)
		}
	}
	res := &Receipt{SchemaVersion: SchemaReceipt, GoalID: "g", TodoID: "t", ProviderID: ProviderID, AttemptedActionUnit: "u",
		StopReason: StopAtGate, Evidence: Evidence{HandleKind: HandleKindRunReceipt, Handle: "sha256:" + strings.Repeat("0", 64), PrivateSourceRedacted: true},
		IdempotencyKey: "sha256:" + strings.Repeat("1", 64), SessionReference: "run_1", ObservedFacts: ObservedFacts{TerminalState: "stopped_at_gate"}}
	if err := rec.Validate(instance(t, res)); err != nil {
		t.Errorf("Vera's receipt: %v", err)
	}
	prof := resolved(t, ProfileSchema())
	p := profileFrom(nil, false)
	if err := prof.Validate(instance(t, p)); err != nil {
		t.Errorf("profile: %v", err)
	}
}
