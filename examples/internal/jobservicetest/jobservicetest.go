// Package jobservicetest is the test plumbing of the job service's and
// the job client's tests: a real Chromium (browser.LaunchBrowser), the
// teller console of internal/testsite, a jobservice.Service over them on
// an httptest server on loopback, a clock the test can move, and a
// recorder of the runner's events to wait on (events with bounded
// waits, never sleeps). Only tests import it.
package jobservicetest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vera-run/vera/examples/internal/jobservice"
	"github.com/vera-run/vera/internal/livetest"
	"github.com/vera-run/vera/internal/testsite"
	"github.com/vera-run/vera/runtime/browser"
	"github.com/vera-run/vera/runtime/jobs"
)

// Password is the teller's sign-in password in every test (the teller
// accepts any non-empty pair).
const Password = "teller-pass-never-echoed-7731"

// Harness is one live service.
type Harness struct {
	T       *testing.T
	Browser *browser.Browser
	Teller  *testsite.Teller
	Service *jobservice.Service
	Server  *httptest.Server
	Dir     string
	Clock   *Clock
	Events  *Recorder
}

// Clock is time.Now plus an offset the test moves.
type Clock struct{ off atomic.Int64 }

// Now is the clock.
func (c *Clock) Now() time.Time { return time.Now().Add(time.Duration(c.off.Load())) }

// Advance moves the clock forward.
func (c *Clock) Advance(d time.Duration) { c.off.Add(int64(d)) }

// RequireBrowser fails (VERA_REQUIRE_BROWSER=1) or skips without a
// browser.
func RequireBrowser(t *testing.T) {
	t.Helper()
	livetest.RequireBrowser(t)
}

// LaunchBrowser launches a Chromium closed at the test's end.
func LaunchBrowser(t *testing.T) *browser.Browser {
	t.Helper()
	RequireBrowser(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	b, err := browser.LaunchBrowser(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := b.Close(); err != nil {
			t.Logf("browser close: %v", err)
		}
		select {
		case <-b.Done():
		case <-time.After(10 * time.Second):
			t.Error("browser still running after Close")
		}
	})
	return b
}

// Start launches a browser and a teller site and serves a new service
// over them with opts (after the harness's clock, hooks and
// availability check).
func Start(t *testing.T, opts ...jobservice.Option) *Harness {
	t.Helper()
	b := LaunchBrowser(t)
	site, err := testsite.StartTeller()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(site.Close)
	h := &Harness{T: t, Browser: b, Teller: site, Dir: t.TempDir(), Clock: &Clock{}, Events: &Recorder{ch: make(chan struct{})}}
	h.Serve(opts...)
	return h
}

// Serve starts a (new) service on the harness's state folder, closing
// the previous one first. The service opens viewports with the
// browser's OpenViewport unless opts say otherwise
// (jobservice.WithViewportSource(nil)).
func (h *Harness) Serve(opts ...jobservice.Option) {
	t := h.T
	t.Helper()
	if h.Service != nil {
		h.Stop()
	}
	b := h.Browser
	all := append([]jobservice.Option{
		jobservice.WithClock(h.Clock.Now),
		jobservice.WithHooks(h.Events.Hooks()),
		jobservice.WithViewportSource(b.OpenViewport),
		jobservice.WithAvailability(func() error {
			select {
			case <-b.Done():
				return fmt.Errorf("the browser process has exited")
			default:
				return nil
			}
		}),
	}, opts...)
	svc, err := jobservice.New(h.Dir, b.Open, all...)
	if err != nil {
		t.Fatal(err)
	}
	h.Service = svc
	h.Server = httptest.NewServer(svc.Handler())
	t.Cleanup(h.Stop)
}

// Stop closes the service, then its server (waiting status requests
// return when the service closes). It is idempotent.
func (h *Harness) Stop() {
	if h.Service == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := h.Service.Close(ctx); err != nil {
		h.T.Errorf("service close: %v", err)
	}
	h.Server.Close()
	h.Service, h.Server = nil, nil
}

// URL is the server's base URL.
func (h *Harness) URL() string { return h.Server.URL }

// CapabilityJSON is the quickstart's teller capability pointed at
// origin, with each old→new replacement applied.
func CapabilityJSON(t *testing.T, origin string, replace ...string) []byte {
	t.Helper()
	_, file, _, _ := goruntime.Caller(0)
	raw, err := os.ReadFile(filepath.Join(filepath.Dir(file), "..", "..", "quickstart", "teller.capability.json"))
	if err != nil {
		t.Fatal(err)
	}
	s := strings.ReplaceAll(string(raw), "http://127.0.0.1:4010", origin)
	for i := 0; i+1 < len(replace); i += 2 {
		if !strings.Contains(s, replace[i]) {
			t.Fatalf("capability has no %q", replace[i])
		}
		s = strings.ReplaceAll(s, replace[i], replace[i+1])
	}
	return []byte(s)
}

// Inputs are the teller inputs for a member id.
func Inputs(member string) map[string]any {
	return map[string]any{"username": "teller.demo", "password": Password, "member_id": member}
}

// Answer is a member's balances as fmt prints the model output.
func Answer(m testsite.Member) string {
	return fmt.Sprint(map[string]any{"member_name": m.Name, "savings": m.Savings, "checking": m.Checking})
}

