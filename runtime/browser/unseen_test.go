package browser

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"reflect"
	"sort"
	"testing"
	"time"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/testsite"
	"github.com/vera-run/vera/runtime"
)

// Sites the code has never seen: capabilities written from FORMAT.md, as
// an author would, against the unseen pages of internal/testsite
// (unseen.go: a settings page of switches with a Save that is disabled
// until something changed and a toast that lasts one second, a wizard
// that remounts its form and keeps the earlier steps hidden with the same
// labels, a server-sorted table with a sticky header and kebab menus, a
// dashboard fed by a Web Worker or a service worker behind skeletons, a
// <dialog> opened with showModal() holding form-associated custom
// elements with closed shadow roots). Each case checks the business
// answer, and what the server received, not just the terminal state.

// unseenSettings turns two alerts on, the weekly digest off and dark mode
// on, then saves.
const unseenSettings = `
  "inputs": [],
  "outputs": [{"name": "last_saved", "kind": "text", "exposure": "model_and_artifact"}],
  "milestones": [{
    "id": "settings",
    "intent": "Change the notification settings and save them",
    "actions": [
      {"id": "email-on", "operation": "check", "intent": "Turn e-mail alerts on", "effect": "reversible", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "switch", "name": "Email alerts", "exact": true}],
       "postcondition": {"kind": "locator_visible", "locator_candidates": [{"strategy": "role", "role": "switch", "name": "Email alerts", "exact": true}]}},
      {"id": "digest-off", "operation": "uncheck", "intent": "Turn the weekly digest off", "effect": "reversible", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "switch", "name": "Weekly digest", "exact": true}],
       "postcondition": {"kind": "locator_visible", "locator_candidates": [{"strategy": "role", "role": "switch", "name": "Weekly digest", "exact": true}]}},
      {"id": "dark-on", "operation": "check", "intent": "Turn dark mode on", "effect": "reversible", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "switch", "name": "Dark mode", "exact": true},
                              {"strategy": "label", "label": "Dark mode", "exact": true}],
       "postcondition": {"kind": "locator_visible", "locator_candidates": [{"strategy": "role", "role": "switch", "name": "Dark mode", "exact": true}]}},
      {"id": "save", "operation": "click", "intent": "Save the settings", "effect": "reversible", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "button", "name": "Save", "exact": true}],
       "postcondition": {"kind": "text_visible", "text": "Settings saved"}},
      {"id": "read-saved", "operation": "extract", "intent": "Read what was saved", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "text", "text": "Last saved:"}],
       "output": "last_saved",
       "extract": {"mode": "text"},
       "postcondition": {"kind": "output_produced", "output": "last_saved"}}
    ]
  }]`

// unseenSettingsNoChange turns on a switch that is already on, then
// clicks Save, which stays disabled: nothing may be reported saved.
const unseenSettingsNoChange = `
  "inputs": [],
  "outputs": [],
  "milestones": [{
    "id": "settings",
    "intent": "Keep the weekly digest on and save",
    "actions": [
      {"id": "digest-on", "operation": "check", "intent": "Keep the weekly digest on", "effect": "reversible", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "switch", "name": "Weekly digest", "exact": true}],
       "postcondition": {"kind": "locator_visible", "locator_candidates": [{"strategy": "role", "role": "switch", "name": "Weekly digest", "exact": true}]}},
      {"id": "save", "operation": "click", "intent": "Save the settings", "effect": "reversible", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "button", "name": "Save", "exact": true}],
       "timeout_ms": 1500,
       "postcondition": {"kind": "text_visible", "text": "Settings saved"}}
    ]
  }]`

// unseenSettingsAutosave turns e-mail alerts on and the weekly digest
// off on a page that saves each switch at once and flips it only when
// the server has answered.
const unseenSettingsAutosave = `
  "inputs": [],
  "outputs": [{"name": "last_saved", "kind": "text", "exposure": "model_and_artifact"}],
  "milestones": [{
    "id": "settings",
    "intent": "Change the notification settings",
    "actions": [
      {"id": "email-on", "operation": "check", "intent": "Turn e-mail alerts on", "effect": "reversible", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "switch", "name": "Email alerts", "exact": true}],
       "postcondition": {"kind": "locator_visible", "locator_candidates": [{"strategy": "role", "role": "switch", "name": "Email alerts", "exact": true}]}},
      {"id": "digest-off", "operation": "uncheck", "intent": "Turn the weekly digest off", "effect": "reversible", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "switch", "name": "Weekly digest", "exact": true}],
       "postcondition": {"kind": "locator_visible", "locator_candidates": [{"strategy": "role", "role": "switch", "name": "Weekly digest", "exact": true}]}},
      {"id": "read-saved", "operation": "extract", "intent": "Read what was saved", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "text", "text": "Last saved:"}],
       "output": "last_saved",
       "extract": {"mode": "text"},
       "postcondition": {"kind": "output_produced", "output": "last_saved"}}
    ]
  }]`

