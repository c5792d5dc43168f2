package browser

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"testing"
	"time"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/testsite"
	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
)

// handProvenance is the honest provenance of a capability written by hand
// for a test (state authored): no discovery record is invented.
func handProvenance(reason string) *capability.Provenance {
	return &capability.Provenance{Kind: capability.ProvenanceHandAuthored, Author: "vera maintainers", Reason: reason,
		Review: &capability.Review{Reviewer: "vera maintainers", ReviewedAt: "2026-04-01T09:00:00Z", AuthoringApproved: true}}
}

// deskFrame is the frame path of the desk's invoice list.
var deskFrame = []string{"iframe#desk-invoices"}

func waitAction(id, intent string, post capability.Condition) capability.Action {
	return capability.Action{ID: id, Operation: capability.OpWait, Intent: intent, Effect: capability.EffectReadOnly,
		Confirmation: capability.ConfirmNone, Postcondition: &post}
}

func invoiceRows(id string) capability.Action {
	return capability.Action{ID: id, Operation: capability.OpExtract, Intent: "Read the invoices of this page",
		Effect: capability.EffectReadOnly, Confirmation: capability.ConfirmNone, Output: "invoices",
		LocatorCandidates: []locator.Candidate{css("tr.invoice-row:visible")},
		Extract: &capability.Extraction{Mode: capability.ExtractList, MaxRecords: 20, DedupeKeys: []string{"number"}, RequiredFields: []string{"number"},
			Fields: []capability.Field{
				{Name: "number", Type: capability.FieldString, LocatorCandidates: []locator.Candidate{css("td.number")}},
				{Name: "customer", Type: capability.FieldString, LocatorCandidates: []locator.Candidate{css("td.customer")}},
				{Name: "amount", Type: capability.FieldString, LocatorCandidates: []locator.Candidate{css("td.amount")}},
			}},
		Postcondition: &capability.Condition{Kind: capability.CondOutputProduced, Output: "invoices"}}
}

// pageText is the framed list's status line of page n.
func pageText(n int) string {
	last := (len(testsite.Invoices) + testsite.FramePageSize - 1) / testsite.FramePageSize
	return fmt.Sprintf("Page %d of %d", n, last)
}

