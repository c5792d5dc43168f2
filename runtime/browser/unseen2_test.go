package browser

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/vera-run/vera/internal/testsite"
	"github.com/vera-run/vera/runtime"
)

// More sites the code has never seen: capabilities written from
// FORMAT.md, as an author would, against the unseen2 pages of
// internal/testsite (unseen2.go: a rich-text editor, plain or
// model-driven, saved by a button; an ARIA combobox whose options a
// debounced search replaces; a "Load more" list; an optimistic "Mark
// paid" the server may refuse; a div grid of role=row and role=cell; a
// same-origin iframe whose form submission navigates it). Each case
// checks the business answer and what the server received.

// unseen2Notes types a summary into the rich-text editor and saves it.
const unseen2Notes = `
  "inputs": [{"name": "summary", "type": "string", "required": true, "max_length": 200}],
  "outputs": [{"name": "saved", "kind": "text", "exposure": "model_and_artifact"}],
  "milestones": [{
    "id": "note",
    "intent": "Write the meeting summary and save it",
    "actions": [
      {"id": "type-summary", "operation": "fill", "intent": "Type the summary", "effect": "reversible", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "textbox", "name": "Summary", "exact": true},
                              {"strategy": "label", "label": "Summary", "exact": true}],
       "input": "summary",
       "postcondition": {"kind": "text_visible", "text": "{{summary}}"}},
      {"id": "save", "operation": "click", "intent": "Save the note", "effect": "reversible", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "button", "name": "Save note", "exact": true}],
       "postcondition": {"kind": "text_visible", "text": "Note saved"}},
      {"id": "read-saved", "operation": "extract", "intent": "Read the saved note", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "test_id", "test_id": "saved-note"}],
       "output": "saved",
       "extract": {"mode": "text"},
       "postcondition": {"kind": "output_produced", "output": "saved"}}
    ]
  }]`

const unseen2Summary = "Budget approved; launch moved to 14 March."

// TestUnseen2Notes: fill types into a contenteditable role=textbox
// labelled by aria-labelledby, replacing its draft, whether the browser
// edits the DOM (plain) or the editor cancels every beforeinput and
// renders its own model (model); the server receives exactly the text.
func TestUnseen2Notes(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	for _, mode := range []string{"plain", "model"} {
		t.Run(mode, func(t *testing.T) {
			before := len(s.Stress.Unseen2Notes())
			c := wcCapabilityQuery(t, s.Stress.Origin(), "unseen2-notes", "/unseen2/notes",
				`[{"name": "mode", "value": "`+mode+`"}]`, unseen2Notes)
			res := execute(t, tctx(t, 60*time.Second), d, c, map[string]any{"summary": unseen2Summary})
			wantState(t, res, runtime.StateCompleted, "")
			if got := res.ModelOutputs["saved"]; got != unseen2Summary {
				t.Errorf("saved = %q, want %q", got, unseen2Summary)
			}
			if got := s.Stress.Unseen2Notes()[before:]; !reflect.DeepEqual(got, []string{unseen2Summary}) {
				t.Errorf("server saved %q, want [%q]", got, unseen2Summary)
			}
		})
	}
}