const unseenSettingsWant = "Last saved: email=on sms=off digest=off dark=on"

// TestUnseenSettings: switches that are re-rendered (new elements) on
// every click are checked and unchecked, the Save that was disabled until
// then is clicked, the one-second toast proves it, and the server
// received exactly the state asked for; a Save that stays disabled never
// yields a completed run and posts nothing.
func TestUnseenSettings(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	t.Run("change", func(t *testing.T) {
		c := wcCapability(t, s.Stress.Origin(), "unseen-settings", "/unseen/settings", unseenSettings)
		res := execute(t, tctx(t, 60*time.Second), d, c, nil)
		wantState(t, res, runtime.StateCompleted, "")
		if got := res.ModelOutputs["last_saved"]; got != unseenSettingsWant {
			t.Errorf("last_saved = %v, want %q", got, unseenSettingsWant)
		}
		want := []testsite.UnseenSettings{{Email: true, Digest: false, Dark: true}}
		if got := s.Stress.UnseenSettings(); !reflect.DeepEqual(got, want) {
			t.Errorf("server saved %+v, want %+v", got, want)
		}
	})
	t.Run("autosave", func(t *testing.T) {
		before := len(s.Stress.UnseenSettings())
		c := wcCapabilityQuery(t, s.Stress.Origin(), "unseen-settings-auto", "/unseen/settings", `[{"name": "autosave", "value": "1"}]`, unseenSettingsAutosave)
		res := execute(t, tctx(t, 60*time.Second), d, c, nil)
		wantState(t, res, runtime.StateCompleted, "")
		if got, want := res.ModelOutputs["last_saved"], "Last saved: email=on sms=off digest=off dark=off"; got != want {
			t.Errorf("last_saved = %v, want %q", got, want)
		}
		want := []testsite.UnseenSettings{{Email: true, Digest: true}, {Email: true}}
		if got := s.Stress.UnseenSettings()[before:]; !reflect.DeepEqual(got, want) {
			t.Errorf("server saved %+v, want %+v", got, want)
		}
	})
	t.Run("nothing-to-save", func(t *testing.T) {
		before := len(s.Stress.UnseenSettings())
		c := wcCapability(t, s.Stress.Origin(), "unseen-settings-same", "/unseen/settings", unseenSettingsNoChange)
		res := execute(t, tctx(t, 60*time.Second), d, c, nil)
		if res.State == runtime.StateCompleted {
			t.Fatalf("a Save that stayed disabled completed: %s", describeResult(res))
		}
		t.Logf("disabled Save: %s", describeResult(res))
		if got := len(s.Stress.UnseenSettings()); got != before {
			t.Errorf("the server saved %d settings, want none", got-before)
		}
	})
}

