package browser

import (
	"reflect"
	"testing"
	"time"

	"github.com/vera-run/vera/internal/testsite"
	"github.com/vera-run/vera/runtime"
)

// Controls, forms and extraction on pages the code has never seen:
// capabilities written from FORMAT.md, as an author would, against the
// unseen3 form pages of internal/testsite (unseen3_forms.go: an IBAN
// input mask with a debounced bank check that enables the submit button
// and an amount in Italian format; a Radix-style custom select whose
// listbox renders in a portal, a div radiogroup and a visually hidden
// native checkbox; a form-associated custom element with an open shadow
// root and a slotted label, a placeholder-only and a described-only
// field; a ledger whose rows fill their cells only once scrolled near).
// Each case checks the business answer and what the server received.

// unseen3Transfer types an IBAN and an amount and sends the transfer.
const unseen3Transfer = `
  "inputs": [{"name": "iban", "type": "string", "required": true, "max_length": 60},
             {"name": "amount", "type": "string", "required": true, "max_length": 20}],
  "outputs": [{"name": "summary", "kind": "text", "exposure": "model_and_artifact"}],
  "milestones": [{
    "id": "transfer",
    "intent": "Send the transfer",
    "actions": [
      {"id": "type-iban", "operation": "fill", "intent": "Type the payee's IBAN", "effect": "reversible", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "textbox", "name": "IBAN", "exact": true},
                              {"strategy": "label", "label": "IBAN", "exact": true}],
       "input": "iban",
       "postcondition": {"kind": "text_visible", "text": "Bank:"}},
      {"id": "type-amount", "operation": "fill", "intent": "Type the amount", "effect": "reversible", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "textbox", "name": "Amount (EUR)", "exact": true},
                              {"strategy": "label", "label": "Amount (EUR)", "exact": true}],
       "input": "amount",
       "postcondition": {"kind": "locator_visible", "locator_candidates": [{"strategy": "role", "role": "button", "name": "Send transfer", "exact": true}]}},
      {"id": "send", "operation": "click", "intent": "Send the transfer", "effect": "reversible", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "button", "name": "Send transfer", "exact": true}],
       "postcondition": {"kind": "text_visible", "text": "queued"}},
      {"id": "read-summary", "operation": "extract", "intent": "Read what was sent", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "test_id", "test_id": "transfer-summary"}],
       "output": "summary",
       "extract": {"mode": "text"},
       "postcondition": {"kind": "output_produced", "output": "summary"}}
    ]
  }]`

const unseen3IBAN = "IT60X0542811101000000123456"

// TestUnseen3FormsTransfer: the IBAN mask regroups whatever is typed
// (raw, grouped, lower case) and the server receives the IBAN the input
// meant; the amount in Italian format reaches the server in cents; the
// submit button, disabled until the debounced bank check answered, is
// clicked only once enabled. An IBAN with wrong check digits keeps the
// button disabled: the run fails at the send, never posting.
func TestUnseen3FormsTransfer(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	for _, tc := range []struct {
		name, iban, amount string
		cents              int
		summary            string
	}{
		{"raw", unseen3IBAN, "1.250,50", 125050, "€ 1.250,50 to IT60 X054 2811 1010 0000 0123 456"},
		{"grouped-lower", "it60 x054 2811 1010 0000 0123 456", "1250,5", 125050, "€ 1.250,50 to IT60 X054 2811 1010 0000 0123 456"},
		{"punctuated", "IT60-X054-2811-1010-0000-0123-456", "75", 7500, "€ 75,00 to IT60 X054 2811 1010 0000 0123 456"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := len(s.Stress.Unseen3Transfers())
			c := wcCapability(t, s.Stress.Origin(), "unseen3-transfer", "/unseen3/transfer", unseen3Transfer)
			res := execute(t, tctx(t, 60*time.Second), d, c, map[string]any{"iban": tc.iban, "amount": tc.amount})
			wantState(t, res, runtime.StateCompleted, "")
			if got := res.ModelOutputs["summary"]; got != tc.summary {
				t.Errorf("summary = %q, want %q", got, tc.summary)
			}
			want := []testsite.Unseen3Transfer{{IBAN: unseen3IBAN, Cents: tc.cents}}
			if got := s.Stress.Unseen3Transfers()[before:]; !reflect.DeepEqual(got, want) {
				t.Errorf("server received %+v, want %+v", got, want)
			}
		})
	}
	t.Run("bad-check-digits", func(t *testing.T) {
		before := len(s.Stress.Unseen3Transfers())
		// The fill's postcondition ("Bank:") never holds: the page says
		// "This IBAN is not valid".
		c := wcCapability(t, s.Stress.Origin(), "unseen3-transfer", "/unseen3/transfer", unseen3Transfer)
		res := execute(t, tctx(t, 60*time.Second), d, c, map[string]any{"iban": "IT61X0542811101000000123456", "amount": "10"})
		if res.State == runtime.StateCompleted || res.Failure == nil || res.Failure.Reason != "postcondition_failed" || res.StoppedAt != "type-iban" {
			t.Fatalf("an IBAN with wrong check digits ended %s, want postcondition_failed at type-iban", describeResult(res))
		}
		t.Logf("bad IBAN: %s", describeResult(res))
		if got := s.Stress.Unseen3Transfers()[before:]; len(got) != 0 {
			t.Errorf("server received %+v, want nothing", got)
		}
	})
}

