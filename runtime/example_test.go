package runtime_test

import (
	"context"
	"fmt"
	"os"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/runtimetest"
)

// exampleCapability reads a member's balance after a search.
const exampleCapability = `{
  "schema": "browser-capability/v1",
  "id": "example.balance", "version": "1.0.0",
  "name": "Read a member balance", "goal": "Search a member and read the balance.",
  "state": "discovered",
  "provenance": {
    "discovery_hash": "sha256:35aa15f9d52a5a72d4798c291247810decc043c359c23e3920fe21d8174504fe",
    "discovery_model": "example-model", "discovery_run_id": "disc-1",
    "review": {"reviewer": "operator", "reviewed_at": "2026-03-28T10:15:00Z",
      "record_hash": "sha256:35aa15f9d52a5a72d4798c291247810decc043c359c23e3920fe21d8174504fe", "authoring_approved": true}
  },
  "site": {"name": "Example", "allowed_origins": ["http://127.0.0.1:4010"]},
  "runtime": {"start": "/members"},
  "authority": {"max_effect": "read_only", "operator_authenticates": true},
  "privacy": {"data_classes": ["member_balances"]},
  "inputs": [{"name": "member_id", "type": "string", "required": true}],
  "outputs": [{"name": "balance", "kind": "text", "exposure": "model_and_artifact", "required": true}],
  "milestones": [{
    "id": "search", "intent": "Find the member and read the balance",
    "actions": [
      {"id": "type-id", "operation": "fill", "intent": "Type the member ID", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "label", "label": "Member ID", "exact": true}], "input": "member_id",
       "postcondition": {"kind": "locator_visible", "locator_candidates": [{"strategy": "label", "label": "Member ID", "exact": true}]}},
      {"id": "search", "operation": "click", "intent": "Search", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "button", "name": "Search", "exact": true}],
       "postcondition": {"kind": "url_path", "value": "/members/42"}},
      {"id": "read", "operation": "extract", "intent": "Read the balance", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "test_id", "test_id": "balance"}], "output": "balance",
       "extract": {"mode": "text"}, "postcondition": {"kind": "output_produced", "output": "balance"}}
    ]
  }],
  "business_outcomes": [{"code": "member_not_found", "detect": {"visible_text": "No member found"}}]
}`

func exampleSite() *runtimetest.Site {
	return &runtimetest.Site{Pages: map[string]*runtimetest.Page{
		"http://127.0.0.1:4010/members": {
			Body: []*runtimetest.Node{
				{ID: "member-id", Tag: "input", Label: "Member ID"},
				{ID: "search", Tag: "button", Text: "Search"},
			},
			Rules: []runtimetest.Rule{{
				On:      runtimetest.Trigger{Node: "search", Act: runtime.ActClick},
				Effects: []runtimetest.Effect{{Navigate: "/members/{{value:member-id}}"}},
			}},
		},
		"http://127.0.0.1:4010/members/42": {Body: []*runtimetest.Node{{ID: "b", Tag: "p", TestID: "balance", Text: "$12,480.55"}}},
		"http://127.0.0.1:4010/members/99": {Body: []*runtimetest.Node{{ID: "nf", Tag: "p", Text: "No member found"}}},
	}}
}

func ExampleExecute() {
	c, err := capability.ParseBytes([]byte(exampleCapability))
	if err != nil {
		fmt.Println(err)
		return
	}
	runs, _ := os.MkdirTemp("", "vera-example-")
	defer os.RemoveAll(runs)
	d := runtimetest.NewDriver(exampleSite())
	defer d.Close()

	for _, member := range []string{"42", "99"} {
		res, err := runtime.Execute(context.Background(), c, map[string]any{"member_id": member},
			runtime.WithDriver(d), runtime.WithRunDir(runs))
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(res.State, res.Outcome, res.ModelOutputs["balance"], res.Mode, res.Clean)
	}
	// Output:
	// completed  $12,480.55 simulated true
	// business_outcome member_not_found <nil> simulated false
}

func ExampleExecute_refused() {
	c, _ := capability.ParseBytes([]byte(exampleCapability))
	d := runtimetest.NewDriver(exampleSite())
	defer d.Close()
	_, err := runtime.Execute(context.Background(), c, map[string]any{"member_id": 42, "extra": true}, runtime.WithDriver(d))
	fmt.Println(err)
	fmt.Println("driver calls:", len(d.Calls()))
	// Output:
	// runtime: 2 input problem(s); extra: not a declared input [input_unknown]; member_id: want a string, got int [input_type]
	// driver calls: 0
}

func ExamplePreflight() {
	rep, err := runtime.Preflight(context.Background(), func(context.Context) (runtime.Driver, error) {
		return runtimetest.NewDriver(exampleSite()), nil
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rep.Mode, rep.Browser, rep.Library, rep.Limits.MaxFrameDepth)
	// Output: simulated vera-fake/1 vera/0.1.0 5
}

func ExampleWithApprover() {
	approver := runtime.ApproverFunc(func(_ context.Context, req runtime.ApprovalRequest) (runtime.Approval, error) {
		// A checker other than the requester confirms the named action.
		return runtime.Approval{ActionID: req.ActionID, Approved: true, Approver: "checker@example"}, nil
	})
	_ = []runtime.Option{runtime.WithApprover(approver), runtime.WithRequester("maker@example")}
	fmt.Println("approver ready")
	// Output: approver ready
}

// A host can tell every failure reason apart without parsing text: the set
// is closed and Reasons lists it.
func ExampleReasons() {
	known := map[string]bool{}
	for _, r := range runtime.Reasons() {
		known[r] = true
	}
	fmt.Println(known[string(runtime.ReasonMaxVisitsExceeded)], known[string(runtime.ReasonPopupBlocked)], known["download_timeout"], known["made_up"])
	// Output: true true true false
}
