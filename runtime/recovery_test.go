package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/canonjson"
	"github.com/vera-run/vera/internal/redact"
	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/runtimetest"
)

const secretQuery = "SECRET-QUERY-4711"

// searchSite has a search box and a button whose name changed from
// "Search" to "Find"; clicking it shows "Results".
func searchSite() *runtimetest.Site {
	return site(map[string]*runtimetest.Page{"/": {
		Body: []*runtimetest.Node{textbox("q", "Query"), button("find", "Find"), button("confirm", "Confirm"), para("st", "idle")},
		Rules: []runtimetest.Rule{
			onClick("find", runtimetest.Effect{SetText: map[string]string{"st": "Results"}}),
			onClick("confirm", runtimetest.Effect{SetText: map[string]string{"st": "Confirmed"}}),
		},
	}})
}

func searchCap() *capability.Capability {
	search := click("search", textVisible("Results"), role("button", "Search"))
	search.Effect = capability.EffectReversible
	c := newCap("/", milestone("search", fill("type-query", "query", visible(label("Query")), label("Query")), search))
	c.Inputs = []capability.Input{{Name: "query", Type: capability.InputString, Required: true}}
	return c
}

func TestRecoveryTwoPass(t *testing.T) {
	c := searchCap()
	mustValid(t, c)
	before, _ := c.Marshal()
	in := map[string]any{"query": secretQuery}

	// First pass: the locator is missing; the run asks for recovery.
	d := runtimetest.NewDriver(searchSite())
	defer d.Close()
	res := exec(t, c, d, in)
	if res.State != receipt.TerminalRecoveryRequested || res.Failure.Category != receipt.CategoryLocatorNotFound {
		t.Fatalf("%s", dump(res))
	}
	rr := res.RecoveryRequest
	wantHash, _ := canonjson.Digest(c.Milestones[0].Actions[1])
	if rr.Target != (runtime.RecoveryTarget{ActionID: "search"}) || rr.Milestone != "search" || rr.Origin != origin || rr.Path != "/" ||
		rr.FailureHash != res.Failure.DetailHash || rr.ContractHash != wantHash || rr.Action.ID != "search" ||
		len(rr.Tried) != 1 || rr.Tried[0].Reason != locator.ReasonNoMatch {
		t.Fatalf("recovery request %s", dump(rr))
	}
	if raw, _ := json.Marshal(rr); strings.Contains(string(raw), secretQuery) {
		t.Error("recovery request carries an input value")
	}
	if len(d.Clicks()) != 0 {
		t.Errorf("clicks %v", d.Clicks())
	}

	// Second pass: one semantic proposal, from the declared start.
	d2 := runtimetest.NewDriver(searchSite())
	defer d2.Close()
	prop := runtime.RecoveryProposal{Target: rr.Target, Locator: &locator.Candidate{Strategy: locator.Role, Role: "button", Name: "Find", Exact: true},
		Rationale: "The search button is now named Find", Uncertainty: "low", FailureHash: rr.FailureHash}
	res = exec(t, c, d2, in, runtime.WithRecoveryProposal(prop))
	if res.State != receipt.TerminalCompleted || !res.Recovered || !res.LocatorChangesDuringRun || res.Clean || res.ProposalOutcome != "recovered" {
		t.Fatalf("%s", dump(res))
	}
	if !res.Actions[1].Recovered || res.Actions[0].Recovered {
		t.Errorf("actions %+v", res.Actions)
	}
	if calls := d2.Calls(); calls[1].Method != runtimetest.MethodNavigate || !strings.HasSuffix(calls[1].URL, "/") {
		t.Errorf("second pass did not start from the declared start: %v", calls[:2])
	}
	var props receipt.Proposals
	readJSON(t, filepath.Join(res.RunDir, receipt.FileProposals), &props)
	if len(props.Proposals) != 1 || props.Proposals[0].Outcome != "recovered" || props.Proposals[0].ContractHash != wantHash ||
		props.Proposals[0].FailureHash != rr.FailureHash || props.Proposals[0].Rationale != prop.Rationale {
		t.Errorf("proposals %s", dump(props))
	}
	var lock receipt.Lock
	readJSON(t, filepath.Join(res.RunDir, receipt.FileLock), &lock)
	if lock.Schema != receipt.SchemaLockV2 || lock.RecoveryProposals == "" {
		t.Errorf("lock %+v", lock)
	}
	var rc receipt.Receipt
	readJSON(t, filepath.Join(res.RunDir, receipt.FileReceipt), &rc)
	if !rc.Recovered || !rc.LocatorChangesDuringRun || rc.Clean {
		t.Errorf("receipt flags %+v", rc)
	}
	after, _ := c.Marshal()
	if string(before) != string(after) {
		t.Error("the capability was modified")
	}

	// A wrong proposal fails the target with locator_not_found, no second request.
	d3 := runtimetest.NewDriver(searchSite())
	defer d3.Close()
	prop.Locator = &locator.Candidate{Strategy: locator.Role, Role: "button", Name: "Lookup"}
	res = exec(t, c, d3, in, runtime.WithRecoveryProposal(prop))
	if res.State != receipt.TerminalFailed || res.Failure.Category != receipt.CategoryLocatorNotFound || res.RecoveryRequest != nil ||
		res.ProposalOutcome != "failed" || res.Recovered || res.Clean {
		t.Fatalf("%s", dump(res))
	}
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatal(err)
	}
}

