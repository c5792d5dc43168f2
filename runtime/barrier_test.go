package runtime_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/runtimetest"
)

// lateDriver models a browser whose origin violations arrive after Act
// returns: a violation an act causes becomes visible only once the
// runtime has called Settle (the causal barrier) after that act.
type lateDriver struct {
	*runtimetest.Driver
	kind    runtime.ViolationKind
	caused  bool // the act caused a violation not yet observed
	visible []runtime.Violation
	settles int
}

func (d *lateDriver) Act(ctx context.Context, el runtime.Element, a runtime.Act) error {
	err := d.Driver.Act(ctx, el, a)
	d.caused = true
	return err
}

func (d *lateDriver) Settle(ctx context.Context) error {
	d.settles++
	if d.caused {
		d.caused = false
		d.visible = append(d.visible, runtime.Violation{Kind: d.kind, Origin: "https://outside.example"})
	}
	return d.Driver.Settle(ctx)
}

func (d *lateDriver) Violations(ctx context.Context) ([]runtime.Violation, error) {
	vs, err := d.Driver.Violations(ctx)
	vs = append(vs, d.visible...)
	d.visible = nil
	return vs, err
}

// TestBarrierLateViolation: a violation the driver reports only after the
// barrier still ends the run, counted, with its own reason, even when the
// action's postcondition holds at once.
func TestBarrierLateViolation(t *testing.T) {
	for _, tc := range []struct {
		kind   runtime.ViolationKind
		reason string
	}{
		{runtime.ViolationPopup, "popup_blocked"},
		{runtime.ViolationNavigation, "navigation_blocked"},
		{runtime.ViolationFrame, "frame_blocked"},
	} {
		t.Run(string(tc.kind), func(t *testing.T) {
			d := &lateDriver{Driver: runtimetest.NewDriver(loopSite()), kind: tc.kind}
			defer d.Close()
			c := newCap("/", milestone("m", click("more", textVisible("ready"), role("button", "More"))))
			res := exec(t, c, d, nil)
			if res.State != receipt.TerminalFailed || res.Failure.Category != receipt.CategoryOriginNotAllowed ||
				res.Failure.Reason != tc.reason || res.BlockedRequests != 1 || res.Clean || res.StoppedAt != "more" {
				t.Fatalf("%s", dump(res))
			}
			if d.settles < 2 {
				t.Errorf("Settle called %d times, want after the start and after the act", d.settles)
			}
			if _, err := receipt.VerifyRun(context.Background(), res.RunDir, c); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// finalDriver reports one subresource violation only at the last drain,
// after the run's last decision.
type finalDriver struct {
	*runtimetest.Driver
	settles, at int
}

func (d *finalDriver) Settle(ctx context.Context) error { d.settles++; return d.Driver.Settle(ctx) }

func (d *finalDriver) Violations(ctx context.Context) ([]runtime.Violation, error) {
	if d.settles == d.at {
		d.settles++ // once
		return []runtime.Violation{{Kind: runtime.ViolationPopup, Origin: "https://outside.example"}}, nil
	}
	return d.Driver.Violations(ctx)
}

// TestBarrierBeforeTerminal: a popup blocked after the last decision, seen
// only by the barrier before the terminal state, turns a completed run
// into popup_blocked; it is never clean.
func TestBarrierBeforeTerminal(t *testing.T) {
	d := &finalDriver{Driver: runtimetest.NewDriver(loopSite()), at: 3} // start, act, final
	defer d.Close()
	c := newCap("/", milestone("m", click("more", textVisible("ready"), role("button", "More"))))
	res := exec(t, c, d, nil)
	if res.State != receipt.TerminalFailed || res.Failure.Reason != "popup_blocked" || res.BlockedRequests != 1 || res.Clean {
		t.Fatalf("%s", dump(res))
	}
	if _, err := receipt.VerifyRun(context.Background(), res.RunDir, c); err != nil {
		t.Fatal(err)
	}
}

// dispatchDriver makes Act on the payment button fail after its input was
// dispatched, with err.
type dispatchDriver struct {
	*runtimetest.Driver
	err error
}

func (d dispatchDriver) Act(ctx context.Context, el runtime.Element, a runtime.Act) error {
	if err := d.Driver.Act(ctx, el, a); err != nil {
		return err
	}
	if d.err != nil {
		return &runtime.DispatchError{Err: d.err}
	}
	return nil
}

func approveAll() runtime.Option {
	return runtime.WithApprover(runtime.ApproverFunc(func(_ context.Context, req runtime.ApprovalRequest) (runtime.Approval, error) {
		return runtime.Approval{ActionID: req.ActionID, Approved: true, Approver: "checker"}, nil
	}))
}

// TestDispatchedStates: the reason and state of a run whose consequential
// action was dispatched, for each way it can go on.
func TestDispatchedStates(t *testing.T) {
	leaveSite := func() *runtimetest.Site {
		s := paymentSite()
		p := s.Pages[origin+"/pay"]
		p.Rules = []runtimetest.Rule{onClick("send", runtimetest.Effect{Navigate: "https://outside.example/pay"})}
		return s
	}
	modalSite := func() *runtimetest.Site {
		s := paymentSite()
		p := s.Pages[origin+"/pay"]
		p.Body = append(p.Body, hidden(dialog("dlg", "Survey", para("q", "How did we do?"))))
		p.Rules = []runtimetest.Rule{onClick("send", runtimetest.Effect{Show: []string{"dlg"}})}
		return s
	}
	dialogSite := func() *runtimetest.Site {
		s := paymentSite()
		p := s.Pages[origin+"/pay"]
		p.Rules = []runtimetest.Rule{onClick("send", runtimetest.Effect{Dialog: &runtimetest.DialogEffect{Kind: runtimetest.DialogAlert, Message: "Done?"}})}
		return s
	}
	tests := []struct {
		name       string
		site       *runtimetest.Site
		actErr     error
		opts       []runtime.Option
		state      receipt.TerminalState
		category   receipt.Category
		reason     string
		dispatched bool
	}{
		{"confirmed", paymentSite(), nil, []runtime.Option{approveAll()}, receipt.TerminalCompleted, "", "", true},
		{"page replaced under the click", paymentSite(), runtime.ErrStaleElement, []runtime.Option{approveAll()},
			receipt.TerminalCompleted, "", "", true},
		{"act error after dispatch", paymentSite(), errors.New("input.dispatchMouseEvent: connection hiccup"), []runtime.Option{approveAll()},
			receipt.TerminalFailed, receipt.CategoryEffectUnconfirmed, "outcome_unconfirmed_after_effect", true},
		{"crash after dispatch", paymentSite(), runtime.ErrBrowserCrashed, []runtime.Option{approveAll()},
			receipt.TerminalFailed, receipt.CategoryEffectUnconfirmed, "outcome_unconfirmed_after_effect", true},
		{"postcondition never held", site(map[string]*runtimetest.Page{"/pay": page(button("send", "Send payment"))}), nil,
			[]runtime.Option{approveAll()}, receipt.TerminalFailed, receipt.CategoryEffectUnconfirmed, "outcome_unconfirmed_after_effect", true},
		{"unknown modal after dispatch", modalSite(), nil, []runtime.Option{approveAll()},
			receipt.TerminalFailed, receipt.CategoryEffectUnconfirmed, "outcome_unconfirmed_after_effect", true},
		{"native dialog after dispatch", dialogSite(), nil, []runtime.Option{approveAll()},
			receipt.TerminalFailed, receipt.CategoryEffectUnconfirmed, "outcome_unconfirmed_after_effect", true},
		{"blocked navigation keeps its reason", leaveSite(), nil, []runtime.Option{approveAll()},
			receipt.TerminalFailed, receipt.CategoryOriginNotAllowed, "navigation_blocked", true},
		{"denied is never dispatched", paymentSite(), nil, []runtime.Option{runtime.WithApprover(runtime.ApproverFunc(
			func(_ context.Context, req runtime.ApprovalRequest) (runtime.Approval, error) {
				return runtime.Approval{ActionID: req.ActionID, Approved: false, Approver: "checker"}, nil
			}))}, receipt.TerminalStoppedAtGate, receipt.CategoryApprovalRefused, "denied", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fd := runtimetest.NewDriver(tt.site)
			defer fd.Close()
			c := paymentCap()
			c.Milestones[0].Actions[0].TimeoutMS = 200
			res := exec(t, c, dispatchDriver{fd, tt.actErr}, nil, tt.opts...)
			if res.State != tt.state {
				t.Fatalf("state %s, want %s: %s", res.State, tt.state, dump(res))
			}
			if tt.reason != "" && (res.Failure == nil || res.Failure.Category != tt.category || res.Failure.Reason != tt.reason) {
				t.Fatalf("failure %+v, want %s/%s", res.Failure, tt.category, tt.reason)
			}
			if res.EffectDispatched != tt.dispatched || res.Actions[0].Dispatched != tt.dispatched {
				t.Fatalf("dispatched: result %v, action %v; want %v", res.EffectDispatched, res.Actions[0].Dispatched, tt.dispatched)
			}
			if res.Unconfirmed != (tt.category == receipt.CategoryEffectUnconfirmed) {
				t.Errorf("Unconfirmed = %v", res.Unconfirmed)
			}
			if tt.state == receipt.TerminalCompleted && !res.Clean {
				t.Error("a confirmed dispatched run is not clean")
			}
			if len(fd.Clicks()) > 1 {
				t.Errorf("clicked %d times: a dispatched act is never retried", len(fd.Clicks()))
			}
			if _, err := receipt.VerifyRun(context.Background(), res.RunDir, c); err != nil {
				t.Fatalf("VerifyRun: %v", err)
			}
			raw, err := os.ReadFile(filepath.Join(res.RunDir, receipt.FileReceipt))
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(string(raw), `"dispatched":true`); got != tt.dispatched {
				t.Errorf("receipt dispatched %v, want %v", got, tt.dispatched)
			}
		})
	}
}

// TestDispatchReadOnly: a read-only click that fails after dispatch is a
// plain act failure and is not recorded dispatched (only consequential
// effects are).
func TestDispatchReadOnly(t *testing.T) {
	fd := runtimetest.NewDriver(loopSite())
	defer fd.Close()
	c := newCap("/", milestone("m", click("more", textVisible("ready"), role("button", "More"))))
	res := exec(t, c, dispatchDriver{fd, errors.New("boom")}, nil)
	if res.State != receipt.TerminalFailed || res.Failure.Reason != "act_failed" || res.EffectDispatched || res.Actions[0].Dispatched {
		t.Fatalf("%s", dump(res))
	}
	if len(fd.Clicks()) != 1 {
		t.Errorf("clicked %d times: an act that dispatched is never retried", len(fd.Clicks()))
	}
}

// TestHandoffViolation: a person who follows a link out of the scope
// during a handoff ends the run as the blocked navigation, counted.
func TestHandoffViolation(t *testing.T) {
	s := site(map[string]*runtimetest.Page{"/": {
		Body:  []*runtimetest.Node{button("leave", "Leave"), para("st", "idle")},
		Rules: []runtimetest.Rule{onClick("leave", runtimetest.Effect{Navigate: "https://outside.example/"})},
	}})
	d := runtimetest.NewDriver(s)
	defer d.Close()
	c := newCap("/", milestone("m", click("next", textVisible("Done"), role("button", "Next"))))
	res := exec(t, c, d, nil, runtime.WithHandoff(func(ctx context.Context, _ runtime.HandoffRequest) error {
		els, err := d.Find(ctx, nil, nil, role("button", "Leave"))
		if err != nil || len(els) != 1 {
			return errors.New("no link")
		}
		return d.Act(ctx, els[0], runtime.Act{Kind: runtime.ActClick})
	}))
	if res.State != receipt.TerminalFailed || res.Failure.Reason != "navigation_blocked" || res.BlockedRequests != 1 || !res.HandedOff {
		t.Fatalf("%s", dump(res))
	}
}

// TestHandoffRunTimeout: the run timeout passing while a person holds the
// page ends the run as run_timeout, not as the recovery request the
// missing locator would otherwise give.
func TestHandoffRunTimeout(t *testing.T) {
	d := runtimetest.NewDriver(loopSite())
	defer d.Close()
	c := newCap("/", milestone("m", click("next", textVisible("Done"), role("button", "Next"))))
	c.Milestones[0].Actions[0].Effect = capability.EffectReadOnly
	c.Runtime.RunTimeoutMS = 1000
	res := exec(t, c, d, nil, runtime.WithHandoff(func(ctx context.Context, _ runtime.HandoffRequest) error {
		<-ctx.Done()
		return ctx.Err()
	}))
	if res.State != receipt.TerminalFailed || res.Failure.Category != receipt.CategoryRunTimeout || res.Failure.Reason != "run_timeout" {
		t.Fatalf("%s", dump(res))
	}
}

// pendingDriver reports that a request the act caused still has no
// answer when the barrier after the act ends ([runtime.ErrActPending]),
// and records the time each Settle had.
type pendingDriver struct {
	*runtimetest.Driver
	acted  bool
	bounds []time.Duration
}

func (d *pendingDriver) Act(ctx context.Context, el runtime.Element, a runtime.Act) error {
	d.acted = true
	return d.Driver.Act(ctx, el, a)
}

func (d *pendingDriver) Settle(ctx context.Context) error {
	if dl, ok := ctx.Deadline(); ok {
		d.bounds = append(d.bounds, time.Until(dl))
	}
	if d.acted {
		return fmt.Errorf("%w: POST /pay had no answer", runtime.ErrActPending)
	}
	return d.Driver.Settle(ctx)
}

// TestBarrierActPending: a request the act caused that has no answer
// within the barrier fails the action postcondition_failed although its
// postcondition holds at once (the optimistic render), and the barrier
// after an action is bounded by the action timeout, not the 5 s of a
// barrier after a navigation.
func TestBarrierActPending(t *testing.T) {
	d := &pendingDriver{Driver: runtimetest.NewDriver(loopSite())}
	defer d.Close()
	c := newCap("/", milestone("m", click("more", textVisible("ready"), role("button", "More"))))
	c.Runtime.ActionTimeoutMS = 20000
	res := exec(t, c, d, nil)
	if res.State != receipt.TerminalFailed || res.Failure.Category != receipt.CategoryUIAssertionFailed ||
		res.Failure.Reason != "postcondition_failed" || res.StoppedAt != "more" {
		t.Fatalf("%s", dump(res))
	}
	if len(d.bounds) < 2 || d.bounds[0] > 6*time.Second || d.bounds[1] < 19*time.Second {
		t.Errorf("Settle bounds = %v, want about 5 s after the start navigation and the 20 s action timeout after the act", d.bounds)
	}
	if _, err := receipt.VerifyRun(context.Background(), res.RunDir, c); err != nil {
		t.Fatal(err)
	}
}
