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
  if (st.display === 'contents') { for (const c of el.children) if (visible(c)) return true; return false; }
  if (st.visibility !== 'visible') return false;
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.height > 0;
};
const docOrder = (a, b) => a === b ? 0 : (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1);
`

// jsFind runs with this = the scope's document and returns the matching
// elements for every strategy except role, or null when the document is
// no longer the frame's current one.
const jsFind = `function(strategy, value, exact, root) {
` + jsPrelude + `
  const doc = this;
  if (!doc.defaultView) return 'stale';
  if (root && (root.ownerDocument !== doc || !root.isConnected)) return 'detached';
  const base = root || doc;
  const want = norm(value), wantLower = want.toLowerCase();
  const matches = s => { const n = norm(s); return exact ? n === want : n.toLowerCase().includes(wantLower); };
  let out;
  switch (strategy) {
  case 'css': {
    let sel = value.trim(), vis = false;
    if (sel.endsWith(':visible')) { sel = sel.slice(0, -8).trim() || '*'; vis = true; }
    out = Array.from(base.querySelectorAll(sel));
    return vis ? out.filter(visible) : out;
  }
  case 'test_id':
    out = Array.from(base.querySelectorAll('[data-testid]')).filter(e => e.getAttribute('data-testid') === value);
    break;
  case 'placeholder':
    out = Array.from(base.querySelectorAll('[placeholder]')).filter(e => matches(e.getAttribute('placeholder')));
    break;
  case 'label': {
    const texts = el => {
      const t = [];
      if (el.labels) for (const l of el.labels) t.push(l.innerText || l.textContent);
      const ids = el.getAttribute('aria-labelledby');
      if (ids) for (const id of ids.split(/\s+/)) { const r = id && doc.getElementById(id); if (r) t.push(r.innerText || r.textContent); }
      const al = el.getAttribute('aria-label');
      if (al) t.push(al);
      return t;
    };
    out = Array.from(base.querySelectorAll('input,textarea,select,button,meter,output,progress,[aria-labelledby],[aria-label]'))
      .filter(e => !(e.tagName === 'INPUT' && e.type === 'hidden') && texts(e).some(matches));
    break;
  }
  case 'text': {
    const skip = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'HEAD', 'TITLE', 'META', 'LINK', 'HTML', 'BODY']);
    const cands = [], wantCompact = wantLower.replace(/\s+/g, '');
    for (const e of base.querySelectorAll('*')) {
      if (skip.has(e.tagName)) continue;
      const tc = e.textContent;
      if (!tc || !tc.replace(/\s+/g, '').toLowerCase().includes(wantCompact)) continue;
      if (matches(e.innerText)) cands.push(e);
    }
    const hasMatchingChild = new Set();
    for (const c of cands) { for (let p = c.parentElement; p && p !== base; p = p.parentElement) { if (hasMatchingChild.has(p)) break; hasMatchingChild.add(p); } }
    out = cands.filter(c => !hasMatchingChild.has(c));
    break;
  }
  default:
    throw new Error('unknown strategy ' + strategy);
  }
  return out.filter(visible);
}`

// jsFilter runs with this = the scope's document on elements found through
// the accessibility tree: it keeps those of this document, inside root
// (descendants only), and visible, and returns their indexes in document
// order. It returns null when the document is stale.
const jsFilter = `function(root, ...els) {
` + jsPrelude + `
  const doc = this;
  if (!doc.defaultView) return 'stale';
  const keep = [];
  els.forEach((e, i) => {
    if (!e || e.ownerDocument !== doc || !visible(e)) return;
    if (root && (root === e || !root.contains(e))) return;
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

// jsPrepareFill focuses the control and selects its content, or sets the
// value of a date-like input directly (as Playwright does). It returns
// 'typed' when text must now be typed, 'set' when done.
const jsPrepareFill = `function(value) {
  const el = this;
  const direct = new Set(['date', 'time', 'datetime-local', 'month', 'week']);
  if (el.tagName === 'INPUT' && direct.has(el.type)) {
    el.focus(); el.value = value;
    if (el.value !== value) throw new Error('malformed value for input type ' + el.type);
    el.dispatchEvent(new Event('input', {bubbles: true, composed: true}));
    el.dispatchEvent(new Event('change', {bubbles: true}));
    return 'set';
  }
  el.focus();
  if (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA') { el.select(); }
  else { const r = el.ownerDocument.createRange(); r.selectNodeContents(el); const s = el.ownerDocument.defaultView.getSelection(); s.removeAllRanges(); s.addRange(r); }
  return 'typed';
}`

// jsChange fires the change event a user's blur would.
const jsChange = `function() { this.dispatchEvent(new Event('change', {bubbles: true})); }`

// jsFocus focuses the element.
const jsFocus = `function() { this.focus(); }`

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
const jsRead = `function(kind, name) {
  const norm = s => (s == null ? '' : String(s)).replace(/\s+/g, ' ').trim();
  if (!this.isConnected) return {stale: true};
  switch (kind) {
  case 'text': return {v: norm(this.innerText !== undefined ? this.innerText : this.textContent)};
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
// table or there are more than limit candidates; the driver then asks the
// whole accessibility tree instead. It never decides a role or a name.
const jsRoleCandidates = `function(role, name, exact, root, limit) {
` + jsPrelude + `
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
  const set = new Set();
  if (implicit[role]) for (const e of base.querySelectorAll(implicit[role])) set.add(e);
  for (const e of base.querySelectorAll('[role]')) if (e.getAttribute('role').trim().split(/\s+/).includes(role)) set.add(e);
  // Custom elements may take a role from ElementInternals.
  const custom = doc.evaluate('.//*[contains(local-name(), "-")]', base, null, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null);
  for (let i = 0; i < custom.snapshotLength; i++) set.add(custom.snapshotItem(i));
  set.delete(root);
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
      for (const sh of [...doc.styleSheets, ...(doc.adoptedStyleSheets || [])]) {
        let rules;
        try { rules = sh.cssRules; } catch (e) { gen = true; break; }
        if (scan(rules)) { gen = true; break; }
      }
    } catch (e) { gen = true; }
    return gen;
  };
  const mayBeNamed = el => {
    if (el.shadowRoot || el.hasAttribute('aria-labelledby') || el.localName.includes('-')) return true;
    if (el.querySelector('img,svg,canvas,object,embed,input,select,textarea,[aria-label],[aria-labelledby],[title],[alt]')) return true;
    const parts = [el.textContent, el.getAttribute('aria-label'), el.getAttribute('title'), el.getAttribute('alt'),
      el.getAttribute('placeholder'), el.getAttribute('aria-placeholder'), el.getAttribute('value'), typeof el.value === 'string' ? el.value : ''];
    if (el.labels) for (const l of el.labels) parts.push(l.textContent);
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
  if (out.length > limit) return null;
  out.sort(docOrder);
  return out;
}`
