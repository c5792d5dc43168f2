package browser

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/go-rod/rod/lib/proto"
	"github.com/vera-run/vera/runtime"
)

// The browser routes a mouse event dispatched to the top-level page into
// an out-of-process frame by its own hit-test data. Under load that data
// can lag behind a frame that has already laid out (the stress tier saw it
// about once in 150 clicks on the ledger, two out-of-process levels down):
// the press and release then land on the <iframe> element in the parent
// document, Input.dispatchMouseEvent reports success and the click is
// silently lost (no dialog, no download, no effect). So a click into a
// frame is dispatched as press, check, release: listeners armed in the
// element's document and in every ancestor document of its frame path
// tell where the press went. On the element: release, done. On the frame
// path's own <iframe> element in an ancestor (misrouted, harmless): release
// there, wait for the element's frame to render and press again, bounded
// by ctx. Anywhere else: release and fail as not interactable.

// A click can also miss in the element's own document: the page's layout
// moves between the measurement of the element's centre and the press (a
// stylesheet that arrives late, a banner inserted above, a re-render).
// Dispatched blind, the press and release then land on whatever is at the
// old point now, and that element gets the click: a silent miss at best
// (a slow teller page: the search button moved down when its stylesheet
// arrived, and the form was never sent), a click on the wrong control at
// worst. So every click is guarded, as Playwright's hit-target check
// does: before the press, capture listeners on the element's window (and
// on the window of every <iframe> on its frame path) watch pointerdown,
// mousedown, pointerup, mouseup and click. A press whose composed path
// does not hold the guarded element is counted as "other" and stopped
// there, and so is every pointerup, mouseup and click after it
// (preventDefault and stopImmediatePropagation in the capture phase,
// before any page listener registered later sees them, and with the
// default action cancelled: no focus change, no activation, no form
// submission, no link). A press that reached the element removes the
// element's guard at once, so nothing after it is stopped and the
// activation a click causes elsewhere (a label's click on its control)
// goes through. The press goes out, the guards are read,
// and only a press that reached the element is released; a press the
// guard stopped is released into the still armed guard (inert) and the
// click is measured and sent again, bounded by ctx. The limit: a page
// listener registered on window in the capture phase before the guard
// still runs first.

// jsArmPress arms the guard for this element on its window; it counts
// presses that reach this element (an element inside it, shadow trees
// included, or one of its labels, as the hit-test before the click
// allows) and stops a press that does not, with the rest of its click.
//
// With watch (the element's own guard) it also arms the submit watch of
// the element's form (formwatch.go): read reports form: true when one is
// armed, submit() reads and removes it, done() removes it too.
const jsArmPress = `function(watch){
  const el = this, w = el.ownerDocument.defaultView, rec = {hit: 0, other: 0, stop: false};
  const watchClick = true, fw = watch ? ` + jsSubmitWatch + `(el) : null;
  const reaches = e => {
    const p = e.composedPath();
    if (p.includes(el) || (e.target instanceof Node && el.contains(e.target))) return true;
    // The actionability hit-test also accepts one of the element's
    // labels (a styled checkbox under its label): so does the guard.
    return !!el.labels && Array.prototype.some.call(el.labels, l => p.includes(l));
  };
  const h = e => {
    if (e.type === 'pointerdown' || e.type === 'mousedown') {
      // A press that reached the element ends the guard at once: nothing
      // after it is stopped anyway, and no disarming call must follow.
      if (reaches(e)) { rec.hit++; rec.stop = false; off(); return; }
      rec.other++; rec.stop = true;
    }
    if (rec.stop) { e.preventDefault(); e.stopImmediatePropagation(); }
  };
  const types = ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click'];
  const off = () => { for (const t of types) w.removeEventListener(t, h, true); };
  for (const t of types) w.addEventListener(t, h, true);
  return { read() { return {hit: rec.hit, other: rec.other, form: !!fw}; },
    done() { off(); if (fw) fw.off(); },
    submit() { return fw ? fw.result() : {count: 0}; } };
}`

// jsTwoFrames resolves after two animation frames of this element's
// window (a new frame was rendered and submitted).
const jsTwoFrames = `function(){ const w = this.ownerDocument.defaultView; return new Promise(r => w.requestAnimationFrame(() => w.requestAnimationFrame(() => r(1)))); }`