// unseenWizard creates a supplier through a three-step wizard whose
// earlier steps stay in the DOM, hidden, with the same labels "Name" and
// "Email". candidates is "role" (a role candidate first, then the label)
// or "label" (the label only).
func unseenWizard(candidates string) string {
	field := func(name string) string {
		l := `{"strategy": "label", "label": "` + name + `", "exact": true}`
		if candidates == "label" {
			return "[" + l + "]"
		}
		return `[{"strategy": "role", "role": "textbox", "name": "` + name + `", "exact": true}, ` + l + `]`
	}
	fill := func(id, input, name string) string {
		return `{"id": "` + id + `", "operation": "fill", "intent": "Type the ` + input + `", "effect": "reversible", "confirmation": "none",
       "locator_candidates": ` + field(name) + `, "input": "` + input + `",
       "postcondition": {"kind": "locator_visible", "locator_candidates": ` + field(name) + `}}`
	}
	next := func(id, heading string) string {
		return `{"id": "` + id + `", "operation": "click", "intent": "Go to the next step", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "button", "name": "Next", "exact": true}],
       "postcondition": {"kind": "locator_visible", "locator_candidates": [{"strategy": "role", "role": "heading", "name": "` + heading + `", "exact": true}]}}`
	}
	return `
  "inputs": [{"name": "company", "type": "string", "required": true, "max_length": 80},
             {"name": "company_email", "type": "string", "required": true, "max_length": 80},
             {"name": "contact", "type": "string", "required": true, "max_length": 80},
             {"name": "contact_email", "type": "string", "required": true, "max_length": 80}],
  "outputs": [{"name": "review", "kind": "record", "exposure": "model_and_artifact",
    "fields": [{"name": "company", "type": "string"}, {"name": "company_email", "type": "string"},
               {"name": "contact", "type": "string"}, {"name": "contact_email", "type": "string"}]},
    {"name": "supplier_id", "kind": "text", "exposure": "model_and_artifact"}],
  "milestones": [{
    "id": "company",
    "intent": "Enter the company",
    "actions": [` + fill("company-name", "company", "Name") + `, ` + fill("company-email", "company_email", "Email") + `, ` + next("to-contact", "Contact") + `]
  }, {
    "id": "contact",
    "intent": "Enter the contact person",
    "actions": [` + fill("contact-name", "contact", "Name") + `, ` + fill("contact-email", "contact_email", "Email") + `, ` + next("to-review", "Review") + `]
  }, {
    "id": "review",
    "intent": "Review and create the supplier",
    "actions": [
      {"id": "read-review", "operation": "extract", "intent": "Read the review", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "region", "name": "Review", "exact": true}],
       "output": "review",
       "extract": {"mode": "single", "fields": [
         {"name": "company", "type": "string", "locator_candidates": [{"strategy": "test_id", "test_id": "company"}]},
         {"name": "company_email", "type": "string", "locator_candidates": [{"strategy": "test_id", "test_id": "company-email"}]},
         {"name": "contact", "type": "string", "locator_candidates": [{"strategy": "test_id", "test_id": "contact"}]},
         {"name": "contact_email", "type": "string", "locator_candidates": [{"strategy": "test_id", "test_id": "contact-email"}]}],
         "required_fields": ["company", "company_email", "contact", "contact_email"]},
       "postcondition": {"kind": "output_produced", "output": "review"}},
      {"id": "create", "operation": "click", "intent": "Create the supplier", "effect": "reversible", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "button", "name": "Create supplier", "exact": true}],
       "postcondition": {"kind": "text_visible", "text": "Supplier created"}},
      {"id": "read-id", "operation": "extract", "intent": "Read the new supplier's id", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "test_id", "test_id": "supplier-id"}],
       "output": "supplier_id",
       "extract": {"mode": "text"},
       "postcondition": {"kind": "output_produced", "output": "supplier_id"}}
    ]
  }]`
}

var unseenSupplier = testsite.UnseenSupplier{
	Company: "Borgo Srl", CompanyEmail: "billing@borgo.example", Contact: "Ada Rossi", ContactEmail: "ada@borgo.example",
}

func unseenSupplierInputs() map[string]any {
	return map[string]any{
		"company": unseenSupplier.Company, "company_email": unseenSupplier.CompanyEmail,
		"contact": unseenSupplier.Contact, "contact_email": unseenSupplier.ContactEmail,
	}
}

