package discovery

import (
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/vera-run/vera/capability"
)

// Mode is how a discovery session explores the process.
type Mode string

// The discovery modes.
const (
	// ModeGuided: the operator demonstrates the main path while discovery
	// polls bounded before/after control states. Discovery never acts.
	ModeGuided Mode = "guided"
	// ModeAutonomous: a host model ([Explorer]) proposes steps; discovery
	// executes only read-only or reversible ones on allowed origins.
	ModeAutonomous Mode = "autonomous"
	// ModeHybrid: the operator demonstrates first (as guided); when the
	// demonstration ends, the explorer inspects gaps and safe branches
	// (as autonomous).
	ModeHybrid Mode = "hybrid"
)

// Valid reports whether m is a known mode.
func (m Mode) Valid() bool { return m == ModeGuided || m == ModeAutonomous || m == ModeHybrid }

// Defaults and ceilings of the observation bounds. Every default can be
// changed with an option, within [floor, ceiling].
const (
	// DefaultMinInterval is the default minimum time between the starts of
	// two snapshots; MinIntervalFloor is the smallest accepted.
	DefaultMinInterval = 250 * time.Millisecond
	MinIntervalFloor   = 20 * time.Millisecond

	// DefaultMaxSnapshots bounds the snapshots of the guided phase (ten
	// minutes at the default interval); MaxSnapshotsCeiling is the largest
	// accepted.
	DefaultMaxSnapshots = 2400
	MaxSnapshotsCeiling = 100_000

	// DefaultMaxControls bounds the controls recorded per snapshot;
	// MaxControlsCeiling is the largest accepted.
	DefaultMaxControls = 1000
	MaxControlsCeiling = 20_000

	// DefaultMaxStringLen bounds every recorded name, label, placeholder,
	// test id and live-region text, in runes; MaxStringLenCeiling is the
	// largest accepted.
	DefaultMaxStringLen = 200
	MaxStringLenCeiling = 1000

	// DefaultMaxFrames bounds the documents observed per snapshot (the
	// top-level one included); MaxFramesCeiling is the largest accepted.
	DefaultMaxFrames = 16
	MaxFramesCeiling = 64

	// DefaultMaxDuration bounds a whole session; MaxDurationCeiling is the
	// largest accepted.
	DefaultMaxDuration = 30 * time.Minute
	MaxDurationCeiling = 8 * time.Hour

	// DefaultMaxEvidenceBytes bounds the encoded size of the evidence a
	// session records; observation stops before exceeding it.
	// MaxEvidenceBytes is the largest accepted and the limit
	// [LoadEvidence] reads.
	DefaultMaxEvidenceBytes = 8 << 20
	MaxEvidenceBytes        = 32 << 20

	// DefaultMaxSteps bounds the explorer's steps (executed, waited or
	// refused); MaxStepsCeiling is the largest accepted.
	DefaultMaxSteps = 50
	MaxStepsCeiling = 1000

	// ActTimeout bounds one exploration action (waiting for the element
	// included).
	ActTimeout = 10 * time.Second

	// DefaultMaxRefusals ends exploration after this many refused steps.
	DefaultMaxRefusals = 5

	// MaxConsecutiveSnapshotErrors ends a session with [ErrSnapshot] after
	// this many failed snapshots in a row (a navigation in progress makes
	// single snapshots fail; that is recorded, not fatal).
	MaxConsecutiveSnapshotErrors = 5
)

// DefaultConsequentialWords are words that make exploration refuse a
// control whatever effect the explorer declares (matched as whole words,
// case-insensitively, in the control's name and label): sending,
// submitting, paying, deleting, confirming, signing in and saving are the
// operator's, never the explorer's. English and Italian.
var DefaultConsequentialWords = []string{
	"accept", "approve", "authorize", "authorise", "book", "buy", "checkout",
	"confirm", "delete", "destroy", "erase", "issue", "login", "logout",
	"pay", "payment", "post", "publish", "purchase", "remove",
	"reply", "reset", "revoke", "save", "send", "sign", "submit", "transfer",
	"unsubscribe", "password", "passcode",
	"accedi", "acquista", "approva", "autorizza", "cancella",
	"conferma", "elimina", "emetti", "esci", "firma", "invia", "paga", "pagamento", "prenota", "pubblica", "rimuovi", "rispondi",
	"salva", "trasferisci",
}

