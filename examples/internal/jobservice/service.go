package jobservice

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/vera-run/vera/bundle"
	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/safefs"
	"github.com/vera-run/vera/internal/strictjson"
	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/jobs"
)

// ErrInvalidArgument: a nil source, an empty state folder or an option
// value outside its range (the runner's own error is wrapped too).
var ErrInvalidArgument = errors.New("jobservice: invalid argument")

// ErrDriverSource: [New] was given both a driver source and
// [WithEndpoints], or neither. It wraps [ErrInvalidArgument].
var ErrDriverSource = fmt.Errorf("%w: give exactly one of a driver source and WithEndpoints", ErrInvalidArgument)

// runsName is the runner's state folder inside the service's.
const runsName = "runs"

// maxProblems bounds the problems listed in an error answer.
const maxProblems = 20

// Option configures [New].
type Option func(*config)

type config struct {
	logger    *slog.Logger
	now       func() time.Time
	bundles   string
	verify    []bundle.Option
	preflight func(context.Context) (*runtime.PreflightReport, error)
	hooks     *jobs.Hooks
	limits    Limits
	runner    []jobs.Option
	trial     bool
	// endpoints is the runner's pool (WithEndpoints); single names the
	// options that only a single driver source takes, when given.
	endpoints []jobs.Endpoint
	single    []string
}

// WithLogger injects the service's logger (also the runner's; nil
// discards).
func WithLogger(l *slog.Logger) Option { return func(c *config) { c.logger = l } }

// WithClock replaces time.Now for the service and its runner (tests move
// time past an expiry with it).
func WithClock(now func() time.Time) Option {
	return func(c *config) {
		c.now = now
		c.runner = append(c.runner, jobs.WithClock(now))
	}
}

// WithBundles sets the folder whose direct subfolders are the sealed
// bundles a request may name. Without it, requests naming a bundle are
// refused.
func WithBundles(dir string) Option { return func(c *config) { c.bundles = dir } }

// WithVerifyOptions adds options to every bundle.Verify (for example
// bundle.WithAllowLaunchedBrowser).
func WithVerifyOptions(opts ...bundle.Option) Option {
	return func(c *config) { c.verify = append(c.verify, opts...) }
}

// WithPreflight replaces the probe of GET /v1/preflight (default:
// runtime.Preflight over the driver source).
func WithPreflight(probe func(context.Context) (*runtime.PreflightReport, error)) Option {
	return func(c *config) { c.preflight = probe }
}

// WithHooks adds observers of the runner's progress, called after the
// service's own bookkeeping for the same event.
func WithHooks(h *jobs.Hooks) Option { return func(c *config) { c.hooks = h } }

// WithActiveBrowsers sets the runner's slots (jobs.WithActiveBrowsers).
// It is for a single driver source: with [WithEndpoints] the endpoints'
// slots decide, and New refuses it.
func WithActiveBrowsers(n int) Option {
	return func(c *config) {
		c.limits.ActiveBrowsers = n
		c.single = append(c.single, "WithActiveBrowsers")
		c.runner = append(c.runner, jobs.WithActiveBrowsers(n))
	}
}

// WithEndpoints runs the service over the runner's pool of browser
// endpoints (jobs.WithEndpoints: a slot count per endpoint, health
// checks, failover of queued work) instead of one driver source: New's
// source must then be nil ([ErrDriverSource]), and WithActiveBrowsers,
// WithViewportSource and WithAvailability are refused (the endpoints'
// slots, OpenViewport and health decide). The preflight probes every
// endpoint (runtime.Preflight over its Open) and is available while at
// least one passes and is neither unhealthy nor gone for the runner;
// its endpoints member lists each one.
func WithEndpoints(eps ...jobs.Endpoint) Option {
	return func(c *config) {
		c.endpoints = append(c.endpoints, eps...)
		c.runner = append(c.runner, jobs.WithEndpoints(eps...))
	}
}

// WithMaxQueued sets the runner's queue (jobs.WithMaxQueued).
func WithMaxQueued(n int) Option {
	return func(c *config) { c.limits.MaxQueued = n; c.runner = append(c.runner, jobs.WithMaxQueued(n)) }
}

// WithRetainedRuns sets the runner's retention (jobs.WithRetainedRuns).
func WithRetainedRuns(n int) Option {
	return func(c *config) { c.limits.RetainedRuns = n; c.runner = append(c.runner, jobs.WithRetainedRuns(n)) }
}

