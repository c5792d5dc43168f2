package runtime_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/runtimetest"
)

func waitFor(id string, post *capability.Condition) capability.Action {
	return capability.Action{ID: id, Operation: capability.OpWait, Intent: "wait " + id,
		Effect: capability.EffectReadOnly, Confirmation: capability.ConfirmNone, Postcondition: post}
}

func navigate(id, url string, q []capability.QueryEntry, post *capability.Condition) capability.Action {
	return capability.Action{ID: id, Operation: capability.OpNavigate, Intent: "open " + id, URL: url, Query: q,
		Effect: capability.EffectReadOnly, Confirmation: capability.ConfirmNone, Postcondition: post}
}

func navigations(d *runtimetest.Driver) []string {
	var out []string
	for _, c := range d.Calls() {
		if c.Method == runtimetest.MethodNavigate {
			out = append(out, c.URL)
		}
	}
	return out
}

// queryCap starts on /clients with view=all and a templated q, then
// navigates to page 2 of the same search.
func queryCap() *capability.Capability {
	c := newCap("/clients",
		milestone("search", waitFor("listed", &capability.Condition{Kind: capability.CondURLIncludes, Value: "q={{client}}"})),
		milestone("next", navigate("page-two", "/clients",
			[]capability.QueryEntry{{Name: "q", Value: "{{client}}"}, {Name: "page", Value: "2"}},
			&capability.Condition{Kind: capability.CondURLIncludes, Value: "page=2"})))
	c.Runtime.StartQuery = []capability.QueryEntry{{Name: "view", Value: "all"}, {Name: "q", Value: "{{client}}"}}
	c.Inputs = []capability.Input{{Name: "client", Type: capability.InputString, Required: true}}
	return c
}

// TestQueryEntriesResolved: the start and a navigate carry their query
// entries in order, encoded as RFC 3986 components; an input holding '&',
// '=', '#', '+', spaces and non-ASCII stays one inert value (the page key
// of the fake is the exact URL, so any other encoding is a 404); the
// url_includes postcondition sees the decoded query.
func TestQueryEntriesResolved(t *testing.T) {
	for _, tc := range []struct{ client, enc string }{
		{"Ada", "Ada"},
		{"A&page=9", "A%26page%3D9"},
		{"Ö'Brien #2 + Co", "%C3%96%27Brien%20%232%20%2B%20Co"},
		{"x=y&z", "x%3Dy%26z"},
	} {
		t.Run(tc.client, func(t *testing.T) {
			c := queryCap()
			mustValid(t, c)
			start := origin + "/clients?view=all&q=" + tc.enc
			second := origin + "/clients?q=" + tc.enc + "&page=2"
			d := runtimetest.NewDriver(site(map[string]*runtimetest.Page{
				start:  page(heading("h", "Clients")),
				second: page(heading("h", "Clients, page 2")),
			}))
			defer d.Close()
			res := exec(t, c, d, map[string]any{"client": tc.client})
			if res.State != receipt.TerminalCompleted {
				t.Fatalf("%s", dump(res))
			}
			if got := navigations(d); len(got) != 2 || got[0] != start || got[1] != second {
				t.Fatalf("navigations %q, want %q then %q", got, start, second)
			}
			// Receipts record no URL: the input value is only hashed.
			raw := dump(res)
			if strings.Contains(raw, tc.enc) && tc.enc != "Ada" || strings.Contains(raw, "/clients?") {
				t.Errorf("the result carries the resolved URL:\n%s", raw)
			}
		})
	}
}

