package runtime_test

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/runtimetest"
)

// Policy of declared sets (setsize.go) on the fake driver: which lists
// the page declares larger than what a list extraction read.

// setRow is one invoice row with its ARIA attributes (nil: none).
func setRow(i int, num string, attrs map[string]string) *runtimetest.Node {
	a := map[string]string{}
	for k, v := range attrs {
		a[k] = v
	}
	return &runtimetest.Node{ID: fmt.Sprintf("r%d", i), Tag: "tr", TestID: "invoice-row", Attributes: a, Children: []*runtimetest.Node{
		{Tag: "td", Text: num, Attributes: map[string]string{"class": "num"}},
		{Tag: "td", Text: "1", Attributes: map[string]string{"class": "amount"}},
		{Tag: "td", Text: "no", Attributes: map[string]string{"class": "paid"}},
		{Tag: "td", Attributes: map[string]string{"class": "date"}},
	}}
}

// setTable is an invoice page whose table has the attributes table and
// rows numbered from first with aria-rowindex (first 0: no index);
// next links to the next page when not empty.
func setTable(table map[string]string, first int, nums []string, next string) *runtimetest.Page {
	var rows []*runtimetest.Node
	for i, n := range nums {
		var a map[string]string
		if first > 0 {
			a = map[string]string{"aria-rowindex": fmt.Sprint(first + i)}
		}
		rows = append(rows, setRow(i, n, a))
	}
	p := &runtimetest.Page{Body: []*runtimetest.Node{heading("h", "Invoices"), {ID: "t", Tag: "table", Attributes: table, Children: rows}}}
	if next != "" {
		p.Body = append(p.Body, button("next", "Next page"))
		p.Rules = []runtimetest.Rule{onClick("next", runtimetest.Effect{Navigate: next})}
	}
	return p
}

// setList is a page of listitems (test id invoice-row) with the given
// attributes each, inside a list, or a feed when feed is set.
func setList(feed bool, attrs func(i int) map[string]string, nums []string) *runtimetest.Page {
	var items []*runtimetest.Node
	for i, n := range nums {
		it := setRow(i, n, attrs(i))
		it.Tag = "li"
		for _, c := range it.Children {
			c.Tag = "span"
		}
		if feed {
			it.Tag, it.Role = "article", ""
		}
		items = append(items, it)
	}
	list := &runtimetest.Node{ID: "l", Tag: "ul", Children: items}
	if feed {
		list = &runtimetest.Node{ID: "l", Tag: "div", Role: "feed", Name: "News", Children: items}
	}
	return &runtimetest.Page{Body: []*runtimetest.Node{heading("h", "Invoices"), list}}
}

func nums(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("INV-%d", i+1)
	}
	return out
}

// limited is invoiceCap with the limit input "limit".
func limited() *capability.Capability {
	c := invoiceCap(100)
	c.Milestones[0].Actions[0].Extract.LimitInput = "limit"
	c.Inputs = []capability.Input{{Name: "limit", Type: capability.InputInteger, Minimum: ptrF(1), Maximum: ptrF(100)}}
	return c
}

// details captures the raw failure details the runtime logs.
type details struct {
	mu sync.Mutex
	d  []string
}

func (l *details) Enabled(context.Context, slog.Level) bool { return true }
func (l *details) Handle(_ context.Context, r slog.Record) error {
	r.Attrs(func(a slog.Attr) bool {
		if r.Message == "vera run failure" && a.Key == "detail" {
			l.mu.Lock()
			l.d = append(l.d, a.Value.String())
			l.mu.Unlock()
		}
		return true
	})
	return nil
}
func (l *details) WithAttrs([]slog.Attr) slog.Handler { return l }
func (l *details) WithGroup(string) slog.Handler      { return l }
func (l *details) last() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.d) == 0 {
		return ""
	}
	return l.d[len(l.d)-1]
}

