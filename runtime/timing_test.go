package runtime_test

import (
	"context"
	"testing"
	"time"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/runtimetest"
)

// slowDriver makes each phase of an action take a known minimum, so the
// breakdown can be checked against it.
type slowDriver struct {
	*runtimetest.Driver
	find, act, settle time.Duration
}

func pause(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (d *slowDriver) Find(ctx context.Context, s runtime.Scope, root runtime.Element, c locator.Candidate) ([]runtime.Element, error) {
	if err := pause(ctx, d.find); err != nil {
		return nil, err
	}
	return d.Driver.Find(ctx, s, root, c)
}

func (d *slowDriver) Act(ctx context.Context, el runtime.Element, a runtime.Act) error {
	if err := pause(ctx, d.act); err != nil {
		return err
	}
	return d.Driver.Act(ctx, el, a)
}

func (d *slowDriver) Settle(ctx context.Context) error {
	if err := pause(ctx, d.settle); err != nil {
		return err
	}
	return d.Driver.Settle(ctx)
}

// TestActionTiming: ActionDone reports every phase of every action, each
// at least what the driver and approver spent in it, and the phases sum
// to no more than the action's duration.
func TestActionTiming(t *testing.T) {
	const find, act, settle, approve = 4 * time.Millisecond, 6 * time.Millisecond, 8 * time.Millisecond, 10 * time.Millisecond
	c := approvalCap()
	mustValid(t, c)
	d := &slowDriver{Driver: runtimetest.NewDriver(approvalSite()), find: find, act: act, settle: settle}
	defer d.Close()
	var done []runtime.ActionDoneInfo
	hooks := runtime.WithHooks(&runtime.Hooks{ActionDone: func(i runtime.ActionDoneInfo) { done = append(done, i) }})
	approver := runtime.WithApprover(runtime.ApproverFunc(func(ctx context.Context, req runtime.ApprovalRequest) (runtime.Approval, error) {
		if err := pause(ctx, approve); err != nil {
			return runtime.Approval{}, err
		}
		return runtime.Approval{ActionID: req.ActionID, Approved: true, Approver: "checker"}, nil
	}))
	res := exec(t, c, d, map[string]any{"username": "maker1", "payee": "ACME", "amount": 5, "pin": "1234"}, hooks, approver)
	if res.State != receipt.TerminalCompleted {
		t.Fatalf("%s", dump(res))
	}
	if len(done) != len(res.Actions) || len(done) != 6 {
		t.Fatalf("%d ActionDone calls, %d actions", len(done), len(res.Actions))
	}
	for _, i := range done {
		tm, o := i.Timing, i.Outcome
		t.Logf("%-12s total %-8v approval %-8v resolve %-8v act %-8v settle %-8v post %-8v evidence %v",
			o.ID, o.Duration, tm.Approval, tm.Resolve, tm.Act, tm.Settle, tm.Postcondition, tm.Evidence)
		if tm.Total() > o.Duration {
			t.Errorf("%s: phases sum to %v, more than the duration %v", o.ID, tm.Total(), o.Duration)
		}
		if tm.Resolve < find || tm.Act < act || tm.Settle < settle || tm.Postcondition < find || tm.Evidence <= 0 {
			t.Errorf("%s: a phase is missing or short: %+v", o.ID, tm)
		}
		consequential := o.Effect == string(capability.EffectConsequential)
		if consequential != (tm.Approval >= approve) || (!consequential && tm.Approval != 0) {
			t.Errorf("%s: approval %v", o.ID, tm.Approval)
		}
	}
}
