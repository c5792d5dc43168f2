package browser

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/go-rod/rod/lib/proto"
	"github.com/vera-run/vera/runtime"
)

// The causal barrier's bounds (see Settle).
const (
	// settleQuiet is how long after the reply to a paused request that
	// can start more work (a document, script, fetch or XHR) the barrier
	// stays up when nothing else is pending: the page receives the
	// response on its own channel, so no round trip orders the request,
	// script or navigation the response may cause. Nothing else pays it.
	settleQuiet = 60 * time.Millisecond
	// settleCap is the hard cap of one Settle; pending work older than it
	// (a frame that never stops loading) no longer holds a barrier.
	settleCap = 3 * time.Second
	// settleDOMQuiet is how long, in the page's own time, the document
	// of a frame whose fetch or XHR data arrived must go without a DOM
	// mutation before the barrier lets go (see domQuiet): no event says
	// the page has handled the data it received, so the handling is
	// observed instead. The page's tasks run in order, so the handling of
	// data the renderer already has runs before a timer this long.
	settleDOMQuiet = 40 * time.Millisecond
	// settleDOMBound bounds one frame's DOM-quiet check: a page that
	// never stops mutating (a clock, a spinner, an animation driven from
	// script) holds a barrier this long, not to the cap.
	settleDOMBound = 400 * time.Millisecond
	// retryWait is how long a frame whose act-caused load was answered
	// with a status a page retries (408, 429, 5xx) is waited on for the
	// retry when the answer names no Retry-After: client backoffs start
	// at 100 ms to 1 s and double. maxRetryWait bounds a Retry-After,
	// maxRetries the retries waited on per frame in one Settle.
	retryWait    = 2 * time.Second
	maxRetryWait = 10 * time.Second
	maxRetries   = 4
	// searchWait is how long the Settle after a fill into a search field
	// waits for the search the page starts after its debounce (100 to
	// 500 ms in the wild).
	searchWait = 700 * time.Millisecond
	// attributionWait bounds how long the reply to a paused fetch or XHR
	// is left for a renderer's report to decide (causal.unattributed);
	// the reports came within 20 ms of the reply under a saturated CPU.
	attributionWait = settleDOMBound
	// maxReported bounds causal.reported and causal.unattributed between
	// two Settles.
	maxReported = 4096
)

// settleWorld is the isolated world the DOM-quiet check runs in: page
// scripts cannot reach its globals (a replaced MutationObserver or
// setTimeout), so they cannot end or hold it.
const settleWorld = "vera-settle"

// causal is the driver's view of the work the page's input or navigation
// set in motion, for Settle. It is guarded by Driver.mu.
type causal struct {
	// changed is closed and replaced on every causal event, to wake
	// Settle, and by wakeLocked when what is pending changed without
	// one.
	changed chan struct{}
	// navs are the frames with a navigation requested, scheduled or
	// loading, by session and frame, with when it began.
	navs map[navKey]time.Time
	// actNavs are the frames whose navigation was requested while the
	// act window was open (the act's own: a form it submitted, a link it
	// followed), until their next document commits, another act begins
	// or they detach. One the page removes first sets navLost (its
	// frame's URL without query), which the next Settle reports. One
	// whose frame is still navigating holds Settle past settleCap, as an
	// act-caused load awaiting its answer does (inflightLocked).
	actNavs map[frameKey]actNav
	navLost string
	// targets are attached targets whose set-up (interception installed,
	// resumed) or, for popups, first document is not decided yet.
	targets map[proto.TargetSessionID]time.Time
	// paused are the paused requests (request or response stage) whose
	// reply has not been sent, with their network ids. Each holds the
	// barrier unless it is a worker's load past the worker's follow
	// bound (pausedHoldsLocked), which is decided when asked, not when
	// paused: the page's interceptor pauses a dedicated worker's request
	// on the page's session, often before the worker's own session
	// reports the load, and a poll counted as the page's then woke the
	// confirming round trips again with its reply. A worker polling
	// back to back held Settle to the cap that way on a loaded machine
	// (TestSettleWorkerPollBound in CI).
	paused map[pauseKey]proto.NetworkRequestID
	// responses are the page's fetch and XHR requests that were let
	// through and whose response has not arrived yet, by session and
	// request, with when they were sent: the act's data is still on its
	// way, and the page will re-render when it comes (a single-page app
	// that changed its URL with pushState keeps showing the old view
	// until then).
	responses map[respKey]respVal
	// loads are the page's fetch and XHR requests as the renderer reports
	// them (Network.requestWillBeSent on a page or frame session, which
	// the renderer sends on the session's own channel when the page
	// starts the request, so the round trip after an input orders it),
	// until the renderer has the whole body (Network.loadingFinished) or
	// the load failed. The interceptor's view (responses) can lag the
	// page: a request that reaches it after the confirming round trips
	// was never seen.
	loads map[loadKey]loadVal
	// committed are the frames whose document committed
	// (Page.frameNavigated) since they last requested, scheduled or
	// started a navigation, with the loader of that document: the frame's
	// load (navs, loading) ends at that document's load lifecycle event
	// (loadFired), which comes when its subresources and child frames
	// have loaded and its load handlers have run, before the frame is
	// reported stopped (Page.frameStoppedLoading, which still ends it
	// when no such event comes).
	committed map[frameKey]proto.NetworkLoaderID
	// loadEnds counts the frame loads that ended at their document's
	// load event (for tests).
	loadEnds uint64
	// undecided are the page's other subresource requests (an image, a
	// script, a stylesheet) as the renderer reports them
	// (Network.requestWillBeSent, ordered by the round trip through the
	// page) until the interceptor has decided them (Fetch.requestPaused
	// with their network id, which records a violation for a request
	// outside the scope) or their load ended without it (a memory-cache
	// hit; blob: and data: URLs never reach the network and are not
	// recorded, see localScheme). The browser's pause is not ordered by the round
	// trip through the page: an image a load handler added could be
	// paused after the barrier let go, and its violation came too late.
	undecided map[loadKey]loadVal
	// decided are the requests the interceptor paused, by network id,
	// with when: a renderer may report a request after its pause, and
	// such a report is not undecided. Entries end with the load or a cap
	// after the pause.
	decided map[loadKey]time.Time
	// landed are the frames where such a load finished since their last
	// DOM-quiet check: the page may still be handling the data (parsing
	// it, re-rendering), and Settle checks those frames (domQuiet).
	landed map[frameKey]bool
	// domChecks and domBounded count the DOM-quiet checks and those
	// that ended at settleDOMBound with the document still mutating
	// (for tests).
	domChecks, domBounded uint64
	// capped counts the Settle calls that ended at settleCap (for
	// tests).
	capped uint64
	// seq counts causal events, so Settle can tell whether one arrived
	// during its confirming round trip.
	seq uint64
	// chainUntil is when the quiet window after the last reply to a
	// chaining request ends (see settleQuiet).
	chainUntil time.Time
	// chainWaits counts the Settle waits that only the quiet window
	// after a chaining reply held (for tests: a page that re-renders
	// must never pay one).
	chainWaits uint64
	// chainReplies counts replies to chaining requests (for tests: a
	// quiet-window wait must follow one).
	chainReplies uint64
	// wloads are the fetch and XHR loads of the page's workers
	// (dedicated, shared and service workers) as each worker reports
	// them on its own session (Network.requestWillBeSent), with when they
	// were sent, until the worker has the body or the load failed. No
	// page renderer reports them: the page's interceptor sees a dedicated
	// worker's request, but the data goes to the worker, which handles it
	// and posts the result to the page later.
	wloads map[loadKey]time.Time
	// reported are the network ids of the fetch and XHR loads a renderer
	// reported (Network.requestWillBeSent: a page's or frame's, see
	// loads, or a worker's, see wloads), with when, kept a cap: the reply
	// to a paused fetch or XHR is attributed by them (see unattributed).
	reported map[proto.NetworkRequestID]time.Time
	// unattributed are the paused fetch and XHR requests, paused while
	// dedicated workers run on targets whose renderers report their
	// loads, that were replied to before any renderer reported them, by
	// network id, with the session that paused them and when: a dedicated
	// worker's request is paused on its page's session, and on a loaded
	// machine the worker's own report came after the reply (28 of 1,006
	// polls in one run). Counted as the page's at the reply, each poll of
	// a worker past its follow bound was a causal event and sent the
	// confirming round trips round again, up to the cap
	// (TestSettleWorkerPollBound in CI). The report decides the reply
	// instead: the page's own load is a causal event and is followed
	// (loadSent); a worker's is one while the worker is followed
	// (workerLoadSent). Unreported after attributionWait, the reply counts
	// as a causal event, as before. They hold nothing meanwhile: a request
	// unreported when paused already holds the barrier as an awaited
	// response (causal.responses) until its answer or the worker's
	// report; holding each reply too held a worker polling back to back
	// to the cap.
	unattributed map[proto.NetworkRequestID]unattributedReply
	// deferred and expired count the replies left to a report
	// (unattributed) and those no report decided (for tests).
	deferred, expired uint64
	// wlanded are the worker sessions whose load ended, or whose script
	// loaded, since their last worker check, with when the latest such
	// load was sent (the script's: when it loaded): the worker may still
	// be handling the data, then the page what the worker posted (see
	// workerQuiet).
	wlanded map[proto.TargetSessionID]wland
	// sw are the service worker versions of the driver's context being
	// installed or activated (ServiceWorker.workerVersionUpdated on the
	// page's session), with when they entered that status: a page that
	// registered one waits for it before it fetches its data.
	sw map[string]swState
	// swActive are the activated service worker versions of the
	// context, with their registration.
	swActive map[string]proto.ServiceWorkerRegistrationID
	// swLanded is set when a version the barrier waited for was
	// activated: the page then gets a DOM-quiet check (it is handling
	// the new controller).
	swLanded bool
	// follow bounds, per worker, the loads the current Settle follows:
	// those the worker sent up to settleDOMBound after the first of its
	// loads reported since the Settle began (workerLoadSent), pushed
	// once to settleDOMBound after the first of them that ended
	// (workerLandedLocked) and once to settleDOMBound after its first
	// worker check (checkLanded), so the request a worker sends when it
	// has its data is still followed (followBy records the pushes).
	// Settle clears both when it begins and ends, so between two Settles
	// (an act's own message to a worker) every worker load is followed
	// by the next one. Started at the first check only, the bound never
	// started while a polling worker's loads kept the barrier pending (a
	// check runs only when nothing is), which on a loaded machine, its
	// reports lagging, held every Settle to the cap.
	follow   map[proto.TargetSessionID]time.Time
	followBy map[proto.TargetSessionID]followPush
	// workerChecks counts the worker checks (for tests).
	workerChecks uint64
	// swAsk is set when the page's top document fired its load event:
	// the next confirming round trip through the page also asks it
	// whether a service worker registration of its origin is still
	// being installed (roundTripSW). No event reports a registration
	// the page has just started until the browser has looked it up in
	// its storage, which on a loaded machine came after every round trip
	// of the Settle after the load (TestStressUnseenWorkers).
	swAsk bool
	// swHint is when the page answered that a registration is being
	// installed: pending until the browser reports a service worker
	// version (causal.sw then holds), bounded by the cap.
	swHint time.Time
	// actOpen is set when an act begins (actBegan) and cleared when the
	// first round trip of the Settle after it returned: a fetch or XHR
	// load the renderer reports meanwhile was started by the act's input
	// (its handlers, and the tasks they queued before a zero-delay timer).
	actOpen bool
	// caused are the fetch and XHR loads (a subset of loads) the act
	// caused: sent while actOpen, or from a frame whose caused load just
	// ended (chainOpen), with whether their response headers arrived.
	// One still awaiting its answer holds Settle past settleCap, up to
	// its context (see Settle); past that Settle fails with
	// [runtime.ErrActPending]. Entries end with the load.
	caused map[loadKey]causedLoad
	// chainOpen are the frames where a load the act's input started was
	// answered (its headers arrived: the renderer may report the end of
	// its body after the page handled it) or ended, with until when:
	// settleDOMBound after the answer, settleCap after the end, and never
	// past the frame's next DOM-quiet check. A load the frame sends
	// meanwhile is the page's handling of the act's data (a POST, then
	// the GET that refreshes the view) and is caused too, one link deep:
	// it opens no window itself, and its end closes the window, so a
	// poll timer that keeps firing never chains on (each poll sent while
	// the window was open counted as the act's, and with loads in flight
	// no DOM-quiet check closed it: at the cap one was always in flight,
	// TestSettleChainOneLink).
	chainOpen map[frameKey]time.Time
	// later are the frames Settle waits on for a request the page sends
	// later for the act: the retry of an act-caused load (or of its
	// retry) that ended with a retryable status (causedLoad.retryIn),
	// since the page may send it again after a backoff, and a save that
	// seemed done on an optimistic page has reached no server until a
	// retry succeeds; or the search the page starts after its debounce
	// (Driver.searchFilled). The frame's chain window stays open, and
	// Settle waits, until the request is sent (it is then followed as
	// the act's own load) or the wait ends. Cleared when an act begins
	// and when Settle returns.
	later map[frameKey]laterWait
	// unserved are, per frame, the act-caused loads (a fetch, an XHR, a
	// route's script, whatever the method) whose last answer had a
	// status pages retry, or that failed on the way without an answer
	// (loadLost, status 0), by URL without its query, with that status:
	// the server has not done what the act asked (a write), or may not
	// have, or has not sent what the page was to show (a read), and it
	// is the page's retry (the same URL, answered with another status)
	// that clears an entry. One left when Settle ends fails it with
	// [runtime.ErrActPending]: an optimistic page that showed the new
	// value while its retries were refused completed with the server
	// holding nothing (TestUnseen3NavRetry fail=5), and a search whose
	// every attempt failed, or whose connection closed, left the old
	// list on screen, read as the results (TestUnseen3NavSearchRetry).
	// Cleared when an act begins and when Settle returns.
	unserved map[frameKey]map[string]int
	// asks are the WebSockets the act sent a message on while the act
	// window was open, by session and socket, with when and from which
	// frame (the session's main one: no socket event names its frame):
	// the page may render what the server answers on the socket, as a
	// Phoenix LiveView or Blazor Server page renders every event's
	// answer, so Settle waits for the socket's next message from the
	// server (wsAnsweredLocked), then for that frame's DOM-quiet check,
	// within the cap (a message the server never answers, a typing
	// notice, holds the barrier to the cap; TestUnseen3NavLive). Cleared
	// when an act begins and when Settle returns.
	asks map[loadKey]wsAsk
	// actSent are the frames that sent a load while the act window was
	// open (cleared when an act begins).
	actSent map[frameKey]bool
	// held counts the Settle calls that held past settleCap for a caused
	// load or an act's navigation (for tests).
	held uint64
}