func TestConsequentialNeverRecovered(t *testing.T) {
	c := searchCap()
	a := &c.Milestones[0].Actions[1]
	a.Effect, a.Confirmation = capability.EffectConsequential, capability.ConfirmActionTime
	mustValid(t, c)
	d := runtimetest.NewDriver(searchSite())
	defer d.Close()
	res := exec(t, c, d, map[string]any{"query": "x"}, runtime.WithApprover(runtime.ApproverFunc(
		func(_ context.Context, r runtime.ApprovalRequest) (runtime.Approval, error) {
			return runtime.Approval{ActionID: r.ActionID, Approved: true, Approver: "checker"}, nil
		})))
	if res.State != receipt.TerminalFailed || res.Failure.Category != receipt.CategoryLocatorNotFound || res.RecoveryRequest != nil {
		t.Fatalf("%s", dump(res))
	}
}

// fieldCap reads invoice rows whose amount cell changed class from
// "amount" to "amt", and a total whose value span disappeared.
func fieldSite() *runtimetest.Site {
	tr := func(id, num, amt string) *runtimetest.Node {
		return &runtimetest.Node{ID: id, Tag: "tr", TestID: "invoice-row", Children: []*runtimetest.Node{
			{Tag: "td", Text: num, Attributes: map[string]string{"class": "num"}},
			{Tag: "td", Text: amt, Attributes: map[string]string{"class": "amt"}},
		}}
	}
	return site(map[string]*runtimetest.Page{"/": page(
		&runtimetest.Node{ID: "t", Tag: "table", Children: []*runtimetest.Node{tr("r1", "INV-1", "10,50"), tr("r2", "INV-2", "3")}},
		&runtimetest.Node{ID: "total", Tag: "p", TestID: "total", Text: "13,50"},
	)})
}

func fieldCap() *capability.Capability {
	list := capability.Action{ID: "rows", Operation: capability.OpExtract, Intent: "Read rows", Effect: capability.EffectReadOnly,
		Confirmation: capability.ConfirmNone, LocatorCandidates: cands(testID("invoice-row")), Output: "rows",
		Extract: &capability.Extraction{Mode: capability.ExtractList, MaxRecords: 5, Fields: []capability.Field{
			{Name: "number", Type: capability.FieldString, LocatorCandidates: cands(css("td.num"))},
			{Name: "amount", Type: capability.FieldNumber, LocatorCandidates: cands(css("td.amount"))},
		}}, Postcondition: produced("rows")}
	total := capability.Action{ID: "total", Operation: capability.OpExtract, Intent: "Read the total", Effect: capability.EffectReadOnly,
		Confirmation: capability.ConfirmNone, LocatorCandidates: cands(testID("total")), Output: "total",
		Extract: &capability.Extraction{Mode: capability.ExtractSingle, Fields: []capability.Field{
			{Name: "value", Type: capability.FieldNumber, LocatorCandidates: cands(css("span.value"))},
		}}, Postcondition: produced("total")}
	c := newCap("/", milestone("read", list, total))
	c.Outputs = []capability.Output{
		{Name: "rows", Kind: capability.OutputRecordSet, Exposure: capability.ExposureModelAndArtifact, Fields: []capability.OutputField{{Name: "number", Type: capability.FieldString}, {Name: "amount", Type: capability.FieldNumber}}},
		{Name: "total", Kind: capability.OutputRecord, Exposure: capability.ExposureModelAndArtifact, Fields: []capability.OutputField{{Name: "value", Type: capability.FieldNumber}}},
	}
	return c
}

