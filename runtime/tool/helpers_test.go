package tool_test

import (
	"os"
	"path/filepath"
	"testing"

	"go.uber.org/goleak"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/runtimetest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

const origin = "http://127.0.0.1:4010"

// pin is the secret input of the flag capability.
const pin = "pin-7319-never-echoed"

func load(t *testing.T, path string) *capability.Capability {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c, err := capability.ParseBytes(raw)
	if err != nil {
		t.Fatal(err)
	}
	if p := c.ValidateForExecution(); len(p) > 0 {
		t.Fatalf("%s: %v", path, p)
	}
	return c
}

func flagCap(t *testing.T) *capability.Capability {
	return load(t, filepath.Join("testdata", "flag.capability.json"))
}

func tellerCap(t *testing.T) *capability.Capability {
	return load(t, filepath.Join("..", "..", "examples", "quickstart", "teller.capability.json"))
}

// flagSite is the flag page; already shows "Already flagged" instead of
// the button's effect.
func flagSite(already bool) *runtimetest.Site {
	body := []*runtimetest.Node{{Tag: "main", ID: "main", Children: []*runtimetest.Node{
		{Tag: "h1", ID: "title", Text: "Flag member"},
		{Tag: "input", ID: "pin", Label: "PIN", Attributes: map[string]string{"type": "password"}},
		{Tag: "button", ID: "flag", Text: "Flag member"},
	}}}
	if already {
		body[0].Children = append(body[0].Children, &runtimetest.Node{Tag: "p", ID: "status", Role: "status", Text: "Already flagged"})
	}
	return &runtimetest.Site{Pages: map[string]*runtimetest.Page{
		origin + "/flag": {
			Title: "Flag member",
			Body:  body,
			Rules: []runtimetest.Rule{{On: runtimetest.Trigger{Node: "flag", Act: runtime.ActClick}, Effects: []runtimetest.Effect{{Navigate: "/flagged"}}}},
		},
		origin + "/flagged": {
			Title: "Flagged",
			Body: []*runtimetest.Node{{Tag: "main", ID: "main", Children: []*runtimetest.Node{
				{Tag: "p", ID: "done", TestID: "confirmation", Text: "Member flagged for review"},
				{Tag: "p", ID: "ticket", TestID: "ticket", Text: "AUD-4411"},
			}}},
		},
	}}
}

// tellerSite is the teller console: sign in, search, member 100234, and
// "No member found" for 999999.
func tellerSite() *runtimetest.Site {
	click := func(node, to string) []runtimetest.Rule {
		return []runtimetest.Rule{{On: runtimetest.Trigger{Node: node, Act: runtime.ActClick}, Effects: []runtimetest.Effect{{Navigate: to}}}}
	}
	search := func(status string) *runtimetest.Page {
		m := &runtimetest.Node{Tag: "main", ID: "main", Children: []*runtimetest.Node{
			{Tag: "input", ID: "member-id", Label: "Member ID"},
			{Tag: "button", ID: "search", Text: "Search"},
		}}
		if status != "" {
			m.Children = append(m.Children, &runtimetest.Node{Tag: "p", ID: "status", Role: "status", Text: status})
		}
		return &runtimetest.Page{Title: "Member search", Body: []*runtimetest.Node{m}, Rules: click("search", "/members/{{value:member-id}}")}
	}
	return &runtimetest.Site{Pages: map[string]*runtimetest.Page{
		origin + "/login": {Title: "Sign in", Body: []*runtimetest.Node{{Tag: "main", ID: "main", Children: []*runtimetest.Node{
			{Tag: "input", ID: "username", Label: "Username"},
			{Tag: "input", ID: "password", Label: "Password", Attributes: map[string]string{"type": "password"}},
			{Tag: "button", ID: "sign-in", Text: "Sign in"},
		}}}, Rules: click("sign-in", "/members")},
		origin + "/members":        search(""),
		origin + "/members/999999": search("No member found"),
		origin + "/members/100234": {Title: "Ada Lovelace", Body: []*runtimetest.Node{{Tag: "main", ID: "main", Children: []*runtimetest.Node{
			{Tag: "h1", ID: "name", TestID: "member-name", Text: "Ada Lovelace"},
			{Tag: "h2", ID: "accounts", Text: "Accounts"},
			{Tag: "p", ID: "s", TestID: "balance-savings", Text: "$12,480.55"},
			{Tag: "p", ID: "c", TestID: "balance-checking", Text: "$1,204.10"},
		}}}},
	}}
}
