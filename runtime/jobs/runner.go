package jobs

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/safefs"
	"github.com/vera-run/vera/runtime"
)

// Request is one job submission.
type Request struct {
	// Capability is what to run; required. The runner does not modify
	// it and does not keep it after the job ends.
	Capability *capability.Capability
	// Inputs are the run's inputs, as for runtime.Execute. They are held
	// in memory until the job ends and never written to disk.
	Inputs map[string]any
	// Label is a free caller label kept in the record (at most 128
	// bytes).
	Label string
	// Budget is the whole job's run budget (driver opening included),
	// counted from when it starts running: 0 is [DefaultRunBudget], at
	// most [MaxRunBudget].
	Budget time.Duration
	// Viewports, when not empty, run the capability once per viewport,
	// in order, each in a fresh browser context of its size, each
	// passing run ending with a viewport screenshot ([Viewport]); at
	// most [MaxViewports]. Without viewports the capability runs once
	// at the driver's own size and no screenshot is taken.
	Viewports []Viewport
}

// maxLabel bounds Request.Label.
const maxLabel = 128

// The causes a job's context ends with.
var (
	errCancelRequested = errors.New("jobs: cancel requested")
	errExpired         = errors.New("jobs: expired")
	errBudget          = errors.New("jobs: run budget exhausted")
)

// recordName is the job record inside a job's folder; runName is the
// folder the run's evidence is written into.
const (
	recordName = "job.json"
	runName    = "run"
	maxRecord  = 4 << 20
)

// Runner is a bounded job runner: it admits jobs within its limits, runs
// them in acceptance order on its slots, each with a fresh driver, and
// keeps their records on disk until they expire. Its methods are safe
// for concurrent use.
type Runner struct {
	dir  string
	cfg  config
	log  *slog.Logger
	eps  []*endpoint    // the slots: a pool, or one endpoint over the source (pool.go)
	g    errgroup.Group // the janitor and every job's goroutine
	stop context.CancelFunc
	life context.Context

	wake chan struct{} // a job was queued, a slot freed or an endpoint's health changed

	mu       sync.Mutex
	closed   bool
	jobs     map[string]*job
	queue    []*job // queued jobs in acceptance order
	running  int
	retained int64         // bytes held by terminal jobs
	changed  chan struct{} // closed and replaced when a slot frees or health changes

	closeOnce sync.Once
}

// job is one job's live state.
type job struct {
	st     Status
	ctx    context.Context
	cancel context.CancelCauseFunc
	done   chan struct{}
	// admitted is closed once Submit reported the acceptance, so the
	// hooks see queued before running.
	admitted  chan struct{}
	cap       *capability.Capability
	inputs    map[string]any
	budget    time.Duration
	viewports []Viewport
	// ep is the endpoint whose slot the job holds while running (nil
	// while queued, or while failing over without a slot).
	ep *endpoint
}

// New opens (creating it, owner-only, when missing) the state folder dir
// and returns a runner over source. Jobs found in dir are taken up: a
// terminal record is kept until it expires; a record that was not
// terminal (queued or running when the previous runner ended without
// Close) becomes interrupted with code service_restarted, and its run
// folder, whose evidence was never committed, is removed. The slots
// are source's (WithActiveBrowsers of them), or, with [WithEndpoints],
// a pool's, and source must then be nil. A nil source without
// WithEndpoints, a source with it, or a bad option value is
// [ErrInvalidArgument].
func New(dir string, source DriverSource, opts ...Option) (*Runner, error) {
	cfg := config{active: DefaultActiveBrowsers, queued: DefaultMaxQueued, retained: DefaultRetainedRuns,
		steps: DefaultMaxSteps, artifactBudget: DefaultArtifactBudget, now: time.Now}
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	if cfg.err != nil {
		return nil, cfg.err
	}
	if cfg.healthInterval == 0 {
		cfg.healthInterval = DefaultHealthInterval
	}
	eps, err := newEndpoints(source, &cfg)
	if err != nil {
		return nil, err
	}
	if dir == "" {
		return nil, fmt.Errorf("%w: empty state folder", ErrInvalidArgument)
	}
	if cfg.logger == nil {
		cfg.logger = slog.New(slog.DiscardHandler)
	}
	// The run options' own values are checked once, here: Execute
	// reports a bad option before it looks at the (nil) capability.
	if _, err := runtime.Execute(context.Background(), nil, nil, cfg.runOpts...); errors.Is(err, runtime.ErrInvalidArgument) {
		return nil, fmt.Errorf("%w: WithRunOptions: %w", ErrInvalidArgument, err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("jobs: state folder: %w", err)
	}
	if st, err := os.Lstat(dir); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("jobs: state folder %q is not a directory", dir)
	}
	life, stop := context.WithCancel(context.Background())
	r := &Runner{dir: dir, cfg: cfg, log: cfg.logger, eps: eps,
		life: life, stop: stop, jobs: map[string]*job{}, wake: make(chan struct{}, 1), changed: make(chan struct{})}
	if err := r.recover(); err != nil {
		stop()
		return nil, err
	}
	r.g.Go(r.janitor)
	r.g.Go(r.dispatcher)
	if len(cfg.endpoints) > 0 {
		r.g.Go(r.health)
		for _, e := range eps {
			if e.cfg.Done != nil {
				r.g.Go(r.watchDone(e))
			}
		}
	}
	return r, nil
}

