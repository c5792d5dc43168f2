package runtime_test

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/runtimetest"
)

type row struct{ num, amount, paid, date string }

func invoiceRows(rows []row) []*runtimetest.Node {
	var trs []*runtimetest.Node
	for i, r := range rows {
		trs = append(trs, &runtimetest.Node{ID: fmt.Sprintf("r%d", i), Tag: "tr", TestID: "invoice-row", Children: []*runtimetest.Node{
			{Tag: "td", Text: r.num, Attributes: map[string]string{"class": "num"}},
			{Tag: "td", Text: r.amount, Attributes: map[string]string{"class": "amount"}},
			{Tag: "td", Text: r.paid, Attributes: map[string]string{"class": "paid"}},
			{Tag: "td", Text: r.date, Attributes: map[string]string{"class": "date"}},
		}})
	}
	return trs
}

// invoicePage is one page of the invoice list; next links to the next
// page when not empty.
func invoicePage(rows []row, next string) *runtimetest.Page {
	body := []*runtimetest.Node{heading("h", "Invoices"), {ID: "total", Tag: "p", TestID: "total", Text: fmt.Sprintf("%d invoices", len(rows))}}
	if len(rows) > 0 {
		body = append(body, &runtimetest.Node{ID: "t", Tag: "table", Children: invoiceRows(rows)})
	}
	p := &runtimetest.Page{Body: body}
	if next != "" {
		p.Body = append(p.Body, button("next", "Next page"))
		p.Rules = []runtimetest.Rule{onClick("next", runtimetest.Effect{Navigate: next})}
	}
	return p
}

var invoiceFields = []capability.OutputField{
	{Name: "number", Type: capability.FieldString}, {Name: "amount", Type: capability.FieldNumber},
	{Name: "paid", Type: capability.FieldBoolean}, {Name: "date", Type: capability.FieldDate},
}

func extractList(id, out string, max int) capability.Action {
	return capability.Action{ID: id, Operation: capability.OpExtract, Intent: "Read the listed invoices",
		Effect: capability.EffectReadOnly, Confirmation: capability.ConfirmNone,
		LocatorCandidates: cands(testID("invoice-row")), Output: out,
		Extract: &capability.Extraction{Mode: capability.ExtractList, MaxRecords: max,
			Fields: []capability.Field{
				{Name: "number", Type: capability.FieldString, LocatorCandidates: cands(css("td.num"))},
				{Name: "amount", Type: capability.FieldNumber, LocatorCandidates: cands(css("td.amount"))},
				{Name: "paid", Type: capability.FieldBoolean, LocatorCandidates: cands(css("td.paid"))},
				{Name: "date", Type: capability.FieldDate, LocatorCandidates: cands(css("td.date"))},
			},
			RequiredFields: []string{"number"}, DedupeKeys: []string{"number"}},
		Postcondition: produced(out)}
}

func invoiceCap(max int) *capability.Capability {
	c := newCap("/invoices", milestone("list", extractList("read", "invoices", max)))
	c.Outputs = []capability.Output{{Name: "invoices", Kind: capability.OutputRecordSet, Exposure: capability.ExposureModelAndArtifact, Fields: invoiceFields}}
	return c
}

var threeRows = []row{
	{"INV-1", "€ 1.234,56", "sì", "28/03/2026"},
	{"INV-2", "$1,204.10", "no", "2026-03-29"},
	{"INV-3", "12", "Yes", ""},
}

func runInvoices(t *testing.T, c *capability.Capability, pages map[string]*runtimetest.Page, inputs map[string]any, opts ...runtime.Option) (*runtime.Result, *runtimetest.Driver) {
	t.Helper()
	d := runtimetest.NewDriver(site(pages))
	t.Cleanup(func() { d.Close() })
	return exec(t, c, d, inputs, opts...), d
}

func rec(num string, amount float64, paid bool, date any) map[string]any {
	return map[string]any{"number": num, "amount": amount, "paid": paid, "date": date}
}

func TestExtractList(t *testing.T) {
	c := invoiceCap(10)
	mustValid(t, c)
	res, _ := runInvoices(t, c, map[string]*runtimetest.Page{"/invoices": invoicePage(threeRows, "")}, nil)
	if res.State != receipt.TerminalCompleted {
		t.Fatalf("%s", dump(res))
	}
	want := []any{rec("INV-1", 1234.56, true, "2026-03-28"), rec("INV-2", 1204.10, false, "2026-03-29"), rec("INV-3", 12.0, true, nil)}
	if got := res.ModelOutputs["invoices"]; !reflect.DeepEqual(got, want) {
		t.Errorf("invoices = %#v", got)
	}
	if a := res.Actions[0]; a.Records != 3 || a.LocatorIndex != 0 {
		t.Errorf("action %+v", a)
	}
}