// causedLoad is one act-caused load: the URL it requested, without its
// query (for the error), and whether its response headers arrived (from then on, only
// its body is on its way, which a streamed response may never end; the
// cap bounds it as any other load).
type causedLoad struct {
	url      string
	answered bool
	// chained is set for a load sent in a chain window (chainOpen).
	chained bool
	// retryIn is set when the answer's status is one pages retry after
	// a backoff: how long the retry is waited on once the load ended.
	retryIn time.Duration
	// status is the answer's (0 for a load whose connection failed,
	// see loadLost; causal.unserved).
	status int
}

// wsAsk is one socket the act sent a message on (causal.asks).
type wsAsk struct {
	at    time.Time
	frame proto.PageFrameID
}

// wsSentLocked records that socket k sent a message (from the page of
// frame): the act's when the act window is open.
func (c *causal) wsSentLocked(k loadKey, frame proto.PageFrameID) bool {
	if !c.actOpen {
		return false
	}
	if _, ok := c.asks[k]; !ok {
		c.asks[k] = wsAsk{at: time.Now(), frame: frame}
		c.noteLocked()
	}
	return true
}

// wsAnsweredLocked ends the wait on socket k: the server sent a message
// (the frame's handling of it gets a DOM-quiet check) or the socket
// closed or failed (answer false).
func (c *causal) wsAnsweredLocked(k loadKey, answer bool) bool {
	a, ok := c.asks[k]
	if !ok {
		return false
	}
	delete(c.asks, k)
	if answer {
		c.landed[frameKey{k.sid, a.frame}] = true
	}
	c.noteLocked()
	return true
}

// laterWait is one frame's wait for a later request of the act (see
// causal.later): until when, and how many waits were armed in this
// Settle.
type laterWait struct {
	until time.Time
	n     int
}

// retryableIn returns how long the retry of a load answered with status
// (and the Retry-After header value ra) is waited on, 0 when the status
// is not one pages retry: 408, 429 and the 5xx. A Retry-After in seconds
// or as a date counts when it is within maxRetryWait; otherwise
// retryWait.
func retryableIn(status int, ra string, now time.Time) time.Duration {
	if status != 408 && status != 429 && (status < 500 || status > 599) {
		return 0
	}
	w := time.Duration(-1)
	if ra = strings.TrimSpace(ra); ra != "" {
		if n, err := strconv.Atoi(ra); err == nil && n >= 0 {
			w = time.Duration(n) * time.Second
		} else if t, err := http.ParseTime(ra); err == nil {
			w = max(t.Sub(now), 0)
		}
	}
	if w < 0 || w > maxRetryWait {
		return retryWait
	}
	// The wait covers the backoff and the retry's own start.
	return w + settleDOMBound
}

// armLaterLocked makes frame k wait, for in, for the retry of a load
// that ended with a retryable status or for a debounced search
// (causal.later); false once maxRetries were armed for the frame in this
// Settle.
func (c *causal) armLaterLocked(k frameKey, in time.Duration) bool {
	r := c.later[k]
	if r.n >= maxRetries {
		return false
	}
	until := time.Now().Add(in)
	c.later[k] = laterWait{until: until, n: r.n + 1}
	c.openChainLocked(k, until)
	return true
}

// retryInLocked is how long frame k waits for the retry of a load its
// answer asks to wait in for: at least retryWait, doubling with each wait
// already armed for the frame in this Settle, up to maxRetryWait (client
// backoffs double, and many ignore Retry-After: a page retrying after
// 1 s and then 2 s completed with its second retry still to come).
func (c *causal) retryInLocked(k frameKey, in time.Duration) time.Duration {
	return max(in, min(retryWait<<c.later[k].n, maxRetryWait))
}

// answeredLocked records the answer of an act-caused load of frame k
// (causal.unserved): a status pages retry (or none, the connection lost)
// leaves it unserved, any other answer to the same URL (the page's
// retry) serves it.
func (c *causal) answeredLocked(k frameKey, cl causedLoad) {
	if cl.retryIn == 0 {
		if m := c.unserved[k]; m != nil {
			delete(m, cl.url)
			if len(m) == 0 {
				delete(c.unserved, k)
			}
		}
		return
	}
	if c.unserved[k] == nil {
		c.unserved[k] = map[string]int{}
	}
	c.unserved[k][cl.url] = cl.status
}

// takeUnservedLocked returns a description of an act-caused load whose
// last answer asked for a retry that never succeeded (the first by URL),
// "" when there is none, and forgets them all.
func (c *causal) takeUnservedLocked() string {
	var first string
	status := 0
	for _, m := range c.unserved {
		for u, st := range m {
			if first == "" || u < first {
				first, status = u, st
			}
		}
	}
	clear(c.unserved)
	switch {
	case first == "":
		return ""
	case status == 0:
		return first + " had no answer (its connection failed) and no retry of it succeeded"
	}
	return fmt.Sprintf("%s was answered %d and no retry of it succeeded", first, status)
}

// laterUntilLocked returns the latest end of the frames' waits for a
// later request (zero when none was armed; an ended or answered wait is
// in the past).
func (c *causal) laterUntilLocked() time.Time {
	var until time.Time
	for _, r := range c.later {
		if r.until.After(until) {
			until = r.until
		}
	}
	return until
}

// actNav is one navigation the act asked for: the URL without its query
// and when it was requested.
type actNav struct {
	url string
	at  time.Time
}

