package browser

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
)

// pollingSite serves a page that, from afterMS ms after its load event,
// polls one URL every everyMS ms (at most most times) while each poll
// takes 150 ms: Chromium serializes same-URL GETs (the cache lock),
// so the document builds a backlog of requests it started but the
// network has not yet sent, and they go on being sent (and paused by the
// interceptor) after the document is gone.
func pollingSite(t *testing.T, polls *atomic.Int64, afterMS, everyMS, most int) *httptest.Server {
	t.Helper()
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprintf(w, `<!doctype html><title>Polling</title><p>Live</p><p id=n></p><script>
let answered = 0, started = 0;
const poll = () => started++ < %d && fetch("/poll").then(() => {
  if (++answered == 3) document.getElementById("n").textContent = "Polled 3 times";
}).catch(() => {});
addEventListener("load", () => setTimeout(() => setInterval(poll, %d), %d));
</script>`, most, everyMS, afterMS)
		case "/static":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, `<!doctype html><link rel=icon href="data:,"><title>Static</title><p>Previous site</p>`)
		case "/poll":
			polls.Add(1)
			answerAfter(w, r, 150*time.Millisecond)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(site.Close)
	return site
}

// TestEarlierScopeRequestsNotViolations: a driver reused for a run on
// another site must not charge the new run with the requests of the
// previous run's document. The polling page's backlog is sent after the
// page has gone (and after a new scope is installed); those requests are
// blocked (the old origin is outside the new scope) but are not the new
// run's: recording them failed a clean run with ~30 subresource
// violations of an origin it never loaded. A document loaded under the
// new scope that reaches the old origin is still recorded (the control).
func TestEarlierScopeRequestsNotViolations(t *testing.T) {
	for _, blank := range []bool{true, false} {
		t.Run(fmt.Sprintf("blank=%v", blank), func(t *testing.T) {
			d := shared(t)
			ctx := tctx(t, 60*time.Second)
			var polls atomic.Int64
			a := pollingSite(t, &polls, 0, 10, 1e6)
			var bHits atomic.Int64
			b := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				bHits.Add(1)
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				fmt.Fprint(w, `<!doctype html><title>Other</title><p>Other site</p>`)
			}))
			t.Cleanup(b.Close)

			if err := d.RestrictOrigins(ctx, runtime.OriginScope{Allowed: []string{a.URL}}); err != nil {
				t.Fatal(err)
			}
			if err := d.Navigate(ctx, a.URL+"/"); err != nil {
				t.Fatal(err)
			}
			// Let the backlog build: polls start every 10 ms, the
			// network sends one each 150 ms.
			for polls.Load() < 4 {
				if ctx.Err() != nil {
					t.Fatal("the page did not poll")
				}
				time.Sleep(20 * time.Millisecond)
			}
			if vs, _ := d.Violations(ctx); len(vs) != 0 {
				t.Fatalf("violations under the page's own scope: %v", vs)
			}
			stale := d.staleBlockedCount()
			// The next run, on the other site.
			if blank {
				if err := d.Navigate(ctx, "about:blank"); err != nil {
					t.Fatal(err)
				}
			}
			visitScoped(t, ctx, d, b.URL)
			// The backlog is sent over the next few hundred ms; wait
			// until some of it was blocked (at most 5 s).
			deadline := time.Now().Add(5 * time.Second)
			for d.staleBlockedCount() == stale && time.Now().Before(deadline) {
				time.Sleep(20 * time.Millisecond)
			}
			vs, err := d.Violations(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if len(vs) != 0 {
				t.Errorf("%d violations charged to the run on %s for the previous document's requests: %v", len(vs), b.URL, vs[:min(len(vs), 3)])
			}
			if d.staleBlockedCount() == stale {
				t.Errorf("no request of the previous document was blocked after the new scope: the case did not happen")
			}
			// The control: the new document reaching the old origin is
			// recorded.
			var ok bool
			obsEval(t, ctx, d, fmt.Sprintf(`fetch(%q).catch(() => {}), true`, a.URL+"/x"), &ok)
			_ = ok
			vctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			defer cancel()
			if !violationSeen(vctx, d, runtime.ViolationSubresource) {
				t.Errorf("the new document's fetch of %s was not recorded as a violation", a.URL)
			}
		})
	}
}

// answerAfter answers "ok" after d, or nothing when the client gave up
// first.
func answerAfter(w http.ResponseWriter, r *http.Request, d time.Duration) {
	select {
	case <-time.After(d):
		fmt.Fprint(w, "ok")
	case <-r.Context().Done():
	}
}

