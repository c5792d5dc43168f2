package browser

import (
	"strings"
	"testing"
	"time"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/testsite"
	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
)

// petstoreCapability reads one pet through the "Try it out" / "Execute"
// flow of the API documentation page. The documented responses table
// shows cells "200" and "404" too, so every locator that means the live
// response is scoped to region "Live response", and the not_found outcome
// looks only there and only after the execute action.
const petstoreCapability = `{
  "schema": "browser-capability/v1",
  "id": "petstore.find-pet",
  "version": "1.0.0",
  "name": "Find a pet by id",
  "goal": "Open the Find pet by ID operation of the petstore API documentation, execute it for one pet id and read the live response.",
  "state": "discovered",
  "provenance": {"discovery_hash": "sha256:35aa15f9d52a5a72d4798c291247810decc043c359c23e3920fe21d8174504fe", "discovery_model": "google/gemini-2.5-flash", "discovery_run_id": "disc-petstore-01", "discovery_mode": "guided",
    "review": {"reviewer": "api lead", "reviewed_at": "2026-03-28T10:15:00Z", "record_hash": "sha256:35aa15f9d52a5a72d4798c291247810decc043c359c23e3920fe21d8174504fe", "authoring_approved": true}},
  "site": {"name": "Petstore API documentation (synthetic)", "allowed_origins": ["ORIGIN"]},
  "runtime": {"start": "/docs", "action_timeout_ms": 10000, "transition_timeout_ms": 10000, "run_timeout_ms": 60000},
  "authority": {"max_effect": "read_only", "operator_authenticates": false},
  "privacy": {"data_classes": []},
  "inputs": [{"name": "pet_id", "type": "string", "required": true, "max_length": 20}],
  "outputs": [{"name": "pet", "kind": "record", "exposure": "model_and_artifact", "required": true,
    "fields": [
      {"name": "status", "type": "integer", "expect": {"minimum": 200, "maximum": 299}},
      {"name": "name", "type": "string"},
      {"name": "pet_status", "type": "string"}]}],
  "milestones": [
    {"id": "execute", "intent": "Execute the operation for the pet id", "actions": [
      {"id": "expand", "operation": "click", "intent": "Open the operation", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "button", "name": "Find pet by ID"}],
       "postcondition": {"kind": "locator_visible", "locator_candidates": [{"strategy": "role", "role": "button", "name": "Try it out", "exact": true}]}},
      {"id": "try", "operation": "click", "intent": "Enable the parameters", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "button", "name": "Try it out", "exact": true}],
       "postcondition": {"kind": "locator_visible", "locator_candidates": [{"strategy": "role", "role": "button", "name": "Execute", "exact": true}]}},
      {"id": "fill-id", "operation": "fill", "intent": "Type the pet id into the unnamed petId box", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "textbox", "scope": {"strategy": "css", "css": "#op-getPet .params"}, "note": "the box has no accessible name"}],
       "input": "pet_id",
       "postcondition": {"kind": "locator_visible", "locator_candidates": [{"strategy": "role", "role": "textbox", "scope": {"strategy": "css", "css": "#op-getPet .params"}}]}},
      {"id": "run", "operation": "click", "intent": "Execute the request", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "button", "name": "Execute", "exact": true}],
       "postcondition": {"kind": "locator_visible", "locator_candidates": [{"strategy": "role", "role": "region", "name": "Live response", "exact": true}]}}
    ]},
    {"id": "read", "intent": "Read the live response", "actions": [
      {"id": "check-status", "operation": "wait", "intent": "The live status is 200 (the documented 200 cell does not count)", "effect": "read_only", "confirmation": "none",
       "postcondition": {"kind": "locator_visible", "locator_candidates": [
         {"strategy": "role", "role": "cell", "name": "200", "exact": true, "scope": {"strategy": "role", "role": "region", "name": "Live response", "exact": true}}]}},
      {"id": "extract-pet", "operation": "extract", "intent": "Read the status and the pet out of the JSON body", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "region", "name": "Live response", "exact": true}],
       "output": "pet",
       "extract": {"mode": "single", "fields": [
         {"name": "status", "type": "integer", "locator_candidates": [{"strategy": "css", "css": "td.status"}]},
         {"name": "name", "type": "string", "locator_candidates": [{"strategy": "test_id", "test_id": "response-body"}], "json_pointer": "/name"},
         {"name": "pet_status", "type": "string", "locator_candidates": [{"strategy": "test_id", "test_id": "response-body"}], "json_pointer": "/status"}],
        "required_fields": ["status", "name"]},
       "postcondition": {"kind": "output_produced"}}
    ]}
  ],
  "business_outcomes": [
    {"code": "not_found", "description": "No pet has this id: the live response is 404.",
     "detect": {"locator_candidates": [{"strategy": "role", "role": "cell", "name": "404", "exact": true}],
                "scope": {"strategy": "role", "role": "region", "name": "Live response", "exact": true},
                "after_action": "run"}}
  ]
}`

func startAPIDoc(t *testing.T) *testsite.Petstore {
	t.Helper()
	a, err := testsite.StartPetstore()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Close)
	return a
}

func petstore(t *testing.T, a *testsite.Petstore, edit func(c *capability.Capability)) *capability.Capability {
	t.Helper()
	c, err := capability.ParseBytes([]byte(strings.ReplaceAll(petstoreCapability, "ORIGIN", a.Origin())))
	if err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		edit(c)
	}
	if errs := c.ValidateForExecution(); len(errs) > 0 {
		t.Fatalf("petstore capability: %v", errs)
	}
	return c
}

