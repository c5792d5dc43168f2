package jobs

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"sync"
	"time"

	"golang.org/x/sync/semaphore"

	"github.com/vera-run/vera/runtime"
)

// Health checks of a pool's endpoints.
const (
	// DefaultHealthInterval is how often every endpoint of a pool is
	// checked ([WithHealthInterval]).
	DefaultHealthInterval = 10 * time.Second
	// HealthTimeout bounds one endpoint check.
	HealthTimeout = 15 * time.Second
)

// Endpoint is one browser endpoint of a runner's pool ([WithEndpoints]):
// a launched Chromium or a remote CDP endpoint (a browser grid node, a
// Chrome pod), with how many jobs it runs at once. A
// browser.(*Browser) fits:
//
//	jobs.Endpoint{Name: "pod-a", Slots: 2, Open: b.Open, OpenViewport: b.OpenViewport, Done: b.Done()}
type Endpoint struct {
	// Name names the endpoint in job records and [Runner.Endpoints]: 1
	// to 64 bytes of a-z, A-Z, 0-9, '.', '-' and '_', unique in the pool.
	// It must not hold a credential (it is recorded).
	Name string
	// Slots is how many jobs the endpoint runs at once (at least 1).
	Slots int
	// Open opens a fresh driver for one job (required).
	Open DriverSource
	// OpenViewport opens a fresh driver with a viewport (required for
	// requests with viewports: a runner whose endpoints do not all have
	// one refuses them).
	OpenViewport ViewportSource
	// Check reports whether the endpoint can serve a run; nil is
	// runtime.Preflight over Open (a driver opened and closed: a browser
	// context created and disposed).
	Check func(ctx context.Context) error
	// Done, when not nil, is closed when the endpoint is gone for good
	// (a launched browser's process exited: browser.(*Browser).Done).
	// The runner stops using it at once.
	Done <-chan struct{}
}

// endpointName is the rule for Endpoint.Name.
var endpointName = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)

// EndpointStatus is one endpoint's health and load ([Runner.Endpoints]).
type EndpointStatus struct {
	Name  string `json:"name"`
	Slots int    `json:"slots"`
	// Busy is how many of its slots jobs hold now.
	Busy int `json:"busy"`
	// Healthy is false after a failed check or once Done closed (Gone);
	// an unhealthy endpoint gets no new job until a check passes again,
	// a gone one never.
	Healthy bool `json:"healthy"`
	Gone    bool `json:"gone,omitempty"`
	// LastError is the last failed check's error ("" after a pass).
	LastError string `json:"last_error,omitempty"`
	// CheckedAt is the last check's time (zero before the first).
	CheckedAt time.Time `json:"checked_at,omitzero"`
}

// endpoint is one endpoint's live state; its fields after cfg are
// guarded by the runner's mu.
type endpoint struct {
	cfg   Endpoint
	sem   *semaphore.Weighted
	check func(ctx context.Context) error // nil: never checked (a runner's single source)
	// checking serializes checks of this endpoint.
	checking sync.Mutex

	busy    int
	slow    int // consecutive checks that ran out of time
	healthy bool
	gone    bool
	lastErr string
	checked time.Time
}

// WithEndpoints makes the runner's slots a pool of browser endpoints,
// each with its own slot count, instead of one [DriverSource] (New's
// source must then be nil, and WithActiveBrowsers and WithViewportSource
// are not used). A job goes to the healthy endpoint with the most free
// slots; an endpoint that fails its health check, or whose Done closed,
// gets no new job, so queued work goes to the others, and a job whose
// driver could not be opened on an endpoint found dead is opened again
// on another. A job in flight on an endpoint that dies ends
// browser_crashed. Names must be unique and well-formed, slots at least
// 1, Open not nil ([ErrInvalidArgument]).
func WithEndpoints(eps ...Endpoint) Option {
	return func(c *config) {
		if len(eps) == 0 {
			c.bad("WithEndpoints: no endpoint")
		}
		seen := map[string]bool{}
		for i, e := range eps {
			switch {
			case !endpointName.MatchString(e.Name):
				c.bad("WithEndpoints: endpoint %d: name must be 1 to 64 bytes of A-Z, a-z, 0-9, '.', '-', '_'", i)
			case seen[e.Name]:
				c.bad("WithEndpoints: endpoint %q twice", e.Name)
			case e.Slots < 1:
				c.bad("WithEndpoints: endpoint %q: %d slots, at least 1", e.Name, e.Slots)
			case e.Open == nil:
				c.bad("WithEndpoints: endpoint %q: nil Open", e.Name)
			}
			seen[e.Name] = true
		}
		c.endpoints = append([]Endpoint(nil), eps...)
	}
}

// WithHealthInterval sets how often a pool's endpoints are checked
// (default [DefaultHealthInterval], at least 100 ms). An endpoint is also
// checked at once when its driver could not be opened or a job on it
// ended browser_crashed or browser_unavailable.
func WithHealthInterval(d time.Duration) Option {
	return func(c *config) {
		if d < 100*time.Millisecond {
			c.bad("WithHealthInterval(%v): at least 100ms", d)
		}
		c.healthInterval = d
	}
}

