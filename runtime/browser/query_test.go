package browser

import (
	"fmt"
	"net/url"
	"testing"
	"time"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/testsite"
	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/runtime"
)

// liveCap is a capability written by hand for these tests (state
// authored, hand_authored provenance) on the given origins.
func liveCap(start string, origins []string, ms ...capability.Milestone) *capability.Capability {
	return &capability.Capability{
		Schema: capability.SchemaV1, ID: "test.query", Version: "1.0.0", Name: "Query capability",
		Goal:       "Exercise query entries and frame URLs in Chromium.",
		State:      capability.StateAuthored,
		Provenance: handProvenance("written by hand for the query entry and frame URL tests; no discovery session was recorded"),
		Site:       capability.Site{Name: "Invoicing", AllowedOrigins: origins},
		Runtime:    capability.Runtime{Start: start, ActionTimeoutMS: 15000, TransitionTimeoutMS: 15000, RunTimeoutMS: 90000, MaxActions: 50},
		Authority:  capability.Authority{MaxEffect: capability.EffectReadOnly},
		Privacy:    capability.Privacy{DataClasses: []string{"client_names"}},
		Milestones: ms,
	}
}

func css(s string) locator.Candidate { return locator.Candidate{Strategy: locator.CSS, CSS: s} }

// clientSearchCap opens /clients?view=list&q={{client}} with a navigate
// action and reads the listed clients; "No client matches" is the
// no_client business outcome.
func clientSearchCap(origin string) *capability.Capability {
	nav := capability.Action{ID: "search", Operation: capability.OpNavigate, Intent: "Open the client search for the name",
		Effect: capability.EffectReadOnly, Confirmation: capability.ConfirmNone, URL: "/clients",
		Query:         []capability.QueryEntry{{Name: "view", Value: "list"}, {Name: "q", Value: "{{client}}"}},
		Postcondition: &capability.Condition{Kind: capability.CondURLIncludes, Value: "q={{client}}"}}
	read := capability.Action{ID: "read-clients", Operation: capability.OpExtract, Intent: "Read the matching clients",
		Effect: capability.EffectReadOnly, Confirmation: capability.ConfirmNone, Output: "clients",
		LocatorCandidates: []locator.Candidate{css("tr.client-row:visible")},
		Extract: &capability.Extraction{Mode: capability.ExtractList, MaxRecords: 50, Fields: []capability.Field{
			{Name: "name", Type: capability.FieldString, LocatorCandidates: []locator.Candidate{css("td.name")}},
			{Name: "invoices", Type: capability.FieldInteger, LocatorCandidates: []locator.Candidate{css("td.invoices")}},
		}},
		Postcondition: &capability.Condition{Kind: capability.CondOutputProduced, Output: "clients"}}
	c := liveCap(testsite.ClientsPath, []string{origin},
		capability.Milestone{ID: "search", Intent: "Search the clients", Actions: []capability.Action{nav}},
		capability.Milestone{ID: "read", Intent: "Read the results", Actions: []capability.Action{read}})
	c.Inputs = []capability.Input{{Name: "client", Type: capability.InputString, Required: true, MaxLength: 100}}
	c.Outputs = []capability.Output{{Name: "clients", Kind: capability.OutputRecordSet, Exposure: capability.ExposureModelAndArtifact,
		Fields: []capability.OutputField{{Name: "name", Type: capability.FieldString}, {Name: "invoices", Type: capability.FieldInteger}}}}
	c.BusinessOutcomes = []capability.BusinessOutcome{{Code: "no_client", Detect: capability.OutcomeDetect{VisibleText: "No client matches"}}}
	return c
}

// TestQueryClientSearch: a templated query entry reaches the server as
// exactly one q parameter holding the input byte for byte ('&', '=', '#',
// '+', spaces and non-ASCII inert), the url_includes postcondition
// matches the query state, and the listed clients are SearchClients'.
func TestQueryClientSearch(t *testing.T) {
	t.Parallel()
	d := shared(t)
	inv := startInvoicing(t)
	c := clientSearchCap(inv.Origin())
	if errs := c.ValidateForExecution(); len(errs) > 0 {
		t.Fatal(errs)
	}
	for _, client := range []string{"Bianchi & Figli", "café", "acme", "zzz&q=acme", "x#q=acme", "a+b=c"} {
		t.Run(client, func(t *testing.T) {
			ctx := tctx(t, 60*time.Second)
			res := execute(t, ctx, d, c, map[string]any{"client": client})
			want := testsite.SearchClients(client)
			if len(want) == 0 {
				wantState(t, res, runtime.StateBusinessOutcome, "no_client")
			} else {
				wantState(t, res, runtime.StateCompleted, "")
				recs, ok := res.ModelOutputs["clients"].([]any)
				if !ok || len(recs) != len(want) {
					t.Fatalf("clients = %#v, want %+v", res.ModelOutputs["clients"], want)
				}
				for i, w := range want {
					r, _ := recs[i].(map[string]any)
					if r["name"] != w.Name || fmt.Sprint(r["invoices"]) != fmt.Sprint(w.Invoices) {
						t.Errorf("record %d = %v, want %+v", i, recs[i], w)
					}
				}
			}
			var seen bool
			for _, r := range inv.Requests() {
				if r.Path != testsite.ClientsPath {
					continue
				}
				vs, err := url.ParseQuery(r.RawQuery)
				if err == nil && len(vs) == 2 && len(vs["q"]) == 1 && vs["q"][0] == client && vs.Get("view") == "list" {
					seen = true
				}
			}
			if !seen {
				t.Fatalf("no request carried q=%q alone: %+v", client, inv.Requests())
			}
		})
	}
}

