package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/cdp"
	"github.com/go-rod/rod/lib/proto"
	"github.com/vera-run/vera/runtime"
)

// workerSite serves a page whose data a worker fetches: /data answers
// "data-<n>" after 300 ms, and the worker aggregates for 150 ms before it
// posts the text to the page, which shows it in p#out. kind is
// "dedicated", "shared" or "service":
//
//   - dedicated and shared: the button "Load" sends the worker a message;
//     the worker fetches /data, aggregates and posts the answer back.
//   - service: the page registers /sw.js (its install takes 300 ms) when
//     it loads, waits until the worker controls it, then fetches
//     /sw/data, which the service worker answers by fetching /data and
//     aggregating.
//
// /poll answers after 30 ms (at once for /poll?fast=1, which ?poll=fast
// makes the worker fetch); a page loaded with ?poll=1 has a dedicated
// worker that fetches it back to back forever and counts the answers in
// p#polls, and a button "Nothing" that does nothing.
func workerSite(t *testing.T) *httptest.Server {
	t.Helper()
	n := 0
	const busy = `var until = Date.now() + 150; while (Date.now() < until) {}`
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		wait := func(d time.Duration) bool {
			select {
			case <-time.After(d):
				return true
			case <-r.Context().Done():
				return false
			}
		}
		switch r.URL.Path {
		case "/":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, `<!doctype html><title>Workers</title><button>Load</button><button>Nothing</button><p id=out></p><p id=polls>0</p>
<script>
const kind = new URLSearchParams(location.search).get("kind");
const out = document.getElementById("out");
const show = (s) => { out.textContent = s; };
if (new URLSearchParams(location.search).get("poll")) {
  const mode = new URLSearchParams(location.search).get("poll");
  const p = new Worker(mode === "1" ? "/poll.js" : "/poll.js?fast=1");
  p.onmessage = (e) => {
    document.getElementById("polls").textContent = e.data;
  };
}
if (kind === "dedicated") {
  const w = new Worker("/worker.js");
  w.onmessage = (e) => show(e.data);
  document.querySelector("button").onclick = () => w.postMessage("go");
} else if (kind === "shared") {
  const w = new SharedWorker("/shared.js");
  w.port.onmessage = (e) => show(e.data);
  document.querySelector("button").onclick = () => w.port.postMessage("go");
} else if (kind === "service") {
  navigator.serviceWorker.register("/sw.js").then(() => navigator.serviceWorker.ready).then(() => {
    if (navigator.serviceWorker.controller) return;
    return new Promise((res) => navigator.serviceWorker.addEventListener("controllerchange", res, { once: true }));
  }).then(() => fetch("/sw/data")).then((r) => r.text()).then(show);
}
</script>`)
		case "/worker.js":
			w.Header().Set("Content-Type", "text/javascript")
			fmt.Fprint(w, `onmessage = () => fetch("/data").then((r) => r.text()).then((s) => { `+busy+` postMessage(s); });`)
		case "/shared.js":
			w.Header().Set("Content-Type", "text/javascript")
			fmt.Fprint(w, `onconnect = (c) => { const port = c.ports[0]; port.onmessage = () => fetch("/data").then((r) => r.text()).then((s) => { `+busy+` port.postMessage(s); }); };`)
		case "/sw.js":
			w.Header().Set("Content-Type", "text/javascript")
			w.Header().Set("Cache-Control", "no-store")
			fmt.Fprint(w, `self.addEventListener("install", (e) => { self.skipWaiting(); e.waitUntil(new Promise((r) => setTimeout(r, 300))); });
self.addEventListener("activate", (e) => e.waitUntil(self.clients.claim()));
self.addEventListener("fetch", (e) => {
  if (new URL(e.request.url).pathname !== "/sw/data") return;
  e.respondWith(fetch("/data").then((r) => r.text()).then((s) => { `+busy+` return new Response(s); }));
});`)
		case "/poll.js":
			w.Header().Set("Content-Type", "text/javascript")
			poll := "/poll"
			if r.URL.Query().Get("fast") != "" {
				poll = "/poll?fast=1"
			}
			fmt.Fprint(w, `let n = 0; const poll = () => fetch("`+poll+`").then((r) => r.text()).then(() => { n++; postMessage(n); poll(); }); poll();`)
		case "/data":
			if !wait(300 * time.Millisecond) {
				return
			}
			n++
			w.Header().Set("Cache-Control", "no-store")
			fmt.Fprintf(w, "data-%d", n)
		case "/poll":
			if r.URL.Query().Get("fast") == "" && !wait(30*time.Millisecond) {
				return
			}
			w.Header().Set("Cache-Control", "no-store")
			fmt.Fprint(w, "ok")
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(site.Close)
	return site
}