func petRecord(t *testing.T, res *runtime.Result) map[string]any {
	t.Helper()
	rec, ok := res.ModelOutputs["pet"].(map[string]any)
	if !ok {
		t.Fatalf("no pet record in %#v (%s)", res.ModelOutputs, describeResult(res))
	}
	return rec
}

// TestScopedPetstoreFindPet finds the live 200 cell and the live response
// by scope while the documented responses show the same cells, and reads
// the pet's name out of the JSON body with a pointer, without quotes.
func TestScopedPetstoreFindPet(t *testing.T) {
	t.Parallel()
	d := shared(t)
	a := startAPIDoc(t)
	ctx := tctx(t, 90*time.Second)
	res := execute(t, ctx, d, petstore(t, a, nil), map[string]any{"pet_id": "1"})
	wantState(t, res, runtime.StateCompleted, "")
	rec := petRecord(t, res)
	if rec["name"] != "doggie" || rec["status"] != int64(200) || rec["pet_status"] != "available" {
		t.Fatalf("pet = %#v", rec)
	}
}

// TestExpectPetstoreNotFound ends a 404 response as the business outcome
// not_found, never completed: the documented 404 cell, visible since the
// operation was expanded, does not fire it (scope and after_action).
func TestExpectPetstoreNotFound(t *testing.T) {
	t.Parallel()
	d := shared(t)
	a := startAPIDoc(t)
	ctx := tctx(t, 90*time.Second)
	res := execute(t, ctx, d, petstore(t, a, nil), map[string]any{"pet_id": "99"})
	wantState(t, res, runtime.StateBusinessOutcome, "not_found")
	if action(res, "run") == nil || action(res, "run").Status != receipt.ActionPassed {
		t.Fatalf("the outcome fired before the execute action passed: %s", describeResult(res))
	}
	// Without its scope and after_action the same rule fires on the
	// documented 404 cell as soon as the operation is expanded, for a pet
	// that exists: what the two members are for.
	c := petstore(t, a, func(c *capability.Capability) {
		c.BusinessOutcomes[0].Detect.Scope, c.BusinessOutcomes[0].Detect.AfterAction = nil, ""
	})
	res = execute(t, ctx, d, c, map[string]any{"pet_id": "1"})
	wantState(t, res, runtime.StateBusinessOutcome, "not_found")
	if r := action(res, "run"); r != nil && r.Status == receipt.ActionPassed {
		t.Fatalf("the unscoped rule waited for the execute action: %s", describeResult(res))
	}
}

// TestExpectPetstoreNotFoundWithoutOutcome: with no outcome declared, the
// 404 status violates the status field's range expectation and the run
// fails with output_expectation_failed instead of completing.
func TestExpectPetstoreNotFoundWithoutOutcome(t *testing.T) {
	t.Parallel()
	d := shared(t)
	a := startAPIDoc(t)
	ctx := tctx(t, 90*time.Second)
	c := petstore(t, a, func(c *capability.Capability) {
		c.BusinessOutcomes = nil
		read := &c.Milestones[1]
		read.Actions = read.Actions[1:] // no check-status wait: read whatever came back
		// The 404 body has a message and a type, not a name and a status.
		read.Actions[0].Extract.Fields[1].JSONPointer = "/message"
		read.Actions[0].Extract.Fields[2].JSONPointer = "/type"
	})
	res := execute(t, ctx, d, c, map[string]any{"pet_id": "99"})
	wantState(t, res, runtime.StateFailed, "")
	if res.Failure.Category != receipt.CategoryExtractionFailed || res.Failure.Reason != string(runtime.ReasonOutputExpectationFailed) {
		t.Fatalf("failure = %s", describeResult(res))
	}
}

// TestExpectPetstoreEnumOutcome maps a sold pet (enum violation) to a
// declared outcome.
func TestExpectPetstoreEnumOutcome(t *testing.T) {
	t.Parallel()
	d := shared(t)
	a := startAPIDoc(t)
	ctx := tctx(t, 90*time.Second)
	c := petstore(t, a, func(c *capability.Capability) {
		c.BusinessOutcomes = append(c.BusinessOutcomes, capability.BusinessOutcome{Code: "not_available",
			Detect: capability.OutcomeDetect{VisibleText: "never shown on the page"}})
		c.Outputs[0].Fields[2].Expect = &capability.Expectation{Enum: []string{"available"}, Outcome: "not_available"}
	})
	res := execute(t, ctx, d, c, map[string]any{"pet_id": "2"})
	wantState(t, res, runtime.StateBusinessOutcome, "not_available")
}

// TestJSONPointerPetstore reads a name with escaped quotes out of the JSON
// body, and fails with a typed reason when the pointer names no member.
func TestJSONPointerPetstore(t *testing.T) {
	t.Parallel()
	d := shared(t)
	a := startAPIDoc(t)
	ctx := tctx(t, 120*time.Second)
	res := execute(t, ctx, d, petstore(t, a, nil), map[string]any{"pet_id": "2"})
	wantState(t, res, runtime.StateCompleted, "")
	if got := petRecord(t, res)["name"]; got != `Pet "Rex" II` {
		t.Fatalf("name = %#v", got)
	}
	c := petstore(t, a, func(c *capability.Capability) {
		c.Milestones[1].Actions[1].Extract.Fields[1].JSONPointer = "/nickname"
	})
	res = execute(t, ctx, d, c, map[string]any{"pet_id": "1"})
	wantState(t, res, runtime.StateFailed, "")
	if res.Failure.Category != receipt.CategoryExtractionFailed || res.Failure.Reason != string(runtime.ReasonJSONPointerMissing) {
		t.Fatalf("failure = %s", describeResult(res))
	}
}