// frameListCap opens /billing/list, whose cross-origin frame lists the
// invoices a page at a time, clicks "Next page" (a link that navigates the
// frame) and proves the click only by the frame's URL.
func frameListCap(inv *testsite.Invoicing, post capability.Condition) *capability.Capability {
	next := capability.Action{ID: "next-page", Operation: capability.OpClick, Intent: "Go to the next page of invoices",
		Effect: capability.EffectReadOnly, Confirmation: capability.ConfirmNone,
		LocatorCandidates: []locator.Candidate{{Strategy: locator.Role, Role: "link", Name: "Next page"}},
		Postcondition:     &post}
	c := liveCap(testsite.InvoiceListPath, []string{inv.Origin(), inv.WorkspaceOrigin()},
		capability.Milestone{ID: "page", Intent: "Page through the invoices", Actions: []capability.Action{next}})
	c.Runtime.FrameSelectors = []string{"iframe#invoice-list"}
	c.Runtime.ActionTimeoutMS = 3000
	return c
}

// TestFrameURLPagination: in Chromium, with the list in an out-of-process
// frame, url_includes and url_path with scope "frame" hold after the
// frame navigated to ?page=2, while the same url_includes on the page
// scope fails: the top-level URL is still /billing/list.
func TestFrameURLPagination(t *testing.T) {
	t.Parallel()
	d := shared(t)
	inv := startInvoicing(t)
	for _, tc := range []struct {
		name string
		post capability.Condition
		ok   bool
	}{
		{"frame_includes", capability.Condition{Kind: capability.CondURLIncludes, Value: "/frame/invoices?page=2", Scope: capability.ScopeFrame}, true},
		{"frame_path", capability.Condition{Kind: capability.CondURLPath, Value: testsite.FrameInvoicesPath, Scope: capability.ScopeFrame}, true},
		{"page_scope_fails", capability.Condition{Kind: capability.CondURLIncludes, Value: "page=2"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := frameListCap(inv, tc.post)
			if errs := c.ValidateForExecution(); len(errs) > 0 {
				t.Fatal(errs)
			}
			ctx := tctx(t, 60*time.Second)
			res := execute(t, ctx, d, c, nil)
			if tc.ok {
				wantState(t, res, runtime.StateCompleted, "")
			} else if res.State != runtime.StateFailed || res.Failure == nil || res.Failure.Reason != "postcondition_failed" {
				t.Fatalf("run ended %s, want failed/postcondition_failed", describeResult(res))
			}
			if got := inv.Workspace.Hits(testsite.FrameInvoicesPath); got < 2 {
				t.Errorf("the frame list was loaded %d times, want the first page and the next", got)
			}
		})
	}
	t.Run("driver_reads_frame_url", func(t *testing.T) {
		ctx := tctx(t, 30*time.Second)
		if err := d.RestrictOrigins(ctx, runtime.OriginScope{Allowed: []string{inv.Origin(), inv.WorkspaceOrigin()}}); err != nil {
			t.Fatal(err)
		}
		if err := d.Navigate(ctx, inv.Origin()+testsite.InvoiceListPath); err != nil {
			t.Fatal(err)
		}
		sc, _, err := d.Frame(ctx, []string{"iframe#invoice-list"})
		if err != nil {
			t.Fatal(err)
		}
		got, err := d.FrameURL(ctx, sc)
		if want := inv.WorkspaceOrigin() + testsite.FrameInvoicesPath + "?page=1"; err != nil || got != want {
			t.Fatalf("FrameURL = %q, %v; want %q", got, err, want)
		}
		top, err := d.FrameURL(ctx, nil)
		if want := inv.Origin() + testsite.InvoiceListPath; err != nil || top != want {
			t.Fatalf("FrameURL(nil) = %q, %v; want %q", top, err, want)
		}
	})
}