// TestUnseenWizard: every value lands in its own step although the
// earlier step, hidden by display:none, by inert and aria-hidden, or by
// aria-hidden alone, has fields with the same labels, and every Next
// remounts the form. A role candidate first finds only the current step's
// field in every mode (an aria-hidden or inert subtree is not in the
// accessibility tree). The label alone finds both fields when the old
// step is only moved out of view: with aria-hidden alone the old field is
// still focusable and editable, so the run must stop as ambiguous, never
// type into either (Playwright's getByLabel counts it too).
func TestUnseenWizard(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	for _, tc := range []struct {
		hide, cands string
		ambiguous   bool   // the run stops at contact-name as locator_ambiguous
		fault       string // a known fault: the case is skipped with this reason
	}{
		{"display", "role", false, ""},
		{"display", "label", false, ""},
		{"inert", "role", false, ""},
		{"inert", "label", false, ""},
		{"aria", "role", false, ""},
		{"aria", "label", true, ""},
	} {
		t.Run(tc.hide+"/"+tc.cands, func(t *testing.T) {
			skipFault(t, tc.fault)
			before := len(s.Stress.UnseenSuppliers())
			c := wcCapabilityQuery(t, s.Stress.Origin(), "unseen-wizard", "/unseen/wizard",
				`[{"name": "hide", "value": "`+tc.hide+`"}]`, unseenWizard(tc.cands))
			res := execute(t, tctx(t, 60*time.Second), d, c, unseenSupplierInputs())
			got := s.Stress.UnseenSuppliers()[before:]
			if tc.ambiguous {
				if res.State != runtime.StateRecoveryRequested || res.Failure == nil || res.Failure.Reason != "locator_ambiguous" || res.StoppedAt != "contact-name" {
					t.Fatalf("run ended %s, want recovery_requested locator_ambiguous at contact-name", describeResult(res))
				}
				if len(got) != 0 {
					t.Fatalf("server created %+v after an ambiguous field", got)
				}
				return
			}
			wantState(t, res, runtime.StateCompleted, "")
			want := map[string]any{"company": unseenSupplier.Company, "company_email": unseenSupplier.CompanyEmail,
				"contact": unseenSupplier.Contact, "contact_email": unseenSupplier.ContactEmail}
			if got := asJSON(t, res.ModelOutputs["review"]); !reflect.DeepEqual(got, want) {
				t.Errorf("review = %v, want %v", got, want)
			}
			if !reflect.DeepEqual(got, []testsite.UnseenSupplier{unseenSupplier}) {
				t.Errorf("server created %+v, want %+v", got, unseenSupplier)
			}
			if id := fmt.Sprint(res.ModelOutputs["supplier_id"]); id != fmt.Sprintf("SUP-%d", 700+before+1) {
				t.Errorf("supplier_id = %s", id)
			}
		})
	}
}

// unseenTable sorts the invoices by amount, descending (two header
// clicks, each answered by the server 200-600 ms later), reads the rows,
// then archives the cheapest invoice (the last row, below the scrolled
// box's visible area) and the dearest (the first row, which scrolling
// back up leaves under the sticky header) through their kebab menus.
func unseenTable(low, high string) string {
	archive := func(id, number string) string {
		return `{"id": "open-` + id + `", "operation": "click", "intent": "Open the row's actions", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "button", "name": "Actions for ` + number + `", "exact": true}],
       "postcondition": {"kind": "locator_visible", "locator_candidates": [{"strategy": "role", "role": "menu", "name": "Actions for ` + number + `", "exact": true}]}},
      {"id": "archive-` + id + `", "operation": "click", "intent": "Archive the invoice", "effect": "reversible", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "menuitem", "name": "Archive", "exact": true,
                               "scope": {"strategy": "role", "role": "menu", "name": "Actions for ` + number + `", "exact": true}}],
       "postcondition": {"kind": "text_visible", "text": "` + number + ` archived"}}`
	}
	return `
  "inputs": [],
  "outputs": [{"name": "invoices", "kind": "record_set", "exposure": "model_and_artifact",
    "fields": [{"name": "number", "type": "string"}, {"name": "customer", "type": "string"}, {"name": "amount", "type": "string"}]}],
  "milestones": [{
    "id": "sort",
    "intent": "Sort the invoices by amount, dearest first, and read them",
    "actions": [
      {"id": "sort-asc", "operation": "click", "intent": "Sort by amount", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "button", "name": "Amount", "exact": true}],
       "postcondition": {"kind": "locator_visible", "locator_candidates": [{"strategy": "role", "role": "columnheader", "name": "Amount", "exact": true}]}},
      {"id": "sort-desc", "operation": "click", "intent": "Sort by amount again, descending", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "button", "name": "Amount", "exact": true}],
       "postcondition": {"kind": "locator_visible", "locator_candidates": [{"strategy": "role", "role": "columnheader", "name": "Amount", "exact": true}]}},
      {"id": "read-rows", "operation": "extract", "intent": "Read the sorted invoices", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "css", "css": "tr.inv-row:visible"}],
       "output": "invoices",
       "extract": {"mode": "list", "max_records": 100, "fields": [
         {"name": "number", "type": "string", "locator_candidates": [{"strategy": "css", "css": "td.num"}]},
         {"name": "customer", "type": "string", "locator_candidates": [{"strategy": "css", "css": "td.cust"}]},
         {"name": "amount", "type": "string", "locator_candidates": [{"strategy": "css", "css": "td.amount"}]}],
         "required_fields": ["number", "customer", "amount"]},
       "postcondition": {"kind": "output_produced", "output": "invoices"}},
      ` + archive("low", low) + `,
      ` + archive("high", high) + `
    ]
  }]`
}