// unseen3Shipping picks a country in the custom select, a delivery speed
// in the radiogroup, ticks gift wrap and saves.
const unseen3Shipping = `
  "inputs": [{"name": "country", "type": "string", "required": true, "max_length": 40},
             {"name": "speed", "type": "string", "required": true, "max_length": 40}],
  "outputs": [{"name": "summary", "kind": "text", "exposure": "model_and_artifact"}],
  "milestones": [{
    "id": "shipping",
    "intent": "Choose the shipping options and save them",
    "actions": [
      {"id": "open-country", "operation": "click", "intent": "Open the country list", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "combobox", "name": "Country", "exact": true}],
       "postcondition": {"kind": "locator_visible", "locator_candidates": [{"strategy": "role", "role": "listbox", "name": "Country", "exact": true}]}},
      {"id": "pick-country", "operation": "click", "intent": "Pick the country", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "option", "name": "{{country}}", "exact": true,
                               "scope": {"strategy": "role", "role": "listbox", "name": "Country", "exact": true}}],
       "postcondition": {"kind": "locator_hidden", "locator_candidates": [{"strategy": "role", "role": "listbox", "name": "Country", "exact": true}]}},
      {"id": "pick-speed", "operation": "check", "intent": "Choose the delivery speed", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "radio", "name": "{{speed}}", "exact": true,
                               "scope": {"strategy": "role", "role": "radiogroup", "name": "Delivery speed", "exact": true}}],
       "postcondition": {"kind": "locator_visible", "locator_candidates": [{"strategy": "role", "role": "radiogroup", "name": "Delivery speed", "exact": true}]}},
      {"id": "gift", "operation": "check", "intent": "Ask for gift wrap", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "checkbox", "name": "Gift wrap"},
                              {"strategy": "label", "label": "Gift wrap"}],
       "postcondition": {"kind": "locator_visible", "locator_candidates": [{"strategy": "role", "role": "button", "name": "Save shipping", "exact": true}]}},
      {"id": "save", "operation": "click", "intent": "Save the shipping options", "effect": "reversible", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "button", "name": "Save shipping", "exact": true}],
       "postcondition": {"kind": "locator_visible", "locator_candidates": [{"strategy": "test_id", "test_id": "shipping-summary"}]}},
      {"id": "read-summary", "operation": "extract", "intent": "Read what was saved", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "test_id", "test_id": "shipping-summary"}],
       "output": "summary",
       "extract": {"mode": "text"},
       "postcondition": {"kind": "output_produced", "output": "summary"}}
    ]
  }]`

// TestUnseen3FormsShipping: the option clicked is the one named (Austria
// next to Australia; Sweden at the bottom of a scrolled listbox rendered
// in a portal at the end of <body>), the div radio named is checked
// although every render replaces it, and the visually hidden native
// checkbox is ticked through its drawn label; the server stores exactly
// those choices.
func TestUnseen3FormsShipping(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	for _, tc := range []struct{ country, speed, value string }{
		{"Austria", "Express", "express"},
		{"Sweden", "Same day", "same-day"},
		{"Australia", "Standard", "standard"},
	} {
		t.Run(tc.country, func(t *testing.T) {
			before := len(s.Stress.Unseen3Shipping())
			c := wcCapability(t, s.Stress.Origin(), "unseen3-shipping", "/unseen3/shipping", unseen3Shipping)
			res := execute(t, tctx(t, 60*time.Second), d, c, map[string]any{"country": tc.country, "speed": tc.speed})
			wantState(t, res, runtime.StateCompleted, "")
			if got, want := res.ModelOutputs["summary"], tc.country+" · "+tc.value+" · gift wrap"; got != want {
				t.Errorf("summary = %q, want %q", got, want)
			}
			want := []testsite.Unseen3ShippingChoice{{Country: tc.country, Speed: tc.value, Gift: true}}
			if got := s.Stress.Unseen3Shipping()[before:]; !reflect.DeepEqual(got, want) {
				t.Errorf("server received %+v, want %+v", got, want)
			}
		})
	}
}

