package browser

import (
	"context"
	"errors"
	"fmt"
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
	Connected bool    `json:"connected"`
	Visible   bool    `json:"visible"`
	Enabled   bool    `json:"enabled"`
	Fillable  bool    `json:"fillable"`
	Editable  bool    `json:"editable"`
	Checkable bool    `json:"checkable"`
	Checked   bool    `json:"checked"`
	Radio     bool    `json:"radio"`
	Select    bool    `json:"select"`
	X         float64 `json:"x"`
	Y         float64 `json:"y"`
	W         float64 `json:"w"`
	H         float64 `json:"h"`
	InView    bool    `json:"inView"`
	Over      string  `json:"over"`
}

// Act performs one action after waiting, bounded by ctx, for the element
// to be attached, visible, stable (same box on two polls) and enabled,
// and for a click to hit the element rather than something covering it.
// An error after the input went out (the mouse press, the key down) is a
// *[runtime.DispatchError]: the page may have acted on it.
// Click, check and uncheck use real mouse events at the element's centre;
// fill selects the content and inserts the text (firing input and
// change); select picks an option by value, then by label; press focuses
// the element and sends the key ("Enter", "Tab", "a", "Control+a").
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

// elemErr maps an element operation's error.
func (d *Driver) elemErr(ctx context.Context, op string, err error) error {
	if c := interruption(ctx); c != nil {
		return fmt.Errorf("browser: %s: %w", op, c)
	}
	for _, s := range []error{runtime.ErrStaleElement, runtime.ErrNotInteractable, runtime.ErrUnsupported} {
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

// state reads the element's action state (and, with hit, what covers its
// centre).
func (d *Driver) state(ctx context.Context, el *element, hit bool) (elState, error) {
	var st elState
	if _, err := d.callOn(ctx, el.sid, el.obj, jsState, true, &st, val(hit)); err != nil {
		return st, err
	}
	if !st.Connected {
		return st, fmt.Errorf("%w: detached from the document", runtime.ErrStaleElement)
	}
	return st, nil
}

// waitReady polls until ready(st) holds, the element is visible, enabled
// and stable; when hit is set it also scrolls it into view and checks the
// hit test. It returns the last state and, with hit, the click point in
// top-level viewport coordinates.
func (d *Driver) waitReady(ctx context.Context, el *element, hit bool, ready func(elState) string) (elState, [2]float64, error) {
	var prev *elState
	reason := "not checked yet"
	timedOut := func(err error) error {
		if c := interruption(ctx); c != nil {
			return c
		}
		if ctx.Err() != nil {
			return fmt.Errorf("%w: %s: %w", runtime.ErrNotInteractable, reason, ctx.Err())
		}
		return err
	}
	for {
		st, err := d.state(ctx, el, hit)
		if err != nil {
			return st, [2]float64{}, timedOut(err)
		}
		switch {
		case !st.Visible:
			reason, prev = "not visible", nil
		case !st.Enabled:
			reason, prev = "disabled", nil
		case ready != nil && ready(st) != "":
			reason, prev = ready(st), nil
		case hit && !st.InView:
			reason, prev = "outside the viewport", nil
			if err := d.call(ctx, el.sid, proto.DOMScrollIntoViewIfNeeded{ObjectID: el.obj}, nil); err != nil {
				return st, [2]float64{}, timedOut(err)
			}
			continue
		case prev == nil || prev.X != st.X || prev.Y != st.Y || prev.W != st.W || prev.H != st.H:
			reason = "not stable"
			cp := st
			prev = &cp
		case !hit:
			return st, [2]float64{}, nil
		case st.Over != "":
			reason, prev = "covered by "+st.Over, nil
		default:
			cx, cy := st.X+st.W/2, st.Y+st.H/2
			ox, oy, err := d.frameOffset(ctx, el)
			if err != nil {
				return st, [2]float64{}, timedOut(err)
			}
			return st, [2]float64{cx + ox, cy + oy}, nil
		}
		wait := pollInterval
		if reason == "not stable" {
			wait = stableInterval
		}
		select {
		case <-ctx.Done():
			return st, [2]float64{}, timedOut(ctx.Err())
		case <-time.After(wait):
		}
	}
}

// frameOffset sums the content-box origins of the iframes on the
// element's frame path, turning frame viewport coordinates into top-level
// ones.
func (d *Driver) frameOffset(ctx context.Context, el *element) (float64, float64, error) {
	var x, y float64
	for _, l := range el.chain {
		var off [2]float64
		if _, err := d.callOn(ctx, l.sid, l.obj, jsFrameOffset, true, &off); err != nil {
			return 0, 0, err
		}
		x += off[0]
		y += off[1]
	}
	return x, y, nil
}

// click waits for el and clicks its centre with the mouse. *sent is set
// before the mouse press goes out.
func (d *Driver) click(ctx context.Context, el *element, ready func(elState) string, sent *bool) (elState, error) {
	st, pt, err := d.waitReady(ctx, el, true, ready)
	if err != nil {
		return st, err
	}
	return st, d.dispatchClick(ctx, el, pt[0], pt[1], sent)
}

func intp(i int) *int { return &i }

func (d *Driver) fill(ctx context.Context, el *element, value string) error {
	st, err := d.state(ctx, el, false)
	if err != nil {
		return err
	}
	if !st.Fillable {
		return fmt.Errorf("%w: fill needs an <input>, <textarea> or contenteditable element", runtime.ErrUnsupported)
	}
	if _, _, err := d.waitReady(ctx, el, false, func(s elState) string {
		if !s.Editable {
			return "read-only"
		}
		return ""
	}); err != nil {
		return err
	}
	var mode string
	if _, err := d.callOn(ctx, el.sid, el.obj, jsPrepareFill, true, &mode, val(value)); err != nil {
		var js *jsError
		if errors.As(err, &js) {
			return fmt.Errorf("%w: %s", runtime.ErrUnsupported, js.msg)
		}
		return err
	}
	if mode == "set" {
		return nil
	}
	if value == "" {
		if err := d.sendKey(ctx, el.sid, keyDef{key: "Delete", code: "Delete", keyCode: 46}, 0); err != nil {
			return err
		}
	} else if err := d.call(ctx, el.sid, proto.InputInsertText{Text: value}, nil); err != nil {
		return err
	}
	_, err = d.callOn(ctx, el.sid, el.obj, jsChange, true, nil)
	return err
}

func (d *Driver) selectOption(ctx context.Context, el *element, value string) error {
	st, err := d.state(ctx, el, false)
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
	if _, _, err := d.waitReady(ctx, el, false, nil); err != nil {
		return err
	}
	if _, err := d.callOn(ctx, el.sid, el.obj, jsFocus, true, nil); err != nil {
		return err
	}
	*sent = true
	return d.sendKey(ctx, el.sid, k, mods)
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
	st, err := d.state(ctx, el, false)
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
		st, err := d.state(ctx, el, false)
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