// newEndpoints builds the runner's endpoints: the pool, or the single
// source as one endpoint named "default" with WithActiveBrowsers slots,
// never checked (its availability is WithAvailability's).
func newEndpoints(source DriverSource, cfg *config) ([]*endpoint, error) {
	if len(cfg.endpoints) == 0 {
		if source == nil {
			return nil, fmt.Errorf("%w: nil driver source", ErrInvalidArgument)
		}
		e := Endpoint{Name: "default", Slots: cfg.active, Open: source, OpenViewport: cfg.viewportSource}
		return []*endpoint{{cfg: e, sem: semaphore.NewWeighted(int64(e.Slots)), healthy: true}}, nil
	}
	if source != nil {
		return nil, fmt.Errorf("%w: a driver source and WithEndpoints", ErrInvalidArgument)
	}
	eps := make([]*endpoint, len(cfg.endpoints))
	cfg.active = 0
	for i, e := range cfg.endpoints {
		ep := &endpoint{cfg: e, sem: semaphore.NewWeighted(int64(e.Slots)), healthy: true, check: e.Check}
		if ep.check == nil {
			open := e.Open
			ep.check = func(ctx context.Context) error {
				_, err := runtime.Preflight(ctx, open)
				return err
			}
		}
		eps[i] = ep
		cfg.active += e.Slots
	}
	return eps, nil
}

// Endpoints returns every endpoint's health and load, in the order
// given (one named "default" for a runner over a single source).
func (r *Runner) Endpoints() []EndpointStatus {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]EndpointStatus, len(r.eps))
	for i, e := range r.eps {
		out[i] = EndpointStatus{Name: e.cfg.Name, Slots: e.cfg.Slots, Busy: e.busy, Healthy: e.healthy && !e.gone,
			Gone: e.gone, LastError: e.lastErr, CheckedAt: e.checked}
	}
	return out
}

// healthySlotsLocked is the slot count of the endpoints that may get
// jobs.
func (r *Runner) healthySlotsLocked() int {
	n := 0
	for _, e := range r.eps {
		if e.healthy && !e.gone {
			n += e.cfg.Slots
		}
	}
	return n
}

// viewportsSupported reports whether every endpoint can open a driver
// with a viewport.
func (r *Runner) viewportsSupported() bool {
	for _, e := range r.eps {
		if e.cfg.OpenViewport == nil {
			return false
		}
	}
	return true
}

// takeSlotLocked takes a free slot of the healthy endpoint with the
// most free slots (the first given on a tie), or returns nil when none
// is free; except, when not nil, is skipped.
func (r *Runner) takeSlotLocked(except *endpoint) *endpoint {
	var best *endpoint
	for _, e := range r.eps {
		if e == except || !e.healthy || e.gone || e.busy >= e.cfg.Slots {
			continue
		}
		if best == nil || e.cfg.Slots-e.busy > best.cfg.Slots-best.busy {
			best = e
		}
	}
	if best == nil || !best.sem.TryAcquire(1) {
		return nil
	}
	best.busy++
	return best
}

// releaseSlot gives a slot back and wakes whoever waits for one.
func (r *Runner) releaseSlot(e *endpoint) {
	r.mu.Lock()
	e.busy--
	e.sem.Release(1)
	r.changedLocked()
	r.mu.Unlock()
	r.kick()
}

// changedLocked wakes every waiter of the slots and the endpoints'
// health (the failover of an open).
func (r *Runner) changedLocked() {
	close(r.changed)
	r.changed = make(chan struct{})
}

// kick wakes the dispatcher.
func (r *Runner) kick() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// setHealth records one check's result. A check that ran out of time
// (a saturated machine, not a dead endpoint: a dead one refuses or drops
// the connection at once) makes the endpoint unhealthy only the second
// time in a row.
func (r *Runner) setHealth(e *endpoint, err error) {
	r.mu.Lock()
	was := e.healthy
	if err != nil && errors.Is(err, context.DeadlineExceeded) {
		e.slow++
		if e.slow < 2 {
			e.lastErr, e.checked = err.Error(), r.cfg.now()
			r.mu.Unlock()
			r.log.Info("endpoint check timed out", "endpoint", e.cfg.Name, "err", err)
			return
		}
	} else {
		e.slow = 0
	}
	e.healthy, e.checked = err == nil, r.cfg.now()
	e.lastErr = ""
	if err != nil {
		e.lastErr = err.Error()
	}
	r.changedLocked()
	r.mu.Unlock()
	switch {
	case was && err != nil:
		r.log.Warn("endpoint unhealthy", "endpoint", e.cfg.Name, "err", err)
	case !was && err == nil:
		r.log.Info("endpoint healthy again", "endpoint", e.cfg.Name)
	}
	r.kick()
}

// markGone takes an endpoint whose Done closed out of the pool for good.
func (r *Runner) markGone(e *endpoint) {
	r.mu.Lock()
	e.gone, e.healthy, e.lastErr, e.checked = true, false, "endpoint gone", r.cfg.now()
	r.changedLocked()
	r.mu.Unlock()
	r.log.Warn("endpoint gone", "endpoint", e.cfg.Name)
	r.kick()
}

