package jobs

import (
	"context"
	"errors"
	"fmt"
	"github.com/vera-run/vera/internal/testmain"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/runtimetest"
)

func TestMain(m *testing.M) { testmain.SetTestCeiling(); goleak.VerifyTestMain(m) }

const origin = "http://127.0.0.1:4010"

// member is one fake teller member.
type member struct{ id, name, savings, checking string }

var members = []member{
	{"41", "Mario Rossi", "$12,480.55", "$1,204.10"},
	{"42", "Anna Bianchi", "$3,050.00", "$88.19"},
	{"43", "Luca Verdi", "$47,915.02", "$2,310.77"},
	{"44", "Sara Neri", "$0.00", "$15.00"},
	{"45", "Paolo Gallo", "$8,120.40", "$640.00"},
}

// tellerSite is the fake teller console: sign in, search, one page per
// member; member 99 does not exist.
func tellerSite() *runtimetest.Site {
	pages := map[string]*runtimetest.Page{
		origin + "/login": {Body: []*runtimetest.Node{
			{ID: "username", Tag: "input", Label: "Username", Attributes: map[string]string{"name": "username"}},
			{ID: "password", Tag: "input", Label: "Password", Attributes: map[string]string{"type": "password"}},
			{ID: "signin", Tag: "button", Text: "Sign in"},
		}, Rules: []runtimetest.Rule{{On: runtimetest.Trigger{Node: "signin", Act: runtime.ActClick}, Effects: []runtimetest.Effect{{Navigate: "/members"}}}}},
		origin + "/members": {Body: []*runtimetest.Node{
			{ID: "member-id", Tag: "input", Label: "Member ID"},
			{ID: "search", Tag: "button", Text: "Search", TestID: "member-search-submit"},
		}, Rules: []runtimetest.Rule{{On: runtimetest.Trigger{Node: "search", Act: runtime.ActClick}, Effects: []runtimetest.Effect{{Navigate: "/members/{{value:member-id}}"}}}}},
		origin + "/members/99": {Body: []*runtimetest.Node{{ID: "nf", Tag: "p", Text: "No member found"}}},
	}
	for _, m := range members {
		pages[origin+"/members/"+m.id] = &runtimetest.Page{Body: []*runtimetest.Node{{ID: "main", Tag: "main", Children: []*runtimetest.Node{
			{ID: "acc", Tag: "h2", Text: "Accounts"},
			{ID: "name", Tag: "p", TestID: "member-name", Text: m.name},
			{ID: "sav", Tag: "p", TestID: "balance-savings", Text: m.savings},
			{ID: "chk", Tag: "p", TestID: "balance-checking", Text: m.checking},
		}}}}
	}
	return &runtimetest.Site{Pages: pages}
}

func tellerCap(t testing.TB) *capability.Capability {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "testdata", "teller.json"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := capability.ParseBytes(raw)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func inputs(id string) map[string]any {
	return map[string]any{"username": "teller-7", "password": "hunter2-secret", "member_id": id}
}

func answer(m member) map[string]any {
	return map[string]any{"member_name": m.name, "savings": m.savings, "checking": m.checking}
}

// gatedDriver is the fake driver whose Navigate waits for gate (closed
// to let every run go) or for ctx: a run that is in flight on demand.
type gatedDriver struct {
	*runtimetest.Driver
	gate    <-chan struct{}
	entered chan<- struct{}
}

func (g *gatedDriver) Navigate(ctx context.Context, url string) error {
	if g.entered != nil {
		select {
		case g.entered <- struct{}{}:
		default:
		}
	}
	select {
	case <-g.gate:
	case <-ctx.Done():
		return ctx.Err()
	}
	return g.Driver.Navigate(ctx, url)
}

// fakeSource hands out a fresh fake driver per job and counts the open
// ones; gate (nil: none) holds every Navigate.
type fakeSource struct {
	open, max atomic.Int64
	gate      chan struct{}
	entered   chan struct{}
}

func (f *fakeSource) source(ctx context.Context) (runtime.Driver, error) {
	n := f.open.Add(1)
	for {
		m := f.max.Load()
		if n <= m || f.max.CompareAndSwap(m, n) {
			break
		}
	}
	d := runtimetest.NewDriver(tellerSite())
	var drv runtime.Driver = &closeCounted{Driver: d, f: f}
	if f.gate != nil {
		drv = &closeCounted{Driver: &gatedDriver{Driver: d, gate: f.gate, entered: f.entered}, f: f}
	}
	return drv, nil
}

type closeCounted struct {
	runtime.Driver
	f    *fakeSource
	once sync.Once
}

func (c *closeCounted) Close() error {
	c.once.Do(func() { c.f.open.Add(-1) })
	return c.Driver.Close()
}

func newRunner(t *testing.T, dir string, src DriverSource, opts ...Option) *Runner {
	t.Helper()
	r, err := New(dir, src, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := r.Close(ctx); err != nil {
			t.Error(err)
		}
	})
	return r
}