func TestDeclaredSets(t *testing.T) {
	rc := func(n string) map[string]string { return map[string]string{"aria-rowcount": n} }
	items := func(size string, from int) func(int) map[string]string {
		return func(i int) map[string]string {
			return map[string]string{"aria-setsize": size, "aria-posinset": fmt.Sprint(from + i)}
		}
	}
	sizeOnly := func(size string) func(int) map[string]string {
		return func(int) map[string]string { return map[string]string{"aria-setsize": size} }
	}
	tests := []struct {
		name   string
		page   *runtimetest.Page
		limit  int
		want   string // "" completed, else the failure reason
		detail string // a part of the failure detail
		recs   int    // records of a completed run
	}{
		{"rowcount above the rows", setTable(rc("10"), 0, nums(3), ""), 0, "records_incomplete", "3 records read of a set the page declares with 10 members; 3 of its members present", 0},
		{"rowcount equal to the rows", setTable(rc("3"), 0, nums(3), ""), 0, "", "", 3},
		{"rowcount with the header row", func() *runtimetest.Page {
			p := setTable(rc("4"), 2, nums(3), "")
			tbl := p.Body[1]
			tbl.Children = append([]*runtimetest.Node{{Tag: "tr", Attributes: map[string]string{"aria-rowindex": "1"}, Children: []*runtimetest.Node{{Tag: "th", Text: "Number"}}}}, tbl.Children...)
			return p
		}(), 0, "", "", 3},
		{"rowcount unknown", setTable(rc("-1"), 1, nums(3), ""), 0, "records_incomplete", "an unknown size", 0},
		{"rowindex from 5", setTable(nil, 5, nums(3), ""), 0, "records_incomplete", "positions but no size", 0},
		{"rowindex from 1", setTable(nil, 1, nums(3), ""), 0, "", "", 3},
		{"rowindex with a gap", func() *runtimetest.Page {
			p := setTable(nil, 1, nums(3), "")
			p.Body[1].Children[2].Attributes["aria-rowindex"] = "4"
			return p
		}(), 0, "records_incomplete", "3 records read", 0},
		{"rowindex past the rowcount", setTable(rc("3"), 2, nums(3), ""), 0, "records_incomplete", "", 0},
		{"invalid rowcount is none", setTable(rc("ten"), 0, nums(3), ""), 0, "", "", 3},
		{"limit within the first rows", setTable(rc("10"), 1, nums(3), ""), 2, "", "", 2},
		{"limit above the rows", setTable(rc("10"), 1, nums(3), ""), 5, "records_incomplete", "", 0},
		{"limit on rows in the middle", setTable(rc("10"), 5, nums(3), ""), 2, "records_incomplete", "", 0},
		{"limit without positions", setTable(rc("10"), 0, nums(3), ""), 2, "", "", 2},
		{"setsize above the items", setList(false, items("5", 1), nums(3)), 0, "records_incomplete", "3 records read of a set the page declares with 5 members", 0},
		{"setsize equal to the items", setList(false, items("3", 1), nums(3)), 0, "", "", 3},
		{"setsize without positions", setList(false, sizeOnly("5"), nums(3)), 0, "records_incomplete", "", 0},
		{"setsize without positions, whole", setList(false, sizeOnly("3"), nums(3)), 0, "", "", 3},
		{"posinset from 4", setList(false, items("6", 4), nums(3)), 0, "records_incomplete", "", 0},
		{"plain list", setList(false, func(int) map[string]string { return nil }, nums(3)), 0, "", "", 3},
		{"feed of unknown size", setList(true, items("-1", 1), nums(3)), 0, "records_incomplete", "an unknown size", 0},
		{"feed of unknown size, limit", setList(true, items("-1", 1), nums(3)), 2, "", "", 2},
		{"feed of unknown size, limit not reached", setList(true, items("-1", 1), nums(3)), 4, "records_incomplete", "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := invoiceCap(100)
			var in map[string]any
			if tt.limit > 0 {
				c, in = limited(), map[string]any{"limit": tt.limit}
			}
			// The fields are cells of a row, spans of an item.
			for i := range c.Milestones[0].Actions[0].Extract.Fields {
				f := &c.Milestones[0].Actions[0].Extract.Fields[i]
				f.LocatorCandidates = cands(css(strings.TrimPrefix(f.LocatorCandidates[0].CSS, "td")))
			}
			mustValid(t, c)
			log := &details{}
			res, _ := runInvoices(t, c, map[string]*runtimetest.Page{"/invoices": tt.page}, in, runtime.WithLogger(slog.New(log)))
			if tt.want == "" {
				if res.State != receipt.TerminalCompleted {
					t.Fatalf("%s", dump(res))
				}
				if got := len(res.ModelOutputs["invoices"].([]any)); got != tt.recs {
					t.Fatalf("%d records, want %d", got, tt.recs)
				}
				return
			}
			if res.State != receipt.TerminalFailed || res.Failure.Category != receipt.CategoryExtractionFailed || res.Failure.Reason != tt.want || res.StoppedAt != "read" {
				t.Fatalf("%s", dump(res))
			}
			if a := res.Actions[0]; a.Status != receipt.ActionFailed {
				t.Errorf("action %+v", a)
			}
			if d := log.last(); !strings.HasPrefix(d, "action read: ") || !strings.Contains(d, tt.detail) {
				t.Errorf("detail %q, want it to say %q", d, tt.detail)
			}
		})
	}
}

