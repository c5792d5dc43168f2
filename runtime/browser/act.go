package browser

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/go-rod/rod/lib/proto"
	"github.com/vera-run/vera/runtime"
)

// pollInterval is how often an action re-checks an element that is not
// ready yet.
const pollInterval = 25 * time.Millisecond

// stableInterval separates the two box measurements that prove an
// element stable (about one animation frame).
const stableInterval = 16 * time.Millisecond

type elState struct {
	Connected bool `json:"connected"`
	Visible   bool `json:"visible"`
	Enabled   bool `json:"enabled"`
	Fillable  bool `json:"fillable"`
	Editable  bool `json:"editable"`
	Checkable bool `json:"checkable"`
	Checked   bool `json:"checked"`
	Radio     bool `json:"radio"`
	Select    bool `json:"select"`
	// Host: the element may host a shadow root (an open one, or a
	// custom element name: a closed one is not seen from the page).
	Host bool    `json:"host"`
	X    float64 `json:"x"`
	Y    float64 `json:"y"`
	W    float64 `json:"w"`
	H    float64 `json:"h"`
	// L, T, R, B bound the visible part of the box (cut by clipping
	// ancestors and the frame's viewport); Full: nothing was cut.
	L    float64 `json:"l"`
	T    float64 `json:"t"`
	R    float64 `json:"r"`
	B    float64 `json:"b"`
	Full bool    `json:"full"`
	// VW, VH: the frame's viewport size.
	VW float64 `json:"vw"`
	VH float64 `json:"vh"`
	// PX, PY: the point hit-tested; Over: what covers it ("" for the
	// element itself).
	PX   float64 `json:"px"`
	PY   float64 `json:"py"`
	Over string  `json:"over"`
	// Prev is the box measured an animation frame before this state
	// (jsActStateFramed), nil when there was no earlier measurement.
	Prev *struct {
		X float64 `json:"x"`
		Y float64 `json:"y"`
		W float64 `json:"w"`
		H float64 `json:"h"`
	} `json:"prev"`
}

// Act performs one action after waiting, bounded by ctx, for the element
// to be attached, visible, stable (same box an animation frame apart)
// and enabled (a fill: attached, visible, enabled and editable; a key press:
// attached, visible and enabled; neither needs it stable, as in
// Playwright), and, for a click, in view (scrolled there when its
// frame's viewport, a scrolled container or a frame above cuts it) and
// hit at its click point rather than something covering it. When ctx ends first the error is a
// *[NotInteractableError] naming the failed check, box and viewport.
// An error after the input went out (the mouse press, the key down) is a
// *[runtime.DispatchError]: the page may have acted on it.
// Click, check and uncheck use real mouse events at the centre of the
// element's visible part;
// fill selects the content and inserts the text, then fires one change
// (the package documentation says which events a page sees), and is
// [runtime.ErrFillRefused] when the field kept the value it had, though
// the value filled differs from it (the package documentation says what
// is and is not checked); select
// picks an option by value, then by label; press focuses the element and
// sends the key ("Enter", "Tab", "a", "Control+a").
func (d *Driver) Act(ctx context.Context, e runtime.Element, a runtime.Act) error {
	cctx, done, err := d.begin(ctx)
	if err != nil {
		return err
	}
	defer done()
	el, err := d.asElement(e)
	if err != nil {
		return err
	}
	// sent is set just before the first input event (mouse press, key
	// down) goes out: from then on the page may act on it.
	var sent bool
	switch a.Kind {
	case runtime.ActClick:
		_, err = d.click(cctx, el, nil, &sent)
	case runtime.ActFill:
		err = d.fill(cctx, el, a.Value)
	case runtime.ActSelect:
		err = d.selectOption(cctx, el, a.Value)
	case runtime.ActPress:
		err = d.press(cctx, el, a.Value, &sent)
	case runtime.ActCheck, runtime.ActUncheck:
		err = d.check(cctx, el, a.Kind == runtime.ActCheck, &sent)
	default:
		return fmt.Errorf("%w: action %q", runtime.ErrUnsupported, a.Kind)
	}
	if err != nil {
		err = d.elemErr(cctx, string(a.Kind), err)
		if sent {
			return &runtime.DispatchError{Err: err}
		}
		return err
	}
	return nil
}