// deskCapability is written by hand for the client desk: it reaches the
// search state /desk?q={{client}} through a query entry and reads the
// matching clients (top-level page), clicks the web component's
// "Sincronizza" button inside its open shadow root (top-level page), reads
// two pages of the cross-origin invoice frame, proving the next page by
// the frame's own URL (milestones with the frame path), and reads the
// synchronisation status at the top again.
func deskCapability(inv *testsite.Invoicing) *capability.Capability {
	search := capability.Milestone{ID: "search", Intent: "Search the client", Actions: []capability.Action{
		{ID: "search", Operation: capability.OpNavigate, Intent: "Open the desk on the client's search", Effect: capability.EffectReadOnly,
			Confirmation: capability.ConfirmNone, URL: testsite.DeskPath, Query: []capability.QueryEntry{{Name: "q", Value: "{{client}}"}},
			Postcondition: &capability.Condition{Kind: capability.CondURLIncludes, Value: "q={{client}}"}},
		waitAction("see-clients", "See the matching clients", capability.Condition{Kind: capability.CondLocatorVisible,
			LocatorCandidates: []locator.Candidate{role("table", "Matching clients")}}),
		{ID: "read-clients", Operation: capability.OpExtract, Intent: "Read the matching clients", Effect: capability.EffectReadOnly,
			Confirmation: capability.ConfirmNone, Output: "clients", LocatorCandidates: []locator.Candidate{css("tr.client-row:visible")},
			Extract: &capability.Extraction{Mode: capability.ExtractList, MaxRecords: 50, Fields: []capability.Field{
				{Name: "name", Type: capability.FieldString, LocatorCandidates: []locator.Candidate{css("td.name")}},
				{Name: "invoices", Type: capability.FieldInteger, LocatorCandidates: []locator.Candidate{css("td.invoices")}},
			}},
			Postcondition: &capability.Condition{Kind: capability.CondOutputProduced, Output: "clients"}},
	}}
	sync := capability.Milestone{ID: "sync", Intent: "Synchronise the desk", Actions: []capability.Action{
		{ID: "sync", Operation: capability.OpClick, Intent: "Start the synchronisation", Effect: capability.EffectReadOnly,
			Confirmation: capability.ConfirmNone, LocatorCandidates: []locator.Candidate{role("button", "Sincronizza")},
			Postcondition: &capability.Condition{Kind: capability.CondTextVisible, Text: "Sincronizzazione completata"}},
	}}
	first := capability.Milestone{ID: "first-page", Intent: "Read the first invoice page", FrameSelectors: deskFrame, Actions: []capability.Action{
		waitAction("see-page-1", "See the first page", capability.Condition{Kind: capability.CondTextVisible, Text: pageText(1)}),
		invoiceRows("read-page-1"),
		{ID: "next-page", Operation: capability.OpClick, Intent: "Go to the next invoice page", Effect: capability.EffectReadOnly,
			Confirmation: capability.ConfirmNone, LocatorCandidates: []locator.Candidate{role("link", "Next page")},
			Postcondition: &capability.Condition{Kind: capability.CondURLIncludes, Value: testsite.FrameInvoicesPath + "?page=2", Scope: capability.ScopeFrame}},
	}}
	second := capability.Milestone{ID: "second-page", Intent: "Read the second invoice page", FrameSelectors: deskFrame, Actions: []capability.Action{
		waitAction("see-page-2", "See the second page", capability.Condition{Kind: capability.CondTextVisible, Text: pageText(2)}),
		invoiceRows("read-page-2"),
	}}
	status := capability.Milestone{ID: "status", Intent: "Read the synchronisation status", Actions: []capability.Action{
		{ID: "read-sync-status", Operation: capability.OpExtract, Intent: "Read the synchronisation status", Effect: capability.EffectReadOnly,
			Confirmation: capability.ConfirmNone, Output: "sync_status",
			LocatorCandidates: []locator.Candidate{{Strategy: locator.TestID, TestID: "desk-sync-status"}},
			Extract:           &capability.Extraction{Mode: capability.ExtractText},
			Postcondition:     &capability.Condition{Kind: capability.CondOutputProduced, Output: "sync_status"}},
	}}
	return &capability.Capability{
		Schema: capability.SchemaV1, ID: "invoicing.client-desk", Version: "1.0.0", Name: "Client desk",
		Goal:       "Find a client, synchronise the desk and read the first two pages of invoices.",
		State:      capability.StateAuthored,
		Provenance: handProvenance("written by hand against the synthetic client desk; no discovery session was recorded"),
		Site:       capability.Site{Name: "Invoicing", AllowedOrigins: []string{inv.Origin(), inv.WorkspaceOrigin()}},
		Runtime: capability.Runtime{Start: testsite.DeskPath, ActionTimeoutMS: 15000, TransitionTimeoutMS: 15000,
			RunTimeoutMS: 120000, MaxActions: 50},
		Authority: capability.Authority{MaxEffect: capability.EffectReadOnly},
		Privacy:   capability.Privacy{DataClasses: []string{"client_names", "invoices"}},
		Inputs:    []capability.Input{{Name: "client", Type: capability.InputString, Required: true, MaxLength: 100}},
		Outputs: []capability.Output{
			{Name: "clients", Kind: capability.OutputRecordSet, Exposure: capability.ExposureModelAndArtifact,
				Fields: []capability.OutputField{{Name: "name", Type: capability.FieldString}, {Name: "invoices", Type: capability.FieldInteger}}},
			{Name: "invoices", Kind: capability.OutputRecordSet, Exposure: capability.ExposureModelAndArtifact,
				Fields: []capability.OutputField{{Name: "number", Type: capability.FieldString}, {Name: "customer", Type: capability.FieldString},
					{Name: "amount", Type: capability.FieldString}}},
			{Name: "sync_status", Kind: capability.OutputText, Exposure: capability.ExposureModelAndArtifact},
		},
		BusinessOutcomes: []capability.BusinessOutcome{{Code: "no_client", Detect: capability.OutcomeDetect{VisibleText: "No client matches"}}},
		Milestones:       []capability.Milestone{search, sync, first, second, status},
	}
}

