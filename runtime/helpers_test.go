package runtime_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/runtimetest"
)

const origin = "http://127.0.0.1:4010"

// --- fixture helpers -------------------------------------------------

func site(pages map[string]*runtimetest.Page) *runtimetest.Site {
	s := &runtimetest.Site{Pages: map[string]*runtimetest.Page{}}
	for path, p := range pages {
		if strings.HasPrefix(path, "http") {
			s.Pages[path] = p
		} else {
			s.Pages[origin+path] = p
		}
	}
	return s
}

func page(body ...*runtimetest.Node) *runtimetest.Page { return &runtimetest.Page{Body: body} }

func button(id, name string) *runtimetest.Node {
	return &runtimetest.Node{ID: id, Tag: "button", Text: name}
}

func textbox(id, label string) *runtimetest.Node {
	return &runtimetest.Node{ID: id, Tag: "input", Label: label}
}

func heading(id, text string) *runtimetest.Node {
	return &runtimetest.Node{ID: id, Tag: "h1", Text: text}
}

func para(id, text string) *runtimetest.Node { return &runtimetest.Node{ID: id, Tag: "p", Text: text} }

func hidden(n *runtimetest.Node) *runtimetest.Node { n.Hidden = true; return n }

func dialog(id, name string, children ...*runtimetest.Node) *runtimetest.Node {
	return &runtimetest.Node{ID: id, Role: "dialog", Name: name, Children: children}
}

func onClick(node string, effects ...runtimetest.Effect) runtimetest.Rule {
	return runtimetest.Rule{On: runtimetest.Trigger{Node: node, Act: runtime.ActClick}, Effects: effects}
}

// --- capability helpers ----------------------------------------------

// role is a role candidate, exact when it has a name (exact without a name
// is locator_exact_not_allowed).
func role(r, name string) locator.Candidate {
	return locator.Candidate{Strategy: locator.Role, Role: r, Name: name, Exact: name != ""}
}

func label(l string) locator.Candidate {
	return locator.Candidate{Strategy: locator.Label, Label: l, Exact: true}
}

func testID(id string) locator.Candidate {
	return locator.Candidate{Strategy: locator.TestID, TestID: id}
}

func textC(s string) locator.Candidate { return locator.Candidate{Strategy: locator.Text, Text: s} }

func css(s string) locator.Candidate { return locator.Candidate{Strategy: locator.CSS, CSS: s} }

func cands(cs ...locator.Candidate) []locator.Candidate { return cs }

func visible(cs ...locator.Candidate) *capability.Condition {
	return &capability.Condition{Kind: capability.CondLocatorVisible, LocatorCandidates: cs}
}

func textVisible(s string) *capability.Condition {
	return &capability.Condition{Kind: capability.CondTextVisible, Text: s}
}

func urlPath(p string) *capability.Condition {
	return &capability.Condition{Kind: capability.CondURLPath, Value: p}
}

func produced(out string) *capability.Condition {
	return &capability.Condition{Kind: capability.CondOutputProduced, Output: out}
}

func click(id string, post *capability.Condition, cs ...locator.Candidate) capability.Action {
	return capability.Action{ID: id, Operation: capability.OpClick, Intent: "click " + id,
		Effect: capability.EffectReadOnly, Confirmation: capability.ConfirmNone, LocatorCandidates: cs, Postcondition: post}
}

func fill(id, input string, post *capability.Condition, cs ...locator.Candidate) capability.Action {
	return capability.Action{ID: id, Operation: capability.OpFill, Intent: "fill " + id, Input: input,
		Effect: capability.EffectReadOnly, Confirmation: capability.ConfirmNone, LocatorCandidates: cs, Postcondition: post}
}

func milestone(id string, actions ...capability.Action) capability.Milestone {
	return capability.Milestone{ID: id, Intent: "milestone " + id, Actions: actions}
}

const digest = "sha256:35aa15f9d52a5a72d4798c291247810decc043c359c23e3920fe21d8174504fe"

// newCap returns a discovered capability on origin starting at start.
func newCap(start string, ms ...capability.Milestone) *capability.Capability {
	return &capability.Capability{
		Schema: capability.SchemaV1, ID: "test.cap", Version: "1.0.0", Name: "Test capability",
		Goal:  "Exercise the runtime against a fixture.",
		State: capability.StateDiscovered,
		Provenance: &capability.Provenance{
			DiscoveryHash: digest, DiscoveryModel: "test-model", DiscoveryRunID: "disc-1", DiscoveryMode: "guided",
			Review: &capability.Review{Reviewer: "operator", ReviewedAt: "2026-03-28T10:15:00Z", RecordHash: digest, AuthoringApproved: true},
		},
		Site:       capability.Site{Name: "Fixture", AllowedOrigins: []string{origin}},
		Runtime:    capability.Runtime{Start: start, ActionTimeoutMS: 300, TransitionTimeoutMS: 300, RunTimeoutMS: 60000, MaxActions: 50},
		Authority:  capability.Authority{MaxEffect: capability.EffectConsequential},
		Privacy:    capability.Privacy{DataClasses: []string{"test_data"}},
		Milestones: ms,
	}
}

// mustValid fails the test when the capability does not validate.
func mustValid(t testing.TB, c *capability.Capability) {
	t.Helper()
	if errs := c.ValidateForExecution(); len(errs) > 0 {
		t.Fatalf("capability does not validate:\n%v", errs)
	}
}

// loadCap reads a capability from runtime/testdata.
func loadCap(t testing.TB, name string) *capability.Capability {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c, err := capability.Parse(f)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func exec(t testing.TB, c *capability.Capability, d runtime.Driver, inputs map[string]any, opts ...runtime.Option) *runtime.Result {
	t.Helper()
	opts = append([]runtime.Option{runtime.WithDriver(d), runtime.WithRunDir(t.TempDir())}, opts...)
	res, err := runtime.Execute(context.Background(), c, inputs, opts...)
	if err != nil {
		t.Fatalf("Execute: %v", err)
	}
	return res
}

func dump(v any) string {
	b, _ := json.MarshalIndent(v, "", "  ")
	return string(b)
}