// unseen2Assign picks an assignee by typing part of the name and
// clicking the option, then assigns the ticket.
const unseen2Assign = `
  "inputs": [{"name": "who", "type": "string", "required": true, "max_length": 80},
             {"name": "search", "type": "string", "required": true, "max_length": 80}],
  "outputs": [{"name": "result", "kind": "text", "exposure": "model_and_artifact"}],
  "milestones": [{
    "id": "assign",
    "intent": "Assign the ticket",
    "actions": [
      {"id": "search", "operation": "fill", "intent": "Search the assignee", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "combobox", "name": "Assignee", "exact": true},
                              {"strategy": "label", "label": "Assignee", "exact": true}],
       "input": "search",
       "postcondition": {"kind": "locator_visible", "locator_candidates": [{"strategy": "role", "role": "listbox", "name": "Assignees", "exact": true}]}},
      {"id": "pick", "operation": "click", "intent": "Pick the assignee", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "option", "name": "{{who}}", "exact": true,
                               "scope": {"strategy": "role", "role": "listbox", "name": "Assignees", "exact": true}}],
       "postcondition": {"kind": "locator_hidden", "locator_candidates": [{"strategy": "role", "role": "listbox", "name": "Assignees", "exact": true}]}},
      {"id": "assign", "operation": "click", "intent": "Assign the ticket", "effect": "reversible", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "button", "name": "Assign", "exact": true}],
       "postcondition": {"kind": "text_visible", "text": "Assigned to {{who}}"}},
      {"id": "read-result", "operation": "extract", "intent": "Read the result", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "status"}],
       "output": "result",
       "extract": {"mode": "text"},
       "postcondition": {"kind": "output_produced", "output": "result"}}
    ]
  }]`

// TestUnseen2Assign: the option clicked is the one named, which appears
// only once the debounced search answered and replaced the recent
// assignees' options (new elements; "Ada Rossini" and "Adam Bianchi" also
// match "Ada"); the server receives that person's id.
func TestUnseen2Assign(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	for _, tc := range []struct{ who, search, id string }{
		{"Ada Rossi", "Ada", "u11"},
		{"Adam Bianchi", "ada", "u12"},
	} {
		t.Run(tc.id, func(t *testing.T) {
			before := len(s.Stress.Unseen2Assignments())
			c := wcCapability(t, s.Stress.Origin(), "unseen2-assign", "/unseen2/assign", unseen2Assign)
			res := execute(t, tctx(t, 60*time.Second), d, c, map[string]any{"who": tc.who, "search": tc.search})
			wantState(t, res, runtime.StateCompleted, "")
			if got, want := res.ModelOutputs["result"], "Assigned to "+tc.who; got != want {
				t.Errorf("result = %q, want %q", got, want)
			}
			want := []testsite.Unseen2Assignment{{Ticket: "T-3107", Assignee: tc.id}}
			if got := s.Stress.Unseen2Assignments()[before:]; !reflect.DeepEqual(got, want) {
				t.Errorf("server received %+v, want %+v", got, want)
			}
		})
	}
}

// unseen2PaymentsFields is the list extraction of every payment shown.
const unseen2PaymentsRead = `{"id": "read-payments", "operation": "extract", "intent": "Read the payments", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "listitem", "scope": {"strategy": "role", "role": "list", "name": "Payments", "exact": true}}],
       "output": "payments",
       "extract": {"mode": "list", "max_records": 100, "fields": [
         {"name": "ref", "type": "string", "locator_candidates": [{"strategy": "css", "css": "span.ref"}]},
         {"name": "payee", "type": "string", "locator_candidates": [{"strategy": "css", "css": "span.payee"}]},
         {"name": "amount", "type": "string", "locator_candidates": [{"strategy": "css", "css": "span.amount"}]}],
         "required_fields": ["ref", "payee", "amount"], "dedupe_keys": ["ref"]},
       "postcondition": {"kind": "output_produced", "output": "payments"}}`

const unseen2PaymentsOutputs = `
  "inputs": [],
  "outputs": [{"name": "payments", "kind": "record_set", "exposure": "model_and_artifact",
    "fields": [{"name": "ref", "type": "string"}, {"name": "payee", "type": "string"}, {"name": "amount", "type": "string"}]}],`

// unseen2LoadMoreGuarded is unseen2LoadMore proven by the loading
// status being gone, which no timing satisfies early.
const unseen2LoadMoreGuarded = `{"id": "load-more", "operation": "click", "intent": "Load more payments", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "button", "name": "Load more", "exact": true}],
       "postcondition": {"kind": "locator_hidden", "locator_candidates": [{"strategy": "role", "role": "status", "name": "Loading…", "exact": true},
                                                                           {"strategy": "text", "text": "Loading…", "exact": true}]}}`

