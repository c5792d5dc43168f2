package runtime

import (
	"context"
	"fmt"
	"time"

	"github.com/vera-run/vera/receipt"
)

// Capture limits: the bounds [CapturePolicy] values must keep, and the
// defaults [DefaultCapturePolicy] uses.
const (
	// DefaultCaptureEvents is the default number of events kept per step.
	DefaultCaptureEvents = 200
	// MaxCaptureEvents bounds [CapturePolicy.MaxEvents].
	MaxCaptureEvents = 10_000
	// DefaultCaptureEventBytes is the default byte budget of one step's
	// events.
	DefaultCaptureEventBytes = 64 << 10
	// MaxCaptureEventText bounds one event's text, in bytes; longer text
	// is cut (at a rune boundary).
	MaxCaptureEventText = 1024
	// DefaultCaptureSectionBytes is the default bound of one text section.
	DefaultCaptureSectionBytes = 1 << 20
	// DefaultCaptureScreenshotBytes is the default bound of one screenshot.
	DefaultCaptureScreenshotBytes = 4 << 20
	// DefaultCaptureTotalBytes is the default byte budget of a capture.
	DefaultCaptureTotalBytes = 32 << 20
	// MaxCaptureTotalBytes bounds [CapturePolicy.MaxTotalBytes] so that a
	// capture.json (base64 screenshots included) stays within
	// receipt.MaxCaptureBytes.
	MaxCaptureTotalBytes = 48 << 20
	// captureTimeout bounds the driver's snapshot of one step.
	captureTimeout = 10 * time.Second
)

// CapturePolicy is an opt-in per-step capture ([WithCapture]): which
// sections of the page each step records and the limits that bound them.
// The URL is always recorded. A zero limit takes its default; a negative
// one, or one above its maximum, is refused by [WithCapture].
type CapturePolicy struct {
	Screenshot    bool
	DOM           bool
	Accessibility bool
	History       bool
	Storage       bool
	// Events records console messages, page errors, network requests,
	// WebSocket frames, frames, workers, popups and cancelled downloads,
	// each attributed to the step that caused it.
	Events bool
	// MaxEvents and MaxEventBytes bound the events kept per step (count,
	// and the sum of [receipt.CaptureEvent.Size]); the rest are counted
	// as omitted.
	MaxEvents     int
	MaxEventBytes int
	// MaxSectionBytes bounds one text section (URL, DOM, accessibility,
	// history, storage); a larger one is truncated.
	MaxSectionBytes int
	// MaxScreenshotBytes bounds one screenshot; a larger one is truncated
	// (its first bytes are not a usable image: the state says so).
	MaxScreenshotBytes int
	// MaxTotalBytes bounds all sections' content together; once spent,
	// further sections are truncated with reason total_limit.
	MaxTotalBytes int
}

// DefaultCapturePolicy returns a policy capturing every section and event
// with the default limits.
func DefaultCapturePolicy() CapturePolicy {
	return CapturePolicy{Screenshot: true, DOM: true, Accessibility: true, History: true, Storage: true, Events: true}
}

// withDefaults fills the zero limits and checks the others.
func (p CapturePolicy) withDefaults() (CapturePolicy, error) {
	for _, x := range []struct {
		name     string
		v        *int
		def, max int
	}{
		{"MaxEvents", &p.MaxEvents, DefaultCaptureEvents, MaxCaptureEvents},
		{"MaxEventBytes", &p.MaxEventBytes, DefaultCaptureEventBytes, MaxCaptureTotalBytes},
		{"MaxSectionBytes", &p.MaxSectionBytes, DefaultCaptureSectionBytes, MaxCaptureTotalBytes},
		{"MaxScreenshotBytes", &p.MaxScreenshotBytes, DefaultCaptureScreenshotBytes, MaxCaptureTotalBytes},
		{"MaxTotalBytes", &p.MaxTotalBytes, DefaultCaptureTotalBytes, MaxCaptureTotalBytes},
	} {
		switch {
		case *x.v == 0:
			*x.v = x.def
		case *x.v < 0 || *x.v > x.max:
			return p, fmt.Errorf("%s %d is outside 1..%d", x.name, *x.v, x.max)
		}
	}
	return p, nil
}

// WithCapture turns on per-step capture (Evidence v2, FORMAT.md section
// 16): the run directory gets capture.json with the page's initial state
// and one record per executed action, listed in a browser-run-lock/v3.
// The driver must implement [Capturer] for anything but the URL; a driver
// that does not gets every other section missing (reason
// driver_unsupported), so such a capture is never eligible for an
// equality claim. A bad limit is refused by Execute ([ErrInvalidArgument]).
func WithCapture(p CapturePolicy) Option {
	return func(c *config) {
		q, err := p.withDefaults()
		if err != nil {
			c.bad("WithCapture", "%v", err)
			return
		}
		c.capture = &q
	}
}

// Capturer is the optional interface of a [Driver] that can capture page
// state and page events for [WithCapture]. browser.Driver and the
// runtimetest fake implement it. Like the Driver, it is not safe for
// concurrent use; the runtime calls StartCapture once before the run's
// first navigation, Snapshot after the start navigation and after every
// action (after the causal barrier), and StopCapture at the end.
type Capturer interface {
	// StartCapture starts observing page events (discarding any earlier
	// ones) for the driver's page and every target it owns.
	StartCapture(ctx context.Context) error
	// Snapshot captures the requested sections of the top-level page and
	// returns, with them, every event observed since the last Snapshot
	// (or StartCapture): the events the step caused. A section that
	// cannot be captured has its error set; the other sections are still
	// captured.
	Snapshot(ctx context.Context, req SnapshotRequest) (*Snapshot, error)
	// StopCapture stops observing events; it is idempotent.
	StopCapture(ctx context.Context) error
}

// SnapshotRequest selects the sections of a [Capturer.Snapshot].
type SnapshotRequest struct {
	Screenshot, DOM, Accessibility, History, Storage bool
}

// Snapshot is a driver's capture of the page. Values are raw: the runtime
// sanitizes URLs, redacts secrets and applies the limits.
type Snapshot struct {
	// Screenshot is a PNG of the top-level page's viewport.
	Screenshot    []byte
	ScreenshotErr error
	// Viewport is "WIDTHxHEIGHT" of the screenshot, "" when unknown.
	Viewport string
	// DOM is the serialized top-level document (outerHTML of its root).
	DOM    string
	DOMErr error
	// Accessibility is the page's full accessibility tree as text: one
	// line per node, indented by depth, "role" and the quoted name.
	Accessibility    string
	AccessibilityErr error
	// History is the run's navigation history: the page's entries after
	// the one current when StartCapture ran; HistoryIndex is the current
	// entry's index in it (-1 when the page went back before the run).
	History      []string
	HistoryIndex int
	HistoryErr   error
	// Storage is the top-level origin's local and session storage.
	Storage    []StorageItem
	StorageErr error
	// Events are the events observed since the last Snapshot, in order.
	Events []PageEvent
	// EventsLost counts events the driver's own bounded buffer dropped.
	EventsLost int
}

// StorageItem is one Web Storage entry.
type StorageItem struct {
	// Area is "local" or "session".
	Area       string
	Key, Value string
}

// PageEvent is one raw page event for a capture. URLs are raw (the
// runtime sanitizes them).
type PageEvent struct {
	Kind receipt.CaptureEventKind
	// Level is a console message's type, a request's resource type or a
	// worker's type.
	Level  string
	Method string
	URL    string
	Text   string
	// Length is a WebSocket frame's payload length.
	Length int
}