// TestUnseenTable: the rows read are in the order the second header click
// asked for (never the first click's or the initial order still on
// screen), and the two invoices archived are the ones named, the second
// one clicked while scrolling leaves its row under the sticky header.
func TestUnseenTable(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	rows := unseenSortedDesc()
	low, high := rows[len(rows)-1].Number, rows[0].Number
	c := wcCapability(t, s.Stress.Origin(), "unseen-table", "/unseen/table", unseenTable(low, high))
	res := execute(t, tctx(t, 90*time.Second), d, c, nil)
	wantState(t, res, runtime.StateCompleted, "")
	if got, want := asJSON(t, res.ModelOutputs["invoices"]), unseenRowsJSON(rows); !reflect.DeepEqual(got, want) {
		t.Errorf("invoices = %v\nwant %v", got, want)
	}
	if got, want := s.Stress.UnseenArchived(), []string{low, high}; !reflect.DeepEqual(got, want) {
		t.Errorf("server archived %v, want %v", got, want)
	}
}

// unseenSortedDesc is the invoices by amount, dearest first.
func unseenSortedDesc() []testsite.UnseenInvoice {
	rows := testsite.UnseenInvoices()
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].Amount > rows[j].Amount })
	return rows
}

func unseenRowsJSON(rows []testsite.UnseenInvoice) []any {
	out := make([]any, len(rows))
	for i, r := range rows {
		out[i] = map[string]any{"number": r.Number, "customer": r.Customer, "amount": testsite.UnseenEuro(r.Amount)}
	}
	return out
}

// unseenWorker reads the dashboard a worker fills in behind skeletons.
const unseenWorker = `
  "inputs": [],
  "outputs": [{"name": "open_total", "kind": "text", "exposure": "model_and_artifact"},
    {"name": "orders", "kind": "record_set", "exposure": "model_and_artifact",
    "fields": [{"name": "ref", "type": "string"}, {"name": "customer", "type": "string"}, {"name": "total", "type": "string"}]}],
  "milestones": [{
    "id": "dashboard",
    "intent": "Read the open orders",
    "actions": [
      {"id": "read-total", "operation": "extract", "intent": "Read the open total", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "test_id", "test_id": "open-total"}],
       "output": "open_total",
       "extract": {"mode": "text"},
       "postcondition": {"kind": "output_produced", "output": "open_total"}},
      {"id": "read-orders", "operation": "extract", "intent": "Read the orders", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "css", "css": "tr.order-row:visible"}],
       "output": "orders",
       "extract": {"mode": "list", "max_records": 50, "fields": [
         {"name": "ref", "type": "string", "locator_candidates": [{"strategy": "css", "css": "td.ref"}]},
         {"name": "customer", "type": "string", "locator_candidates": [{"strategy": "css", "css": "td.cust"}]},
         {"name": "total", "type": "string", "locator_candidates": [{"strategy": "css", "css": "td.total"}]}],
         "required_fields": ["ref", "customer", "total"]},
       "postcondition": {"kind": "output_produced", "output": "orders"}}
    ]
  }]`

// unseenWorkerTotal reads only the open total (a capability that wants
// one figure).
const unseenWorkerTotal = `
  "inputs": [],
  "outputs": [{"name": "open_total", "kind": "text", "exposure": "model_and_artifact", "required": true}],
  "milestones": [{
    "id": "dashboard",
    "intent": "Read the open total",
    "actions": [
      {"id": "read-total", "operation": "extract", "intent": "Read the open total", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "test_id", "test_id": "open-total"}],
       "output": "open_total",
       "extract": {"mode": "text"},
       "postcondition": {"kind": "output_produced", "output": "open_total"}}
    ]
  }]`