// visitScoped installs a scope of origin alone, loads its "/" and
// settles.
func visitScoped(t *testing.T, ctx context.Context, d *Driver, origin string) {
	t.Helper()
	if err := d.RestrictOrigins(ctx, runtime.OriginScope{Allowed: []string{origin}}); err != nil {
		t.Fatal(err)
	}
	if err := d.Navigate(ctx, origin+"/"); err != nil {
		t.Fatal(err)
	}
	if err := d.Settle(ctx); err != nil {
		t.Fatal(err)
	}
}

// violationSeen waits for a violation of kind to be recorded.
func violationSeen(ctx context.Context, d *Driver, kind runtime.ViolationKind) bool {
	for {
		vs, err := d.Violations(ctx)
		if err != nil {
			return false
		}
		for _, v := range vs {
			if v.Kind == kind {
				return true
			}
		}
		select {
		case <-ctx.Done():
			return false
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// TestBackForwardRestoreRecorded: a page of the next run's site that
// goes back in history is restored from the back-forward cache, from
// memory, with no request for the interceptor or the gate to block; the
// driver showed the previous run's origin with nothing recorded (its
// icon is a data: URL, so no request of it was sent either; the
// runtime's check of the page's origin after each act caught it, as
// top_level_origin). The commit of a document outside the scope is
// recorded as a navigation violation (fails without it: checked).
func TestBackForwardRestoreRecorded(t *testing.T) {
	t.Parallel()
	d := shared(t)
	ctx := tctx(t, 60*time.Second)
	var aHits atomic.Int64
	mk := func(name string, hits *atomic.Int64) *httptest.Server {
		s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if hits != nil {
				hits.Add(1)
			}
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprintf(w, `<!doctype html><link rel=icon href="data:,"><title>%s</title><p>%s</p>`, name, name)
		}))
		t.Cleanup(s.Close)
		return s
	}
	a, b := mk("A", &aHits), mk("B", nil)
	visitScoped(t, ctx, d, a.URL)
	visitScoped(t, ctx, d, b.URL)
	if vs, _ := d.Violations(ctx); len(vs) != 0 {
		t.Fatalf("violations before going back: %v", vs)
	}
	var s string
	obsEval(t, ctx, d, `history.back(), "x"`, &s)
	// The restore, or a blocked navigation's error page.
	for s != "A" && ctx.Err() == nil {
		time.Sleep(20 * time.Millisecond)
		obsEval(t, ctx, d, `document.title`, &s)
		if s == "" { // an error page
			break
		}
	}
	restored := s == "A"
	t.Logf("restored from the back-forward cache: %v (A served %d times)", restored, aHits.Load())
	if !restored {
		t.Fatalf("the page was not restored from the back-forward cache (title %q): the case did not happen", s)
	}
	vctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if !violationSeen(vctx, d, runtime.ViolationNavigation) {
		t.Errorf("the page shows %s outside the scope and no navigation violation was recorded", a.URL)
	}
}

// TestSubresourceReferrerRecorded: the Referer rule that excuses an
// earlier scope's requests (scopeEpochs) must not excuse a resource of the
// current scope: a stylesheet from a subresource-only origin whose
// url() reaches outside the scope carries the stylesheet's URL as its
// Referer, an origin the scope permits (for subresources), so the
// blocked image is recorded.
func TestSubresourceReferrerRecorded(t *testing.T) {
	t.Parallel()
	d := shared(t)
	ctx := tctx(t, 60*time.Second)
	var outHits atomic.Int64
	out := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { outHits.Add(1) }))
	t.Cleanup(out.Close)
	css := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/css")
		fmt.Fprintf(w, `body { background: url(%s/img.png) }`, out.URL)
	}))
	t.Cleanup(css.Close)
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><link rel=icon href="data:,"><link rel=stylesheet href="%s/style.css"><title>Styled</title><p>Styled</p>`, css.URL)
	}))
	t.Cleanup(page.Close)
	if err := d.RestrictOrigins(ctx, runtime.OriginScope{Allowed: []string{page.URL}, Subresources: []string{css.URL}}); err != nil {
		t.Fatal(err)
	}
	if err := d.Navigate(ctx, page.URL+"/"); err != nil {
		t.Fatal(err)
	}
	vctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if !violationSeen(vctx, d, runtime.ViolationSubresource) {
		t.Errorf("the stylesheet's image outside the scope was not recorded (excused: %d)", d.staleBlockedCount())
	}
	if n := outHits.Load(); n != 0 {
		t.Errorf("the outside server was reached %d times", n)
	}
}

// reuseSites are the two sites of the scope-reuse runs: a, whose "/"
// polls (pollingSite: from 300 ms after its load, when the barrier has
// let go, like a dashboard's timer) and whose "/static" is a plain page;
// b, whose page has a Back button (history.back()). A round needs its
// own: the polls a's page leaves are sent (and served) under the scope
// of the run on a's static page, and a next round's polls on the same
// URL would queue behind them.
type reuseSites struct{ a, b *httptest.Server }

func newReuseSites(t *testing.T) reuseSites {
	var polls atomic.Int64
	a := pollingSite(t, &polls, 300, 10, 1e6)
	b := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><link rel=icon href="data:,"><title>Other</title><p>Other site</p><button onclick="history.back()">Back</button>`)
	}))
	t.Cleanup(b.Close)
	return reuseSites{a, b}
}