// TestQuerySecretRefused: a query value templating a secret input is
// refused before any driver call.
func TestQuerySecretRefused(t *testing.T) {
	c := queryCap()
	c.Inputs[0].Secret = true
	d := runtimetest.NewDriver(site(map[string]*runtimetest.Page{"/clients": page(heading("h", "Clients"))}))
	defer d.Close()
	_, err := runtime.Execute(t.Context(), c, map[string]any{"client": "x"}, runtime.WithDriver(d),
		runtime.WithRunDir(t.TempDir()))
	if !hasProblemAt(err, "start_query[1].value") {
		t.Fatalf("err %v", err)
	}
	if n := len(d.Calls()); n != 0 {
		t.Fatalf("%d driver calls", n)
	}
}

// frameListSite is a top page framing /frame/invoices?page=1 whose Next
// link navigates the frame (never the top page) to ?page=2.
func frameListSite() *runtimetest.Site {
	next := func(to string) []runtimetest.Rule {
		return []runtimetest.Rule{onClick("next", runtimetest.Effect{Navigate: to})}
	}
	return site(map[string]*runtimetest.Page{
		"/": page(heading("h", "Billing"), &runtimetest.Node{ID: "f", Tag: "iframe", Frame: &runtimetest.FrameFixture{URL: "/frame/invoices?page=1"}}),
		"/frame/invoices?page=1": {Body: []*runtimetest.Node{para("r", "INV-1"), {ID: "next", Tag: "a", Role: "link", Name: "Next page"}},
			Rules: next("/frame/invoices?page=2")},
		"/frame/invoices?page=2": page(para("r", "INV-2"), &runtimetest.Node{ID: "next", Tag: "a", Role: "link", Name: "Next page"}),
	})
}

// TestFrameURLConditionFake: url_includes and url_path with scope "frame"
// read the framed document's URL; the same condition on the page scope
// fails, since the top-level URL never changes.
func TestFrameURLConditionFake(t *testing.T) {
	for _, tc := range []struct {
		name string
		post capability.Condition
		ok   bool
	}{
		{"frame includes", capability.Condition{Kind: capability.CondURLIncludes, Value: "page=2", Scope: capability.ScopeFrame}, true},
		{"frame path", capability.Condition{Kind: capability.CondURLPath, Value: "/frame/invoices", Scope: capability.ScopeFrame}, true},
		{"page includes", capability.Condition{Kind: capability.CondURLIncludes, Value: "page=2"}, false},
		{"explicit page scope", capability.Condition{Kind: capability.CondURLIncludes, Value: "page=2", Scope: capability.ScopePage}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			post := tc.post
			c := newCap("/", milestone("m", click("next", &post, role("link", "Next page"))))
			c.Runtime.FrameSelectors = []string{"#f"}
			mustValid(t, c)
			d := runtimetest.NewDriver(frameListSite())
			defer d.Close()
			res := exec(t, c, d, nil, runtime.WithPollInterval(time.Millisecond))
			if got := res.State == receipt.TerminalCompleted; got != tc.ok {
				t.Fatalf("completed %v, want %v: %s", got, tc.ok, dump(res))
			}
			if !tc.ok && res.Failure.Reason != "postcondition_failed" {
				t.Fatalf("%s", dump(res))
			}
		})
	}
	t.Run("frame scope without frames refused", func(t *testing.T) {
		c := newCap("/", milestone("m", waitFor("w", &capability.Condition{Kind: capability.CondURLPath, Value: "/", Scope: capability.ScopeFrame})))
		d := runtimetest.NewDriver(frameListSite())
		defer d.Close()
		_, err := runtime.Execute(t.Context(), c, nil, runtime.WithDriver(d), runtime.WithRunDir(t.TempDir()))
		if !hasProblemAt(err, "postcondition.scope") {
			t.Fatalf("err %v", err)
		}
	})
}

// hasProblemAt reports whether err is a *runtime.CapabilityError with a
// problem whose path ends in suffix.
func hasProblemAt(err error, suffix string) bool {
	var ce *runtime.CapabilityError
	if !errors.As(err, &ce) {
		return false
	}
	for _, p := range ce.Problems {
		if strings.HasSuffix(p.Path, suffix) {
			return true
		}
	}
	return false
}
