package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/runtime/runtimetest"
)

// placeholderOrigin is the origin testdata/compose.capability.json and the
// site fixtures were written against.
const placeholderOrigin = "http://127.0.0.1:4010"

// composeCap loads the compose capability rebased onto origin.
func composeCap(t testing.TB, origin string) *capability.Capability {
	t.Helper()
	raw, err := os.ReadFile("testdata/compose.capability.json")
	if err != nil {
		t.Fatal(err)
	}
	raw = bytes.ReplaceAll(raw, []byte(placeholderOrigin), []byte(origin))
	c, err := capability.ParseBytes(raw)
	if err != nil {
		t.Fatal(err)
	}
	if errs := c.Validate(); len(errs) > 0 {
		t.Fatal(errs)
	}
	return c
}

// loadSite loads a declarative UI fixture from testdata/sites.
func loadSite(t testing.TB, name string) *runtimetest.Site {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "sites", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s, err := runtimetest.LoadSite(f)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// draftRequest is the seed's draft_until_review_gate request for c.
func draftRequest(t testing.TB, c *capability.Capability) *ActionRequest {
	t.Helper()
	h, err := c.ExecutionHash()
	if err != nil {
		t.Fatal(err)
	}
	return &ActionRequest{
		SchemaVersion: SchemaRequest,
		GoalID:        "loopx-meta",
		TodoID:        "todo_example",
		ProviderID:    ProviderID,
		ActionUnit:    "draft_until_review_gate",
		EffectClass:   EffectDraft,
		WriteScope: WriteScope{
			AllowedActions:         []string{"fill-title", "fill-body", "save-draft"},
			ForbiddenEffectClasses: []EffectClass{EffectExternalWrite, EffectCredentialUse},
		},
		GateBinding:      &GateBinding{GateID: "gate_example_draft_review", Revision: 4, Status: GatePending},
		StopCondition:    "stop at final confirmation or unknown modal",
		ValidationTarget: "draft screen is reachable and final action remains unclicked",
		Capability:       CapabilityRef{ID: c.ID, Version: c.Version, ExecutionHash: h},
		Inputs:           map[string]any{"title": "Spring update", "body": "We moved to a new office."},
	}
}

// publishRequest is the re-issued request after the owner opened the gate
// at revision rev.
func publishRequest(t testing.TB, c *capability.Capability, rev int64) *ActionRequest {
	r := draftRequest(t, c)
	r.ActionUnit = "publish_after_review"
	r.EffectClass = EffectExternalWrite
	r.WriteScope.AllowedActions = append(r.WriteScope.AllowedActions, "publish-post")
	r.WriteScope.ForbiddenEffectClasses = []EffectClass{EffectCredentialUse}
	r.GateBinding = &GateBinding{GateID: "gate_example_draft_review", Revision: rev, Status: GateOpen}
	r.StopCondition = "stop after publishing or at an unknown modal"
	r.ValidationTarget = "the post is published once"
	return r
}

func gatesWith(t testing.TB, states ...GateState) *Gates {
	t.Helper()
	g := &Gates{}
	for _, s := range states {
		if err := g.Set(s); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func ctxT(t testing.TB) context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	return ctx
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}