func wait(t *testing.T, r *Runner, id string) Status {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	st, err := r.Wait(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if !st.State.Terminal() {
		t.Fatalf("job %s not terminal: %+v", id, st)
	}
	return st
}

// TestLifecycle: jobs pass with their own member's answer; the record
// goes queued → running → passed through the hooks, per-step progress
// is reported, the files are owner-only, and a business outcome passes
// with its code.
func TestLifecycle(t *testing.T) {
	c := tellerCap(t)
	src := &fakeSource{}
	var mu sync.Mutex
	states := map[string][]State{}
	steps := map[string]int{}
	hooks := &Hooks{
		StateChange: func(st Status) { mu.Lock(); states[st.ID] = append(states[st.ID], st.State); mu.Unlock() },
		Step: func(id string, s StepProgress) {
			if s.Done {
				mu.Lock()
				steps[id]++
				mu.Unlock()
			}
		},
	}
	dir := t.TempDir()
	r := newRunner(t, dir, src.source, WithActiveBrowsers(2), WithHooks(hooks))
	var ids []string
	for _, m := range members[:3] {
		st, err := r.Submit(t.Context(), Request{Capability: c, Inputs: inputs(m.id), Label: "member " + m.id})
		if err != nil {
			t.Fatal(err)
		}
		if st.State != StateQueued || st.Schema != StatusSchema || !st.Expires.Equal(st.Accepted.Add(Expiry)) || st.BudgetMS != 60000 {
			t.Errorf("accepted = %+v", st)
		}
		ids = append(ids, st.ID)
	}
	for i, id := range ids {
		st := wait(t, r, id)
		if st.State != StatePassed || st.Code != "" || !reflect.DeepEqual(st.Outputs["balances"], answer(members[i])) {
			t.Errorf("job %d: %+v", i, st)
		}
		if st.CompletedSteps != 6 || len(st.Steps) != 6 || st.TotalSteps != 6 || st.Mode != runtime.ModeSimulated || st.ReceiptHash == "" || st.ArtifactBytes == 0 {
			t.Errorf("job %d: steps %d/%d %v mode %q receipt %q bytes %d", i, st.CompletedSteps, st.TotalSteps, st.Steps, st.Mode, st.ReceiptHash, st.ArtifactBytes)
		}
		var sum int64
		names := map[string]bool{}
		for _, a := range st.Artifacts {
			sum += a.Size
			names[a.Name] = true
		}
		if sum != st.ArtifactBytes || !names[st.RunID+"/run.receipt.json"] || !names[st.RunID+"/run.lock.json"] {
			t.Errorf("job %d: artifacts %v (%d bytes, record says %d)", i, st.Artifacts, sum, st.ArtifactBytes)
		}
		fi, err := os.Stat(filepath.Join(dir, id, recordName))
		if err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("record: %v %v", fi.Mode(), err)
		}
		di, err := os.Stat(filepath.Join(dir, id))
		if err != nil || di.Mode().Perm() != 0o700 {
			t.Errorf("job folder: %v %v", di.Mode(), err)
		}
		raw, _ := os.ReadFile(filepath.Join(dir, id, recordName))
		if strings.Contains(string(raw), "hunter2-secret") {
			t.Error("the record holds the password input")
		}
	}
	mu.Lock()
	for _, id := range ids {
		if want := []State{StateQueued, StateRunning, StatePassed}; !reflect.DeepEqual(states[id], want) {
			t.Errorf("states of %s = %v", id, states[id])
		}
		if steps[id] != 6 {
			t.Errorf("step hooks of %s = %d", id, steps[id])
		}
	}
	mu.Unlock()
	if src.max.Load() > 2 {
		t.Errorf("%d drivers open at once with 2 slots", src.max.Load())
	}
	if n := src.open.Load(); n != 0 {
		t.Errorf("%d drivers left open", n)
	}
	st, err := r.Submit(t.Context(), Request{Capability: c, Inputs: inputs("99")})
	if err != nil {
		t.Fatal(err)
	}
	if st = wait(t, r, st.ID); st.State != StatePassed || st.Outcome != "member_not_found" || st.Terminal != "business_outcome" {
		t.Errorf("business outcome: %+v", st)
	}
}