// recover takes up the jobs a previous runner left in the state folder.
func (r *Runner) recover() error {
	ents, err := os.ReadDir(r.dir)
	if err != nil {
		return fmt.Errorf("jobs: state folder: %w", err)
	}
	for _, e := range ents {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), "job_") {
			continue
		}
		jd := filepath.Join(r.dir, e.Name())
		root, err := os.OpenRoot(jd)
		if err != nil {
			r.log.Warn("job folder unreadable", "job", e.Name(), "err", err)
			continue
		}
		_, _ = safefs.RemoveTemps(root, ".")
		raw, err := safefs.ReadFileLimited(root, recordName, maxRecord)
		root.Close()
		if err != nil {
			// Accepted but never recorded: nothing was promised.
			r.log.Warn("job without a record removed", "job", e.Name(), "err", err)
			_ = os.RemoveAll(jd)
			continue
		}
		var st Status
		if err := json.Unmarshal(raw, &st); err != nil || st.Schema != StatusSchema || st.ID != e.Name() {
			r.log.Warn("job record unreadable, left in place", "job", e.Name())
			continue
		}
		j := &job{st: st, done: make(chan struct{})}
		close(j.done)
		if !st.State.Terminal() {
			// Found non-terminal after a restart: interrupted. The
			// viewports it committed stay, with their files; every
			// other file of its run folder, evidence begun but never
			// committed, is removed.
			now := r.cfg.now()
			j.st.State, j.st.Code = StateInterrupted, CodeServiceRestarted
			j.st.QueuePosition, j.st.Finished = 0, &now
			j.st.Outputs, j.st.RunID, j.st.ReceiptHash = nil, "", ""
			j.st.Artifacts, j.st.ArtifactBytes = pruneUncommitted(filepath.Join(jd, runName), j.st.Artifacts)
			keepCommitted(&j.st)
			if err := r.write(j.st); err != nil {
				return err
			}
			r.log.Info("job interrupted by restart", "job", st.ID)
		}
		r.jobs[st.ID] = j
		r.retained += j.st.ArtifactBytes
	}
	return nil
}

