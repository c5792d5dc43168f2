package browser

// The page-side helpers of actionability (see act.go). Like the others
// they define no globals and change nothing but the scroll position.

// jsActPrelude defines, on top of jsPrelude:
//   - parentOf: the flat-tree parent (slot, parent element, shadow host);
//   - clipToView(el, L, T, R, B): the rectangle, in el's frame viewport,
//     cut by every ancestor of el that clips its overflow (a scrolled or
//     overflow:hidden container; a fixed-position element escapes those
//     above it) and by the frame's visual viewport; it returns
//     [L, T, R, B, viewport width, viewport height];
//   - describe(el): "<tag id=.. class=..>", how an error names a cover;
//   - hitMine(doc, x, y, el): "" when the element hit at (x, y) is el, a
//     descendant of el (shadow trees included) or a <label> of el, else
//     the description of what was hit ("nothing" outside the viewport).
const jsActPrelude = `
const parentOf = n => n.assignedSlot || n.parentElement || (n.parentNode && n.parentNode.host) || null;
const clipToView = (el, L, T, R, B) => {
  const doc = el.ownerDocument, w = doc.defaultView, html = doc.documentElement, body = doc.body;
  let fixed = w.getComputedStyle(el).position === 'fixed';
  for (let p = parentOf(el); p && !fixed && p !== html && p !== body; p = parentOf(p)) {
    const s = w.getComputedStyle(p);
    if (s.display !== 'contents' && s.display !== 'inline' && (s.overflowX !== 'visible' || s.overflowY !== 'visible')) {
      const pr = p.getBoundingClientRect();
      const x0 = pr.left + p.clientLeft, y0 = pr.top + p.clientTop;
      if (s.overflowX !== 'visible') { L = Math.max(L, x0); R = Math.min(R, x0 + p.clientWidth); }
      if (s.overflowY !== 'visible') { T = Math.max(T, y0); B = Math.min(B, y0 + p.clientHeight); }
    }
    if (s.position === 'fixed') fixed = true;
  }
  const vv = w.visualViewport;
  const vx = vv ? vv.offsetLeft : 0, vy = vv ? vv.offsetTop : 0;
  const vw = vv ? vv.width : html.clientWidth, vh = vv ? vv.height : html.clientHeight;
  return [Math.max(L, vx), Math.max(T, vy), Math.min(R, vx + vw), Math.min(B, vy + vh), vw, vh];
};
const describe = h => {
  let s = '<' + h.localName;
  if (h.id) s += ' id=' + (h.id.length > 40 ? h.id.slice(0, 40) + '...' : h.id);
  const c = norm(h.getAttribute('class'));
  if (c) s += ' class=' + (c.length > 60 ? c.slice(0, 60) + '...' : c);
  return s + '>';
};
const hitMine = (doc, x, y, el) => {
  let h = doc.elementFromPoint(x, y);
  while (h && h.shadowRoot && h !== el) { const inner = h.shadowRoot.elementFromPoint(x, y); if (!inner || inner === h) break; h = inner; }
  if (!h) return 'nothing';
  for (let p = h; p; p = p.parentNode || p.host) {
    if (p === el) return '';
    if (p.localName === 'label' && p.control === el) return '';
  }
  return describe(h);
};
`

