package runtime

import (
	"context"
	"errors"
	"fmt"
	goruntime "runtime"
	"time"

	"github.com/vera-run/vera/receipt"
)

// PreflightReport is what [Preflight] learned about a driver and its
// browser, with the runtime's limits. It is filled as far as possible even
// when Preflight fails.
type PreflightReport struct {
	Mode            ExecutionMode `json:"execution_mode,omitempty"`
	Browser         string        `json:"browser,omitempty"`
	ProtocolVersion string        `json:"protocol_version,omitempty"`
	UserAgent       string        `json:"user_agent,omitempty"`
	DownloadRoute   DownloadRoute `json:"download_route,omitempty"`
	Library         string        `json:"library"`
	GoVersion       string        `json:"go_version"`
	OS              string        `json:"os"`
	Arch            string        `json:"arch"`
	// CheckedAt is when the check started; Duration how long it took.
	CheckedAt time.Time     `json:"checked_at"`
	Duration  time.Duration `json:"duration"`
	Limits    Limits        `json:"limits"`
	// Failure is set when the driver could not be opened or closed.
	Failure *Failure `json:"failure,omitempty"`
}

// ErrPreflight is wrapped by every Preflight failure.
var ErrPreflight = errors.New("runtime: preflight failed")

// Preflight opens a driver with open, reports the browser and protocol
// versions, the execution mode and the runtime limits, and closes the
// driver. Errors wrap [ErrPreflight] and the driver's sentinel (for
// example [ErrBrowserUnavailable]); the report is returned in every case.
// A nil ctx wraps [ErrInvalidArgument], a nil open [ErrNoDriver].
func Preflight(ctx context.Context, open func(ctx context.Context) (Driver, error)) (*PreflightReport, error) {
	rep := &PreflightReport{
		Library:   "vera/" + Version,
		GoVersion: goruntime.Version(),
		OS:        goruntime.GOOS,
		Arch:      goruntime.GOARCH,
		CheckedAt: time.Now(),
		Limits:    DefaultLimits(),
	}
	defer func() { rep.Duration = time.Since(rep.CheckedAt) }()
	if ctx == nil {
		return rep, fmt.Errorf("%w: %w: nil context", ErrPreflight, ErrInvalidArgument)
	}
	if open == nil {
		rep.Failure = newFailure(receipt.CategoryInternal, ReasonNoDriverFactory, "no driver factory")
		return rep, fmt.Errorf("%w: %w", ErrPreflight, ErrNoDriver)
	}
	d, err := open(ctx)
	if err == nil && d == nil {
		err = ErrNoDriver
	}
	if err != nil {
		rep.Failure = preflightFailure(ctx, err)
		return rep, fmt.Errorf("%w: %w", ErrPreflight, err)
	}
	info := d.Info()
	rep.Mode, rep.Browser, rep.ProtocolVersion, rep.UserAgent, rep.DownloadRoute =
		info.Mode, info.Browser, info.ProtocolVersion, info.UserAgent, info.DownloadRoute
	if err := d.Close(); err != nil {
		rep.Failure = preflightFailure(ctx, err)
		return rep, fmt.Errorf("%w: close: %w", ErrPreflight, err)
	}
	return rep, nil
}

func preflightFailure(ctx context.Context, err error) *Failure {
	cat, reason := receipt.CategoryInternal, ReasonDriverOpenFailed
	switch {
	case ctx.Err() != nil:
		cat, reason = receipt.CategoryCanceled, ReasonCanceled
	case errors.Is(err, ErrBrowserUnavailable):
		cat, reason = receipt.CategoryBrowserUnavailable, ReasonBrowserUnavailable
	case errors.Is(err, ErrBrowserLaunchFailed):
		cat, reason = receipt.CategoryBrowserLaunchFailed, ReasonBrowserLaunchFailed
	case errors.Is(err, ErrBrowserCrashed):
		cat, reason = receipt.CategoryBrowserCrashed, ReasonBrowserCrashed
	}
	return newFailure(cat, reason, err.Error())
}