// WithMaxSteps sets the runner's step limit (jobs.WithMaxSteps).
func WithMaxSteps(n int) Option {
	return func(c *config) { c.limits.MaxSteps = n; c.runner = append(c.runner, jobs.WithMaxSteps(n)) }
}

// WithArtifactBudget sets the runner's retained-artifact admission
// budget (jobs.WithArtifactBudget).
func WithArtifactBudget(n int64) Option {
	return func(c *config) {
		c.limits.ArtifactBudgetBytes = n
		c.runner = append(c.runner, jobs.WithArtifactBudget(n))
	}
}

// WithAvailability sets the runner's admission check
// (jobs.WithAvailability): a failing check refuses a submission with 503
// browser_unavailable.
func WithAvailability(check func() error) Option {
	return func(c *config) {
		c.single = append(c.single, "WithAvailability")
		c.runner = append(c.runner, jobs.WithAvailability(check))
	}
}

// WithViewportSource sets the driver source of submissions with
// viewports (jobs.WithViewportSource; browser.(*Browser).OpenViewport
// fits). Without it a submission with viewports is refused, 422
// viewports_unsupported.
func WithViewportSource(open jobs.ViewportSource) Option {
	return func(c *config) {
		c.limits.Viewports = open != nil
		c.single = append(c.single, "WithViewportSource")
		c.runner = append(c.runner, jobs.WithViewportSource(open))
	}
}

// WithTrial makes the service offer the trial (GET /v1/trial): it
// serves the trial fixture on a loopback port of its own from New to
// Close, and answers GET /v1/trial with a submission against it that a
// client sends as is. The fixture is on the service's loopback, so only
// a browser on the same host reaches it (a launched one, not a remote
// endpoint).
func WithTrial() Option { return func(c *config) { c.trial = true } }

// WithRunOptions adds runtime options to every run (jobs.WithRunOptions).
func WithRunOptions(opts ...runtime.Option) Option {
	return func(c *config) { c.runner = append(c.runner, jobs.WithRunOptions(opts...)) }
}

// Service is the job service: the HTTP protocol of FORMAT.md §17 over a
// [jobs.Runner]. Its methods and its handler are safe for concurrent use.
type Service struct {
	cfg    config
	log    *slog.Logger
	runner *jobs.Runner
	tokens *tokenStore
	mux    *http.ServeMux
	closed chan struct{}
	once   sync.Once
	trial  *trial // nil without WithTrial

	pmu sync.Mutex // held while a probe runs: one probe at a time
	// pstale is set when a run ended with a browser code: the last
	// report may describe a browser that is gone, so the next
	// preflight probes again instead of reusing it.
	pstale atomic.Bool
	prep   *runtime.PreflightReport
	perr   error
	ptime  time.Time
	// peps is the last pool probe's verdict per endpoint (nil for a
	// single source or a WithPreflight probe); written by probePool,
	// which runs under pmu.
	peps map[string]endpointProbe

	wmu     sync.Mutex
	watches map[string]*watch

	emu  sync.Mutex
	envs map[string]envEntry // terminal runs' receipt environments, by job id
}

// watch is one job's change signal and last step report.
type watch struct {
	rev  uint64
	ch   chan struct{} // closed and replaced on every change
	prog *Progress
}