const unseen2LoadMore = `{"id": "load-more", "operation": "click", "intent": "Load more payments", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "button", "name": "Load more", "exact": true}],
       "postcondition": {"kind": "locator_visible", "locator_candidates": [{"strategy": "role", "role": "list", "name": "Payments", "exact": true}]}}`

// unseen2PaymentsAll clicks "Load more" while it is there, then reads
// the whole list; unseen2PaymentsAllGuarded proves each click by the
// loading status being gone.
var (
	unseen2PaymentsAll        = unseen2PaymentsLoop(unseen2LoadMore)
	unseen2PaymentsAllGuarded = unseen2PaymentsLoop(unseen2LoadMoreGuarded)
)

func unseen2PaymentsLoop(click string) string {
	return unseen2PaymentsOutputs + `
  "milestones": [{
    "id": "more",
    "intent": "Load every payment",
    "max_visits": 6,
    "actions": [` + click + `],
    "transitions": [
      {"when": {"kind": "locator_visible", "locator_candidates": [{"strategy": "role", "role": "button", "name": "Load more", "exact": true}]}, "to": "more"},
      {"when": {"kind": "always"}, "to": "read"}]
  }, {
    "id": "read",
    "intent": "Read the payments",
    "actions": [` + unseen2PaymentsRead + `]
  }]`
}

// unseen2PaymentsOnce clicks "Load more" once and reads: a partial list.
const unseen2PaymentsOnce = unseen2PaymentsOutputs + `
  "milestones": [{
    "id": "read",
    "intent": "Read the payments",
    "actions": [` + unseen2LoadMore + `, ` + unseen2PaymentsRead + `]
  }]`

func unseen2PaymentsWant(n int) []any {
	var out []any
	for _, p := range testsite.Unseen2Payments()[:n] {
		out = append(out, map[string]any{"ref": p.Ref, "payee": p.Payee, "amount": testsite.UnseenEuro(p.Amount)})
	}
	return out
}

