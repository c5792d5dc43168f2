package browser

import (
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"
)

// attributionDriver is a driver with only the barrier's bookkeeping, a
// page session and a dedicated worker session, for the rules of
// causal.unattributed (no browser: the order of events is the input).
func attributionDriver() *Driver {
	d := &Driver{causal: newCausal(), log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	d.targets = map[proto.TargetSessionID]*target{
		"page":   {sid: "page", kind: kindPage, typ: proto.TargetTargetInfoTypePage, loads: true},
		"worker": {sid: "worker", kind: kindWorker, typ: targetTypeWorker, loads: true},
	}
	return d
}

// replyPaused pauses request net on the page's session and replies to it
// as the interceptor does, deferable as onRequest decides; it returns
// whether the reply was a causal event (seq moved).
func replyPaused(d *Driver, net proto.NetworkRequestID) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	pk := pauseKey{"page", proto.FetchRequestID("interception-" + net), false}
	d.causal.paused[pk] = net
	seq := d.causal.seq
	if d.causal.replyEndedLocked(pk, net, d.dedicatedWorkersLocked()) && !d.causal.pausedHoldLocked() {
		d.causal.noteLocked()
	}
	return d.causal.seq != seq
}

// TestReplyAttribution pins who decides the reply to a paused fetch or
// XHR that no renderer has reported yet while a dedicated worker runs:
// the report that follows (a worker past its follow bound: no causal
// event; the page's own load or a followed worker's: one), or, with no
// report after attributionWait, the expiry (a causal event, as before).
// Before, the reply itself counted as the page's: a worker that polls
// back to back and whose reports lagged behind the replies (a loaded
// machine) made every poll a causal event and held Settle to its cap.
func TestReplyAttribution(t *testing.T) {
	past := time.Now().Add(-time.Second) // a follow bound already over
	cases := []struct {
		name      string
		bound     bool // the worker's follow bound is over
		report    func(d *Driver, net proto.NetworkRequestID)
		wantEvent bool // a causal event after the reply, by the report or the expiry
	}{
		{"unfollowed worker", true, func(d *Driver, net proto.NetworkRequestID) { d.workerLoadSent("worker", net) }, false},
		{"followed worker", false, func(d *Driver, net proto.NetworkRequestID) { d.workerLoadSent("worker", net) }, true},
		{"page's own load", true, func(d *Driver, net proto.NetworkRequestID) {
			d.loadSent("page", net, "frame", "http://a.test/x")
		}, true},
		{"never reported", true, func(d *Driver, net proto.NetworkRequestID) {
			d.mu.Lock()
			d.causal.expireUnattributedLocked(time.Now().Add(attributionWait))
			d.mu.Unlock()
		}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := attributionDriver()
			if c.bound {
				d.causal.follow["worker"] = past
			}
			const net = "77.1"
			if replyPaused(d, net) {
				t.Fatal("the reply to an unreported request was a causal event before any report")
			}
			seq := d.causal.seq
			c.report(d, net)
			if got := d.causal.seq != seq; got != c.wantEvent {
				t.Errorf("causal event after the report = %v, want %v", got, c.wantEvent)
			}
			if len(d.causal.unattributed) != 0 {
				t.Errorf("unattributed = %v, want none once decided", d.causal.unattributed)
			}
		})
	}

	// Reported first, the reply is decided at once: the page's own load
	// is a causal event, as without workers.
	t.Run("reported before the reply", func(t *testing.T) {
		d := attributionDriver()
		d.loadSent("page", "77.2", "frame", "http://a.test/x")
		if !replyPaused(d, "77.2") {
			t.Error("the reply to the page's reported load was no causal event")
		}
	})
	// Without a dedicated worker nothing else can have sent it: the page's.
	t.Run("no dedicated worker", func(t *testing.T) {
		d := attributionDriver()
		delete(d.targets, "worker")
		if !replyPaused(d, "77.3") {
			t.Error("with no dedicated worker, the reply to an unreported request was no causal event")
		}
	})
}

// TestWorkerFollowPushes pins the follow bound's pushes: a worker's
// first load that ends pushes its bound to settleDOMBound after the end,
// so the request it sends once it has its data (a chain) is followed
// although its first report was longer ago; a later end pushes nothing,
// so a worker that polls back to back stops being followed.
func TestWorkerFollowPushes(t *testing.T) {
	d := attributionDriver()
	now := time.Now()
	// The first load was reported 500 ms ago; its bound ended 100 ms ago.
	first := loadKey{"worker", "9.1"}
	d.causal.wloads[first] = now.Add(-500 * time.Millisecond)
	d.causal.follow["worker"] = now.Add(-100 * time.Millisecond)
	d.loadEnded(first.sid, first.id)
	seq := d.causal.seq
	d.workerLoadSent("worker", "9.2")
	if d.causal.seq == seq {
		t.Fatal("the worker's request sent after its first load ended was not followed")
	}
	// A second end pushes nothing: its bound stays where the first put it.
	d.mu.Lock()
	d.causal.follow["worker"] = now.Add(-time.Millisecond)
	d.mu.Unlock()
	d.loadEnded("worker", "9.2")
	seq = d.causal.seq
	d.workerLoadSent("worker", "9.3")
	if d.causal.seq != seq {
		t.Error("a request sent past the bound, after a second load ended, was followed")
	}
}