// TestDeclaredSetsSubset: records that are a subset of a set present
// whole (a filter) are complete; records that are a subset of a set
// present in part are not.
func TestDeclaredSetsSubset(t *testing.T) {
	for _, tt := range []struct {
		count string
		want  receipt.TerminalState
	}{{"4", receipt.TerminalCompleted}, {"40", receipt.TerminalFailed}} {
		p := setTable(map[string]string{"aria-rowcount": tt.count}, 1, nums(4), "")
		p.Body[1].Children[1].TestID = "other-row"
		res, _ := runInvoices(t, invoiceCap(100), map[string]*runtimetest.Page{"/invoices": p}, nil)
		if res.State != tt.want {
			t.Fatalf("rowcount %s: %s", tt.count, dump(res))
		}
	}
}

// TestDeclaredSetsPagination: pages that each show part of the declared
// rows complete once every page was read (the positions, or the count
// of the records kept, add up); a run whose pagination ends before the
// last page fails records_incomplete at completion, naming the
// extraction.
func TestDeclaredSetsPagination(t *testing.T) {
	rc := map[string]string{"aria-rowcount": "5"}
	for _, positions := range []bool{true, false} {
		from := func(n int) int {
			if positions {
				return n
			}
			return 0
		}
		pages := map[string]*runtimetest.Page{
			"/invoices":   setTable(rc, from(1), []string{"A", "B"}, "/invoices/2"),
			"/invoices/2": setTable(rc, from(3), []string{"C", "D"}, "/invoices/3"),
			"/invoices/3": setTable(rc, from(5), []string{"E"}, ""),
		}
		c := paginatedCap(3)
		mustValid(t, c)
		res, _ := runInvoices(t, c, pages, nil)
		if res.State != receipt.TerminalCompleted || len(res.ModelOutputs["invoices"].([]any)) != 5 {
			t.Fatalf("positions %v: %s", positions, dump(res))
		}

		// The pages end early: two of five rows never read.
		pages["/invoices/2"] = setTable(rc, from(3), []string{"C"}, "")
		res, _ = runInvoices(t, paginatedCap(3), pages, nil)
		if res.State != receipt.TerminalFailed || res.Failure.Reason != string(runtime.ReasonRecordsIncomplete) || res.StoppedAt != "read" {
			t.Fatalf("positions %v, early end: %s", positions, dump(res))
		}
		for _, a := range res.Actions {
			if a.Status != receipt.ActionPassed {
				t.Errorf("action %+v", a)
			}
		}
	}

	// Revisiting the same rows does not add up to the whole set: the
	// kept records count, and the dedupe keys drop the repeats.
	again := map[string]*runtimetest.Page{
		"/invoices":   setTable(rc, 0, []string{"A", "B", "C"}, "/invoices/2"),
		"/invoices/2": setTable(rc, 0, []string{"A", "B", "C"}, ""),
	}
	res, _ := runInvoices(t, paginatedCap(3), again, nil)
	if res.State != receipt.TerminalFailed || res.Failure.Reason != string(runtime.ReasonRecordsIncomplete) {
		t.Fatalf("repeated page: %s", dump(res))
	}
}