// New opens (creating it when missing, and making it owner-only, 0700)
// the state folder dir:
// runs/ is the runner's state folder (jobs.New: terminal records kept,
// non-terminal ones interrupted with service_restarted) and tokens.json
// the token hashes. Tokens of runs the runner no longer has are dropped.
func New(dir string, source jobs.DriverSource, opts ...Option) (*Service, error) {
	cfg := config{now: time.Now, limits: Limits{
		ActiveBrowsers: jobs.DefaultActiveBrowsers, MaxQueued: jobs.DefaultMaxQueued, RetainedRuns: jobs.DefaultRetainedRuns,
		MaxSteps: jobs.DefaultMaxSteps, DefaultTimeoutMS: jobs.DefaultRunBudget.Milliseconds(),
		MaxTimeoutMS: jobs.MaxRunBudget.Milliseconds(), MaxSubmissionBytes: MaxBodyBytes,
		MaxRunArtifactBytes: jobs.MaxRunArtifactBytes, ArtifactBudgetBytes: jobs.DefaultArtifactBudget,
		ExpirySeconds: int64(jobs.Expiry / time.Second),
		MaxViewports:  jobs.MaxViewports, MaxViewportWidth: jobs.MaxViewportWidth, MaxViewportHeight: jobs.MaxViewportHeight,
	}}
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	if (source == nil) == (len(cfg.endpoints) == 0) {
		return nil, ErrDriverSource
	}
	if dir == "" || cfg.now == nil {
		return nil, fmt.Errorf("%w: empty state folder or nil clock", ErrInvalidArgument)
	}
	pool := len(cfg.endpoints) > 0
	if pool {
		if len(cfg.single) > 0 {
			return nil, fmt.Errorf("%w: %s with WithEndpoints (the endpoints' slots, viewport sources and health decide)",
				ErrInvalidArgument, strings.Join(cfg.single, ", "))
		}
		cfg.limits.ActiveBrowsers, cfg.limits.Viewports = 0, true
		for _, e := range cfg.endpoints {
			cfg.limits.ActiveBrowsers += e.Slots
			cfg.limits.Viewports = cfg.limits.Viewports && e.OpenViewport != nil
		}
	}
	if cfg.logger == nil {
		cfg.logger = slog.New(slog.DiscardHandler)
	}
	// poolProbe: the default probe of a pool, endpoint by endpoint.
	poolProbe := pool && cfg.preflight == nil
	if cfg.preflight == nil && !pool {
		cfg.preflight = func(ctx context.Context) (*runtime.PreflightReport, error) {
			return runtime.Preflight(ctx, source)
		}
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("jobservice: state folder: %w", err)
	}
	if st, err := os.Lstat(dir); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("jobservice: state folder %q is not a directory", dir)
	}
	// The folder holds every run's record and token hash: owner-only,
	// even when it existed before.
	if err := os.Chmod(dir, 0o700); err != nil {
		return nil, fmt.Errorf("jobservice: state folder: %w", err)
	}
	tokens, err := loadTokens(dir)
	if err != nil {
		return nil, err
	}
	s := &Service{cfg: cfg, log: cfg.logger, tokens: tokens, closed: make(chan struct{}),
		watches: map[string]*watch{}, envs: map[string]envEntry{}}
	if poolProbe {
		s.cfg.preflight = s.probePool
	}
	ropts := append(slices.Clone(cfg.runner), jobs.WithLogger(cfg.logger), jobs.WithHooks(s.hooks()))
	r, err := jobs.New(filepath.Join(dir, runsName), source, ropts...)
	if err != nil {
		if errors.Is(err, jobs.ErrInvalidArgument) {
			return nil, fmt.Errorf("%w: %w", ErrInvalidArgument, err)
		}
		return nil, err
	}
	s.runner = r
	if err := tokens.keep(func(id string) bool { _, err := r.Status(id); return err == nil }); err != nil {
		_ = r.Close(context.Background())
		return nil, err
	}
	if cfg.trial {
		if s.trial, err = startTrial(s.log); err != nil {
			_ = r.Close(context.Background())
			return nil, err
		}
	}
	s.mux = s.routes()
	return s, nil
}

// Runner returns the service's runner (for a host's own monitoring).
func (s *Service) Runner() *jobs.Runner { return s.runner }

// Handler returns the HTTP handler of the protocol.
func (s *Service) Handler() http.Handler { return s.mux }

// Close ends pending status waits, closes the runner (queued and
// running jobs end interrupted with service_stopped) and stops the
// trial fixture, bounded by ctx.
func (s *Service) Close(ctx context.Context) error {
	s.once.Do(func() { close(s.closed) })
	err := s.runner.Close(ctx)
	return errors.Join(err, s.trial.close(ctx))
}

// hooks are the runner hooks: every event bumps the job's revision, a
// step report is kept as its progress, then the host's hooks run.
func (s *Service) hooks() *jobs.Hooks {
	user := s.cfg.hooks
	if user == nil {
		user = &jobs.Hooks{}
	}
	return &jobs.Hooks{
		StateChange: func(st jobs.Status) {
			switch st.Code {
			case jobs.CodeBrowserCrashed, jobs.CodeBrowserUnavailable, jobs.CodeBrowserLaunchFailed:
				s.pstale.Store(true)
			}
			s.bump(st.ID, func(w *watch) {
				if st.State != jobs.StateRunning {
					w.prog = nil
				}
			})
			if user.StateChange != nil {
				user.StateChange(st)
			}
		},
		QueuePosition: func(id string, pos int) {
			s.bump(id, nil)
			if user.QueuePosition != nil {
				user.QueuePosition(id, pos)
			}
		},
		Viewport: func(id string, v jobs.ViewportRecord) {
			// A viewport's result is in the record: a waiting status
			// request answers with it.
			s.bump(id, nil)
			if user.Viewport != nil {
				user.Viewport(id, v)
			}
		},
		Step: func(id string, p jobs.StepProgress) {
			s.bump(id, func(w *watch) {
				w.prog = &Progress{Index: p.Index, Total: p.Total, Step: p.ID, Milestone: p.Milestone, Viewport: p.Viewport,
					Done: p.Done, Status: p.Status}
			})
			if user.Step != nil {
				user.Step(id, p)
			}
		},
	}
}

