package browser

import (
	"maps"
	"net/http"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"
)

// TestRetryableIn pins which answers make Settle wait for the page's
// retry and for how long.
func TestRetryableIn(t *testing.T) {
	now := time.Date(2026, 12, 7, 6, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		status int
		ra     string
		want   time.Duration
	}{
		{200, "", 0},
		{204, "1", 0},
		{302, "", 0},
		{400, "", 0},
		{404, "", 0},
		{409, "", 0},
		{408, "", retryWait},
		{429, "", retryWait},
		{500, "", retryWait},
		{503, "", retryWait},
		{599, "", retryWait},
		{600, "", 0},
		{503, "1", time.Second + settleDOMBound},
		{503, " 0 ", settleDOMBound},
		{429, "10", 10*time.Second + settleDOMBound},
		{429, "11", retryWait},   // beyond maxRetryWait
		{503, "-1", retryWait},   // not a delay
		{503, "soon", retryWait}, // not a delay
		{503, "1.5", retryWait},  // not a delay
		{503, now.Add(3 * time.Second).Format(http.TimeFormat), 3*time.Second + settleDOMBound},
		{503, now.Add(-time.Minute).Format(http.TimeFormat), settleDOMBound}, // a date past
		{503, now.Add(time.Hour).Format(http.TimeFormat), retryWait},
	} {
		if got := retryableIn(tc.status, tc.ra, now); got != tc.want {
			t.Errorf("retryableIn(%d, %q) = %v, want %v", tc.status, tc.ra, got, tc.want)
		}
	}
}

// TestRetryRule pins the bookkeeping of a retried act-caused load: a
// load the act sent, answered 503, ends with its frame waiting for the
// retry (chain window open); the retry is sent in that window, so it is
// followed as the act's own load and the wait is over; its own 503 arms
// the next wait, up to maxRetries in one Settle; its success opens the
// chain window for the page's handling (the refresh, one link deep) and
// waits for nothing.
func TestRetryRule(t *testing.T) {
	d := attributionDriver()
	fk := frameKey{"page", "frame"}
	send := func(id string) {
		d.loadSent("page", proto.NetworkRequestID(id), "frame", "http://a.test/save")
	}
	answer := func(id string, status int) {
		d.loadAnswered("page", proto.NetworkRequestID(id), status, "")
		d.loadEnded("page", proto.NetworkRequestID(id))
	}
	// actSend sends id as the act's input does (the act window open).
	actSend := func(id string) {
		d.mu.Lock()
		d.causal.actOpen = true
		d.mu.Unlock()
		send(id)
		d.mu.Lock()
		d.causal.actOpen = false
		d.mu.Unlock()
	}
	waiting := func() bool {
		d.mu.Lock()
		defer d.mu.Unlock()
		return time.Now().Before(d.causal.laterUntilLocked())
	}
	chainOpen := func() bool {
		d.mu.Lock()
		defer d.mu.Unlock()
		return time.Now().Before(d.causal.chainOpen[fk])
	}
	actSend("save")
	answer("save", 503)
	if !waiting() || !chainOpen() {
		t.Fatalf("after the act's 503: waiting %v, chain open %v; want both", waiting(), chainOpen())
	}
	for i := 1; i < maxRetries; i++ {
		id := "retry" + string(rune('0'+i))
		send(id)
		d.mu.Lock()
		cl, caused := d.causal.caused[loadKey{"page", proto.NetworkRequestID(id)}]
		d.mu.Unlock()
		if !caused || cl.chained {
			t.Fatalf("retry %d: caused %v chained %v, want a caused load standing for the act's (not chained)", i, caused, cl.chained)
		}
		if waiting() {
			t.Fatalf("retry %d sent: still waiting for it", i)
		}
		answer(id, 503)
		if !waiting() {
			t.Fatalf("retry %d answered 503: no wait for the next", i)
		}
	}
	send("last")
	answer("last", 503)
	if waiting() {
		t.Fatalf("a wait armed past maxRetries (%d)", maxRetries)
	}
	// A new Settle starts over; a retry that succeeds opens the chain
	// window for the page's handling.
	d.mu.Lock()
	clear(d.causal.later)
	d.mu.Unlock()
	actSend("save2")
	answer("save2", 429)
	send("retry-ok")
	answer("retry-ok", 200)
	if waiting() || !chainOpen() {
		t.Fatalf("after a retry answered 200: waiting %v, chain open %v; want the chain window open for the page's handling, no wait", waiting(), chainOpen())
	}
	// The refresh the page sends then is the act's (one link deep) and
	// its end closes the window.
	send("refresh")
	d.mu.Lock()
	cl, caused := d.causal.caused[loadKey{"page", "refresh"}]
	d.mu.Unlock()
	if !caused || !cl.chained {
		t.Fatalf("refresh after the retry: caused %v chained %v, want a chained caused load", caused, cl.chained)
	}
	answer("refresh", 200)
	if chainOpen() {
		t.Fatal("the chain window outlived the refresh (one link deep)")
	}
	// A 4xx the page would not retry: the usual chain window, no wait.
	actSend("bad")
	answer("bad", 422)
	if waiting() {
		t.Fatal("a 422 armed a retry wait")
	}
}

