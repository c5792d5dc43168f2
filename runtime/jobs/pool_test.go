package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/runtimetest"
)

// shotDriver is the fake driver with a Screenshot of a fixed size (the
// policy tests; the pixels are Chromium's in live_test.go).
type shotDriver struct {
	runtime.Driver
	size int
}

func (s *shotDriver) Screenshot(context.Context) ([]byte, error) { return make([]byte, s.size), nil }

// fakeViewports opens fake drivers with screenshots of size bytes and
// records the sizes asked for.
type fakeViewports struct {
	size  int
	mu    sync.Mutex
	asked [][2]int
}

func (f *fakeViewports) open(_ context.Context, w, h int) (runtime.Driver, error) {
	f.mu.Lock()
	f.asked = append(f.asked, [2]int{w, h})
	f.mu.Unlock()
	return &shotDriver{Driver: runtimetest.NewDriver(tellerSite()), size: f.size}, nil
}

// TestViewportRefusals: every viewport rule refuses the request with a
// *ViewportError that is ErrInvalidViewport and ErrInvalidRequest,
// naming the rule; nothing is admitted.
func TestViewportRefusals(t *testing.T) {
	f := &fakeSource{}
	fv := &fakeViewports{size: 10}
	r := newRunner(t, t.TempDir(), f.source, WithViewportSource(fv.open))
	plain := newRunner(t, t.TempDir(), f.source)
	c := tellerCap(t)
	ok := Viewport{Name: "desktop", Width: 1280, Height: 800}
	cases := []struct {
		name string
		r    *Runner
		vps  []Viewport
		want ViewportProblem
		idx  int
	}{
		{"five", r, []Viewport{ok, {"a", 1, 1}, {"b", 1, 1}, {"c", 1, 1}, {"d", 1, 1}}, ViewportTooMany, -1},
		{"empty name", r, []Viewport{{"", 10, 10}}, ViewportBadName, 0},
		{"upper case", r, []Viewport{ok, {"Narrow", 10, 10}}, ViewportBadName, 1},
		{"path", r, []Viewport{{"../x", 10, 10}}, ViewportBadName, 0},
		{"long", r, []Viewport{{"a234567890123456789012345678901234", 10, 10}}, ViewportBadName, 0},
		{"duplicate", r, []Viewport{ok, ok}, ViewportDuplicateName, 1},
		{"width 0", r, []Viewport{{"w", 0, 10}}, ViewportBadWidth, 0},
		{"width 1921", r, []Viewport{{"w", 1921, 10}}, ViewportBadWidth, 0},
		{"height 1601", r, []Viewport{{"h", 10, 1601}}, ViewportBadHeight, 0},
		{"unsupported", plain, []Viewport{ok}, ViewportUnsupported, -1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.r.Submit(t.Context(), Request{Capability: c, Inputs: inputs("41"), Viewports: tc.vps})
			var ve *ViewportError
			if !errors.As(err, &ve) || !errors.Is(err, ErrInvalidViewport) || !errors.Is(err, ErrInvalidRequest) {
				t.Fatalf("err = %v, want a *ViewportError", err)
			}
			if ve.Problem != tc.want || ve.Index != tc.idx {
				t.Errorf("problem %s at %d, want %s at %d (%v)", ve.Problem, ve.Index, tc.want, tc.idx, err)
			}
		})
	}
	// The limits themselves are accepted: four viewports at the maximum.
	max := []Viewport{{"a", 1920, 1600}, {"b", 1, 1}, {"c-1", 390, 844}, {"d_2", 1280, 800}}
	st, err := r.Submit(t.Context(), Request{Capability: c, Inputs: inputs("41"), Viewports: max})
	if err != nil {
		t.Fatal(err)
	}
	if st = wait(t, r, st.ID); st.State != StatePassed || len(st.Viewports) != 4 {
		t.Fatalf("four viewports: %+v", st)
	}
	if !reflect.DeepEqual(fv.asked, [][2]int{{1920, 1600}, {1, 1}, {390, 844}, {1280, 800}}) {
		t.Errorf("sizes opened: %v", fv.asked)
	}
}