// TestClientDeskCombined is issue 13's done-when: one hand-authored
// capability clicks a web component's button in an open shadow root,
// reaches a ?q= search state built from an input, and pages a
// cross-origin frame list whose next page is proven by a frame-scoped URL
// condition; it runs completed and clean twice in Chromium with the
// extracted values the site serves, and Finalize promotes it to
// validated_local with no decoy candidate and no invented provenance.
func TestClientDeskCombined(t *testing.T) {
	t.Parallel()
	d := shared(t)
	inv := startInvoicing(t)
	c := deskCapability(inv)
	if errs := c.ValidateForExecution(); len(errs) > 0 {
		t.Fatal(errs)
	}
	const client = "Bianchi & Figli"
	var dirs []string
	for run := range 2 {
		before := deskBefore(inv)
		res := execute(t, tctx(t, 120*time.Second), d, c, map[string]any{"client": client})
		wantState(t, res, runtime.StateCompleted, "")
		if !res.Clean || res.Mode != runtime.ModeLiveLaunched {
			t.Fatalf("run %d: clean %v mode %s: %s", run, res.Clean, res.Mode, describeResult(res))
		}
		dirs = append(dirs, res.RunDir)
		for _, p := range deskProblems(res, inv, client, before) {
			t.Errorf("run %d: %s", run, p)
		}
	}
	var rep receipt.FinalizeReport
	v, err := receipt.Finalize(context.Background(), c, dirs, receipt.WithAllowLaunchedBrowser(), receipt.WithReport(&rep))
	if err != nil {
		t.Fatalf("Finalize: %v", err)
	}
	if v.State != capability.StateValidatedLocal || !v.Provenance.HandAuthored() || v.Provenance.DiscoveryHash != "" {
		t.Fatalf("promoted state %s provenance %+v", v.State, v.Provenance)
	}
	if len(rep.Candidates) != 0 {
		t.Errorf("Finalize reports candidates that never won: %+v", rep.Candidates)
	}
	h0, err0 := c.ExecutionHash()
	h1, err1 := v.ExecutionHash()
	if err0 != nil || err1 != nil || h0 != h1 {
		t.Errorf("promotion changed the execution hash: %s %s (%v %v)", h0, h1, err0, err1)
	}

	t.Run("no_client", func(t *testing.T) {
		res := execute(t, tctx(t, 60*time.Second), d, c, map[string]any{"client": "zzz"})
		wantState(t, res, runtime.StateBusinessOutcome, "no_client")
	})
}

// deskProblems checks a completed desk run's outputs against what the
// site serves: the clients SearchClients finds, the first two frame pages
// of invoices in order, the status the synchronisation wrote, and, since
// before, one synchronisation and one request for page 2 served by B.
func deskProblems(res *runtime.Result, inv *testsite.Invoicing, client string, before deskBaseline) []string {
	var p []string
	wantClients := testsite.SearchClients(client)
	clients, _ := res.ModelOutputs["clients"].([]any)
	if len(clients) != len(wantClients) {
		return append(p, fmt.Sprintf("clients = %#v, want %+v", res.ModelOutputs["clients"], wantClients))
	}
	for i, w := range wantClients {
		r, _ := clients[i].(map[string]any)
		if r["name"] != w.Name || fmt.Sprint(r["invoices"]) != fmt.Sprint(w.Invoices) {
			p = append(p, fmt.Sprintf("client %d = %v, want %+v", i, clients[i], w))
		}
	}
	wantInvoices := testsite.Invoices[:2*testsite.FramePageSize]
	invs, _ := res.ModelOutputs["invoices"].([]any)
	if len(invs) != len(wantInvoices) {
		return append(p, fmt.Sprintf("%d invoices, want %d: %#v", len(invs), len(wantInvoices), invs))
	}
	for i, w := range wantInvoices {
		r, _ := invs[i].(map[string]any)
		if r["number"] != w.Number || r["customer"] != w.Customer || r["amount"] != w.Amount {
			p = append(p, fmt.Sprintf("invoice %d = %v, want %+v", i, invs[i], w))
		}
	}
	wantStatus := fmt.Sprintf("Sincronizzazione completata: %d clienti", len(testsite.SearchClients("")))
	if got, _ := res.ModelOutputs["sync_status"].(string); got != wantStatus {
		p = append(p, fmt.Sprintf("sync_status = %q, want %q", got, wantStatus))
	}
	if n := inv.Hits(testsite.DeskSyncAPI) - before.syncs; n != 1 {
		p = append(p, fmt.Sprintf("%d synchronisations, want 1", n))
	}
	if n := framePageRequests(inv, 2) - before.page2; n != 1 {
		p = append(p, fmt.Sprintf("the frame loaded page 2 %d times, want once", n))
	}
	return p
}

