package browser

// The page-side helpers. Each is a function declaration for
// Runtime.callFunctionOn; they read the DOM and never change it (except
// the action helpers, which do what a user would: focus, select, set a
// <select>'s value). They define no globals.

// jsPrelude defines norm (whitespace normalisation) and visible
// (Playwright's rule: a non-empty bounding box and visibility:visible).
const jsPrelude = `
const norm = s => (s == null ? '' : String(s)).replace(/\s+/g, ' ').trim();
const visible = el => {
  if (!el || !el.isConnected || el.nodeType !== 1) return false;
  if (el.checkVisibility && !el.checkVisibility({visibilityProperty: true})) {
    const st0 = el.ownerDocument.defaultView.getComputedStyle(el);
    if (st0.display !== 'contents') return false;
  }
  const st = el.ownerDocument.defaultView.getComputedStyle(el);
  if (st.display === 'contents') {
    // Its box is its flat-tree children's: a host's shadow content, a
    // slot's assigned elements (or its fallback content).
    let kids = el.shadowRoot ? el.shadowRoot.children : el.children;
    if (el.localName === 'slot' && el.assignedElements) { const a = el.assignedElements(); if (el.assignedNodes().length) kids = a; }
    for (const c of kids) if (visible(c)) return true;
    return false;
  }
  if (st.visibility !== 'visible') return false;
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.height > 0;
};
// docOrder is document order across open shadow roots (Playwright's):
// a host, then its light descendants, then its shadow tree. Nodes of
// one tree compare natively.
const hostChain = n => { const c = [n]; for (let r = n.getRootNode(); r.host; r = r.host.getRootNode()) c.unshift(r.host); return c; };
const docOrder = (a, b) => {
  if (a === b) return 0;
  if (a.getRootNode() !== b.getRootNode()) {
    const ca = hostChain(a), cb = hostChain(b);
    let i = 0;
    while (i < ca.length && i < cb.length && ca[i] === cb[i]) i++;
    if (i === ca.length) return -1; // a hosts b's tree (or an ancestor of it)
    if (i === cb.length) return 1;
    const x = ca[i], y = cb[i]; // the two branches, in one tree
    if (x.contains(y)) return i === ca.length - 1 ? -1 : 1; // a's branch is x's shadow tree: light first
    if (y.contains(x)) return i === cb.length - 1 ? 1 : -1;
    a = x; b = y;
  }
  return a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1;
};
`