// TestViewportArtifacts (fake driver): each viewport's screenshot is a
// 0600 file listed in the record and counted in its artifact bytes; a
// screenshot that would put the run above MaxRunArtifactBytes fails the
// job artifact_capacity with its files removed and the later viewports
// never run.
func TestViewportArtifacts(t *testing.T) {
	f := &fakeSource{}
	fv := &fakeViewports{size: 1000}
	dir := t.TempDir()
	r := newRunner(t, dir, f.source, WithViewportSource(fv.open))
	c := tellerCap(t)
	vps := []Viewport{{"desktop", 1280, 800}, {"narrow", 390, 844}}
	st, err := r.Submit(t.Context(), Request{Capability: c, Inputs: inputs("42"), Viewports: vps})
	if err != nil {
		t.Fatal(err)
	}
	if st.TotalSteps != 2*5 && st.TotalSteps%2 != 0 {
		t.Errorf("total steps %d for 2 viewports", st.TotalSteps)
	}
	st = wait(t, r, st.ID)
	if st.State != StatePassed || !reflect.DeepEqual(asAny(t, st.Outputs["balances"]), asAny(t, answer(members[1]))) {
		t.Fatalf("job: %+v", st)
	}
	runDir, _ := r.RunDir(st.ID)
	names := map[string]int64{}
	for _, a := range st.Artifacts {
		names[a.Name] = a.Size
	}
	for _, v := range st.Viewports {
		if v.State != StatePassed || v.Screenshot != "screenshots/"+v.Name+".png" || v.ScreenshotBytes != 1000 || v.RunID == "" ||
			!reflect.DeepEqual(asAny(t, v.Outputs["balances"]), asAny(t, answer(members[1]))) {
			t.Errorf("viewport %+v", v)
		}
		if names[v.Screenshot] != 1000 {
			t.Errorf("screenshot %s not in the artifacts: %v", v.Screenshot, st.Artifacts)
		}
		fi, err := os.Stat(filepath.Join(runDir, filepath.FromSlash(v.Screenshot)))
		if err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("screenshot file: %v %v", fi, err)
		}
	}
	var sum int64
	for _, a := range st.Artifacts {
		sum += a.Size
	}
	if sum != st.ArtifactBytes {
		t.Errorf("artifact bytes %d, files %d", st.ArtifactBytes, sum)
	}
	seen := map[string]int{}
	for _, s := range st.Steps {
		seen[s.Viewport]++
	}
	if len(seen) != 2 || seen["desktop"] == 0 || seen["desktop"] != seen["narrow"] || st.CompletedSteps != len(st.Steps) {
		t.Errorf("steps per viewport %v, completed %d of %d", seen, st.CompletedSteps, len(st.Steps))
	}

	// Over the per-run artifact bytes: the first screenshot already is.
	big := &fakeViewports{size: MaxRunArtifactBytes + 1}
	r2 := newRunner(t, t.TempDir(), f.source, WithViewportSource(big.open))
	st, err = r2.Submit(t.Context(), Request{Capability: c, Inputs: inputs("42"), Viewports: vps})
	if err != nil {
		t.Fatal(err)
	}
	st = wait(t, r2, st.ID)
	if st.State != StateFailed || st.Code != CodeArtifactCapacity || st.Viewports[0].Code != CodeArtifactCapacity ||
		st.Viewports[1].State != "" || st.Viewports[0].Screenshot != "" || len(big.asked) != 1 {
		t.Errorf("over the artifact limit: %+v (opened %v)", st, big.asked)
	}

	// A viewport driver without Screenshot: browser_unavailable.
	noShot := func(context.Context, int, int) (runtime.Driver, error) {
		return runtimetest.NewDriver(tellerSite()), nil
	}
	r3 := newRunner(t, t.TempDir(), f.source, WithViewportSource(noShot))
	st, err = r3.Submit(t.Context(), Request{Capability: c, Inputs: inputs("42"), Viewports: vps[:1]})
	if err != nil {
		t.Fatal(err)
	}
	if st = wait(t, r3, st.ID); st.State != StateFailed || st.Code != CodeBrowserUnavailable {
		t.Errorf("no screenshot: %+v", st)
	}
}

// poolEndpoint is one fake endpoint: fake drivers, until killed; then
// Open and Check fail with runtime.ErrBrowserCrashed.
type poolEndpoint struct {
	name  string
	dead  atomic.Bool
	opens atomic.Int64
	gate  chan struct{} // nil: runs go at once
	in    chan string   // a run entered Navigate (the endpoint's name)
}