// scopeReuseProblems runs, on one driver, a capability on a's polling
// page (until 3 polls were answered, the rest queued), one on b (which must complete clean: the polls the previous
// page left are not its), one on a's static page, and one on b that
// clicks Back, which restores a's page from the back-forward cache: the
// run must fail as a blocked navigation, never complete on a page
// outside its scope.
func scopeReuseProblems(t *testing.T, ctx context.Context, d runtime.Driver, s reuseSites, run func(*capability.Capability) *runtime.Result) []string {
	wait := func(id, text string) capability.Action {
		return capability.Action{ID: id, Operation: capability.OpWait, Intent: "see " + text, Effect: capability.EffectReadOnly,
			Confirmation: capability.ConfirmNone, Postcondition: textCond(text)}
	}
	var p []string
	if res := run(barrierCap(s.a.URL, "/", wait("polled", "Polled 3 times"))); res.State != runtime.StateCompleted || !res.Clean {
		p = append(p, "polling run: "+summarize(res))
	}
	if res := run(barrierCap(s.b.URL, "/", wait("other", "Other site"))); res.State != runtime.StateCompleted || !res.Clean || res.BlockedRequests != 0 {
		p = append(p, "the run after the polling page was charged with its requests: "+summarize(res))
	}
	if res := run(barrierCap(s.a.URL, "/static", wait("static", "Previous site"))); res.State != runtime.StateCompleted || !res.Clean {
		p = append(p, "static run: "+summarize(res))
	}
	back := barrierCap(s.b.URL, "/", barrierClick("back", capability.EffectReadOnly, textCond("Previous site"), role("button", "Back")))
	res := run(back)
	if res.State == runtime.StateCompleted || res.Clean {
		p = append(p, "the run went back to a page outside its scope and was reported "+summarize(res))
	} else if res.Failure == nil || res.Failure.Category != receipt.CategoryOriginNotAllowed ||
		(res.Failure.Reason != string(runtime.ReasonNavigationBlocked) && res.Failure.Reason != string(runtime.ReasonTopLevelOrigin)) {
		// The driver records the restored document's commit
		// (navigation_blocked); the runtime's check of the page's
		// origin after the act (top_level_origin) is the second layer.
		p = append(p, "want failed origin_not_allowed after going back: "+summarize(res))
	}
	return p
}

// TestReusedDriverScopes: runs of capabilities on two sites, in turn, on
// one launched driver (scopeReuseProblems).
func TestReusedDriverScopes(t *testing.T) {
	t.Parallel()
	d := shared(t)
	run := func(c *capability.Capability) *runtime.Result {
		start := time.Now()
		res := execute(t, tctx(t, 60*time.Second), d, c, nil)
		t.Logf("%s %s: %s in %v", c.Site.AllowedOrigins[0], c.Runtime.Start, describeResult(res), time.Since(start).Round(time.Millisecond))
		return res
	}
	for i := range 3 {
		if p := scopeReuseProblems(t, tctx(t, 60*time.Second), d, newReuseSites(t), run); len(p) > 0 {
			t.Errorf("round %d: %v", i+1, p)
		}
	}
}

// TestStressScopeReuse: TestReusedDriverScopes' runs on a saturated CPU.
func TestStressScopeReuse(t *testing.T) {
	n := stressIterations(t)
	d := stressLaunch(t)
	y := &tally{t: t, name: "scope-reuse"}
	for i := 0; i < n; i++ {
		var last *runtime.Result
		run := func(c *capability.Capability) *runtime.Result {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			res, p := stressRun(t, ctx, d, c, nil)
			for _, q := range p {
				t.Logf("iteration %d: %s", i, q)
			}
			last = res
			return res
		}
		y.judge(i, last, scopeReuseProblems(t, context.Background(), d, newReuseSites(t), run))
	}
	y.done()
}

// nextSite is the next run's site of the scope tests: one page, which
// records that it was served.
type nextSite struct {
	url    string
	served atomic.Bool
}