// Submit admits one job or refuses it. A refusal is an error: the
// request itself ([ErrInvalidRequest], [ErrTooLarge]), the queue
// ([ErrQueueFull]), the artifact budget ([ErrArtifactCapacity]), the
// availability check ([ErrBrowserUnavailable]) or a closed runner
// ([ErrStopped]); nothing is written for it. An admitted job is queued
// (its record on disk) and its Status returned. The capability and
// inputs are checked as runtime.Execute checks them, before admission,
// so a job never fails for a reason its submission already showed.
func (r *Runner) Submit(ctx context.Context, req Request) (Status, error) {
	if r == nil {
		return Status{}, fmt.Errorf("%w: nil runner", ErrInvalidArgument)
	}
	if ctx == nil {
		return Status{}, fmt.Errorf("%w: nil context", ErrInvalidArgument)
	}
	c := req.Capability
	if c == nil {
		return Status{}, fmt.Errorf("%w: no capability", ErrInvalidRequest)
	}
	budget := req.Budget
	switch {
	case budget == 0:
		budget = DefaultRunBudget
	case budget < time.Millisecond || budget > MaxRunBudget:
		return Status{}, fmt.Errorf("%w: run budget %v outside 1ms..%v", ErrInvalidRequest, budget, MaxRunBudget)
	}
	if len(req.Label) > maxLabel {
		return Status{}, fmt.Errorf("%w: label longer than %d bytes", ErrInvalidRequest, maxLabel)
	}
	if err := checkViewports(req.Viewports); err != nil {
		return Status{}, err
	}
	if len(req.Viewports) > 0 && !r.viewportsSupported() {
		return Status{}, &ViewportError{Index: -1, Problem: ViewportUnsupported, Detail: "the runner has no viewport driver source"}
	}
	raw, err := json.Marshal(struct {
		Capability *capability.Capability `json:"capability"`
		Inputs     map[string]any         `json:"inputs"`
		Label      string                 `json:"label"`
		Viewports  []Viewport             `json:"viewports,omitempty"`
	}{c, req.Inputs, req.Label, req.Viewports})
	if err != nil {
		return Status{}, fmt.Errorf("%w: encode: %v", ErrInvalidRequest, err)
	}
	if len(raw) > MaxSubmissionBytes {
		return Status{}, fmt.Errorf("%w: %w: %d bytes, at most %d", ErrInvalidRequest, ErrTooLarge, len(raw), MaxSubmissionBytes)
	}
	steps := 0
	for i := range c.Milestones {
		steps += len(c.Milestones[i].Actions)
	}
	if steps > r.cfg.steps {
		return Status{}, fmt.Errorf("%w: %d steps, at most %d", ErrInvalidRequest, steps, r.cfg.steps)
	}
	// Execute's refusals, without a driver: everything it checks before
	// the driver (state, validation, executor checks, inputs) is checked
	// now, and a submission that passes them all gets ErrNoDriver, with
	// nothing reserved or written.
	dry := append(slices.Clone(r.cfg.runOpts), runtime.WithDriver(nil)) // never a run, whatever the run options hold
	if _, err := runtime.Execute(ctx, c, req.Inputs, dry...); !errors.Is(err, runtime.ErrNoDriver) {
		if err == nil {
			err = errors.New("unexpected run without a driver")
		}
		return Status{}, fmt.Errorf("%w: %w", ErrInvalidRequest, err)
	}
	if r.cfg.available != nil {
		if err := r.cfg.available(); err != nil {
			return Status{}, fmt.Errorf("%w: %v", ErrBrowserUnavailable, err)
		}
	}

	r.mu.Lock()
	switch {
	case r.closed:
		r.mu.Unlock()
		return Status{}, ErrStopped
	case len(r.jobs) >= r.cfg.retained:
		err := fmt.Errorf("%w: %d jobs retained, at most %d until one expires", ErrQueueFull, len(r.jobs), r.cfg.retained)
		r.mu.Unlock()
		return Status{}, err
	case r.healthySlotsLocked() == 0:
		r.mu.Unlock()
		return Status{}, fmt.Errorf("%w: no healthy browser endpoint", ErrBrowserUnavailable)
	case len(r.queue)+r.running >= r.healthySlotsLocked()+r.cfg.queued:
		err := fmt.Errorf("%w: %d running and %d queued", ErrQueueFull, r.running, len(r.queue))
		r.mu.Unlock()
		return Status{}, err
	case r.retained+int64(len(r.queue)+r.running+1)*MaxRunArtifactBytes > r.cfg.artifactBudget:
		err := fmt.Errorf("%w: %d bytes retained, %d reserved for active jobs, budget %d", ErrArtifactCapacity,
			r.retained, int64(len(r.queue)+r.running)*MaxRunArtifactBytes, r.cfg.artifactBudget)
		r.mu.Unlock()
		return Status{}, err
	}
	now := r.cfg.now()
	id := newJobID()
	jctx, cancel := context.WithCancelCause(r.life)
	total := steps
	if len(req.Viewports) > 0 {
		total = steps * len(req.Viewports)
	}
	j := &job{
		ctx: jctx, cancel: cancel, done: make(chan struct{}), admitted: make(chan struct{}), cap: c, inputs: req.Inputs, budget: budget,
		viewports: slices.Clone(req.Viewports),
		st: Status{
			Schema: StatusSchema, ID: id, Label: req.Label, State: StateQueued,
			CapabilityID: c.ID, CapabilityVersion: c.Version,
			Accepted: now, Expires: now.Add(Expiry), BudgetMS: budget.Milliseconds(), TotalSteps: total,
			Viewports: viewportRecords(req.Viewports),
		},
	}
	if err := os.Mkdir(filepath.Join(r.dir, id), 0o700); err != nil {
		r.mu.Unlock()
		cancel(nil)
		return Status{}, fmt.Errorf("jobs: job folder: %w", err)
	}
	r.queue = append(r.queue, j)
	j.st.QueuePosition = len(r.queue)
	if err := r.write(j.st); err != nil {
		r.queue = r.queue[:len(r.queue)-1]
		r.mu.Unlock()
		cancel(nil)
		_ = os.RemoveAll(filepath.Join(r.dir, id))
		return Status{}, err
	}
	r.jobs[id] = j
	st := j.st
	r.mu.Unlock()
	r.log.Info("job accepted", "job", id, "capability", c.ID, "queue_position", st.QueuePosition)
	r.fireState(st)
	r.firePosition(id, st.QueuePosition)
	close(j.admitted)
	select {
	case r.wake <- struct{}{}:
	default:
	}
	return st, nil
}

