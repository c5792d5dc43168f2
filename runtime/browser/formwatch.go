package browser

import (
	"context"
	"fmt"
	"strings"

	"github.com/go-rod/rod/lib/proto"
	"github.com/vera-run/vera/runtime"
)

// A click on a submit button (or Enter in a form's field) whose form
// fails its constraint validation submits nothing: the browser fires
// "invalid" at each invalid control, shows a bubble and stops. Nothing
// navigates, nothing is posted, and a postcondition that already held
// (the page still shows the previous submission's confirmation) would
// let the run go on as if the form had been sent. So an act that may
// submit a form watches it for the act's window: from before the input
// goes out to after the last event of the act was dispatched (the
// validation runs synchronously inside the click's or key's default
// action, so it has happened when Input.dispatch*Event returns). An
// "invalid" event on one of the form's controls with no "submit" event
// of that form is a refusal: the act fails with
// [runtime.ErrFormInvalid] inside a *[runtime.DispatchError], naming the
// controls and the validity flags that failed (never their values).
//
// The watched form is the element's own form (a button, input or other
// form control) or the nearest <form> around it (a custom button whose
// handler calls requestSubmit). A form with novalidate, or a button with
// formnovalidate, is not validated by the browser and fires nothing; a
// page that validates by itself (reportValidity in a submit or click
// handler) and submits anyway fires "submit", and is not refused. An act
// whose document went away before the watch was read (the submission
// navigated) was not refused.

// jsSubmitWatch is a JS expression, a function of an element, that
// watches the element's form as described above and returns
// {result(), off()}, or null when the element has no form.
const jsSubmitWatch = `(el => {
  // A control that never submits (a checkbox, a select, a text field
  // clicked) needs no watch; Enter in a text field does (implicit
  // submission), and jsArmSubmitWatch is only armed for Enter.
  const tag = el.localName, type = (el.getAttribute && el.getAttribute('type') || '').toLowerCase();
  if (watchClick && (tag === 'select' || tag === 'textarea' || tag === 'option' ||
      (tag === 'input' && type !== 'submit' && type !== 'image'))) return null;
  let f = (el.form instanceof HTMLFormElement) ? el.form : null;
  if (!f && el.closest) f = el.closest('form');
  if (!f) return null;
  const root = f.getRootNode(), invalid = [];
  let submitted = false;
  const flags = ['valueMissing', 'typeMismatch', 'patternMismatch', 'tooLong', 'tooShort',
    'rangeUnderflow', 'rangeOverflow', 'stepMismatch', 'badInput', 'customError'];
  const onInvalid = e => {
    const c = e.target;
    if (!(c instanceof Element) || !(c.form === f || f.contains(c))) return;
    const v = c.validity, why = v ? flags.filter(k => v[k]) : [];
    const name = c.getAttribute('name') || c.id || c.getAttribute('aria-label') || c.localName;
    invalid.push(name + (why.length ? ' (' + why.join(', ') + ')' : ''));
  };
  const onSubmit = e => { if (e.target === f) submitted = true; };
  root.addEventListener('invalid', onInvalid, true);
  root.addEventListener('submit', onSubmit, true);
  const off = () => {
    root.removeEventListener('invalid', onInvalid, true);
    root.removeEventListener('submit', onSubmit, true);
  };
  return { result() { off(); return { invalid: invalid.slice(0, 8), count: invalid.length, submitted }; }, off };
})`

// jsArmSubmitWatch arms the watch on this element alone (a key press);
// it returns the watch, or null when the element has no form.
const jsArmSubmitWatch = `function(){ const watchClick = false; return ` + jsSubmitWatch + `(this); }`

// submitResult is what a watch saw.
type submitResult struct {
	Invalid   []string `json:"invalid"`
	Count     int      `json:"count"`
	Submitted bool     `json:"submitted"`
}

// refusal is the error of a submission the form's validation refused,
// or nil.
func (r submitResult) refusal() error {
	if r.Count == 0 || r.Submitted {
		return nil
	}
	more := ""
	if r.Count > len(r.Invalid) {
		more = fmt.Sprintf(" and %d more", r.Count-len(r.Invalid))
	}
	return fmt.Errorf("%w: invalid %s%s; nothing was submitted", runtime.ErrFormInvalid, strings.Join(r.Invalid, ", "), more)
}

// readSubmitWatch reads and removes the watch object w (a method of the
// press guard, or the watch itself) in session sid. A read that fails
// (the document went away: the submission navigated, or the frame was
// replaced) is no refusal, but one cut short by ctx returns ctx's error:
// the act's fate is unknown, and reporting it done let the next step
// start with its time already spent.
//
// A navigation the act started in the session (causal.actNavs: the
// submission went) ends the wait without the read: Chromium holds the
// commands sent to a navigating frame until its navigation has a
// response, so a read sent after the browser began the submission's
// navigation (under load, the usual order) waited for the server's
// answer, however long, and the act with it
// (TestSubmitReadDuringNavigation). A form that navigated was submitted:
// there is no refusal to report, and Settle holds for the navigation as
// the act's own.
func (d *Driver) readSubmitWatch(ctx context.Context, sid proto.TargetSessionID, w proto.RuntimeRemoteObjectID, fn string) error {
	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type read struct {
		r   submitResult
		err error
	}
	got := make(chan read, 1)
	go func() {
		var r submitResult
		_, err := d.callOn(rctx, sid, w, fn, true, &r)
		got <- read{r, err}
	}()
	for {
		d.mu.Lock()
		navigated := d.causal.actNavigatedLocked(sid)
		changed := d.causal.changed
		d.mu.Unlock()
		if navigated {
			cancel()
			<-got
			d.log.Debug("submit watch not read: the act's navigation began")
			return nil
		}
		select {
		case g := <-got:
			if g.err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				d.log.Debug("submit watch not read", "err", g.err)
				return nil
			}
			return g.r.refusal()
		case <-changed:
		}
	}
}
