package provider

import (
	"context"
	"testing"
	"time"

	"github.com/vera-run/vera/internal/livetest"
	"github.com/vera-run/vera/internal/testsite"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/browser"
)

// liveRun runs req in a launched Chromium against the composer on the
// teller origin.
func liveRun(t *testing.T, tl *testsite.Teller, req func(*testing.T) *ActionRequest, gates GateSource, opts ...runtime.Option) *Outcome {
	t.Helper()
	bin := livetest.RequireBrowser(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	d, err := browser.Launch(ctx, browser.WithBrowserPath(bin))
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := d.Close(); err != nil {
			t.Error(err)
		}
	}()
	c := composeCap(t, tl.Origin())
	r := req(t)
	h, err := c.ExecutionHash()
	if err != nil {
		t.Fatal(err)
	}
	r.Capability.ExecutionHash = h
	opts = append([]runtime.Option{runtime.WithDriver(d), runtime.WithRunDir(t.TempDir())}, opts...)
	out, err := Run(ctx, r, c, gates, opts...)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if out.Result.Mode != runtime.ModeLiveLaunched {
		t.Errorf("mode %s", out.Result.Mode)
	}
	return out
}

// Smoke (gate) in Chromium: a draft request saves the draft and stops at
// the publish gate; the server never receives a publication, even though
// the host's approver approves everything. The re-issued request at the
// new open revision publishes exactly once.
func TestLiveDraftThenPublish(t *testing.T) {
	tl, err := testsite.StartTeller()
	if err != nil {
		t.Fatal(err)
	}
	defer tl.Close()
	g := gatesWith(t, GateState{GateID: "gate_example_draft_review", Revision: 4, Status: GatePending})
	c0 := composeCap(t, placeholderOrigin)
	out := liveRun(t, tl, func(t *testing.T) *ActionRequest { return draftRequest(t, c0) }, g, runtime.WithApprover(approveAll))
	if out.Receipt.StopReason != StopAtGate || out.Receipt.ObservedFacts.FinalActionClicked {
		t.Fatalf("receipt %+v", out.Receipt)
	}
	if tl.Drafts() != 1 || tl.Publishes() != 0 {
		t.Fatalf("drafts %d publishes %d, want 1 and 0", tl.Drafts(), tl.Publishes())
	}
	if out.Decision != "Approve or reject: Publish the post on the synthetic post composer" {
		t.Errorf("decision %q", out.Decision)
	}
	// The owner approves: the gate opens at revision 5.
	if err := g.Set(GateState{GateID: "gate_example_draft_review", Revision: 5, Status: GateOpen}); err != nil {
		t.Fatal(err)
	}
	out = liveRun(t, tl, func(t *testing.T) *ActionRequest { return publishRequest(t, c0, 5) }, g)
	if out.Receipt.StopReason != StopCompleted || !out.Receipt.ObservedFacts.FinalActionClicked {
		t.Fatalf("receipt %+v", out.Receipt)
	}
	if tl.Publishes() != 1 {
		t.Fatalf("publishes %d, want 1", tl.Publishes())
	}
}

// Smoke (unknown modal) in Chromium: the review page shows an unexpected
// survey dialog; the run reports blocked_by_unknown_modal and clicks
// nothing state-changing: no publication, the survey left alone.
func TestLiveUnknownModal(t *testing.T) {
	tl, err := testsite.StartTeller()
	if err != nil {
		t.Fatal(err)
	}
	defer tl.Close()
	tl.ShowComposeSurvey(true)
	g := gatesWith(t, GateState{GateID: "gate_example_draft_review", Revision: 5, Status: GateOpen})
	c0 := composeCap(t, placeholderOrigin)
	out := liveRun(t, tl, func(t *testing.T) *ActionRequest { return publishRequest(t, c0, 5) }, g, runtime.WithApprover(approveAll))
	r := out.Receipt
	if r.StopReason != StopBlockedByUnknownModal || !r.ObservedFacts.UnknownModal || r.ObservedFacts.FinalActionClicked {
		t.Fatalf("receipt %+v", r)
	}
	if tl.Publishes() != 0 {
		t.Fatalf("publishes %d, want 0", tl.Publishes())
	}
	for _, a := range out.Result.Actions {
		if a.ID == "publish-post" {
			t.Errorf("publish-post was attempted: %+v", a.Status)
		}
	}
}
