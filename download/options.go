package download

import (
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

// Option configures Begin, VerifyPath and VerifyBrowserDownload.
type Option func(*options)

type options struct {
	settle      time.Duration
	timeout     time.Duration
	poll        time.Duration
	lockTimeout time.Duration
	maxBytes    int64
	logger      *slog.Logger

	// afterHash is a test hook run after the bytes were hashed and before
	// the identity recheck.
	afterHash func(path string)
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
// zero or less keeps the default.
func WithSettle(d time.Duration) Option {
	return func(o *options) {
		if d > 0 {
			o.settle = d
		}
	}
}

// WithTimeout sets how long to wait for a settled file (default
// [DefaultTimeout]). A value of zero or less keeps the default.
func WithTimeout(d time.Duration) Option {
	return func(o *options) {
		if d > 0 {
			o.timeout = d
		}
	}
}

// WithPollInterval sets the observation interval (default
// [DefaultPollInterval]), clamped to [MinPollInterval, MaxPollInterval]. A
// value of zero or less keeps the default.
func WithPollInterval(d time.Duration) Option {
	return func(o *options) {
		switch {
		case d <= 0:
		case d < MinPollInterval:
			o.poll = MinPollInterval
		case d > MaxPollInterval:
			o.poll = MaxPollInterval
		default:
			o.poll = d
		}
	}
}

// WithLockTimeout bounds how long Begin waits for the directory lock (default
// [DefaultLockTimeout]). A value of zero or less keeps the default. The
// caller's ctx bounds the wait as well.
func WithLockTimeout(d time.Duration) Option {
	return func(o *options) {
		if d > 0 {
			o.lockTimeout = d
		}
	}
}

// WithMaxBytes sets the largest file that is hashed (default
// [DefaultMaxBytes]); larger files fail with [ReasonTooLarge]. Values of zero
// or less keep the default; values above [MaxSafeBytes] are clamped.
func WithMaxBytes(n int64) Option {
	return func(o *options) {
		switch {
		case n <= 0:
		case n > MaxSafeBytes:
			o.maxBytes = MaxSafeBytes
		default:
			o.maxBytes = n
		}
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
