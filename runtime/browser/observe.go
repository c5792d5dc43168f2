package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/go-rod/rod/lib/proto"
	"github.com/vera-run/vera/discovery"
	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/runtime"
)

// Observer is the driver's page as package discovery sees it: a
// [discovery.Page] that takes read-only snapshots, and a
// [discovery.Actor] that performs an explorer's accepted steps through
// Frame, Find and Act. Like the Driver, it is not safe for concurrent use
// with other calls on the same driver. Get one with [Driver.Observer].
type Observer struct {
	d *Driver
}

// Observer returns the driver's page as a discovery page.
func (d *Driver) Observer() *Observer { return &Observer{d: d} }

var (
	_ discovery.Page  = (*Observer)(nil)
	_ discovery.Actor = (*Observer)(nil)
)

// Snapshot takes one read-only snapshot of the page: for every document
// (the top-level one, then each frame reachable through a unique iframe
// selector, breadth first, out-of-process frames included) ONE page-side
// call (Runtime.evaluate for the top-level document, Runtime.callFunctionOn
// for a frame's) collects its interactive controls and state markers with
// role, accessible name, label, placeholder, test id, visibility and
// disabled/checked/expanded flags, the text of nameless live regions, the
// document's origin and query-free path, and the selectors of its iframes.
// Resolving a frame uses the driver's frame resolution (DOM reads only).
//
// Nothing acts on the page: no focus, scroll, click, event dispatch,
// navigation or DOM write; the script defines no global. It never reads a
// form control's value (only the label of button-type inputs), never
// records table rows or cells or controls inside them, and truncates every
// string in the page to limits.MaxStringLen runes. A frame that is still
// loading, has no unique selector, or lies beyond limits.MaxFrames or
// limits.MaxFrameDepth is skipped and counted.
//
// A native dialog blocks page scripts: Snapshot then fails with an error
// wrapping both [runtime.ErrNativeDialog] and [discovery.ErrPageBusy].
func (o *Observer) Snapshot(ctx context.Context, limits discovery.SnapshotLimits) (*discovery.RawSnapshot, error) {
	d := o.d
	cctx, done, err := d.begin(ctx)
	if err != nil {
		return nil, busy(err)
	}
	defer done()
	lim := snapshotLimits(limits)

	// The top-level document: one Runtime.evaluate.
	var res struct {
		Result           remoteObject                   `json:"result"`
		ExceptionDetails *proto.RuntimeExceptionDetails `json:"exceptionDetails"`
	}
	expr := "(" + jsSnapshot + ").call(document, " + strconv.Itoa(lim.MaxControls) + ", " + strconv.Itoa(lim.MaxStringLen) + ")"
	if err := d.call(cctx, d.pageSID, proto.RuntimeEvaluate{Expression: expr, ReturnByValue: true, Silent: true}, &res); err != nil {
		return nil, busy(d.fail(cctx, "snapshot", err))
	}
	if res.ExceptionDetails != nil {
		return nil, fmt.Errorf("browser: snapshot: %w", &jsError{msg: exceptionText(res.ExceptionDetails)})
	}
	var top docSnapshot
	if err := json.Unmarshal(res.Result.Value, &top); err != nil || !top.Live {
		return nil, fmt.Errorf("%w: the document is being replaced", runtime.ErrStaleElement)
	}
	snap := &discovery.RawSnapshot{
		Origin: top.Origin,
		Path:   top.Path,
		Frames: []discovery.RawFrame{{Origins: []string{top.Origin}}},
	}
	snap.Controls = append(snap.Controls, top.controls(0)...)
	snap.TotalControls = top.Total
	snap.FramesSkipped = top.FramesSkipped

	// Frames, breadth first.
	type pending struct {
		parent  *scope
		doc     proto.RuntimeRemoteObjectID
		path    []string
		origins []string
		sels    []string
	}
	var queue []pending
	if len(top.Frames) > 0 {
		doc, err := d.document(cctx, d.top)
		if err != nil {
			return nil, busy(d.fail(cctx, "snapshot", err))
		}
		queue = append(queue, pending{parent: d.top, doc: doc, origins: []string{top.Origin}, sels: top.Frames})
	}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, sel := range p.sels {
			if len(snap.Frames) >= lim.MaxFrames || len(p.path)+1 > lim.MaxFrameDepth {
				snap.FramesSkipped++
				continue
			}
			sc, info, retry, err := d.tryFrame(cctx, p.parent, p.doc, sel)
			if err != nil {
				if cctx.Err() != nil || errors.Is(err, runtime.ErrBrowserCrashed) || errors.Is(err, runtime.ErrClosed) {
					return nil, busy(err)
				}
				snap.FramesSkipped++
				continue
			}
			if retry {
				snap.FramesSkipped++ // still loading: the next snapshot sees it
				continue
			}
			var fs docSnapshot
			budget := max(lim.MaxControls-len(snap.Controls), 0)
			if _, err := d.callOn(cctx, sc.sid, sc.doc, jsSnapshot, true, &fs, val(budget), val(lim.MaxStringLen)); err != nil || !fs.Live {
				if cctx.Err() != nil {
					return nil, busy(d.fail(cctx, "snapshot", cctx.Err()))
				}
				snap.FramesSkipped++
				continue
			}
			path := append(append([]string(nil), p.path...), sel)
			origins := append(append([]string(nil), p.origins...), info.Origin)
			idx := len(snap.Frames)
			snap.Frames = append(snap.Frames, discovery.RawFrame{Path: path, Origins: origins})
			snap.Controls = append(snap.Controls, fs.controls(idx)...)
			snap.TotalControls += fs.Total
			snap.FramesSkipped += fs.FramesSkipped
			if len(fs.Frames) > 0 {
				queue = append(queue, pending{parent: sc, doc: sc.doc, path: path, origins: origins, sels: fs.Frames})
			}
		}
	}
	if len(snap.Controls) > lim.MaxControls {
		snap.Controls = snap.Controls[:lim.MaxControls]
	}
	snap.TotalControls = max(snap.TotalControls, len(snap.Controls))
	return snap, nil
}