// dispatcher starts queued jobs in acceptance order: it takes a free
// slot of a healthy endpoint (pool.go), then the head of the queue
// (cancelled jobs have left it), and runs it on a goroutine of its own
// that gives the slot back. It waits for a wake (a submission, a slot
// freed, an endpoint's health changed) when no slot is free. When no
// endpoint is healthy the queued jobs end failed browser_unavailable
// instead of waiting for one that may never come back. On Close it
// ends every job still queued with service_stopped.
func (r *Runner) dispatcher() error {
	defer r.stopQueued()
	for {
		select {
		case <-r.life.Done():
			return nil
		case <-r.wake:
		}
		for {
			r.mu.Lock()
			if len(r.queue) == 0 || r.closed {
				r.mu.Unlock()
				break
			}
			j := r.queue[0]
			r.mu.Unlock()
			<-j.admitted // Submit has reported it queued
			r.mu.Lock()
			if len(r.queue) == 0 || r.queue[0] != j || r.closed {
				// Cancelled meanwhile: take the new head.
				r.mu.Unlock()
				continue
			}
			if r.healthySlotsLocked() == 0 {
				r.mu.Unlock()
				r.endQueued(j, CodeBrowserUnavailable)
				continue
			}
			ep := r.takeSlotLocked(nil)
			if ep == nil {
				r.mu.Unlock()
				break // every healthy slot busy: wait for a wake
			}
			now := r.cfg.now()
			j.ep = ep
			j.st.State, j.st.Started, j.st.QueuePosition, j.st.Endpoint = StateRunning, &now, 0, ep.cfg.Name
			ms := r.dequeueLocked(j)
			r.running++
			err := r.write(j.st)
			st := j.st
			r.g.Go(func() error {
				r.run(j)
				return nil
			})
			r.mu.Unlock()
			if err != nil {
				r.log.Warn("job record not written", "job", st.ID, "err", err)
			}
			r.fireState(st)
			r.fireMoved(ms)
		}
	}
}

// run runs one started job and records its terminal state.
func (r *Runner) run(j *job) {
	fin := r.execute(j)
	r.mu.Lock()
	r.running--
	r.finishLocked(j, fin)
	st := j.st
	ep := j.ep
	j.ep = nil
	r.mu.Unlock()
	r.fireState(st)
	if ep != nil {
		if fin.code == CodeBrowserCrashed || fin.code == CodeBrowserUnavailable {
			// A dead endpoint explains it: check before the slot is
			// given to the next job, so queued work does not follow it.
			r.checkEndpoint(r.life, ep)
		}
		r.releaseSlot(ep)
	}
	close(j.done) // after the hook: Wait returns once the terminal state was reported
}

// stopQueued ends every queued job with service_stopped (Close).
func (r *Runner) stopQueued() {
	for {
		r.mu.Lock()
		if len(r.queue) == 0 {
			r.mu.Unlock()
			return
		}
		j := r.queue[0]
		r.mu.Unlock()
		<-j.admitted
		r.endQueued(j, CodeServiceStopped)
	}
}