// jsDeep defines the helpers that see open shadow roots (closed ones stay
// invisible, as to any page script). census walks the scope once; on a
// page without open shadow roots every helper below takes the light-DOM
// path it had before.
const jsDeep = `
// flatParent is the parent in the flat (rendered) tree: a slotted node's
// slot, a shadow root's host; an unslotted child of a host has none.
const flatParent = n => {
  const p = n.parentElement;
  if (p) return p.shadowRoot ? n.assignedSlot : p;
  return n.parentNode && n.parentNode.host ? n.parentNode.host : null;
};
// inClosed reports whether e is inside a shadow root page scripts cannot
// enter (closed, or the browser's own): such elements are never found,
// even when the accessibility tree shows them.
// labelsOf(trees) returns a function giving el.labels (the <label>s
// whose labeled control is el, in tree order) from one pass over the
// labels of trees (the document or shadow root of the scope, and the open
// shadow roots under it). Asking el.labels of many elements walks the
// whole tree once per element in Chromium (a live list cached only until
// the next DOM change): 2,500 buttons on a fresh 10,000-node page took
// over a second. label.control is the browser's own association, so the
// answer is the same.
const labelsOf = trees => {
  let m;
  return el => {
    if (!m) {
      m = new Map();
      for (const t of trees) for (const l of t.querySelectorAll('label')) {
        const c = l.control;
        if (!c) continue;
        const a = m.get(c);
        if (a) a.push(l); else m.set(c, [l]);
      }
    }
    return m.get(el) || [];
  };
};
// inClosed reports whether e is inside a shadow root page scripts cannot
// reach: a closed one, or a user agent's (the inner parts of a date
// input or a video's controls, which an accessibility query returns). A
// root is open when its host hands it out; ShadowRoot.mode is never
// read: reading it on a user agent's root kills the renderer (Chromium
// 156: the accessibility path's filter crashed every page with a date
// input).
const inClosed = e => { for (let r = e.getRootNode(); r && r.host; r = r.host.getRootNode()) if (r.host.shadowRoot !== r) return true; return false; };
// deepContains reports whether e is root or inside it, shadow trees included.
const deepContains = (root, e) => { for (let p = e; p; p = p.parentNode || p.host) if (p === root) return true; return false; };
// census returns every open shadow root under base, nested ones
// included, in one walk of each tree; all, when given, is
// base.querySelectorAll('*') already at hand. With custom it also lists
// the custom elements of the shadow trees (not of base's own tree).
const census = (base, custom, all) => {
  const roots = [], customs = [];
  if (base.nodeType === 1 && base.shadowRoot) roots.push(base.shadowRoot);
  if (all) { for (let i = 0; i < all.length; i++) { const r = all[i].shadowRoot; if (r) roots.push(r); } }
  else {
    const w = (base.ownerDocument || base).createTreeWalker(base, NodeFilter.SHOW_ELEMENT);
    let n;
    while ((n = w.nextNode())) { const r = n.shadowRoot; if (r) roots.push(r); }
  }
  for (let i = 0; i < roots.length; i++) {
    for (const n of roots[i].querySelectorAll('*')) {
      if (n.shadowRoot) roots.push(n.shadowRoot);
      if (custom && n.localName.includes('-')) customs.push(n);
    }
  }
  return { roots, customs };
};
// deepQuery is querySelectorAll of a simple selector over base and the
// shadow roots: in document order without shadow roots, else tree by
// tree (callers sort what they keep with docOrder).
const deepQuery = (base, roots, sel) => {
  const out = Array.from(base.querySelectorAll(sel));
  for (const r of roots) for (const e of r.querySelectorAll(sel)) out.push(e);
  return out;
};
const inOrder = (roots, els) => roots.length ? els.sort(docOrder) : els;
// composedSet marks the elements whose flat subtree differs from their
// light subtree: every host and slot and their flat-tree ancestors. Their
// text, and so their names, must be composed; every other element's
// innerText is already what renders.
const composedSet = roots => {
  const set = new Set();
  const mark = e => { for (let p = e; p && !set.has(p); p = flatParent(p)) set.add(p); };
  for (const r of roots) { mark(r.host); for (const s of r.querySelectorAll('slot')) mark(s); }
  return set;
};
// makeText returns a function giving an element's rendered text along the
// flat tree: shadow content where it renders, slotted nodes at their slot
// (so a slotted node's text counts once, inside the shadow tree it
// renders in). Elements outside composed use innerText.
const makeText = composed => {
  const memo = new Map();
  const skipTags = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE']);
  const text = el => {
    if (!composed.size || !composed.has(el)) { const it = el.innerText; return it !== undefined ? it : (el.textContent || ''); }
    let t = memo.get(el);
    if (t !== undefined) return t;
    let kids = el.shadowRoot ? el.shadowRoot.childNodes : el.childNodes;
    if (el.localName === 'slot' && el.assignedNodes().length) kids = el.assignedNodes();
    t = '';
    for (const k of kids) {
      if (k.nodeType === 3) { t += k.data; continue; }
      if (k.nodeType !== 1 || skipTags.has(k.tagName)) continue;
      if (k.tagName === 'BR') { t += '\n'; continue; }
      const st = k.ownerDocument.defaultView.getComputedStyle(k);
      if (st.display === 'none') continue;
      const inner = text(k);
      t += st.display.startsWith('inline') || st.display === 'contents' ? inner : '\n' + inner + '\n';
    }
    memo.set(el, t);
    return t;
  };
  return text;
};
// parseSelector splits a selector list into complex selectors, each a
// list of compounds with the combinator before it (' ', '>', '+', '~');
// a top-level :scope in a compound becomes a flag. The list was already
// checked by the browser's own parser.
const parseSelector = sel => {
  const list = [];
  let parts = [], cur = '', comb = '', scope = false, depth = 0, quote = '';
  const push = () => { if (cur || scope) { parts.push({ css: cur, comb, scope }); cur = ''; comb = ''; scope = false; } };
  const hex = /[0-9a-fA-F]/;
  for (let i = 0; i < sel.length; i++) {
    const ch = sel[i];
    if (ch === '\\') {
      let j = i + 1;
      if (hex.test(sel[j] || '')) { while (j < sel.length && j < i + 7 && hex.test(sel[j])) j++; if (/\s/.test(sel[j] || '')) j++; }
      else j++;
      cur += sel.slice(i, j); i = j - 1; continue;
    }
    if (quote) { cur += ch; if (ch === quote) quote = ''; continue; }
    if (ch === '"' || ch === "'") { quote = ch; cur += ch; continue; }
    if (ch === '(' || ch === '[') { depth++; cur += ch; continue; }
    if (ch === ')' || ch === ']') { depth--; cur += ch; continue; }
    if (depth === 0) {
      if (ch === ',') { push(); list.push(parts); parts = []; comb = ''; continue; }
      if (/\s/.test(ch)) { if (cur || scope) { push(); comb = ' '; } continue; }
      if (ch === '>' || ch === '+' || ch === '~') { push(); comb = ch; continue; }
      if (ch === ':' && sel.startsWith(':scope', i) && !/[\w-]/.test(sel[i + 6] || '')) { scope = true; i += 5; continue; }
    }
    cur += ch;
  }
  push(); list.push(parts);
  return list;
};
// deepCSS evaluates a selector list as Playwright's CSS engine does with
// open shadow roots: the last compound is queried in every tree under
// base, and the compounds before it are matched walking up through
// shadow hosts (descendant and child combinators cross shadow boundaries;
// sibling combinators stay in one tree). Without shadow roots it is
// base.querySelectorAll.
const deepCSS = (doc, base, roots, sel) => {
  if (!roots.length) return Array.from(base.querySelectorAll(sel));
  doc.createDocumentFragment().querySelectorAll(sel); // the browser's own syntax check
  const scopeEl = base.nodeType === 1 ? base : doc.documentElement;
  const up = e => e.parentElement || (e.parentNode && e.parentNode.host) || null;
  const one = (e, p) => (!p.scope || e === scopeEl) && (!p.css || e.matches(p.css));
  const found = new Set();
  for (const parts of parseSelector(sel)) {
    if (!parts.length) continue;
    const memo = parts.map(() => new Map());
    // from reports whether e, matching parts[k], has the context parts[..k-1] ask for.
    const from = (e, k) => {
      if (k === 0) return true;
      let v = memo[k].get(e);
      if (v !== undefined) return v;
      const prev = parts[k - 1];
      v = false;
      switch (parts[k].comb) {
      case '>': { const p = up(e); v = !!p && one(p, prev) && from(p, k - 1); break; }
      case '+': { const p = e.previousElementSibling; v = !!p && one(p, prev) && from(p, k - 1); break; }
      case '~': for (let p = e.previousElementSibling; p && !v; p = p.previousElementSibling) v = one(p, prev) && from(p, k - 1); break;
      default: for (let p = up(e); p && !v; p = up(p)) v = one(p, prev) && from(p, k - 1);
      }
      memo[k].set(e, v);
      return v;
    };
    const last = parts[parts.length - 1], lastCSS = last.css || '*';
    for (const r of [base, ...roots]) for (const e of r.querySelectorAll(lastCSS)) {
      if (!found.has(e) && (!last.scope || e === scopeEl) && from(e, parts.length - 1)) found.add(e);
    }
  }
  return Array.from(found).sort(docOrder);
};
`