// TestUnseen2Payments: clicking "Load more" until it is gone reads every
// payment, in order, never the first pages only (the button is replaced
// by "Loading…" while a page loads, so a transition read before the
// answer would end the loop early); one click then a read of a list
// whose items declare aria-setsize is records_incomplete, never a
// silent partial answer. Without the declaration a read after one click
// is the 20 payments shown (the page says nothing more).
func TestUnseen2Payments(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	for _, tc := range []struct {
		declare, delay, fault string
		guarded               bool
	}{
		{"0", "", "", false},
		{"1", "", "", false},
		// Each page takes 3.5 s, past Settle's cap: the click's fetch
		// holds its barrier all the same.
		{"0", "3500", "", false},
		{"1", "3500", "", false},
		// The author's way out: the click is proven by the loading
		// status being gone.
		{"0", "3500", "", true},
	} {
		name := "all/declare=" + tc.declare
		body := unseen2PaymentsAll
		if tc.guarded {
			name = "guarded/declare=" + tc.declare
			body = unseen2PaymentsAllGuarded
		}
		query := `[{"name": "declare", "value": "` + tc.declare + `"}]`
		if tc.delay != "" {
			name += "/delay=" + tc.delay
			query = `[{"name": "declare", "value": "` + tc.declare + `"}, {"name": "delay", "value": "` + tc.delay + `"}]`
		}
		t.Run(name, func(t *testing.T) {
			skipFault(t, tc.fault)
			c := wcCapabilityQuery(t, s.Stress.Origin(), "unseen2-payments", "/unseen2/payments", query, body)
			res := execute(t, tctx(t, 120*time.Second), d, c, nil)
			if res.State != runtime.StateCompleted && tc.declare == "1" && tc.delay != "" {
				// A slow page may outlast the barrier: then the declared
				// set must stop the run, never a partial answer.
				if res.Failure == nil || res.Failure.Reason != "records_incomplete" {
					t.Fatalf("run ended %s, want completed with 27 payments or failed records_incomplete", describeResult(res))
				}
				t.Logf("slow pages: %s", describeResult(res))
				return
			}
			wantState(t, res, runtime.StateCompleted, "")
			if got, want := asJSON(t, res.ModelOutputs["payments"]), unseen2PaymentsWant(27); !reflect.DeepEqual(got, want) {
				t.Errorf("payments (%d) = %v\nwant (27) %v", lenAny(got), got, want)
			}
		})
	}
	// A failed extraction leaves its output unproduced (runtime doc,
	// FORMAT.md 3.2 "Outputs of a failed extraction"): no partial list.
	t.Run("once/declare=1", func(t *testing.T) {
		c := wcCapabilityQuery(t, s.Stress.Origin(), "unseen2-payments", "/unseen2/payments",
			`[{"name": "declare", "value": "1"}]`, unseen2PaymentsOnce)
		res := execute(t, tctx(t, 90*time.Second), d, c, nil)
		if res.State == runtime.StateCompleted || res.Failure == nil || res.Failure.Reason != "records_incomplete" || res.StoppedAt != "read-payments" {
			t.Fatalf("a read of 20 of 27 declared payments ended %s, want failed records_incomplete at read-payments", describeResult(res))
		}
		if v, ok := res.ModelOutputs["payments"]; ok {
			t.Errorf("the failed run returned a partial list of %d payments", lenAny(asJSON(t, v)))
		}
	})
	t.Run("once/declare=0", func(t *testing.T) {
		c := wcCapabilityQuery(t, s.Stress.Origin(), "unseen2-payments", "/unseen2/payments",
			`[{"name": "declare", "value": "0"}]`, unseen2PaymentsOnce)
		res := execute(t, tctx(t, 90*time.Second), d, c, nil)
		wantState(t, res, runtime.StateCompleted, "")
		if got, want := asJSON(t, res.ModelOutputs["payments"]), unseen2PaymentsWant(20); !reflect.DeepEqual(got, want) {
			t.Errorf("payments (%d) = %v, want the first 20", lenAny(got), got)
		}
	})
}

func lenAny(v any) int {
	if l, ok := v.([]any); ok {
		return len(l)
	}
	return -1
}

// unseen2Invoice marks the invoice paid and reads its status; post is the
// text the click's postcondition wants: the status ("Paid") or the
// server's confirmation ("INV-2042 settled").
func unseen2Invoice(post string) string {
	return `
  "inputs": [],
  "outputs": [{"name": "status", "kind": "text", "exposure": "model_and_artifact"}],
  "milestones": [{
    "id": "pay",
    "intent": "Mark the invoice paid",
    "actions": [
      {"id": "mark-paid", "operation": "click", "intent": "Mark the invoice paid", "effect": "reversible", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "button", "name": "Record payment", "exact": true}],
       "postcondition": {"kind": "text_visible", "text": "` + post + `"}},
      {"id": "read-status", "operation": "extract", "intent": "Read the invoice status", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "test_id", "test_id": "status"}],
       "output": "status",
       "extract": {"mode": "text"},
       "postcondition": {"kind": "output_produced", "output": "status"}}
    ]
  }]`
}