// outcome is how a run ended, before it is recorded.
type outcome struct {
	state     State
	code      Code
	res       *runtime.Result // the run that decided the job: the first that did not pass, else the last
	cause     string          // for the log
	artifact  int64
	artifacts []Artifact
	steps     []StepRecord     // every run's actions, in order
	viewports []ViewportRecord // with results; nil without viewports
	ran       bool             // a run's result is in steps and viewports
}

// execute opens a driver and runs the job within its budget: once, or
// once per viewport in order (each with a fresh driver of that size,
// ending with a screenshot when it passes) until one does not pass.
func (r *Runner) execute(j *job) outcome {
	ctx, cancel := context.WithTimeoutCause(j.ctx, j.budget, errBudget)
	defer cancel()
	runDir := filepath.Join(r.dir, j.st.ID, runName)
	if err := os.Mkdir(runDir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return outcome{state: StateFailed, code: CodeArtifactCapacity, cause: err.Error()}
	}
	r.mu.Lock()
	vrecs := slices.Clone(j.st.Viewports)
	r.mu.Unlock()
	runs := len(j.viewports)
	if runs == 0 {
		runs = 1
	}
	var o outcome
	offset := 0
	for i := range runs {
		var vp *Viewport
		if len(j.viewports) > 0 {
			vp = &j.viewports[i]
		}
		var drv runtime.Driver
		var err error
		if i == 0 {
			drv, err = r.openFirst(ctx, j, vp)
		} else {
			r.mu.Lock()
			ep := j.ep
			r.mu.Unlock()
			drv, err = openOn(ctx, ep, vp)
		}
		if err != nil {
			o = outcome{state: StateFailed, code: sourceCode(err), cause: err.Error(), steps: o.steps, res: o.res, ran: o.ran}
			if c := interruption(ctx); c != "" {
				o.state, o.code = stateOf(c), c
			}
			if vp != nil {
				vrecs[i].State, vrecs[i].Code = o.state, o.code
			}
			break
		}
		hooks := r.stepHooks(j, offset, vp)
		opts := append(slices.Clone(r.cfg.runOpts), runtime.WithDriver(drv), runtime.WithRunDir(runDir),
			runtime.WithHooks(hooks), runtime.WithLogger(r.log))
		res, err := runtime.Execute(ctx, j.cap, j.inputs, opts...)
		vo := classify(res, err, interruption(ctx))
		vname := ""
		if vp != nil {
			vname = vp.Name
		}
		if res != nil {
			for k, a := range res.Actions {
				vo.steps = append(vo.steps, StepRecord{Viewport: vname, Index: k + 1, ID: a.ID, Milestone: a.Milestone, Status: a.Status})
			}
			offset += len(res.Actions)
		}
		if vp != nil {
			v := &vrecs[i]
			if vo.state == StatePassed {
				name, size, code, serr := saveScreenshot(ctx, drv, runDir, vp.Name)
				switch {
				case serr != nil && interruption(ctx) != "":
					vo.state, vo.code, vo.cause = stateOf(interruption(ctx)), interruption(ctx), serr.Error()
				case serr != nil:
					vo.state, vo.code, vo.cause = StateFailed, code, serr.Error()
				default:
					v.Screenshot, v.ScreenshotBytes = name, size
				}
			}
			v.State, v.Code = vo.state, vo.code
			if res != nil {
				v.Terminal, v.Outcome, v.RunID, v.ReceiptHash, v.Outputs = res.State, res.Outcome, res.RunID, res.ReceiptHash, res.ModelOutputs
				if res.Failure != nil {
					v.Category, v.Reason = res.Failure.Category, res.Failure.Reason
				}
			}
		}
		if err := drv.Close(); err != nil {
			r.log.Debug("driver close", "job", j.st.ID, "err", err)
		}
		vo.steps = append(o.steps, vo.steps...)
		vo.ran = o.ran || res != nil
		if vo.res == nil {
			vo.res = o.res
		}
		o = vo
		if vp != nil {
			if _, used := listArtifacts(runDir); used > MaxRunArtifactBytes {
				// Not committed: the check after the loop fails the job
				// artifact_capacity and removes the run folder.
				o.state, o.code = StateFailed, CodeArtifactCapacity
				vrecs[i].State, vrecs[i].Code = o.state, o.code
				break
			}
			r.commitViewport(j, i, vrecs, o.steps, runDir)
		}
		if o.state != StatePassed {
			break
		}
	}
	if len(j.viewports) > 0 {
		o.viewports = vrecs
	}
	o.artifacts, o.artifact = listArtifacts(runDir)
	if o.artifact > MaxRunArtifactBytes {
		_ = os.RemoveAll(runDir)
		o = outcome{state: StateFailed, code: CodeArtifactCapacity, res: o.res, steps: o.steps, viewports: o.viewports, ran: o.ran,
			cause: fmt.Sprintf("%d artifact bytes", o.artifact)}
		for i := range o.viewports {
			o.viewports[i].Screenshot, o.viewports[i].ScreenshotBytes = "", 0
		}
	}
	return o
}