// jsInert defines, on top of jsPrelude and jsDeep, the page-side rule of
// what cannot be interacted with, which the label strategy drops (as the
// accessibility tree, and so the role strategy, does):
//   - inertOf(doc, base, roots) returns a function telling whether an
//     element of doc is inert: its computed interactivity is inert (the
//     inert attribute on it or a flat-tree ancestor, which crosses shadow
//     roots to the host's ancestors, or CSS interactivity:inert), or a
//     modal <dialog> is open (showModal) and the element is not a
//     flat-tree descendant of the topmost one (HTML's "blocked by a modal
//     dialog"). Modal dialogs are looked for in doc and its open shadow
//     roots (roots when base is doc, else found once, on first need), and
//     only once the first element is asked about. Of several open modal
//     dialogs the topmost is the one a viewport corner hits (its
//     ::backdrop covers the viewport and hits as the dialog): both
//     corners must hit inside the same one, else only elements outside
//     every modal dialog count as inert. A modal dialog inside a closed
//     shadow root, or in another document (a parent frame's), is not
//     seen.
const jsInert = `
const inertOf = (doc, base, roots) => {
  let modal; // undefined until first asked: null (none) or {top, all}
  const within = (m, e) => { for (let p = e; p; p = flatParent(p)) if (p === m) return true; return false; };
  const modals = () => {
    if (modal !== undefined) return modal;
    const rs = base === doc ? roots : census(doc, false).roots;
    const all = deepQuery(doc, rs, 'dialog:modal');
    if (!all.length) return (modal = null);
    let top = all.length === 1 ? all[0] : null;
    if (!top) {
      const w = doc.defaultView;
      const hit = (x, y) => {
        let h = doc.elementFromPoint(x, y);
        while (h && h.shadowRoot) { const inner = h.shadowRoot.elementFromPoint(x, y); if (!inner || inner === h) break; h = inner; }
        return h && all.find(m => within(m, h));
      };
      const a = hit(0, 0), b = hit(Math.max(w.innerWidth - 1, 0), Math.max(w.innerHeight - 1, 0));
      if (a && a === b) top = a;
    }
    return (modal = { top, all });
  };
  return e => {
    const st = e.ownerDocument.defaultView.getComputedStyle(e);
    if (st.interactivity === 'inert') return true;
    if (st.interactivity === undefined) for (let p = e; p; p = flatParent(p)) if (p.hasAttribute('inert')) return true;
    const m = modals();
    if (!m) return false;
    return m.top ? !within(m.top, e) : !m.all.some(d => within(d, e));
  };
};
`

