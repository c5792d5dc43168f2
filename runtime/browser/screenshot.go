package browser

import (
	"context"
	"fmt"

	"github.com/go-rod/rod/lib/proto"

	"github.com/vera-run/vera/runtime"
)

// MaxScreenshotBytes bounds one [Driver.Screenshot]: a viewport of at most
// [MaxViewportWidth] x [MaxViewportHeight] CSS pixels is a few MiB as PNG
// even at a device scale factor of 2; a larger answer is refused rather
// than kept.
const MaxScreenshotBytes = 16 << 20

// Screenshot captures the driver's top-level page as a PNG of its
// viewport: what a person would see in the window at the viewport's size
// (not a full-page capture), in CSS pixels times the device scale factor
// (1 in a launched headless browser). It waits for the page to produce
// a frame, bounded by ctx. It fails as the driver's other calls do
// (runtime.ErrClosed, runtime.ErrBrowserCrashed, runtime.ErrNativeDialog
// while a native dialog is open), and with runtime.ErrInvalidArgument for
// a nil ctx.
func (d *Driver) Screenshot(ctx context.Context) ([]byte, error) {
	if d == nil {
		return nil, fmt.Errorf("%w: nil Driver", runtime.ErrInvalidArgument)
	}
	cctx, done, err := d.begin(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	var res proto.PageCaptureScreenshotResult
	req := proto.PageCaptureScreenshot{Format: proto.PageCaptureScreenshotFormatPng, FromSurface: true}
	if err := d.call(cctx, d.pageSID, req, &res); err != nil {
		return nil, d.fail(cctx, "screenshot", err)
	}
	if len(res.Data) > MaxScreenshotBytes {
		return nil, fmt.Errorf("browser: screenshot: %d bytes, at most %d", len(res.Data), MaxScreenshotBytes)
	}
	return res.Data, nil
}

// OpenViewport is [Browser.Open] with [WithViewport](width, height) for
// this one driver: a fresh browser context whose pages lay out at width x
// height CSS pixels, whatever viewport the Browser itself was given. A
// size outside 1..[MaxViewportWidth] x 1..[MaxViewportHeight] is
// [ErrInvalidOption] before the browser is contacted. It is the
// viewport driver source of runtime/jobs.
func (b *Browser) OpenViewport(ctx context.Context, width, height int) (runtime.Driver, error) {
	if b == nil {
		return nil, fmt.Errorf("%w: nil Browser", runtime.ErrInvalidArgument)
	}
	o := b.o
	o.viewportW, o.viewportH, o.viewportSet = width, height, true
	if err := o.checkViewport(); err != nil {
		return nil, err
	}
	d, err := b.newDriver(ctx, o, false)
	if err != nil {
		return nil, err
	}
	return d, nil
}
