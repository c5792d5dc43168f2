package browser

import (
	"context"
	"sync"

	"github.com/go-rod/rod/lib/proto"
)

// releaseDialog lets a connected browser dispose the driver's context
// while a native dialog is open. Chromium (156, headless) exits when a
// page with an open JavaScript dialog is closed or its browser context
// disposed: the operator's whole browser would go down with the run. So
// Close, and only Close, answers the dialog, after asking every page and
// frame of the context to terminate its script, so that the page's
// "cancel" branch does not run: Runtime.terminateExecution is handled off
// the renderer's main thread and takes effect as soon as the dialog
// returns. The terminations are sent first and awaited after the
// dismissal (a blocked renderer answers only once the dialog closes),
// bounded by Close's own deadline.
// The dialog is dismissed (confirm returns false, prompt null), never
// accepted.
func (d *Driver) releaseDialog(ctx context.Context) {
	d.mu.Lock()
	var sids []proto.TargetSessionID
	for sid, t := range d.targets {
		if t.kind.document() {
			sids = append(sids, sid)
		}
	}
	page := d.pageSID
	d.mu.Unlock()
	var wg sync.WaitGroup
	for _, sid := range sids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = d.call(ctx, sid, proto.RuntimeTerminateExecution{}, nil)
		}()
	}
	// The dialog is reported on the page's session (and answered there);
	// a frame session that did not report it answers "no dialog".
	if err := d.call(ctx, page, proto.PageHandleJavaScriptDialog{Accept: false}, nil); err != nil {
		for _, sid := range sids {
			if sid != page && d.call(ctx, sid, proto.PageHandleJavaScriptDialog{Accept: false}, nil) == nil {
				break
			}
		}
	}
	// Once the dialog is gone the blocked renderer terminates its script
	// and answers; ctx bounds the wait either way.
	wg.Wait()
	d.log.Info("native dialog dismissed to close the browser context")
}
