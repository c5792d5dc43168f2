package capability

import (
	"fmt"
	"testing"

	"github.com/vera-run/vera/locator"
)

// bigCapability builds a valid capability with milestones*5 actions: per
// milestone a fill, a click, a press, a list extraction and a wait, with
// semantic and CSS candidates, templates and transitions.
func bigCapability(milestones int) *Capability {
	c := &Capability{
		Schema: SchemaV1, ID: "bench.big", Version: "1.0.0", Name: "Benchmark capability",
		Goal: "Exercise every validation rule on a large document.", State: StateDiscovered,
		Provenance: &Provenance{
			DiscoveryHash:  "sha256:35aa15f9d52a5a72d4798c291247810decc043c359c23e3920fe21d8174504fe",
			DiscoveryModel: "model", DiscoveryRunID: "run-1",
			Review: &Review{Reviewer: "reviewer", ReviewedAt: "2026-03-28T10:15:00Z",
				RecordHash:        "sha256:35aa15f9d52a5a72d4798c291247810decc043c359c23e3920fe21d8174504fe",
				AuthoringApproved: true},
		},
		Site:      Site{Name: "Bench", AllowedOrigins: []string{"https://app.example.com", "http://127.0.0.1:4010"}},
		Runtime:   Runtime{Start: "/start", ActionTimeoutMS: 5000, MaxActions: 10_000},
		Authority: Authority{MaxEffect: EffectReversible},
		Privacy:   Privacy{DataClasses: []string{"records"}},
		Inputs: []Input{
			{Name: "query", Type: InputString, Required: true},
			{Name: "limit", Type: InputInteger, Minimum: ptr(1.0), Maximum: ptr(100.0)},
		},
		Outputs: []Output{{Name: "rows", Kind: OutputRecordSet, Exposure: ExposureModelSummary,
			Fields: []OutputField{{Name: "a", Type: FieldString}, {Name: "b", Type: FieldNumber}, {Name: "c", Type: FieldDate}}}},
		BusinessOutcomes: []BusinessOutcome{{Code: "not_found", Detect: OutcomeDetect{VisibleText: "Nothing for {{query}}", URLPattern: `/empty$`}}},
	}
	for i := range milestones {
		id := fmt.Sprintf("m%d", i)
		a := func(kind string) string { return fmt.Sprintf("%s-%s", id, kind) }
		m := Milestone{ID: id, Intent: "Step " + id, MaxVisits: 2, Actions: []Action{
			{ID: a("fill"), Operation: OpFill, Intent: "Type the query", Effect: EffectReadOnly, Confirmation: ConfirmNone,
				LocatorCandidates: []locator.Candidate{{Strategy: locator.Label, Label: "Search " + id}, css("input#q-" + id)},
				Input:             "query",
				Postcondition:     &Condition{Kind: CondLocatorVisible, LocatorCandidates: []locator.Candidate{{Strategy: locator.Label, Label: "Search " + id}}}},
			{ID: a("click"), Operation: OpClick, Intent: "Open the tab", Effect: EffectReversible, Confirmation: ConfirmNone,
				LocatorCandidates: []locator.Candidate{role("tab", "Results of step "+id), {Strategy: locator.TestID, TestID: "results-tab-" + id}, css("button.tab-" + id)},
				Postcondition:     &Condition{Kind: CondURLIncludes, Value: "#results/{{query}}"}},
			{ID: a("press"), Operation: OpPress, Intent: "Submit", Effect: EffectReadOnly, Confirmation: ConfirmNone, Key: "Enter",
				LocatorCandidates: []locator.Candidate{{Strategy: locator.Placeholder, Placeholder: "Search " + id + "…"}},
				Postcondition:     &Condition{Kind: CondTextVisible, Text: "Results for {{query}}"}},
			{ID: a("extract"), Operation: OpExtract, Intent: "Read the rows", Effect: EffectReadOnly, Confirmation: ConfirmNone,
				LocatorCandidates: []locator.Candidate{css("table#t-" + id + " tr.row:visible")}, Output: "rows",
				Extract: &Extraction{Mode: ExtractList, MaxRecords: 100, LimitInput: "limit", Fields: []Field{
					{Name: "a", Type: FieldString, LocatorCandidates: []locator.Candidate{css("td.a")}},
					{Name: "b", Type: FieldNumber, LocatorCandidates: []locator.Candidate{css("td.b")}},
					{Name: "c", Type: FieldDate, LocatorCandidates: []locator.Candidate{}},
				}, RequiredFields: []string{"a"}, DedupeKeys: []string{"a", "c"}},
				Postcondition: &Condition{Kind: CondOutputProduced, Output: "rows"}},
			{ID: a("wait"), Operation: OpWait, Intent: "Wait for the footer", Effect: EffectReadOnly, Confirmation: ConfirmNone,
				Postcondition: &Condition{Kind: CondLocatorHidden, LocatorCandidates: []locator.Candidate{role("progressbar", "")}}},
		}}
		next := TerminalCompleted
		if i+1 < milestones {
			next = fmt.Sprintf("m%d", i+1)
		}
		m.Transitions = []Transition{
			{When: Condition{Kind: CondLocatorVisible, LocatorCandidates: []locator.Candidate{css("nav.more-" + id + ":visible")}}, To: id},
			{When: Condition{Kind: CondAlways}, To: next},
		}
		c.Milestones = append(c.Milestones, m)
	}
	return c
}

func TestBigCapabilityValid(t *testing.T) {
	c := bigCapability(100)
	if errs := c.Validate(); len(errs) != 0 {
		t.Fatal(errs)
	}
	n := 0
	for range c.Actions {
		n++
	}
	if n != 500 {
		t.Fatalf("actions = %d", n)
	}
}

// BenchmarkValidate500Actions measures Validate on a valid capability of
// 100 milestones and 500 actions (target: well under 5 ms).
func BenchmarkValidate500Actions(b *testing.B) {
	c := bigCapability(100)
	if errs := c.Validate(); len(errs) != 0 {
		b.Fatal(errs)
	}
	b.ReportAllocs()
	for b.Loop() {
		if errs := c.Validate(); len(errs) != 0 {
			b.Fatal(errs)
		}
	}
}

// BenchmarkParseValidate500Actions adds strict parsing of the marshalled
// document.
func BenchmarkParseValidate500Actions(b *testing.B) {
	raw, err := bigCapability(100).Marshal()
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		c, err := ParseBytes(raw)
		if err != nil {
			b.Fatal(err)
		}
		if errs := c.Validate(); len(errs) != 0 {
			b.Fatal(errs)
		}
	}
}