// jsLabelable defines, on top of jsDeep, HTML's labelable elements
// beyond the native form controls:
//   - faceOf(e): e is a form-associated custom element (its defined
//     class has formAssociated true), labelable as a form control is
//     (label.control returns it; a <label for> or a wrapping label
//     labels it);
//   - facesOf(doc, base, customs): the form-associated custom elements
//     of base's tree (an XPath over custom element names) and of customs
//     (census's custom elements of the open shadow trees).
const jsLabelable = `
const faceOf = e => {
  if (!e.localName.includes('-') || !e.matches(':defined')) return false;
  const reg = e.customElementRegistry || e.ownerDocument.defaultView.customElements;
  const k = reg && reg.get(e.localName);
  return !!(k && k.formAssociated);
};
const facesOf = (doc, base, customs) => {
  const out = [];
  const x = doc.evaluate('.//*[contains(local-name(), "-")]', base, null, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null);
  for (let i = 0; i < x.snapshotLength; i++) { const e = x.snapshotItem(i); if (faceOf(e)) out.push(e); }
  for (const e of customs) if (faceOf(e)) out.push(e);
  return out;
};
`

// jsFind runs with this = the scope's document and returns the matching
// elements for every strategy except role and label (jsRoleCandidates,
// jsLabel), in document order, open shadow roots included, or 'stale'
// when the document is no longer the frame's current one.
const jsFind = `function(strategy, value, exact, root) {
` + jsPrelude + jsDeep + `
  const doc = this;
  if (!doc.defaultView) return 'stale';
  if (root && (root.ownerDocument !== doc || !root.isConnected)) return 'detached';
  const base = root || doc;
  const want = norm(value), wantLower = want.toLowerCase();
  const matches = s => { const n = norm(s); return exact ? n === want : n.toLowerCase().includes(wantLower); };
  let out;
  if (strategy === 'css') {
    let sel = value.trim(), vis = false;
    if (sel.endsWith(':visible')) { sel = sel.slice(0, -8).trim() || '*'; vis = true; }
    out = deepCSS(doc, base, census(base, false).roots, sel);
    return vis ? out.filter(visible) : out;
  }
  const everything = strategy === 'text' ? base.querySelectorAll('*') : null;
  const { roots } = census(base, false, everything);
  const composed = roots.length ? composedSet(roots) : new Set();
  const text = makeText(composed);
  switch (strategy) {
  case 'test_id':
    out = deepQuery(base, roots, '[data-testid]').filter(e => e.getAttribute('data-testid') === value);
    break;
  case 'placeholder':
    out = deepQuery(base, roots, '[placeholder]').filter(e => matches(e.getAttribute('placeholder')));
    break;
  case 'text': {
    // The smallest elements whose rendered text matches. Text inside open
    // shadow roots counts where it renders; a slotted node is a candidate
    // once, as itself, and its slot's ancestors count its text.
    const skip = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'HEAD', 'TITLE', 'META', 'LINK', 'HTML', 'BODY']);
    const cands = [], wantCompact = wantLower.replace(/\s+/g, '');
    let all = everything;
    if (roots.length) { all = Array.from(all); for (const r of roots) for (const e of r.querySelectorAll('*')) all.push(e); }
    for (const e of all) {
      if (skip.has(e.tagName)) continue;
      if (!composed.size || !composed.has(e)) {
        const tc = e.textContent;
        if (!tc || !tc.replace(/\s+/g, '').toLowerCase().includes(wantCompact)) continue;
      } else if (e.localName === 'slot' && !visible(e)) continue; // a slot renders its nodes in its parent's box
      if (matches(text(e))) cands.push(e);
    }
    const hasMatchingChild = new Set();
    const parentOf = roots.length ? flatParent : (e => e.parentElement);
    for (const c of cands) { for (let p = parentOf(c); p && p !== base; p = parentOf(p)) { if (hasMatchingChild.has(p)) break; hasMatchingChild.add(p); } }
    out = cands.filter(c => !hasMatchingChild.has(c));
    break;
  }
  default:
    throw new Error('unknown strategy ' + strategy);
  }
  return inOrder(roots, out.filter(visible));
}`

// jsFilter runs with this = the scope's document on elements found through
// the accessibility tree: it keeps those of this document, inside root
// (descendants only, shadow trees included), and visible, and returns
// their indexes in document order. It returns 'stale' when the document
// is stale.
const jsFilter = `function(root, ...els) {
` + jsPrelude + jsDeep + `
  const doc = this;
  if (!doc.defaultView) return 'stale';
  const keep = [];
  els.forEach((e, i) => {
    if (!e || e.ownerDocument !== doc || inClosed(e) || !visible(e)) return;
    if (root && (root === e || !deepContains(root, e))) return;
    keep.push([e, i]);
  });
  keep.sort((a, b) => docOrder(a[0], b[0]));
  return keep.map(x => x[1]);
}`

