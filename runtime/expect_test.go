package runtime_test

import (
	"context"
	"testing"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/runtimetest"
)

// responsePage has a documented responses region and a live one, both
// with a status cell, and the live JSON body.
func responsePage(status, body string) *runtimetest.Page {
	return page(
		&runtimetest.Node{ID: "docs", Role: "region", Name: "Responses", Children: []*runtimetest.Node{
			{ID: "doc200", Role: "cell", Text: "200", Name: "200"},
			{ID: "doc404", Role: "cell", Text: "404", Name: "404"},
		}},
		&runtimetest.Node{ID: "live", Role: "region", Name: "Live response", Children: []*runtimetest.Node{
			{ID: "status", Role: "cell", Text: status, Name: status, Attributes: map[string]string{"class": "status"}},
			{ID: "body", Tag: "pre", TestID: "body", Text: body},
		}},
	)
}

func scopedCell(name string) locator.Candidate {
	c := role("cell", name)
	c.Exact = true
	s := role("region", "Live response")
	c.Scope = &s
	return c
}

// responseCap extracts status and name from the live region.
func responseCap(statusExpect, nameExpect *capability.Expectation, pointer string) *capability.Capability {
	a := capability.Action{ID: "read", Operation: capability.OpExtract, Intent: "Read the live response",
		Effect: capability.EffectReadOnly, Confirmation: capability.ConfirmNone,
		LocatorCandidates: cands(role("region", "Live response")), Output: "resp",
		Extract: &capability.Extraction{Mode: capability.ExtractSingle, Fields: []capability.Field{
			{Name: "status", Type: capability.FieldInteger, LocatorCandidates: cands(css(".status"))},
			{Name: "name", Type: capability.FieldString, LocatorCandidates: cands(testID("body")), JSONPointer: pointer},
		}},
		Postcondition: produced("resp")}
	c := newCap("/api", milestone("m", a))
	c.Inputs = []capability.Input{{Name: "want", Type: capability.InputString}}
	c.Outputs = []capability.Output{{Name: "resp", Kind: capability.OutputRecord, Exposure: capability.ExposureModelAndArtifact,
		Fields: []capability.OutputField{{Name: "status", Type: capability.FieldInteger, Expect: statusExpect},
			{Name: "name", Type: capability.FieldString, Expect: nameExpect}}}}
	c.BusinessOutcomes = []capability.BusinessOutcome{{Code: "not_found", Detect: capability.OutcomeDetect{VisibleText: "no such text on the page"}}}
	return c
}