// TestFiftySubmissions: 50 concurrent submissions while every run is
// held in flight: exactly slots+queued are admitted, the other 45 are
// refused queue_full, the queue positions are 1..4, and once released
// every admitted job passes with its own member's answer: nothing lost.
func TestFiftySubmissions(t *testing.T) {
	c := tellerCap(t)
	src := &fakeSource{gate: make(chan struct{})}
	var mu sync.Mutex
	positions := map[string][]int{}
	r := newRunner(t, t.TempDir(), src.source, WithHooks(&Hooks{QueuePosition: func(id string, p int) {
		mu.Lock()
		positions[id] = append(positions[id], p)
		mu.Unlock()
	}}))
	type sub struct {
		st  Status
		err error
		m   member
	}
	subs := make([]sub, 50)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range subs {
		wg.Go(func() {
			<-start
			m := members[i%len(members)]
			st, err := r.Submit(context.Background(), Request{Capability: c, Inputs: inputs(m.id)})
			subs[i] = sub{st, err, m}
		})
	}
	close(start)
	wg.Wait()
	var accepted []sub
	for _, s := range subs {
		switch {
		case s.err == nil:
			accepted = append(accepted, s)
		case errors.Is(s.err, ErrQueueFull) && CodeOf(s.err) == CodeQueueFull:
		default:
			t.Errorf("submission refused with %v", s.err)
		}
	}
	if len(accepted) != DefaultActiveBrowsers+DefaultMaxQueued {
		t.Fatalf("%d admitted, want %d", len(accepted), DefaultActiveBrowsers+DefaultMaxQueued)
	}
	close(src.gate)
	for _, s := range accepted {
		st := wait(t, r, s.st.ID)
		if st.State != StatePassed || !reflect.DeepEqual(st.Outputs["balances"], answer(s.m)) {
			t.Errorf("job for %s: %+v", s.m.id, st)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	// Every admitted job was given a position at acceptance and moved
	// up to 1 before it ran.
	for _, s := range accepted {
		p := positions[s.st.ID]
		if len(p) == 0 || p[0] < 1 || p[0] > 5 || !slices.Contains(p, 1) {
			t.Errorf("positions of %s = %v", s.st.ID, p)
		}
	}
}

// TestCancel: cancelling a queued job ends it at once; a running one
// ends cancelled with its evidence written; both are idempotent; an
// unknown id is ErrNotFound.
func TestCancel(t *testing.T) {
	c := tellerCap(t)
	entered := make(chan struct{}, 1)
	src := &fakeSource{gate: make(chan struct{}), entered: entered}
	r := newRunner(t, t.TempDir(), src.source)
	running, err := r.Submit(t.Context(), Request{Capability: c, Inputs: inputs("41")})
	if err != nil {
		t.Fatal(err)
	}
	queued, err := r.Submit(t.Context(), Request{Capability: c, Inputs: inputs("42")})
	if err != nil {
		t.Fatal(err)
	}
	<-entered // the first job is in flight, in Navigate
	if st, _ := r.Status(queued.ID); st.QueuePosition != 1 || st.State != StateQueued {
		t.Errorf("second job = %s at position %d, want queued first in line", st.State, st.QueuePosition)
	}
	for range 2 {
		st, err := r.Cancel(queued.ID)
		if err != nil || st.State != StateCancelled || st.Code != CodeCancelled {
			t.Fatalf("cancel queued: %+v %v", st, err)
		}
	}
	st, err := r.Cancel(running.ID)
	if err != nil || st.State != StateRunning || !st.CancelRequested {
		t.Fatalf("cancel running: %+v %v", st, err)
	}
	st = wait(t, r, running.ID)
	if st.State != StateCancelled || st.Code != CodeCancelled || st.Terminal != "failed" || st.Category != "canceled" || st.ReceiptHash == "" {
		t.Errorf("cancelled run: %+v", st)
	}
	again, err := r.Cancel(running.ID)
	if err != nil || !reflect.DeepEqual(again, st) {
		t.Errorf("cancel terminal changed it: %+v %v", again, err)
	}
	if _, err := r.Cancel("job_nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown: %v", err)
	}
	if _, err := r.Status("job_nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown: %v", err)
	}
}