// TestUnseen2Invoice: "Record payment" shows "Paid" at once, before the
// server answered. When the server accepts, the run completes with
// status "Paid"; when it refuses (409) and the page puts "Open" back,
// the postcondition text_visible "Paid" must not hold: the click's
// barrier waits for the POST and the page's handling of its answer, so
// the postcondition reads the rolled-back page and the run never
// completes (nor reports status "Paid"). A server that takes longer to
// refuse than Settle's 3 s cap holds the click's barrier until it
// answers (conflict-5s); one that answers after the action timeout fails
// the click (conflict-9s).
func TestUnseen2Invoice(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	const rollbackFault = "known limitation (runtime/browser/doc.go, Settle: a page that renders the data later " +
		"than 40 ms after it arrived is not covered): the 409 arrives after 400 ms and Settle waits for it and a " +
		"40 ms DOM-quiet window, but the page puts \"Open\" back 300 ms later, so the postcondition text_visible " +
		"\"Paid\" holds on the optimistic render and the run completes (status read as \"Open\" or \"Paid\", " +
		"depending on when the extract runs). The doc's advice, a postcondition on the new view's content, does not " +
		"help when the optimistic view is that content; the confirmation (\"INV-2042 settled\", the confirmed/* cases) does"
	for _, tc := range []struct {
		name, post, outcome, delay string
		paid                       bool
		fault                      string
	}{
		{"accepted", "Paid", "ok", "400", true, ""},
		{"conflict", "Paid", "conflict", "400", false, ""},
		{"conflict-slow", "Paid", "conflict", "1500", false, ""},
		{"conflict-rollback-300ms", "Paid", "conflict", "400", false, rollbackFault},
		// The click's barrier holds past its 3 s cap while the POST
		// the click sent has no answer, up to the 8 s action timeout;
		// past it the action fails (the answer comes after 9 s).
		{"conflict-5s", "Paid", "conflict", "5000", false, ""},
		{"conflict-9s", "Paid", "conflict", "9000", false, ""},
		// An author who proves the click by the server's confirmation
		// is right whatever the timing.
		{"confirmed/accepted-5s", "INV-2042 settled", "ok", "5000", true, ""},
		{"confirmed/conflict-rollback-300ms", "INV-2042 settled", "conflict", "400", false, ""},
		{"confirmed/conflict-5s", "INV-2042 settled", "conflict", "5000", false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			skipFault(t, tc.fault)
			attempts, paid := len(s.Stress.Unseen2PayAttempts()), len(s.Stress.Unseen2Paid())
			c := wcCapabilityQuery(t, s.Stress.Origin(), "unseen2-invoice", "/unseen2/invoice",
				`[{"name": "outcome", "value": "`+tc.outcome+`"}, {"name": "delay", "value": "`+tc.delay+`"}`+rollback(tc.name)+`]`, unseen2Invoice(tc.post))
			res := execute(t, tctx(t, 60*time.Second), d, c, nil)
			if got := len(s.Stress.Unseen2PayAttempts()) - attempts; got != 1 {
				t.Errorf("server received %d pay requests, want 1", got)
			}
			if tc.paid {
				wantState(t, res, runtime.StateCompleted, "")
				if got := res.ModelOutputs["status"]; got != "Paid" {
					t.Errorf("status = %q, want Paid", got)
				}
				if got := len(s.Stress.Unseen2Paid()) - paid; got != 1 {
					t.Errorf("server marked %d paid, want 1", got)
				}
				return
			}
			t.Logf("refused: %s", describeResult(res))
			if res.State == runtime.StateCompleted {
				t.Fatalf("a payment the server refused completed with status %q: %s", res.ModelOutputs["status"], describeResult(res))
			}
			if res.Failure == nil || res.StoppedAt != "mark-paid" {
				t.Errorf("run ended %s, want a failure at mark-paid", describeResult(res))
			}
			if got := res.ModelOutputs["status"]; got != nil {
				t.Errorf("status = %q was reported", got)
			}
			if got := len(s.Stress.Unseen2Paid()) - paid; got != 0 {
				t.Errorf("server marked %d paid, want 0", got)
			}
		})
	}
}

// rollback is the query entry of a case whose page reverts 300 ms after
// the answer.
func rollback(name string) string {
	if strings.HasSuffix(name, "conflict-rollback-300ms") {
		return `, {"name": "rollback", "value": "300"}`
	}
	return ""
}