// Hooks report progress, in the style of net/http/httptrace. Each hook is
// optional and called synchronously from Observe's goroutine. The values
// share memory with the evidence being built: hooks must not modify them.
type Hooks struct {
	// SnapshotTaken is called after every snapshot attempt with the number
	// of snapshots so far and the error, if any.
	SnapshotTaken func(n int, err error)
	// ObservationRecorded is called for every recorded observation.
	ObservationRecorded func(o ObservationStep)
	// StepRefused is called for every refused exploration step.
	StepRefused func(r Refusal)
}

// Option configures [Observe].
type Option func(*config)

type config struct {
	mode             Mode
	minInterval      time.Duration
	maxSnapshots     int
	maxControls      int
	maxStringLen     int
	maxFrames        int
	maxDuration      time.Duration
	maxEvidenceBytes int
	maxSteps         int
	maxRefusals      int
	stop             <-chan struct{}
	allowed          []string
	explorer         Explorer
	words            []string
	logger           *slog.Logger
	clock            func() time.Time
	hooks            Hooks
	errs             []string
}

// WithMode selects the mode (default [ModeGuided]).
func WithMode(m Mode) Option { return func(c *config) { c.mode = m } }

// WithMinInterval sets the minimum time between the starts of two
// snapshots (default [DefaultMinInterval], at least [MinIntervalFloor]).
func WithMinInterval(d time.Duration) Option { return func(c *config) { c.minInterval = d } }

// WithMaxSnapshots bounds the guided phase's snapshots (default
// [DefaultMaxSnapshots]).
func WithMaxSnapshots(n int) Option { return func(c *config) { c.maxSnapshots = n } }

// WithMaxControls bounds the controls recorded per snapshot (default
// [DefaultMaxControls]).
func WithMaxControls(n int) Option { return func(c *config) { c.maxControls = n } }

// WithMaxStringLen bounds every recorded string, in runes (default
// [DefaultMaxStringLen]).
func WithMaxStringLen(n int) Option { return func(c *config) { c.maxStringLen = n } }

// WithMaxFrames bounds the documents observed per snapshot (default
// [DefaultMaxFrames]).
func WithMaxFrames(n int) Option { return func(c *config) { c.maxFrames = n } }

// WithMaxDuration bounds the whole session (default [DefaultMaxDuration]).
// Reaching it ends the session normally.
func WithMaxDuration(d time.Duration) Option { return func(c *config) { c.maxDuration = d } }

// WithMaxEvidenceBytes bounds the encoded size of the evidence (default
// [DefaultMaxEvidenceBytes]).
func WithMaxEvidenceBytes(n int) Option { return func(c *config) { c.maxEvidenceBytes = n } }

// WithMaxSteps bounds the explorer's steps (default [DefaultMaxSteps]).
func WithMaxSteps(n int) Option { return func(c *config) { c.maxSteps = n } }

// WithMaxRefusals ends exploration after n refused steps (default
// [DefaultMaxRefusals]).
func WithMaxRefusals(n int) Option { return func(c *config) { c.maxRefusals = n } }

// WithStop ends the demonstration when ch is closed: the guided session
// ends normally, a hybrid session moves on to exploration. This is how an
// operator says "done"; cancelling ctx aborts instead.
func WithStop(ch <-chan struct{}) Option { return func(c *config) { c.stop = ch } }

// WithAllowedOrigins restricts what is recorded to these origins: a frame
// with any origin outside them is withheld, and a top-level page outside
// them is recorded only as out of scope. Exploration requires them: the
// explorer may act only while every document on the way is on an allowed
// origin. Each must pass capability.CheckOrigin.
func WithAllowedOrigins(origins ...string) Option {
	return func(c *config) { c.allowed = append(c.allowed, origins...) }
}

// WithExplorer sets the host model that proposes exploration steps
// (required in the autonomous and hybrid modes).
func WithExplorer(e Explorer) Option { return func(c *config) { c.explorer = e } }

