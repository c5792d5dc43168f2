package browser

import (
	"context"
	"fmt"

	"github.com/go-rod/rod/lib/proto"
)

// MaxViewportWidth and MaxViewportHeight bound [WithViewport], in CSS
// pixels: the limits of the browser provider profile (seed 003), which
// hold real desktop screens and keep a screenshot of the viewport
// bounded.
const (
	MaxViewportWidth  = 1920
	MaxViewportHeight = 1600
)

// WithViewport sets the viewport of every page the driver opens (its page
// and every popup of its browser context) to width x height CSS pixels,
// in [Launch] and [Connect] mode alike, before the page runs: the size is
// what window.innerWidth and window.innerHeight report, and the page lays
// out at it (media queries, wrapping, what is below the fold). The
// device scale factor stays the browser's. A connected browser's own
// windows and settings are not changed: the size is an emulation of the
// driver's targets only, which ends with the driver's browser context.
//
// Without it the viewport is whatever the browser's window leaves: for a
// launched browser the window of [DefaultFlags]' --window-size=1280,800
// less the headless window's frame (1280x713 in Chromium 156), for a
// connected one the operator's window. A width or height of zero or less,
// a width above [MaxViewportWidth] or a height above [MaxViewportHeight]
// makes Launch and Connect fail with [ErrInvalidOption] before any
// browser is started or contacted. [StartLocal] ignores it.
func WithViewport(width, height int) Option {
	return func(o *options) { o.viewportW, o.viewportH, o.viewportSet = width, height, true }
}

// checkViewport reports a [WithViewport] value outside its range.
func (o options) checkViewport() error {
	if !o.viewportSet {
		return nil
	}
	if o.viewportW <= 0 || o.viewportH <= 0 || o.viewportW > MaxViewportWidth || o.viewportH > MaxViewportHeight {
		return fmt.Errorf("%w: WithViewport(%d, %d): width must be from 1 to %d and height from 1 to %d",
			ErrInvalidOption, o.viewportW, o.viewportH, MaxViewportWidth, MaxViewportHeight)
	}
	return nil
}

// applyViewport sets the driver's viewport on the page or popup session
// sid, which is still paused before it runs. Without [WithViewport] it
// does nothing.
func (d *Driver) applyViewport(ctx context.Context, sid proto.TargetSessionID) error {
	if d.viewportW == 0 {
		return nil
	}
	return d.call(ctx, sid, proto.EmulationSetDeviceMetricsOverride{Width: d.viewportW, Height: d.viewportH}, nil)
}