func (s *Service) watchLocked(id string) *watch {
	w, ok := s.watches[id]
	if !ok {
		w = &watch{rev: 1, ch: make(chan struct{})}
		s.watches[id] = w
	}
	return w
}

func (s *Service) bump(id string, f func(*watch)) {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	w := s.watchLocked(id)
	if f != nil {
		f(w)
	}
	w.rev++
	close(w.ch)
	w.ch = make(chan struct{})
}

// snapshot returns id's revision, change channel and progress.
func (s *Service) snapshot(id string) (uint64, <-chan struct{}, *Progress) {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	w := s.watchLocked(id)
	var p *Progress
	if w.prog != nil {
		c := *w.prog
		p = &c
	}
	return w.rev, w.ch, p
}

// forget drops the watches of jobs the runner no longer has.
func (s *Service) forget() {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	for id := range s.watches {
		if _, err := s.runner.Status(id); err != nil {
			delete(s.watches, id)
		}
	}
	s.emu.Lock()
	defer s.emu.Unlock()
	for id := range s.envs {
		if _, err := s.runner.Status(id); err != nil {
			delete(s.envs, id)
		}
	}
}

func (s *Service) routes() *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", s.healthz)
	mux.HandleFunc("GET /v1/preflight", s.v1(s.getPreflight))
	mux.HandleFunc("GET /v1/trial", s.v1(s.getTrial))
	mux.HandleFunc("POST /v1/runs", s.v1(s.submit))
	mux.HandleFunc("GET /v1/runs/{id}", s.v1(s.getRun))
	mux.HandleFunc("DELETE /v1/runs/{id}", s.v1(s.cancelRun))
	mux.HandleFunc("GET /v1/runs/{id}/artifacts/{name...}", s.v1(s.getArtifact))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/v1/") || r.URL.Path == "/v1" {
			// Every /v1 answer carries the protocol header, a route
			// that does not exist (a listing) included.
			w.Header().Set(ProtocolHeader, ProtocolVersion)
			w.Header().Set("Cache-Control", "no-store")
		}
		s.notFound(w)
	})
	return mux
}

// v1 checks the protocol header before anything else: a mismatch is 409
// before a run, before a token is looked at.
func (s *Service) v1(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set(ProtocolHeader, ProtocolVersion)
		w.Header().Set("Cache-Control", "no-store")
		if got := r.Header.Get(ProtocolHeader); got != ProtocolVersion {
			s.fail(w, http.StatusConflict, ErrorProtocolMismatch,
				fmt.Sprintf("this service speaks %s %s; the request sent %q", ProtocolHeader, ProtocolVersion, got), nil)
			return
		}
		h(w, r)
	}
}

func (s *Service) healthz(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, map[string]any{"status": "ok"})
}

// Preflight returns the last probe's document, running the probe first
// when none ran in the last [PreflightInterval], or when a run ended
// browser_crashed, browser_unavailable or browser_launch_failed since
// (one probe at a time).
func (s *Service) Preflight(ctx context.Context) PreflightDoc {
	s.pmu.Lock()
	defer s.pmu.Unlock()
	if s.pstale.Swap(false) || s.prep == nil || s.cfg.now().Sub(s.ptime) >= PreflightInterval || s.cfg.now().Before(s.ptime) {
		pctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		s.prep, s.perr = s.cfg.preflight(pctx)
		cancel()
		s.ptime = s.cfg.now()
		if s.perr != nil {
			s.log.Warn("preflight failed", "err", s.perr)
		}
	}
	d := PreflightDoc{APIVersion: APIVersion, ProtocolVersion: ProtocolVersion, Available: s.perr == nil,
		Report: s.prep, Limits: s.cfg.limits}
	if s.peps != nil {
		// A pool: each endpoint's probe verdict, unless the runner has
		// found it unhealthy or gone since; available while one is.
		d.Available = false
		for _, e := range s.runner.Endpoints() {
			p := s.peps[e.Name]
			ep := EndpointPreflight{Name: e.Name, Slots: e.Slots, Busy: e.Busy, Available: p.ok && e.Healthy && !e.Gone,
				Gone: e.Gone, Browser: p.browser, CheckedAt: p.at}
			if !ep.Available {
				ep.Error = string(jobs.CodeBrowserUnavailable)
			}
			d.Available = d.Available || ep.Available
			d.Endpoints = append(d.Endpoints, ep)
		}
	}
	if !d.Available {
		d.Error = string(jobs.CodeBrowserUnavailable)
	}
	return d
}

