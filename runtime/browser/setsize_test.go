package browser

import (
	"context"
	"fmt"
	"log/slog"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/runtimetest"
)

// Declared sets in real Chromium: a list extraction that sees only part of
// the set the page declares (a virtualized grid, a list showing 10 of 40,
// a feed of unknown size) fails with records_incomplete instead of
// completing with the rows that happen to exist.

// detailLog captures the raw failure details the runtime logs at debug
// level (the receipt only has their hash).
type detailLog struct {
	mu      sync.Mutex
	details []string
}

func (l *detailLog) Enabled(context.Context, slog.Level) bool { return true }
func (l *detailLog) Handle(_ context.Context, r slog.Record) error {
	if r.Message != "vera run failure" {
		return nil
	}
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "detail" {
			l.mu.Lock()
			l.details = append(l.details, a.Value.String())
			l.mu.Unlock()
		}
		return true
	})
	return nil
}
func (l *detailLog) WithAttrs([]slog.Attr) slog.Handler { return l }
func (l *detailLog) WithGroup(string) slog.Handler      { return l }

func (l *detailLog) last(t *testing.T) string {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.details) == 0 {
		t.Fatal("no failure detail logged")
	}
	return l.details[len(l.details)-1]
}

// incompleteDetail is the detail of a records_incomplete failure.
var incompleteDetail = regexp.MustCompile(`^action (\S+): (\d+) records read of a set the page declares with (\d+ members|an unknown size); (\d+) of its members present$`)

// wantIncomplete checks a records_incomplete failure of action id: the
// detail names the records read (those the action recorded; with a
// limit, at least those) and the size the page declares.
func wantIncomplete(t *testing.T, res *runtime.Result, log *detailLog, id, size string, limited bool) {
	t.Helper()
	if res.State != runtime.StateFailed || res.Failure == nil || res.Failure.Category != "extraction_failed" || res.Failure.Reason != string(runtime.ReasonRecordsIncomplete) {
		t.Fatalf("run ended %s, want failed extraction_failed/records_incomplete", describeResult(res))
	}
	if res.StoppedAt != id {
		t.Fatalf("stopped at %q, want %q", res.StoppedAt, id)
	}
	d := log.last(t)
	m := incompleteDetail.FindStringSubmatch(d)
	if m == nil || m[1] != id || m[3] != size {
		t.Fatalf("detail %q, want %s records of %s", d, id, size)
	}
	a := action(res, id)
	if a == nil {
		t.Fatalf("no outcome of %s", id)
	}
	if n, _ := strconv.Atoi(m[2]); n == 0 || n < a.Records || (!limited && n != a.Records) {
		t.Fatalf("detail says %s records read, the action recorded %d", m[2], a.Records)
	}
}

// setsCapability is a capability that reads a list of the page at start.
func setsCapability(t *testing.T, origin, id, start, body string) *capability.Capability {
	t.Helper()
	return wcCapability(t, origin, "sets-"+id, start, body)
}

// setsOrders reads the orders of the grid as a list; {{limit}} is the
// limit_input member (or nothing) and {{pre}} the actions before it.
const setsOrders = `
  "inputs": [{"name": "limit", "type": "integer", "description": "Read at most this many orders", "minimum": 1, "maximum": 100}],
  "outputs": [{"name": "orders", "kind": "record_set", "exposure": "model_and_artifact",
    "fields": [{"name": "number", "type": "string"}, {"name": "customer", "type": "string"}]}],
  "milestones": [{
    "id": "orders",
    "intent": "Read the orders",
    "actions": [{{pre}}
      {"id": "read-orders", "operation": "extract", "intent": "Read the orders", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "test_id", "test_id": "order-row"}],
       "output": "orders",
       "extract": {"mode": "list", "max_records": 1000, "limit_input": "limit", "fields": [
         {"name": "number", "type": "string", "locator_candidates": [{"strategy": "css", "css": ".num"}]},
         {"name": "customer", "type": "string", "locator_candidates": [{"strategy": "css", "css": ".cust"}]}],
         "required_fields": ["number", "customer"]},
       "postcondition": {"kind": "output_produced", "output": "orders"}}
    ]
  }]`

func orders(pre string) string { return strings.Replace(setsOrders, "{{pre}}", pre, 1) }

// waitRows makes the grid's first row a precondition.
const waitRows = `
      {"id": "see-grid", "operation": "press", "intent": "Focus the grid", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "grid", "name": "Orders", "exact": true}],
       "key": "Home",
       "postcondition": {"kind": "text_visible", "text": "ORD-0001"}},`