// Request is an inline teller submission for member.
func (h *Harness) Request(member string, replace ...string) jobservice.SubmitRequest {
	return jobservice.SubmitRequest{APIVersion: jobservice.APIVersion, Capability: CapabilityJSON(h.T, h.Teller.Origin(), replace...),
		Inputs: Inputs(member), TimeoutMS: jobs.MaxRunBudget.Milliseconds()}
}

// Do sends one request with the protocol header (unless hdr sets it,
// empty to drop it) and returns the status and body.
func (h *Harness) Do(method, path, token string, body []byte, hdr map[string]string) (int, []byte) {
	h.T.Helper()
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequest(method, h.URL()+path, rd)
	if err != nil {
		h.T.Fatal(err)
	}
	req.Header.Set(jobservice.ProtocolHeader, jobservice.ProtocolVersion)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for k, v := range hdr {
		if v == "" {
			req.Header.Del(k)
		} else {
			req.Header.Set(k, v)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		h.T.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		h.T.Fatal(err)
	}
	return resp.StatusCode, raw
}

// Submit posts req; it returns the status and the decoded answer (an
// Accepted on 202, else the ErrorDoc).
func (h *Harness) Submit(req jobservice.SubmitRequest) (int, jobservice.Accepted, jobservice.ErrorDoc) {
	h.T.Helper()
	body, err := json.Marshal(req)
	if err != nil {
		h.T.Fatal(err)
	}
	code, raw := h.Do(http.MethodPost, "/v1/runs", "", body, nil)
	var acc jobservice.Accepted
	var e jobservice.ErrorDoc
	if code == http.StatusAccepted {
		mustDecode(h.T, raw, &acc)
	} else {
		mustDecode(h.T, raw, &e)
	}
	return code, acc, e
}

// MustSubmit posts req and fails the test unless it is accepted.
func (h *Harness) MustSubmit(req jobservice.SubmitRequest) jobservice.Accepted {
	h.T.Helper()
	code, acc, e := h.Submit(req)
	if code != http.StatusAccepted {
		h.T.Fatalf("submission: HTTP %d %+v", code, e)
	}
	return acc
}

// Get reads a run's document (query may hold wait_ms and after).
func (h *Harness) Get(id, token, query string) (int, jobservice.RunDocument) {
	h.T.Helper()
	p := "/v1/runs/" + id
	if query != "" {
		p += "?" + query
	}
	code, raw := h.Do(http.MethodGet, p, token, nil, nil)
	var d jobservice.RunDocument
	if code == http.StatusOK {
		mustDecode(h.T, raw, &d)
	}
	return code, d
}

// Wait follows a run with waiting status requests until it is terminal
// (bounded: 3 minutes).
func (h *Harness) Wait(id, token string) jobservice.RunDocument {
	h.T.Helper()
	deadline := time.Now().Add(3 * time.Minute)
	var rev uint64
	for time.Now().Before(deadline) {
		code, d := h.Get(id, token, fmt.Sprintf("wait_ms=20000&after=%d", rev))
		if code != http.StatusOK {
			h.T.Fatalf("status of %s: HTTP %d", id, code)
		}
		if d.Status.Terminal() {
			return d
		}
		rev = d.Revision
	}
	h.T.Fatalf("run %s not terminal after 3 minutes", id)
	return jobservice.RunDocument{}
}

func mustDecode(t *testing.T, raw []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("answer %q: %v", raw, err)
	}
}

// Event is one runner event.
type Event struct {
	Status jobs.Status // StateChange
	ID     string      // Step
	Step   *jobs.StepProgress
}

// Recorder keeps every runner event; Wait finds one.
type Recorder struct {
	mu  sync.Mutex
	evs []Event
	ch  chan struct{}
}

// Hooks are the recorder's runner hooks.
func (r *Recorder) Hooks() *jobs.Hooks {
	return &jobs.Hooks{
		StateChange: func(st jobs.Status) { r.add(Event{Status: st, ID: st.ID}) },
		Step:        func(id string, p jobs.StepProgress) { r.add(Event{ID: id, Step: &p}) },
	}
}

func (r *Recorder) add(e Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.evs = append(r.evs, e)
	close(r.ch)
	r.ch = make(chan struct{})
}

// Mark is the number of events so far, for WaitAfter.
func (r *Recorder) Mark() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.evs)
}

// Wait returns the first event (from the beginning) that match accepts,
// failing the test after timeout.
func (r *Recorder) Wait(t *testing.T, timeout time.Duration, match func(Event) bool) Event {
	t.Helper()
	return r.WaitAfter(t, 0, timeout, match)
}

// WaitAfter is Wait over the events after the first mark ones.
func (r *Recorder) WaitAfter(t *testing.T, mark int, timeout time.Duration, match func(Event) bool) Event {
	t.Helper()
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	seen := mark
	for {
		r.mu.Lock()
		for ; seen < len(r.evs); seen++ {
			if match(r.evs[seen]) {
				e := r.evs[seen]
				r.mu.Unlock()
				return e
			}
		}
		ch := r.ch
		r.mu.Unlock()
		select {
		case <-ch:
		case <-deadline.C:
			t.Fatalf("no matching runner event within %v", timeout)
		}
	}
}

// Running waits until job id runs its step n (from 1).
func (r *Recorder) Running(t *testing.T, id string, n int) {
	t.Helper()
	r.Wait(t, 2*time.Minute, func(e Event) bool { return e.ID == id && e.Step != nil && e.Step.Index >= n && !e.Step.Done })
}