// endpointProbe is one endpoint's last preflight probe.
type endpointProbe struct {
	ok      bool
	browser string
	at      time.Time
}

// probePool is a pool's preflight probe: runtime.Preflight over every
// endpoint's Open at once (an endpoint the runner found gone is not
// probed). The report is the first passing endpoint's in the pool's
// order (the first endpoint's when none passes); the error is nil while
// one passes. It runs under pmu.
func (s *Service) probePool(ctx context.Context) (*runtime.PreflightReport, error) {
	eps := s.cfg.endpoints
	status := s.runner.Endpoints()
	reps := make([]*runtime.PreflightReport, len(eps))
	errs := make([]error, len(eps))
	var wg sync.WaitGroup
	for i, e := range eps {
		if i < len(status) && status[i].Gone {
			errs[i] = fmt.Errorf("endpoint %s: gone", e.Name)
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			reps[i], errs[i] = runtime.Preflight(ctx, e.Open)
			if errs[i] != nil {
				errs[i] = fmt.Errorf("endpoint %s: %w", e.Name, errs[i])
			}
		}()
	}
	wg.Wait()
	peps := make(map[string]endpointProbe, len(eps))
	var first *runtime.PreflightReport
	for i, e := range eps {
		p := endpointProbe{ok: errs[i] == nil}
		if reps[i] != nil {
			p.at = reps[i].CheckedAt
			if p.ok {
				p.browser = reps[i].Browser
			}
		}
		if p.ok && first == nil {
			first = reps[i]
		}
		if errs[i] != nil {
			s.log.Warn("endpoint preflight failed", "endpoint", e.Name, "err", errs[i])
		}
		peps[e.Name] = p
	}
	s.peps = peps
	if first != nil {
		return first, nil
	}
	return reps[0], errors.Join(errs...)
}

func (s *Service) getPreflight(w http.ResponseWriter, r *http.Request) {
	d := s.Preflight(r.Context())
	code := http.StatusOK
	if !d.Available {
		code = http.StatusServiceUnavailable
	}
	writeJSON(w, code, d)
}

