package jobs

import (
	"fmt"
	"log/slog"
	"time"

	"github.com/vera-run/vera/runtime"
)

// The limits of the browser job contract v1 (seed 003). The defaults
// can be changed with options within the bounds given; the fixed limits
// cannot.
const (
	// DefaultActiveBrowsers is how many jobs run at once (slots), each
	// with a driver of its own ([WithActiveBrowsers]).
	DefaultActiveBrowsers = 1
	// DefaultMaxQueued is how many admitted jobs may wait for a slot
	// ([WithMaxQueued]).
	DefaultMaxQueued = 4
	// DefaultRetainedRuns is how many jobs, of any state, the runner
	// keeps until they expire ([WithRetainedRuns]).
	DefaultRetainedRuns = 64
	// DefaultRunBudget is a job's run budget when the request names
	// none; MaxRunBudget is the largest a request may name.
	DefaultRunBudget = 60 * time.Second
	MaxRunBudget     = 120 * time.Second
	// DefaultMaxSteps is the most declared actions a capability may have
	// ([WithMaxSteps]).
	DefaultMaxSteps = 40
	// MaxSubmissionBytes bounds a submission's JSON encoding (the
	// capability and the inputs).
	MaxSubmissionBytes = 32 << 10
	// MaxRunArtifactBytes bounds the files one job retains (its run
	// evidence); a run that writes more fails with artifact_capacity
	// and its files are removed.
	MaxRunArtifactBytes = 20 << 20
	// DefaultArtifactBudget is the retained-artifact admission budget
	// ([WithArtifactBudget]): a job is admitted only when the bytes the
	// retained jobs hold plus MaxRunArtifactBytes for every queued or
	// running job, this one included, fit.
	DefaultArtifactBudget = 200 << 20
	// Expiry is how long after acceptance a job, its record and its
	// files are kept.
	Expiry = time.Hour
	// JanitorInterval is how often the janitor removes expired jobs.
	JanitorInterval = time.Second
)

// Option configures [New].
type Option func(*config)

type config struct {
	active, queued, retained, steps int
	artifactBudget                  int64
	logger                          *slog.Logger
	now                             func() time.Time
	hooks                           *Hooks
	runOpts                         []runtime.Option
	available                       func() error
	endpoints                       []Endpoint     // WithEndpoints (pool.go)
	viewportSource                  ViewportSource // WithViewportSource (viewport.go)
	healthInterval                  time.Duration  // WithHealthInterval (pool.go)
	err                             error
}

func (c *config) bad(format string, args ...any) {
	if c.err == nil {
		c.err = fmt.Errorf("%w: "+format, append([]any{ErrInvalidArgument}, args...)...)
	}
}

// WithActiveBrowsers sets the number of slots: jobs running at once, each
// with its own driver from the source (default [DefaultActiveBrowsers],
// at least 1).
func WithActiveBrowsers(n int) Option {
	return func(c *config) {
		if n < 1 {
			c.bad("WithActiveBrowsers(%d): at least 1", n)
		}
		c.active = n
	}
}

// WithMaxQueued sets how many jobs may wait for a slot (default
// [DefaultMaxQueued], at least 0).
func WithMaxQueued(n int) Option {
	return func(c *config) {
		if n < 0 {
			c.bad("WithMaxQueued(%d): at least 0", n)
		}
		c.queued = n
	}
}

// WithRetainedRuns sets how many jobs the runner keeps (default
// [DefaultRetainedRuns], at least 1).
func WithRetainedRuns(n int) Option {
	return func(c *config) {
		if n < 1 {
			c.bad("WithRetainedRuns(%d): at least 1", n)
		}
		c.retained = n
	}
}

// WithMaxSteps sets the most declared actions a capability may have
// (default [DefaultMaxSteps], at least 1).
func WithMaxSteps(n int) Option {
	return func(c *config) {
		if n < 1 {
			c.bad("WithMaxSteps(%d): at least 1", n)
		}
		c.steps = n
	}
}

// WithArtifactBudget sets the retained-artifact admission budget in
// bytes (default [DefaultArtifactBudget], at least [MaxRunArtifactBytes]).
func WithArtifactBudget(n int64) Option {
	return func(c *config) {
		if n < MaxRunArtifactBytes {
			c.bad("WithArtifactBudget(%d): at least %d", n, MaxRunArtifactBytes)
		}
		c.artifactBudget = n
	}
}

// WithLogger injects the runner's logger (nil discards). It is also the
// runtime's logger for every run.
func WithLogger(l *slog.Logger) Option { return func(c *config) { c.logger = l } }

// WithClock replaces time.Now for acceptance, start, finish and expiry
// times and for the janitor (tests move time forward with it).
func WithClock(now func() time.Time) Option {
	return func(c *config) {
		if now == nil {
			c.bad("WithClock(nil)")
		}
		c.now = now
	}
}

// WithHooks sets the progress hooks.
func WithHooks(h *Hooks) Option { return func(c *config) { c.hooks = h } }

// WithRunOptions adds runtime options to every run (an approver, a
// requester). WithDriver, WithRunDir and WithHooks are the runner's and
// are applied after these.
func WithRunOptions(opts ...runtime.Option) Option {
	return func(c *config) { c.runOpts = append(c.runOpts, opts...) }
}

// WithAvailability sets the check Submit runs before admitting a job: a
// non-nil error refuses the job with [ErrBrowserUnavailable] (for
// example: the launched browser's process has exited).
func WithAvailability(check func() error) Option {
	return func(c *config) { c.available = check }
}