// openChainLocked opens frame k's chain window until at least until.
func (c *causal) openChainLocked(k frameKey, until time.Time) {
	if until.After(c.chainOpen[k]) {
		c.chainOpen[k] = until
	}
}

// pauseKey names one paused request: its interception id on session sid,
// at the request stage or (response) the response stage.
type pauseKey struct {
	sid      proto.TargetSessionID
	id       proto.FetchRequestID
	response bool
}

// respKey names one fetch or XHR request awaiting its response.
type respKey struct {
	sid proto.TargetSessionID
	id  proto.FetchRequestID
}

// respVal is when an awaited request was let through, the frame whose
// document sent it and its network id.
type respVal struct {
	loadVal
	net proto.NetworkRequestID
}

// loadKey names one fetch or XHR load as the renderer of a session
// reports it.
type loadKey struct {
	sid proto.TargetSessionID
	id  proto.NetworkRequestID
}

// followPush records which of a worker's follow bound's two pushes
// (causal.follow) were made: by its first load that ended, by its first
// check.
type followPush struct{ ended, checked bool }

// pushFollowLocked pushes worker sid's follow bound to settleDOMBound
// from now, once per kind (by an end, or by a check) and Settle.
func (c *causal) pushFollowLocked(sid proto.TargetSessionID, byCheck bool) {
	p := c.followBy[sid]
	if (byCheck && p.checked) || (!byCheck && p.ended) {
		return
	}
	if byCheck {
		p.checked = true
	} else {
		p.ended = true
	}
	c.followBy[sid] = p
	if until := time.Now().Add(settleDOMBound); until.After(c.follow[sid]) {
		c.follow[sid] = until
	}
}

// unattributedReply is one paused request replied to before a renderer
// reported it: the session that paused it and when it was replied to.
type unattributedReply struct {
	sid proto.TargetSessionID
	at  time.Time
}

// wland is what a worker check is for: the latest load of the worker
// that ended (when it was sent), or its script that loaded (load false,
// at when it loaded).
type wland struct {
	at   time.Time
	load bool
}

// swState is a service worker version's status and when it entered it.
type swState struct {
	status proto.ServiceWorkerServiceWorkerVersionStatus
	at     time.Time
}

// loadVal is when a load began and the frame whose document started it.
type loadVal struct {
	at    time.Time
	frame proto.PageFrameID
}

// frameKey names one frame of a session.
type frameKey struct {
	sid   proto.TargetSessionID
	frame proto.PageFrameID
}

// navKey names one pending navigation state of a frame: requested or
// scheduled (loading false), or loading a document (loading true). They
// end apart: Chromium clears a scheduled navigation as soon as it
// starts (frameClearedScheduledNavigation follows frameStartedLoading),
// while the frame goes on loading until frameStoppedLoading.
type navKey struct {
	sid     proto.TargetSessionID
	frame   proto.PageFrameID
	loading bool
}

func newCausal() causal {
	return causal{
		changed:      make(chan struct{}),
		navs:         map[navKey]time.Time{},
		targets:      map[proto.TargetSessionID]time.Time{},
		paused:       map[pauseKey]proto.NetworkRequestID{},
		responses:    map[respKey]respVal{},
		loads:        map[loadKey]loadVal{},
		landed:       map[frameKey]bool{},
		committed:    map[frameKey]proto.NetworkLoaderID{},
		undecided:    map[loadKey]loadVal{},
		decided:      map[loadKey]time.Time{},
		wloads:       map[loadKey]time.Time{},
		wlanded:      map[proto.TargetSessionID]wland{},
		sw:           map[string]swState{},
		swActive:     map[string]proto.ServiceWorkerRegistrationID{},
		follow:       map[proto.TargetSessionID]time.Time{},
		followBy:     map[proto.TargetSessionID]followPush{},
		caused:       map[loadKey]causedLoad{},
		chainOpen:    map[frameKey]time.Time{},
		later:        map[frameKey]laterWait{},
		unserved:     map[frameKey]map[string]int{},
		asks:         map[loadKey]wsAsk{},
		actSent:      map[frameKey]bool{},
		actNavs:      map[frameKey]actNav{},
		reported:     map[proto.NetworkRequestID]time.Time{},
		unattributed: map[proto.NetworkRequestID]unattributedReply{},
	}
}

// actBegan opens the act window (causal.actOpen) just before an act's
// input may reach the page: before each mouse press, and before each
// attempt of a fill's, a key press's or a select's page-side call. An
// act that waits for its element (not visible, not enabled yet) opens
// it again at every attempt and forgets what the earlier ones counted
// as caused: a background poll that fired while the act waited is not
// the act's. The previous act's caused loads were answered by the
// Settle that followed it (or that Settle failed), so none is lost.
func (d *Driver) actBegan() {
	d.mu.Lock()
	d.causal.actOpen = true
	clear(d.causal.caused)
	clear(d.causal.actNavs)
	d.causal.navLost = ""
	clear(d.causal.actSent)
	// The previous act's waits and unserved loads were judged by its
	// Settle; from here on, the ones this act's loads leave are kept for
	// its Settle, even when they end before it begins.
	clear(d.causal.later)
	clear(d.causal.unserved)
	clear(d.causal.asks)
	d.mu.Unlock()
}

// searchFilled records that the act filled a search field in frame of
// session sid: a page that searches as the user types starts its request
// after a debounce timer, later than the act window, so the frame waits
// up to searchWait for it (causal.later, armed here and kept for the
// Settle that follows, as a retry's) and it is followed as the act's own
// load (TestUnseen3NavSearch: the recent customers still on screen were
// read as the results).
func (d *Driver) searchFilled(sid proto.TargetSessionID, frame proto.PageFrameID) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.causal.actSent[frameKey{sid, frame}] {
		// The page searched as the text went in (no debounce): the
		// act's load is followed already, nothing is waited for.
		return
	}
	d.causal.armLaterLocked(frameKey{sid, frame}, searchWait)
}

// navRequested records that frame of session sid was asked to navigate
// to url in itself (Page.frameRequestedNavigation): while the act window
// is open, by the act (causal.actNavs).
func (d *Driver) navRequested(sid proto.TargetSessionID, frame proto.PageFrameID, url string) {
	d.mu.Lock()
	if d.causal.actOpen {
		if i := strings.IndexAny(url, "?#"); i >= 0 {
			url = url[:i]
		}
		d.causal.actNavs[frameKey{sid, frame}] = actNav{url, time.Now()}
	}
	d.mu.Unlock()
	d.navStart(sid, frame)
}

// navigatingLocked reports whether frame of session sid has a
// navigation requested, scheduled or loading (causal.navs).
func (c *causal) navigatingLocked(sid proto.TargetSessionID, frame proto.PageFrameID) bool {
	_, requested := c.navs[navKey{sid, frame, false}]
	_, loading := c.navs[navKey{sid, frame, true}]
	return requested || loading
}

// actNavigatedLocked reports whether a frame of session sid was asked to
// navigate while the act window was open (causal.actNavs), and has not
// committed its next document yet.
func (c *causal) actNavigatedLocked(sid proto.TargetSessionID) bool {
	for k := range c.actNavs {
		if k.sid == sid {
			return true
		}
	}
	return false
}

// frameRemovedLocked records that frame of session sid detached: removed
// by its page (remove) or moved to a process of its own (swap). A frame
// the act asked to navigate that the page removed before its next
// document committed lost that navigation (causal.navLost).
func (c *causal) frameRemovedLocked(sid proto.TargetSessionID, frame proto.PageFrameID, removed bool) {
	k := frameKey{sid, frame}
	if n, ok := c.actNavs[k]; ok {
		delete(c.actNavs, k)
		if removed && c.navLost == "" {
			c.navLost = n.url
		}
	}
}

// inflightLocked returns what the act started that still awaits its
// answer, if any: a caused load without its response headers (its URL),
// or a navigation the act asked for whose frame is still navigating
// (requested, scheduled or loading since the request) and has not
// committed the new document ("the navigation to" its URL). A
// navigation that ends without a document (a 204 answer, a download, a
// stop) ends its frame's navigation state and holds nothing; one that
// commits (the answer's headers came, or an error page for a blocked
// one) leaves actNavs.
func (c *causal) inflightLocked() (string, bool) {
	for k, cl := range c.caused {
		if _, ok := c.loads[k]; !ok {
			delete(c.caused, k)
			continue
		}
		if !cl.answered {
			return cl.url, true
		}
	}
	for k, n := range c.actNavs {
		for _, loading := range []bool{false, true} {
			if at, ok := c.navs[navKey{k.sid, k.frame, loading}]; ok && !at.Before(n.at) {
				return "the navigation to " + n.url, true
			}
		}
	}
	return "", false
}

// loadAnswered records that the response headers of the load id of
// session sid arrived (Network.responseReceived): a caused load no
// longer holds Settle past the cap.
func (d *Driver) loadAnswered(sid proto.TargetSessionID, id proto.NetworkRequestID, status int, retryAfter string) {
	d.mu.Lock()
	k := loadKey{sid, id}
	if cl, ok := d.causal.caused[k]; ok && !cl.answered {
		cl.answered = true
		cl.status = status
		cl.retryIn = retryableIn(status, retryAfter, time.Now())
		d.causal.caused[k] = cl
		if l, ok := d.causal.loads[k]; ok && !cl.chained {
			d.causal.openChainLocked(frameKey{sid, l.frame}, time.Now().Add(settleDOMBound))
		}
		d.causal.noteLocked()
	}
	d.mu.Unlock()
}

// noteLocked records a causal event and wakes Settle.
func (c *causal) noteLocked() {
	c.seq++
	c.wakeLocked()
}

// wakeLocked wakes Settle to look again at what is pending, with no
// causal event: the confirming round trips do not go round again for it.
func (c *causal) wakeLocked() {
	close(c.changed)
	c.changed = make(chan struct{})
}

// pausedHoldsLocked reports whether a paused request with network id net
// holds the barrier: unless it is the load of a worker past the worker's
// follow bound (see causal.paused).
func (c *causal) pausedHoldsLocked(net proto.NetworkRequestID) bool {
	wsid, wat, worker := c.workerNetLocked(net)
	return !worker || c.followedLocked(wsid, wat)
}