// TestSettleFollowsWorkers: the data a worker fetches, aggregates and
// posts to the page is on the page when Settle returns, for a dedicated
// worker and a shared worker (after the click that asks for it) and for a
// service worker the page registers and waits for (after the start
// navigation). Before, the barrier let go right after the worker's
// response arrived (dedicated: the page's interceptor saw the request and
// its response, no renderer load followed it), 60 ms after it (shared:
// the quiet window after an unfollowed reply), or while the service
// worker was still installing (nothing pending), and the page still
// showed nothing.
func TestSettleFollowsWorkers(t *testing.T) {
	t.Parallel()
	d := shared(t)
	for _, kind := range []string{"dedicated", "shared", "service"} {
		t.Run(kind, func(t *testing.T) {
			for i := range barrierRepeat(t) / 4 {
				if p := workerSettleRun(t, d, kind); len(p) > 0 {
					t.Fatalf("run %d: %s", i, strings.Join(p, "; "))
				}
			}
		})
	}
}

// workerSettleRun is one run of TestSettleFollowsWorkers on driver d:
// the problems it saw.
func workerSettleRun(t *testing.T, d *Driver, kind string) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// A new origin per run: a service worker registered by an earlier
	// run would already control the page.
	site := workerSite(t)
	defer site.Close()
	if err := d.RestrictOrigins(ctx, runtime.OriginScope{Allowed: []string{site.URL}}); err != nil {
		return []string{"RestrictOrigins: " + err.Error()}
	}
	if err := d.Navigate(ctx, site.URL+"/?kind="+kind); err != nil {
		return []string{"Navigate: " + err.Error()}
	}
	if err := d.Settle(ctx); err != nil {
		return []string{"Settle: " + err.Error()}
	}
	if kind != "service" {
		top, _, err := d.Frame(ctx, nil)
		if err != nil {
			return []string{"Frame: " + err.Error()}
		}
		els, err := d.Find(ctx, top, nil, role("button", "Load"))
		if err != nil || len(els) != 1 {
			return []string{fmt.Sprintf("Find = %d, %v", len(els), err)}
		}
		if err := d.Act(ctx, els[0], runtime.Act{Kind: runtime.ActClick}); err != nil {
			return []string{"click: " + err.Error()}
		}
		if err := d.Settle(ctx); err != nil {
			return []string{"Settle: " + err.Error()}
		}
	}
	var res struct {
		Result remoteObject `json:"result"`
	}
	if err := d.call(ctx, d.pageSID, proto.RuntimeEvaluate{Expression: `document.getElementById("out").textContent`, ReturnByValue: true}, &res); err != nil {
		return []string{"read: " + err.Error()}
	}
	var got string
	if err := json.Unmarshal(res.Result.Value, &got); err != nil || !strings.HasPrefix(got, "data-") {
		return []string{fmt.Sprintf("the page shows %s when Settle returned, want the worker's data", res.Result.Value)}
	}
	return nil
}

// TestSettleWorkerPollBound: a worker that fetches back to back forever
// holds no Settle to the cap: each worker is followed, per Settle, for
// settleDOMBound after its first checked load.
func TestSettleWorkerPollBound(t *testing.T) {
	for _, poll := range []string{"1", "fast"} {
		t.Run("poll="+poll, func(t *testing.T) { workerPollRun(t, poll, 0) })
	}
	// The worker's own session lags behind its page's (a loaded
	// machine): every poll is paused and replied to on the page's
	// session before the worker reports it. Each reply is left to that
	// report (causal.unattributed), which decides it; counted as the
	// page's at the reply, every poll past the worker's follow bound was
	// a causal event and the confirming round trips went round again
	// (how the test reached the cap in CI).
	t.Run("poll=1/worker-lags", func(t *testing.T) { workerPollRun(t, "1", 15*time.Millisecond) })
}

// lagWorkerEvents delays every event of d's worker sessions by at least
// lag in the event loop (dispatchHook), in order, as a worker whose
// DevTools messages come late; the returned func dispatches what is
// still held and removes the hook.
func lagWorkerEvents(t *testing.T, d *Driver, lag time.Duration) (stop func()) {
	type held struct {
		ev *cdp.Event
		at time.Time
	}
	var queue []held // the event loop's only
	release := func(all bool) {
		for len(queue) > 0 && (all || time.Since(queue[0].at) >= lag) {
			h := queue[0]
			queue = queue[1:]
			d.dispatch(h.ev)
		}
	}
	hook := func(ev *cdp.Event) {
		release(false)
		d.mu.Lock()
		w := d.targets[proto.TargetSessionID(ev.SessionID)]
		worker := w != nil && w.kind == kindWorker
		d.mu.Unlock()
		if worker {
			cp := *ev
			queue = append(queue, held{&cp, time.Now()})
			ev.Method = "Vera.test.held" // dispatched later, from the queue
		}
	}
	d.dispatchHook.Store(&hook)
	return func() {
		flushed := make(chan struct{})
		flush := func(ev *cdp.Event) {
			release(true)
			select {
			case <-flushed:
			default:
				close(flushed)
			}
		}
		d.dispatchHook.Store(&flush)
		select {
		case <-flushed:
		case <-time.After(5 * time.Second):
			t.Error("the held worker events were not dispatched")
		}
		d.dispatchHook.Store(nil)
	}
}