// jsDocument returns the document of this (the scope's document object),
// its URL, readiness and origin.
const jsDocInfo = `function() {
  const w = this.defaultView;
  return { live: !!w, url: this.URL, ready: this.readyState, origin: w ? w.location.origin : 'null' };
}`

// jsFrameOwner runs with this = the parent document and resolves a frame
// selector: it returns the single iframe, or a count.
const jsFrameOwner = `function(sel) {
  const els = this.querySelectorAll(sel);
  if (els.length !== 1) return els.length;
  const el = els[0];
  if (el.tagName !== 'IFRAME' && el.tagName !== 'FRAME') return -1;
  return el;
}`

// jsNativeSet sets a form control's value through the prototype's own
// setter (HTMLInputElement's or HTMLTextAreaElement's, of the element's
// realm), not a setter a framework defined on the element itself: React's
// value tracker would take a value set through its own setter for one the
// page already knows and drop the input event that follows.
const jsNativeSet = `
const nativeSet = (el, v) => {
  const w = el.ownerDocument.defaultView;
  const proto = el.tagName === 'TEXTAREA' ? w.HTMLTextAreaElement.prototype : w.HTMLInputElement.prototype;
  Object.getOwnPropertyDescriptor(proto, 'value').set.call(el, v);
};
`

// jsFillCheck defines what a fill needs to tell whether the page refused
// it:
//   - tick(el): resolves after one timer of 0 ms set now on el's window,
//     so a restore the page queued when the text went in (in an input or
//     change handler, a microtask after it, or a 0 ms timer it set then:
//     timers with an equal delay run in the order they were set) has run
//     before the value is read back. In a hidden document (a connected
//     browser's background tab, whose timers run at most once a second)
//     it resolves after one message task instead: microtasks have run,
//     the page's own 0 ms timers may not have;
//   - refused(now, old, want): the field holds exactly the value before
//     (old) and the value asked for (want) differs from it in its letters
//     or digits. A value that differs only in case, spacing or
//     punctuation is not told from one the page reformatted back to the
//     value it had (a mask, upper case, separators, trimming), so it is
//     not refused.
const jsFillCheck = `
const tick = el => new Promise(r => {
  const doc = el.ownerDocument, w = doc.defaultView;
  if (doc.visibilityState !== 'hidden') { w.setTimeout(r, 0); return; }
  const c = new w.MessageChannel(); c.port1.onmessage = () => { c.port1.close(); r(); }; c.port2.postMessage(0);
});
const fillKey = s => s.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
const refused = (now, old, want) => now === old && fillKey(want) !== fillKey(old);
`

// jsPrepareFill prepares a fill and returns {mode, old, want}:
//   - "set": done. A date-like, range or color input gets its value set
//     directly (as Playwright does) with input and change; a value the
//     control would sanitise to something else is refused first, on a
//     detached copy, before the field is touched (as is a number input's).
//     A textarea filled with "" is emptied the same way. After the page's
//     reaction (jsFillCheck's tick), refused says whether the page
//     refused the value (jsFillCheck's refused).
//   - "typed": an <input> is focused and its content selected (old is
//     its value, want the value asked for); the text is to be typed now,
//     and jsFinishFill called.
//   - "primed": a <textarea> is focused, its value set (the prototype's
//     setter, no event) to the text the typing will leave (want), and
//     selected; old is the value before. Chromium fires a change on blur
//     when the value differs from the one before the first edit since the
//     last change: an edit that starts from the value it leaves records
//     none, so the later blur fires no second change. A text that
//     maxlength cuts back to the old value is refused untouched.
//   - "unfocused": an <input> or <textarea> did not take the focus (it
//     is inert); nothing was changed but the focus attempt.
//   - "editable": a contenteditable element is focused and its content
//     selected (old is its innerText); the text is to be typed now, and
//     jsFinishFill called (it fires no change: the browser fires none for
//     one).
const jsPrepareFill = `async function(value) {
` + jsNativeSet + jsFillCheck + `
  const el = this;
  const direct = new Set(['date', 'time', 'datetime-local', 'month', 'week', 'range', 'color']);
  if (el.tagName === 'INPUT' && (direct.has(el.type) || el.type === 'number')) {
    const c = el.cloneNode(false);
    c.value = value;
    if (c.value !== value) throw new Error('malformed value for input type ' + el.type);
  }
  // A text field that does not take focus (inert: an inert ancestor, a
  // modal dialog elsewhere) is not filled: the text would go to
  // whatever has the focus.
  const unfocused = () => el.getRootNode().activeElement !== el;
  if (el.tagName === 'INPUT' && direct.has(el.type)) {
    const old = el.value;
    el.focus();
    if (unfocused()) return {mode: 'unfocused'};
    nativeSet(el, value);
    el.dispatchEvent(new Event('input', {bubbles: true, composed: true}));
    el.dispatchEvent(new Event('change', {bubbles: true}));
    await tick(el);
    return {mode: 'set', refused: refused(el.value, old, value)};
  }
  el.focus();
  if ((el.tagName === 'INPUT' || el.tagName === 'TEXTAREA') && unfocused()) return {mode: 'unfocused'};
  if (el.tagName === 'INPUT') {
    const old = el.value;
    el.select();
    return {mode: 'typed', old, want: value};
  }
  if (el.tagName === 'TEXTAREA') {
    const old = el.value;
    let v = value.replace(/\r\n?/g, '\n');
    if (el.maxLength >= 0 && v.length > el.maxLength) {
      v = v.slice(0, el.maxLength);
      const last = v.charCodeAt(v.length - 1);
      if (last >= 0xD800 && last <= 0xDBFF) v = v.slice(0, -1);
      if (v === old) return {mode: 'set', refused: refused(v, old, value)};
    }
    if (v === '') {
      nativeSet(el, '');
      el.dispatchEvent(new InputEvent('input', {bubbles: true, composed: true, inputType: 'deleteContentBackward'}));
      el.dispatchEvent(new Event('change', {bubbles: true}));
      await tick(el);
      return {mode: 'set', refused: refused(el.value, old, value)};
    }
    nativeSet(el, v); el.select();
    return {mode: 'primed', old, want: v};
  }
  const old = el.innerText;
  const r = el.ownerDocument.createRange(); r.selectNodeContents(el);
  const s = el.ownerDocument.defaultView.getSelection(); s.removeAllRanges(); s.addRange(r);
  return {mode: 'editable', old, want: value};
}`