// pausedHoldLocked reports whether any paused request holds the barrier.
func (c *causal) pausedHoldLocked() bool {
	for _, net := range c.paused {
		if c.pausedHoldsLocked(net) {
			return true
		}
	}
	return false
}

// pauseEndedLocked forgets paused request k, replied to, and reports
// whether it held the barrier. A reply to one that held nothing (a
// worker's load past its follow bound) is no causal event: it only wakes
// Settle, which may have waited for it before the worker reported it.
func (c *causal) pauseEndedLocked(k pauseKey) bool {
	net, ok := c.paused[k]
	if !ok {
		return false
	}
	delete(c.paused, k)
	if c.pausedHoldsLocked(net) {
		return true
	}
	c.wakeLocked()
	return false
}

// replyEndedLocked forgets paused request k of network id net, replied
// to, and reports whether the reply is a causal event: not for one that
// held nothing (pauseEndedLocked), nor yet, when deferable (a fetch or
// XHR of a target whose renderers report their loads, paused while
// dedicated workers run, see causal.unattributed), for one no renderer
// has reported: the report decides it (loadSent, workerLoadSent), or
// attributionWait without one (expireUnattributedLocked).
func (c *causal) replyEndedLocked(k pauseKey, net proto.NetworkRequestID, deferable bool) bool {
	if !c.pauseEndedLocked(k) {
		return false
	}
	if deferable && net != "" {
		if _, ok := c.reported[net]; !ok {
			if len(c.unattributed) >= maxReported {
				// Replies never reported while no Settle runs: each
				// would only count as a causal event.
				clear(c.unattributed)
			}
			c.unattributed[net] = unattributedReply{sid: k.sid, at: time.Now()}
			c.deferred++
			c.wakeLocked()
			return false
		}
	}
	return true
}

// reportedLocked records that a renderer reported the load of network id
// net and decides its reply if it was held unattributed; it reports
// whether one was.
func (c *causal) reportedLocked(net proto.NetworkRequestID) bool {
	if _, ok := c.reported[net]; !ok {
		if len(c.reported) >= maxReported {
			// A page polling while no Settle runs (Settle prunes
			// them, see pendingLocked).
			old := time.Now().Add(-settleCap)
			maps.DeleteFunc(c.reported, func(_ proto.NetworkRequestID, at time.Time) bool { return at.Before(old) })
		}
		c.reported[net] = time.Now()
	}
	if _, ok := c.unattributed[net]; !ok {
		return false
	}
	delete(c.unattributed, net)
	return true
}

// expireUnattributedLocked decides every unattributed reply older than
// attributionWait that no renderer reported: it counts as a causal
// event, as the reply to a request that held the barrier does.
func (c *causal) expireUnattributedLocked(now time.Time) {
	for net, u := range c.unattributed {
		if !u.at.Add(attributionWait).After(now) {
			delete(c.unattributed, net)
			c.expired++
			c.noteLocked()
		}
	}
}

// pausedAsLocked reports whether a request with network id net is paused.
func (c *causal) pausedAsLocked(net proto.NetworkRequestID) bool {
	for _, n := range c.paused {
		if n == net {
			return true
		}
	}
	return false
}

// repliedLocked opens the quiet window after a reply to a chaining
// request of type rt for frame.
//
// A document reply for a frame that is loading opens none: a document
// response goes to the browser's navigation, not to the page's own
// channel, and everything it leads to is tracked as the frame's load
// (the commit, or an error page, a download or a dropped navigation),
// which holds the barrier until Page.frameStoppedLoading, after the new
// document's load event; the confirming round trips then order what its
// scripts started, as after an input. The window is for a reply whose
// effect no event reports (a fetch resolving, a script run after the
// load).
func (c *causal) repliedLocked(rt proto.NetworkResourceType, frame proto.PageFrameID) {
	c.chainReplies++
	if rt == proto.NetworkResourceTypeDocument && frame != "" {
		for k := range c.navs {
			if k.loading && k.frame == frame {
				return
			}
		}
	}
	c.chainUntil = time.Now().Add(settleQuiet)
}

// chainingResource reports whether a response of type rt can make the
// page start more work the barrier must wait for: a document, a script, a
// fetch or XHR, an event source, a web socket or an unknown type. A
// stylesheet, image, font or media response only paints.
func chainingResource(rt proto.NetworkResourceType) bool {
	switch rt {
	case proto.NetworkResourceTypeStylesheet, proto.NetworkResourceTypeImage, proto.NetworkResourceTypeMedia,
		proto.NetworkResourceTypeFont, proto.NetworkResourceTypeTextTrack, proto.NetworkResourceTypeManifest,
		proto.NetworkResourceTypePing, proto.NetworkResourceTypeCSPViolationReport, proto.NetworkResourceTypePrefetch:
		return false
	}
	return true
}

// imageFetch reports whether a paused request of no specific type
// ("Other") is an image fetch: its Accept header lists only image types
// (before a final "*/*" fallback), as Chromium's own image loads send it.
// That is the document's icon (the favicon, which the browser fetches
// after every load): its response is decoded for the tab strip, never
// handed to the page's scripts, so it cannot start more page work and
// does not open the quiet window. Page code cannot make such a request:
// fetch and XHR are typed "Fetch" and "XHR", images "Image".
func imageFetch(e *proto.FetchRequestPaused) bool {
	if e.ResourceType != proto.NetworkResourceTypeOther || e.Request == nil {
		return false
	}
	accept := headerValue(e.Request.Headers, "Accept")
	if accept == "" {
		return false
	}
	n := 0
	for _, part := range strings.Split(accept, ",") {
		mt, _, _ := strings.Cut(strings.TrimSpace(part), ";")
		switch {
		case strings.HasPrefix(mt, "image/"):
			n++
		case mt == "*/*":
		default:
			return false
		}
	}
	return n > 0
}