// numbers returns the number field of each record.
func numbers(t *testing.T, v any) []string {
	t.Helper()
	recs, _ := asJSON(t, v).([]any)
	out := []string{}
	for _, r := range recs {
		m, _ := r.(map[string]any)
		out = append(out, fmt.Sprint(m["number"]))
	}
	return out
}

func ordNumbers(from, to int) []string {
	out := []string{}
	for n := from; n <= to; n++ {
		out = append(out, fmt.Sprintf("ORD-%04d", n))
	}
	return out
}

// TestSetsVirtualGrid: the virtualized grid of 1000 orders (aria-rowcount
// 1001 with the header) read as a list fails records_incomplete, its
// detail naming the rows read and the 1001 the grid declares; before,
// the run completed with the ~13 rows in view.
func TestSetsVirtualGrid(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	c := setsCapability(t, s.Stress.Origin(), "grid", "/webcheck/grid", orders(waitRows))
	log := &detailLog{}
	res := execute(t, tctx(t, 60*time.Second), d, c, nil, runtime.WithLogger(slog.New(log)))
	wantIncomplete(t, res, log, "read-orders", "1001 members", false)
}

// TestSetsWholeGrid: a grid whose rows all exist (aria-rowcount 6: five
// orders and the header) completes with every order.
func TestSetsWholeGrid(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	c := wcCapabilityQuery(t, s.Stress.Origin(), "sets-whole", "/webcheck/grid", `[{"name": "rows", "value": "5"}]`, orders(waitRows))
	res := execute(t, tctx(t, 60*time.Second), d, c, nil)
	wantState(t, res, runtime.StateCompleted, "")
	if got, want := numbers(t, res.ModelOutputs["orders"]), ordNumbers(1, 5); !reflect.DeepEqual(got, want) {
		t.Fatalf("orders = %v, want %v", got, want)
	}
}

// TestSetsGridLimit: a limit smaller than the rows in view asks for the
// first orders, which are all there: the virtualized grid completes. The
// same limit on the grid scrolled to its end fails: the rows before those
// in view are missing, so they are not the first orders.
func TestSetsGridLimit(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	c := setsCapability(t, s.Stress.Origin(), "limit", "/webcheck/grid", orders(waitRows))
	res := execute(t, tctx(t, 60*time.Second), d, c, map[string]any{"limit": 5})
	wantState(t, res, runtime.StateCompleted, "")
	if got, want := numbers(t, res.ModelOutputs["orders"]), ordNumbers(1, 5); !reflect.DeepEqual(got, want) {
		t.Fatalf("orders = %v, want %v", got, want)
	}

	toEnd := `
      {"id": "to-end", "operation": "press", "intent": "Scroll the grid to its last row", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "grid", "name": "Orders", "exact": true}],
       "key": "End",
       "postcondition": {"kind": "text_visible", "text": "ORD-1000"}},`
	c = setsCapability(t, s.Stress.Origin(), "limit-end", "/webcheck/grid", orders(toEnd))
	log := &detailLog{}
	res = execute(t, tctx(t, 60*time.Second), d, c, map[string]any{"limit": 5}, runtime.WithLogger(slog.New(log)))
	wantIncomplete(t, res, log, "read-orders", "1001 members", true)
}

// setsItems reads the items of the inbox list or the news feed after its
// first batch arrived ({{wait}}: a text of the first item).
const setsItems = `
  "inputs": [{"name": "limit", "type": "integer", "description": "Read at most this many items", "minimum": 1, "maximum": 100}],
  "outputs": [{"name": "items", "kind": "record_set", "exposure": "model_and_artifact",
    "fields": [{"name": "title", "type": "string"}, {"name": "from", "type": "string"}]}],
  "milestones": [{{more}}{
    "id": "items",
    "intent": "Read the items",
    "actions": [
      {"id": "read-items", "operation": "extract", "intent": "Read the items", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "test_id", "test_id": "item"}],
       "output": "items",
       "extract": {"mode": "list", "max_records": 1000, "limit_input": "limit", "fields": [
         {"name": "title", "type": "string", "locator_candidates": [{"strategy": "css", "css": ".title"}]},
         {"name": "from", "type": "string", "locator_candidates": [{"strategy": "css", "css": ".from"}]}],
         "required_fields": ["title", "from"]},
       "postcondition": {"kind": "output_produced", "output": "items"}}
    ]
  }]`

// waitFirst is a first milestone that waits for the first item.
const waitFirst = `{
    "id": "loaded",
    "intent": "Wait for the first items",
    "actions": [],
    "transitions": [{"when": {"kind": "text_visible", "text": "{{first}}"}, "to": "items"}]
  }, `