// jsFinishFill follows the typing of a "typed", "primed" or "editable"
// fill, waits for the page's reaction (jsFillCheck's tick) and, unless
// the page refused the fill, fires its one change event (none for a
// contenteditable element), at once, so that a page that acts on change
// has acted before the next step. It returns {refused}.
//   - typed (an <input>): Chromium recorded the value before the first
//     edit and would fire its own change again on the next blur (or Enter)
//     because the value differs from it; changing the input's type clears
//     that record (HTMLInputElement::UpdateType), so the type is switched
//     to another text type and back, the attribute restored as it was.
//   - primed (a <textarea>): when the typing did not land (the page
//     cancelled it: the whole text is still selected), the value before
//     the fill is put back.
//
// A fill the page refused (jsFillCheck's refused: for a contenteditable
// element its innerText is compared) fires no change: nothing changed. A
// value the page reformatted (a mask, upper case, separators, trimming, a
// maxlength cut) changed and is not refused.
const jsFinishFill = `async function(mode, old, want) {
` + jsNativeSet + jsFillCheck + `
  const el = this;
  if (mode === 'typed' && el.tagName === 'INPUT') {
    const t = el.getAttribute('type');
    el.type = el.type === 'text' ? 'search' : 'text';
    if (t === null) el.removeAttribute('type'); else el.setAttribute('type', t);
  }
  if (mode === 'primed' && el.value.length > 0 && el.selectionStart === 0 && el.selectionEnd === el.value.length) nativeSet(el, old);
  await tick(el);
  if (refused(mode === 'editable' ? el.innerText : el.value, old, want)) return {refused: true};
  // A field the page may search from as the user types, after a
  // debounce (see Driver.fill): one that suggests (a combobox, an
  // autocomplete list, a datalist), or a search field with no submit
  // button in its form (nothing else can start its search).
  const role = (el.getAttribute('role') || '').trim().toLowerCase().split(/\s+/)[0];
  const suggests = role === 'combobox' || (el.tagName === 'INPUT' && el.hasAttribute('list')) ||
    /^(list|both)$/.test((el.getAttribute('aria-autocomplete') || '').trim());
  const submits = f => !!f && !!f.querySelector('button:not([type]), button[type=submit], input[type=submit], input[type=image]');
  const search = suggests || ((el.getAttribute('type') === 'search' || role === 'searchbox') && !submits(el.form));
  if (mode === 'editable') return {refused: false, search};
  el.dispatchEvent(new Event('change', {bubbles: true}));
  return {refused: false, search};
}`