func TestExtractFailures(t *testing.T) {
	tests := []struct {
		name   string
		rows   []row
		max    int
		reason string
	}{
		{"more than max_records", threeRows, 2, "max_records_exceeded"},
		{"coercion error", []row{{"INV-1", "n/a", "no", ""}}, 10, "coercion_failed"},
		{"boolean coercion", []row{{"INV-1", "1", "perhaps", ""}}, 10, "coercion_failed"},
		{"date coercion", []row{{"INV-1", "1", "no", "03/28/2026"}}, 10, "coercion_failed"},
		{"required field empty", []row{{"INV-1", "1", "no", ""}, {"  ", "2", "no", ""}}, 10, "required_field_empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, _ := runInvoices(t, invoiceCap(tt.max), map[string]*runtimetest.Page{"/invoices": invoicePage(tt.rows, "")}, nil)
			if res.State != receipt.TerminalFailed || res.Failure.Category != receipt.CategoryExtractionFailed || res.Failure.Reason != tt.reason {
				t.Fatalf("%s", dump(res))
			}
			if _, ok := res.ModelOutputs["invoices"]; ok {
				t.Error("a failed extraction produced its output")
			}
		})
	}
}

func TestExtractDedupeAndLimit(t *testing.T) {
	rows := []row{{"INV-1", "1", "no", ""}, {"INV-2", "2", "no", ""}, {"INV-1", "3", "yes", ""}, {"INV-4", "4", "no", ""}}
	res, _ := runInvoices(t, invoiceCap(10), map[string]*runtimetest.Page{"/invoices": invoicePage(rows, "")}, nil)
	got := res.ModelOutputs["invoices"].([]any)
	if len(got) != 3 || got[2].(map[string]any)["number"] != "INV-4" {
		t.Fatalf("dedupe: %v", got)
	}
	c := invoiceCap(10)
	c.Milestones[0].Actions[0].Extract.LimitInput = "limit"
	c.Inputs = []capability.Input{{Name: "limit", Type: capability.InputInteger, Minimum: ptrF(1), Maximum: ptrF(10)}}
	mustValid(t, c)
	res, _ = runInvoices(t, c, map[string]*runtimetest.Page{"/invoices": invoicePage(rows, "")}, map[string]any{"limit": 2})
	got = res.ModelOutputs["invoices"].([]any)
	if res.State != receipt.TerminalCompleted || len(got) != 2 || res.Actions[0].Records != 2 {
		t.Fatalf("limit: %s", dump(res))
	}
}

func TestExtractEmptySetIsAnAnswer(t *testing.T) {
	res, _ := runInvoices(t, invoiceCap(10), map[string]*runtimetest.Page{"/invoices": invoicePage(nil, "")}, nil)
	if res.State != receipt.TerminalCompleted || !res.Clean {
		t.Fatalf("%s", dump(res))
	}
	if got, ok := res.ModelOutputs["invoices"].([]any); !ok || len(got) != 0 {
		t.Errorf("invoices = %#v", res.ModelOutputs["invoices"])
	}
	if a := res.Actions[0]; a.Records != 0 || a.Status != receipt.ActionPassed {
		t.Errorf("action %+v", a)
	}
}

// paginatedCap reads a page, follows "Next page" while it is shown.
func paginatedCap(visits int) *capability.Capability {
	page := milestone("page", extractList("read", "invoices", 20))
	page.MaxVisits = visits
	page.Transitions = []capability.Transition{
		{When: *visible(role("button", "Next page")), To: "next"},
		{When: capability.Condition{Kind: capability.CondAlways}, To: "completed"},
	}
	next := milestone("next", click("go-next", textVisible("Invoices"), role("button", "Next page")))
	next.MaxVisits = visits
	next.Transitions = []capability.Transition{{When: capability.Condition{Kind: capability.CondAlways}, To: "page"}}
	c := newCap("/invoices", page, next)
	c.Outputs = []capability.Output{{Name: "invoices", Kind: capability.OutputRecordSet, Exposure: capability.ExposureModelAndArtifact, Fields: invoiceFields}}
	return c
}

func TestPagination(t *testing.T) {
	pages := map[string]*runtimetest.Page{
		"/invoices":   invoicePage([]row{{"A", "1", "no", ""}, {"B", "2", "no", ""}}, "/invoices/2"),
		"/invoices/2": invoicePage([]row{{"C", "3", "no", ""}, {"B", "2", "no", ""}}, "/invoices/3"),
		"/invoices/3": invoicePage([]row{{"D", "4", "no", ""}}, ""),
	}
	c := paginatedCap(3)
	mustValid(t, c)
	res, d := runInvoices(t, c, pages, nil)
	if res.State != receipt.TerminalCompleted {
		t.Fatalf("%s", dump(res))
	}
	var nums []string
	for _, r := range res.ModelOutputs["invoices"].([]any) {
		nums = append(nums, r.(map[string]any)["number"].(string))
	}
	if fmt.Sprint(nums) != "[A B C D]" || len(d.Clicks()) != 2 {
		t.Errorf("numbers %v clicks %v", nums, d.Clicks())
	}
	if n := len(res.Milestones); n != 5 {
		t.Errorf("milestone visits %d", n)
	}

	// One page more than max_visits allows fails instead of truncating.
	pages["/invoices/3"] = invoicePage([]row{{"D", "4", "no", ""}}, "/invoices/4")
	pages["/invoices/4"] = invoicePage([]row{{"E", "5", "no", ""}}, "")
	res, _ = runInvoices(t, paginatedCap(3), pages, nil)
	if res.State != receipt.TerminalFailed || res.Failure.Category != receipt.CategoryLimitExceeded || res.Failure.Reason != "max_visits_exceeded" {
		t.Fatalf("%s", dump(res))
	}
}