func (p *poolEndpoint) open(ctx context.Context) (runtime.Driver, error) {
	p.opens.Add(1)
	if p.dead.Load() {
		return nil, fmt.Errorf("%w: %s is gone", runtime.ErrBrowserCrashed, p.name)
	}
	d := runtimetest.NewDriver(tellerSite())
	if p.gate == nil {
		return d, nil
	}
	return &crashable{gatedDriver: &gatedDriver{Driver: d, gate: p.gate}, p: p}, nil
}

func (p *poolEndpoint) check(ctx context.Context) error {
	if p.dead.Load() {
		return fmt.Errorf("%w: %s is gone", runtime.ErrBrowserCrashed, p.name)
	}
	return nil
}

// crashable reports entering Navigate and fails every call once its
// endpoint is dead.
type crashable struct {
	*gatedDriver
	p *poolEndpoint
}

func (c *crashable) Navigate(ctx context.Context, url string) error {
	select {
	case c.p.in <- c.p.name:
	default:
	}
	select {
	case <-c.gate:
	case <-ctx.Done():
		return ctx.Err()
	}
	if c.p.dead.Load() {
		return fmt.Errorf("%w: %s died", runtime.ErrBrowserCrashed, c.p.name)
	}
	return c.Driver.Navigate(ctx, url)
}

// TestPoolFailover (fake endpoints): three endpoints of one slot; one
// dies while a job runs on it. That job ends browser_crashed; the
// endpoint is found unhealthy and gets no more work; every queued job
// passes with its own answer on the other two; an option without
// endpoints' rules is refused.
func TestPoolFailover(t *testing.T) {
	gate := make(chan struct{})
	in := make(chan string, 8)
	eps := []*poolEndpoint{{name: "a", gate: gate, in: in}, {name: "b", gate: gate, in: in}, {name: "c", gate: gate, in: in}}
	var cfg []Endpoint
	for _, p := range eps {
		cfg = append(cfg, Endpoint{Name: p.name, Slots: 1, Open: p.open, Check: p.check})
	}
	r := newRunner(t, t.TempDir(), nil, WithEndpoints(cfg...), WithMaxQueued(8))
	c := tellerCap(t)
	ids := map[string]member{}
	for i := range 9 {
		m := members[i%len(members)]
		st, err := r.Submit(t.Context(), Request{Capability: c, Inputs: inputs(m.id)})
		if err != nil {
			t.Fatalf("submission %d: %v", i, err)
		}
		ids[st.ID] = m
	}
	// Three jobs in flight, one per endpoint; kill "b".
	for range 3 {
		<-in
	}
	var victim string
	for id := range ids {
		if st, _ := r.Status(id); st.State == StateRunning && st.Endpoint == "b" {
			victim = id
		}
	}
	if victim == "" {
		t.Fatal("no job running on b")
	}
	eps[1].dead.Store(true)
	opensB := eps[1].opens.Load()
	close(gate)
	for id, m := range ids {
		st := wait(t, r, id)
		if id == victim {
			if st.State != StateFailed || st.Code != CodeBrowserCrashed || len(st.Outputs) != 0 {
				t.Errorf("job on the dead endpoint: %+v", st)
			}
			continue
		}
		if st.State != StatePassed || !reflect.DeepEqual(asAny(t, st.Outputs["balances"]), asAny(t, answer(m))) || st.Endpoint == "b" && st.Started.After(*wait(t, r, victim).Finished) {
			t.Errorf("job %s (member %s): WRONG: %+v", id, m.id, st)
		}
	}
	if n := eps[1].opens.Load(); n != opensB {
		t.Errorf("%d opens tried on the dead endpoint after its job crashed", n-opensB)
	}
	var bst EndpointStatus
	for _, e := range r.Endpoints() {
		if e.Name == "b" {
			bst = e
		}
		if e.Busy != 0 {
			t.Errorf("endpoint %s busy %d after the queue drained", e.Name, e.Busy)
		}
	}
	if bst.Healthy || bst.LastError == "" {
		t.Errorf("dead endpoint: %+v", bst)
	}
	// All dead: refused browser_unavailable before admission.
	eps[0].dead.Store(true)
	eps[2].dead.Store(true)
	st, err := r.Submit(t.Context(), Request{Capability: c, Inputs: inputs("41")})
	if err == nil {
		// Admitted before any check saw them die: it must fail, never
		// pass, and the endpoints are then found dead.
		if st = wait(t, r, st.ID); st.State != StateFailed || (st.Code != CodeBrowserCrashed && st.Code != CodeBrowserUnavailable) {
			t.Errorf("job with every endpoint dead: %+v", st)
		}
		if _, err = r.Submit(t.Context(), Request{Capability: c, Inputs: inputs("41")}); CodeOf(err) != CodeBrowserUnavailable {
			t.Errorf("submission with every endpoint dead: %v", err)
		}
	} else if CodeOf(err) != CodeBrowserUnavailable {
		t.Errorf("submission with every endpoint dead: %v", err)
	}

	for _, bad := range [][]Endpoint{
		nil,
		{{Name: "x", Slots: 0, Open: eps[0].open}},
		{{Name: "x y", Slots: 1, Open: eps[0].open}},
		{{Name: "x", Slots: 1}},
		{{Name: "x", Slots: 1, Open: eps[0].open}, {Name: "x", Slots: 1, Open: eps[0].open}},
	} {
		if _, err := New(t.TempDir(), nil, WithEndpoints(bad...)); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("WithEndpoints(%v) = %v", bad, err)
		}
	}
	if _, err := New(t.TempDir(), eps[0].open, WithEndpoints(cfg[0])); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("source and endpoints: %v", err)
	}
	if _, err := New(t.TempDir(), nil, WithEndpoints(cfg[0]), WithHealthInterval(0)); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("health interval 0: %v", err)
	}
}