func TestFieldRecovery(t *testing.T) {
	c := fieldCap()
	mustValid(t, c)
	d := runtimetest.NewDriver(fieldSite())
	defer d.Close()
	res := exec(t, c, d, nil)
	if res.State != receipt.TerminalRecoveryRequested || res.RecoveryRequest.Target != (runtime.RecoveryTarget{ActionID: "rows", Field: "amount"}) {
		t.Fatalf("%s", dump(res))
	}
	// CSS candidate scoped to the record container.
	d2 := runtimetest.NewDriver(fieldSite())
	defer d2.Close()
	res = exec(t, c, d2, nil, runtime.WithRecoveryProposal(runtime.RecoveryProposal{
		Target: runtime.RecoveryTarget{ActionID: "rows", Field: "amount"}, Locator: &locator.Candidate{Strategy: locator.CSS, CSS: "td.amt"},
		Rationale: "the amount cell is now td.amt"}))
	// The rows recover; then the total's value span is missing too, which a
	// recovery run reports as a plain failure.
	if res.State != receipt.TerminalFailed || res.Failure.Category != receipt.CategoryLocatorNotFound || !res.Recovered || res.Actions[0].Records != 2 {
		t.Fatalf("%s", dump(res))
	}
	// use_resolved_action_root for the total's field.
	c2 := fieldCap()
	c2.Milestones[0].Actions = c2.Milestones[0].Actions[1:]
	c2.Outputs = c2.Outputs[1:]
	mustValid(t, c2)
	d3 := runtimetest.NewDriver(fieldSite())
	defer d3.Close()
	res = exec(t, c2, d3, nil)
	if res.State != receipt.TerminalRecoveryRequested || res.RecoveryRequest.Target.Field != "value" {
		t.Fatalf("%s", dump(res))
	}
	d4 := runtimetest.NewDriver(fieldSite())
	defer d4.Close()
	res = exec(t, c2, d4, nil, runtime.WithRecoveryProposal(runtime.RecoveryProposal{
		Target: runtime.RecoveryTarget{ActionID: "total", Field: "value"}, UseResolvedActionRoot: true}))
	if res.State != receipt.TerminalCompleted || !res.Recovered || res.Clean {
		t.Fatalf("%s", dump(res))
	}
	if got := res.ModelOutputs["total"]; got.(map[string]any)["value"] != 13.5 {
		t.Errorf("total = %#v", got)
	}
}

func TestInvalidProposalsRefused(t *testing.T) {
	sem := &locator.Candidate{Strategy: locator.Role, Role: "button", Name: "Find"}
	cssC := &locator.Candidate{Strategy: locator.CSS, CSS: "button.find"}
	tests := []struct {
		name string
		cap  func() *capability.Capability
		p    runtime.RecoveryProposal
		code string
	}{
		{"unknown action", searchCap, runtime.RecoveryProposal{Target: runtime.RecoveryTarget{ActionID: "nope"}, Locator: sem}, runtime.ProposalUnknownTarget},
		{"consequential", paymentCap, runtime.RecoveryProposal{Target: runtime.RecoveryTarget{ActionID: "pay"}, Locator: sem}, runtime.ProposalConsequential},
		{"no choice", searchCap, runtime.RecoveryProposal{Target: runtime.RecoveryTarget{ActionID: "search"}}, runtime.ProposalChoice},
		{"both choices", fieldCap, runtime.RecoveryProposal{Target: runtime.RecoveryTarget{ActionID: "rows", Field: "amount"}, Locator: cssC, UseResolvedActionRoot: true}, runtime.ProposalChoice},
		{"root for an action", searchCap, runtime.RecoveryProposal{Target: runtime.RecoveryTarget{ActionID: "search"}, UseResolvedActionRoot: true}, runtime.ProposalRootNotField},
		{"css for an action", searchCap, runtime.RecoveryProposal{Target: runtime.RecoveryTarget{ActionID: "search"}, Locator: cssC}, runtime.ProposalCSSNotField},
		{"css for an extract root", fieldCap, runtime.RecoveryProposal{Target: runtime.RecoveryTarget{ActionID: "rows"}, Locator: cssC}, runtime.ProposalCSSNotField},
		{"bad candidate", searchCap, runtime.RecoveryProposal{Target: runtime.RecoveryTarget{ActionID: "search"}, Locator: &locator.Candidate{Strategy: locator.Role, Role: "buton"}}, runtime.ProposalBadLocator},
		{"coordinates", searchCap, runtime.RecoveryProposal{Target: runtime.RecoveryTarget{ActionID: "search"}, Locator: &locator.Candidate{Strategy: locator.Text, Text: "120,340"}}, runtime.ProposalBadLocator},
		{"redaction marker", searchCap, runtime.RecoveryProposal{Target: runtime.RecoveryTarget{ActionID: "search"}, Locator: &locator.Candidate{Strategy: locator.Role, Role: "button", Name: "Member " + redact.Marker}}, runtime.ProposalRedactedMarker},
		{"undeclared template", searchCap, runtime.RecoveryProposal{Target: runtime.RecoveryTarget{ActionID: "search"}, Locator: &locator.Candidate{Strategy: locator.Role, Role: "button", Name: "{{secret}}"}}, runtime.ProposalBadLocator},
		{"field of a click", searchCap, runtime.RecoveryProposal{Target: runtime.RecoveryTarget{ActionID: "search", Field: "x"}, Locator: sem}, runtime.ProposalUnknownTarget},
		{"unknown field", fieldCap, runtime.RecoveryProposal{Target: runtime.RecoveryTarget{ActionID: "rows", Field: "x"}, Locator: cssC}, runtime.ProposalUnknownTarget},
		{"text too long", searchCap, runtime.RecoveryProposal{Target: runtime.RecoveryTarget{ActionID: "search"}, Locator: sem, Rationale: strings.Repeat("x", runtime.MaxProposalText+1)}, runtime.ProposalTextTooLong},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := runtimetest.NewDriver(searchSite())
			defer d.Close()
			res, err := runtime.Execute(context.Background(), tt.cap(), map[string]any{"query": "x"},
				runtime.WithDriver(d), runtime.WithRunDir(t.TempDir()), runtime.WithRecoveryProposal(tt.p))
			var pe *runtime.ProposalError
			if res != nil || !errors.Is(err, runtime.ErrInvalidProposal) || !errors.As(err, &pe) || pe.Code != tt.code {
				t.Fatalf("Execute = %v, %v; want %s", res, err, tt.code)
			}
			if len(d.Calls()) != 0 {
				t.Errorf("driver touched")
			}
		})
	}
	// A proposal for a wait action has no locator to recover.
	c := searchCap()
	c.Milestones[0].Actions = append(c.Milestones[0].Actions, capability.Action{ID: "settle", Operation: capability.OpWait, Intent: "wait",
		Effect: capability.EffectReadOnly, Confirmation: capability.ConfirmNone, Postcondition: textVisible("Results")})
	_, err := runtime.Execute(context.Background(), c, map[string]any{"query": "x"}, runtime.WithDriver(runtimetest.NewDriver(searchSite())),
		runtime.WithRecoveryProposal(runtime.RecoveryProposal{Target: runtime.RecoveryTarget{ActionID: "settle"}, Locator: sem}))
	var pe *runtime.ProposalError
	if !errors.As(err, &pe) || pe.Code != runtime.ProposalNoLocator {
		t.Errorf("wait target: %v", err)
	}
}

