package runtime

import (
	"context"
	"time"
)

// ChangeWaiter is an optional [Driver] extension that makes the runtime's
// waits (locator, postcondition, transition) event-driven: between two
// checks of an unmet condition the runtime calls WaitChange, bounded by
// the poll interval, instead of sleeping the whole interval, so a
// condition the page fulfils is seen as soon as the page reports the
// change. The poll interval stays the bound of every wait between two
// checks, so a change no event announces (a CSS animation, a media
// query, a frame the driver does not observe) is still seen within one
// interval, as without the extension.
type ChangeWaiter interface {
	// WaitChange returns nil when the document of scope (nil: the
	// top-level page) or the page reported a change that may affect a
	// condition (a DOM mutation, a navigation committed, a load, a frame
	// attached or detached) after the call began, or when ctx's deadline
	// passes; it returns ctx.Err() when ctx is canceled. A change between
	// the runtime's last check and the call may go unreported: the bound
	// covers it.
	WaitChange(ctx context.Context, scope Scope) error
}

// minRecheck is the least time between the starts of two checks of one
// wait when changes wake it, so a page that mutates all the time is not
// checked more often than every few milliseconds.
const minRecheck = 5 * time.Millisecond

// pause waits between two checks of a wait: one poll interval, or with a
// [ChangeWaiter] until the driver reports a change (but at least
// minRecheck after the last check began, checked) and at most one poll
// interval, or until ctx ends. It reports whether ctx ended.
func (r *run) pause(ctx context.Context, timer **time.Timer, checked time.Time) bool {
	if cw, ok := r.drv.(ChangeWaiter); ok {
		scope := Scope(nil)
		if c := &r.scopeCache; c.valid && c.gen == r.gen && c.err == nil {
			scope = c.scope
		}
		wctx, cancel := context.WithTimeout(ctx, r.pollEvery)
		err := cw.WaitChange(wctx, scope)
		cancel()
		if ctx.Err() != nil {
			return true
		}
		if err == nil {
			if rest := minRecheck - time.Since(checked); rest > 0 {
				return r.sleep(ctx, timer, rest)
			}
			return false
		}
		// A driver error: fall back to the plain interval.
	}
	return r.sleep(ctx, timer, r.pollEvery)
}

// sleep waits d (reusing *timer) or until ctx ends; it reports whether
// ctx ended.
func (r *run) sleep(ctx context.Context, timer **time.Timer, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() != nil
	}
	if *timer == nil {
		*timer = time.NewTimer(d)
	} else {
		(*timer).Reset(d)
	}
	select {
	case <-ctx.Done():
		return true
	case <-(*timer).C:
		return false
	}
}