// TestPoolFailoverOpen (fake endpoints): a job dispatched to an endpoint
// that died before its driver opened is opened on another endpoint and
// passes; the dead one is found unhealthy by that open, not a timer.
func TestPoolFailoverOpen(t *testing.T) {
	a, b := &poolEndpoint{name: "a"}, &poolEndpoint{name: "b"}
	a.dead.Store(true) // dead from the start; the runner believes it healthy
	r := newRunner(t, t.TempDir(), nil, WithEndpoints(
		Endpoint{Name: "a", Slots: 2, Open: a.open, Check: a.check},
		Endpoint{Name: "b", Slots: 1, Open: b.open, Check: b.check}), WithHealthInterval(10*60e9))
	c := tellerCap(t)
	var ids []string
	for i := range 4 {
		st, err := r.Submit(t.Context(), Request{Capability: c, Inputs: inputs(members[i].id)})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, st.ID)
	}
	for i, id := range ids {
		st := wait(t, r, id)
		if st.State != StatePassed || st.Endpoint != "b" || !reflect.DeepEqual(asAny(t, st.Outputs["balances"]), asAny(t, answer(members[i]))) {
			t.Errorf("job %d: %+v", i, st)
		}
	}
	for _, e := range r.Endpoints() {
		if e.Name == "a" && (e.Healthy || e.LastError == "") {
			t.Errorf("endpoint a: %+v", e)
		}
	}
}

// TestPoolSlowCheck: a health check that runs out of time makes an
// endpoint unhealthy only the second time in a row; a refusal at once.
func TestPoolSlowCheck(t *testing.T) {
	var mu sync.Mutex
	var verdict error
	set := func(err error) { mu.Lock(); verdict = err; mu.Unlock() }
	p := &poolEndpoint{name: "a"}
	r := newRunner(t, t.TempDir(), nil, WithEndpoints(Endpoint{Name: "a", Slots: 1, Open: p.open,
		Check: func(context.Context) error { mu.Lock(); defer mu.Unlock(); return verdict }}), WithHealthInterval(10*60e9))
	e := r.eps[0]
	healthy := func() bool { return r.Endpoints()[0].Healthy }
	set(fmt.Errorf("open: %w", context.DeadlineExceeded))
	if r.checkEndpoint(t.Context(), e); !healthy() {
		t.Error("unhealthy after one slow check")
	}
	if r.checkEndpoint(t.Context(), e); healthy() {
		t.Error("healthy after two slow checks in a row")
	}
	set(nil)
	if r.checkEndpoint(t.Context(), e); !healthy() {
		t.Error("unhealthy after a passing check")
	}
	set(fmt.Errorf("%w: connection refused", runtime.ErrBrowserUnavailable))
	if r.checkEndpoint(t.Context(), e); healthy() {
		t.Error("healthy after a refusal")
	}
}

// gatedShot is a gated fake driver with a Screenshot.
type gatedShot struct {
	*gatedDriver
	size int
}

func (g *gatedShot) Screenshot(context.Context) ([]byte, error) { return make([]byte, g.size), nil }

