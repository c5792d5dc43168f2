package provider_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/provider"
	"github.com/vera-run/vera/runtime/runtimetest"
)

// loadExample reads the compose capability and its UI fixture.
func loadExample() (*capability.Capability, *runtimetest.Site, error) {
	raw, err := os.ReadFile("testdata/compose.capability.json")
	if err != nil {
		return nil, nil, err
	}
	c, err := capability.ParseBytes(raw)
	if err != nil {
		return nil, nil, err
	}
	f, err := os.Open("testdata/sites/compose.json")
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	site, err := runtimetest.LoadSite(f)
	return c, site, err
}

// draft is a draft_until_review_gate request for c.
func draft(c *capability.Capability) (*provider.ActionRequest, error) {
	h, err := c.ExecutionHash()
	if err != nil {
		return nil, err
	}
	return &provider.ActionRequest{
		SchemaVersion: provider.SchemaRequest,
		GoalID:        "loopx-meta", TodoID: "todo_example", ProviderID: provider.ProviderID,
		ActionUnit:  "draft_until_review_gate",
		EffectClass: provider.EffectDraft,
		WriteScope: provider.WriteScope{
			AllowedActions:         []string{"fill-title", "fill-body", "save-draft"},
			ForbiddenEffectClasses: []provider.EffectClass{provider.EffectExternalWrite},
		},
		GateBinding:      &provider.GateBinding{GateID: "gate_review", Revision: 4, Status: provider.GatePending},
		StopCondition:    "stop at final confirmation or unknown modal",
		ValidationTarget: "draft saved and publish unclicked",
		Capability:       provider.CapabilityRef{ID: c.ID, Version: c.Version, ExecutionHash: h},
		Inputs:           map[string]any{"title": "Spring update", "body": "We moved."},
	}, nil
}

// A draft request runs the capability up to its first consequential
// action and stops at that gate, naming the decision, even though the
// host's approver would approve anything.
func ExampleRun() {
	c, site, err := loadExample()
	if err != nil {
		fmt.Println(err)
		return
	}
	req, err := draft(c)
	if err != nil {
		fmt.Println(err)
		return
	}
	gates := &provider.Gates{}
	_ = gates.Set(provider.GateState{GateID: "gate_review", Revision: 4, Status: provider.GatePending})
	runs, err := os.MkdirTemp("", "vera-example-")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(runs)
	d := runtimetest.NewDriver(site)
	defer d.Close()
	yes := runtime.ApproverFunc(func(_ context.Context, r runtime.ApprovalRequest) (runtime.Approval, error) {
		return runtime.Approval{ActionID: r.ActionID, Approved: true, Approver: "owner"}, nil
	})
	out, err := provider.Run(context.Background(), req, c, gates,
		runtime.WithDriver(d), runtime.WithRunDir(runs), runtime.WithApprover(yes))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out.Receipt.StopReason, out.Receipt.ObservedFacts.StoppedAtAction)
	fmt.Println("final action clicked:", out.Receipt.ObservedFacts.FinalActionClicked)
	fmt.Println(out.Decision)
	// Output:
	// stopped_at_gate publish-post
	// final action clicked: false
	// Approve or reject: Publish the post on the synthetic post composer
}

// A host validates a provider's receipt against the request it issued and
// the gate's current state; a writeback-shaped member is out of contract.
func ExampleValidateReceipt() {
	c, _, err := loadExample()
	if err != nil {
		fmt.Println(err)
		return
	}
	req, err := draft(c)
	if err != nil {
		fmt.Println(err)
		return
	}
	receipt := map[string]any{
		"schema_version": provider.SchemaReceipt,
		"goal_id":        "loopx-meta", "todo_id": "todo_example", "provider_id": provider.ProviderID,
		"attempted_action_unit": "draft_until_review_gate",
		"stop_reason":           "stopped_at_gate",
		"gate_binding":          map[string]any{"gate_id": "gate_review", "revision": 4, "status": "pending"},
		"observed_facts":        map[string]any{"screen_reached": true, "final_action_clicked": false, "complete_todo": true},
		"evidence":              map[string]any{"handle_kind": "host_replay_pointer", "handle": "replay:42", "raw_evidence_copied": false},
		"idempotency_key":       "attempt_1",
		"session_reference":     "opaque_session",
	}
	raw, _ := json.Marshal(receipt)
	gate := &provider.GateState{GateID: "gate_review", Revision: 4, Status: provider.GatePending}
	_, err = provider.ValidateReceipt(context.Background(), raw, req, gate, &provider.MemoryStore{})
	var pe *provider.ProblemError
	if errors.As(err, &pe) {
		for _, p := range pe.Problems {
			fmt.Println(p.Path, p.Code)
		}
	}
	fmt.Println(errors.Is(err, provider.CodeWriteback))
	// Output:
	// observed_facts.complete_todo writeback_member
	// true
}

// A profile is a readiness fact derived from a preflight; it grants
// nothing.
func ExampleNewProfile() {
	p, _, err := provider.NewProfile(context.Background(), func(context.Context) (runtime.Driver, error) {
		return runtimetest.NewDriver(&runtimetest.Site{Pages: map[string]*runtimetest.Page{}}), nil
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.SchemaVersion, p.Runtime.Ready, p.Runtime.ExecutionMode)
	fmt.Println("external write:", p.Primitives.ExternalWrite, "without gate:", p.Boundary.ExternalWriteAllowedWithoutGate)
	// Output:
	// computer_use_runtime_profile_v0 true simulated
	// external write: gated without gate: false
}

// A file-backed store remembers accepted keys across a restart: the
// second claim of a key, even from a reopened store, is a replay.
func ExampleOpenFileStore() {
	dir, err := os.MkdirTemp("", "vera-keys-")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	s, err := provider.OpenFileStore(dir)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.Claim(context.Background(), "attempt_1", "sha256:receipt-a"))
	s.Close()
	s, err = provider.OpenFileStore(dir) // a restart
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	err = s.Claim(context.Background(), "attempt_1", "sha256:receipt-b")
	fmt.Println(errors.Is(err, provider.ErrReplayed))
	// Output:
	// <nil>
	// true
}