// commitViewport records viewport i's result as soon as its run ended,
// before the next viewport starts: its record in vrecs, the steps of
// every viewport run so far, and the run folder's files, which are then
// exactly the committed viewports' evidence (no other run is writing).
// The record is written (a restart keeps what it lists) and the
// Viewport hook called. The record's slices are fresh copies: a Status
// handed out before shares none of them.
func (r *Runner) commitViewport(j *job, i int, vrecs []ViewportRecord, steps []StepRecord, runDir string) {
	as, n := listArtifacts(runDir)
	r.mu.Lock()
	j.st.Viewports = slices.Clone(vrecs)
	j.st.Steps = slices.Clone(steps)
	j.st.Artifacts, j.st.ArtifactBytes = as, n
	err := r.write(j.st)
	v := j.st.Viewports[i]
	r.mu.Unlock()
	if err != nil {
		r.log.Warn("job record not written", "job", j.st.ID, "err", err)
	}
	if h := r.cfg.hooks; h != nil && h.Viewport != nil {
		h.Viewport(j.st.ID, v)
	}
}

// interruption is the code of the runner's own reason for ending ctx:
// cancelled (Cancel, expiry), run_timeout (the budget), service_stopped
// (Close); "" while ctx lives or when it ended otherwise.
func interruption(ctx context.Context) Code {
	switch c := context.Cause(ctx); {
	case c == nil:
		return ""
	case errors.Is(c, errCancelRequested), errors.Is(c, errExpired):
		return CodeCancelled
	case errors.Is(c, errBudget):
		return CodeRunTimeout
	case errors.Is(c, ErrStopped), errors.Is(c, context.Canceled):
		// The runner's life context: Close.
		return CodeServiceStopped
	}
	return ""
}

// stateOf is the state an interruption code ends a job in.
func stateOf(c Code) State {
	switch c {
	case CodeCancelled:
		return StateCancelled
	case CodeServiceStopped, CodeServiceRestarted:
		return StateInterrupted
	}
	return StateFailed
}

// stepHooks turns the runtime's action hooks into per-step progress;
// offset is the number of actions the job's earlier viewports ran, vp
// the viewport being run (nil without viewports).
func (r *Runner) stepHooks(j *job, offset int, vp *Viewport) *runtime.Hooks {
	h := r.cfg.hooks
	vname := ""
	if vp != nil {
		vname = vp.Name
	}
	return &runtime.Hooks{
		ActionStart: func(a runtime.ActionStartInfo) {
			if h != nil && h.Step != nil {
				h.Step(j.st.ID, StepProgress{Index: offset + a.Ordinal, Total: j.st.TotalSteps, ID: a.ID, Milestone: a.Milestone, Viewport: vname})
			}
		},
		ActionDone: func(a runtime.ActionDoneInfo) {
			r.mu.Lock()
			j.st.CompletedSteps++
			n := j.st.CompletedSteps
			r.mu.Unlock()
			if h != nil && h.Step != nil {
				h.Step(j.st.ID, StepProgress{Index: n, Total: j.st.TotalSteps, ID: a.Outcome.ID, Milestone: a.Outcome.Milestone,
					Done: true, Status: a.Outcome.Status, Viewport: vname})
			}
		},
	}
}