type pressProbe struct {
	sid proto.TargetSessionID
	obj proto.RuntimeRemoteObjectID
}

type pressCount struct {
	Hit   int  `json:"hit"`
	Other int  `json:"other"`
	Form  bool `json:"form"`
}

func (d *Driver) armPress(ctx context.Context, sid proto.TargetSessionID, obj proto.RuntimeRemoteObjectID, watch bool) (pressProbe, error) {
	r, err := d.callOn(ctx, sid, obj, jsArmPress, false, nil, val(watch))
	if err != nil {
		return pressProbe{}, err
	}
	return pressProbe{sid: sid, obj: r.ObjectID}, nil
}

func (d *Driver) readPress(ctx context.Context, p pressProbe) (pressCount, error) {
	var c pressCount
	_, err := d.callOn(ctx, p.sid, p.obj, `function(){ return this.read() }`, true, &c)
	return c, err
}

// errPressMissed: the guard stopped a press that did not reach the
// element (its layout moved after it was measured); nothing happened, and
// the caller measures the element again.
var errPressMissed = errors.New("the press did not reach the element (the layout moved); it was stopped")

// dispatchClick sends the mouse events of one click at (x, y), guarded
// (see above): move, press, read the guards, then release. A press that
// reached el is released and the click is done. One that landed on the
// frame path's own <iframe> element in an ancestor (misrouted, harmless)
// is released there and sent again at the same point after el's frame
// rendered. One the guard stopped returns errPressMissed (released into
// the armed guard: inert). One that no guard saw within the bound is
// released and refused as not interactable.
func (d *Driver) dispatchClick(ctx context.Context, el *element, x, y float64, sent *bool) error {
	moved := proto.InputDispatchMouseEvent{Type: proto.InputDispatchMouseEventTypeMouseMoved, X: x, Y: y}
	pressed := proto.InputDispatchMouseEvent{Type: proto.InputDispatchMouseEventTypeMousePressed, X: x, Y: y, Button: proto.InputMouseButtonLeft, Buttons: intp(1), ClickCount: 1}
	released := proto.InputDispatchMouseEvent{Type: proto.InputDispatchMouseEventTypeMouseReleased, X: x, Y: y, Button: proto.InputMouseButtonLeft, Buttons: intp(0), ClickCount: 1}
	for {
		own, err := d.armPress(ctx, el.sid, el.obj, true)
		if err != nil {
			return err
		}
		probes := []pressProbe{own}
		disarm := func(probes []pressProbe) {
			for _, p := range probes {
				_, _ = d.callOn(ctx, p.sid, p.obj, `function(){ this.done() }`, true, nil)
			}
		}
		for _, l := range el.chain {
			p, err := d.armPress(ctx, l.sid, l.obj, false)
			if err != nil {
				disarm(probes)
				return err
			}
			probes = append(probes, p)
		}
		for _, ev := range []proto.InputDispatchMouseEvent{moved, pressed} {
			if ev.Type == proto.InputDispatchMouseEventTypeMousePressed {
				if h := d.pressHook.Load(); h != nil {
					(*h)()
				}
				// Dispatched, even when the press is stopped or retried:
				// the flag is conservative.
				*sent = true
				d.actBegan()
			}
			if err := d.call(ctx, d.pageSID, ev, nil); err != nil {
				return err
			}
		}
		// The press is acknowledged by the frame it was routed to once its
		// handlers ran; the listeners normally know at once. Poll briefly
		// (bounded by ctx) in case a document dispatches it later.
		where, form, err := d.pressTarget(ctx, probes)
		if err != nil {
			// The button must not stay down, and the press went nobody
			// knows where: it is released away from the point, so it
			// completes no click (see releaseAway).
			d.releaseAway(released)
			disarm(probes[1:])
			if isStaleError(err) || errors.Is(err, runtime.ErrStaleElement) {
				// The element's document went away with the press on its
				// way (nothing of the click's own can have removed it
				// before the release: a remounted frame, a navigation
				// the page started). Where the press landed is unknown,
				// maybe in the document that replaced it: not the stale
				// element of a click that navigated (which the runtime
				// counts as done), or the first confirmation still on
				// screen in a remounted frame was read as the second's
				// (TestClickDocumentGoneBeforePress).
				return fmt.Errorf("%w: the element's document went away while the press was on its way; where it landed is unknown (%v)", runtime.ErrNotInteractable, err)
			}
			return err
		}
		if err := d.call(ctx, d.pageSID, released, nil); err != nil {
			return err
		}
		if where == pressOnElement {
			// The click's default action (a form's validation) ran
			// before the release returned.
			if form {
				if err := d.readSubmitWatch(ctx, own.sid, own.obj, `function(){ return this.submit() }`); err != nil {
					disarm(probes[1:])
					return err
				}
			}
			// The element's own guard removed itself at the press that
			// reached it (a top-level click sends no disarming call, issue
			// 21); the frame path's guards are disarmed after the release:
			// the click event of this release is dispatched before
			// Input.dispatchMouseEvent returns, so no guard outlives the
			// click it guards. A document that navigated away takes its
			// guards with it.
			disarm(probes[1:])
			return nil
		}
		disarm(probes)
		switch where {
		case pressOnFramePath:
			d.log.Debug("click misrouted to a parent frame; retrying after a rendered frame")
			if _, err := d.callOn(ctx, el.sid, el.obj, jsTwoFrames, true, nil); err != nil {
				return err
			}
			// re-measure: the caller's point is still right (the element
			// is stable), only the browser's routing lagged.
			continue
		case pressStopped:
			d.log.Debug("click stopped by the guard: the layout moved after the element was measured")
			return errPressMissed
		default:
			return fmt.Errorf("%w: the press at the element's centre did not reach it", runtime.ErrNotInteractable)
		}
	}
}

