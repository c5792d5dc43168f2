package download

import (
	"fmt"
	"log/slog"
	"time"
)

// Defaults and bounds for the options. Durations that are zero or negative
// select the default; the poll interval is clamped to
// [MinPollInterval, MaxPollInterval] so cancellation is always observed
// within MaxPollInterval.
const (
	// DefaultSettle is how long the observed state (the new entries and
	// their size, mtime and inode) must stay unchanged before hashing.
	DefaultSettle = 50 * time.Millisecond
	// DefaultTimeout bounds how long Wait and VerifyPath wait for a settled
	// file. Hashing after settling is bounded by ctx and the byte limit.
	DefaultTimeout = 30 * time.Second
	// DefaultPollInterval is the interval between folder observations.
	DefaultPollInterval = 10 * time.Millisecond
	// MinPollInterval and MaxPollInterval bound WithPollInterval.
	MinPollInterval = time.Millisecond
	MaxPollInterval = 250 * time.Millisecond
	// DefaultLockTimeout bounds how long Begin waits for the directory lock
	// before failing with [ReasonLocked].
	DefaultLockTimeout = 30 * time.Second
	// DefaultMaxBytes is the largest file verified by default (4 GiB).
	DefaultMaxBytes int64 = 4 << 30
	// MaxSafeBytes is the largest byte length representable exactly in
	// canonical JSON (2^53-1); larger limits are clamped to it.
	MaxSafeBytes int64 = 1<<53 - 1
)

// Option configures Begin and VerifyPath. A bad value (a duration of zero
// or less, a poll interval or byte limit out of range) makes the call fail
// with [ReasonInvalidRequest] before it touches the folder.
type Option func(*options)

type options struct {
	settle      time.Duration
	timeout     time.Duration
	poll        time.Duration
	lockTimeout time.Duration
	maxBytes    int64
	logger      *slog.Logger

	// err is the first bad option value; Begin and VerifyPath refuse it.
	err error

	// afterHash is a test hook run after the bytes were hashed and before
	// the identity recheck.
	afterHash func(path string)
}

// bad records the first bad option value.
func (o *options) bad(name string, format string, args ...any) {
	if o.err == nil {
		o.err = fmt.Errorf("download: option %s: %s", name, fmt.Sprintf(format, args...))
	}
}

// positive records a bad value unless d is a positive duration.
func (o *options) positive(name string, d time.Duration) bool {
	if d <= 0 {
		o.bad(name, "%v is not a positive duration", d)
		return false
	}
	return true
}

// CheckOptions reports the first bad value among opts, as Begin and
// VerifyPath would refuse it; nil when every value is acceptable. Callers
// that pass options on to a later call (the runtime does, to verify a
// download after its click) check them up front with it.
func CheckOptions(opts ...Option) error {
	if o := buildOptions(opts); o.err != nil {
		return newError(ReasonInvalidRequest, "options", o.err)
	}
	return nil
}

func buildOptions(opts []Option) options {
	o := options{
		settle:      DefaultSettle,
		timeout:     DefaultTimeout,
		poll:        DefaultPollInterval,
		lockTimeout: DefaultLockTimeout,
		maxBytes:    DefaultMaxBytes,
	}
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	if o.logger == nil {
		o.logger = slog.New(slog.DiscardHandler)
	}
	return o
}

// WithSettle sets the settle window (default [DefaultSettle]). A value of
// zero or less is refused (the call fails with [ReasonInvalidRequest]).
func WithSettle(d time.Duration) Option {
	return func(o *options) {
		if o.positive("WithSettle", d) {
			o.settle = d
		}
	}
}

// WithTimeout sets how long to wait for a settled file (default
// [DefaultTimeout]). A value of zero or less is refused.
func WithTimeout(d time.Duration) Option {
	return func(o *options) {
		if o.positive("WithTimeout", d) {
			o.timeout = d
		}
	}
}

// WithPollInterval sets the observation interval (default
// [DefaultPollInterval]), from [MinPollInterval] to [MaxPollInterval]; a
// value outside that range is refused.
func WithPollInterval(d time.Duration) Option {
	return func(o *options) {
		if d < MinPollInterval || d > MaxPollInterval {
			o.bad("WithPollInterval", "%v is outside [%v, %v]", d, MinPollInterval, MaxPollInterval)
			return
		}
		o.poll = d
	}
}

// WithLockTimeout bounds how long Begin waits for the directory lock (default
// [DefaultLockTimeout]). A value of zero or less is refused. The caller's
// ctx bounds the wait as well.
func WithLockTimeout(d time.Duration) Option {
	return func(o *options) {
		if o.positive("WithLockTimeout", d) {
			o.lockTimeout = d
		}
	}
}

// WithMaxBytes sets the largest file that is hashed (default
// [DefaultMaxBytes]); larger files fail with [ReasonTooLarge]. A value
// outside 1 to [MaxSafeBytes] is refused.
func WithMaxBytes(n int64) Option {
	return func(o *options) {
		if n <= 0 || n > MaxSafeBytes {
			o.bad("WithMaxBytes", "%d is outside [1, %d]", n, MaxSafeBytes)
			return
		}
		o.maxBytes = n
	}
}

// WithLogger sets the logger for local diagnostics (default: discard). Log
// records may contain file names and paths; they are local detail.
func WithLogger(l *slog.Logger) Option {
	return func(o *options) {
		if l != nil {
			o.logger = l
		}
	}
}