// finishLocked records a run's terminal state.
func (r *Runner) finishLocked(j *job, o outcome) {
	now := r.cfg.now()
	j.st.State, j.st.Code, j.st.Finished = o.state, o.code, &now
	if res := o.res; res != nil {
		j.st.Terminal, j.st.Outcome, j.st.Mode = res.State, res.Outcome, res.Mode
		if res.Failure != nil {
			j.st.Category, j.st.Reason = res.Failure.Category, res.Failure.Reason
		}
		if o.code != CodeArtifactCapacity {
			j.st.Outputs, j.st.RunID, j.st.ReceiptHash = res.ModelOutputs, res.RunID, res.ReceiptHash
		}
	}
	if o.ran {
		j.st.Steps = o.steps
	}
	if o.viewports != nil {
		j.st.Viewports = o.viewports
		if o.code == CodeArtifactCapacity {
			for i := range j.st.Viewports {
				j.st.Viewports[i].Outputs, j.st.Viewports[i].RunID, j.st.Viewports[i].ReceiptHash = nil, "", ""
			}
		}
	}
	if o.code != CodeArtifactCapacity {
		j.st.ArtifactBytes, j.st.Artifacts = o.artifact, o.artifacts
	} else {
		// The run folder is gone, the viewports committed before with it.
		j.st.ArtifactBytes, j.st.Artifacts = 0, nil
	}
	r.retained += j.st.ArtifactBytes
	j.cap, j.inputs = nil, nil
	if err := r.write(j.st); err != nil {
		r.log.Warn("job record not written", "job", j.st.ID, "err", err)
	}
	j.cancel(nil)
	r.log.Info("job finished", "job", j.st.ID, "state", string(o.state), "error", string(o.code), "cause", o.cause)
}

// endQueued ends a job that never got a slot with code (cancelled or
// service_stopped); a job no longer queued is left alone.
func (r *Runner) endQueued(j *job, code Code) {
	r.mu.Lock()
	if j.st.State != StateQueued {
		r.mu.Unlock()
		return
	}
	ms := r.dequeueLocked(j)
	j.st.QueuePosition = 0
	r.finishLocked(j, outcome{state: stateOf(code), code: code})
	st := j.st
	r.mu.Unlock()
	r.fireState(st)
	close(j.done)
	r.fireMoved(ms)
}

// moved is one queued job's new position, for the position hook.
type moved struct {
	id  string
	pos int
}

// dequeueLocked removes j from the queue and renumbers the jobs behind
// it, returning their new positions for the position hook.
func (r *Runner) dequeueLocked(j *job) []moved {
	i := slices.Index(r.queue, j)
	if i < 0 {
		return nil
	}
	r.queue = slices.Delete(r.queue, i, i+1)
	var ms []moved
	for k, q := range r.queue {
		q.st.QueuePosition = k + 1
		if k >= i {
			ms = append(ms, moved{q.st.ID, k + 1})
		}
	}
	return ms
}