// WithConsequentialWords adds words to [DefaultConsequentialWords].
func WithConsequentialWords(words ...string) Option {
	return func(c *config) {
		for _, w := range words {
			c.words = append(c.words, strings.ToLower(strings.TrimSpace(w)))
		}
	}
}

// WithLogger injects the logger (nil discards). Only counts, modes, origins
// and reason codes are logged, never page text.
func WithLogger(l *slog.Logger) Option { return func(c *config) { c.logger = l } }

// WithClock replaces time.Now for timestamps and the session bound (tests).
func WithClock(now func() time.Time) Option { return func(c *config) { c.clock = now } }

// WithHooks installs progress hooks.
func WithHooks(h Hooks) Option { return func(c *config) { c.hooks = h } }

func buildConfig(opts []Option) (*config, error) {
	c := &config{
		mode:             ModeGuided,
		minInterval:      DefaultMinInterval,
		maxSnapshots:     DefaultMaxSnapshots,
		maxControls:      DefaultMaxControls,
		maxStringLen:     DefaultMaxStringLen,
		maxFrames:        DefaultMaxFrames,
		maxDuration:      DefaultMaxDuration,
		maxEvidenceBytes: DefaultMaxEvidenceBytes,
		maxSteps:         DefaultMaxSteps,
		maxRefusals:      DefaultMaxRefusals,
		words:            slices.Clone(DefaultConsequentialWords),
	}
	for _, o := range opts {
		if o != nil {
			o(c)
		}
	}
	if c.logger == nil {
		c.logger = slog.New(slog.DiscardHandler)
	}
	if c.clock == nil {
		c.clock = time.Now
	}
	bad := func(format string, args ...any) { c.errs = append(c.errs, fmt.Sprintf(format, args...)) }
	if !c.mode.Valid() {
		bad("unknown mode %q", c.mode)
	}
	if c.minInterval < MinIntervalFloor {
		bad("min interval %v is below %v", c.minInterval, MinIntervalFloor)
	}
	checkRange := func(name string, v, lo, hi int) {
		if v < lo || v > hi {
			bad("%s %d is outside [%d, %d]", name, v, lo, hi)
		}
	}
	checkRange("max snapshots", c.maxSnapshots, 1, MaxSnapshotsCeiling)
	checkRange("max controls", c.maxControls, 1, MaxControlsCeiling)
	checkRange("max string length", c.maxStringLen, 16, MaxStringLenCeiling)
	checkRange("max frames", c.maxFrames, 1, MaxFramesCeiling)
	checkRange("max evidence bytes", c.maxEvidenceBytes, 4096, MaxEvidenceBytes)
	checkRange("max steps", c.maxSteps, 1, MaxStepsCeiling)
	checkRange("max refusals", c.maxRefusals, 1, MaxStepsCeiling)
	if c.maxDuration <= 0 || c.maxDuration > MaxDurationCeiling {
		bad("max duration %v is outside (0, %v]", c.maxDuration, MaxDurationCeiling)
	}
	seen := map[string]bool{}
	for _, o := range c.allowed {
		if err := capability.CheckOrigin(o); err != nil {
			bad("allowed origin: %v", err)
		}
		if seen[o] {
			bad("allowed origin %q listed twice", o)
		}
		seen[o] = true
	}
	if c.mode != ModeGuided {
		if c.explorer == nil {
			bad("mode %s needs an explorer (WithExplorer)", c.mode)
		}
		if len(c.allowed) == 0 {
			bad("mode %s needs allowed origins (WithAllowedOrigins)", c.mode)
		}
	}
	if len(c.errs) > 0 {
		return nil, fmt.Errorf("%w: %s", ErrInvalidOption, strings.Join(c.errs, "; "))
	}
	slices.Sort(c.allowed)
	return c, nil
}

func (c *config) limits() SnapshotLimits {
	return SnapshotLimits{
		MaxControls:   c.maxControls,
		MaxStringLen:  rawStringLen(c.maxStringLen),
		MaxFrames:     c.maxFrames,
		MaxFrameDepth: capability.MaxFrameSelectors,
	}
}

func (c *config) allowedSet() map[string]bool {
	m := make(map[string]bool, len(c.allowed))
	for _, o := range c.allowed {
		m[o] = true
	}
	return m
}
