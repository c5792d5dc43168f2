package browser

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/testsite"
	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
)

// barrierRepeat is how often each scenario of the causal-barrier tests
// runs in a row: the bugs they guard against showed in 4 or 5 runs out of
// 10 under load, so one run proves little. VERA_BARRIER_REPEAT overrides
// it; -short runs each scenario 3 times.
func barrierRepeat(t *testing.T) int {
	if s := os.Getenv("VERA_BARRIER_REPEAT"); s != "" {
		if n, err := strconv.Atoi(s); err == nil && n > 0 {
			return n
		}
	}
	if testing.Short() {
		return 3
	}
	return 20
}

// barrierCap is a capability written by hand (state authored,
// hand_authored provenance) on origin, one milestone.
func barrierCap(origin, start string, actions ...capability.Action) *capability.Capability {
	return &capability.Capability{
		Schema: capability.SchemaV1, ID: "test.barrier", Version: "1.0.0", Name: "Barrier test",
		Goal:       "Exercise the causal barrier in a real browser.",
		State:      capability.StateAuthored,
		Provenance: handProvenance("written by hand for the causal barrier tests; no discovery session was recorded"),
		Site:       capability.Site{Name: "Teller", AllowedOrigins: []string{origin}},
		Runtime:    capability.Runtime{Start: start, ActionTimeoutMS: 5000, TransitionTimeoutMS: 5000, RunTimeoutMS: 60000, MaxActions: 20},
		Authority:  capability.Authority{MaxEffect: capability.EffectConsequential},
		Privacy:    capability.Privacy{DataClasses: []string{"test_data"}},
		Milestones: []capability.Milestone{{ID: "m", Intent: "the scenario", Actions: actions}},
	}
}

func barrierClick(id string, effect capability.Effect, post *capability.Condition, c locator.Candidate) capability.Action {
	a := capability.Action{ID: id, Operation: capability.OpClick, Intent: "click " + id,
		Effect: effect, Confirmation: capability.ConfirmNone, LocatorCandidates: []locator.Candidate{c}, Postcondition: post}
	if effect == capability.EffectConsequential {
		a.Confirmation = capability.ConfirmActionTime
	}
	return a
}

func textCond(s string) *capability.Condition {
	return &capability.Condition{Kind: capability.CondTextVisible, Text: s}
}

// readReceipt loads the run's receipt.
func readReceipt(t *testing.T, res *runtime.Result) *receipt.Receipt {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(res.RunDir, receipt.FileReceipt))
	if err != nil {
		t.Fatal(err)
	}
	var r receipt.Receipt
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return &r
}

