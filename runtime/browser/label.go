package browser

import (
	"context"

	"github.com/go-rod/rod/lib/proto"
	"github.com/vera-run/vera/locator"
)

// findLabel answers a label candidate with jsLabel, which finds the
// elements of the label rule by starting from the labels rather than the
// controls: only the labels whose text may match are tied to their
// control. FindCounts counts label candidates with the same helper.
func (d *Driver) findLabel(ctx context.Context, sc *scope, doc, rootObj proto.RuntimeRemoteObjectID, c locator.Candidate) ([]*element, error) {
	return d.findElements(ctx, sc, doc, helperLabel, val(c.Value()), val(c.Exact), obj(rootObj))
}

// jsLabel runs with this = the scope's document and returns, in document
// order, the visible elements that are not inert (jsInert) the label
// strategy matches: exactly those of the reference kept in the tests,
// jsFindLabelRef, that TestLabelFastSameAnswer and
// TestLabelCountsSameAnswer compare Find and FindCounts with: labelable
// elements (form controls, form-associated custom elements: jsLabelable)
// and elements with aria-label or aria-labelledby whose <label> text,
// labelledby text or aria-label matches; a shadow-tree <label> a
// labelable element is slotted into. It returns 'stale' or 'detached' as
// jsFind.
//
// That case asks every candidate control for its labels, through a map of
// every label of the scope to its label.control, and so reads all 6,000
// labels and 8,000 controls of a 10,000-control page (interpreted JS per
// node on a fresh document; the page objects it creates are most of the
// cost). jsLabel turns it round:
//   - Every label of the trees jsFindLabelRef maps (the scope's tree and its open
//     shadow roots) is read once, and those that cannot match by jsFindLabelRef's
//     skip rule are dropped before their control is asked for: a label
//     without element children whose textContent is ASCII renders that
//     text give or take whitespace and an ASCII case transform, so when
//     the text, whitespace removed and lowercased, lacks the wanted text
//     (ASCII, whitespace removed, lowercased) it cannot match.
//   - label.control is read only for the remaining labels; a control
//     counts when it is inside the scope (label.control is HTML's
//     labelable element: never a hidden input, and a form-associated
//     custom element as much as a native control).
//   - aria-labelledby and aria-label are read from the elements that carry
//     them; the slotted-label rule runs, as in jsFindLabelRef, over every
//     candidate when there are open shadow roots.
//   - Only the matches are asked whether they are visible and inert (the
//     modal dialogs are looked for once, on the first match asked).
const jsLabel = `function(value, exact, root) {
` + jsPrelude + jsDeep + jsLabelable + jsInert + `
  const doc = this;
  if (!doc.defaultView) return 'stale';
  if (root && (root.ownerDocument !== doc || !root.isConnected)) return 'detached';
  const base = root || doc;
  const want = norm(value), wantLower = want.toLowerCase();
  const matches = s => { const n = norm(s); return exact ? n === want : n.toLowerCase().includes(wantLower); };
  const { roots, customs } = census(base, true);
  const composed = roots.length ? composedSet(roots) : new Set();
  const text = makeText(composed);
  const rendered = l => composed.size && composed.has(l) ? text(l) : (l.innerText || l.textContent);
  const ascii = /^[\x00-\x7f]*$/, wantAscii = ascii.test(want), wantFold = wantLower.replace(/\s+/g, '');
  // cannot is jsFindLabelRef's skip rule: true when l's rendered text certainly
  // does not contain the wanted one. Plain is "no element child" here
  // (jsFindLabelRef: text children only): comments and processing instructions
  // render nothing and are not in textContent, and not reading childNodes
  // spares a text node object per label.
  // An ASCII text lacking one of wantFold's characters in both cases
  // lacks wantFold once folded; indexOf on the text allocates nothing.
  const need = Array.from(new Set(wantFold), c => [c, c.toUpperCase()]);
  const cannot = l => {
    if (!wantAscii || l.firstElementChild || (composed.size && composed.has(l))) return false;
    const tc = l.textContent;
    if (!ascii.test(tc)) return false;
    for (const [c, u] of need) if (tc.indexOf(c) < 0 && tc.indexOf(u) < 0) return true;
    return !tc.replace(/\s+/g, '').toLowerCase().includes(wantFold);
  };
  const labelText = l => cannot(l) ? '' : rendered(l);
  const candSel = 'input,textarea,select,button,meter,output,progress,[aria-labelledby],[aria-label]';
  const candidate = e => !(e.tagName === 'INPUT' && e.type === 'hidden') && (e.matches(candSel) || faceOf(e));
  const rootSet = new Set(roots);
  const inScope = e => {
    if (e === base) return false;
    const r = e.getRootNode();
    return rootSet.has(r) || (base.nodeType === 9 ? r === base : base.contains(e));
  };
  const found = new Set();
  // The labels of each tree (jsFindLabelRef's labelsOf trees) that may match.
  const trees = [base.getRootNode(), ...roots];
  for (const t of trees) {
    for (const l of t.querySelectorAll('label')) {
      if (cannot(l)) continue;
      // label.control is HTML's labelable element: a form control (not a
      // hidden input) or a form-associated custom element.
      const c = l.control;
      if (!c || found.has(c) || !inScope(c)) continue;
      if (matches(rendered(l))) found.add(c);
    }
  }
  for (const e of deepQuery(base, roots, '[aria-labelledby]')) {
    if (found.has(e) || !candidate(e)) continue;
    // IDs resolve in the element's own tree (document or shadow root).
    const tree = e.getRootNode();
    for (const id of e.getAttribute('aria-labelledby').split(/\s+/)) {
      const r = id && tree.getElementById && tree.getElementById(id);
      if (r && matches(labelText(r))) { found.add(e); break; }
    }
  }
  for (const e of deepQuery(base, roots, '[aria-label]')) {
    if (found.has(e) || !candidate(e)) continue;
    const al = e.getAttribute('aria-label');
    if (al && matches(al)) found.add(e);
  }
  if (roots.length) {
    // A control slotted into a <label> of a shadow tree.
    for (const e of [...deepQuery(base, roots, candSel), ...facesOf(doc, base, customs)]) {
      if (found.has(e) || !candidate(e)) continue;
      for (let p = e, crossed = false; p; p = flatParent(p)) {
        if (p.assignedSlot) crossed = true;
        if (crossed && p !== e && p.tagName === 'LABEL' && matches(labelText(p))) { found.add(e); break; }
      }
    }
  }
  const inert = inertOf(doc, base, roots);
  return Array.from(found).filter(e => visible(e) && !inert(e)).sort(docOrder);
}`