// jsSelect chooses an option of a <select> by value, then by label, and
// fires input and change. It returns 1 when chosen, 0 when no option
// matches (yet), -1 when this is not a <select>, -2 for a disabled option.
const jsSelect = `function(v) {
  const norm = s => (s == null ? '' : String(s)).replace(/\s+/g, ' ').trim();
  if (this.tagName !== 'SELECT') return -1;
  const opts = Array.from(this.options);
  const o = opts.find(o => o.value === v) || opts.find(o => norm(o.label) === norm(v));
  if (!o) return 0;
  if (o.disabled) return -2;
  o.selected = true;
  this.dispatchEvent(new Event('input', {bubbles: true, composed: true}));
  this.dispatchEvent(new Event('change', {bubbles: true}));
  return 1;
}`

// jsRead reads text, value or an attribute. It returns null for a value
// read on an element without one, and {stale:true} for a detached one.
// Text is the rendered text: innerText, composed along the flat tree when
// the element hosts open shadow roots or renders slotted content.
const jsRead = `function(kind, name) {
` + jsPrelude + jsDeep + `
  if (!this.isConnected) return {stale: true};
  switch (kind) {
  case 'text': {
    const roots = census(this, false).roots;
    const composed = composedSet(roots);
    for (const s of this.querySelectorAll('slot')) for (let p = s; p && !composed.has(p); p = flatParent(p)) composed.add(p);
    if (this.localName === 'slot') composed.add(this);
    return {v: norm(makeText(composed)(this))};
  }
  case 'value': {
    const t = this.tagName;
    if (t === 'INPUT' || t === 'TEXTAREA' || t === 'SELECT' || t === 'OPTION' || t === 'BUTTON' || t === 'OUTPUT' || t === 'METER' || t === 'PROGRESS' || t === 'LI' || t === 'DATA' || t === 'PARAM')
      return {v: String(this.value)};
    return {none: true};
  }
  case 'attribute': { const a = this.getAttribute(name); return {v: a == null ? '' : a}; }
  }
  return {none: true};
}`

// jsVisible reports visibility; detached elements are not visible.
const jsVisible = `function() {
` + jsPrelude + `
  return visible(this);
}`

