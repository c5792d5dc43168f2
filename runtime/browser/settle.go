package browser

import (
	"context"
	"errors"
	"time"

	"github.com/go-rod/rod/lib/proto"
)

// The causal barrier's bounds (see Settle).
const (
	// settleQuiet is how long no new causal event may arrive, with nothing
	// pending, before the effects of an act count as complete.
	settleQuiet = 60 * time.Millisecond
	// settleCap is the hard cap of one Settle; pending work older than it
	// (a frame that never stops loading) no longer holds a barrier.
	settleCap = 3 * time.Second
)

// causal is the driver's view of the work the page's input or navigation
// set in motion, for Settle. It is guarded by Driver.mu.
type causal struct {
	// last is when the last causal event arrived.
	last time.Time
	// changed is closed and replaced on every causal event, to wake
	// Settle.
	changed chan struct{}
	// navs are the frames with a navigation requested, scheduled or
	// loading, by session and frame, with when it began.
	navs map[navKey]time.Time
	// targets are attached targets whose set-up (interception installed,
	// resumed) or, for popups, first document is not decided yet.
	targets map[proto.TargetSessionID]time.Time
	// fetches counts paused requests whose reply has not been sent.
	fetches int
}

type navKey struct {
	sid   proto.TargetSessionID
	frame proto.PageFrameID
}

func newCausal() causal {
	return causal{
		changed: make(chan struct{}),
		navs:    map[navKey]time.Time{},
		targets: map[proto.TargetSessionID]time.Time{},
	}
}

// noteLocked records a causal event and wakes Settle.
func (c *causal) noteLocked() {
	c.last = time.Now()
	close(c.changed)
	c.changed = make(chan struct{})
}

// pendingLocked reports whether anything newer than since is pending.
func (c *causal) pendingLocked(since time.Time) bool {
	if c.fetches > 0 {
		return true
	}
	for _, t := range c.navs {
		if t.After(since) {
			return true
		}
	}
	for _, t := range c.targets {
		if t.After(since) {
			return true
		}
	}
	return false
}

// navStart marks a navigation of frame in session sid as pending.
func (d *Driver) navStart(sid proto.TargetSessionID, frame proto.PageFrameID) {
	d.mu.Lock()
	k := navKey{sid, frame}
	if _, ok := d.causal.navs[k]; !ok {
		d.causal.navs[k] = time.Now()
	}
	d.causal.noteLocked()
	d.mu.Unlock()
}

// navDone marks the navigation of frame in session sid as finished
// (stopped loading, scheduled navigation cleared, frame detached). A
// popup whose main frame stopped loading is decided.
func (d *Driver) navDone(sid proto.TargetSessionID, frame proto.PageFrameID) {
	d.mu.Lock()
	delete(d.causal.navs, navKey{sid, frame})
	if t := d.targets[sid]; t != nil && t.kind == kindPopup && proto.PageFrameID(t.id) == frame {
		delete(d.causal.targets, sid)
	}
	d.causal.noteLocked()
	d.mu.Unlock()
}

// noteCausal records a causal event with nothing to wait for (a download
// began, a frame committed, a dialog opened).
func (d *Driver) noteCausal() {
	d.mu.Lock()
	d.causal.noteLocked()
	d.mu.Unlock()
}

// targetDecidedLocked ends the wait for an attached target.
func (d *Driver) targetDecidedLocked(sid proto.TargetSessionID) {
	if _, ok := d.causal.targets[sid]; ok {
		delete(d.causal.targets, sid)
		d.causal.noteLocked()
	}
}

// forgetSessionLocked drops everything pending for a session that went
// away.
func (d *Driver) forgetSessionLocked(sid proto.TargetSessionID) {
	for k := range d.causal.navs {
		if k.sid == sid {
			delete(d.causal.navs, k)
		}
	}
	delete(d.causal.targets, sid)
	d.causal.noteLocked()
}

// Settle is the causal barrier after an act or a navigation. It first
// makes a round trip through the page (a zero-delay timer in the page's
// main world, so the renderer has run the handlers of the input it
// received and sent the events they caused), then waits, event-driven,
// until nothing the driver tracks is pending and no new causal event has
// arrived for settleQuiet. Pending are: a navigation a frame requested,
// scheduled or started loading (Page.frameRequestedNavigation,
// frameScheduledNavigation, frameStartedLoading) until it stops loading
// or is cleared, which includes a navigation blocked by the origin scope
// (it commits an error page); a target attached (popup, frame, worker)
// until its interception is installed and it runs, and a popup until its
// first document stopped loading or it closed; a paused request until
// its reply is sent. Causal events also include a download beginning,
// a frame committing and a native dialog opening. A dialog ends Settle at
// once with [runtime.ErrNativeDialog]. Settle returns nil at settleCap
// even when something is still pending (a page that never stops loading);
// the runtime's later waits keep draining violations.
func (d *Driver) Settle(ctx context.Context) error {
	cctx, done, err := d.begin(ctx)
	if err != nil {
		return err
	}
	defer done()
	start := time.Now()
	deadline := start.Add(settleCap)
	rctx, cancel := context.WithDeadline(cctx, deadline)
	err = d.roundTrip(rctx)
	cancel()
	if c := interruption(cctx); c != nil {
		return d.fail(cctx, "settle", c)
	}
	if err != nil && cctx.Err() != nil {
		return d.fail(cctx, "settle", cctx.Err())
	}
	quietFrom := time.Now()
	// Pending work older than one cap (a frame that never stops loading)
	// does not hold this barrier.
	stale := start.Add(-settleCap)
	timer := time.NewTimer(settleQuiet)
	defer timer.Stop()
	for {
		d.mu.Lock()
		pending := d.causal.pendingLocked(stale)
		last := d.causal.last
		changed := d.causal.changed
		d.mu.Unlock()
		if last.Before(quietFrom) {
			last = quietFrom
		}
		now := time.Now()
		if !now.Before(deadline) {
			d.log.Debug("settle cap reached", "pending", pending)
			return nil
		}
		wait := deadline.Sub(now)
		if !pending {
			q := settleQuiet - now.Sub(last)
			if q <= 0 {
				return nil
			}
			wait = min(wait, q)
		}
		timer.Reset(wait)
		select {
		case <-changed:
		case <-timer.C:
		case <-cctx.Done():
			return d.fail(cctx, "settle", cctx.Err())
		}
		if !timer.Stop() {
			select {
			case <-timer.C:
			default:
			}
		}
	}
}

// roundTrip runs a zero-delay timer in the page's main world and waits
// for it: every task the page's last input queued before it has run. A
// document replaced meanwhile (the act navigated) ends it too.
func (d *Driver) roundTrip(ctx context.Context) error {
	var res proto.RuntimeEvaluateResult
	err := d.call(ctx, d.pageSID, proto.RuntimeEvaluate{
		Expression:   `new Promise(r => setTimeout(r, 0))`,
		AwaitPromise: true,
		Silent:       true,
	}, &res)
	if err != nil && isStaleError(err) {
		return nil
	}
	if err == nil && res.ExceptionDetails != nil {
		return errors.New(exceptionText(res.ExceptionDetails))
	}
	return err
}