func unseenOrdersWant() (string, []any) {
	var sum int
	var rows []any
	for _, o := range testsite.UnseenOrders() {
		sum += o.Total
		rows = append(rows, map[string]any{"ref": o.Ref, "customer": o.Customer, "total": testsite.UnseenEuro(o.Total)})
	}
	return testsite.UnseenEuro(sum), rows
}

// envUnseenFaults=1 runs the known-fault cases instead of skipping them
// (each then fails, showing the fault).
const envUnseenFaults = "VERA_UNSEEN_FAULTS"

// skipFault skips a known-fault case unless envUnseenFaults is set.
func skipFault(t *testing.T, fault string) {
	t.Helper()
	if fault != "" && os.Getenv(envUnseenFaults) != "1" {
		t.Skip(fault)
	}
}

// unseenWorkerCases are the worker dashboard's cases (TestUnseenWorker,
// TestStressUnseenWorkers): the page's query, and worker-total reads only
// the total.
var unseenWorkerCases = []struct{ name, query string }{
	{"worker-total", `[{"name": "via", "value": "worker"}, {"name": "work", "value": "200"}]`},
	{"worker", `[{"name": "via", "value": "worker"}, {"name": "work", "value": "200"}]`},
	{"worker-nowork", `[{"name": "via", "value": "worker"}]`},
	{"sw", `[{"name": "via", "value": "sw"}]`},
}

// TestUnseenWorker: the dashboard's figures must be the data's, never the
// skeleton's (an empty total, empty rows), whether a dedicated worker or
// a service worker fetched them. These were known faults: Settle did not
// follow a worker's fetch (a dedicated worker's fetch was seen only at the
// page's interceptor, never as a renderer load, so the barrier let go
// right after the reply, before the worker posted the data) nor a service
// worker's install (after the start navigation nothing was pending while
// it installed, before the page's data fetch was sent). The extracts read
// the skeleton, and a capability that wants only the total completed with
// open_total "" (a plausible wrong answer: an empty text output counts as
// produced, even a required one, and expectations skip empty values).
// Settle now follows the workers' loads (causal.wloads, a worker check,
// then a DOM-quiet check of the page) and the service worker's versions
// (causal.sw). worker-nowork has no aggregation delay.
func TestUnseenWorker(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	for _, tc := range unseenWorkerCases {
		t.Run(tc.name, func(t *testing.T) {
			body := unseenWorker
			if tc.name == "worker-total" {
				body = unseenWorkerTotal
			}
			c := wcCapabilityQuery(t, s.Stress.Origin(), "unseen-worker", "/unseen/worker", tc.query, body)
			res := execute(t, tctx(t, 60*time.Second), d, c, nil)
			total, rows := unseenOrdersWant()
			if got := res.ModelOutputs["open_total"]; got != total {
				t.Errorf("open_total = %q, want %q (run %s)", got, total, describeResult(res))
			}
			wantState(t, res, runtime.StateCompleted, "")
			if body == unseenWorkerTotal {
				return
			}
			if got := asJSON(t, res.ModelOutputs["orders"]); !reflect.DeepEqual(got, rows) {
				t.Errorf("orders = %v, want %v", got, rows)
			}
		})
	}
}