// TestUnservedRule pins causal.unserved: an act-caused load, a read or a
// write, answered with a status pages retry stays unserved until an
// answer of another status to the same URL (the page's retry); one to
// another URL serves nothing of it; the waits for the retries double
// from retryWait up to maxRetryWait, whatever Retry-After says; a new act
// forgets them; a load the act did not cause is never unserved.
func TestUnservedRule(t *testing.T) {
	d := attributionDriver()
	fk := frameKey{"page", "frame"}
	send := func(id, url string, act bool) {
		d.mu.Lock()
		d.causal.actOpen = act
		d.mu.Unlock()
		d.loadSent("page", proto.NetworkRequestID(id), "frame", url)
		d.mu.Lock()
		d.causal.actOpen = false
		d.mu.Unlock()
	}
	answer := func(id string, status int, ra string) {
		d.loadAnswered("page", proto.NetworkRequestID(id), status, ra)
		d.loadEnded("page", proto.NetworkRequestID(id))
	}
	unserved := func() map[string]int {
		d.mu.Lock()
		defer d.mu.Unlock()
		return maps.Clone(d.causal.unserved[fk])
	}
	// waitLeft is how long the frame's retry wait has still to run.
	waitLeft := func() time.Duration {
		d.mu.Lock()
		defer d.mu.Unlock()
		return time.Until(d.causal.later[fk].until)
	}
	const save = "http://a.test/save"

	// A poll the act did not cause, refused: nothing of the act's.
	send("poll", "http://a.test/unread", false)
	answer("poll", 503, "")
	if u := unserved(); len(u) != 0 {
		t.Fatalf("a load the act did not cause is unserved: %v", u)
	}
	// The act's read, refused, then served by its retry.
	d.actBegan()
	send("read", "http://a.test/list?q=1", true)
	answer("read", 503, "")
	if u := unserved(); u["http://a.test/list"] != 503 {
		t.Fatalf("after the act's GET answered 503: unserved %v, want http://a.test/list: 503", u)
	}
	send("read2", "http://a.test/list?q=1&attempt=2", false)
	answer("read2", 200, "")
	if u := unserved(); len(u) != 0 {
		t.Fatalf("after the read's retry answered 200: unserved %v", u)
	}
	d.actBegan()
	send("w1", save+"?attempt=1", true)
	answer("w1", 503, "1")
	if u := unserved(); u[save] != 503 {
		t.Fatalf("after the act's POST answered 503: unserved %v, want %s: 503", u, save)
	}
	if l := waitLeft(); l <= retryWait-time.Second || l > retryWait {
		t.Fatalf("first wait %v with Retry-After 1, want retryWait (%v)", l, retryWait)
	}
	// The retry, answered 503 again: the wait doubles.
	send("w2", save+"?attempt=2", false)
	answer("w2", 503, "")
	if l := waitLeft(); l <= 2*retryWait-time.Second || l > 2*retryWait {
		t.Fatalf("second wait %v, want %v", l, 2*retryWait)
	}
	// A load of another URL that succeeds serves nothing of this one.
	send("other", "http://a.test/other", false)
	answer("other", 200, "")
	if u := unserved(); u[save] != 503 {
		t.Fatalf("a load of another URL cleared the save: unserved %v", u)
	}
	d.mu.Lock()
	got := d.causal.takeUnservedLocked()
	again := d.causal.takeUnservedLocked()
	d.mu.Unlock()
	if want := save + " was answered 503 and no retry of it succeeded"; got != want || again != "" {
		t.Fatalf("takeUnservedLocked = %q then %q, want %q then \"\"", got, again, want)
	}

	// A new act: the retry count starts over; the retry answered 200
	// serves the write.
	d.actBegan()
	send("w3", save, true)
	answer("w3", 500, "")
	if l := waitLeft(); l <= retryWait-time.Second || l > retryWait {
		t.Fatalf("first wait of a new act %v, want %v", l, retryWait)
	}
	send("w4", save, false)
	answer("w4", 200, "")
	if u := unserved(); len(u) != 0 {
		t.Fatalf("after the retry answered 200: unserved %v", u)
	}
	// The waits never pass maxRetryWait.
	d.actBegan()
	send("x0", save, true)
	answer("x0", 503, "")
	for i := 1; i < maxRetries; i++ {
		id := "x" + string(rune('0'+i))
		send(id, save, false)
		answer(id, 503, "")
		want := min(retryWait<<i, maxRetryWait)
		if l := waitLeft(); l <= want-time.Second || l > want {
			t.Fatalf("wait %d: %v, want %v", i+1, l, want)
		}
	}
	d.actBegan()
	if u := unserved(); len(u) != 0 {
		t.Fatalf("a new act kept the last act's unserved loads: %v", u)
	}
}