// jsActState reports what an action needs to know about this element:
// its state flags, its box (x, y, w, h) and visible part (l, t, r, b)
// in its frame's viewport, whether the whole box is visible (full), the
// viewport size, and, with hit, what the point (px, py) hits ("" for the
// element itself). The point is the one given when it lies in the
// visible part, else the centre of the visible part.
const jsActState = `function(hit, px, py) {
` + jsPrelude + jsActPrelude + `
  const el = this;
  if (!el.isConnected) return { connected: false };
  const tag = el.tagName;
  const vis = visible(el);
  const disabledTags = new Set(['BUTTON', 'INPUT', 'SELECT', 'TEXTAREA', 'OPTION', 'OPTGROUP', 'FIELDSET']);
  let disabled = (disabledTags.has(tag) && el.disabled) || !!el.closest('fieldset:disabled') ;
  // A form-associated custom element is disabled as a form control is.
  const custom = el.localName.includes('-');
  if (!disabled && custom) disabled = el.matches(':disabled');
  for (let p = el; p && !disabled; p = p.parentElement) if (p.getAttribute('aria-disabled') === 'true') disabled = true;
  const noText = new Set(['button', 'checkbox', 'radio', 'file', 'submit', 'reset', 'image', 'hidden']);
  let fillable = false, editable = false;
  if (tag === 'INPUT') { fillable = !noText.has(el.type); editable = fillable && !el.readOnly; }
  else if (tag === 'TEXTAREA') { fillable = true; editable = !el.readOnly; }
  else if (el.isContentEditable) { fillable = true; editable = true; }
  let checkable = false, checked = false, radio = false;
  if (tag === 'INPUT' && (el.type === 'checkbox' || el.type === 'radio')) { checkable = true; checked = el.checked; radio = el.type === 'radio'; }
  else { const role = (el.getAttribute('role') || '').trim().toLowerCase().split(/\s+/)[0]; if (role === 'checkbox' || role === 'switch' || role === 'radio' || role === 'menuitemcheckbox' || role === 'menuitemradio') { checkable = true; checked = el.getAttribute('aria-checked') === 'true'; radio = role === 'radio' || role === 'menuitemradio'; } }
  const r = el.getBoundingClientRect();
  const [l, t, rr, b, vw, vh] = clipToView(el, r.left, r.top, r.right, r.bottom);
  const full = l <= r.left + 0.5 && t <= r.top + 0.5 && rr >= r.right - 0.5 && b >= r.bottom - 0.5;
  const some = rr - l >= 1 && b - t >= 1;
  let x = (l + rr) / 2, y = (t + b) / 2;
  if (typeof px === 'number' && typeof py === 'number' && px >= l && px <= rr && py >= t && py <= b) { x = px; y = py; }
  let over = '';
  if (hit && vis && some) over = hitMine(el.ownerDocument, x, y, el);
  return { connected: true, visible: vis, enabled: !disabled, fillable, editable, checkable, checked, radio,
    select: tag === 'SELECT', host: !!el.shadowRoot || custom, x: r.left, y: r.top, w: r.width, h: r.height,
    l, t, r: rr, b, full, vw, vh, px: x, py: y, over };
}`

// jsActStateFramed is the stability check's measurements in one call:
// it measures this element as jsActState does (without the hit test)
// and, when it is connected, visible and enabled, waits for the next
// animation frame of its window (at most frameWaitMS; a hidden window,
// which renders none, gets no prev and is polled by the caller) and
// measures it again, hit test included. The state
// returned is the last one, with the box before it as prev (none when
// it did not wait). An animation that was about to start at the first
// measurement (a transition the last style change created, pending
// until the next frame) has moved nothing yet by that frame: then the
// box is compared across one more frame, as Playwright compares two
// consecutive animation frames.
const jsActStateFramed = `async function(hit, px, py) {
  const measure = ` + jsActState + `;
  const first = measure.call(this, false, null, null);
  if (!first.connected || !first.visible || !first.enabled) return first;
  const doc = this.ownerDocument, w = doc.defaultView;
  // A hidden window renders no frames: the caller polls instead.
  if (doc.visibilityState === 'hidden') return first;
  const frame = () => new Promise(r => { let done = false; const go = () => { if (!done) { done = true; r(); } }; w.requestAnimationFrame(go); w.setTimeout(go, ` + frameWaitMS + `); });
  const pending = () => { try { return doc.getAnimations().some(a => a.pending); } catch (e) { return false; } };
  const box = s => ({ x: s.x, y: s.y, w: s.w, h: s.h });
  const same = (a, s) => a.x === s.x && a.y === s.y && a.w === s.w && a.h === s.h;
  let prev = box(first);
  const wait = pending();
  await frame();
  if (wait) {
    const mid = measure.call(this, false, null, null);
    if (!mid.connected) return mid;
    if (same(prev, mid)) { prev = box(mid); await frame(); }
  }
  const st = measure.call(this, hit, px, py);
  if (st.connected) st.prev = prev;
  return st;
}`