// busy marks a native dialog as a busy page for discovery.
func busy(err error) error {
	if errors.Is(err, runtime.ErrNativeDialog) && !errors.Is(err, discovery.ErrPageBusy) {
		return fmt.Errorf("%w: %w", discovery.ErrPageBusy, err)
	}
	return err
}

// snapshotLimits fills zero limits with discovery's defaults.
func snapshotLimits(l discovery.SnapshotLimits) discovery.SnapshotLimits {
	if l.MaxControls <= 0 {
		l.MaxControls = discovery.DefaultMaxControls
	}
	if l.MaxStringLen <= 0 {
		l.MaxStringLen = 4*discovery.DefaultMaxStringLen + 64
	}
	if l.MaxFrames <= 0 {
		l.MaxFrames = discovery.DefaultMaxFrames
	}
	if l.MaxFrameDepth <= 0 || l.MaxFrameDepth > 5 {
		l.MaxFrameDepth = 5
	}
	return l
}

// docSnapshot is what jsSnapshot returns for one document.
type docSnapshot struct {
	Live          bool        `json:"live"`
	Origin        string      `json:"o"`
	Path          string      `json:"p"`
	Total         int         `json:"t"`
	Controls      []jsControl `json:"c"`
	Frames        []string    `json:"f"`
	FramesSkipped int         `json:"fs"`
}

// jsControl is one control as jsSnapshot reports it.
type jsControl struct {
	Role        string `json:"r"`
	Name        string `json:"n"`
	Label       string `json:"l"`
	Placeholder string `json:"p"`
	TestID      string `json:"i"`
	Text        string `json:"x"`
	Flags       int    `json:"f"`
}