// TestBarrierEscapes: an act (or the start page itself) that tries to
// leave the origin scope ends the run as the blocked navigation or popup,
// counted, never clean, and the outside origin sees nothing. Before the
// causal barrier, a popup opened by a click was reported after Act
// returned, so the run ended completed and clean in about half the runs,
// and a link ended postcondition_failed with blocked_requests 0.
func TestBarrierEscapes(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	teller := s.Teller.Origin()
	for _, tc := range []struct {
		name   string
		c      *capability.Capability
		reason string
	}{
		{"popup-button", barrierCap(teller, testsite.EscapePopup,
			barrierClick("open", capability.EffectReadOnly, textCond("Popup escape"), role("button", "Open popup"))), "popup_blocked"},
		{"link", barrierCap(teller, testsite.EscapeLink,
			barrierClick("leave", capability.EffectReadOnly, textCond("Outside page"), role("link", "Leave"))), "navigation_blocked"},
		{"http-redirect-link", barrierCap(teller, testsite.EscapeRedirectLink,
			barrierClick("continue", capability.EffectReadOnly, textCond("Outside page"), role("link", "Continue"))), "navigation_blocked"},
		{"js-redirect", barrierCap(teller, testsite.EscapeJSRedirect,
			capability.Action{ID: "look", Operation: capability.OpWait, Intent: "look at the page", Effect: capability.EffectReadOnly,
				Confirmation: capability.ConfirmNone, Postcondition: textCond("JS redirect escape")}), "navigation_blocked"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := barrierRepeat(t)
			for i := range n {
				ctx := tctx(t, 60*time.Second)
				res := execute(t, ctx, d, tc.c, nil)
				if res.State != runtime.StateFailed || res.Failure == nil ||
					res.Failure.Category != receipt.CategoryOriginNotAllowed || res.Failure.Reason != tc.reason {
					t.Fatalf("run %d/%d ended %s, want failed origin_not_allowed/%s", i+1, n, describeResult(res), tc.reason)
				}
				if res.BlockedRequests < 1 || res.Clean {
					t.Fatalf("run %d/%d: blocked_requests %d, clean %v", i+1, n, res.BlockedRequests, res.Clean)
				}
				if r := readReceipt(t, res); r.BlockedRequests < 1 || r.Clean || r.Terminal.Failure == nil || r.Terminal.Failure.Reason != tc.reason {
					t.Fatalf("run %d/%d: receipt blocked_requests %d, clean %v, terminal %+v", i+1, n, r.BlockedRequests, r.Clean, r.Terminal)
				}
			}
			if hits := s.Outside.TotalHits(); hits != 0 {
				t.Errorf("the outside origin got %d requests", hits)
			}
		})
	}
}

// transferCap reviews a transfer (which opens the confirmation dialog)
// and confirms it: a consequential form submission.
func transferCap(origin string) *capability.Capability {
	return barrierCap(origin, testsite.TransferPath,
		barrierClick("review", capability.EffectReversible,
			&capability.Condition{Kind: capability.CondLocatorVisible, LocatorCandidates: []locator.Candidate{role("dialog", "Confirm transfer")}},
			role("button", "Review transfer")),
		barrierClick("send", capability.EffectConsequential, textCond("Transfer sent"), role("button", "Confirm and send")),
	)
}

func approveAll() runtime.Option {
	return runtime.WithApprover(runtime.ApproverFunc(func(_ context.Context, req runtime.ApprovalRequest) (runtime.Approval, error) {
		return runtime.Approval{ActionID: req.ActionID, Approved: true, Approver: "supervisor"}, nil
	}))
}

// TestBarrierConsequentialSubmit: an approved consequential click that
// submits a form from a confirmation dialog, which stays visible while the
// submission is in flight (its button renamed "Sending…"), completes:
// recorded dispatched, the server counted the effect exactly once. Before
// the barrier the old page's dialog was judged an unknown modal, or a Find
// in the replaced document failed as internal/find_failed, in 4 or 5 runs
// out of 24 under load, while the server had counted the transfer.
func TestBarrierConsequentialSubmit(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	c := transferCap(s.Teller.Origin())
	n := barrierRepeat(t)
	for i := range n {
		before := s.Teller.Transfers()
		res := execute(t, tctx(t, 60*time.Second), d, c, nil, approveAll())
		if got := s.Teller.Transfers() - before; got != 1 {
			t.Fatalf("run %d/%d: the server counted %d transfers, want 1 (%s)", i+1, n, got, describeResult(res))
		}
		wantState(t, res, runtime.StateCompleted, "")
		if !res.Clean || !res.EffectDispatched || res.Unconfirmed {
			t.Fatalf("run %d/%d: clean %v, effect dispatched %v, unconfirmed %v", i+1, n, res.Clean, res.EffectDispatched, res.Unconfirmed)
		}
		if a := action(res, "send"); a == nil || !a.Dispatched || a.Postcondition != "verified" {
			t.Fatalf("run %d/%d: send = %+v, want dispatched and verified", i+1, n, a)
		}
		if a := action(res, "review"); a == nil || a.Dispatched {
			t.Fatalf("run %d/%d: the reversible review is recorded dispatched", i+1, n)
		}
		r := readReceipt(t, res)
		if len(r.Actions) != 2 || !r.Actions[1].Dispatched || r.Actions[0].Dispatched {
			t.Fatalf("run %d/%d: receipt actions %+v", i+1, n, r.Actions)
		}
	}
}