func workerPollRun(t *testing.T, poll string, lag time.Duration) {
	d := shared(t)
	ctx := tctx(t, 120*time.Second)
	site := workerSite(t)
	if err := d.RestrictOrigins(ctx, runtime.OriginScope{Allowed: []string{site.URL}}); err != nil {
		t.Fatal(err)
	}
	if err := d.Navigate(ctx, site.URL+"/?poll="+poll); err != nil {
		t.Fatal(err)
	}
	capped := func() uint64 {
		d.mu.Lock()
		defer d.mu.Unlock()
		return d.causal.capped
	}
	checks := func() uint64 {
		d.mu.Lock()
		defer d.mu.Unlock()
		return d.causal.workerChecks
	}
	capped0, checks0 := capped(), checks()
	replies := func() (deferred, expired uint64) {
		d.mu.Lock()
		defer d.mu.Unlock()
		return d.causal.deferred, d.causal.expired
	}
	deferred0, expired0 := replies()
	if lag > 0 {
		defer lagWorkerEvents(t, d, lag)()
	}
	if err := d.Settle(ctx); err != nil {
		t.Fatal(err)
	}
	top, _, err := d.Frame(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		els, err := d.Find(ctx, top, nil, role("button", "Nothing"))
		if err != nil || len(els) != 1 {
			t.Fatalf("Find = %d, %v", len(els), err)
		}
		if err := d.Act(ctx, els[0], runtime.Act{Kind: runtime.ActClick}); err != nil {
			t.Fatal(err)
		}
		if err := d.Settle(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if n := capped() - capped0; n != 0 {
		t.Errorf("%d of 6 Settle calls reached the cap with a worker polling", n)
	}
	if checks() == checks0 {
		t.Error("no worker check ran: the polling worker's loads were not followed")
	}
	if lag > 0 {
		// The page's pauses and the worker's reports name a request by
		// the same network id: the reports decided the replies, none
		// was left to expire.
		deferred, expired := replies()
		if deferred == deferred0 {
			t.Error("no reply was left to the worker's report: the lag did not put the replies first")
		}
		if expired != expired0 {
			t.Errorf("%d of %d replies left to a report got none within %s", expired-expired0, deferred-deferred0, attributionWait)
		}
	}
	var polls string
	obsEval(t, ctx, d, `document.getElementById("polls").textContent`, &polls)
	if polls == "0" {
		t.Error("the worker never polled")
	}
}

// TestSettleWorkerKindsDecided: a blob: worker, a module worker and a
// worker whose script is missing (404) are each decided for the barrier
// (set up and script loaded, or gone), so none holds a Settle to the cap.
func TestSettleWorkerKindsDecided(t *testing.T) {
	t.Parallel()
	workerKindsRun(t, shared(t))
}

func workerKindsRun(t *testing.T, d *Driver) {
	ctx := tctx(t, 60*time.Second)
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, `<!doctype html><title>Kinds</title><p id=out></p><script>
const got = [];
const note = (s) => { got.push(s); document.getElementById("out").textContent = got.sort().join(","); };
const b = new Worker(URL.createObjectURL(new Blob(["postMessage('blob')"], { type: "text/javascript" })));
b.onmessage = (e) => note(e.data);
const m = new Worker("/module.js", { type: "module" });
m.onmessage = (e) => note(e.data);
const x = new Worker("/missing.js");
x.onerror = () => note("missing");
</script>`)
		case "/module.js":
			w.Header().Set("Content-Type", "text/javascript")
			fmt.Fprint(w, `import { v } from "/dep.js"; postMessage(v);`)
		case "/dep.js":
			w.Header().Set("Content-Type", "text/javascript")
			fmt.Fprint(w, `export const v = "module";`)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(site.Close)
	if err := d.RestrictOrigins(ctx, runtime.OriginScope{Allowed: []string{site.URL}}); err != nil {
		t.Fatal(err)
	}
	if n := settlesCapped(t, ctx, d, func() error { return d.Navigate(ctx, site.URL+"/") }); n != 0 {
		t.Errorf("%d Settle calls reached the cap", n)
	}
	d.mu.Lock()
	held := len(d.causal.targets)
	d.mu.Unlock()
	if held != 0 {
		t.Errorf("%d targets still undecided", held)
	}
	var got string
	obsEval(t, ctx, d, `document.getElementById("out").textContent`, &got)
	if got != "blob,missing,module" {
		t.Errorf("the page shows %q when Settle returned, want every worker's message", got)
	}
}