// pendingLocked reports whether anything newer than since is pending. It
// forgets awaited responses older than since: every later call passes a
// later since. A load of a worker sent after the worker's follow bound
// holds nothing (see checkLanded).
func (c *causal) pendingLocked(since time.Time) bool {
	if c.pausedHoldLocked() {
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
	pending := false
	for k, r := range c.responses {
		if r.at.After(since) {
			pending = true
		} else {
			// Older than any barrier that may still ask (since only
			// grows): a request aborted or failed before its response.
			delete(c.responses, k)
		}
	}
	for k, l := range c.loads {
		cl, caused := c.caused[k]
		switch {
		case l.at.After(since):
			pending = true
		case caused && !cl.answered:
			// An act-caused load awaiting its answer: Settle holds it
			// past the cap (inflightLocked).
			pending = true
		default:
			// A load that never ends (a streamed response) holds no
			// barrier begun more than a cap after it.
			delete(c.loads, k)
			delete(c.caused, k)
		}
	}
	for k, u := range c.undecided {
		if u.at.After(since) {
			pending = true
		} else {
			delete(c.undecided, k)
		}
	}
	for k, at := range c.decided {
		if !at.After(since) {
			delete(c.decided, k)
		}
	}
	for k, a := range c.asks {
		if a.at.After(since) {
			pending = true
		} else {
			delete(c.asks, k)
		}
	}
	for k, at := range c.wloads {
		switch {
		case !at.After(since):
			delete(c.wloads, k)
		case c.followedLocked(k.sid, at):
			pending = true
		}
	}
	for _, v := range c.sw {
		if v.at.After(since) {
			pending = true
		}
	}
	if c.swHint.After(since) {
		pending = true
	}
	for net, at := range c.reported {
		if !at.After(since) {
			delete(c.reported, net)
		}
	}
	return pending
}

// followedLocked reports whether a worker load of session sid sent at
// holds the barrier: always, unless the worker already had a load
// checked during this Settle and sent this one after its follow bound.
func (c *causal) followedLocked(sid proto.TargetSessionID, at time.Time) bool {
	until, ok := c.follow[sid]
	return !ok || !at.After(until)
}

// workerNetLocked finds the worker load with network id id: the page's
// interceptor pauses a dedicated worker's requests on the page's session
// with the worker's network id.
func (c *causal) workerNetLocked(id proto.NetworkRequestID) (sid proto.TargetSessionID, at time.Time, ok bool) {
	if id == "" {
		return "", time.Time{}, false
	}
	for k, t := range c.wloads {
		if k.id == id {
			return k.sid, t, true
		}
	}
	return "", time.Time{}, false
}

// workerLoadSent records a fetch or XHR load a worker session sid
// started (Network.requestWillBeSent on the worker's own session; a
// redirect keeps the first time).
func (d *Driver) workerLoadSent(sid proto.TargetSessionID, id proto.NetworkRequestID) {
	d.mu.Lock()
	k := loadKey{sid, id}
	at, ok := d.causal.wloads[k]
	if !ok {
		at = time.Now()
		d.causal.wloads[k] = at
	}
	if _, ok := d.causal.follow[sid]; !ok {
		// The worker's first load reported since the Settle began
		// starts its follow bound.
		d.causal.follow[sid] = at.Add(settleDOMBound)
	}
	// A dedicated worker's request is paused on its page's session,
	// sometimes before the worker reports it: the worker's load covers
	// it (and its follow bound applies).
	maps.DeleteFunc(d.causal.responses, func(_ respKey, r respVal) bool { return r.net == id })
	// A load past the worker's follow bound is no causal event: a
	// worker that polls back to back would send the confirming round
	// trips round again forever.
	held := d.causal.reportedLocked(id)
	followed := d.causal.followedLocked(sid, at)
	switch {
	case followed:
		d.causal.noteLocked()
	case held:
		// Replied to before this report (causal.unattributed): it held
		// the barrier until now, and past the follow bound it is no
		// causal event.
		d.causal.wakeLocked()
	case d.causal.pausedAsLocked(id):
		// Paused on the page's session before this report: it held
		// the barrier until now (causal.paused).
		d.causal.wakeLocked()
	}
	d.mu.Unlock()
	d.log.Debug("settle: worker load sent", "request", string(id), "followed", followed)
}

// workerLandedLocked marks worker session sid for a worker check: a load
// of it sent at ended (load), or its script loaded (at is then now).
func (c *causal) workerLandedLocked(sid proto.TargetSessionID, at time.Time, load bool) {
	if !c.followedLocked(sid, at) {
		return
	}
	if load {
		c.pushFollowLocked(sid, false)
	}
	prev, ok := c.wlanded[sid]
	if !ok || at.After(prev.at) {
		prev.at = at
	}
	prev.load = prev.load || load
	c.wlanded[sid] = prev
	c.noteLocked()
}

// swVersionLocked records the status of one service worker version of
// the driver's context. A version that is new, installing or activating
// is pending (the page that registered it waits for it before its data
// fetch goes out, which then goes to the new worker); so is an installed
// one whose registration has no activated version (a first install,
// about to activate), while one that waits behind an active version (no
// skipWaiting) can wait as long as the old version's pages are open and
// holds nothing. Each status holds no barrier begun more than a cap
// after the version entered it (an install that never ends). When a
// version the barrier waited for is activated, the page gets a DOM-quiet
// check (swLanded): the activation hands it its new controller, and what
// it does then (its data fetch) starts from the page's own tasks.
func (c *causal) swVersionLocked(v *proto.ServiceWorkerServiceWorkerVersion) {
	c.swHint = time.Time{}
	id := v.VersionID
	if v.Status == proto.ServiceWorkerServiceWorkerVersionStatusActivated {
		c.swActive[id] = v.RegistrationID
	} else {
		delete(c.swActive, id)
	}
	active := false
	for vid, reg := range c.swActive {
		if reg == v.RegistrationID && vid != id {
			active = true
		}
	}
	prev, was := c.sw[id]
	switch v.Status {
	case proto.ServiceWorkerServiceWorkerVersionStatusNew, proto.ServiceWorkerServiceWorkerVersionStatusInstalling,
		proto.ServiceWorkerServiceWorkerVersionStatusActivating:
	case proto.ServiceWorkerServiceWorkerVersionStatusInstalled:
		if active {
			delete(c.sw, id)
			c.noteLocked()
			return
		}
	default:
		delete(c.sw, id)
		if was && v.Status == proto.ServiceWorkerServiceWorkerVersionStatusActivated {
			c.swLanded = true
		}
		c.noteLocked()
		return
	}
	if !was || prev.status != v.Status {
		c.sw[id] = swState{v.Status, time.Now()}
	}
	c.noteLocked()
}

// requestSent records a subresource request (not a document, fetch or
// XHR) the renderer of session sid started in frame, until the
// interceptor decides it (causal.undecided). A redirect's next hop is not
// followed again.
//
// The report only wakes Settle, it is no causal event: the request is
// pending until decided, so no Settle ends before its decision, and the
// decision is the causal event (it sends the confirming round trips
// round again), except for the document's icon (see imageFetch), whose
// violation is recorded all the same but which cannot start page work.
// The renderer's report has no Accept header to tell the icon by, and
// the browser fetches the icon right after every load: as a causal event
// its report sent the confirming round trips round again after every
// navigation.
func (d *Driver) requestSent(sid proto.TargetSessionID, id proto.NetworkRequestID, frame proto.PageFrameID) {
	d.mu.Lock()
	k := loadKey{sid, id}
	_, decided := d.causal.decided[k]
	_, known := d.causal.undecided[k]
	if !decided && !known {
		d.causal.undecided[k] = loadVal{time.Now(), frame}
		d.causal.wakeLocked()
	}
	d.mu.Unlock()
}

// requestDecidedLocked records that the interceptor paused the request
// of network id in session sid: it no longer waits to be decided. The
// decision is a causal event unless the request is the document's icon
// (icon, see requestSent).
func (c *causal) requestDecidedLocked(sid proto.TargetSessionID, id proto.NetworkRequestID, icon bool) {
	if id == "" {
		return
	}
	k := loadKey{sid, id}
	c.decided[k] = time.Now()
	if _, ok := c.undecided[k]; ok {
		// Wake Settle: a request that holds no barrier once paused (the
		// favicon) sends no other event it would wake on.
		delete(c.undecided, k)
		if icon {
			c.wakeLocked()
		} else {
			c.noteLocked()
		}
	}
}

// causedNow reports whether a load frame of session sid sends now is the
// act's: the act window is open, or the frame's chain window (see
// loadSent).
func (d *Driver) causedNow(sid proto.TargetSessionID, frame proto.PageFrameID) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.causal.actOpen || d.causal.chainingLocked(frameKey{sid, frame})
}

// chainingLocked reports whether frame k's chain window is open
// (causal.chainOpen).
func (c *causal) chainingLocked(k frameKey) bool {
	return time.Now().Before(c.chainOpen[k])
}

// loadSent records a fetch or XHR load of url the renderer of session
// sid started in frame (Network.requestWillBeSent; a redirect keeps the
// first time), as act-caused when the act window or the frame's chain
// window is open (causal.caused).
func (d *Driver) loadSent(sid proto.TargetSessionID, id proto.NetworkRequestID, frame proto.PageFrameID, url string) {
	d.mu.Lock()
	k := loadKey{sid, id}
	if _, ok := d.causal.loads[k]; !ok {
		d.causal.loads[k] = loadVal{time.Now(), frame}
	}
	// The page's own load: a reply held unattributed is decided (the
	// note below is its causal event).
	d.causal.reportedLocked(id)
	chained := !d.causal.actOpen && d.causal.chainingLocked(frameKey{sid, frame})
	caused := d.causal.actOpen || chained
	if d.causal.actOpen {
		d.causal.actSent[frameKey{sid, frame}] = true
	}
	if r, ok := d.causal.later[frameKey{sid, frame}]; ok && caused && time.Now().Before(r.until) {
		// The retry the frame was waited on for: it stands for the
		// act's request, so it is followed as the act's own load (its
		// answer may arm the next wait, and its end opens the chain
		// window for the page's handling of the data, the refresh after
		// a save, as the first answer's would have).
		r.until = time.Time{}
		d.causal.later[frameKey{sid, frame}] = r
		chained = false
	}
	if _, ok := d.causal.caused[k]; caused && !ok {
		// The error names the request without its query or fragment
		// (they may carry input values).
		if i := strings.IndexAny(url, "?#"); i >= 0 {
			url = url[:i]
		}
		d.causal.caused[k] = causedLoad{url: url, chained: chained}
	}
	d.causal.noteLocked()
	d.mu.Unlock()
	d.log.Debug("settle: load sent", "request", string(id), "caused", caused)
}

// documentReplacedLocked forgets the awaited responses, loads and
// DOM-quiet checks of frame in session sid (of every frame of the
// session when top is set): its document was replaced or detached, which
// cancels its requests; the
// interceptor never sees the response of a cancelled one, and a renderer
// left behind by a cross-process navigation never reports the end of its
// loads (each would hold the next barriers to the cap).
func (c *causal) documentReplacedLocked(sid proto.TargetSessionID, frame proto.PageFrameID, top bool) {
	for k, r := range c.responses {
		if k.sid == sid && (top || r.frame == frame) {
			delete(c.responses, k)
		}
	}
	for k, l := range c.loads {
		if k.sid == sid && (top || l.frame == frame) {
			delete(c.loads, k)
			delete(c.caused, k)
		}
	}
	for k := range c.landed {
		if k.sid == sid && (top || k.frame == frame) {
			delete(c.landed, k)
		}
	}
	for k := range c.chainOpen {
		if k.sid == sid && (top || k.frame == frame) {
			delete(c.chainOpen, k)
		}
	}
	// A retry or search the old document was waited on for will not
	// come (the count stays: maxRetries bounds the Settle).
	for k, r := range c.later {
		if k.sid == sid && (top || k.frame == frame) {
			r.until = time.Time{}
			c.later[k] = r
		}
	}
	for k, u := range c.undecided {
		if k.sid == sid && (top || u.frame == frame) {
			delete(c.undecided, k)
		}
	}
}

// connectionLost reports whether a load that failed (Network.loadingFailed
// with errorText, canceled and blockedReason) failed on the way to or
// from its server: not cancelled (by the page, or by its document going
// away) and not blocked (by the interceptor, a policy or the browser).
// The server may or may not have done what it asked.
func connectionLost(errorText string, canceled bool, blockedReason string) bool {
	return !canceled && blockedReason == "" && errorText != "" && !strings.Contains(errorText, "BLOCKED") && !strings.Contains(errorText, "ABORTED")
}

// loadLost records that the act-caused load id of session sid failed
// without an answer (connectionLost): like an answer pages retry after a
// backoff (Settle waits for the retry, and the load is unserved until a
// retry is answered), since whether the server did a write is unknown
// and a read brought nothing.
func (d *Driver) loadLost(sid proto.TargetSessionID, id proto.NetworkRequestID, reason string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	k := loadKey{sid, id}
	if cl, ok := d.causal.caused[k]; ok && !cl.answered {
		cl.answered, cl.status, cl.retryIn = true, 0, retryWait
		d.causal.caused[k] = cl
		d.log.Debug("settle: the act's load had no answer", "url", cl.url, "err", reason)
	}
}

// loadEnded ends a load (Network.loadingFinished or loadingFailed): its
// frame gets a DOM-quiet check at the next Settle, since the page may be
// handling the data or the failure. An unknown id (a load of another
// type) is not a causal event.
func (d *Driver) loadEnded(sid proto.TargetSessionID, id proto.NetworkRequestID) {
	d.mu.Lock()
	k := loadKey{sid, id}
	d.epochs.endedLocked(k)
	delete(d.causal.decided, k)
	if _, ok := d.causal.undecided[k]; ok {
		delete(d.causal.undecided, k)
		d.causal.noteLocked()
	}
	if l, ok := d.causal.loads[k]; ok {
		delete(d.causal.loads, k)
		d.causal.landed[frameKey{sid, l.frame}] = true
		if cl, ok := d.causal.caused[k]; ok {
			delete(d.causal.caused, k)
			fk := frameKey{sid, l.frame}
			if cl.answered {
				d.causal.answeredLocked(fk, cl)
			}
			wait := d.causal.retryInLocked(fk, cl.retryIn)
			switch {
			case cl.retryIn > 0 && d.causal.armLaterLocked(fk, wait):
				// Answered with a status pages retry: the frame's chain
				// window stays open for the retry, which is followed.
				d.log.Debug("settle: waiting for a retry", "url", cl.url, "for", wait)
			case !cl.chained:
				d.causal.openChainLocked(fk, time.Now().Add(settleCap))
			default:
				// One link deep: the handling that followed has
				// ended, and what the frame sends from now on (the
				// next poll of a timer) is not the act's.
				delete(d.causal.chainOpen, fk)
			}
		}
		d.causal.noteLocked()
		d.log.Debug("settle: load ended", "request", string(id))
	}
	if at, ok := d.causal.wloads[k]; ok {
		delete(d.causal.wloads, k)
		d.causal.workerLandedLocked(sid, at, true)
		d.log.Debug("settle: worker load ended", "request", string(id))
	}
	d.mu.Unlock()
}