// filesUnder lists the regular files under dir, slash-separated and
// relative to it, with their sizes.
func filesUnder(t *testing.T, dir string) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			fi, err := d.Info()
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(dir, p)
			out[filepath.ToSlash(rel)] = fi.Size()
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestViewportCommittedAsItEnds (fake driver): a viewport's result,
// steps and files are in the record (in memory and on disk) as soon as
// its run ends, while the next viewport runs, and the Viewport hook
// reports it; a crash then (the state folder copied with the second
// viewport in flight) and a restart keep the first viewport's result
// and files, interrupt the job service_restarted, reset the second
// viewport and remove its uncommitted evidence, and count the kept files
// against the artifact budget.
func TestViewportCommittedAsItEnds(t *testing.T) {
	gate := make(chan struct{})
	entered := make(chan struct{}, 1)
	var opens atomic.Int64
	src := func(_ context.Context, w, h int) (runtime.Driver, error) {
		d := runtimetest.NewDriver(tellerSite())
		if opens.Add(1) == 1 {
			return &shotDriver{Driver: d, size: 1000}, nil
		}
		return &gatedShot{gatedDriver: &gatedDriver{Driver: d, gate: gate, entered: entered}, size: 2000}, nil
	}
	committed := make(chan ViewportRecord, 4)
	dir := t.TempDir()
	f := &fakeSource{}
	r := newRunner(t, dir, f.source, WithViewportSource(src),
		WithHooks(&Hooks{Viewport: func(id string, v ViewportRecord) { committed <- v }}))
	defer close(gate)
	c := tellerCap(t)
	vps := []Viewport{{"desktop", 1280, 800}, {"narrow", 390, 844}}
	st, err := r.Submit(t.Context(), Request{Capability: c, Inputs: inputs("42"), Viewports: vps})
	if err != nil {
		t.Fatal(err)
	}
	id := st.ID
	if v := <-committed; v.Name != "desktop" || v.State != StatePassed || v.Screenshot != "screenshots/desktop.png" {
		t.Fatalf("committed viewport: %+v", v)
	}
	<-entered // the second viewport's run is in flight

	st, err = r.Status(id)
	if err != nil {
		t.Fatal(err)
	}
	v0 := st.Viewports[0]
	if st.State != StateRunning || v0.State != StatePassed || v0.RunID == "" || v0.ReceiptHash == "" || v0.ScreenshotBytes != 1000 ||
		!reflect.DeepEqual(asAny(t, v0.Outputs["balances"]), asAny(t, answer(members[1]))) || st.Viewports[1].State != "" {
		t.Fatalf("record while the second viewport runs: %+v", st)
	}
	listed := map[string]int64{}
	var sum int64
	for _, a := range st.Artifacts {
		listed[a.Name] = a.Size
		sum += a.Size
	}
	if listed[v0.Screenshot] != 1000 || listed[v0.RunID+"/run.receipt.json"] == 0 || sum != st.ArtifactBytes {
		t.Errorf("artifacts while running: %v (%d bytes, record %d)", st.Artifacts, sum, st.ArtifactBytes)
	}
	if len(st.Steps) == 0 || len(st.Steps)*2 != st.TotalSteps {
		t.Errorf("steps while running: %d of %d", len(st.Steps), st.TotalSteps)
	}
	for _, s := range st.Steps {
		if s.Viewport != "desktop" {
			t.Errorf("step of %q committed before its viewport ended", s.Viewport)
		}
	}
	disk, err := os.ReadFile(filepath.Join(dir, id, recordName))
	if err != nil {
		t.Fatal(err)
	}
	var onDisk Status
	if err := json.Unmarshal(disk, &onDisk); err != nil {
		t.Fatal(err)
	}
	if onDisk.Viewports[0].RunID != v0.RunID || len(onDisk.Steps) != len(st.Steps) || len(onDisk.Artifacts) != len(st.Artifacts) {
		t.Errorf("record on disk lags: %+v", onDisk)
	}

	// A crash now: the copy holds the second viewport's reserved run
	// directory, not listed anywhere.
	crashed := filepath.Join(t.TempDir(), "state")
	if out, err := exec.Command("cp", "-a", dir, crashed).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
	runDir := filepath.Join(crashed, id, runName)
	if ents, _ := os.ReadDir(runDir); len(ents) != 3 {
		t.Fatalf("run folder of the crash holds %d entries, want screenshots/, the first run's directory and the second's, reserved", len(ents))
	}
	r2 := newRunner(t, crashed, f.source, WithViewportSource(src))
	got, err := r2.Status(id)
	if err != nil {
		t.Fatal(err)
	}
	if got.State != StateInterrupted || got.Code != CodeServiceRestarted || got.Finished == nil || len(got.Outputs) != 0 || got.RunID != "" {
		t.Errorf("after the restart: %+v", got)
	}
	if !reflect.DeepEqual(got.Viewports[0], v0) || !reflect.DeepEqual(got.Viewports[1], ViewportRecord{Name: "narrow", Width: 390, Height: 844}) {
		t.Errorf("viewports after the restart: %+v", got.Viewports)
	}
	if !reflect.DeepEqual(got.Artifacts, st.Artifacts) || got.ArtifactBytes != st.ArtifactBytes ||
		!reflect.DeepEqual(got.Steps, st.Steps) || got.CompletedSteps != len(st.Steps) {
		t.Errorf("after the restart: artifacts %v (%d), steps %d completed %d; before %v (%d), %d",
			got.Artifacts, got.ArtifactBytes, len(got.Steps), got.CompletedSteps, st.Artifacts, st.ArtifactBytes, len(st.Steps))
	}
	if after := filesUnder(t, runDir); !reflect.DeepEqual(after, listed) {
		t.Errorf("files after the restart %v, want the committed %v", after, listed)
	}
	if ents, _ := os.ReadDir(runDir); len(ents) != 2 {
		t.Errorf("run folder after the restart holds %d entries, want screenshots/ and the first run's directory", len(ents))
	}
	r2.mu.Lock()
	retained := r2.retained
	r2.mu.Unlock()
	if retained != st.ArtifactBytes {
		t.Errorf("retained bytes %d, want the kept %d", retained, st.ArtifactBytes)
	}
}