// unseen3ShippingSelect is what an author who reads "Country" as a select
// writes: a select operation on the custom combobox.
const unseen3ShippingSelect = `
  "inputs": [],
  "outputs": [],
  "milestones": [{
    "id": "shipping",
    "intent": "Choose the country",
    "actions": [
      {"id": "pick-country", "operation": "select", "intent": "Pick the country", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "combobox", "name": "Country", "exact": true}],
       "value": "Italy",
       "postcondition": {"kind": "text_visible", "text": "Italy"}}
    ]
  }]`

// TestUnseen3FormsSelectCustom: a select operation on a custom
// combobox (a button, not a <select>) is refused as unsupported; it
// never picks an option by other means.
func TestUnseen3FormsSelectCustom(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	c := wcCapability(t, s.Stress.Origin(), "unseen3-shipping-select", "/unseen3/shipping", unseen3ShippingSelect)
	res := execute(t, tctx(t, 60*time.Second), d, c, nil)
	if res.State == runtime.StateCompleted || res.Failure == nil || res.Failure.Reason != "unsupported" || res.StoppedAt != "pick-country" {
		t.Fatalf("a select on a custom combobox ended %s, want unsupported at pick-country", describeResult(res))
	}
	t.Logf("select on a custom combobox: %s", describeResult(res))
}

// unseen3Account fills the billing details: a shadow-DOM field with a
// slotted label, a placeholder-only field and a field described only by
// aria-describedby.
const unseen3Account = `
  "inputs": [{"name": "company", "type": "string", "required": true, "max_length": 80},
             {"name": "vat", "type": "string", "required": true, "max_length": 20},
             {"name": "sdi", "type": "string", "required": true, "max_length": 7}],
  "outputs": [{"name": "result", "kind": "text", "exposure": "model_and_artifact"}],
  "milestones": [{
    "id": "details",
    "intent": "Save the billing details",
    "actions": [
      {"id": "company", "operation": "fill", "intent": "Type the company name", "effect": "reversible", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "textbox", "name": "Company name", "exact": true},
                              {"strategy": "label", "label": "Company name", "exact": true}],
       "input": "company",
       "postcondition": {"kind": "locator_visible", "locator_candidates": [{"strategy": "role", "role": "button", "name": "Save details", "exact": true}]}},
      {"id": "vat", "operation": "fill", "intent": "Type the VAT number", "effect": "reversible", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "textbox", "name": "VAT number", "exact": true},
                              {"strategy": "placeholder", "placeholder": "VAT number", "exact": true}],
       "input": "vat",
       "postcondition": {"kind": "locator_visible", "locator_candidates": [{"strategy": "role", "role": "button", "name": "Save details", "exact": true}]}},
      {"id": "sdi", "operation": "fill", "intent": "Type the SDI recipient code", "effect": "reversible", "confirmation": "none",
       "locator_candidates": [{"strategy": "label", "label": "SDI recipient code"},
                              {"strategy": "css", "css": "input[aria-describedby=sdi-help]"}],
       "input": "sdi",
       "postcondition": {"kind": "locator_visible", "locator_candidates": [{"strategy": "role", "role": "button", "name": "Save details", "exact": true}]}},
      {"id": "save", "operation": "click", "intent": "Save the details", "effect": "reversible", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "button", "name": "Save details", "exact": true}],
       "postcondition": {"kind": "text_visible", "text": "Details saved for"}},
      {"id": "read-result", "operation": "extract", "intent": "Read the result", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "status"}],
       "output": "result",
       "extract": {"mode": "text"},
       "postcondition": {"kind": "output_produced", "output": "result"}}
    ]
  }]`

// TestUnseen3FormsAccount: the slotted label names the shadow input of a
// form-associated custom element, whose value reaches the server through
// FormData; the placeholder names the VAT field; the described-only
// field has no label (a label candidate for its description finds
// nothing) and is filled through its CSS fallback.
func TestUnseen3FormsAccount(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	before := len(s.Stress.Unseen3Accounts())
	c := wcCapability(t, s.Stress.Origin(), "unseen3-account", "/unseen3/account", unseen3Account)
	in := map[string]any{"company": "Borgo Vini Srl", "vat": "IT01234567890", "sdi": "M5UXCR1"}
	res := execute(t, tctx(t, 60*time.Second), d, c, in)
	wantState(t, res, runtime.StateCompleted, "")
	if got, want := res.ModelOutputs["result"], "Details saved for Borgo Vini Srl"; got != want {
		t.Errorf("result = %q, want %q", got, want)
	}
	want := []testsite.Unseen3Account{{Company: "Borgo Vini Srl", VAT: "IT01234567890", SDI: "M5UXCR1"}}
	if got := s.Stress.Unseen3Accounts()[before:]; !reflect.DeepEqual(got, want) {
		t.Errorf("server received %+v, want %+v", got, want)
	}
}