// navStart marks a navigation of frame in session sid as pending:
// requested or scheduled (Page.frameRequestedNavigation,
// frameScheduledNavigation) until it is cleared or the frame stops
// loading.
func (d *Driver) navStart(sid proto.TargetSessionID, frame proto.PageFrameID) {
	d.navPending(navKey{sid, frame, false})
}

// loadStart marks frame in session sid as loading a document
// (Page.frameStartedLoading) until it stops loading or is detached; a
// cleared scheduled navigation does not end it.
func (d *Driver) loadStart(sid proto.TargetSessionID, frame proto.PageFrameID) {
	d.navPending(navKey{sid, frame, true})
}

func (d *Driver) navPending(k navKey) {
	d.mu.Lock()
	// The committed document's load no longer ends the frame's load: a
	// navigation after it holds the barrier until its own document
	// loaded or the frame stopped loading.
	delete(d.causal.committed, frameKey{k.sid, k.frame})
	if _, ok := d.causal.navs[k]; !ok {
		d.causal.navs[k] = time.Now()
	}
	d.causal.noteLocked()
	d.mu.Unlock()
}

// navCleared ends the requested or scheduled navigation of frame in
// session sid (Page.frameClearedScheduledNavigation): it either started
// (the frame is loading, tracked by loadStart) or was dropped. Before,
// this ended the frame's loading too, and a click that submitted a form
// let the barrier go while the next document was still loading: the
// quiet window after the document reply was all that held it.
func (d *Driver) navCleared(sid proto.TargetSessionID, frame proto.PageFrameID) {
	d.mu.Lock()
	delete(d.causal.navs, navKey{sid, frame, false})
	d.causal.noteLocked()
	d.mu.Unlock()
}

// navDone marks every navigation of frame in session sid as finished
// (frame detached, a causal event). A popup whose main frame is gone is
// decided.
func (d *Driver) navDone(sid proto.TargetSessionID, frame proto.PageFrameID) {
	d.mu.Lock()
	d.navDoneLocked(sid, frame)
	d.causal.noteLocked()
	d.mu.Unlock()
}

// navStopped marks every navigation of frame in session sid as finished
// (Page.frameStoppedLoading). It is a causal event only when it ended
// something: after its document's load event ended the frame's load
// (loadFired), the frame's report that it stopped, which Chromium sends
// a little later, is no new work, and a confirming round trip it
// overlapped need not go round again.
func (d *Driver) navStopped(sid proto.TargetSessionID, frame proto.PageFrameID) {
	d.mu.Lock()
	if d.navDoneLocked(sid, frame) {
		d.causal.noteLocked()
	}
	d.mu.Unlock()
}

// navDoneLocked forgets the navigations of frame in session sid and, for
// a popup's main frame, decides the popup; it reports whether anything
// was pending.
func (d *Driver) navDoneLocked(sid proto.TargetSessionID, frame proto.PageFrameID) bool {
	delete(d.causal.committed, frameKey{sid, frame})
	changed := false
	for _, k := range []navKey{{sid, frame, false}, {sid, frame, true}} {
		if _, ok := d.causal.navs[k]; ok {
			delete(d.causal.navs, k)
			changed = true
		}
	}
	if t := d.targets[sid]; t != nil && t.kind == kindPopup && proto.PageFrameID(t.id) == frame {
		if _, ok := d.causal.targets[sid]; ok {
			delete(d.causal.targets, sid)
			changed = true
		}
	}
	return changed
}

// committedLocked records that frame in session sid committed the
// document of loader (Page.frameNavigated): its load event ends the
// frame's load (loadFired).
// A new top document replaces every frame of the session.
func (c *causal) committedLocked(sid proto.TargetSessionID, frame proto.PageFrameID, loader proto.NetworkLoaderID, top bool) {
	if top {
		for k := range c.committed {
			if k.sid == sid {
				delete(c.committed, k)
			}
		}
	}
	if loader != "" {
		c.committed[frameKey{sid, frame}] = loader
	}
}

// loadFired ends the load of frame in session sid when loader is the
// document it committed since its last navigation began (the load
// lifecycle event of that document): its subresources and child frames
// have loaded and its load handlers ran, so what they started is ordered
// by the confirming round trips, as after an input. The load event of an
// earlier document (one still loading when the navigation began) does
// not match and ends nothing.
func (d *Driver) loadFired(sid proto.TargetSessionID, frame proto.PageFrameID, loader proto.NetworkLoaderID) {
	d.mu.Lock()
	k := frameKey{sid, frame}
	l, ok := d.causal.committed[k]
	if ok && l == loader {
		delete(d.causal.committed, k)
		delete(d.causal.navs, navKey{sid, frame, true})
		d.causal.loadEnds++
		if sid == d.pageSID && frame == proto.PageFrameID(d.pageTarget) {
			// The page's new document has run its load-time scripts:
			// the next confirming round trip asks it about service
			// worker registrations (swAsk).
			d.causal.swAsk = true
		}
		d.causal.noteLocked()
	}
	d.mu.Unlock()
	if ok && l == loader {
		d.log.Debug("settle: document loaded", "frame", string(frame))
	}
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
	c := &d.causal
	maps.DeleteFunc(c.navs, func(k navKey, _ time.Time) bool { return k.sid == sid })
	delete(c.targets, sid)
	maps.DeleteFunc(c.responses, func(k respKey, _ respVal) bool { return k.sid == sid })
	maps.DeleteFunc(c.loads, func(k loadKey, _ loadVal) bool { return k.sid == sid })
	maps.DeleteFunc(c.caused, func(k loadKey, _ causedLoad) bool { return k.sid == sid })
	maps.DeleteFunc(c.actNavs, func(k frameKey, _ actNav) bool { return k.sid == sid })
	maps.DeleteFunc(c.chainOpen, func(k frameKey, _ time.Time) bool { return k.sid == sid })
	maps.DeleteFunc(c.landed, func(k frameKey, _ bool) bool { return k.sid == sid })
	maps.DeleteFunc(c.committed, func(k frameKey, _ proto.NetworkLoaderID) bool { return k.sid == sid })
	maps.DeleteFunc(c.undecided, func(k loadKey, _ loadVal) bool { return k.sid == sid })
	maps.DeleteFunc(c.decided, func(k loadKey, _ time.Time) bool { return k.sid == sid })
	maps.DeleteFunc(c.wloads, func(k loadKey, _ time.Time) bool { return k.sid == sid })
	delete(c.wlanded, sid)
	maps.DeleteFunc(c.unattributed, func(_ proto.NetworkRequestID, u unattributedReply) bool { return u.sid == sid })
	d.causal.noteLocked()
}

// Settle is the causal barrier after an act or a navigation. It first
// makes a round trip through the page (a zero-delay timer in the page's
// main world, so the renderer has run the handlers of the input it
// received and sent the events they caused), then waits, event-driven,
// until nothing the driver tracks is pending and a confirming round trip
// (through the page, then the browser) saw no new causal event. Pending
// are: a navigation a frame requested, scheduled or started loading
// (Page.frameRequestedNavigation, frameScheduledNavigation,
// frameStartedLoading) until the document it committed fired its load
// event (Page.lifecycleEvent "load" with the committed loader, on a
// session with lifecycle events: loadFired) or it stops loading or is
// cleared, which includes a navigation blocked by the origin scope (it
// commits an error page; a cleared scheduled navigation ends the
// request, not the load);
// a subresource request (image, script, stylesheet) of a page or frame,
// as its renderer reports it, until the interceptor paused it or its
// load ended (causal.undecided: the pause is not ordered by the round
// trip through the page, the renderer's report is);
// a target attached (popup, frame, worker) until its interception
// is installed and it runs, and a popup until its first document stopped
// loading or it closed; a paused request until its reply is sent; a
// fetch or XHR request let through until its response arrives (paused
// again at the response stage); a fetch or XHR load of a page or frame,
// as its renderer reports it (causal.loads), until the renderer has the
// body or the load failed, and then a DOM-quiet check of its frame
// (domQuiet: the page handled the data when its document stopped
// mutating, bounded by settleDOMBound); and for settleQuiet after the
// reply to a document or script request, or to a fetch or XHR of a
// target whose loads are not reported (the one link of a chain no round
// trip orders: the page gets the response on its own channel), except a
// document reply for a loading frame, whose load holds the barrier
// instead (repliedLocked).
// The page's workers are followed as its own loads are: a dedicated,
// shared or service worker until it is set up and its script loaded; a
// fetch or XHR it reports on its own session (causal.wloads) until it
// ended, then a worker check (workerQuiet) and a DOM-quiet check of the
// document it serves; a service worker version being installed or
// activated (causal.sw, and causal.swHint from the page's answer after
// its load); each worker's follow-up bounded per Settle (checkLanded).
// The confirming round trips also go through every running dedicated and
// shared worker (workersRoundTrip).
// Causal events also include a download beginning, a frame committing
// and a native dialog opening.
//
// Event-ended waits: every pending state above ends on a Chromium event
// (or the driver's own reply), and the round trips are ordered by the
// page's and the browser's own channels; each is fenced through the
// event loop (dispatched), so every event that came before its answer
// has been dispatched when Settle reads the causal state. Bounded waits, where no event
// exists: settleQuiet after a document or script reply (no event says
// the script ran or what it started without the Debugger domain, and
// the teller flow never pays it), the DOM-quiet check (settleDOMQuiet,
// bounded by settleDOMBound: no event says the page handled data it
// received), and settleCap over everything. A frame's load used to end
// only at Page.frameStoppedLoading, which Chromium sends 10-20 ms after
// the load event on a loaded machine; the load event ends it now, and
// a frameStoppedLoading that ends nothing is no causal event, so it no
// longer sends the confirming round trips round again (issue 21).
// There is no fixed quiet time: a page that only re-renders (a
// controlled input, a time-sliced render) and fetched nothing settles
// after the round trips.
// A dialog ends Settle at once with [runtime.ErrNativeDialog]. Settle
// returns nil at settleCap even when something is still pending (a page
// that never stops loading); the runtime's later waits keep draining
// violations. The one exception is a fetch or XHR the act caused
// (causal.caused: started by the act's input before the first round
// trip, or by the page's handling of such a request's answer) that has
// no response headers yet: the cap does not apply to it, Settle waits
// for its answer and then a whole cap for its handling, and when ctx
// ends first (or runtime.MaxActionTimeout passes) it fails with
// [runtime.ErrActPending], never nil: the act's outcome is unknown.
// A navigation the act asked for in its own frame (causal.actNavs) is
// held the same way while the frame is still navigating and has not
// committed the new document (inflightLocked).
// So does a Settle after an act that asked its frame to navigate (a
// form submission, a link) when the page removed that frame before the
// new document committed (Page.frameDetached, reason "remove"): the
// navigation and whatever it was to send went with the frame
// (causal.actNavs).
func (d *Driver) Settle(ctx context.Context) error {
	err := d.settle(ctx)
	// Only the act's own Settle judges its navigations: one that never
	// commits (a 204, a download) is forgotten here.
	d.mu.Lock()
	lost := d.causal.navLost
	d.causal.navLost = ""
	clear(d.causal.actNavs)
	unserved := d.causal.takeUnservedLocked()
	d.mu.Unlock()
	if unserved != "" && (err == nil || errors.Is(err, context.DeadlineExceeded) && interruption(ctx) == nil) {
		// The act's load was refused with a status pages retry, or
		// lost without an answer, and no retry succeeded before the
		// waits (or ctx) ran out: what the page shows may be its
		// optimistic render of a change the server never made, or the
		// data it showed before the act.
		return fmt.Errorf("%w: %s", runtime.ErrActPending, unserved)
	}
	if err != nil {
		return err
	}
	if lost != "" {
		return fmt.Errorf("%w: the page removed the frame the act navigated (%s) before its new document committed; what the navigation was to send may never have gone", runtime.ErrActPending, lost)
	}
	return nil
}

