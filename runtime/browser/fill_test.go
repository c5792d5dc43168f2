package browser

import (
	"context"
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
)

// fieldCounts is the fields page's event count of one field: "input",
// "change", "blur", "focusout", each with "!" for the untrusted ones.
type fieldCounts map[string]int

// fieldsPage opens the fields page of internal/testsite and returns
// helpers to act on it by label and read its event counts.
type fieldsPage struct {
	t   *testing.T
	ctx context.Context
	d   *Driver
	top runtime.Scope
}

func openFields(t *testing.T) *fieldsPage {
	d := shared(t)
	s := sites(t)
	ctx := tctx(t, 90*time.Second)
	if err := d.Navigate(ctx, s.Stress.URL()+"/fields"); err != nil {
		t.Fatal(err)
	}
	top, _, err := d.Frame(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	return &fieldsPage{t: t, ctx: ctx, d: d, top: top}
}

func (p *fieldsPage) el(c locator.Candidate) runtime.Element {
	p.t.Helper()
	return findOne(p.t, p.ctx, p.d, p.top, c)
}

func (p *fieldsPage) label(name string) runtime.Element {
	p.t.Helper()
	return p.el(locator.Candidate{Strategy: locator.Label, Label: name, Exact: true})
}

func (p *fieldsPage) act(e runtime.Element, kind runtime.ActKind, v string) error {
	return p.d.Act(p.ctx, e, runtime.Act{Kind: kind, Value: v})
}

func (p *fieldsPage) fill(label, v string) {
	p.t.Helper()
	if err := p.act(p.label(label), runtime.ActFill, v); err != nil {
		p.t.Fatalf("fill %s: %v", label, err)
	}
}

func (p *fieldsPage) events() map[string]fieldCounts {
	p.t.Helper()
	var out map[string]fieldCounts
	obsEval(p.t, p.ctx, p.d, "JSON.parse(fieldEvents())", &out)
	return out
}

func (p *fieldsPage) eval(expr string) string {
	p.t.Helper()
	var s string
	obsEval(p.t, p.ctx, p.d, expr, &s)
	return s
}

func (p *fieldsPage) clickDone() {
	p.t.Helper()
	if err := p.act(p.el(role("button", "Done")), runtime.ActClick, ""); err != nil {
		p.t.Fatal(err)
	}
}

// waitText polls the text of the element with the given id until it is
// want, bounded by the test's context.
func (p *fieldsPage) waitText(id, want string) {
	p.t.Helper()
	var got string
	for {
		got = p.eval(`document.getElementById('` + id + `').textContent`)
		if got == want {
			return
		}
		select {
		case <-p.ctx.Done():
			p.t.Fatalf("#%s text = %q, want %q", id, got, want)
		case <-time.After(pollInterval):
		}
	}
}

// TestFillEventsOnce: a fill fires the page's events once, as a user's
// typing and leaving the field does: one input (trusted when typed) and
// one change right after the value went in, and no second change when
// the field later loses focus (a click elsewhere) or takes Enter. Every
// kind of fillable control, across the page (the Done button is below
// the fold).
func TestFillEventsOnce(t *testing.T) {
	p := openFields(t)
	p.fill("Full name", "Bruno Conti")
	// The change handler ran before the fill returned: a read right after
	// sees its work, and the autosave's answer arrives (one round trip).
	if got := p.eval(`document.getElementById('saved').textContent`); got == "Not saved" {
		t.Errorf("after the fill, the change handler had not run (status %q)", got)
	}
	p.waitText("saved", "Autosaved Bruno Conti (1 saves)")
	p.fill("Email", "bruno@example.com")
	p.fill("Password", "s3cret")
	p.fill("Nickname", "Bee")
	p.waitText("hello", "Hello, Bee")
	p.fill("Search", "milano")
	if err := p.act(p.label("Search"), runtime.ActPress, "Enter"); err != nil {
		t.Fatal(err)
	}
	p.waitText("results", "Results for milano")
	p.fill("Notes", "new notes\nline two")
	bio := p.el(role("textbox", "Bio"))
	if err := p.act(bio, runtime.ActFill, "new bio"); err != nil {
		t.Fatal(err)
	}
	for _, f := range [][2]string{{"Birth date", "2001-02-03"}, {"Alarm", "18:45"}, {"Guests", "7"}, {"Volume", "75"}, {"Colour", "#ff8800"}} {
		p.fill(f[0], f[1])
	}
	if err := p.act(p.label("Country"), runtime.ActSelect, "France"); err != nil {
		t.Fatal(err)
	}
	p.clickDone()
	p.waitText("done", "Done 1")

	values := map[string]string{"name": "Bruno Conti", "email": "bruno@example.com", "pw": "s3cret", "nick": "Bee", "q": "milano", "notes": "new notes\nline two",
		"born": "2001-02-03", "alarm": "18:45", "guests": "7", "volume": "75", "colour": "#ff8800", "country": "fr"}
	for id, want := range values {
		if got := p.eval(`document.getElementById('` + id + `').value`); got != want {
			t.Errorf("#%s value = %q, want %q", id, got, want)
		}
	}
	// The type switch that clears Chromium's record of the value left each
	// type attribute as it was (absent, upper case).
	if got := p.eval(`['name', 'email', 'pw', 'q', 'guests'].map(id => document.getElementById(id).getAttribute('type')).join(',')`); got != ",EMAIL,password,search,number" {
		t.Errorf("type attributes after the fills = %q", got)
	}
	if got := p.eval(`document.getElementById('bio').textContent`); got != "new bio" {
		t.Errorf("#bio text = %q, want %q", got, "new bio")
	}
	typed := fieldCounts{"input": 1, "change!": 1, "blur": 1, "focusout": 1}
	set := fieldCounts{"input!": 1, "change!": 1, "blur": 1, "focusout": 1}
	want := map[string]fieldCounts{
		"name": typed, "email": typed, "pw": typed, "nick": typed, "q": typed, "guests": typed,
		// The line break is typed as its own edit (insertText,
		// insertLineBreak, insertText), as a user's Enter.
		"notes": {"input": 3, "change!": 1, "blur": 1, "focusout": 1},
		// A contenteditable element has no change event in browsers.
		"bio":  {"input": 1, "blur": 1, "focusout": 1},
		"born": set, "alarm": set, "volume": set, "colour": set,
		// select does not take the focus.
		"country":  {"input!": 1, "change!": 1},
		"locked":   {},
		"postcode": {},
	}
	for _, id := range []string{"ref", "coupon", "pin", "member", "arrival", "motto", "phone", "plate", "amount", "city", "initials", "slogan", "branch"} {
		want[id] = fieldCounts{}
	}
	if got := p.events(); !reflect.DeepEqual(got, want) {
		t.Errorf("events per field:\n got  %v\n want %v", got, want)
	}
	if got := p.eval(`document.getElementById('saved').textContent`); got != "Autosaved Bruno Conti (1 saves)" {
		t.Errorf("autosave status after the blur = %q: the page saved again", got)
	}
}

// TestFillAgain: a field filled twice without leaving it gets one change
// per fill and none on the blur; a key typed into it after the fill is a
// new edit, and the blur then fires the browser's own change for it.
func TestFillAgain(t *testing.T) {
	p := openFields(t)
	p.fill("Full name", "Bruno")
	p.fill("Full name", "Bruno Conti")
	p.fill("Notes", "first")
	p.fill("Notes", "second")
	p.clickDone()
	p.waitText("done", "Done 1")
	got := p.events()
	if c := got["name"]; c["change!"] != 2 || c["change"] != 0 || c["input"] != 2 {
		t.Errorf("name filled twice: %v, want 2 inputs and 2 changes, none from the blur", c)
	}
	if c := got["notes"]; c["change!"] != 2 || c["change"] != 0 || c["input"] != 2 {
		t.Errorf("notes filled twice: %v, want 2 inputs and 2 changes, none from the blur", c)
	}
	p.waitText("saved", "Autosaved Bruno Conti (2 saves)")

	p.fill("Nickname", "Bee")
	if err := p.act(p.label("Nickname"), runtime.ActPress, "s"); err != nil {
		t.Fatal(err)
	}
	p.clickDone()
	p.waitText("done", "Done 2")
	if c := p.events()["nick"]; c["change!"] != 1 || c["change"] != 1 {
		t.Errorf("nick filled, then a key typed: %v, want the fill's change and the blur's own for the key", c)
	}
	p.waitText("hello", "Hello, Bees")
}

// TestFillRefusedChangesNothing: a value the control would refuse or
// alter (a malformed date or time, a number that is not one, a range
// value out of its bounds, a colour not in #rrggbb form) is refused as
// unsupported before the field is touched: its old value stays, it has
// seen no event and did not take the focus.
func TestFillRefusedChangesNothing(t *testing.T) {
	p := openFields(t)
	before := p.events()
	for _, tc := range []struct{ label, id, value, old string }{
		{"Birth date", "born", "2001-13-45", "1990-05-17"},
		{"Birth date", "born", "17/05/1990", "1990-05-17"},
		{"Alarm", "alarm", "25:00", "07:30"},
		{"Guests", "guests", "seven", "2"},
		{"Guests", "guests", "7 ", "2"},
		{"Volume", "volume", "150", "50"},
		{"Volume", "volume", "52", "50"},
		{"Colour", "colour", "red", "#336699"},
		{"Colour", "colour", "#FF8800", "#336699"},
	} {
		err := p.act(p.label(tc.label), runtime.ActFill, tc.value)
		if !errors.Is(err, runtime.ErrUnsupported) || !strings.Contains(err.Error(), "malformed value") {
			t.Errorf("fill %s with %q = %v, want ErrUnsupported (malformed value)", tc.label, tc.value, err)
		}
		if got := p.eval(`document.getElementById('` + tc.id + `').value`); got != tc.old {
			t.Errorf("after the refused fill of %s with %q, value = %q, want the old %q", tc.label, tc.value, got, tc.old)
		}
	}
	if got := p.eval(`document.activeElement.localName`); got != "body" {
		t.Errorf("after the refused fills the focus is on <%s>, want <body>", got)
	}
	if got := p.events(); !reflect.DeepEqual(got, before) {
		t.Errorf("refused fills fired events: %v (before %v)", got, before)
	}
}

// TestFillCancelled: a textarea whose page cancels the insertion keeps
// its value (the value set before the insertion is taken back), sees no
// input and no change event, and the fill is refused: nothing changed.
func TestFillCancelled(t *testing.T) {
	p := openFields(t)
	err := p.act(p.label("Locked note"), runtime.ActFill, "replaced")
	if !errors.Is(err, runtime.ErrFillRefused) {
		t.Errorf("fill of the locked note = %v, want ErrFillRefused", err)
	}
	if got := p.eval(`document.getElementById('locked').value`); got != "kept" {
		t.Errorf("locked note = %q, want %q", got, "kept")
	}
	if c := p.events()["locked"]; len(c) != 0 {
		t.Errorf("locked note saw events: %v", c)
	}
}

// TestFillRefused: a fill after which the field holds the value it had
// before, though the value filled differs from it, is refused with
// ErrFillRefused (not a dispatch, not a stale or uninteractable element),
// whichever way the page kept the value: an input handler that puts it
// back at once or from a 0 ms timer, a maxlength of 0, a cancelled
// beforeinput (an input and a contenteditable element), a date whose
// change handler puts the old day back from a 0 ms timer, a textarea
// whose maxlength cuts the text back to the value it had. A typed field
// the page refused gets no change event; the error names neither value.
func TestFillRefused(t *testing.T) {
	p := openFields(t)
	for _, tc := range []struct {
		label, id, value, old string
		typed                 bool // typed: no change event follows
	}{
		{"Reference", "ref", "REF-2", "REF-1", true},
		{"Coupon", "coupon", "SPRING25", "WELCOME", true},
		{"PIN", "pin", "4711", "", true},
		{"Member number", "member", "M-200", "M-100", true},
		{"Arrival", "arrival", "2026-01-11", "2026-01-10", false},
		{"Slogan", "slogan", "keepsake", "keep", true},
	} {
		err := p.act(p.label(tc.label), runtime.ActFill, tc.value)
		if !errors.Is(err, runtime.ErrFillRefused) || errors.Is(err, runtime.ErrAfterDispatch) ||
			errors.Is(err, runtime.ErrNotInteractable) || errors.Is(err, runtime.ErrStaleElement) {
			t.Errorf("fill %s with %q = %v, want ErrFillRefused only", tc.label, tc.value, err)
		} else if strings.Contains(err.Error(), tc.value) || (tc.old != "" && strings.Contains(err.Error(), tc.old)) {
			t.Errorf("fill %s: the error names a value: %v", tc.label, err)
		}
		if got := p.eval(`document.getElementById('` + tc.id + `').value`); got != tc.old {
			t.Errorf("after the refused fill of %s, value = %q, want the old %q", tc.label, got, tc.old)
		}
		if c := p.events()[tc.id]; tc.typed && c["change"]+c["change!"] != 0 {
			t.Errorf("refused fill of %s fired a change: %v", tc.label, c)
		}
	}
	motto := p.el(role("textbox", "Motto"))
	if err := p.act(motto, runtime.ActFill, "veni vidi vici"); !errors.Is(err, runtime.ErrFillRefused) {
		t.Errorf("fill of the cancelling contenteditable = %v, want ErrFillRefused", err)
	}
	if got := p.eval(`document.getElementById('motto').textContent`); got != "carpe diem" {
		t.Errorf("motto = %q, want the old %q", got, "carpe diem")
	}
	// A fill of the value a field already holds changes nothing and is
	// not refused: nothing was refused.
	for _, f := range [][2]string{{"Reference", "REF-1"}, {"Member number", "M-100"}, {"PIN", ""}} {
		if err := p.act(p.label(f[0]), runtime.ActFill, f[1]); err != nil {
			t.Errorf("fill %s with the value it holds: %v", f[0], err)
		}
	}
}

// TestFillReformatted: a page that reformats the value typed (a phone
// mask, upper case, thousands separators, trimming, a maxlength cut)
// changed it: the fill is not refused, fires one change and leaves the
// page's form of the value, even when that form is the value the field
// held before (the plate typed in lower case, the same phone number
// typed without its mask).
func TestFillReformatted(t *testing.T) {
	p := openFields(t)
	for _, tc := range []struct{ label, id, value, want string }{
		{"Phone", "phone", "0212345678", "(021) 234-5678"},
		{"Phone", "phone", "021 234 5678", "(021) 234-5678"},
		{"Plate", "plate", "ab123cd", "AB123CD"},
		{"Plate", "plate", "xy987zw", "XY987ZW"},
		{"Amount", "amount", "1234567", "1,234,567"},
		{"City", "city", "  Roma  ", "Roma"},
		{"Initials", "initials", "ABCDE", "ABC"},
	} {
		before := p.events()[tc.id]["change!"]
		if err := p.act(p.label(tc.label), runtime.ActFill, tc.value); err != nil {
			t.Errorf("fill %s with %q: %v", tc.label, tc.value, err)
			continue
		}
		if got := p.eval(`document.getElementById('` + tc.id + `').value`); got != tc.want {
			t.Errorf("%s filled with %q holds %q, want %q", tc.label, tc.value, got, tc.want)
		}
		if c := p.events()[tc.id]; c["change!"] != before+1 || c["change"] != 0 {
			t.Errorf("%s filled with %q: events %v, want one more change (had %d)", tc.label, tc.value, c, before)
		}
	}
}

// TestFillPressNotReady: a fill or a key press on a disabled field waits
// for it to be enabled and, when ctx ends first, is refused as not
// interactable, naming the enabled check and the field's box; the field
// keeps its value and the focus stays where it was.
func TestFillPressNotReady(t *testing.T) {
	p := openFields(t)
	branch := p.label("Branch")
	for _, a := range []runtime.Act{{Kind: runtime.ActFill, Value: "Roma"}, {Kind: runtime.ActPress, Value: "a"}} {
		ctx, cancel := context.WithTimeout(p.ctx, 300*time.Millisecond)
		err := p.d.Act(ctx, branch, a)
		cancel()
		var ni *NotInteractableError
		if !errors.As(err, &ni) || !errors.Is(err, runtime.ErrNotInteractable) || !errors.Is(err, context.DeadlineExceeded) || errors.Is(err, runtime.ErrAfterDispatch) {
			t.Fatalf("%s on a disabled field = %v, want a *NotInteractableError ending in the deadline", a.Kind, err)
		}
		if ni.Check != CheckEnabled || ni.Box.W <= 0 || ni.Box.H <= 0 || ni.ViewportW <= 0 {
			t.Errorf("%s on a disabled field: check %q, box %+v, viewport %vx%v", a.Kind, ni.Check, ni.Box, ni.ViewportW, ni.ViewportH)
		}
	}
	if got := p.eval(`document.getElementById('branch').value + ' ' + document.activeElement.localName`); got != "Milano body" {
		t.Errorf("branch value and focus = %q, want %q", got, "Milano body")
	}
}

// TestFillHiddenPage: in a hidden document (timers there run at most
// once a second) the wait for the page's reaction is a message task, not
// a timer: a page whose window.setTimeout never fires still gets its
// fill, its change, and a refusal read back after its microtasks (the
// postcode's re-render).
func TestFillHiddenPage(t *testing.T) {
	p := openFields(t)
	p.eval(`(() => { Object.defineProperty(document, 'visibilityState', {configurable: true, get: () => 'hidden'});
		window.setTimeout = () => 0; return '' })()`)
	p.fill("Nickname", "Bee")
	p.waitText("hello", "Hello, Bee")
	if err := p.act(p.label("Postcode"), runtime.ActFill, "abc"); !errors.Is(err, runtime.ErrFillRefused) {
		t.Errorf("refused fill of the postcode in a hidden page = %v, want ErrFillRefused", err)
	}
	if c := p.events()["nick"]; c["change!"] != 1 {
		t.Errorf("nickname events %v, want one change", c)
	}
}

// fcRefused sets the reference, a field whose page puts the old value
// back; its postcondition, the field's being visible, would hold.
const fcRefused = `
  "inputs": [{"name": "reference", "type": "string", "required": true, "max_length": 40}],
  "outputs": [],
  "milestones": [{
    "id": "set-reference",
    "intent": "Set the reference",
    "actions": [
      {"id": "fill-ref", "operation": "fill", "intent": "Type the reference", "effect": "reversible", "confirmation": "none",
       "locator_candidates": [{"strategy": "label", "label": "Reference", "exact": true}],
       "input": "reference",
       "postcondition": {"kind": "locator_visible", "locator_candidates": [{"strategy": "label", "label": "Reference", "exact": true}]}}
    ]
  }]`

// TestFillRefusedFailsRun: a run whose fill the page refuses fails at
// that action as act_failed (ui_assertion_failed), though its
// postcondition would hold: it does not complete.
func TestFillRefusedFailsRun(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	c := wcCapability(t, s.Stress.Origin(), "refused", "/fields", fcRefused)
	ctx := tctx(t, 60*time.Second)
	res := execute(t, ctx, d, c, map[string]any{"reference": "REF-2"})
	if res.State != runtime.StateFailed || res.Failure == nil || res.Failure.Category != receipt.CategoryUIAssertionFailed ||
		res.Failure.Reason != string(runtime.ReasonActFailed) || res.StoppedAt != "fill-ref" {
		t.Fatalf("run ended %s (stopped at %q), want failed ui_assertion_failed/act_failed at fill-ref", describeResult(res), res.StoppedAt)
	}
}

// FuzzFillSet: a fill of a date, time, number, range or color input
// either takes the value as given or is refused as unsupported with the
// field's value and events untouched; never a value the control changed.
func FuzzFillSet(f *testing.F) {
	for _, s := range []string{"2001-02-03", "2001-13-45", "", " 2001-02-03", "18:45", "18:45:30.5", "25:00", "7", "-1.5e3",
		"seven", "75", "52", "150", "#ff8800", "#FF8800", "red", "\x00", "2001-02-03T04:05"} {
		f.Add(s)
	}
	requireBrowser(f)
	d := shared(f)
	s := sites(f)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	f.Cleanup(cancel)
	if err := d.Navigate(ctx, s.Stress.URL()+"/fields"); err != nil {
		f.Fatal(err)
	}
	top, _, err := d.Frame(ctx, nil)
	if err != nil {
		f.Fatal(err)
	}
	els := map[string]runtime.Element{}
	for _, id := range []string{"born", "alarm", "guests", "volume", "colour"} {
		found, err := d.Find(ctx, top, nil, locator.Candidate{Strategy: locator.CSS, CSS: "#" + id})
		if err != nil || len(found) != 1 {
			f.Fatalf("find #%s: %d, %v", id, len(found), err)
		}
		els[id] = found[0]
	}
	f.Fuzz(func(t *testing.T, v string) {
		for id, el := range els {
			var before, after struct {
				V      string      `json:"v"`
				Events fieldCounts `json:"events"`
			}
			state := `({v: document.getElementById('` + id + `').value, events: JSON.parse(fieldEvents())['` + id + `']})`
			obsEval(t, ctx, d, state, &before)
			err := d.Act(ctx, el, runtime.Act{Kind: runtime.ActFill, Value: v})
			obsEval(t, ctx, d, state, &after)
			switch {
			case err == nil:
				if after.V != v {
					t.Fatalf("#%s filled with %q holds %q", id, v, after.V)
				}
			case errors.Is(err, runtime.ErrUnsupported):
				if after.V != before.V || !reflect.DeepEqual(after.Events, before.Events) {
					t.Fatalf("#%s: refused %q, but the value went %q -> %q, events %v -> %v", id, v, before.V, after.V, before.Events, after.Events)
				}
			default:
				t.Fatalf("#%s: fill %q: %v", id, v, err)
			}
		}
	})
}

// fcAutosave renames the profile: the last step fills the name and the
// capability then reads what the field's change handler produced (the
// autosave's answer), with no blur or click in between.
const fcAutosave = `
  "inputs": [{"name": "full_name", "type": "string", "required": true, "max_length": 80}],
  "outputs": [{"name": "saved", "kind": "text", "exposure": "model_and_artifact"}],
  "milestones": [{
    "id": "rename",
    "intent": "Change the profile's name",
    "actions": [
      {"id": "fill-name", "operation": "fill", "intent": "Type the new name", "effect": "reversible", "confirmation": "none",
       "locator_candidates": [{"strategy": "label", "label": "Full name", "exact": true}],
       "input": "full_name",
       "postcondition": {"kind": "locator_visible", "locator_candidates": [{"strategy": "label", "label": "Full name", "exact": true}]}},
      {"id": "read-saved", "operation": "extract", "intent": "Read the autosave status", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "text", "text": "Autosaved"}],
       "output": "saved",
       "extract": {"mode": "text"},
       "postcondition": {"kind": "output_produced", "output": "saved"}}
    ]
  }]`

// TestFillCapabilityAutosave: a capability whose last fill is followed
// by a read of the change handler's work gets that work, done once: the
// reason the fill fires change at once rather than leaving it to a blur
// that never comes.
func TestFillCapabilityAutosave(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	c := wcCapability(t, s.Stress.Origin(), "autosave", "/fields", fcAutosave)
	ctx := tctx(t, 60*time.Second)
	res := execute(t, ctx, d, c, map[string]any{"full_name": "Chiara Greco"})
	wantState(t, res, runtime.StateCompleted, "")
	if got := res.ModelOutputs["saved"]; got != "Autosaved Chiara Greco (1 saves)" {
		t.Fatalf("saved = %v, want %q", got, "Autosaved Chiara Greco (1 saves)")
	}
}

// TestFillControlledRefused: a controlled input that renders away text
// it does not accept (digits only, from a microtask) keeps its value: the
// fill is refused and fires no change (nothing changed, as for a user's
// typing); a fill it partly accepts changes once, to what the page kept.
func TestFillControlledRefused(t *testing.T) {
	p := openFields(t)
	if err := p.act(p.label("Postcode"), runtime.ActFill, "abc"); !errors.Is(err, runtime.ErrFillRefused) {
		t.Errorf("refused fill of the postcode = %v, want ErrFillRefused", err)
	}
	if got := p.eval(`document.getElementById('postcode').value`); got != "20121" {
		t.Errorf("postcode after a refused fill = %q, want the old %q", got, "20121")
	}
	if c := p.events()["postcode"]; c["input"] != 1 || c["change"]+c["change!"] != 0 {
		t.Errorf("refused fill: %v, want one input and no change", c)
	}
	p.fill("Postcode", "00 184")
	if got := p.eval(`document.getElementById('postcode').value`); got != "00184" {
		t.Errorf("postcode = %q, want %q", got, "00184")
	}
	p.clickDone()
	p.waitText("done", "Done 1")
	if c := p.events()["postcode"]; c["input"] != 2 || c["change!"] != 1 || c["change"] != 0 {
		t.Errorf("after both fills and a blur: %v, want two inputs and the second fill's change only", c)
	}
}

// BenchmarkFill measures one fill of a text input ("Full name", whose
// change handler autosaves) and of a textarea ("Notes") on the fields
// page: the call that checks and prepares the fill, the insertion and
// the call that checks it and fires the change.
func BenchmarkFill(b *testing.B) {
	d := shared(b)
	s := sites(b)
	ctx := tctx(b, 5*time.Minute)
	if err := d.Navigate(ctx, s.Stress.URL()+"/fields"); err != nil {
		b.Fatal(err)
	}
	top, _, err := d.Frame(ctx, nil)
	if err != nil {
		b.Fatal(err)
	}
	for _, field := range []string{"Full name", "Notes"} {
		b.Run(strings.ReplaceAll(field, " ", ""), func(b *testing.B) {
			els, err := d.Find(ctx, top, nil, locator.Candidate{Strategy: locator.Label, Label: field, Exact: true})
			if err != nil || len(els) != 1 {
				b.Fatalf("Find = %d, %v", len(els), err)
			}
			n := 0
			for b.Loop() {
				n++
				if err := d.Act(ctx, els[0], runtime.Act{Kind: runtime.ActFill, Value: "value " + strconv.Itoa(n)}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestCapitalisedRole: Chromium reads role tokens case-insensitively, so a
// div with role="Checkbox" is a checkbox: a role lookup finds it (the
// page-side candidate set once compared tokens case-sensitively and
// answered "no match" where the accessibility tree had one), and check
// and uncheck toggle it through its aria-checked.
func TestCapitalisedRole(t *testing.T) {
	p := openFields(t)
	doc, err := p.d.document(p.ctx, p.d.top)
	if err != nil {
		t.Fatal(err)
	}
	const add = `function() {
  const b = this.createElement('div');
  b.setAttribute('role', 'Checkbox');
  b.setAttribute('aria-checked', 'false');
  b.tabIndex = 0;
  b.textContent = 'Mixed case consent';
  b.addEventListener('click', () => b.setAttribute('aria-checked', String(b.getAttribute('aria-checked') !== 'true')));
  this.body.prepend(b);
}`
	if _, err := p.d.callOn(p.ctx, p.d.top.sid, doc, add, true, nil); err != nil {
		t.Fatal(err)
	}
	el := p.el(locator.Candidate{Strategy: locator.Role, Role: "checkbox", Name: "Mixed case consent", Exact: true})
	for _, want := range []bool{true, false} {
		kind := runtime.ActCheck
		if !want {
			kind = runtime.ActUncheck
		}
		if err := p.act(el, kind, ""); err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		st, err := p.d.state(p.ctx, el.(*element), false, nil)
		if err != nil || !st.Checkable || st.Checked != want {
			t.Fatalf("after %s: %+v, %v", kind, st, err)
		}
	}
}