// TestBudget: a job that outlives its run budget fails run_timeout; a
// budget above the maximum is refused.
func TestBudget(t *testing.T) {
	c := tellerCap(t)
	src := &fakeSource{gate: make(chan struct{})} // never opened
	r := newRunner(t, t.TempDir(), src.source)
	st, err := r.Submit(t.Context(), Request{Capability: c, Inputs: inputs("41"), Budget: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if st = wait(t, r, st.ID); st.State != StateFailed || st.Code != CodeRunTimeout {
		t.Errorf("over budget: %+v", st)
	}
	for _, b := range []time.Duration{MaxRunBudget + time.Millisecond, -time.Second} {
		if _, err := r.Submit(t.Context(), Request{Capability: c, Inputs: inputs("41"), Budget: b}); !errors.Is(err, ErrInvalidRequest) {
			t.Errorf("budget %v: %v", b, err)
		}
	}
}

// TestSubmissionRefusals: every refusal is typed and leaves nothing.
func TestSubmissionRefusals(t *testing.T) {
	c := tellerCap(t)
	src := &fakeSource{}
	dir := t.TempDir()
	r := newRunner(t, dir, src.source, WithMaxSteps(5))
	big := inputs("41")
	big["username"] = strings.Repeat("x", MaxSubmissionBytes)
	draft := *c
	draft.State = capability.StateDraft
	for _, tc := range []struct {
		name string
		req  Request
		is   []error
	}{
		{"nil capability", Request{}, []error{ErrInvalidRequest}},
		{"too many steps", Request{Capability: c, Inputs: inputs("41")}, []error{ErrInvalidRequest}},
	} {
		if _, err := r.Submit(t.Context(), tc.req); !errors.Is(err, tc.is[0]) {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
	r2 := newRunner(t, t.TempDir(), src.source)
	for _, tc := range []struct {
		name string
		req  Request
		is   error
	}{
		{"too large", Request{Capability: c, Inputs: big}, ErrTooLarge},
		{"missing input", Request{Capability: c, Inputs: map[string]any{"username": "a"}}, runtime.ErrInputs},
		{"draft", Request{Capability: &draft, Inputs: inputs("41")}, runtime.ErrNotExecutable},
		{"label", Request{Capability: c, Inputs: inputs("41"), Label: strings.Repeat("l", 200)}, ErrInvalidRequest},
	} {
		_, err := r2.Submit(t.Context(), tc.req)
		if !errors.Is(err, tc.is) || !errors.Is(err, ErrInvalidRequest) {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
	unavailable := newRunner(t, t.TempDir(), src.source, WithAvailability(func() error { return errors.New("browser exited") }))
	if _, err := unavailable.Submit(t.Context(), Request{Capability: c, Inputs: inputs("41")}); !errors.Is(err, ErrBrowserUnavailable) || CodeOf(err) != CodeBrowserUnavailable {
		t.Errorf("unavailable: %v", err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("refusals left %d entries", len(ents))
	}
	if _, err := New(t.TempDir(), nil); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("nil source: %v", err)
	}
	for _, o := range []Option{WithActiveBrowsers(0), WithMaxQueued(-1), WithRetainedRuns(0), WithMaxSteps(0), WithArtifactBudget(1), WithClock(nil),
		WithRunOptions(runtime.WithPollInterval(-time.Second))} {
		if _, err := New(t.TempDir(), src.source, o); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("bad option: %v", err)
		}
	}
	// A driver smuggled in through the run options is never used by the
	// submission check.
	smuggled := runtimetest.NewDriver(tellerSite())
	defer smuggled.Close()
	rs := newRunner(t, t.TempDir(), src.source, WithRunOptions(runtime.WithDriver(smuggled)))
	if _, err := rs.Submit(t.Context(), Request{Capability: c, Inputs: inputs("41")}); err != nil {
		t.Errorf("submission with a run-option driver: %v", err)
	}
	if u, _ := smuggled.URL(t.Context()); u != "about:blank" {
		t.Errorf("the submission check drove the run-option driver to %q", u)
	}
	var nilRunner *Runner
	if _, err := nilRunner.Submit(t.Context(), Request{}); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("nil runner: %v", err)
	}
}

// clock is a settable test clock.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// TestRetentionExpiryAndArtifactBudget: retained runs and the artifact
// admission budget refuse with their codes; one hour after acceptance
// the janitor removes a job (record and folder) and frees capacity.
func TestRetentionExpiryAndArtifactBudget(t *testing.T) {
	c := tellerCap(t)
	src := &fakeSource{}
	clk := &clock{now: time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)}
	dir := t.TempDir()
	r := newRunner(t, dir, src.source, WithRetainedRuns(2), WithClock(clk.Now))
	var ids []string
	for _, m := range members[:2] {
		st, err := r.Submit(t.Context(), Request{Capability: c, Inputs: inputs(m.id)})
		if err != nil {
			t.Fatal(err)
		}
		wait(t, r, st.ID)
		ids = append(ids, st.ID)
		clk.add(time.Minute)
	}
	if _, err := r.Submit(t.Context(), Request{Capability: c, Inputs: inputs("43")}); CodeOf(err) != CodeQueueFull {
		t.Fatalf("third with 2 retained: %v", err)
	}
	clk.add(Expiry - 90*time.Second) // the first is past its hour, the second is not
	r.sweep()
	if _, err := r.Status(ids[0]); !errors.Is(err, ErrNotFound) {
		t.Errorf("expired job: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, ids[0])); !os.IsNotExist(err) {
		t.Errorf("expired job folder: %v", err)
	}
	if _, err := r.Status(ids[1]); err != nil {
		t.Errorf("unexpired job: %v", err)
	}
	if _, err := r.Submit(t.Context(), Request{Capability: c, Inputs: inputs("43")}); err != nil {
		t.Errorf("after expiry: %v", err)
	}

	gated := &fakeSource{gate: make(chan struct{})}
	defer close(gated.gate)
	ra := newRunner(t, t.TempDir(), gated.source, WithArtifactBudget(2*MaxRunArtifactBytes))
	for i := range 2 {
		if _, err := ra.Submit(t.Context(), Request{Capability: c, Inputs: inputs("41")}); err != nil {
			t.Fatalf("submission %d: %v", i, err)
		}
	}
	if _, err := ra.Submit(t.Context(), Request{Capability: c, Inputs: inputs("41")}); !errors.Is(err, ErrArtifactCapacity) || CodeOf(err) != CodeArtifactCapacity {
		t.Errorf("beyond the artifact budget: %v", err)
	}
}

// TestExpiryCancelsQueued: a job still queued at its expiry is cancelled
// by the janitor and removed by the next sweep.
func TestExpiryCancelsQueued(t *testing.T) {
	c := tellerCap(t)
	entered := make(chan struct{}, 1)
	gated := &fakeSource{gate: make(chan struct{}), entered: entered}
	clk := &clock{now: time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)}
	r := newRunner(t, t.TempDir(), gated.source, WithClock(clk.Now))
	first, _ := r.Submit(t.Context(), Request{Capability: c, Inputs: inputs("41")})
	second, err := r.Submit(t.Context(), Request{Capability: c, Inputs: inputs("42")})
	if err != nil {
		t.Fatal(err)
	}
	<-entered
	clk.add(Expiry)
	r.sweep()
	for _, id := range []string{first.ID, second.ID} {
		if st := wait(t, r, id); st.State != StateCancelled {
			t.Errorf("expired job: %+v", st)
		}
	}
	r.sweep()
	if _, err := r.Status(second.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("after the second sweep: %v", err)
	}
	close(gated.gate)
}

// TestRestart copies the state folder while one job is running (its run
// directory reserved, evidence not committed) and two are queued, as a
// crash would leave it, and opens a new runner on the copy: the
// terminal job survives with its answer, the three others are
// interrupted/service_restarted and the running one's run folder is
// gone. Closing the first runner then interrupts its jobs with
// service_stopped, and a runner reopened on it keeps those records.
func TestRestart(t *testing.T) {
	c := tellerCap(t)
	dir := t.TempDir()
	open := &fakeSource{}
	r1, err := New(dir, open.source, WithActiveBrowsers(1))
	if err != nil {
		t.Fatal(err)
	}
	done, err := r1.Submit(t.Context(), Request{Capability: c, Inputs: inputs("43")})
	if err != nil {
		t.Fatal(err)
	}
	wait(t, r1, done.ID)
	r1.Close(t.Context())

	entered := make(chan struct{}, 1)
	gated := &fakeSource{gate: make(chan struct{}), entered: entered}
	r2, err := New(dir, gated.source)
	if err != nil {
		t.Fatal(err)
	}
	var inflight []string
	for _, m := range members[:3] {
		st, err := r2.Submit(t.Context(), Request{Capability: c, Inputs: inputs(m.id)})
		if err != nil {
			t.Fatal(err)
		}
		inflight = append(inflight, st.ID)
	}
	<-entered
	runDir := filepath.Join(dir, inflight[0], runName)
	if ents, _ := os.ReadDir(runDir); len(ents) != 1 {
		t.Fatalf("running job's run folder has %d entries, want its reserved run directory", len(ents))
	}
	crashed := filepath.Join(t.TempDir(), "state")
	if out, err := exec.Command("cp", "-a", dir, crashed).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}

	r3 := newRunner(t, crashed, open.source)
	st, err := r3.Status(done.ID)
	if err != nil || st.State != StatePassed || !reflect.DeepEqual(asAny(t, st.Outputs["balances"]), asAny(t, answer(members[2]))) {
		t.Errorf("terminal job after restart: %+v %v", st, err)
	}
	for _, id := range inflight {
		st, err := r3.Status(id)
		if err != nil || st.State != StateInterrupted || st.Code != CodeServiceRestarted || st.Finished == nil {
			t.Errorf("in-flight job after restart: %+v %v", st, err)
		}
		if _, err := os.Stat(filepath.Join(crashed, id, runName)); !os.IsNotExist(err) {
			t.Errorf("job %s: uncommitted run folder left: %v", id, err)
		}
	}
	// A restarted runner works.
	st, err = r3.Submit(t.Context(), Request{Capability: c, Inputs: inputs("44")})
	if err != nil {
		t.Fatal(err)
	}
	if st = wait(t, r3, st.ID); st.State != StatePassed {
		t.Errorf("job after restart: %+v", st)
	}

	// Close interrupts what is in flight with service_stopped.
	if err := r2.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	if _, err := r2.Submit(t.Context(), Request{Capability: c, Inputs: inputs("41")}); !errors.Is(err, ErrStopped) || CodeOf(err) != CodeServiceStopped {
		t.Errorf("submit after Close: %v", err)
	}
	r4 := newRunner(t, dir, open.source)
	for _, id := range inflight {
		st, err := r4.Status(id)
		if err != nil || st.State != StateInterrupted || st.Code != CodeServiceStopped {
			t.Errorf("job stopped by Close: %+v %v", st, err)
		}
	}
	if st, err := r4.Status(done.ID); err != nil || st.State != StatePassed {
		t.Errorf("terminal job: %+v %v", st, err)
	}
	close(gated.gate)
}

// asAny normalizes a value through JSON.
func asAny(t *testing.T, v any) any {
	t.Helper()
	return fmt.Sprint(v)
}

// TestSubmitterLeaving (fake driver): the Submit ctx bounds the
// submission only. A caller that goes away once the job is accepted (its
// ctx cancelled, as net/http does when the POST handler returns) leaves
// the job running to its own end: seed 003, disconnecting does not
// cancel an accepted job.
func TestSubmitterLeaving(t *testing.T) {
	gate := make(chan struct{})
	entered := make(chan struct{}, 1)
	src := &fakeSource{gate: gate, entered: entered}
	r := newRunner(t, t.TempDir(), src.source)
	ctx, cancel := context.WithCancel(context.Background())
	st, err := r.Submit(ctx, Request{Capability: tellerCap(t), Inputs: inputs("45")})
	if err != nil {
		t.Fatal(err)
	}
	<-entered // running
	cancel()
	close(gate)
	if st = wait(t, r, st.ID); st.State != StatePassed || st.CancelRequested ||
		!reflect.DeepEqual(asAny(t, st.Outputs["balances"]), asAny(t, answer(members[4]))) {
		t.Errorf("job of a caller that left: %+v", st)
	}
}