// Flags of jsControl.
const (
	flagVisible       = 1
	flagDisabled      = 2
	flagChecked       = 4
	flagUnchecked     = 8
	flagMixed         = 16
	flagExpanded      = 32
	flagCollapsed     = 64
	checkedFlagsMask  = flagChecked | flagUnchecked | flagMixed
	expandedFlagsMask = flagExpanded | flagCollapsed
)

func (s *docSnapshot) controls(frame int) []discovery.RawControl {
	out := make([]discovery.RawControl, 0, len(s.Controls))
	for _, c := range s.Controls {
		rc := discovery.RawControl{
			Frame: frame, Role: c.Role, Name: c.Name, Label: c.Label, Placeholder: c.Placeholder,
			TestID: c.TestID, Text: c.Text,
			Visible: c.Flags&flagVisible != 0, Disabled: c.Flags&flagDisabled != 0,
		}
		switch c.Flags & checkedFlagsMask {
		case flagChecked:
			rc.Checked = "true"
		case flagUnchecked:
			rc.Checked = "false"
		case flagMixed:
			rc.Checked = "mixed"
		}
		switch c.Flags & expandedFlagsMask {
		case flagExpanded:
			rc.Expanded = "true"
		case flagCollapsed:
			rc.Expanded = "false"
		}
		out = append(out, rc)
	}
	return out
}

// Act performs one exploration action: it resolves the frame path, finds
// the locator's elements there (the driver's Find: the accessibility tree
// for roles) and acts on the single match with the driver's Act. It does
// nothing, and fails wrapping [discovery.ErrActTarget], unless exactly one
// element matches; CSS locators are refused with [runtime.ErrUnsupported].
func (o *Observer) Act(ctx context.Context, a discovery.Action) error {
	d := o.d
	if !a.Locator.Strategy.Semantic() {
		return fmt.Errorf("%w: exploration acts through semantic locators only", runtime.ErrUnsupported)
	}
	var kind runtime.ActKind
	switch a.Kind {
	case discovery.ActClick:
		kind = runtime.ActClick
	case discovery.ActFill:
		kind = runtime.ActFill
	case discovery.ActSelect:
		kind = runtime.ActSelect
	case discovery.ActCheck:
		kind = runtime.ActCheck
	case discovery.ActUncheck:
		kind = runtime.ActUncheck
	default:
		return fmt.Errorf("%w: exploration action %q", runtime.ErrUnsupported, a.Kind)
	}
	sc, _, err := d.Frame(ctx, a.Frame)
	if err != nil {
		return err
	}
	els, err := d.Find(ctx, sc, nil, a.Locator)
	if err != nil {
		return err
	}
	if len(els) != 1 {
		return fmt.Errorf("%w: %d elements match %s", discovery.ErrActTarget, len(els), locatorKind(a.Locator))
	}
	return d.Act(ctx, els[0], runtime.Act{Kind: kind, Value: a.Value})
}

// locatorKind names a candidate without its value (which may be private).
func locatorKind(c locator.Candidate) string {
	if c.Strategy == locator.Role {
		return "role=" + c.Role
	}
	return string(c.Strategy)
}