// unseen2Team reads the div grid's member rows (the header row has no
// cells; the skeleton rows have empty ones).
const unseen2Team = `
  "inputs": [],
  "outputs": [{"name": "members", "kind": "record_set", "exposure": "model_and_artifact",
    "fields": [{"name": "name", "type": "string"}, {"name": "email", "type": "string"}, {"name": "role", "type": "string"}]}],
  "milestones": [{
    "id": "team",
    "intent": "Read the team members",
    "actions": [
      {"id": "read-members", "operation": "extract", "intent": "Read the members", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "css", "css": "[role=table][aria-label='Team members'] [role=row]:has([role=cell]):visible"}],
       "output": "members",
       "extract": {"mode": "list", "max_records": 100, "fields": [
         {"name": "name", "type": "string", "locator_candidates": [{"strategy": "css", "css": "[role=cell][data-field=name]"}]},
         {"name": "email", "type": "string", "locator_candidates": [{"strategy": "css", "css": "[role=cell][data-field=email]"}]},
         {"name": "role", "type": "string", "locator_candidates": [{"strategy": "css", "css": "[role=cell][data-field=role]"}]}],
         "required_fields": ["name", "email", "role"]},
       "postcondition": {"kind": "output_produced", "output": "members"}}
    ]
  }]`

func unseen2TeamWant() []any {
	var out []any
	for _, m := range testsite.Unseen2Team() {
		out = append(out, map[string]any{"name": m.Name, "email": m.Email, "role": m.Role})
	}
	return out
}

// TestUnseen2Team: a div grid (role=table, role=row, role=cell,
// aria-rowcount counting its header row) fed by a fetch after skeleton
// rows is read whole: every member, never the skeleton's empty cells,
// and the header row counted by aria-rowcount is no missing record.
func TestUnseen2Team(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	c := wcCapability(t, s.Stress.Origin(), "unseen2-team", "/unseen2/team", unseen2Team)
	res := execute(t, tctx(t, 60*time.Second), d, c, nil)
	wantState(t, res, runtime.StateCompleted, "")
	if got, want := asJSON(t, res.ModelOutputs["members"]), unseen2TeamWant(); !reflect.DeepEqual(got, want) {
		t.Errorf("members = %v\nwant %v", got, want)
	}
}

// unseen2Expense submits two expenses through the iframe's form; each
// submission navigates the frame to a new document.
func unseen2Expense() string {
	submit := func(n string) string {
		return `{"id": "desc-` + n + `", "operation": "fill", "intent": "Type the description", "effect": "reversible", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "textbox", "name": "Description", "exact": true}],
       "input": "desc` + n + `",
       "postcondition": {"kind": "locator_visible", "locator_candidates": [{"strategy": "role", "role": "textbox", "name": "Description", "exact": true}]}},
      {"id": "amount-` + n + `", "operation": "fill", "intent": "Type the amount", "effect": "reversible", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "textbox", "name": "Amount", "exact": true}],
       "input": "amount` + n + `",
       "postcondition": {"kind": "locator_visible", "locator_candidates": [{"strategy": "role", "role": "textbox", "name": "Amount", "exact": true}]}},
      {"id": "submit-` + n + `", "operation": "click", "intent": "Submit the expense", "effect": "reversible", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "button", "name": "Submit expense", "exact": true}],
       "postcondition": {"kind": "text_visible", "text": "Expense submitted"}},
      {"id": "ref-` + n + `", "operation": "extract", "intent": "Read the reference", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "test_id", "test_id": "expense-ref"}],
       "output": "ref` + n + `",
       "extract": {"mode": "text"},
       "postcondition": {"kind": "output_produced", "output": "ref` + n + `"}}`
	}
	return `
  "inputs": [{"name": "desc1", "type": "string", "required": true, "max_length": 80},
             {"name": "amount1", "type": "string", "required": true, "max_length": 20},
             {"name": "desc2", "type": "string", "required": true, "max_length": 80},
             {"name": "amount2", "type": "string", "required": true, "max_length": 20}],
  "outputs": [{"name": "ref1", "kind": "text", "exposure": "model_and_artifact"},
              {"name": "ref2", "kind": "text", "exposure": "model_and_artifact"}],
  "milestones": [{
    "id": "first",
    "intent": "Submit the first expense",
    "frame_selectors": ["iframe[title='Expense form']"],
    "actions": [` + submit("1") + `]
  }, {
    "id": "second",
    "intent": "Submit the second expense",
    "frame_selectors": ["iframe[title='Expense form']"],
    "actions": [` + submit("2") + `]
  }]`
}