func items(more, first string) string {
	return strings.Replace(strings.Replace(setsItems, "{{more}}", more, 1), "{{first}}", first, 1)
}

func titles(t *testing.T, v any) []string {
	t.Helper()
	recs, _ := asJSON(t, v).([]any)
	out := []string{}
	for _, r := range recs {
		m, _ := r.(map[string]any)
		out = append(out, fmt.Sprint(m["title"]))
	}
	return out
}

func titled(prefix string, from, to int) []string {
	out := []string{}
	for n := from; n <= to; n++ {
		out = append(out, fmt.Sprintf("%s %d", prefix, n))
	}
	return out
}

// TestSetsList: a list showing its first 10 messages with aria-setsize
// 40 fails records_incomplete; the same list of 10 completes; loading
// every batch first ("Load more" until the status says 40 of 40)
// completes with all 40.
func TestSetsList(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	origin := s.Stress.Origin()
	c := setsCapability(t, origin, "inbox", "/webcheck/inbox", items(waitFirst, "Message 1"))
	log := &detailLog{}
	res := execute(t, tctx(t, 60*time.Second), d, c, nil, runtime.WithLogger(slog.New(log)))
	wantIncomplete(t, res, log, "read-items", "40 members", false)

	c = wcCapabilityQuery(t, origin, "sets-inbox-10", "/webcheck/inbox", `[{"name": "total", "value": "10"}]`, items(waitFirst, "Message 1"))
	res = execute(t, tctx(t, 60*time.Second), d, c, nil)
	wantState(t, res, runtime.StateCompleted, "")
	if got, want := titles(t, res.ModelOutputs["items"]), titled("Message", 1, 10); !reflect.DeepEqual(got, want) {
		t.Fatalf("items = %v, want %v", got, want)
	}

	more := `{
    "id": "loaded",
    "intent": "Wait for the next batch or the end",
    "max_visits": 5,
    "actions": [],
    "transitions": [
      {"when": {"kind": "text_visible", "text": "Showing 40 of 40"}, "to": "items"},
      {"when": {"kind": "locator_visible", "locator_candidates": [{"strategy": "role", "role": "button", "name": "Load more", "exact": true}]}, "to": "more"}]
  }, {
    "id": "more",
    "intent": "Load the next batch",
    "max_visits": 4,
    "actions": [
      {"id": "load-more", "operation": "click", "intent": "Load more messages", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "button", "name": "Load more", "exact": true}],
       "postcondition": {"kind": "text_visible", "text": "Showing"}}],
    "transitions": [{"when": {"kind": "always"}, "to": "loaded"}]
  }, `
	c = setsCapability(t, origin, "inbox-all", "/webcheck/inbox", items(more, ""))
	res = execute(t, tctx(t, 90*time.Second), d, c, nil)
	wantState(t, res, runtime.StateCompleted, "")
	if got, want := titles(t, res.ModelOutputs["items"]), titled("Message", 1, 40); !reflect.DeepEqual(got, want) {
		t.Fatalf("items = %v, want %v", got, want)
	}
}

// TestSetsFeed: a feed that declares its size unknown (aria-setsize -1)
// is never read whole, so reading it fails records_incomplete; with a
// limit the first stories are read and the run completes.
func TestSetsFeed(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	c := setsCapability(t, s.Stress.Origin(), "feed", "/webcheck/feed", items(waitFirst, "Story 1"))
	log := &detailLog{}
	res := execute(t, tctx(t, 60*time.Second), d, c, nil, runtime.WithLogger(slog.New(log)))
	wantIncomplete(t, res, log, "read-items", "an unknown size", false)

	res = execute(t, tctx(t, 60*time.Second), d, c, map[string]any{"limit": 3})
	wantState(t, res, runtime.StateCompleted, "")
	if got, want := titles(t, res.ModelOutputs["items"]), titled("Story", 1, 3); !reflect.DeepEqual(got, want) {
		t.Fatalf("items = %v, want %v", got, want)
	}
}