// unseen3Ledger reads every ledger entry; root is the list root's
// candidates.
func unseen3Ledger(root string) string {
	return `
  "inputs": [],
  "outputs": [{"name": "entries", "kind": "record_set", "exposure": "model_and_artifact",
    "fields": [{"name": "ref", "type": "string"}, {"name": "desc", "type": "string"}, {"name": "amount", "type": "string"}]}],
  "milestones": [{
    "id": "read",
    "intent": "Read the ledger",
    "actions": [
      {"id": "read-entries", "operation": "extract", "intent": "Read the ledger entries", "effect": "read_only", "confirmation": "none",
       "locator_candidates": ` + root + `,
       "output": "entries",
       "extract": {"mode": "list", "max_records": 100, "fields": [
         {"name": "ref", "type": "string", "locator_candidates": [{"strategy": "css", "css": "td.ref"}]},
         {"name": "desc", "type": "string", "locator_candidates": [{"strategy": "css", "css": "td.desc"}]},
         {"name": "amount", "type": "string", "locator_candidates": [{"strategy": "css", "css": "td.amount"}]}],
         "required_fields": ["ref", "desc", "amount"], "dedupe_keys": ["ref"]},
       "postcondition": {"kind": "output_produced", "output": "entries"}}
    ]
  }]`
}

const (
	// unseen3LedgerCSS: the rows of the table body.
	unseen3LedgerCSS = `[{"strategy": "css", "css": "tbody tr:visible"}]`
	// unseen3LedgerScoped: rows within a rowgroup first; the table has
	// two (thead and tbody), so that candidate loses as ambiguous with
	// its scope's count, 2, and the CSS one wins.
	unseen3LedgerScoped = `[{"strategy": "role", "role": "row", "scope": {"strategy": "role", "role": "rowgroup"}},
                              {"strategy": "css", "css": "tbody tr:visible"}]`
)

func unseen3LedgerWant() []any {
	var out []any
	for _, e := range testsite.Unseen3Ledger() {
		out = append(out, map[string]any{"ref": e.Ref, "desc": e.Desc, "amount": testsite.UnseenEuro(e.Amount)})
	}
	return out
}

// TestUnseen3FormsLedger: a table whose rows are all in the DOM but fill
// their cells only when scrolled near (aria-busy until then) cannot be
// read whole without scrolling, which the runtime does not do: the read
// fails, never completing with placeholders ("Loading…") as values or
// with only the rows in view. Text placeholders are records_incomplete
// (the busy rows); empty skeletons are that or required_field_empty.
// The scoped variant's receipt (a scoped list root candidate that lost
// on an ambiguous scope, locator_matches [2, n]) passes VerifyRun.
func TestUnseen3FormsLedger(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	for _, root := range []struct{ name, cands string }{{"css", unseen3LedgerCSS}, {"scoped", unseen3LedgerScoped}} {
		for _, ph := range []string{"skeleton", "text"} {
			t.Run(root.name+"/"+ph, func(t *testing.T) {
				c := wcCapabilityQuery(t, s.Stress.Origin(), "unseen3-ledger", "/unseen3/ledger",
					`[{"name": "placeholder", "value": "`+ph+`"}]`, unseen3Ledger(root.cands))
				res := execute(t, tctx(t, 60*time.Second), d, c, nil)
				t.Logf("ledger (%s): %s", ph, describeResult(res))
				if res.State == runtime.StateCompleted {
					got := asJSON(t, res.ModelOutputs["entries"])
					if want := unseen3LedgerWant(); !reflect.DeepEqual(got, want) {
						t.Fatalf("completed with %d entries = %v\nwant (40) %v", lenAny(got), got, want)
					}
					return
				}
				reasons := map[string]bool{"records_incomplete": true}
				if ph == "skeleton" {
					reasons["required_field_empty"] = true
				}
				if res.Failure == nil || !reasons[res.Failure.Reason] || res.StoppedAt != "read-entries" {
					t.Errorf("run ended %s, want records_incomplete at read-entries", describeResult(res))
				}
				if v, ok := res.ModelOutputs["entries"]; ok {
					t.Errorf("the failed run returned a partial list of %d entries", lenAny(asJSON(t, v)))
				}
			})
		}
	}
}