// TestBarrierUnconfirmedAfterEffect: the submission reaches the server,
// which counts it and then answers with an error page. The run ends
// failed effect_unconfirmed/outcome_unconfirmed_after_effect with the
// action dispatched, not postcondition_failed, so a host does not retry it
// blindly.
func TestBarrierUnconfirmedAfterEffect(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	s.Teller.BreakTransfers(true)
	c := transferCap(s.Teller.Origin())
	c.Milestones[0].Actions[1].TimeoutMS = 1500
	n := min(barrierRepeat(t), 5)
	for i := range n {
		before := s.Teller.Transfers()
		res := execute(t, tctx(t, 60*time.Second), d, c, nil, approveAll())
		if got := s.Teller.Transfers() - before; got != 1 {
			t.Fatalf("run %d/%d: the server counted %d transfers, want 1", i+1, n, got)
		}
		if res.State != runtime.StateFailed || res.Failure == nil || res.Failure.Category != receipt.CategoryEffectUnconfirmed ||
			res.Failure.Reason != string(runtime.ReasonOutcomeUnconfirmed) || res.StoppedAt != "send" {
			t.Fatalf("run %d/%d ended %s, want failed effect_unconfirmed/outcome_unconfirmed_after_effect at send", i+1, n, describeResult(res))
		}
		if !res.Unconfirmed || !res.EffectDispatched || res.Clean {
			t.Fatalf("run %d/%d: unconfirmed %v, effect dispatched %v, clean %v", i+1, n, res.Unconfirmed, res.EffectDispatched, res.Clean)
		}
		r := readReceipt(t, res)
		if last := r.Actions[len(r.Actions)-1]; last.ID != "send" || !last.Dispatched || last.Status != receipt.ActionFailed {
			t.Fatalf("run %d/%d: receipt action %+v", i+1, n, last)
		}
	}
}

// TestBarrierHandoffEscape: a person who, during a handoff, follows a
// link out of the scope ends the run as the blocked navigation, counted;
// the outside origin sees nothing. Before, the run said
// recovery_requested/locator_not_found with blocked_requests 0 at
// chrome-error://chromewebdata.
func TestBarrierHandoffEscape(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	c := barrierCap(s.Teller.Origin(), testsite.EscapeLink,
		barrierClick("next", capability.EffectReadOnly, textCond("Outside page"), role("button", "Continue")))
	c.Runtime.ActionTimeoutMS = 500
	handoffs := 0
	person := func(ctx context.Context, req runtime.HandoffRequest) error {
		handoffs++
		top, _, err := d.Frame(ctx, nil)
		if err != nil {
			return err
		}
		els, err := d.Find(ctx, top, nil, role("link", "Leave"))
		if err != nil || len(els) != 1 {
			return errors.New("no link to follow")
		}
		return d.Act(ctx, els[0], runtime.Act{Kind: runtime.ActClick})
	}
	res := execute(t, tctx(t, 60*time.Second), d, c, nil, runtime.WithHandoff(person))
	if handoffs != 1 {
		t.Fatalf("%d handoffs", handoffs)
	}
	if res.State != runtime.StateFailed || res.Failure == nil || res.Failure.Reason != "navigation_blocked" {
		t.Fatalf("run ended %s, want failed navigation_blocked", describeResult(res))
	}
	if res.BlockedRequests < 1 || !res.HandedOff || res.Clean {
		t.Fatalf("blocked_requests %d, handed off %v, clean %v", res.BlockedRequests, res.HandedOff, res.Clean)
	}
	if hits := s.Outside.TotalHits(); hits != 0 {
		t.Errorf("the outside origin got %d requests", hits)
	}
}
