package runtimetest_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/runtimetest"
)

// searchCapability is a small reviewed capability: search the mailbox for
// a query and list the subjects of the messages found.
const searchCapability = `{
  "schema": "browser-capability/v1",
  "id": "example.mail-search",
  "version": "1.0.0",
  "name": "Search the mailbox",
  "goal": "Search the mailbox for a query and list the subjects of the messages found.",
  "state": "discovered",
  "provenance": {
    "discovery_hash": "sha256:35aa15f9d52a5a72d4798c291247810decc043c359c23e3920fe21d8174504fe",
    "discovery_model": "example/model",
    "discovery_run_id": "disc-example-01",
    "discovery_mode": "guided",
    "review": {
      "reviewer": "mail operations lead",
      "reviewed_at": "2026-03-28T10:15:00Z",
      "record_hash": "sha256:35aa15f9d52a5a72d4798c291247810decc043c359c23e3920fe21d8174504fe",
      "authoring_approved": true
    }
  },
  "site": {"name": "Synthetic mail", "allowed_origins": ["http://127.0.0.1:4010"]},
  "runtime": {"start": "/mail"},
  "authority": {"max_effect": "read_only", "account": "operator mailbox", "operator_authenticates": false},
  "privacy": {"data_classes": ["message_subjects"]},
  "inputs": [{"name": "query", "type": "string", "description": "What to search for", "required": true, "max_length": 80}],
  "outputs": [{"name": "messages", "kind": "record_set", "exposure": "model_and_artifact",
    "description": "Subjects of the messages found", "fields": [{"name": "subject", "type": "string"}]}],
  "milestones": [{
    "id": "search",
    "intent": "Search the mailbox",
    "actions": [
      {"id": "fill-query", "operation": "fill", "intent": "Type the query", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "searchbox", "name": "Search mail", "exact": true}],
       "input": "query",
       "postcondition": {"kind": "locator_visible", "locator_candidates": [{"strategy": "role", "role": "searchbox", "name": "Search mail", "exact": true}]}},
      {"id": "submit", "operation": "click", "intent": "Run the search", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "button", "name": "Search", "exact": true}],
       "postcondition": {"kind": "url_includes", "value": "#search/{{query}}"}},
      {"id": "list-messages", "operation": "extract", "intent": "Read the subjects of the results", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "listitem"}],
       "output": "messages",
       "extract": {"mode": "list", "max_records": 20,
         "fields": [{"name": "subject", "type": "string", "locator_candidates": []}],
         "required_fields": ["subject"]},
       "postcondition": {"kind": "output_produced", "output": "messages"}}
    ]
  }]
}`

// Example_execute drives a capability through runtime.Execute against a
// fixture. The fixture only describes the mailbox UI: a search box, a
// button whose click routes to #search/<query> and reveals the result
// list. What the run extracts comes from the runtime reading that UI.
func Example_execute() {
	site := &runtimetest.Site{Pages: map[string]*runtimetest.Page{
		"http://127.0.0.1:4010/mail": {
			Title: "Mail",
			Body: []*runtimetest.Node{
				{Tag: "input", ID: "q", Label: "Search mail", Attributes: map[string]string{"type": "search"}},
				{Tag: "button", ID: "go", Text: "Search"},
				{Tag: "ul", ID: "results", Name: "Results", Hidden: true, Children: []*runtimetest.Node{
					{Tag: "li", Text: "Invoice March"},
					{Tag: "li", Text: "Invoice April"},
				}},
			},
			Rules: []runtimetest.Rule{{
				On: runtimetest.Trigger{Node: "go", Act: runtime.ActClick},
				Effects: []runtimetest.Effect{
					{Navigate: "#search/{{value:q}}"},
					{Show: []string{"results"}},
				},
			}},
		},
	}}
	c, err := capability.Parse(strings.NewReader(searchCapability))
	if err != nil {
		fmt.Println(err)
		return
	}
	runs, err := os.MkdirTemp("", "vera-example-")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(runs)

	d := runtimetest.NewDriver(site)
	defer d.Close()
	res, err := runtime.Execute(context.Background(), c, map[string]any{"query": "invoice"},
		runtime.WithDriver(d), runtime.WithRunDir(runs))
	if err != nil {
		fmt.Println(err)
		return
	}
	url, _ := d.URL(context.Background())
	fmt.Println(res.State, res.Mode)
	fmt.Println(url)
	fmt.Println(res.ModelOutputs["messages"])
	// Output:
	// completed simulated
	// http://127.0.0.1:4010/mail#search/invoice
	// [map[subject:Invoice March] map[subject:Invoice April]]
}