// unseenContacts adds a contact through a modal <dialog> whose text
// fields are form-associated custom elements with closed shadow roots.
const unseenContacts = `
  "inputs": [{"name": "name", "type": "string", "required": true, "max_length": 80},
             {"name": "email", "type": "string", "required": true, "max_length": 80},
             {"name": "role", "type": "enum", "required": true, "values": ["Viewer", "Editor", "Admin"]}],
  "outputs": [{"name": "contacts", "kind": "text", "exposure": "model_and_artifact"}],
  "milestones": [{
    "id": "add",
    "intent": "Add a contact",
    "actions": [
      {"id": "open", "operation": "click", "intent": "Open the new contact dialog", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "button", "name": "New contact", "exact": true}],
       "postcondition": {"kind": "locator_visible", "locator_candidates": [{"strategy": "role", "role": "dialog", "name": "New contact", "exact": true}]}},
      {"id": "fill-name", "operation": "fill", "intent": "Type the name", "effect": "reversible", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "textbox", "name": "Full name", "exact": true},
                              {"strategy": "label", "label": "Full name", "exact": true}],
       "input": "name",
       "postcondition": {"kind": "locator_visible", "locator_candidates": [{"strategy": "label", "label": "Full name", "exact": true}]}},
      {"id": "fill-email", "operation": "fill", "intent": "Type the e-mail", "effect": "reversible", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "textbox", "name": "Work email", "exact": true},
                              {"strategy": "label", "label": "Work email", "exact": true}],
       "input": "email",
       "postcondition": {"kind": "locator_visible", "locator_candidates": [{"strategy": "label", "label": "Work email", "exact": true}]}},
      {"id": "pick-role", "operation": "select", "intent": "Pick the role", "effect": "reversible", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "combobox", "name": "Role", "exact": true}],
       "input": "role",
       "postcondition": {"kind": "locator_visible", "locator_candidates": [{"strategy": "role", "role": "combobox", "name": "Role", "exact": true}]}},
      {"id": "save", "operation": "click", "intent": "Save the contact", "effect": "reversible", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "button", "name": "Save contact", "exact": true}],
       "postcondition": {"kind": "locator_hidden", "locator_candidates": [{"strategy": "role", "role": "dialog", "name": "New contact"}]}},
      {"id": "read-list", "operation": "extract", "intent": "Read the contacts", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "list", "name": "Contacts", "exact": true}],
       "output": "contacts",
       "extract": {"mode": "text"},
       "postcondition": {"kind": "output_produced", "output": "contacts"}}
    ]
  }]`

// TestUnseenContacts: the values typed into the custom elements' inputs
// are the ones the server received. With open shadow roots the role
// candidate finds the inner input (named by its aria-label).
func TestUnseenContacts(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	for _, tc := range []struct{ shadow, fault string }{
		{"open", ""},
		{"closed", ""},
	} {
		t.Run(tc.shadow, func(t *testing.T) {
			skipFault(t, tc.fault)
			before := len(s.Stress.UnseenContacts())
			c := wcCapabilityQuery(t, s.Stress.Origin(), "unseen-contacts", "/unseen/contacts",
				`[{"name": "shadow", "value": "`+tc.shadow+`"}]`, unseenContacts)
			res := execute(t, tctx(t, 60*time.Second), d, c, map[string]any{"name": "Ada Lovelace", "email": "ada@example.org", "role": "Editor"})
			wantState(t, res, runtime.StateCompleted, "")
			if got, want := res.ModelOutputs["contacts"], "Ada Lovelace (Editor)"; got != want {
				t.Errorf("contacts = %v, want %q", got, want)
			}
			want := []testsite.UnseenContact{{Name: "Ada Lovelace", Email: "ada@example.org", Role: "Editor"}}
			if got := s.Stress.UnseenContacts()[before:]; !reflect.DeepEqual(got, want) {
				t.Errorf("server saved %+v, want %+v", got, want)
			}
		})
	}
}