type pressWhere int

const (
	pressNowhere pressWhere = iota
	pressOnElement
	pressOnFramePath
	// pressStopped: a guard saw the press elsewhere and stopped it.
	pressStopped
	// pressElsewhere: no guard saw the press within the bound.
	pressElsewhere
)

// pressTarget reads the probes until one saw the press: probes[0] is the
// element's, the others the frame path's iframe elements.
//
// form reports that the element's guard armed a submit watch.
func (d *Driver) pressTarget(ctx context.Context, probes []pressProbe) (where pressWhere, form bool, err error) {
	deadline := time.Now().Add(2 * time.Second)
	for {
		onPath := false
		for i, p := range probes {
			c, err := d.readPress(ctx, p)
			if err != nil {
				return pressNowhere, form, err
			}
			if i == 0 {
				form = c.Form
			}
			switch {
			case i == 0 && c.Hit > 0:
				return pressOnElement, form, nil
			case i == 0 && c.Other > 0:
				return pressStopped, form, nil
			case i > 0 && c.Hit > 0:
				onPath = true
			case i > 0 && c.Other > 0:
				return pressStopped, form, nil
			}
		}
		// An ancestor's iframe element got the press while the element's
		// own document saw nothing: misrouted.
		if onPath {
			return pressOnFramePath, form, nil
		}
		if time.Now().After(deadline) {
			return pressElsewhere, form, nil
		}
		select {
		case <-ctx.Done():
			return pressNowhere, form, ctx.Err()
		case <-time.After(pollInterval):
		}
	}
}

// releaseAway releases the mouse button after a press whose target is
// unknown: the pointer first moves to the viewport's top-left corner, so
// the release lands elsewhere than the press and no click (a click goes
// to the element that got both) activates whatever the press reached.
// It runs on its own short context: ctx may be what ended.
func (d *Driver) releaseAway(released proto.InputDispatchMouseEvent) {
	ctx, cancel := context.WithTimeout(d.lifeCtx, 2*time.Second)
	defer cancel()
	away := proto.InputDispatchMouseEvent{Type: proto.InputDispatchMouseEventTypeMouseMoved, X: 0, Y: 0, Buttons: intp(1)}
	if err := d.call(ctx, d.pageSID, away, nil); err != nil {
		d.log.Debug("release away: move", "err", err)
	}
	released.X, released.Y = 0, 0
	if err := d.call(ctx, d.pageSID, released, nil); err != nil {
		d.log.Debug("release away", "err", err)
	}
}