// settle is Settle without the check of a navigation lost with its
// frame.
func (d *Driver) settle(ctx context.Context) error {
	cctx, done, err := d.begin(ctx)
	if err != nil {
		return err
	}
	defer done()
	start := time.Now()
	// The follow bounds are this Settle's only: between two Settles
	// (an act's own message to a worker) every worker load is followed.
	d.mu.Lock()
	clear(d.causal.follow)
	clear(d.causal.followBy)
	d.mu.Unlock()
	defer func() {
		d.mu.Lock()
		clear(d.causal.follow)
		clear(d.causal.followBy)
		clear(d.causal.later)
		clear(d.causal.asks)
		d.mu.Unlock()
	}()
	deadline := start.Add(settleCap)
	rctx, cancel := context.WithDeadline(cctx, deadline)
	defer func() { cancel() }()
	// extend moves the cap to at least to (an act-caused load holds the
	// barrier past it, and its handling gets a whole cap after it).
	extend := func(to time.Time) {
		if to.After(deadline) {
			deadline = to
			cancel()
			rctx, cancel = context.WithDeadline(cctx, deadline)
		}
	}
	err = d.roundTrip(rctx)
	if err == nil {
		// What the renderer reported before the answer is dispatched
		// (a fetch the click's handler started): it is the act's.
		err = d.dispatched(rctx)
	}
	d.mu.Lock()
	// The act's input has been handled: the loads it started are
	// reported (causal.caused); later ones are not its own.
	d.causal.actOpen = false
	nloads := len(d.causal.loads)
	d.mu.Unlock()
	d.log.Debug("settle: first round trip", "loads", nloads)
	if c := interruption(cctx); c != nil {
		return d.fail(cctx, "settle", c)
	}
	if err != nil && cctx.Err() != nil {
		return d.fail(cctx, "settle", cctx.Err())
	}
	// holding is the URL of the act-caused load the barrier holds for
	// past the cap, if any; ended is the error when ctx ended meanwhile.
	holding, wasHeld := "", false
	ended := func(err error) error {
		if holding != "" && errors.Is(err, context.DeadlineExceeded) && interruption(cctx) == nil {
			return fmt.Errorf("%w: %s had no answer after %s", runtime.ErrActPending, holding, time.Since(start).Round(time.Millisecond))
		}
		return d.fail(cctx, "settle", err)
	}
	// Pending work older than one cap (a frame that never stops loading)
	// does not hold this barrier.
	stale := start.Add(-settleCap)
	timer := time.NewTimer(settleCap)
	defer timer.Stop()
	wait := func(changed <-chan struct{}, d time.Duration) error {
		if !timer.Stop() {
			select {
			case <-timer.C:
			default:
			}
		}
		timer.Reset(d)
		select {
		case <-changed:
		case <-timer.C:
		case <-cctx.Done():
			return cctx.Err()
		}
		return nil
	}
	for {
		d.mu.Lock()
		d.causal.expireUnattributedLocked(time.Now())
		pending := d.causal.pendingLocked(stale)
		url, held := d.causal.inflightLocked()
		seq, changed, chainUntil := d.causal.seq, d.causal.changed, d.causal.chainUntil
		laterUntil := d.causal.laterUntilLocked()
		d.mu.Unlock()
		now := time.Now()
		if now.Before(laterUntil) {
			// An act-caused load was answered with a status pages retry,
			// or the act filled a search field: wait for the request the
			// page sends after its backoff or debounce (followed as the
			// act's own load) or the end of the wait.
			extend(laterUntil.Add(settleCap))
			if laterUntil.After(chainUntil) {
				chainUntil = laterUntil
			}
		}
		switch {
		case held && !now.Before(start.Add(runtime.MaxActionTimeout)):
			// A ctx without a deadline: the longest action timeout.
			holding = url
			return ended(context.DeadlineExceeded)
		case held:
			// Never judged while the act's request is in flight: the
			// cap does not apply, ctx bounds the wait.
			if !wasHeld && !now.Before(start.Add(settleCap)) {
				d.mu.Lock()
				d.causal.held++
				d.mu.Unlock()
				d.log.Debug("settle: holding past the cap for what the act caused", "awaiting", url)
				wasHeld = true
			}
			holding = url
			extend(now.Add(settleCap))
		case holding != "":
			// Answered: its handling gets a whole cap.
			holding = ""
			extend(now.Add(settleCap))
		}
		if !now.Before(deadline) {
			d.mu.Lock()
			c := &d.causal
			c.capped++
			d.log.Debug("settle cap reached", "pending", pending, "paused", len(c.paused), "navs", len(c.navs), "targets", len(c.targets),
				"responses", len(c.responses), "loads", len(c.loads), "undecided", len(c.undecided), "worker_loads", len(c.wloads),
				"sw", len(c.sw), "sw_hint", !c.swHint.IsZero())
			d.mu.Unlock()
			return nil
		}
		if pending || now.Before(chainUntil) {
			until := deadline
			if !pending && chainUntil.Before(deadline) {
				until = chainUntil
			}
			if !pending {
				d.mu.Lock()
				d.causal.chainWaits++
				d.mu.Unlock()
			}
			if err := wait(changed, until.Sub(now)); err != nil {
				return ended(err)
			}
			continue
		}
		// Data a fetch or XHR brought has reached the renderer, or a
		// worker's: wait until the worker has handled it and the page
		// has handled what it got (its document stopped mutating), then
		// look again (the handling may have started more work).
		if d.checkLanded(rctx) {
			if c := interruption(cctx); c != nil {
				return d.fail(cctx, "settle", c)
			}
			if cctx.Err() != nil {
				return d.fail(cctx, "settle", cctx.Err())
			}
			continue
		}
		// Nothing pending: confirm that nothing arrived meanwhile, through
		// the page (its queued tasks ran), its workers (they handled
		// what the page posted them) and the browser (it sent every
		// event it had before answering).
		d.mu.Lock()
		ask := d.causal.swAsk
		d.causal.swAsk = false
		d.mu.Unlock()
		var err error
		if ask {
			err = d.roundTripSW(rctx)
		} else {
			err = d.roundTrip(rctx)
		}
		if err == nil {
			d.workersRoundTrip(rctx)
			err = d.browserRoundTrip(rctx)
		}
		if err == nil {
			// Every event sent before the answers is counted in seq.
			err = d.dispatched(rctx)
		}
		if c := interruption(cctx); c != nil {
			return d.fail(cctx, "settle", c)
		}
		if cctx.Err() != nil {
			return d.fail(cctx, "settle", cctx.Err())
		}
		d.mu.Lock()
		d.causal.expireUnattributedLocked(time.Now())
		pending = d.causal.pendingLocked(stale)
		events := d.causal.seq - seq
		d.mu.Unlock()
		if events == 0 && !pending {
			d.log.Debug("settle: done", "elapsed", time.Since(start))
			return nil
		}
		d.log.Debug("settle: again", "events", events, "pending", pending)
		if err != nil && rctx.Err() != nil {
			d.mu.Lock()
			d.causal.capped++
			d.mu.Unlock()
			return nil // the cap
		}
	}
}