// Status returns a job's record, or [ErrNotFound].
func (r *Runner) Status(id string) (Status, error) {
	if r == nil {
		return Status{}, fmt.Errorf("%w: nil runner", ErrInvalidArgument)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	j, ok := r.jobs[id]
	if !ok {
		return Status{}, fmt.Errorf("%w: %q", ErrNotFound, id)
	}
	return j.st, nil
}

// Wait blocks until the job is terminal (and its terminal StateChange
// hook has returned) and returns its record; when ctx ends first it
// returns the current record and ctx.Err().
func (r *Runner) Wait(ctx context.Context, id string) (Status, error) {
	if r == nil || ctx == nil {
		return Status{}, fmt.Errorf("%w: nil runner or context", ErrInvalidArgument)
	}
	r.mu.Lock()
	j, ok := r.jobs[id]
	r.mu.Unlock()
	if !ok {
		return Status{}, fmt.Errorf("%w: %q", ErrNotFound, id)
	}
	select {
	case <-j.done:
	case <-ctx.Done():
		st, err := r.Status(id)
		if err != nil {
			return st, err
		}
		return st, ctx.Err()
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return j.st, nil
}

// Cancel requests a job's cancellation and returns its record. It is
// idempotent: a queued job becomes cancelled at once; a running job is
// marked CancelRequested and its run stopped (it ends cancelled within
// about a second, its evidence written); a terminal job is unchanged.
func (r *Runner) Cancel(id string) (Status, error) {
	if r == nil {
		return Status{}, fmt.Errorf("%w: nil runner", ErrInvalidArgument)
	}
	r.mu.Lock()
	j, ok := r.jobs[id]
	if !ok {
		r.mu.Unlock()
		return Status{}, fmt.Errorf("%w: %q", ErrNotFound, id)
	}
	switch j.st.State {
	case StateQueued:
		r.mu.Unlock()
		r.endQueued(j, CodeCancelled)
		return r.Status(id)
	case StateRunning:
		if !j.st.CancelRequested {
			j.st.CancelRequested = true
			j.cancel(errCancelRequested)
		}
	}
	st := j.st
	r.mu.Unlock()
	return st, nil
}

// RunDir returns the folder holding a job's run evidence (the
// runtime.WithRunDir of its run), or [ErrNotFound].
func (r *Runner) RunDir(id string) (string, error) {
	if _, err := r.Status(id); err != nil {
		return "", err
	}
	return filepath.Join(r.dir, id, runName), nil
}

// janitor removes expired jobs every JanitorInterval until Close.
func (r *Runner) janitor() error {
	t := time.NewTicker(JanitorInterval)
	defer t.Stop()
	for {
		select {
		case <-r.life.Done():
			return nil
		case <-t.C:
			r.sweep()
		}
	}
}

// sweep removes every terminal job past its expiry, with its folder, and
// cancels the non-terminal ones (removed by a later sweep).
func (r *Runner) sweep() {
	now := r.cfg.now()
	r.mu.Lock()
	var gone []string
	var expired []*job
	for id, j := range r.jobs {
		if now.Before(j.st.Expires) {
			continue
		}
		switch j.st.State {
		case StateQueued:
			expired = append(expired, j)
			continue
		case StateRunning:
			j.cancel(errExpired)
			continue
		}
		delete(r.jobs, id)
		r.retained -= j.st.ArtifactBytes
		gone = append(gone, id)
	}
	r.mu.Unlock()
	for _, j := range expired {
		r.endQueued(j, CodeCancelled)
	}
	for _, id := range gone {
		if err := os.RemoveAll(filepath.Join(r.dir, id)); err != nil {
			r.log.Warn("expired job not removed", "job", id, "err", err)
		}
		r.log.Info("job expired", "job", id)
	}
}

// Close stops the runner: new submissions are refused with
// [ErrStopped], queued and running jobs end interrupted with code
// service_stopped (a running one within about a second, its evidence
// written), the janitor stops, and Close waits for every goroutine of
// the runner, bounded by ctx (ctx.Err() when it ends first). Terminal
// records stay on disk for the next runner. It is idempotent.
func (r *Runner) Close(ctx context.Context) error {
	if r == nil || ctx == nil {
		return fmt.Errorf("%w: nil runner or context", ErrInvalidArgument)
	}
	r.closeOnce.Do(func() {
		r.mu.Lock()
		r.closed = true
		r.mu.Unlock()
		r.stop()
	})
	done := make(chan struct{})
	go func() { _ = r.g.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// write publishes a job's record atomically (0600, replacing the last).
func (r *Runner) write(st Status) error {
	b, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return fmt.Errorf("jobs: encode record: %w", err)
	}
	root, err := os.OpenRoot(filepath.Join(r.dir, st.ID))
	if err != nil {
		return fmt.Errorf("jobs: job folder: %w", err)
	}
	defer root.Close()
	if err := safefs.WriteFileAtomicReplace(root, recordName, append(b, '\n')); err != nil {
		return fmt.Errorf("jobs: write record: %w", err)
	}
	return nil
}

func (r *Runner) fireState(st Status) {
	if h := r.cfg.hooks; h != nil && h.StateChange != nil {
		h.StateChange(st)
	}
}

func (r *Runner) firePosition(id string, pos int) {
	if h := r.cfg.hooks; h != nil && h.QueuePosition != nil && pos > 0 {
		h.QueuePosition(id, pos)
	}
}

// fireMoved reports the new positions of the jobs behind a job that left
// the queue, as they were when it left.
func (r *Runner) fireMoved(ms []moved) {
	for _, m := range ms {
		r.firePosition(m.id, m.pos)
	}
}

// newJobID returns "job_" and 16 random bytes in hex.
func newJobID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return "job_" + hex.EncodeToString(b[:])
}

// listArtifacts lists the regular files under dir (sorted by path) and
// their total size.
func listArtifacts(dir string) ([]Artifact, int64) {
	var as []Artifact
	var n int64
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				rel, _ := filepath.Rel(dir, p)
				as = append(as, Artifact{Name: filepath.ToSlash(rel), Size: fi.Size()})
				n += fi.Size()
			}
		}
		return nil
	})
	return as, n
}