// TestUnseen2Frame: a form in a same-origin iframe is filled and
// submitted twice; each submission navigates the frame (POST, then 303
// to a new document holding the same form again), so the second
// milestone's locators must act in the new document, and each reference
// read must be the one the server issued for that submission.
//
// With remount=<ms> the parent also replaces the iframe element that
// long after the first submission: a known fault when the remount
// comes between the second milestone's fills and its click (a new element, its document showing the first
// confirmation again): the second milestone's fills must land in the
// form that is submitted, and ref2 must never be the first reference
// still on screen. A safe failure (the fills landed in the frame that
// was replaced, so the submission is refused as incomplete) is no wrong
// answer, but the case wants the run to complete.
func TestUnseen2Frame(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	// Where the remount lands is timing (the stress tier runs it under
	// load). Before the fills: the run completes. Between the fills and
	// the click: the second milestone's fills went into the old frame's
	// form, the click reaches the new, empty form and the browser's
	// validation refuses it (act_failed, runtime.ErrFormInvalid). Just
	// after the click: its POST is aborted with the removed frame, so
	// the click's Settle fails postcondition_failed
	// (runtime.ErrActPending, TestSettleLostNavigation). Between the
	// guards' arming and the press: the press lands in the new frame and
	// the old one's guard cannot say where, so the click fails
	// not_interactable (TestClickDocumentGoneBeforePress). It was a wrong
	// answer (ref2 = ref1, completed) before both: the new frame shows
	// the first confirmation again, which satisfied the postcondition.
	for _, remount := range []string{"0", "100", "300"} {
		t.Run("remount="+remount, func(t *testing.T) {
			before := s.Stress.Unseen2Expenses()
			c := wcCapabilityQuery(t, s.Stress.Origin(), "unseen2-frame", "/unseen2/frame",
				`[{"name": "remount", "value": "`+remount+`"}]`, unseen2Expense())
			res := execute(t, tctx(t, 90*time.Second), d, c, map[string]any{
				"desc1": "Taxi to client", "amount1": "42.50", "desc2": "Hotel Milano", "amount2": "180.00"})
			got := s.Stress.Unseen2Expenses()[len(before):]
			for i, e := range got {
				if r, ok := res.ModelOutputs[fmt.Sprintf("ref%d", i+1)]; ok && r != e.Ref {
					t.Errorf("ref%d = %q, want %q (run %s)", i+1, r, e.Ref, describeResult(res))
				}
			}
			if len(got) == 1 && res.ModelOutputs["ref2"] != nil {
				t.Errorf("ref2 = %q reported for a submission the server never received", res.ModelOutputs["ref2"])
			}
			if remount != "0" && res.State != runtime.StateCompleted {
				// The safe failures, at the second click only.
				// One submission received (the second refused or aborted),
				// or two (sent before the remount dropped the frame that
				// was to show its answer: its outcome unknown, the run
				// failed postcondition_failed).
				if res.StoppedAt != "submit-2" || res.Failure == nil ||
					(res.Failure.Reason != "act_failed" && res.Failure.Reason != "postcondition_failed" && res.Failure.Reason != "not_interactable") ||
					len(got) < 1 || len(got) > 2 || (len(got) == 2 && res.Failure.Reason != "postcondition_failed") {
					t.Fatalf("run %s with %d submissions received, want completed, or failed act_failed, "+
						"postcondition_failed or not_interactable at submit-2", describeResult(res), len(got))
				}
				t.Logf("remount=%s: %s (safe)", remount, describeResult(res))
				return
			}
			wantState(t, res, runtime.StateCompleted, "")
			if len(got) != 2 || got[0].Description != "Taxi to client" || got[0].Amount != "42.50" ||
				got[1].Description != "Hotel Milano" || got[1].Amount != "180.00" {
				t.Fatalf("server received %+v", got)
			}
		})
	}
}