func TestOutputExposure(t *testing.T) {
	full := extractList("read-full", "invoices", 10)
	summary := extractList("read-summary", "invoice_summary", 10)
	total := capability.Action{ID: "read-total", Operation: capability.OpExtract, Intent: "Read the total line",
		Effect: capability.EffectReadOnly, Confirmation: capability.ConfirmNone, LocatorCandidates: cands(testID("total")),
		Output: "total", Extract: &capability.Extraction{Mode: capability.ExtractText}, Postcondition: produced("total")}
	title := total
	title.ID, title.Output, title.LocatorCandidates, title.Postcondition = "read-title", "title", cands(role("heading", "Invoices")), produced("title")
	c := newCap("/invoices", milestone("read", full, summary, total, title))
	c.Outputs = []capability.Output{
		{Name: "invoices", Kind: capability.OutputRecordSet, Exposure: capability.ExposureModelAndArtifact, Fields: invoiceFields},
		{Name: "invoice_summary", Kind: capability.OutputRecordSet, Exposure: capability.ExposureModelSummary, Fields: invoiceFields},
		{Name: "total", Kind: capability.OutputText, Exposure: capability.ExposureArtifactOnly},
		{Name: "title", Kind: capability.OutputText, Exposure: capability.ExposureModelSummary},
	}
	mustValid(t, c)
	res, _ := runInvoices(t, c, map[string]*runtimetest.Page{"/invoices": invoicePage(threeRows, "")}, nil)
	if res.State != receipt.TerminalCompleted {
		t.Fatalf("%s", dump(res))
	}
	if got := res.ModelOutputs["invoice_summary"]; !reflect.DeepEqual(got, runtime.OutputSummary{Kind: "record_set", Count: 3, Fields: []string{"number", "amount", "paid", "date"}}) {
		t.Errorf("summary = %#v", got)
	}
	if got := res.ModelOutputs["title"]; got != "Invoices" {
		t.Errorf("title = %#v", got)
	}
	if _, ok := res.ModelOutputs["total"]; ok {
		t.Error("artifact_only value returned to the model")
	}
	if len(res.ModelOutputs["invoices"].([]any)) != 3 {
		t.Errorf("invoices = %v", res.ModelOutputs["invoices"])
	}
	if !reflect.DeepEqual(res.ArtifactOutputs, map[string]int{"total": 1}) {
		t.Errorf("artifact outputs = %v", res.ArtifactOutputs)
	}
}

// staleReads fails the first n reads with ErrStaleElement, as a page that
// replaced the element between the find and the read does (a virtualized
// grid recycling its rows on a late scroll event).
type staleReads struct {
	*runtimetest.Driver
	n, reads int
}

func (d *staleReads) Read(ctx context.Context, el runtime.Element, r runtime.Read) (string, error) {
	d.reads++
	if d.reads <= d.n {
		return "", fmt.Errorf("%w: the row was re-rendered", runtime.ErrStaleElement)
	}
	return d.Driver.Read(ctx, el, r)
}

// TestExtractRereadsReplacedElements: a read that meets a replaced
// element reads the whole extraction again from its locator (no
// stale_element failure, and no record from the interrupted pass twice);
// an element that stays stale past the action timeout still fails
// stale_element.
func TestExtractRereadsReplacedElements(t *testing.T) {
	pages := map[string]*runtimetest.Page{"/invoices": invoicePage(threeRows, "")}
	d := &staleReads{Driver: runtimetest.NewDriver(site(pages)), n: 5}
	t.Cleanup(func() { d.Close() })
	res := exec(t, invoiceCap(10), d, nil)
	if res.State != receipt.TerminalCompleted {
		t.Fatalf("%s", dump(res))
	}
	want := []any{rec("INV-1", 1234.56, true, "2026-03-28"), rec("INV-2", 1204.10, false, "2026-03-29"), rec("INV-3", 12.0, true, nil)}
	if got := res.ModelOutputs["invoices"]; !reflect.DeepEqual(got, want) {
		t.Errorf("invoices = %#v", got)
	}
	if a := res.Actions[0]; a.Records != 3 {
		t.Errorf("action %+v", a)
	}

	always := &staleReads{Driver: runtimetest.NewDriver(site(pages)), n: 1 << 30}
	t.Cleanup(func() { always.Close() })
	c := invoiceCap(10)
	c.Runtime.ActionTimeoutMS = 300
	mustValid(t, c)
	res = exec(t, c, always, nil)
	if res.State != receipt.TerminalFailed || res.Failure == nil || res.Failure.Reason != "stale_element" {
		t.Fatalf("always stale: %s", dump(res))
	}
	if _, ok := res.ModelOutputs["invoices"]; ok {
		t.Error("a failed extraction produced its output")
	}
}