func TestHandoff(t *testing.T) {
	t.Run("locator fixed by a person", func(t *testing.T) {
		d := runtimetest.NewDriver(searchSite())
		defer d.Close()
		var got []runtime.HandoffRequest
		res := exec(t, searchCap(), d, map[string]any{"query": secretQuery}, runtime.WithHandoff(func(_ context.Context, req runtime.HandoffRequest) error {
			got = append(got, req)
			return d.Rename("find", "Search")
		}))
		if res.State != receipt.TerminalCompleted || !res.HandedOff || res.Clean {
			t.Fatalf("%s", dump(res))
		}
		if len(got) != 1 || got[0].ActionID != "search" || got[0].Reason != runtime.HandoffLocatorNotFound || got[0].Origin != origin || got[0].Path != "/" {
			t.Errorf("handoff requests %+v", got)
		}
	})
	t.Run("declined handoff proceeds to recovery", func(t *testing.T) {
		d := runtimetest.NewDriver(searchSite())
		defer d.Close()
		res := exec(t, searchCap(), d, map[string]any{"query": "x"}, runtime.WithHandoff(func(context.Context, runtime.HandoffRequest) error {
			return errors.New("nobody there")
		}))
		if res.State != receipt.TerminalRecoveryRequested || !res.HandedOff || res.Clean {
			t.Fatalf("%s", dump(res))
		}
	})
	t.Run("postcondition completed by a person", func(t *testing.T) {
		c := newCap("/", milestone("m", click("find", textVisible("Confirmed"), role("button", "Find"))))
		mustValid(t, c)
		d := runtimetest.NewDriver(searchSite())
		defer d.Close()
		res := exec(t, c, d, nil, runtime.WithHandoff(func(ctx context.Context, req runtime.HandoffRequest) error {
			if req.Reason != runtime.HandoffPostconditionFailed {
				t.Errorf("reason %q", req.Reason)
			}
			els, err := d.Find(ctx, nil, nil, locator.Candidate{Strategy: locator.Role, Role: "button", Name: "Confirm"})
			if err != nil || len(els) != 1 {
				return errors.New("no confirm button")
			}
			return d.Act(ctx, els[0], runtime.Act{Kind: runtime.ActClick})
		}))
		if res.State != receipt.TerminalCompleted || !res.HandedOff || res.Clean {
			t.Fatalf("%s", dump(res))
		}
	})
}