func TestExpectOutcomes(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	ok2xx := &capability.Expectation{Minimum: f(200), Maximum: f(299)}
	tests := []struct {
		name         string
		status, body string
		status2      *capability.Expectation
		nameX        *capability.Expectation
		pointer      string
		inputs       map[string]any
		state        runtime.TerminalState
		outcome      string
		reason       runtime.Reason
		wantName     any
	}{
		{name: "range holds", status: "200", body: `{"name":"doggie"}`, status2: ok2xx, pointer: "/name",
			state: runtime.StateCompleted, wantName: "doggie"},
		{name: "range violated fails", status: "404", body: `{"name":"x"}`, status2: ok2xx, pointer: "/name",
			state: runtime.StateFailed, reason: runtime.ReasonOutputExpectationFailed},
		{name: "range violated maps to outcome", status: "404", body: `{"name":"x"}`, pointer: "/name",
			status2: &capability.Expectation{Minimum: f(200), Maximum: f(299), Outcome: "not_found"},
			state:   runtime.StateBusinessOutcome, outcome: "not_found"},
		{name: "enum", status: "201", body: `{"name":"x"}`, status2: &capability.Expectation{Enum: []string{"200", "204"}}, pointer: "/name",
			state: runtime.StateFailed, reason: runtime.ReasonOutputExpectationFailed},
		{name: "unanchored pattern holds", status: "200", body: `{"name":"Pet not found"}`, pointer: "/name",
			nameX: &capability.Expectation{Pattern: `not found`}, state: runtime.StateCompleted, wantName: "Pet not found"},
		{name: "anchored pattern fails", status: "200", body: `{"name":"Pet not found"}`, pointer: "/name",
			nameX: &capability.Expectation{Pattern: `^not found$`}, state: runtime.StateFailed, reason: runtime.ReasonOutputExpectationFailed},
		{name: "equals input holds", status: "200", body: `{"name":"Rex"}`, pointer: "/name",
			nameX: &capability.Expectation{EqualsInput: "want"}, inputs: map[string]any{"want": "Rex"}, state: runtime.StateCompleted, wantName: "Rex"},
		{name: "equals input fails", status: "200", body: `{"name":"Rex"}`, pointer: "/name",
			nameX: &capability.Expectation{EqualsInput: "want"}, inputs: map[string]any{"want": "Max"}, state: runtime.StateFailed, reason: runtime.ReasonOutputExpectationFailed},
		{name: "json pointer not json", status: "200", body: `Pet not found`, pointer: "/name",
			state: runtime.StateFailed, reason: runtime.ReasonJSONInvalid},
		{name: "json pointer missing", status: "200", body: `{"message":"Pet not found"}`, pointer: "/name",
			state: runtime.StateFailed, reason: runtime.ReasonJSONPointerMissing},
		{name: "json pointer object", status: "200", body: `{"name":{"first":"Rex"}}`, pointer: "/name",
			state: runtime.StateFailed, reason: runtime.ReasonJSONNotScalar},
		{name: "json pointer escapes", status: "200", body: `{"a/b":{"m~n":"Pet \"Rex\""}}`, pointer: "/a~1b/m~0n",
			state: runtime.StateCompleted, wantName: `Pet "Rex"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := responseCap(tt.status2, tt.nameX, tt.pointer)
			if tt.nameX == nil || tt.nameX.EqualsInput == "" {
				c.Inputs = nil
			}
			mustValid(t, c)
			d := runtimetest.NewDriver(site(map[string]*runtimetest.Page{"/api": responsePage(tt.status, tt.body)}))
			t.Cleanup(func() { d.Close() })
			res := exec(t, c, d, tt.inputs)
			if res.State != tt.state || res.Outcome != tt.outcome {
				t.Fatalf("state %s/%s, want %s/%s (%v)", res.State, res.Outcome, tt.state, tt.outcome, res.Failure)
			}
			if tt.reason != "" {
				if res.Failure == nil || res.Failure.Reason != string(tt.reason) || res.Failure.Category != receipt.CategoryExtractionFailed {
					t.Fatalf("failure %+v, want extraction_failed/%s", res.Failure, tt.reason)
				}
			}
			if tt.wantName != nil {
				rec, _ := res.ModelOutputs["resp"].(map[string]any)
				if rec["name"] != tt.wantName {
					t.Fatalf("name = %#v, want %#v", rec["name"], tt.wantName)
				}
			}
			if res.RunDir != "" {
				if _, err := receipt.VerifyRun(context.Background(), res.RunDir, c); err != nil {
					t.Fatalf("VerifyRun: %v", err)
				}
			}
		})
	}
}

// TestScopedFake: the unscoped cell "200" is ambiguous (documented and
// live), the scoped one wins; a detect rule scoped to the live region
// ignores the documented 404.
func TestScopedFake(t *testing.T) {
	wait := capability.Action{ID: "status", Operation: capability.OpClick, Intent: "Click the live status cell",
		Effect: capability.EffectReadOnly, Confirmation: capability.ConfirmNone,
		LocatorCandidates: cands(func() locator.Candidate { c := role("cell", "200"); c.Exact = true; return c }(), scopedCell("200")),
		Postcondition:     visible(scopedCell("200"))}
	c := newCap("/api", milestone("m", wait))
	c.BusinessOutcomes = []capability.BusinessOutcome{{Code: "not_found", Detect: capability.OutcomeDetect{
		LocatorCandidates: cands(role("cell", "404")), Scope: &locator.Candidate{Strategy: locator.Role, Role: "region", Name: "Live response"}}}}
	mustValid(t, c)
	d := runtimetest.NewDriver(site(map[string]*runtimetest.Page{"/api": responsePage("200", "{}")}))
	t.Cleanup(func() { d.Close() })
	res := exec(t, c, d, nil)
	if res.State != runtime.StateCompleted {
		t.Fatalf("state %s/%s %v", res.State, res.Outcome, res.Failure)
	}
	a := res.Actions[0]
	if a.LocatorIndex != 1 || len(a.Tried) != 1 || a.Tried[0].Reason != locator.ReasonAmbiguous || a.Tried[0].Matches != 2 {
		t.Fatalf("locator index %d tried %v", a.LocatorIndex, a.Tried)
	}
	// A live 404 fires the scoped outcome.
	d2 := runtimetest.NewDriver(site(map[string]*runtimetest.Page{"/api": responsePage("404", "{}")}))
	t.Cleanup(func() { d2.Close() })
	if res := exec(t, c, d2, nil); res.State != runtime.StateBusinessOutcome || res.Outcome != "not_found" {
		t.Fatalf("state %s/%s %v", res.State, res.Outcome, res.Failure)
	}
}