// TestStressClientDesk runs the combined desk capability in the stress
// tier: every run must complete clean with the served values.
func TestStressClientDesk(t *testing.T) {
	n := stressIterations(t)
	inv := startInvoicing(t)
	d := stressLaunch(t)
	c := deskCapability(inv)
	y := &tally{t: t, name: "client-desk"}
	for i := 0; i < n; i++ {
		before := deskBefore(inv)
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		res, p := stressRun(t, ctx, d, c, map[string]any{"client": "acme"})
		cancel()
		p = append(p, wantCompleted(res)...)
		if res != nil && res.State == runtime.StateCompleted {
			p = append(p, deskProblems(res, inv, "acme", before)...)
		}
		y.judge(i, res, p)
	}
	y.done()
}

// framePageRequests counts the requests for the framed list's page n B
// has served.
func framePageRequests(inv *testsite.Invoicing, n int) int {
	count := 0
	for _, r := range inv.Workspace.Requests() {
		if r.Path != testsite.FrameInvoicesPath {
			continue
		}
		if vs, err := url.ParseQuery(r.RawQuery); err == nil && vs.Get("page") == fmt.Sprint(n) {
			count++
		}
	}
	return count
}

// deskBaseline is what the site had served before a run.
type deskBaseline struct{ syncs, page2 int }

func deskBefore(inv *testsite.Invoicing) deskBaseline {
	return deskBaseline{syncs: inv.Hits(testsite.DeskSyncAPI), page2: framePageRequests(inv, 2)}
}

// TestClientDeskFrameMissing: a milestone whose frame path never
// resolves fails its first locator action (an extraction, a click) with
// frame_not_allowed / frame_not_found, after the top-level milestones
// before it completed in the top-level document; the click's cause names
// the milestone's path.
func TestClientDeskFrameMissing(t *testing.T) {
	t.Parallel()
	d := shared(t)
	inv := startInvoicing(t)
	missing := []string{"iframe#no-such-list"}
	for _, first := range []string{"read-page-1", "next-page"} {
		t.Run(first, func(t *testing.T) {
			syncs := inv.Hits(testsite.DeskSyncAPI)
			c := deskCapability(inv)
			c.Runtime.ActionTimeoutMS = 3000
			m := &c.Milestones[2]
			m.FrameSelectors = missing
			for m.Actions[0].ID != first {
				m.Actions = m.Actions[1:]
			}
			if errs := c.ValidateForExecution(); len(errs) > 0 {
				t.Fatal(errs)
			}
			res := execute(t, tctx(t, 90*time.Second), d, c, map[string]any{"client": "acme"})
			if res.State != runtime.StateFailed || res.Failure == nil || res.Failure.Category != receipt.CategoryFrameNotAllowed ||
				res.Failure.Reason != "frame_not_found" || res.StoppedAt != first {
				t.Fatalf("run ended %s, want failed frame_not_allowed/frame_not_found at %s", describeResult(res), first)
			}
			if first == "next-page" && (res.Cause == nil || !slices.Equal(res.Cause.Frame, missing) || res.Cause.FrameProblem != "frame_not_found") {
				t.Errorf("cause = %+v, want the milestone's frame path and frame_not_found", res.Cause)
			}
			for _, id := range []string{"search", "sync"} {
				if s := milestoneStatus(res, id); s != "completed" {
					t.Errorf("milestone %s: %q, want completed", id, s)
				}
			}
			if n := inv.Hits(testsite.DeskSyncAPI) - syncs; n != 1 {
				t.Errorf("%d synchronisations, want 1", n)
			}
		})
	}
}

func milestoneStatus(res *runtime.Result, id string) string {
	for _, m := range res.Milestones {
		if m.ID == id {
			return m.Status
		}
	}
	return ""
}

// TestClientDeskRefusedForms: the mixed form and a frame-scoped URL
// condition in a top-level milestone are refused before the browser is
// touched, with typed problems.
func TestClientDeskRefusedForms(t *testing.T) {
	inv := startInvoicing(t)
	for _, tc := range []struct {
		name string
		code capability.Code
		edit func(c *capability.Capability)
	}{
		{"mixed", capability.CodeFramePathMixed, func(c *capability.Capability) { c.Runtime.FrameSelectors = deskFrame }},
		{"frame_scope_at_top", capability.CodeFrameScope, func(c *capability.Capability) {
			c.Milestones[0].Actions[0].Postcondition.Scope = capability.ScopeFrame
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := deskCapability(inv)
			tc.edit(c)
			_, err := runtime.Execute(t.Context(), c, map[string]any{"client": "acme"}, runtime.WithRunDir(t.TempDir()))
			var ce *runtime.CapabilityError
			if !errors.As(err, &ce) || !ce.Problems.Has(tc.code) {
				t.Fatalf("Execute = %v, want a %s problem", err, tc.code)
			}
		})
	}
}