func newNextSite(t *testing.T) *nextSite {
	n := &nextSite{}
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.served.Store(true)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><link rel=icon href="data:,"><title>B</title>`)
	}))
	t.Cleanup(s.Close)
	n.url = s.URL
	return n
}

// visitClean visits the site as the next run and wants nothing recorded.
func (n *nextSite) visitClean(t *testing.T, ctx context.Context, d *Driver) {
	t.Helper()
	visitScoped(t, ctx, d, n.url)
	if vs, _ := d.Violations(ctx); len(vs) != 0 || !n.served.Load() {
		t.Errorf("the next run's page: violations %v, served %v", vs, n.served.Load())
	}
}

// TestEarlierNavigationCommit: a navigation the previous run's page sent
// (a frame leaving for its next page, answered slowly) that commits after
// the next run's scope was installed is the previous run's: the commit
// check (commitViolationLocked) recorded it as the new run's frame
// violation. A navigation that document sends after the new scope is
// blocked and not recorded either; the next run's page then loads with
// nothing recorded. (A frame's: the top-level document's pending
// navigation RestrictOrigins stops, TestRestrictStopsPendingNavigation.)
func TestEarlierNavigationCommit(t *testing.T) {
	t.Parallel()
	d := shared(t)
	ctx := tctx(t, 60*time.Second)
	sent := make(chan struct{}, 4)
	release := make(chan struct{})
	a := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		switch r.URL.Path {
		case "/":
			fmt.Fprint(w, `<!doctype html><link rel=icon href="data:,"><title>Leaving</title><iframe src="/inner"></iframe>`)
		case "/inner":
			fmt.Fprint(w, `<!doctype html><title>Inner</title><button onclick="location.href='/next'">Next</button>`)
		case "/next":
			sent <- struct{}{}
			select {
			case <-release:
			case <-r.Context().Done():
				return
			}
			fmt.Fprint(w, `<!doctype html><title>Next</title><button onclick="location.href='/inner'">Back</button>`)
		}
	}))
	t.Cleanup(a.Close)
	b := newNextSite(t)
	visitScoped(t, ctx, d, a.URL)
	const inner = `document.querySelector("iframe").contentDocument`
	var s string
	obsEval(t, ctx, d, inner+`.querySelector("button").click(), "x"`, &s)
	select {
	case <-sent:
	case <-ctx.Done():
		t.Fatal("the navigation was not sent")
	}
	if err := d.RestrictOrigins(ctx, runtime.OriginScope{Allowed: []string{b.url}}); err != nil {
		t.Fatal(err)
	}
	close(release)
	for s != "Next" && ctx.Err() == nil {
		time.Sleep(20 * time.Millisecond)
		obsEval(t, ctx, d, inner+`.title`, &s)
	}
	if vs, _ := d.Violations(ctx); len(vs) != 0 {
		t.Errorf("the previous page's navigation, sent under its own scope, was recorded: %v", vs)
	}
	// That document is the previous run's: its own navigation now is
	// blocked (its Referer is outside the scope), not recorded.
	stale := d.staleBlockedCount()
	obsEval(t, ctx, d, inner+`.querySelector("button").click(), "x"`, &s)
	for d.staleBlockedCount() == stale && ctx.Err() == nil {
		time.Sleep(20 * time.Millisecond)
	}
	if vs, _ := d.Violations(ctx); len(vs) != 0 {
		t.Errorf("the previous run's document's navigation was recorded: %v", vs)
	}
	b.visitClean(t, ctx, d)
}

// TestRestrictStopsPendingNavigation: the previous run left the page's
// top-level document navigating to a server that never answers (an act
// whose Settle failed with ErrActPending). Chromium answers the connect
// policy's install only once that navigation has its response, so the
// next run's RestrictOrigins failed at its deadline; it stops the
// navigation first, and the next run's page loads with nothing recorded.
func TestRestrictStopsPendingNavigation(t *testing.T) {
	t.Parallel()
	d := shared(t)
	ctx := tctx(t, 60*time.Second)
	sent, release := make(chan struct{}, 4), make(chan struct{})
	a := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		switch r.URL.Path {
		case "/":
			fmt.Fprint(w, `<!doctype html><link rel=icon href="data:,"><title>Leaving</title><button onclick="location.href='/never'">Next</button>`)
		case "/never":
			sent <- struct{}{}
			select {
			case <-release:
			case <-r.Context().Done():
			}
		}
	}))
	t.Cleanup(a.Close)
	t.Cleanup(func() { close(release) })
	b := newNextSite(t)
	visitScoped(t, ctx, d, a.URL)
	var s string
	obsEval(t, ctx, d, `document.querySelector("button").click(), "x"`, &s)
	select {
	case <-sent:
	case <-ctx.Done():
		t.Fatal("the navigation was not sent")
	}
	rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	start := time.Now()
	err := d.RestrictOrigins(rctx, runtime.OriginScope{Allowed: []string{b.url}})
	cancel()
	if err != nil {
		t.Fatalf("RestrictOrigins = %v after %s, with the previous page's navigation pending", err, time.Since(start).Round(time.Millisecond))
	}
	b.visitClean(t, ctx, d)
}