// TestDeclaredSetsSameAsFake: Chromium's page helper and the fake read
// the same fixture's declarations alike (the fake stands in for the
// browser in the runtime's policy tests): rows of a table with a header
// (aria-rowcount, aria-rowindex), a grid declaring nothing whose rows
// carry aria-setsize, a list by aria-setsize/aria-posinset with a nested
// list, items of two levels, a feed of unknown size, a plain list and an
// element that is a member of no set.
func TestDeclaredSetsSameAsFake(t *testing.T) {
	t.Parallel()
	d := shared(t)
	a := func(kv ...string) map[string]string {
		m := map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	m := func(tag string, attrs map[string]string, kids ...*runtimetest.Node) *runtimetest.Node {
		n := &runtimetest.Node{Tag: tag, TestID: "m", Role: attrs["role"], Attributes: attrs, Children: kids}
		delete(attrs, "role")
		if tag != "tr" {
			n.Text = "x"
		}
		return n
	}
	cell := func() *runtimetest.Node { return &runtimetest.Node{Tag: "td", Text: "c"} }
	page := &runtimetest.Page{Body: []*runtimetest.Node{
		{Tag: "table", Attributes: a("aria-rowcount", "40"), Children: []*runtimetest.Node{
			{Tag: "tr", Attributes: a("aria-rowindex", "1"), Children: []*runtimetest.Node{{Tag: "th", Text: "h"}}},
			m("tr", a("aria-rowindex", "7"), cell()), m("tr", a("aria-rowindex", "8"), cell()),
		}},
		{Tag: "div", Role: "grid", Name: "Plain grid", Children: []*runtimetest.Node{
			m("div", a("role", "row", "aria-setsize", "3", "aria-posinset", "1"), &runtimetest.Node{Tag: "span", Role: "gridcell", Text: "c"}),
			{Tag: "div", Role: "row", Attributes: a("aria-setsize", "3", "aria-posinset", "2"), Children: []*runtimetest.Node{{Tag: "span", Role: "gridcell", Text: "c"}}},
		}},
		{Tag: "ul", Children: []*runtimetest.Node{
			m("li", a("aria-setsize", "5", "aria-posinset", "1")),
			m("li", a("aria-setsize", "5", "aria-posinset", "2"), &runtimetest.Node{Tag: "ul", Children: []*runtimetest.Node{
				m("li", a("aria-setsize", "-1", "aria-posinset", "1")),
			}}),
			m("li", a("aria-setsize", "6", "aria-posinset", "3")),
		}},
		{Tag: "div", Role: "tree", Name: "Folders", Children: []*runtimetest.Node{
			m("div", a("role", "treeitem", "aria-level", "1", "aria-setsize", "2", "aria-posinset", "1")),
			m("div", a("role", "treeitem", "aria-level", "2", "aria-setsize", "4", "aria-posinset", "2")),
			{Tag: "div", Role: "treeitem", Attributes: a("aria-level", "1", "aria-setsize", "2", "aria-posinset", "2"), Text: "y"},
		}},
		{Tag: "div", Role: "feed", Name: "News", Children: []*runtimetest.Node{
			m("article", a("aria-setsize", "-1", "aria-posinset", "1")), m("article", a("aria-setsize", "-1", "aria-posinset", "2")),
		}},
		{Tag: "ol", Children: []*runtimetest.Node{m("li", a()), m("li", a())}},
		m("p", a()),
	}}
	site := runtimetest.Serve(t, &runtimetest.Site{Pages: map[string]*runtimetest.Page{"http://127.0.0.1:4010/sets": page}})
	var url string
	for u := range site.Pages {
		url = u
	}
	fake := runtimetest.NewDriver(site)
	t.Cleanup(func() { fake.Close() })
	origin := url[:strings.LastIndex(url, "/")]
	ctx := tctx(t, 30*time.Second)
	answers := map[string][]runtime.DeclaredSet{}
	for name, drv := range map[string]runtime.Driver{"fake": fake, "chromium": d} {
		if err := drv.RestrictOrigins(ctx, runtime.OriginScope{Allowed: []string{origin}}); err != nil {
			t.Fatal(err)
		}
		if err := drv.Navigate(ctx, url); err != nil {
			t.Fatal(err)
		}
		els, err := drv.Find(ctx, nil, nil, locator.Candidate{Strategy: locator.TestID, TestID: "m"})
		if err != nil || len(els) != 14 {
			t.Fatalf("%s: %d members, %v", name, len(els), err)
		}
		sets, err := drv.(runtime.SetDeclarer).DeclaredSets(ctx, els)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		answers[name] = sets
	}
	want := []runtime.DeclaredSet{
		{Size: 40, Positions: []int{1, 7, 8}, Members: []int{0, 1}},
		{Size: 3, Positions: []int{1, 2}, Members: []int{2}},
		{Size: 6, Positions: []int{1, 2, 3}, Members: []int{3, 4, 6}},
		{Size: -1, Positions: []int{1}, Members: []int{5}},
		{Size: 2, Positions: []int{1, 2}, Members: []int{7}},
		{Size: 4, Positions: []int{2}, Members: []int{8}},
		{Size: -1, Positions: []int{1, 2}, Members: []int{9, 10}},
	}
	for name, got := range answers {
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: declared sets\n got %+v\nwant %+v", name, got, want)
		}
	}
}
