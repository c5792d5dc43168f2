package jobservice_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/vera-run/vera/examples/internal/jobservice"
	"github.com/vera-run/vera/examples/internal/jobservicetest"
	"github.com/vera-run/vera/internal/livetest"
	"github.com/vera-run/vera/internal/testsite"
	"github.com/vera-run/vera/runtime/jobs"
)

// preflight reads GET /v1/preflight.
func preflight(t *testing.T, h *jobservicetest.Harness) (int, jobservice.PreflightDoc) {
	t.Helper()
	code, raw := h.Do(http.MethodGet, "/v1/preflight", "", nil, nil)
	var d jobservice.PreflightDoc
	if err := json.Unmarshal(raw, &d); err != nil {
		t.Fatalf("preflight %d %q: %v", code, raw, err)
	}
	return code, d
}

// TestLivePoolKilledEndpoint: the service over three Chromium processes
// as its grid (connected endpoints node-0..2, one slot each), nine
// teller flows submitted over HTTP, node-1 killed (SIGKILL) while a run
// on it is in flight (its Step hook for the second action holds it
// until the kill is done, so the kill always lands mid-run). Over HTTP:
// that run ends failed browser_crashed with no answer; every other run
// passes with its member's balances (a run on a live node may time out
// on a saturated machine, at most three: logged, never an answer), and
// runs pass on both surviving nodes after the kill; none is lost; the
// preflight lists the three nodes and stays available, node-1 then
// unavailable; nothing is left busy or open (TestMain checks goroutines
// and Chromium processes).
func TestLivePoolKilledEndpoint(t *testing.T) {
	g := livetest.StartGrid(t, 3)
	site, err := testsite.StartTeller()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(site.Close)
	var eps []jobs.Endpoint
	for _, nd := range g.Nodes {
		eps = append(eps, jobs.Endpoint{Name: nd.Name, Slots: 1, Open: nd.Browser.Open, OpenViewport: nd.Browser.OpenViewport})
	}
	const kill, n = 1, 9
	v := g.Victim(kill)
	victimNode := v.Node()

	var svc *jobservice.Service
	var ready sync.WaitGroup
	ready.Add(1)
	hooks := &jobs.Hooks{Step: func(id string, p jobs.StepProgress) {
		if p.Index != 2 || p.Done {
			return
		}
		ready.Wait()
		if st, err := svc.Runner().Status(id); err == nil {
			v.At(id, st.Endpoint)
		}
	}}
	dir := t.TempDir()
	svc, err = jobservice.New(dir, nil, jobservice.WithEndpoints(eps...), jobservice.WithMaxQueued(n), jobservice.WithHooks(hooks))
	ready.Done()
	if err != nil {
		t.Fatal(err)
	}
	h := &jobservicetest.Harness{T: t, Teller: site, Dir: dir, Service: svc, Server: httptest.NewServer(svc.Handler())}
	t.Cleanup(h.Stop)

	code, pf := preflight(t, h)
	if code != http.StatusOK || !pf.Available || len(pf.Endpoints) != 3 || pf.Limits.ActiveBrowsers != 3 || !pf.Limits.Viewports ||
		pf.Report == nil || pf.Report.Browser == "" {
		t.Fatalf("preflight of the grid: %d %+v", code, pf)
	}
	for i, e := range pf.Endpoints {
		if e.Name != fmt.Sprintf("node-%d", i) || e.Slots != 1 || !e.Available || e.Error != "" || e.Browser == "" || e.CheckedAt.IsZero() {
			t.Errorf("preflight endpoint %d: %+v", i, e)
		}
	}

	type sent struct {
		acc jobservice.Accepted
		m   testsite.Member
	}
	var runs []sent
	for i := range n {
		m := testsite.TellerMembers[i%len(testsite.TellerMembers)]
		req := h.Request(m.ID)
		req.TimeoutMS = jobs.MaxRunBudget.Milliseconds()
		runs = append(runs, sent{h.MustSubmit(req), m})
	}
	kctx, kcancel := context.WithTimeout(context.Background(), 4*time.Minute)
	victim, err := v.Kill(kctx)
	kcancel()
	killAt := time.Now()
	if err != nil {
		t.Fatal(err)
	}

	passedAfter := map[string]int{}
	soft := 0
	for _, r := range runs {
		d := h.Wait(r.acc.ID, r.acc.Token)
		what := fmt.Sprintf("run for member %s on %s: status %s error %v terminal %s category %s reason %s outputs %v",
			r.m.ID, d.Endpoint, d.Status, d.Error, d.Terminal, d.Category, d.Reason, d.Outputs)
		switch {
		case r.acc.ID == victim:
			if d.Status != jobs.StateFailed || d.Error == nil || *d.Error != jobs.CodeBrowserCrashed || len(d.Outputs) != 0 ||
				d.Endpoint != victimNode {
				t.Errorf("MISREPORT: the killed node's run: %s", what)
			}
		case d.Status == jobs.StatePassed && fmt.Sprint(d.Outputs["balances"]) == jobservicetest.Answer(r.m):
			if d.StartedAt != nil && d.StartedAt.After(killAt) {
				passedAfter[d.Endpoint]++
			}
		case d.Status == jobs.StatePassed:
			t.Errorf("WRONG ANSWER: %s", what)
		case d.Endpoint == victimNode:
			t.Errorf("MISREPORT: a run went to the killed node after its crash: %s", what)
		case d.Error != nil && len(d.Outputs) == 0 &&
			(*d.Error == jobs.CodeRunTimeout || *d.Error == jobs.CodeUIAssertionFailed || *d.Error == jobs.CodeTargetUnreachable):
			soft++
			t.Logf("timeout under load: %s", what)
		default:
			t.Errorf("MISREPORT: %s", what)
		}
	}
	if passedAfter["node-0"] == 0 || passedAfter["node-2"] == 0 || soft > 3 {
		t.Errorf("queued work did not fail over to both surviving nodes: passed after the kill %v, %d timed out", passedAfter, soft)
	}

	// The victim ended browser_crashed: the next preflight probes again.
	code, pf = preflight(t, h)
	if code != http.StatusOK || !pf.Available || pf.Error != "" || len(pf.Endpoints) != 3 {
		t.Fatalf("preflight after the kill: %d %+v", code, pf)
	}
	for i, e := range pf.Endpoints {
		if i == kill {
			if e.Available || e.Error != string(jobs.CodeBrowserUnavailable) || e.Browser != "" {
				t.Errorf("the killed node in the preflight: %+v", e)
			}
		} else if !e.Available || e.Busy != 0 {
			t.Errorf("a surviving node in the preflight: %+v", e)
		}
	}
	// New work still runs on the survivors.
	m := testsite.TellerMembers[0]
	acc := h.MustSubmit(h.Request(m.ID))
	if d := h.Wait(acc.ID, acc.Token); d.Status != jobs.StatePassed || fmt.Sprint(d.Outputs["balances"]) != jobservicetest.Answer(m) ||
		d.Endpoint == victimNode {
		t.Errorf("run after the kill: %+v", d)
	}
	h.Stop()
	for i, nd := range g.Nodes {
		if i != kill && nd.Browser.Active() != 0 {
			t.Errorf("%s: %d drivers open after the service closed", nd.Name, nd.Browser.Active())
		}
	}
	t.Logf("passed after the kill: %v; %d timed out under load", passedAfter, soft)
}