// checkLanded runs the checks of what landed since the last look: a
// worker check (workerQuiet) of every worker with a load ended or a
// script loaded, then a DOM-quiet check of every frame whose fetch or
// XHR load ended, of the document each such worker serves and, after a
// service worker the barrier waited for was activated, of the page. It
// reports whether it checked anything.
//
// causal.follow is the Settle's bound per worker: the first load of a
// worker reported during a Settle sets it to settleDOMBound after that,
// and its first load that ended and its first check each push it to
// settleDOMBound after them; a load the worker sent later holds nothing,
// is no causal event and is not checked, so a worker that polls back to
// back holds one Settle for its first polls and that bound, never to the
// cap.
func (d *Driver) checkLanded(ctx context.Context) bool {
	d.mu.Lock()
	frames := d.causal.landed
	if len(frames) > 0 {
		d.causal.landed = map[frameKey]bool{}
	}
	workers := d.causal.wlanded
	if len(workers) > 0 {
		d.causal.wlanded = map[proto.TargetSessionID]wland{}
	}
	sw := d.causal.swLanded
	d.causal.swLanded = false
	// A service worker attached twice (browser-wide and to the page)
	// is checked once.
	seen := map[proto.TargetTargetID]bool{}
	var check []proto.TargetSessionID
	docs := maps.Clone(frames)
	for sid, w := range workers {
		t := d.targets[sid]
		if t == nil || !d.causal.followedLocked(sid, w.at) {
			continue
		}
		if w.load {
			d.causal.pushFollowLocked(sid, true)
		}
		if !seen[t.id] {
			seen[t.id] = true
			check = append(check, sid)
		}
		if k, ok := d.ownerLocked(t); ok {
			docs[k] = true
		}
	}
	if sw {
		if k, ok := d.ownerLocked(nil); ok {
			docs[k] = true
		}
	}
	d.mu.Unlock()
	if len(check) == 0 && len(docs) == 0 {
		return false
	}
	for _, sid := range check {
		d.workerQuiet(ctx, sid)
	}
	for k := range docs {
		d.domQuiet(ctx, k)
	}
	// The frames' handling of the act's data has been checked: what
	// they send from now on is no longer caused by it.
	d.mu.Lock()
	for k := range frames {
		delete(d.causal.chainOpen, k)
	}
	d.mu.Unlock()
	return true
}

// ownerLocked names the document a worker target serves: a dedicated
// worker's, the frame that created it (its parent session and frame, or
// for a worker of a worker, that worker's); a shared or service worker,
// or nil, the driver's page.
func (d *Driver) ownerLocked(t *target) (frameKey, bool) {
	if t != nil && t.owner.sid != "" {
		return t.owner, true
	}
	if d.pageSID == "" || d.pageTarget == "" {
		return frameKey{}, false
	}
	return frameKey{d.pageSID, proto.PageFrameID(d.pageTarget)}, true
}

// workerQuietScript resolves after settleDOMQuiet of the worker's own
// time: its tasks run in order, so the handling of data it already has
// (parsing, aggregating, posting the result to the page) runs before this
// timer fires, however long that takes.
var workerQuietScript = `new Promise(r => setTimeout(r, ` + strconv.Itoa(int(settleDOMQuiet/time.Millisecond)) + `))`

// workerQuiet is the worker check: a timer through worker session sid
// (workerQuietScript), bounded by settleDOMBound. A fetch the worker
// started meanwhile was reported on the same session before the answer,
// so the barrier waits for it; what the worker posted to the page was
// posted before the answer, so the page's DOM-quiet check that follows
// sees it handled. It is best effort: a worker gone meanwhile has nothing
// left to post.
func (d *Driver) workerQuiet(ctx context.Context, sid proto.TargetSessionID) {
	wctx, cancel := context.WithTimeout(ctx, settleDOMBound)
	defer cancel()
	var res proto.RuntimeEvaluateResult
	err := d.call(wctx, sid, proto.RuntimeEvaluate{
		Expression:   workerQuietScript,
		AwaitPromise: true,
		Silent:       true,
	}, &res)
	d.mu.Lock()
	d.causal.workerChecks++
	d.mu.Unlock()
	d.log.Debug("settle: worker check", "err", err)
}

// domQuietScript resolves once the document has gone settleDOMQuiet
// without a DOM mutation (childList, attributes or character data
// anywhere in it, observed from its first timer on), or settleDOMBound
// after it began; it answers whether the document was quiet.
var domQuietScript = `new Promise(resolve => {
  const quiet = ` + strconv.Itoa(int(settleDOMQuiet/time.Millisecond)) + `, bound = ` + strconv.Itoa(int(settleDOMBound/time.Millisecond)) + `;
  const start = performance.now();
  let last = start;
  const mo = new MutationObserver(() => { last = performance.now(); });
  mo.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  const tick = () => {
    const now = performance.now();
    if (now - last >= quiet || now - start >= bound) {
      mo.disconnect();
      resolve(now - last >= quiet);
      return;
    }
    setTimeout(tick, Math.max(1, Math.min(quiet - (now - last), bound - (now - start))));
  };
  setTimeout(tick, 0);
})`

// domQuiet waits, in an isolated world of frame k, until its document
// has stopped mutating (domQuietScript). It is best effort: a frame gone
// or replaced meanwhile has nothing left to handle the data (a new
// document is a navigation the barrier tracks), and the cap ends it.
func (d *Driver) domQuiet(ctx context.Context, k frameKey) {
	var w proto.PageCreateIsolatedWorldResult
	if err := d.call(ctx, k.sid, proto.PageCreateIsolatedWorld{FrameID: k.frame, WorldName: settleWorld}, &w); err != nil {
		d.log.Debug("settle: no DOM-quiet check", "frame", string(k.frame), "err", err)
		return
	}
	var res proto.RuntimeEvaluateResult
	err := d.call(ctx, k.sid, proto.RuntimeEvaluate{
		Expression:    domQuietScript,
		ContextID:     w.ExecutionContextID,
		AwaitPromise:  true,
		ReturnByValue: true,
		Silent:        true,
	}, &res)
	quiet := err == nil && res.ExceptionDetails == nil && res.Result != nil && res.Result.Value.Bool()
	d.mu.Lock()
	d.causal.domChecks++
	if err == nil && res.ExceptionDetails == nil && !quiet {
		d.causal.domBounded++
	}
	d.mu.Unlock()
	d.log.Debug("settle: DOM-quiet check", "frame", string(k.frame), "quiet", quiet, "err", err)
}

// swInstallingScript is the round trip's timer, then the page's answer
// whether a service worker registration of its origin has no active
// worker yet or is activating it (a first install in progress: the page
// typically waits for it before it fetches its data). getRegistrations
// goes to the browser on the same channel as the page's own register
// call, so a registration the page has started is known by then.
const swInstallingScript = `new Promise(r => setTimeout(r, 0)).then(() => {
  let c;
  try { c = navigator.serviceWorker; } catch (e) { return false; } // an opaque origin
  if (!c || !c.getRegistrations) return false;
  return c.getRegistrations().then(rs => rs.some(r => !r.active || r.active.state === "activating"), () => false);
})`

// roundTripSW is roundTrip, once after the page's top document loaded,
// with the service worker question (swInstallingScript): a registration
// being installed holds the barrier (causal.swHint) until the browser
// reports its version. It runs in the page's main world like roundTrip;
// a page that replaced getRegistrations only answers for itself.
func (d *Driver) roundTripSW(ctx context.Context) error {
	var res proto.RuntimeEvaluateResult
	err := d.call(ctx, d.pageSID, proto.RuntimeEvaluate{
		Expression:    swInstallingScript,
		AwaitPromise:  true,
		ReturnByValue: true,
		Silent:        true,
	}, &res)
	if err != nil && isStaleError(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if res.ExceptionDetails != nil {
		return errors.New(exceptionText(res.ExceptionDetails))
	}
	if res.Result != nil && res.Result.Value.Bool() {
		d.mu.Lock()
		d.causal.swHint = time.Now()
		d.causal.noteLocked()
		d.mu.Unlock()
		d.log.Debug("settle: service worker installing")
	}
	return nil
}

// workersRoundTrip runs a zero-delay timer through every running
// dedicated and shared worker of the driver's context, in parallel, each
// bounded by settleDOMBound: a message the page posted to a worker (a
// click that asks the worker for data) was queued before the timer, so a
// fetch the worker started handling it was reported on the worker's
// session before the answer. A page without workers pays nothing.
// Service workers are left out: the page reaches them through its own
// fetches, which the barrier follows, and a timer would keep an idle one
// running.
func (d *Driver) workersRoundTrip(ctx context.Context) {
	d.mu.Lock()
	seen := map[proto.TargetTargetID]bool{}
	var sids []proto.TargetSessionID
	for sid, t := range d.targets {
		if t.kind == kindWorker && (t.typ == targetTypeWorker || t.typ == targetTypeSharedWorker) && t.setUp && t.scriptLoaded && !seen[t.id] {
			seen[t.id] = true
			sids = append(sids, sid)
		}
	}
	d.mu.Unlock()
	if len(sids) == 0 {
		return
	}
	wctx, cancel := context.WithTimeout(ctx, settleDOMBound)
	defer cancel()
	done := make(chan struct{}, len(sids))
	for _, sid := range sids {
		go func() {
			_ = d.call(wctx, sid, proto.RuntimeEvaluate{Expression: `new Promise(r => setTimeout(r, 0))`, AwaitPromise: true, Silent: true}, nil)
			done <- struct{}{}
		}()
	}
	for range sids {
		<-done
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

// socketEvent follows a WebSocket of the page or frame target of session
// sid, whose main frame is frame (causal.asks): a message sent while the
// act window is open makes Settle wait for the server's next message on
// that socket; that message, or the socket's end, ends the wait.
func (d *Driver) socketEvent(sid proto.TargetSessionID, frame proto.PageFrameID, id proto.NetworkRequestID, method string) {
	k := loadKey{sid, id}
	d.mu.Lock()
	var asked, ended bool
	switch method {
	case "Network.webSocketFrameSent":
		asked = d.causal.wsSentLocked(k, frame)
	case "Network.webSocketFrameReceived":
		ended = d.causal.wsAnsweredLocked(k, true)
	default:
		ended = d.causal.wsAnsweredLocked(k, false)
	}
	d.mu.Unlock()
	switch {
	case asked:
		d.log.Debug("settle: the act sent a WebSocket message", "socket", string(id))
	case ended:
		d.log.Debug("settle: WebSocket answered", "socket", string(id), "event", method)
	}
}