// TestViewportFailureStops (fake driver): the first viewport that does
// not pass ends the job (seed 003: a failed step stops the run and
// preserves prior artifacts). The second of three viewports meets a page
// whose member field lost its label: the job fails ui_assertion_failed
// with that viewport's run as its top-level run; the first viewport
// keeps its result and screenshot, the failed one has its evidence and
// its failed step recorded but no screenshot, and the third is never
// opened.
func TestViewportFailureStops(t *testing.T) {
	var opens atomic.Int64
	src := func(_ context.Context, w, h int) (runtime.Driver, error) {
		site := tellerSite()
		if opens.Add(1) == 2 {
			site.Pages[origin+"/members"].Body[0].Label = "Member Number"
		}
		return &shotDriver{Driver: runtimetest.NewDriver(site), size: 500}, nil
	}
	f := &fakeSource{}
	r := newRunner(t, t.TempDir(), f.source, WithViewportSource(src))
	vps := []Viewport{{"desktop", 1280, 800}, {"narrow", 390, 844}, {"tiny", 320, 480}}
	st, err := r.Submit(t.Context(), Request{Capability: tellerCap(t), Inputs: inputs("41"), Viewports: vps})
	if err != nil {
		t.Fatal(err)
	}
	st = wait(t, r, st.ID)
	v := st.Viewports
	if st.State != StateFailed || st.Code != CodeUIAssertionFailed || len(st.Outputs) != 0 || opens.Load() != 2 {
		t.Fatalf("job: %+v (opened %d)", st, opens.Load())
	}
	if v[0].State != StatePassed || v[0].Screenshot == "" || v[1].State != StateFailed || v[1].Code != CodeUIAssertionFailed ||
		v[1].Screenshot != "" || v[1].RunID == "" || v[1].RunID != st.RunID || v[1].Category == "" || !reflect.DeepEqual(v[2], ViewportRecord{Name: "tiny", Width: 320, Height: 480}) {
		t.Errorf("viewports: %+v", v)
	}
	last := st.Steps[len(st.Steps)-1]
	if last.Viewport != "narrow" || last.Status != receipt.ActionFailed || st.Steps[0].Viewport != "desktop" {
		t.Errorf("steps: %+v", st.Steps)
	}
	listed := map[string]bool{}
	for _, a := range st.Artifacts {
		listed[a.Name] = true
	}
	if !listed[v[0].Screenshot] || !listed[v[0].RunID+"/run.receipt.json"] || !listed[v[1].RunID+"/run.receipt.json"] || listed["screenshots/narrow.png"] {
		t.Errorf("artifacts: %v", st.Artifacts)
	}
}