// The actionability checks, as [NotInteractableError.Check] names them
// (Playwright's names).
const (
	// CheckVisible: the element has a non-empty box and is not hidden.
	CheckVisible = "visible"
	// CheckEnabled: the element is not disabled (disabled attribute,
	// a disabled fieldset, aria-disabled="true").
	CheckEnabled = "enabled"
	// CheckEditable: a fill target is not read-only and takes the focus
	// (a text field inside an inert subtree, or outside an open modal
	// dialog, does not).
	CheckEditable = "editable"
	// CheckStable: the element's box stayed the same on two measurements
	// about an animation frame apart.
	CheckStable = "stable"
	// CheckInViewport: no part of the element could be brought into the
	// viewport (of its frame and every frame and container above it).
	CheckInViewport = "in_viewport"
	// CheckReceivesEvents: the hit test at the click point found another
	// element (the cover) on top of it.
	CheckReceivesEvents = "receives_events"
)

// Point is a position in CSS pixels of the top-level viewport.
type Point struct{ X, Y float64 }

// Rect is a box in CSS pixels of the top-level viewport.
type Rect struct{ X, Y, W, H float64 }

// NotInteractableError is how an action that timed out waiting for its
// element reports the last actionability check that failed. It wraps
// [runtime.ErrNotInteractable] and the context's error, so errors.Is
// works with both; errors.As gives the details. Its message reads, for
// example, "element not interactable: covered by <header class=sticky>
// at (640,30); box {x:600 y:10 w:80 h:40}; viewport 1280x720: context
// deadline exceeded".
type NotInteractableError struct {
	// Check is the check that failed last: one of CheckVisible,
	// CheckEnabled, CheckEditable, CheckStable, CheckInViewport or
	// CheckReceivesEvents.
	Check string
	// Detail says what the check saw ("disabled", "covered by <div
	// class=modal-backdrop>", "outside the viewport").
	Detail string
	// Cover describes the element on top of the click point
	// ("<tag id=.. class=..>", "nothing" outside the viewport), with
	// CheckReceivesEvents only.
	Cover string
	// At is the click point that was hit-tested, when there was one.
	At *Point
	// Box is the element's last measured box and ViewportW, ViewportH
	// the viewport's size. Both are in top-level coordinates once the
	// element's frame path was measured (an element in a frame that
	// never got that far reports them in its frame's viewport).
	Box                  Rect
	ViewportW, ViewportH float64
	// Err is the context's error that ended the wait.
	Err error
}