// checkEndpoint runs one health check of e (one at a time per endpoint)
// and records it; a gone endpoint is not checked. It reports whether e
// is healthy.
func (r *Runner) checkEndpoint(ctx context.Context, e *endpoint) bool {
	if e.check == nil {
		r.mu.Lock()
		defer r.mu.Unlock()
		return e.healthy && !e.gone
	}
	if done := e.cfg.Done; done != nil {
		select {
		case <-done:
			r.markGone(e)
			return false
		default:
		}
	}
	e.checking.Lock()
	defer e.checking.Unlock()
	cctx, cancel := context.WithTimeout(ctx, HealthTimeout)
	defer cancel()
	err := e.check(cctx)
	if err != nil && cctx.Err() != nil && !errors.Is(err, context.DeadlineExceeded) {
		err = fmt.Errorf("%w: %w", context.DeadlineExceeded, err)
	}
	if ctx.Err() != nil {
		// The caller's context ended (a cancelled job, Close): no verdict.
		r.mu.Lock()
		defer r.mu.Unlock()
		return e.healthy && !e.gone
	}
	r.setHealth(e, err)
	return err == nil
}

// health checks every endpoint of a pool every HealthInterval until
// Close (a suspected endpoint is checked at once by the job that
// suspects it: run and openFirst).
func (r *Runner) health() error {
	t := time.NewTicker(r.cfg.healthInterval)
	defer t.Stop()
	for {
		select {
		case <-r.life.Done():
			return nil
		case <-t.C:
			for _, e := range r.eps {
				if r.life.Err() != nil {
					return nil
				}
				r.mu.Lock()
				gone := e.gone
				r.mu.Unlock()
				if !gone {
					r.checkEndpoint(r.life, e)
				}
			}
		}
	}
}

// watchDone takes e out of the pool when its Done closes.
func (r *Runner) watchDone(e *endpoint) func() error {
	return func() error {
		select {
		case <-r.life.Done():
		case <-e.cfg.Done:
			r.markGone(e)
		}
		return nil
	}
}

// openOn opens the job's driver for viewport vp (nil: the endpoint's
// plain Open) on e.
func openOn(ctx context.Context, e *endpoint, vp *Viewport) (runtime.Driver, error) {
	var drv runtime.Driver
	var err error
	if vp != nil {
		drv, err = e.cfg.OpenViewport(ctx, vp.Width, vp.Height)
	} else {
		drv, err = e.cfg.Open(ctx)
	}
	if err == nil && drv == nil {
		err = fmt.Errorf("%w: the driver source returned no driver", runtime.ErrBrowserUnavailable)
	}
	return drv, err
}

// openFirst opens a job's first driver with failover: when the open on
// the job's endpoint fails and a check finds that endpoint unhealthy,
// the job's slot moves to another healthy endpoint (waiting, bounded by
// ctx, for a free one) and the open is tried there, once per endpoint at
// most. Nothing of the job has run yet, so nothing is repeated. It
// returns the driver and the endpoint that holds the job's slot.
func (r *Runner) openFirst(ctx context.Context, j *job, vp *Viewport) (runtime.Driver, error) {
	tried := map[*endpoint]bool{}
	for {
		e := j.ep
		drv, err := openOn(ctx, e, vp)
		if err == nil {
			return drv, nil
		}
		tried[e] = true
		if ctx.Err() != nil || len(r.eps) == 1 || errors.Is(err, runtime.ErrInvalidArgument) || r.checkEndpoint(ctx, e) {
			return nil, err
		}
		r.log.Warn("endpoint failed a job's open; failing over", "job", j.st.ID, "endpoint", e.cfg.Name, "err", err)
		next, werr := r.moveSlot(ctx, j, tried)
		if werr != nil || next == nil {
			return nil, err
		}
	}
}

// moveSlot gives j's slot back and takes one on another healthy endpoint
// not tried yet, waiting for one to free up, bounded by ctx; nil when
// no untried endpoint is healthy.
func (r *Runner) moveSlot(ctx context.Context, j *job, tried map[*endpoint]bool) (*endpoint, error) {
	r.releaseSlot(j.ep)
	r.mu.Lock()
	j.ep = nil
	r.mu.Unlock()
	for {
		r.mu.Lock()
		candidates := false
		var got *endpoint
		for _, e := range r.eps {
			if tried[e] || !e.healthy || e.gone {
				continue
			}
			candidates = true
			if e.busy < e.cfg.Slots && e.sem.TryAcquire(1) {
				e.busy++
				got = e
				break
			}
		}
		if got != nil {
			j.ep = got
			j.st.Endpoint = got.cfg.Name
			st := j.st
			r.mu.Unlock()
			if err := r.write(st); err != nil {
				r.log.Warn("job record not written", "job", st.ID, "err", err)
			}
			return got, nil
		}
		ch := r.changed
		r.mu.Unlock()
		if !candidates {
			return nil, nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}