// badSets answers DeclaredSets with sets, or err.
type badSets struct {
	*runtimetest.Driver
	sets []runtime.DeclaredSet
	err  error
}

func (d *badSets) DeclaredSets(context.Context, []runtime.Element) ([]runtime.DeclaredSet, error) {
	return d.sets, d.err
}

// TestDeclaredSetsDriverAnswers: an answer that breaks the DeclaredSet
// contract fails read_failed instead of deciding on it; a stale answer
// reads again; a driver error is classified like a read's.
func TestDeclaredSetsDriverAnswers(t *testing.T) {
	pages := map[string]*runtimetest.Page{"/invoices": invoicePage(threeRows, "")}
	for _, tt := range []struct {
		name string
		sets []runtime.DeclaredSet
		err  error
		want string
	}{
		{"size below -1", []runtime.DeclaredSet{{Size: -2, Positions: []int{1}, Members: []int{0}}}, nil, "read_failed"},
		{"no members", []runtime.DeclaredSet{{Size: 3, Positions: []int{1}}}, nil, "read_failed"},
		{"fewer present than members", []runtime.DeclaredSet{{Size: 3, Positions: []int{1}, Members: []int{0, 1}}}, nil, "read_failed"},
		{"member out of range", []runtime.DeclaredSet{{Size: 3, Positions: []int{1}, Members: []int{3}}}, nil, "read_failed"},
		{"member twice", []runtime.DeclaredSet{{Size: 3, Positions: []int{1, 2}, Members: []int{0}}, {Size: 3, Positions: []int{1}, Members: []int{0}}}, nil, "read_failed"},
		{"members unordered", []runtime.DeclaredSet{{Size: 3, Positions: []int{1, 2}, Members: []int{1, 0}}}, nil, "read_failed"},
		{"negative position", []runtime.DeclaredSet{{Size: 3, Positions: []int{-1}, Members: []int{0}}}, nil, "read_failed"},
		{"driver error", nil, fmt.Errorf("boom"), "read_failed"},
		{"crash", nil, fmt.Errorf("gone: %w", runtime.ErrBrowserCrashed), "browser_crashed"},
		{"valid and whole", []runtime.DeclaredSet{{Size: 3, Positions: []int{1, 2, 3}, Members: []int{0, 1, 2}}}, nil, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d := &badSets{Driver: runtimetest.NewDriver(site(pages)), sets: tt.sets, err: tt.err}
			t.Cleanup(func() { d.Close() })
			res := exec(t, invoiceCap(10), d, nil)
			if tt.want == "" {
				if res.State != receipt.TerminalCompleted {
					t.Fatalf("%s", dump(res))
				}
				return
			}
			if res.State != receipt.TerminalFailed || res.Failure.Reason != tt.want {
				t.Fatalf("%s", dump(res))
			}
		})
	}
}

// staleSets fails the first n DeclaredSets calls stale, as a grid that
// recycled its rows between the find and the look does.
type staleSets struct {
	*runtimetest.Driver
	n, calls int
}

func (d *staleSets) DeclaredSets(ctx context.Context, els []runtime.Element) ([]runtime.DeclaredSet, error) {
	d.calls++
	if d.calls <= d.n {
		return nil, fmt.Errorf("%w: rows recycled", runtime.ErrStaleElement)
	}
	return d.Driver.DeclaredSets(ctx, els)
}

func TestDeclaredSetsStaleRereads(t *testing.T) {
	p := setTable(map[string]string{"aria-rowcount": "10"}, 1, nums(3), "")
	d := &staleSets{Driver: runtimetest.NewDriver(site(map[string]*runtimetest.Page{"/invoices": p})), n: 2}
	t.Cleanup(func() { d.Close() })
	res := exec(t, invoiceCap(100), d, nil)
	if res.State != receipt.TerminalFailed || res.Failure.Reason != string(runtime.ReasonRecordsIncomplete) || d.calls != 3 {
		t.Fatalf("calls %d: %s", d.calls, dump(res))
	}
}