// getTrial answers the trial submission.
func (s *Service) getTrial(w http.ResponseWriter, r *http.Request) {
	if s.trial == nil {
		s.fail(w, http.StatusNotFound, ErrorTrialUnavailable, "this service offers no trial", nil)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(s.trial.raw)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(s.trial.raw)
}

// bundleName is a bundle folder's name: one path element.
var bundleName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$`)

func (s *Service) submit(w http.ResponseWriter, r *http.Request) {
	if r.ContentLength > MaxBodyBytes {
		s.fail(w, http.StatusRequestEntityTooLarge, ErrorTooLarge, fmt.Sprintf("the body is above %d bytes", MaxBodyBytes), nil)
		return
	}
	raw, err := io.ReadAll(io.LimitReader(r.Body, MaxBodyBytes+1))
	if err != nil {
		s.fail(w, http.StatusBadRequest, ErrorInvalidRequest, "the body could not be read", nil)
		return
	}
	if len(raw) > MaxBodyBytes {
		s.fail(w, http.StatusRequestEntityTooLarge, ErrorTooLarge, fmt.Sprintf("the body is above %d bytes", MaxBodyBytes), nil)
		return
	}
	var req SubmitRequest
	if err := strictjson.Decode(raw, &req); err != nil {
		s.fail(w, http.StatusBadRequest, ErrorInvalidRequest, "the body is not a submission", problemsOf(err))
		return
	}
	if req.APIVersion != APIVersion {
		s.fail(w, http.StatusConflict, ErrorProtocolMismatch,
			fmt.Sprintf("this service speaks api_version %q; the request named %q", APIVersion, req.APIVersion), nil)
		return
	}
	hasCap := len(req.Capability) > 0 && string(req.Capability) != "null"
	if (req.Bundle == "") == !hasCap {
		s.fail(w, http.StatusBadRequest, ErrorInvalidRequest, "name exactly one of bundle and capability", nil)
		return
	}
	if req.TimeoutMS < 0 || req.TimeoutMS > jobs.MaxRunBudget.Milliseconds() {
		s.fail(w, http.StatusBadRequest, ErrorInvalidRequest,
			fmt.Sprintf("timeout_ms %d outside 0..%d", req.TimeoutMS, jobs.MaxRunBudget.Milliseconds()), nil)
		return
	}
	var c *capability.Capability
	if hasCap {
		c, err = capability.ParseBytes(req.Capability)
		if err != nil {
			s.fail(w, http.StatusBadRequest, ErrorInvalidRequest, "the capability is refused", problemsOf(err))
			return
		}
	} else {
		if s.cfg.bundles == "" {
			s.fail(w, http.StatusBadRequest, ErrorInvalidRequest, "this service serves no bundles", nil)
			return
		}
		if !bundleName.MatchString(req.Bundle) || req.Bundle == "." || req.Bundle == ".." {
			s.fail(w, http.StatusBadRequest, ErrorInvalidRequest, "bundle is not a bundle folder's name", nil)
			return
		}
		rep, err := bundle.Verify(r.Context(), filepath.Join(s.cfg.bundles, req.Bundle), s.cfg.verify...)
		if err != nil {
			s.fail(w, http.StatusUnprocessableEntity, ErrorBundleInvalid,
				fmt.Sprintf("bundle %q does not verify", req.Bundle), problemsOf(err))
			return
		}
		c = rep.Verified
	}
	token, hash := newToken()
	st, err := s.runner.Submit(r.Context(), jobs.Request{Capability: c, Inputs: req.Inputs, Label: req.Label,
		Budget: time.Duration(req.TimeoutMS) * time.Millisecond, Viewports: req.Viewports})
	if err != nil {
		s.refuse(w, err)
		return
	}
	if err := s.tokens.add(st.ID, tokenEntry{SHA256: hash, Expires: st.Expires, Bundle: req.Bundle}, s.cfg.now()); err != nil {
		// Nobody can reach the job: end it rather than run it for no one.
		_, _ = s.runner.Cancel(st.ID)
		s.log.Error("token not stored", "job", st.ID, "err", err)
		s.fail(w, http.StatusInternalServerError, ErrorInternal, "the run could not be recorded", nil)
		return
	}
	s.forget()
	w.Header().Set("Location", "/v1/runs/"+st.ID)
	writeJSON(w, http.StatusAccepted, Accepted{APIVersion: APIVersion, ID: st.ID, Token: token, Status: st.State,
		QueuePosition: st.QueuePosition, AcceptedAt: st.Accepted, ExpiresAt: st.Expires})
}

// refuse answers a refused submission.
func (s *Service) refuse(w http.ResponseWriter, err error) {
	var ve *jobs.ViewportError
	switch code := jobs.CodeOf(err); {
	case errors.As(err, &ve):
		// The runner's rule, by its own code: the request is well formed
		// but its viewports cannot be run here.
		s.fail(w, http.StatusUnprocessableEntity, string(ve.Problem), err.Error(), nil)
	case code == jobs.CodeQueueFull || code == jobs.CodeArtifactCapacity:
		w.Header().Set("Retry-After", "1")
		s.fail(w, http.StatusTooManyRequests, string(code), err.Error(), nil)
	case code == jobs.CodeBrowserUnavailable || code == jobs.CodeServiceStopped:
		s.fail(w, http.StatusServiceUnavailable, string(code), err.Error(), nil)
	case errors.Is(err, jobs.ErrTooLarge):
		s.fail(w, http.StatusRequestEntityTooLarge, ErrorTooLarge, err.Error(), nil)
	case errors.Is(err, jobs.ErrInvalidRequest):
		s.fail(w, http.StatusBadRequest, ErrorInvalidRequest, "the submission is refused", problemsOf(err))
	default:
		s.log.Error("submission failed", "err", err)
		s.fail(w, http.StatusInternalServerError, ErrorInternal, "the submission could not be recorded", nil)
	}
}

// authorize returns id's record when the request carries id's token and
// the run has not expired; every other case is the one 404.
func (s *Service) authorize(r *http.Request, id string) (jobs.Status, tokenEntry, bool) {
	token := ""
	if a := r.Header.Get("Authorization"); len(a) > 7 && strings.EqualFold(a[:7], "Bearer ") {
		token = strings.TrimSpace(a[7:])
	}
	e, ok := s.tokens.check(id, token)
	if !ok {
		return jobs.Status{}, e, false
	}
	st, err := s.runner.Status(id)
	if err != nil || !s.cfg.now().Before(st.Expires) || !s.cfg.now().Before(e.Expires) {
		return jobs.Status{}, e, false
	}
	return st, e, true
}

func (s *Service) getRun(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	st, e, ok := s.authorize(r, id)
	if !ok {
		s.notFound(w)
		return
	}
	q := r.URL.Query()
	wait, after := time.Duration(0), uint64(0)
	if v := q.Get("wait_ms"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 || n > MaxWait.Milliseconds() {
			s.fail(w, http.StatusBadRequest, ErrorInvalidRequest, fmt.Sprintf("wait_ms outside 0..%d", MaxWait.Milliseconds()), nil)
			return
		}
		wait = time.Duration(n) * time.Millisecond
	}
	if v := q.Get("after"); v != "" {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			s.fail(w, http.StatusBadRequest, ErrorInvalidRequest, "after is not a revision", nil)
			return
		}
		after = n
	}
	rev, ch, prog := s.snapshot(id)
	// Wait only while the caller has seen the current revision: a
	// revision it has not seen (a newer one, or an older one after a
	// restart reset the count) is answered at once.
	if wait > 0 && rev == after && !st.State.Terminal() {
		t := time.NewTimer(wait)
		select {
		case <-ch:
		case <-t.C:
		case <-r.Context().Done():
		case <-s.closed:
		}
		t.Stop()
		if st, _, ok = s.authorize(r, id); !ok {
			s.notFound(w)
			return
		}
		rev, _, prog = s.snapshot(id)
	}
	writeJSON(w, http.StatusOK, s.document(st, e, rev, prog))
}

func (s *Service) cancelRun(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	_, e, ok := s.authorize(r, id)
	if !ok {
		s.notFound(w)
		return
	}
	st, err := s.runner.Cancel(id)
	if err != nil {
		s.notFound(w)
		return
	}
	rev, _, prog := s.snapshot(id)
	writeJSON(w, http.StatusOK, s.document(st, e, rev, prog))
}

func (s *Service) getArtifact(w http.ResponseWriter, r *http.Request) {
	id, name := r.PathValue("id"), r.PathValue("name")
	st, _, ok := s.authorize(r, id)
	if !ok {
		s.notFound(w)
		return
	}
	if !st.State.Terminal() {
		s.fail(w, http.StatusConflict, ErrorNotTerminal, "artifacts are served once the run has ended", nil)
		return
	}
	i := slices.IndexFunc(st.Artifacts, func(a jobs.Artifact) bool { return a.Name == name })
	if i < 0 {
		s.fail(w, http.StatusNotFound, ErrorArtifactNotFound, "the run has no artifact of that name", nil)
		return
	}
	a := st.Artifacts[i]
	dir, err := s.runner.RunDir(id)
	if err != nil {
		s.notFound(w)
		return
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		s.fail(w, http.StatusNotFound, ErrorArtifactNotFound, "the artifact is gone", nil)
		return
	}
	defer root.Close()
	f, err := root.Open(filepath.FromSlash(a.Name))
	if err != nil {
		s.fail(w, http.StatusNotFound, ErrorArtifactNotFound, "the artifact is gone", nil)
		return
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() || fi.Size() != a.Size {
		s.fail(w, http.StatusNotFound, ErrorArtifactNotFound, "the artifact changed since the run ended", nil)
		return
	}
	ct := mime.TypeByExtension(path.Ext(a.Name))
	if ct == "" {
		ct = "application/octet-stream"
	}
	w.Header().Set("Content-Type", ct)
	w.Header().Set("Content-Length", strconv.FormatInt(a.Size, 10))
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Content-Disposition", "attachment")
	w.WriteHeader(http.StatusOK)
	_, _ = io.Copy(w, io.LimitReader(f, a.Size))
}

// document is the protocol's view of a job record.
func (s *Service) document(st jobs.Status, e tokenEntry, rev uint64, prog *Progress) RunDocument {
	d := RunDocument{
		APIVersion: APIVersion, ID: st.ID, Status: st.State, Label: st.Label, Bundle: e.Bundle,
		CapabilityID: st.CapabilityID, CapabilityVersion: st.CapabilityVersion,
		Terminal: st.Terminal, Category: st.Category, Reason: st.Reason, Outcome: st.Outcome, ExecutionMode: st.Mode,
		Endpoint: st.Endpoint, Environment: s.environment(st), Viewports: viewportResults(st.Viewports),
		AcceptedAt: st.Accepted, StartedAt: st.Started, FinishedAt: st.Finished, ExpiresAt: st.Expires,
		TimeoutMS: st.BudgetMS, QueuePosition: st.QueuePosition, CancelRequested: st.CancelRequested,
		TotalSteps: st.TotalSteps, CompletedSteps: st.CompletedSteps, Steps: st.Steps, Outputs: st.Outputs,
		RunID: st.RunID, ReceiptHash: st.ReceiptHash, ArtifactBytes: st.ArtifactBytes, Artifacts: st.Artifacts,
		Revision: rev,
	}
	if st.Code != "" {
		c := st.Code
		d.Error = &c
	}
	if st.State == jobs.StateRunning {
		d.Progress = prog
	}
	return d
}

// viewportResults are a record's viewports as the protocol shows them.
func viewportResults(rs []jobs.ViewportRecord) []ViewportResult {
	if len(rs) == 0 {
		return nil
	}
	out := make([]ViewportResult, len(rs))
	for i, v := range rs {
		out[i] = ViewportResult{Name: v.Name, Width: v.Width, Height: v.Height, State: v.State,
			Terminal: v.Terminal, Category: v.Category, Reason: v.Reason, Outcome: v.Outcome, Outputs: v.Outputs,
			RunID: v.RunID, ReceiptHash: v.ReceiptHash, Screenshot: v.Screenshot, ScreenshotBytes: v.ScreenshotBytes}
		if v.Code != "" {
			c := v.Code
			out[i].Error = &c
		}
	}
	return out
}

// maxReceipt bounds the receipt read for a run document's environment.
const maxReceipt = 4 << 20

// envEntry is one terminal run's receipt environment, for the receipt
// whose digest is hash.
type envEntry struct {
	hash string
	env  *receipt.Environment
}

// environment is the environment the receipt of st's deciding run
// declares: read once from the retained receipt (through an os.Root on
// the run folder), and only when its bytes still hash to st.ReceiptHash;
// nil before the run ended, without a receipt, or when it cannot be
// read as that receipt.
func (s *Service) environment(st jobs.Status) *receipt.Environment {
	if !st.State.Terminal() || st.RunID == "" || st.ReceiptHash == "" {
		return nil
	}
	s.emu.Lock()
	e, ok := s.envs[st.ID]
	s.emu.Unlock()
	if ok && e.hash == st.ReceiptHash {
		return copyEnv(e.env)
	}
	env, err := s.readEnvironment(st)
	if err != nil {
		s.log.Warn("receipt environment not read", "job", st.ID, "err", err)
		return nil
	}
	s.emu.Lock()
	s.envs[st.ID] = envEntry{hash: st.ReceiptHash, env: env}
	s.emu.Unlock()
	return copyEnv(env)
}

func (s *Service) readEnvironment(st jobs.Status) (*receipt.Environment, error) {
	dir, err := s.runner.RunDir(st.ID)
	if err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	raw, err := safefs.ReadFileLimited(root, filepath.Join(st.RunID, "run.receipt.json"), maxReceipt)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(raw)
	if got := "sha256:" + hex.EncodeToString(sum[:]); got != st.ReceiptHash {
		return nil, fmt.Errorf("the receipt's digest is %s, the record names %s", got, st.ReceiptHash)
	}
	rc, err := receipt.LoadReceipt(raw)
	if err != nil {
		return nil, err
	}
	env := rc.Environment
	return &env, nil
}

func copyEnv(e *receipt.Environment) *receipt.Environment {
	c := *e
	return &c
}

// notFoundBody is the one body of every 404 a run route answers for a
// wrong, missing, unknown or expired token or id.
var notFoundBody = mustJSON(ErrorDoc{APIVersion: APIVersion, Error: ErrorNotFound})

func (s *Service) notFound(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(notFoundBody)))
	w.WriteHeader(http.StatusNotFound)
	_, _ = w.Write(notFoundBody)
}

func (s *Service) fail(w http.ResponseWriter, status int, code, msg string, problems []string) {
	writeJSON(w, status, ErrorDoc{APIVersion: APIVersion, Error: code, Message: msg, Problems: problems})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b := mustJSON(v)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		// Every value written is one of this package's documents.
		b = []byte(`{"api_version":"1","error":"internal"}`)
	}
	return append(b, '\n')
}

// problemsOf lists an error's problems: the errors it joins, each on its
// own, or its message.
func problemsOf(err error) []string {
	var out []string
	var walk func(error)
	walk = func(e error) {
		if len(out) >= maxProblems {
			return
		}
		if m, ok := e.(interface{ Unwrap() []error }); ok && len(m.Unwrap()) > 1 {
			for _, x := range m.Unwrap() {
				walk(x)
			}
			return
		}
		out = append(out, e.Error())
	}
	walk(err)
	return out
}