// unseen2Orders filters the orders list to the shipped ones and reads
// the count; framed, the list is the desk page's iframe. The filter's
// postcondition (the list page's path) holds on the page before the
// filter too, as an author proving "still on the list" writes it: only
// the barrier keeps the count from being read off the unfiltered list.
func unseen2Orders(framed bool) string {
	frame := ""
	if framed {
		frame = `
    "frame_selectors": ["iframe[title='Orders']"],`
	}
	return `
  "inputs": [],
  "outputs": [{"name": "count", "kind": "text", "exposure": "model_and_artifact"}],
  "milestones": [{
    "id": "orders",
    "intent": "Count the shipped orders",` + frame + `
    "actions": [
      {"id": "show-shipped", "operation": "click", "intent": "Show only the shipped orders", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "button", "name": "Show shipped", "exact": true}],
       "postcondition": {"kind": "text_visible", "text": "orders"}},
      {"id": "read-count", "operation": "extract", "intent": "Read the number of orders listed", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "test_id", "test_id": "order-count"}],
       "output": "count",
       "extract": {"mode": "text"},
       "postcondition": {"kind": "output_produced", "output": "count"}}
    ]
  }]`
}

// TestUnseen2Orders: a filter button submits a GET form and the server
// takes its time to answer with the filtered list. The click's barrier
// holds until the filtered document committed and loaded, past Settle's
// 3 s cap (4500 ms), so the count is the shipped orders', never the
// unfiltered list's; an answer later than the 8 s action timeout
// (9500 ms) fails the click with postcondition_failed and reports no
// count. Framed (the list in the desk's iframe), the old code let the
// barrier go at the cap and the run completed with "12 orders" read off
// the document the filter was leaving. In the top-level page it was
// right by accident: Chromium holds the page session's commands while
// its main frame is navigating, so the first read after the cap waited
// for the new document (and 9500 completed 1.7 s past the action
// timeout).
func TestUnseen2Orders(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	for _, framed := range []bool{false, true} {
		start, name := "/unseen2/orders", "page"
		if framed {
			start, name = "/unseen2/orders/desk", "frame"
		}
		for _, tc := range []struct {
			delay string
			ok    bool
		}{{"400", true}, {"4500", true}, {"9500", false}} {
			t.Run(name+"/"+tc.delay, func(t *testing.T) {
				c := wcCapabilityQuery(t, s.Stress.Origin(), "unseen2-orders", start,
					`[{"name": "delay", "value": "`+tc.delay+`"}]`, unseen2Orders(framed))
				res := execute(t, tctx(t, 60*time.Second), d, c, nil)
				if tc.ok {
					wantState(t, res, runtime.StateCompleted, "")
					if got := res.ModelOutputs["count"]; got != "4 orders" {
						t.Errorf("count = %q, want 4 orders", got)
					}
					return
				}
				if res.State == runtime.StateCompleted || res.Failure == nil || res.StoppedAt != "show-shipped" {
					t.Fatalf("run ended %s (count %v), want a failure at show-shipped", describeResult(res), res.ModelOutputs["count"])
				}
				if res.Failure.Reason != string(runtime.ReasonPostconditionFailed) {
					t.Errorf("reason = %s, want postcondition_failed", res.Failure.Reason)
				}
				if got := res.ModelOutputs["count"]; got != nil {
					t.Errorf("count = %q was reported", got)
				}
			})
		}
	}
}