// TestStressUnseen is the unseen pages' part of the stress tier (skipped
// unless VERA_STRESS=1): the cases that pass, each judged on its answer
// and on what the server received. The settings toast lasts one second, a
// switch that autosaves flips only once the server answered
// (its postcondition must catch it on a loaded machine), the table's
// second header click must act on the first click's rendered order, and
// the wizard's Next remounts the form while an inert copy of the earlier
// step keeps its labels (found by role, and by label alone), and the
// closed-shadow contact fields are found by their <label for> and filled
// through their focus delegate inside a modal dialog. A misreport logs
// the iteration's driver log.
func TestStressUnseen(t *testing.T) {
	n := stressIterations(t)
	s := sites(t)
	logs := &iterLog{}
	d := stressLaunch(t, WithLogger(slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	origin := s.Stress.Origin()
	rows := unseenSortedDesc()
	low, high := rows[len(rows)-1].Number, rows[0].Number
	for _, sc := range []struct {
		name   string
		c      *capability.Capability
		inputs map[string]any
		check  func(res *runtime.Result) []string
	}{
		{"unseen-settings", wcCapability(t, origin, "unseen-settings", "/unseen/settings", unseenSettings), nil,
			func(res *runtime.Result) []string {
				var p []string
				if got := res.ModelOutputs["last_saved"]; got != unseenSettingsWant {
					p = append(p, fmt.Sprintf("last_saved = %v", got))
				}
				if got := s.Stress.UnseenSettings(); len(got) == 0 || got[len(got)-1] != (testsite.UnseenSettings{Email: true, Dark: true}) {
					p = append(p, fmt.Sprintf("server saved %+v", got))
				}
				return p
			}},
		{"unseen-settings-autosave", wcCapabilityQuery(t, origin, "unseen-settings-auto", "/unseen/settings", `[{"name": "autosave", "value": "1"}]`, unseenSettingsAutosave), nil,
			func(res *runtime.Result) []string {
				if got := res.ModelOutputs["last_saved"]; got != "Last saved: email=on sms=off digest=off dark=off" {
					return []string{fmt.Sprintf("last_saved = %v", got)}
				}
				return nil
			}},
		{"unseen-wizard", wcCapabilityQuery(t, origin, "unseen-wizard", "/unseen/wizard", `[{"name": "hide", "value": "inert"}]`, unseenWizard("role")),
			unseenSupplierInputs(), func(res *runtime.Result) []string {
				if got := s.Stress.UnseenSuppliers(); len(got) == 0 || got[len(got)-1] != unseenSupplier {
					return []string{fmt.Sprintf("server created %+v", got)}
				}
				return nil
			}},
		{"unseen-wizard-label", wcCapabilityQuery(t, origin, "unseen-wizard-label", "/unseen/wizard", `[{"name": "hide", "value": "inert"}]`, unseenWizard("label")),
			unseenSupplierInputs(), func(res *runtime.Result) []string {
				if got := s.Stress.UnseenSuppliers(); len(got) == 0 || got[len(got)-1] != unseenSupplier {
					return []string{fmt.Sprintf("server created %+v", got)}
				}
				return nil
			}},
		{"unseen-table", wcCapability(t, origin, "unseen-table", "/unseen/table", unseenTable(low, high)), nil,
			func(res *runtime.Result) []string {
				var p []string
				if got := asJSON(t, res.ModelOutputs["invoices"]); !reflect.DeepEqual(got, unseenRowsJSON(rows)) {
					p = append(p, fmt.Sprintf("invoices = %v", got))
				}
				if got := s.Stress.UnseenArchived(); len(got) < 2 || got[len(got)-2] != low || got[len(got)-1] != high {
					p = append(p, fmt.Sprintf("server archived %v", got))
				}
				return p
			}},
		{"unseen-contacts", wcCapabilityQuery(t, origin, "unseen-contacts", "/unseen/contacts", `[{"name": "shadow", "value": "open"}]`, unseenContacts),
			map[string]any{"name": "Ada Lovelace", "email": "ada@example.org", "role": "Editor"}, func(res *runtime.Result) []string {
				want := testsite.UnseenContact{Name: "Ada Lovelace", Email: "ada@example.org", Role: "Editor"}
				if got := s.Stress.UnseenContacts(); len(got) == 0 || got[len(got)-1] != want {
					return []string{fmt.Sprintf("server saved %+v", got)}
				}
				return nil
			}},
		{"unseen-contacts-closed", wcCapabilityQuery(t, origin, "unseen-contacts-closed", "/unseen/contacts", `[{"name": "shadow", "value": "closed"}]`, unseenContacts),
			map[string]any{"name": "Grace Hopper", "email": "grace@example.org", "role": "Admin"}, func(res *runtime.Result) []string {
				var p []string
				if got := res.ModelOutputs["contacts"]; got != "Grace Hopper (Admin)" {
					p = append(p, fmt.Sprintf("contacts = %v", got))
				}
				want := testsite.UnseenContact{Name: "Grace Hopper", Email: "grace@example.org", Role: "Admin"}
				if got := s.Stress.UnseenContacts(); len(got) == 0 || got[len(got)-1] != want {
					p = append(p, fmt.Sprintf("server saved %+v", got))
				}
				return p
			}},
	} {
		t.Run(sc.name, func(t *testing.T) {
			y := &tally{t: t, name: sc.name}
			for i := 0; i < n; i++ {
				logs.reset()
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
				res, p := stressRun(t, ctx, d, sc.c, sc.inputs)
				cancel()
				p = append(p, wantCompleted(res)...)
				if res != nil && res.State == runtime.StateCompleted {
					p = append(p, sc.check(res)...)
				}
				if len(p) > 0 {
					t.Logf("%s iteration %d driver log:\n%s", sc.name, i, logs.String())
				}
				y.judge(i, res, p)
			}
			y.done()
		})
	}
}