// jsRoleCandidates runs with this = the scope's document and returns, in
// document order, the visible elements that may have the role and whose
// name may match: a superset the browser's accessibility tree then
// decides on, node by node. It returns null when the role is not in its
// table or there are more than limit candidates (with decide: more than
// limit of which the page leaves one undecided, or more than 64 times
// limit); the driver then asks the whole accessibility tree instead. With
// decide it returns, instead of the elements, the flat verdicts of
// jsRoleVerdicts (rolefast.go) about them: a role and name only where the
// page's answer is certain.
const jsRoleCandidates = `function(role, name, exact, root, limit, decide) {
` + jsPrelude + jsDeep + jsRoleVerdicts + `
  const doc = this;
  if (!doc.defaultView) return 'stale';
  if (root && (root.ownerDocument !== doc || !root.isConnected)) return 'detached';
  const base = root || doc;
  const implicit = {
    button: 'button,input[type=button i],input[type=submit i],input[type=reset i],input[type=image i],summary',
    link: 'a[href],area[href]',
    textbox: 'input,textarea,[contenteditable]',
    searchbox: 'input',
    combobox: 'select,input',
    listbox: 'select,datalist',
    option: 'option',
    checkbox: 'input[type=checkbox i]',
    switch: 'input[type=checkbox i]',
    radio: 'input[type=radio i]',
    slider: 'input[type=range i]',
    spinbutton: 'input',
    heading: 'h1,h2,h3,h4,h5,h6,hgroup',
    img: 'img,svg,area,input[type=image i],canvas,object,embed',
    image: 'img,svg,area,input[type=image i],canvas,object,embed',
    list: 'ul,ol,menu',
    listitem: 'li',
    table: 'table', grid: 'table', treegrid: 'table',
    row: 'tr', rowgroup: 'thead,tbody,tfoot', caption: 'caption',
    cell: 'td,th', gridcell: 'td,th', columnheader: 'th,td', rowheader: 'th,td',
    main: 'main', navigation: 'nav', banner: 'header', contentinfo: 'footer',
    complementary: 'aside', region: 'section', form: 'form', search: 'search,form', article: 'article',
    dialog: 'dialog', alertdialog: 'dialog', status: 'output', group: 'fieldset,details,optgroup,address,hgroup',
    progressbar: 'progress', meter: 'meter', separator: 'hr', paragraph: 'p', figure: 'figure',
    term: 'dt,dfn', definition: 'dd', blockquote: 'blockquote', code: 'code', emphasis: 'em',
    strong: 'strong', deletion: 'del,s', insertion: 'ins', subscript: 'sub', superscript: 'sup',
    time: 'time', mark: 'mark', math: 'math',
    alert: '', tab: '', tabpanel: '', tablist: '', menu: '', menubar: '', menuitem: '',
    menuitemcheckbox: '', menuitemradio: '', tree: '', treeitem: '', tooltip: '', log: '',
    marquee: '', timer: '', toolbar: '', feed: '', note: '', radiogroup: '', scrollbar: '',
  };
  if (!(role in implicit)) return null;
  // The open shadow roots' elements are candidates too; custom elements
  // (of every tree) may take a role from ElementInternals.
  const { roots, customs } = census(base, true);
  const set = new Set();
  for (const sc of [base, ...roots]) {
    if (implicit[role]) for (const e of sc.querySelectorAll(implicit[role])) set.add(e);
    // Role tokens match case-insensitively in Chromium (role="Button").
    for (const e of sc.querySelectorAll('[role]')) if (e.getAttribute('role').trim().toLowerCase().split(/\s+/).includes(role)) set.add(e);
  }
  const custom = doc.evaluate('.//*[contains(local-name(), "-")]', base, null, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null);
  for (let i = 0; i < custom.snapshotLength; i++) set.add(custom.snapshotItem(i));
  for (const e of customs) set.add(e);
  set.delete(root);
  // Elements whose rendered content differs from their light DOM (hosts,
  // slots and their flat-tree ancestors) may take a name from it.
  const composed = roots.length ? composedSet(roots) : null;
  const wantCompact = norm(name).toLowerCase().replace(/\s+/g, '');
  // Whether any style sheet may generate ::before/::after content (which
  // can contribute to a name); unreadable sheets count as "may".
  let gen;
  const generated = () => {
    if (gen !== undefined) return gen;
    const scan = rules => {
      for (const r of rules) {
        if (r.cssRules && scan(r.cssRules)) return true;
        if (r.selectorText && /:(before|after)/i.test(r.selectorText) && r.style && r.style.content && r.style.content !== 'none' && r.style.content !== 'normal') return true;
      }
      return false;
    };
    gen = false;
    try {
      const sheets = [...doc.styleSheets, ...(doc.adoptedStyleSheets || [])];
      for (const r of roots) sheets.push(...r.styleSheets, ...(r.adoptedStyleSheets || []));
      for (const sh of sheets) {
        let rules;
        try { rules = sh.cssRules; } catch (e) { gen = true; break; }
        if (scan(rules)) { gen = true; break; }
      }
    } catch (e) { gen = true; }
    return gen;
  };
  const labels = labelsOf([base.getRootNode(), ...roots]);
  const authorNamed = new Set(['button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem', 'menuitemcheckbox',
    'menuitemradio', 'option', 'treeitem', 'heading', 'textbox', 'searchbox', 'combobox', 'listbox', 'slider',
    'spinbutton', 'img', 'image', 'dialog', 'alertdialog']);
  const mayBeNamed = el => {
    if (el.shadowRoot || el.hasAttribute('aria-labelledby') || el.localName.includes('-')) return true;
    if (composed && composed.has(el)) return true;
    // An element of a widget role with a non-blank aria-label is named by
    // it whatever its content (an icon button's svg).
    const al = el.getAttribute('aria-label');
    if (authorNamed.has(role) && al != null && norm(al)) return al.replace(/\s+/g, '').toLowerCase().includes(wantCompact);
    if (el.querySelector('img,svg,canvas,object,embed,input,select,textarea,[aria-label],[aria-labelledby],[title],[alt]')) return true;
    const parts = [el.textContent, el.getAttribute('aria-label'), el.getAttribute('title'), el.getAttribute('alt'),
      el.getAttribute('placeholder'), el.getAttribute('aria-placeholder'), el.getAttribute('value'), typeof el.value === 'string' ? el.value : ''];
    for (const l of labels(el)) { if (composed && composed.has(l)) return true; parts.push(l.textContent); }
    if (parts.join('').replace(/\s+/g, '').toLowerCase().includes(wantCompact)) return true;
    if (!generated()) return false;
    const v = doc.defaultView;
    for (const pseudo of ['::before', '::after']) { const c = v.getComputedStyle(el, pseudo).content; if (c && c !== 'none' && c !== 'normal') return true; }
    return false;
  };
  let out = Array.from(set);
  // Few candidates: the browser judges every one. Many: narrow by name
  // first, only ever dropping elements that cannot carry the name.
  if (out.length > limit) {
    if (!wantCompact) return null;
    out = out.filter(mayBeNamed);
  }
  out = out.filter(visible);
  if (out.length > limit) {
    // Many candidates: answered here only when the page decides every
    // one (the driver then asks the browser about none); else, or past
    // 64 times the limit, by the whole accessibility tree.
    if (!decide || out.length > limit * 64) return null;
    out.sort(docOrder);
    const v = verdicts(doc, base, roots, labels, out);
    for (let i = 0; i < v.length; i += 4 + v[i + 3]) if (v[i + 1] === null) return null;
    return v;
  }
  out.sort(docOrder);
  return decide ? verdicts(doc, base, roots, labels, out) : out;
}`
