package browser

import (
	"strings"
	"time"

	"github.com/go-rod/rod/lib/cdp"
)

// frameRecheck bounds the wait between two looks at a frame that is not
// ready yet when no event came: the frame's readiness is a page state
// (its document leaving about:blank, its readyState leaving "loading")
// that Chromium reports through events on more than one session (the
// parent's frameNavigated and lifecycle events, an out-of-process frame's
// attach and its own load events), so every such event wakes the wait at
// once and this bound only covers a change no event announces.
const frameRecheck = 100 * time.Millisecond

// changeWaker wakes a wait loop on every Page or Target event of the
// driver's sessions (navigation committed, frame attached or detached,
// loading started or stopped, lifecycle, target attached). Wait returns
// the channel to select on; it holds at most one pending wake-up, so
// events between two looks collapse into one re-check.
type changeWaker struct {
	ch     chan struct{}
	remove func()
}

func (d *Driver) newChangeWaker() *changeWaker {
	return d.newWaker(func(method string) bool {
		return strings.HasPrefix(method, "Page.") || strings.HasPrefix(method, "Target.")
	})
}

// newWaker is a changeWaker woken by the events for which wakes is true.
func (d *Driver) newWaker(wakes func(method string) bool) *changeWaker {
	w := &changeWaker{ch: make(chan struct{}, 1)}
	w.remove = d.addWaiter(func(ev *cdp.Event) {
		if wakes(ev.Method) {
			select {
			case w.ch <- struct{}{}:
			default:
			}
		}
	})
	return w
}

// drain drops a pending wake-up, so the next wait is for an event after
// the look that follows.
func (w *changeWaker) drain() {
	select {
	case <-w.ch:
	default:
	}
}

func (w *changeWaker) close() { w.remove() }