// TestConnectionLost pins which failed loads count as lost on the way
// (the server may have done the write; a read brought nothing) and what
// a lost load of the act leaves: unserved with no status, and a wait for
// the retry; one the page aborted leaves nothing.
func TestConnectionLost(t *testing.T) {
	for _, tc := range []struct {
		text     string
		canceled bool
		blocked  string
		want     bool
	}{
		{"net::ERR_CONNECTION_RESET", false, "", true},
		{"net::ERR_EMPTY_RESPONSE", false, "", true},
		{"net::ERR_CONNECTION_CLOSED", false, "", true},
		{"net::ERR_TIMED_OUT", false, "", true},
		{"net::ERR_ABORTED", true, "", false},
		{"net::ERR_ABORTED", false, "", false},
		{"net::ERR_BLOCKED_BY_CLIENT", false, "inspector", false},
		{"net::ERR_BLOCKED_BY_CLIENT", false, "", false},
		{"net::ERR_BLOCKED_BY_RESPONSE", false, "coep-frame-resource-needs-coep-header", false},
		{"", false, "", false},
	} {
		if got := connectionLost(tc.text, tc.canceled, tc.blocked); got != tc.want {
			t.Errorf("connectionLost(%q, %v, %q) = %v, want %v", tc.text, tc.canceled, tc.blocked, got, tc.want)
		}
	}
	d := attributionDriver()
	fk := frameKey{"page", "frame"}
	lose := func(id string) {
		d.actBegan()
		d.mu.Lock()
		d.causal.actOpen = true
		d.mu.Unlock()
		d.loadSent("page", proto.NetworkRequestID(id), "frame", "http://a.test/save")
		d.mu.Lock()
		d.causal.actOpen = false
		d.mu.Unlock()
		d.loadLost("page", proto.NetworkRequestID(id), "net::ERR_CONNECTION_RESET")
		d.loadEnded("page", proto.NetworkRequestID(id))
	}
	state := func() (map[string]int, bool) {
		d.mu.Lock()
		defer d.mu.Unlock()
		return maps.Clone(d.causal.unserved[fk]), time.Now().Before(d.causal.laterUntilLocked())
	}
	lose("load")
	if u, waiting := state(); len(u) != 1 || u["http://a.test/save"] != 0 || !waiting {
		t.Fatalf("a lost load: unserved %v, waiting %v; want it unserved with status 0 and a wait", u, waiting)
	}
	d.mu.Lock()
	got := d.causal.takeUnservedLocked()
	d.mu.Unlock()
	if want := "http://a.test/save had no answer (its connection failed) and no retry of it succeeded"; got != want {
		t.Fatalf("takeUnservedLocked = %q, want %q", got, want)
	}
}