// frameWaitMS bounds jsActStateFramed's wait for an animation frame
// (milliseconds, as page script text): a visible window normally renders
// one within 17 ms; one whose rendering is throttled (a cross-origin
// frame scrolled out of the page's view) or stalls longer is measured
// again anyway, the check then no weaker than a poll of that interval.
const frameWaitMS = "100"

// jsFrameClip runs on an iframe element on an element's frame path. It
// is given the element's visible part (l, t, r, b) and click point (px,
// py) in the child frame's viewport and returns them in this frame's
// viewport (the content box's origin added: ox, oy), the part further
// cut by the iframe's content box, the iframe's clipping ancestors and
// this frame's viewport (full when nothing was cut), the viewport size,
// and, with hit, what the point hits here ("" when it is the iframe).
const jsFrameClip = `function(l, t, r, b, px, py, hit) {
` + jsPrelude + jsActPrelude + `
  const el = this;
  if (!el.isConnected) return { connected: false };
  const w = el.ownerDocument.defaultView;
  const br = el.getBoundingClientRect();
  const s = w.getComputedStyle(el);
  const pl = parseFloat(s.paddingLeft || '0'), pt = parseFloat(s.paddingTop || '0');
  const pr = parseFloat(s.paddingRight || '0'), pb = parseFloat(s.paddingBottom || '0');
  const ox = br.left + el.clientLeft + pl, oy = br.top + el.clientTop + pt;
  const cw = el.clientWidth - pl - pr, ch = el.clientHeight - pt - pb;
  let L = Math.max(l + ox, ox), T = Math.max(t + oy, oy), R = Math.min(r + ox, ox + cw), B = Math.min(b + oy, oy + ch);
  const [cl, ct, cr, cb, vw, vh] = clipToView(el, L, T, R, B);
  const full = cl <= l + ox + 0.5 && ct <= t + oy + 0.5 && cr >= r + ox - 0.5 && cb >= b + oy - 0.5;
  let over = '';
  if (hit) over = hitMine(el.ownerDocument, px + ox, py + oy, el);
  return { connected: true, ox, oy, l: cl, t: ct, r: cr, b: cb, full, vw, vh, over };
}`

// jsScrollIntoView scrolls the element into view with the given block
// and inline alignment ("start", "center", "end"), instantly.
const jsScrollIntoView = `function(align) {
  this.scrollIntoView({ block: align, inline: align, behavior: 'instant' });
}`

// jsFillStart is a fill's actionability check and its preparation in
// one call, as Playwright's fill is: it reads the element as jsActState
// does (without a hit test) and, when it is connected, fillable,
// visible, enabled and editable, prepares the fill as jsPrepareFill does
// and returns the state with ready: true and jsPrepareFill's answer;
// otherwise it changes nothing and returns the state. No stability is
// asked for: the text goes to the focused element, not to a point on the
// screen.
const jsFillStart = `async function(value) {
  const st = (` + jsActState + `).call(this, false, null, null);
  if (!st.connected || !st.fillable || !st.visible || !st.enabled || !st.editable) return st;
  const p = await (` + jsPrepareFill + `).call(this, value);
  return Object.assign(st, {ready: true}, p);
}`

// jsFocusDelegate runs on a shadow root: it focuses the root's host and
// returns the element focus went to inside the root (following open
// shadow roots further down), or null when focus stayed outside it.
const jsFocusDelegate = `function() {
  this.host.focus();
  let a = this.activeElement;
  while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
  return a;
}`

// jsPressStart is a key press's actionability check and focus in one
// call: it reads the element as jsActState does (without a hit test)
// and, when it is connected, visible and enabled, focuses it and returns
// the state with ready: true; otherwise it changes nothing and returns
// the state.
const jsPressStart = `function() {
  const st = (` + jsActState + `).call(this, false, null, null);
  if (!st.connected || !st.visible || !st.enabled) return st;
  this.focus();
  return Object.assign(st, {ready: true});
}`