// jsSnapshot runs with this = a document and returns its controls, at most
// maxControls of them (visible ones first, then in document order), every
// string cut to maxString runes. It reads the DOM only.
const jsSnapshot = `function(maxControls, maxString) {
` + jsPrelude + `
  const doc = this;
  const win = doc.defaultView;
  if (!win) return { live: false };
  const cut = s => { s = norm(s); return s.length > maxString ? Array.from(s).slice(0, maxString).join('') : s; };
  const RECORDED = new Set(['button','checkbox','combobox','link','listbox','menuitem','menuitemcheckbox','menuitemradio','radio','searchbox','slider','spinbutton','switch','tab','textbox',
    'alert','alertdialog','dialog','grid','heading','progressbar','status','table','tabpanel']);
  const FROM_CONTENT = new Set(['button','checkbox','heading','link','menuitem','menuitemcheckbox','menuitemradio','radio','switch','tab']);
  const LABELABLE = new Set(['INPUT','SELECT','TEXTAREA','METER','PROGRESS','OUTPUT','BUTTON']);
  const BUTTON_INPUTS = new Set(['button','submit','reset','image']);
  const TEXT_INPUTS = new Set(['text','search','email','tel','url','password','number']);
  const typeOf = el => (el.getAttribute('type') || 'text').trim().toLowerCase();
  const roleOf = el => {
    const explicit = (el.getAttribute('role') || '').trim().toLowerCase().split(/\s+/)[0];
    if (explicit) return (explicit === 'none' || explicit === 'presentation') ? '' : explicit;
    switch (el.tagName) {
    case 'A': case 'AREA': return el.hasAttribute('href') ? 'link' : '';
    case 'BUTTON': return 'button';
    case 'INPUT': {
      const t = typeOf(el);
      if (BUTTON_INPUTS.has(t)) return 'button';
      switch (t) {
      case 'hidden': case 'file': case 'color': case 'date': case 'time': case 'datetime-local': case 'month': case 'week': return '';
      case 'checkbox': return 'checkbox';
      case 'radio': return 'radio';
      case 'range': return 'slider';
      case 'number': return 'spinbutton';
      case 'search': return el.hasAttribute('list') ? 'combobox' : 'searchbox';
      }
      return el.hasAttribute('list') ? 'combobox' : 'textbox';
    }
    case 'SELECT': return (el.multiple || el.size > 1) ? 'listbox' : 'combobox';
    case 'TEXTAREA': return 'textbox';
    case 'H1': case 'H2': case 'H3': case 'H4': case 'H5': case 'H6': return 'heading';
    case 'DIALOG': return 'dialog';
    case 'TABLE': return 'table';
    case 'PROGRESS': return 'progressbar';
    case 'OUTPUT': return 'status';
    }
    if (el.isContentEditable && !(el.parentElement && el.parentElement.isContentEditable)) return 'textbox';
    return '';
  };
  const CELL = 'td,th,[role=cell],[role=gridcell],[role=rowheader],[role=columnheader],[role=row]';
  const byIds = ids => ids.split(/\s+/).map(id => id && doc.getElementById(id)).filter(Boolean).map(e => e.textContent).join(' ');
  const contentOf = (el, vis) => {
    let t = norm(vis ? el.innerText : el.textContent);
    if (!t) { const img = el.querySelector('img[alt]'); if (img) t = norm(img.getAttribute('alt')); }
    return t;
  };
  // The labels of each control from one pass over the document's labels
  // (label.control): el.labels per element walks the whole tree each time.
  let labelMap;
  const labelsFor = el => {
    if (el.getRootNode() !== doc) return el.labels ? Array.from(el.labels) : [];
    if (!labelMap) {
      labelMap = new Map();
      for (const l of doc.querySelectorAll('label')) {
        const c = l.control;
        if (c) { const a = labelMap.get(c); if (a) a.push(l); else labelMap.set(c, [l]); }
      }
    }
    return labelMap.get(el) || [];
  };
  const labelsOf = el => {
    const ls = LABELABLE.has(el.tagName) ? labelsFor(el) : [];
    if (ls.length) return norm(ls.map(l => l.innerText || l.textContent).join(' '));
    const lb = el.getAttribute('aria-labelledby');
    return lb ? norm(byIds(lb)) : '';
  };
  const nameOf = (el, role, vis) => {
    const tag = el.tagName;
    let n = '';
    const lb = el.getAttribute('aria-labelledby');
    if (lb) n = norm(byIds(lb));
    if (!n) n = norm(el.getAttribute('aria-label'));
    if (!n) {
      if (tag === 'INPUT' && BUTTON_INPUTS.has(typeOf(el))) {
        const t = typeOf(el);
        n = t === 'image' ? norm(el.getAttribute('alt')) : norm(el.getAttribute('value') || (t === 'submit' ? 'Submit' : t === 'reset' ? 'Reset' : ''));
      } else if (LABELABLE.has(tag) && tag !== 'BUTTON') {
        n = labelsOf(el);
      } else if (tag === 'TABLE') {
        n = el.caption ? norm(el.caption.textContent) : '';
      }
      if (!n && (FROM_CONTENT.has(role) || tag === 'BUTTON')) n = contentOf(el, vis);
    }
    if (!n) n = norm(el.getAttribute('title'));
    if (!n && (tag === 'TEXTAREA' || (tag === 'INPUT' && TEXT_INPUTS.has(typeOf(el))))) n = norm(el.getAttribute('placeholder'));
    return n;
  };
  const disabledOf = el => {
    if (el.matches(':disabled')) return true;
    for (let p = el; p; p = p.parentElement) if (p.getAttribute('aria-disabled') === 'true') return true;
    return false;
  };
  const checkedOf = (el, role) => {
    if (el.tagName === 'INPUT' && (el.type === 'checkbox' || el.type === 'radio')) return el.indeterminate ? 16 : (el.checked ? 4 : 8);
    if (role === 'checkbox' || role === 'radio' || role === 'switch' || role === 'menuitemcheckbox' || role === 'menuitemradio') {
      const a = el.getAttribute('aria-checked');
      return a === 'true' ? 4 : a === 'mixed' ? 16 : 8;
    }
    return 0;
  };
  const cands = [];
  for (const el of doc.querySelectorAll('a[href],area[href],button,input,select,textarea,[role],h1,h2,h3,h4,h5,h6,dialog,table,progress,output,[contenteditable]')) {
    const role = roleOf(el);
    if (!role || !RECORDED.has(role)) continue;
    if (el.parentElement && el.parentElement.closest(CELL)) continue;
    cands.push([el, role, visible(el)]);
  }
  const picks = [];
  for (let i = 0; i < cands.length && picks.length < maxControls; i++) if (cands[i][2]) picks.push(i);
  for (let i = 0; i < cands.length && picks.length < maxControls; i++) if (!cands[i][2]) picks.push(i);
  picks.sort((a, b) => a - b);
  const controls = picks.map(i => {
    const [el, role, vis] = cands[i];
    let f = vis ? 1 : 0;
    if (disabledOf(el)) f |= 2;
    f |= checkedOf(el, role);
    const ex = el.getAttribute('aria-expanded');
    if (ex === 'true') f |= 32; else if (ex === 'false') f |= 64;
    const c = { r: role, n: cut(nameOf(el, role, vis)), l: cut(labelsOf(el)), f };
    const ph = el.getAttribute('placeholder');
    if (ph) c.p = cut(ph);
    const tid = el.getAttribute('data-testid');
    if (tid) c.i = cut(tid);
    if (role === 'status' || role === 'alert') c.x = cut(vis ? el.innerText : el.textContent);
    return c;
  });
  const frames = [];
  let skipped = 0;
  const unique = (sel, f) => { try { const m = doc.querySelectorAll(sel); return m.length === 1 && m[0] === f; } catch (e) { return false; } };
  const quote = s => '"' + String(s).replace(/["\\\n\r\f]/g, c => '\\' + c.charCodeAt(0).toString(16) + ' ') + '"';
  for (const f of doc.querySelectorAll('iframe,frame')) {
    if (f.closest(CELL)) { skipped++; continue; }
    const tag = f.tagName.toLowerCase();
    let sel = '';
    if (f.id && unique(tag + '#' + CSS.escape(f.id), f)) sel = tag + '#' + CSS.escape(f.id);
    else if (f.getAttribute('name') && unique(tag + '[name=' + quote(f.getAttribute('name')) + ']', f)) sel = tag + '[name=' + quote(f.getAttribute('name')) + ']';
    else if (f.getAttribute('title') && unique(tag + '[title=' + quote(f.getAttribute('title')) + ']', f)) sel = tag + '[title=' + quote(f.getAttribute('title')) + ']';
    if (sel && sel.length <= 300) frames.push(sel); else skipped++;
  }
  return { live: true, o: win.location.origin, p: win.location.pathname, t: cands.length, c: controls, f: frames, fs: skipped };
}`