func (e *NotInteractableError) Error() string {
	var b strings.Builder
	b.WriteString(runtime.ErrNotInteractable.Error())
	b.WriteString(": ")
	b.WriteString(e.Detail)
	if e.At != nil {
		fmt.Fprintf(&b, " at (%s,%s)", num(e.At.X), num(e.At.Y))
	}
	fmt.Fprintf(&b, "; box {x:%s y:%s w:%s h:%s}; viewport %sx%s",
		num(e.Box.X), num(e.Box.Y), num(e.Box.W), num(e.Box.H), num(e.ViewportW), num(e.ViewportH))
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

// Unwrap returns [runtime.ErrNotInteractable] and Err.
func (e *NotInteractableError) Unwrap() []error {
	if e.Err == nil {
		return []error{runtime.ErrNotInteractable}
	}
	return []error{runtime.ErrNotInteractable, e.Err}
}

// num formats a coordinate to one decimal at most.
func num(f float64) string {
	return strconv.FormatFloat(math.Round(f*10)/10, 'f', -1, 64)
}

// elemErr maps an element operation's error.
func (d *Driver) elemErr(ctx context.Context, op string, err error) error {
	if c := interruption(ctx); c != nil {
		return fmt.Errorf("browser: %s: %w", op, c)
	}
	for _, s := range []error{runtime.ErrStaleElement, runtime.ErrNotInteractable, runtime.ErrUnsupported, runtime.ErrFillRefused, runtime.ErrFormInvalid} {
		if errors.Is(err, s) {
			return err
		}
	}
	if context.Cause(ctx) == nil && isStaleError(err) {
		if e := d.fail(ctx, op, err); !errors.Is(e, runtime.ErrBrowserCrashed) {
			return fmt.Errorf("%w: %v", runtime.ErrStaleElement, err)
		}
	}
	return d.fail(ctx, op, err)
}

// state reads the element's action state; with hit it also hit-tests
// want (frame coordinates) when want lies in the element's visible part,
// else the centre of that part.
func (d *Driver) state(ctx context.Context, el *element, hit bool, want *Point) (elState, error) {
	return d.stateWith(ctx, el, hit, want, false)
}

// stateWith is state; with framed, the element is measured twice, an
// animation frame apart, in one call (jsActStateFramed: the first box
// is st.Prev).
func (d *Driver) stateWith(ctx context.Context, el *element, hit bool, want *Point, framed bool) (elState, error) {
	var st elState
	px, py := callArg{Value: []byte("null")}, callArg{Value: []byte("null")}
	if want != nil {
		px, py = val(want.X), val(want.Y)
	}
	var err error
	if framed {
		err = d.callAwait(ctx, el.sid, el.obj, jsActStateFramed, &st, val(hit), px, py)
	} else {
		_, err = d.callOn(ctx, el.sid, el.obj, jsActState, true, &st, val(hit), px, py)
	}
	if err != nil {
		return st, err
	}
	if !st.Connected {
		return st, fmt.Errorf("%w: detached from the document", runtime.ErrStaleElement)
	}
	return st, nil
}

// scrollAligns are the scroll alignments an action tries in turn, as
// Playwright does: first DOM.scrollIntoViewIfNeeded (which moves only an
// element not fully in view, centring one that is out of view), then,
// after the click point was found covered (a sticky header, a banner),
// element.scrollIntoView with block and inline "end", "center", "start".
var scrollAligns = [...]string{"", "end", "center", "start"}

// retryWaits is the pause before the n-th retry after a failed hit test
// (the last one repeats).
var retryWaits = [...]time.Duration{0, 20 * time.Millisecond, 100 * time.Millisecond, 100 * time.Millisecond, 500 * time.Millisecond}

// scrollIntoView scrolls el (and every scrolled container and frame
// above it) with the given alignment ("" for scrollIntoViewIfNeeded).
func (d *Driver) scrollIntoView(ctx context.Context, el *element, align string) error {
	if align == "" {
		return d.call(ctx, el.sid, proto.DOMScrollIntoViewIfNeeded{ObjectID: el.obj}, nil)
	}
	_, err := d.callOn(ctx, el.sid, el.obj, jsScrollIntoView, true, nil, val(align))
	return err
}

// seen is what an action knows of its element in top-level coordinates:
// the box, the visible part (l, t, r, b), the hit-tested point, the
// frame offset and the viewport.
type seen struct {
	box        Rect
	l, t, r, b float64
	full       bool
	pt         Point
	ox, oy     float64
	vw, vh     float64
	over       string
}

func (s *seen) empty() bool { return s.r-s.l < 1 || s.b-s.t < 1 }

// local is st in its own frame's coordinates.
func local(st elState) seen {
	return seen{box: Rect{st.X, st.Y, st.W, st.H}, l: st.L, t: st.T, r: st.R, b: st.B, full: st.Full,
		pt: Point{st.PX, st.PY}, vw: st.VW, vh: st.VH, over: st.Over}
}

// inFrames carries s through the iframes of el's frame path, innermost
// first: each adds its content box's origin, cuts the visible part with
// its own clip and viewport and, when nothing covers the point yet,
// hit-tests it in its document. A top-level element costs no round trip.
func (d *Driver) inFrames(ctx context.Context, el *element, s seen) (seen, error) {
	for i := len(el.chain) - 1; i >= 0; i-- {
		l := el.chain[i]
		var fr struct {
			Connected bool    `json:"connected"`
			OX        float64 `json:"ox"`
			OY        float64 `json:"oy"`
			L         float64 `json:"l"`
			T         float64 `json:"t"`
			R         float64 `json:"r"`
			B         float64 `json:"b"`
			Full      bool    `json:"full"`
			VW        float64 `json:"vw"`
			VH        float64 `json:"vh"`
			Over      string  `json:"over"`
		}
		if _, err := d.callOn(ctx, l.sid, l.obj, jsFrameClip, true, &fr,
			val(s.l), val(s.t), val(s.r), val(s.b), val(s.pt.X), val(s.pt.Y), val(s.over == "")); err != nil {
			return s, err
		}
		if !fr.Connected {
			return s, fmt.Errorf("%w: its frame was detached from the document", runtime.ErrStaleElement)
		}
		s.box.X += fr.OX
		s.box.Y += fr.OY
		s.pt.X += fr.OX
		s.pt.Y += fr.OY
		s.ox += fr.OX
		s.oy += fr.OY
		s.l, s.t, s.r, s.b = fr.L, fr.T, fr.R, fr.B
		s.full = s.full && fr.Full
		s.vw, s.vh = fr.VW, fr.VH
		if s.over == "" && fr.Over != "" {
			s.over = fr.Over
		}
	}
	return s, nil
}

// waitReady polls until the element is visible, enabled, ready(st)
// holds and it is stable; with hit it also brings the element into view
// and hit-tests the click point. It returns the last state and, with
// hit, the click point in top-level viewport coordinates: the centre of
// the element's visible part.
//
// Round trips: an element fully in view costs two state reads (the
// stability proof), plus one call per iframe on its frame path. Only an
// element not fully in view (its frame's viewport, a clipping container
// or a frame above it cuts its box) is scrolled, and then measured again.
func (d *Driver) waitReady(ctx context.Context, el *element, hit bool, ready func(elState) string) (elState, Point, error) {
	var (
		prev     *elState
		last     = NotInteractableError{Check: CheckStable, Detail: "not measured yet"}
		attempt  int    // index into scrollAligns
		retries  int    // failed hit tests so far
		scrolled bool   // scrolled with scrollAligns[attempt]
		force    bool   // scroll even an element fully in view
		want     *Point // the frame-local point to hit-test next
	)
	note := func(check, detail string, s seen, at bool) {
		last = NotInteractableError{Check: check, Detail: detail, Box: s.box, ViewportW: s.vw, ViewportH: s.vh}
		if at {
			p := s.pt
			last.At = &p
		}
	}
	timedOut := func(err error) error {
		if c := interruption(ctx); c != nil {
			return c
		}
		if ctx.Err() != nil {
			e := last
			e.Err = ctx.Err()
			return &e
		}
		return err
	}
	for {
		// With no earlier box to compare, one call measures twice, a
		// frame apart (the common case: a stable element is ready after
		// one round trip and at most a frame, not two polls).
		st, err := d.stateWith(ctx, el, hit, want, prev == nil)
		if err != nil {
			return st, Point{}, timedOut(err)
		}
		if prev == nil && st.Prev != nil {
			p := st
			p.X, p.Y, p.W, p.H = st.Prev.X, st.Prev.Y, st.Prev.W, st.Prev.H
			prev = &p
		}
		s := local(st)
		wait := pollInterval
		switch {
		case !st.Visible:
			note(CheckVisible, "not visible", s, false)
			prev, scrolled, want = nil, false, nil
		case !st.Enabled:
			note(CheckEnabled, "disabled", s, false)
			prev = nil
		case ready != nil && ready(st) != "":
			note(CheckEditable, ready(st), s, false)
			prev = nil
		case hit && (force || !st.Full) && !scrolled:
			if err := d.scrollIntoView(ctx, el, scrollAligns[attempt%len(scrollAligns)]); err != nil {
				return st, Point{}, timedOut(err)
			}
			scrolled, force, prev, want = true, false, nil, nil
			continue
		case prev == nil || prev.X != st.X || prev.Y != st.Y || prev.W != st.W || prev.H != st.H:
			// A first measurement proves nothing yet and keeps the
			// last failure (a cover, say) as the reason.
			if prev != nil {
				note(CheckStable, "not stable (the box moved)", s, false)
			}
			cp := st
			prev = &cp
			wait = stableInterval
		case !hit:
			return st, Point{}, nil
		default:
			s, err := d.inFrames(ctx, el, s)
			if err != nil {
				return st, Point{}, timedOut(err)
			}
			cx, cy := (s.l+s.r)/2, (s.t+s.b)/2
			switch {
			case !s.full && !scrolled:
				// A frame above cuts the element: scroll it into view.
				force = true
				continue
			case s.empty():
				note(CheckInViewport, "outside the viewport after scrolling", s, false)
				attempt, scrolled, force, prev = attempt+1, false, true, nil
				wait = retryWaits[min(retries, len(retryWaits)-1)]
				retries++
			case math.Abs(cx-s.pt.X) > 1 || math.Abs(cy-s.pt.Y) > 1:
				// A frame above cut the visible part: hit-test its
				// centre instead (at once the first time; a part that
				// keeps moving waits like any other poll).
				again := want != nil
				want = &Point{cx - s.ox, cy - s.oy}
				if !again {
					continue
				}
			case s.over != "":
				note(CheckReceivesEvents, "covered by "+s.over, s, true)
				last.Cover = s.over
				attempt, scrolled, force, prev, want = attempt+1, false, true, nil, nil
				wait = retryWaits[min(retries, len(retryWaits)-1)]
				retries++
			default:
				return st, s.pt, nil
			}
		}
		if wait == 0 {
			if err := ctx.Err(); err != nil {
				return st, Point{}, timedOut(err)
			}
			continue
		}
		select {
		case <-ctx.Done():
			return st, Point{}, timedOut(ctx.Err())
		case <-time.After(wait):
		}
	}
}

// click waits for el and clicks its centre with the mouse. *sent is set
// before the mouse press goes out.
//
// A press the guard stopped because the layout moved after the
// measurement (errPressMissed, see clickroute.go) had no effect: the
// element is measured and clicked again, at most maxPressRetries times
// and bounded by ctx, and then refused as not interactable.
func (d *Driver) click(ctx context.Context, el *element, ready func(elState) string, sent *bool) (elState, error) {
	for attempt := 0; ; attempt++ {
		st, pt, err := d.waitReady(ctx, el, true, ready)
		if err != nil {
			return st, err
		}
		err = d.dispatchClick(ctx, el, pt.X, pt.Y, sent)
		if !errors.Is(err, errPressMissed) {
			return st, err
		}
		if attempt == maxPressRetries {
			return st, fmt.Errorf("%w: %w, %d times", runtime.ErrNotInteractable, err, attempt+1)
		}
	}
}

// maxPressRetries bounds how often a click stopped by its guard is
// measured and sent again: a layout that keeps moving under the pointer
// is not interactable.
const maxPressRetries = 5

func intp(i int) *int { return &i }

// fill costs three calls when the element is ready, as Playwright's
// fill does: jsFillStart checks it (attached, fillable, visible, enabled,
// editable; no stability and no hit test: the text goes to the focused
// element) and prepares it in one call, then the text goes in and
// jsFinishFill ends the fill and says whether the page kept the old
// value. An element not ready yet is checked again every pollInterval
// until ctx ends. A set-mode fill (a date, a range) is done, and checked,
// by jsFillStart alone.
//
// An element that is not itself fillable but hosts a shadow root that
// delegates focus (a form-associated custom element wrapping an <input>,
// its shadow root open or closed) is filled through its focus delegate:
// once the host is visible and enabled, focusDelegate focuses it and
// the element the browser moved focus to is filled instead.
func (d *Driver) fill(ctx context.Context, el *element, value string) error {
	var r fillStart
	err := d.startWhenReady(ctx, el, jsFillStart, true, &r, val(value))
	// A delegate may itself be a host with a closed shadow root: follow
	// a few levels.
	for level := 0; errors.Is(err, errNotFillable) && level < maxDelegateLevels; level++ {
		var to *element
		if to, err = d.focusDelegate(ctx, el); err != nil {
			return err
		}
		if to == nil {
			return errNotFillable
		}
		el = to
		err = d.startWhenReady(ctx, el, jsFillStart, true, &r, val(value))
	}
	if err != nil {
		return err
	}
	if r.Mode == fillSet {
		return r.refusal()
	}
	if value == "" {
		if err := d.sendKey(ctx, el.sid, keyDef{key: "Delete", code: "Delete", keyCode: 46}, 0); err != nil {
			return err
		}
	} else if err := d.call(ctx, el.sid, proto.InputInsertText{Text: value}, nil); err != nil {
		return err
	}
	var fin fillPrep
	defer func() {
		if fin.Search && !fin.Refused {
			d.searchFilled(el.sid, el.frame)
		}
	}()
	if err := d.callAwait(ctx, el.sid, el.obj, jsFinishFill, &fin, val(r.Mode), val(r.Old), val(r.Want)); err != nil {
		return err
	}
	return fin.refusal()
}

// startWhenReady calls fn, jsFillStart (fill) or jsPressStart, until it
// reports the element ready (and, for a fill, editable: fn acted on it
// then), bounded by ctx; its answer is decoded into r. An element that
// is not ready is checked again every pollInterval; when ctx ends first
// the error is a *NotInteractableError naming the last failed check.
// An exception fn throws (a malformed value) is ErrUnsupported.
func (d *Driver) startWhenReady(ctx context.Context, el *element, fn string, fill bool, r *fillStart, args ...callArg) error {
	last := NotInteractableError{Check: CheckVisible, Detail: "not measured yet"}
	for {
		*r = fillStart{}
		d.actBegan()
		if err := d.callAwait(ctx, el.sid, el.obj, fn, r, args...); err != nil {
			var js *jsError
			if errors.As(err, &js) {
				return fmt.Errorf("%w: %s", runtime.ErrUnsupported, js.msg)
			}
			if c := interruption(ctx); c != nil {
				return c
			}
			if ctx.Err() != nil {
				e := last
				e.Err = ctx.Err()
				return &e
			}
			return err
		}
		switch {
		case !r.Connected:
			return fmt.Errorf("%w: detached from the document", runtime.ErrStaleElement)
		case fill && !r.Fillable && (!r.Host || r.Visible && r.Enabled):
			// A host is asked for its focus delegate only once it can
			// take focus.
			return errNotFillable
		case r.Ready && r.Mode == fillUnfocused:
			last = NotInteractableError{Check: CheckEditable, Detail: "does not take focus (inert)"}
		case r.Ready:
			return nil
		case !r.Visible:
			last = NotInteractableError{Check: CheckVisible, Detail: "not visible"}
		case !r.Enabled:
			last = NotInteractableError{Check: CheckEnabled, Detail: "disabled"}
		default:
			last = NotInteractableError{Check: CheckEditable, Detail: "read-only"}
		}
		s := local(r.elState)
		last.Box, last.ViewportW, last.ViewportH = s.box, s.vw, s.vh
		select {
		case <-ctx.Done():
			if c := interruption(ctx); c != nil {
				return c
			}
			last.Err = ctx.Err()
			return &last
		case <-time.After(pollInterval):
		}
	}
}

// maxDelegateLevels bounds how many nested shadow hosts a fill follows
// to their focus delegates.
const maxDelegateLevels = 4

// errNotFillable is a fill of an element that is neither a text field
// nor contenteditable, nor delegates focus to one.
var errNotFillable = fmt.Errorf("%w: fill needs an <input>, <textarea> or contenteditable element", runtime.ErrUnsupported)

// focusDelegate returns the element a fill of host el goes to: when el
// hosts a shadow root (open or closed: DOM.describeNode pierces), el is
// focused (jsFocusDelegate, run on that root) and the element focus went
// to inside it, the deepest open level followed, is returned. It returns
// nil when el hosts no shadow root or focus stayed outside its shadow
// tree (a host that does not delegate focus).
func (d *Driver) focusDelegate(ctx context.Context, el *element) (*element, error) {
	var desc proto.DOMDescribeNodeResult
	if err := d.call(ctx, el.sid, proto.DOMDescribeNode{ObjectID: el.obj, Pierce: true}, &desc); err != nil {
		return nil, err
	}
	if desc.Node == nil || len(desc.Node.ShadowRoots) == 0 {
		return nil, nil
	}
	var rn proto.DOMResolveNodeResult
	if err := d.call(ctx, el.sid, proto.DOMResolveNode{BackendNodeID: desc.Node.ShadowRoots[0].BackendNodeID, ObjectGroup: objectGroup}, &rn); err != nil {
		return nil, err
	}
	if rn.Object == nil || rn.Object.ObjectID == "" {
		return nil, nil
	}
	r, err := d.callOn(ctx, el.sid, rn.Object.ObjectID, jsFocusDelegate, false, nil)
	if err != nil {
		return nil, err
	}
	if r.Subtype != "node" || r.ObjectID == "" {
		return nil, nil
	}
	return &element{d: d, sid: el.sid, frame: el.frame, obj: r.ObjectID, chain: el.chain}, nil
}

// fillStart is jsFillStart's answer: the element's state and, when it
// was ready, how the fill was prepared.
type fillStart struct {
	elState
	Ready bool `json:"ready"`
	fillPrep
}

// fillPrep is jsPrepareFill's answer: how the fill goes on (fillSet, done
// already, or "typed", "primed" and "editable", which jsFinishFill
// ends), the value before (old) and the value a fill that went through
// leaves (want); and jsFinishFill's: whether the page refused the fill
// (it holds the value before, which differs from the one asked for).
type fillPrep struct {
	Mode    string `json:"mode"`
	Old     string `json:"old"`
	Want    string `json:"want"`
	Refused bool   `json:"refused"`
	// Search (jsFinishFill): the page may search from the field as the
	// user types (a combobox, an autocomplete list, a datalist, or a
	// search field whose form has no submit button).
	Search bool `json:"search"`
}

// refusal is the error of a fill the page refused, else nil. It names
// neither value: a fill may carry a secret.
func (p fillPrep) refusal() error {
	if !p.Refused {
		return nil
	}
	return fmt.Errorf("%w: the field kept the value it had before, not the one filled", runtime.ErrFillRefused)
}

// fillUnfocused is jsPrepareFill's answer for a text field that did not
// take the focus (inert): not ready, nothing typed.
const fillUnfocused = "unfocused"

// fillSet is jsPrepareFill's mode of a fill done by setting the value
// (nothing is typed).
const fillSet = "set"

func (d *Driver) selectOption(ctx context.Context, el *element, value string) error {
	st, err := d.state(ctx, el, false, nil)
	if err != nil {
		return err
	}
	if !st.Select {
		return fmt.Errorf("%w: select needs a <select> element", runtime.ErrUnsupported)
	}
	for {
		if _, _, err := d.waitReady(ctx, el, false, nil); err != nil {
			return err
		}
		var r int
		d.actBegan()
		if _, err := d.callOn(ctx, el.sid, el.obj, jsSelect, true, &r, val(value)); err != nil {
			return err
		}
		switch r {
		case 1:
			return nil
		case -1:
			return fmt.Errorf("%w: select needs a <select> element", runtime.ErrUnsupported)
		}
		select {
		case <-ctx.Done():
			if c := interruption(ctx); c != nil {
				return c
			}
			why := "no option with that value or label"
			if r == -2 {
				why = "the option is disabled"
			}
			return fmt.Errorf("%w: %s: %w", runtime.ErrNotInteractable, why, ctx.Err())
		case <-time.After(pollInterval):
		}
	}
}

func (d *Driver) press(ctx context.Context, el *element, key string, sent *bool) error {
	k, mods, err := parseKey(key)
	if err != nil {
		return err
	}
	// As a fill, a key goes to the focused element: it needs the element
	// visible and enabled, not stable, and one call checks and focuses it.
	var r fillStart
	if err := d.startWhenReady(ctx, el, jsPressStart, false, &r); err != nil {
		return err
	}
	// Enter in a form's field may submit it: watch the form's
	// validation (formwatch.go).
	var watch proto.RuntimeRemoteObjectID
	if k.key == "Enter" {
		r, err := d.callOn(ctx, el.sid, el.obj, jsArmSubmitWatch, false, nil)
		if err != nil {
			return err
		}
		watch = r.ObjectID
	}
	*sent = true
	if err := d.sendKey(ctx, el.sid, k, mods); err != nil {
		return err
	}
	if watch != "" {
		return d.readSubmitWatch(ctx, el.sid, watch, `function(){ return this.result() }`)
	}
	return nil
}

// sendKey sends keyDown (with text for printable keys) and keyUp to the
// focused element of session sid's frame.
func (d *Driver) sendKey(ctx context.Context, sid proto.TargetSessionID, k keyDef, mods int) error {
	down := proto.InputDispatchKeyEvent{
		Type:                  proto.InputDispatchKeyEventTypeKeyDown,
		Modifiers:             mods,
		Key:                   k.key,
		Code:                  k.code,
		WindowsVirtualKeyCode: k.keyCode,
		NativeVirtualKeyCode:  k.keyCode,
	}
	if k.text != "" && mods&^modShift == 0 {
		down.Text, down.UnmodifiedText = k.text, k.text
	} else {
		down.Type = proto.InputDispatchKeyEventTypeRawKeyDown
	}
	if err := d.call(ctx, sid, down, nil); err != nil {
		return err
	}
	up := down
	up.Type = proto.InputDispatchKeyEventTypeKeyUp
	up.Text, up.UnmodifiedText = "", ""
	return d.call(ctx, sid, up, nil)
}

func (d *Driver) check(ctx context.Context, el *element, want bool, sent *bool) error {
	st, err := d.state(ctx, el, false, nil)
	if err != nil {
		return err
	}
	if !st.Checkable {
		return fmt.Errorf("%w: check needs a checkbox, radio or switch", runtime.ErrUnsupported)
	}
	if st.Checked == want {
		return nil
	}
	if !want && st.Radio {
		return fmt.Errorf("%w: a radio button cannot be unchecked", runtime.ErrUnsupported)
	}
	if _, err := d.click(ctx, el, nil, sent); err != nil {
		return err
	}
	for i := 0; ; i++ {
		st, err := d.state(ctx, el, false, nil)
		if err != nil {
			return err
		}
		if st.Checked == want {
			return nil
		}
		if i >= 20 {
			return fmt.Errorf("%w: clicking did not change the checked state", runtime.ErrNotInteractable)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%w: clicking did not change the checked state: %w", runtime.ErrNotInteractable, ctx.Err())
		case <-time.After(pollInterval):
		}
	}
}

// Read reads the element's rendered text (whitespace collapsed), its form
// value, or an attribute ("" when absent) at once, without waiting.
func (d *Driver) Read(ctx context.Context, e runtime.Element, r runtime.Read) (string, error) {
	cctx, done, err := d.begin(ctx)
	if err != nil {
		return "", err
	}
	defer done()
	el, err := d.asElement(e)
	if err != nil {
		return "", err
	}
	switch r.Kind {
	case runtime.ReadText, runtime.ReadValue, runtime.ReadAttribute:
	default:
		return "", fmt.Errorf("%w: read %q", runtime.ErrUnsupported, r.Kind)
	}
	var out struct {
		V     string `json:"v"`
		Stale bool   `json:"stale"`
		None  bool   `json:"none"`
	}
	if _, err := d.callOn(cctx, el.sid, el.obj, jsRead, true, &out, val(string(r.Kind)), val(r.Name)); err != nil {
		return "", d.elemErr(cctx, "read", err)
	}
	switch {
	case out.Stale:
		return "", fmt.Errorf("%w: detached from the document", runtime.ErrStaleElement)
	case out.None:
		return "", fmt.Errorf("%w: element has no form value", runtime.ErrUnsupported)
	}
	return out.V, nil
}

// Visible reports whether the element is attached, rendered and visible
// (a non-empty box and visibility:visible). A detached element, or one
// whose document was replaced, is not visible.
func (d *Driver) Visible(ctx context.Context, e runtime.Element) (bool, error) {
	cctx, done, err := d.begin(ctx)
	if err != nil {
		return false, err
	}
	defer done()
	el, err := d.asElement(e)
	if err != nil {
		if errors.Is(err, runtime.ErrStaleElement) {
			return false, nil
		}
		return false, err
	}
	var v bool
	if _, err := d.callOn(cctx, el.sid, el.obj, jsVisible, true, &v); err != nil {
		err = d.elemErr(cctx, "visible", err)
		if errors.Is(err, runtime.ErrStaleElement) {
			return false, nil
		}
		return false, err
	}
	return v, nil
}

// Key handling.

const (
	modAlt   = 1
	modCtrl  = 2
	modMeta  = 4
	modShift = 8
)

type keyDef struct {
	key, code, text string
	keyCode         int
}

var namedKeys = map[string]keyDef{
	"Enter":      {key: "Enter", code: "Enter", text: "\r", keyCode: 13},
	"Tab":        {key: "Tab", code: "Tab", keyCode: 9},
	"Escape":     {key: "Escape", code: "Escape", keyCode: 27},
	"Backspace":  {key: "Backspace", code: "Backspace", keyCode: 8},
	"Delete":     {key: "Delete", code: "Delete", keyCode: 46},
	"Space":      {key: " ", code: "Space", text: " ", keyCode: 32},
	"ArrowUp":    {key: "ArrowUp", code: "ArrowUp", keyCode: 38},
	"ArrowDown":  {key: "ArrowDown", code: "ArrowDown", keyCode: 40},
	"ArrowLeft":  {key: "ArrowLeft", code: "ArrowLeft", keyCode: 37},
	"ArrowRight": {key: "ArrowRight", code: "ArrowRight", keyCode: 39},
	"Home":       {key: "Home", code: "Home", keyCode: 36},
	"End":        {key: "End", code: "End", keyCode: 35},
	"PageUp":     {key: "PageUp", code: "PageUp", keyCode: 33},
	"PageDown":   {key: "PageDown", code: "PageDown", keyCode: 34},
	"Insert":     {key: "Insert", code: "Insert", keyCode: 45},
}

// parseKey parses "Enter", "a", "Control+a", "Shift+Tab".
func parseKey(s string) (keyDef, int, error) {
	if s == "" {
		return keyDef{}, 0, fmt.Errorf("%w: empty key", runtime.ErrUnsupported)
	}
	parts := []string{s}
	if len(s) > 1 && strings.Contains(s[:len(s)-1], "+") {
		i := strings.LastIndex(s[:len(s)-1], "+")
		parts = append(strings.Split(s[:i], "+"), s[i+1:])
	}
	mods := 0
	for _, m := range parts[:len(parts)-1] {
		switch m {
		case "Alt":
			mods |= modAlt
		case "Control", "Ctrl":
			mods |= modCtrl
		case "Meta", "Command":
			mods |= modMeta
		case "Shift":
			mods |= modShift
		default:
			return keyDef{}, 0, fmt.Errorf("%w: unknown modifier %q", runtime.ErrUnsupported, m)
		}
	}
	name := parts[len(parts)-1]
	if k, ok := namedKeys[name]; ok {
		return k, mods, nil
	}
	if len(name) >= 2 && name[0] == 'F' {
		var n int
		if _, err := fmt.Sscanf(name, "F%d", &n); err == nil && n >= 1 && n <= 12 && fmt.Sprintf("F%d", n) == name {
			return keyDef{key: name, code: name, keyCode: 111 + n}, mods, nil
		}
	}
	if utf8.RuneCountInString(name) != 1 {
		return keyDef{}, 0, fmt.Errorf("%w: unknown key %q", runtime.ErrUnsupported, name)
	}
	r, _ := utf8.DecodeRuneInString(name)
	k := keyDef{key: name, text: name}
	switch {
	case r >= 'a' && r <= 'z':
		k.code, k.keyCode = "Key"+strings.ToUpper(name), int(r-'a'+'A')
	case r >= 'A' && r <= 'Z':
		k.code, k.keyCode = "Key"+name, int(r)
		mods |= modShift
	case r >= '0' && r <= '9':
		k.code, k.keyCode = "Digit"+name, int(r)
	}
	return k, mods, nil
}
