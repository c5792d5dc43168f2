package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/go-rod/rod/lib/proto"
)

// The certain-role fast path of findRole. The first accessibility call on
// a document makes Chromium build the whole accessibility tree (100 to
// 350 ms on 10,000 elements, 3.5 to 8 s on 10,000 form controls, even for
// one node), so a role lookup whose candidates the page can judge with
// certainty skips it. The page-side judge (jsRoleVerdicts) gives a role
// and a name only for an element whose answer cannot differ from
// Chromium's:
//
//   - a native <button> (type absent, button, submit or reset), an
//     <a href>, an <h1> to <h6> (heading), or an <input
//     type=button|submit|reset value=...>, in the HTML namespace, in the
//     document's own tree (not in a shadow tree, not slotted, not a
//     host), without role, aria-* or any attribute outside a short list
//     that changes neither role nor name;
//   - or a form field whose type decides its role: an <input> of type
//     absent, text, email, tel or url (textbox), search (searchbox),
//     number (spinbutton), checkbox or radio, a <textarea> (textbox) or
//     a <select> without multiple or size (combobox), with the same
//     short list of attributes plus the field's own that change neither
//     role nor name (placeholder, required, readonly, checked, min,
//     maxlength and the like; not list, which makes a combobox, nor
//     switch); its name is its one <label>'s (label.control), a label
//     in the document's tree with text and comment children only, no
//     attribute but id, class, style, for, form, data-* and event
//     handlers, rendered (not display none or contents, visibility
//     visible), and passing the text, style and ancestor checks below as
//     the element does;
//   - or a <td> (cell) of a data table: its <tr> is a child of the
//     <table> or of its tbody, thead or tfoot, each laid out as a table
//     part (display table-cell, table-row, table-*-group, table or
//     inline-table), the table has a caption, a thead or a tfoot (else
//     Chromium may take it for a layout table, whose cells are
//     LayoutTableCell), with the short list plus colspan and rowspan;
//   - or a <div>, <span>, <li> or <a> whose role attribute is exactly
//     one lower-case token of button, link, checkbox, radio, switch,
//     tab, menuitem, menuitemcheckbox, menuitemradio, option (its parent
//     element's role is listbox: elsewhere Chromium makes it generic),
//     treeitem (its parent's role is tree, likewise) or heading, with
//     the short list plus role, aria-label and ARIA states that change
//     neither role nor name (aria-checked, -selected, -pressed,
//     -haspopup, -expanded, -controls, -disabled, -level, -posinset,
//     -setsize: Chromium's toggle and pop-up buttons report role button
//     too); named by its aria-label when that is not blank
//     (whatever its content: an icon button's svg), else by its own
//     text as below;
//   - whose name comes from its own text nodes only (or an input
//     button's value attribute, a field's label, or an explicit role's
//     aria-label, under which any content goes): no child element,
//     no text-transform on it or its ::first-letter/::first-line, no CSS
//     generated content (::before, ::after, content on the element), no
//     list marker, no hyphenation, no <label> of it (but a field's one),
//     a non-empty text of at most 1,000 characters with no whitespace
//     but ASCII space, tab, line feed, form feed and carriage return and
//     no control, format, private-use, unassigned or surrogate code
//     point;
//   - that cannot be ignored: neither it nor an ancestor has aria-hidden,
//     inert, hidden, contenteditable, an interactivity of inert, and no
//     ancestor has a role (but exactly one of the containers tablist,
//     menu, menubar, listbox, tree, group, radiogroup and toolbar, which
//     own widgets without changing their role or name), is a custom
//     element, a shadow host, or an
//     element whose descendants Chromium treats apart (a, button, label,
//     select, summary, details, canvas, object, media, iframe, template,
//     noscript, slot, non-HTML namespaces);
//   - in a document without aria-owns (which reparents), without an open
//     modal dialog in its tree or its open shadow roots, and whose
//     viewport corners do not both hit one element other than the root
//     and body (a modal dialog inside a closed shadow root, which no page
//     script can see, makes every point hit its host).
//
// Every other candidate gets the browser's answer
// (Accessibility.getPartialAXTree), as before. A closed shadow root can
// also slot an ancestor of the element under an aria-hidden wrapper:
// page scripts cannot see that, DOM.describeNode can (assignedSlot), so
// before a page-side match is believed the driver describes every
// element of its ancestor chain whose parent may host a shadow root (and
// of a field's label and its chain) and falls back to the browser's
// answer when one is slotted.
//
// The comparison of the name with the candidate's (nameMatches) is the
// one the accessibility path uses, in Go, so both paths apply the same
// normalisation and case folding. TestRoleFastDifferential checks, in
// Chromium, that every verdict the judge gives equals getPartialAXTree's
// over a corpus of varied elements.
const jsRoleVerdicts = `
// verdicts returns, for each element of els, a record of the flat
// result: el, role (or null), name (or null), k, then k elements of its
// ancestor chain the driver must describe (their parent may host a
// closed shadow root that slots them). A chain element already in the
// result is given as the number of its first position instead, so the
// driver describes each node once however many chains share it.
const verdicts = (doc, base, roots, labels, els) => {
  const out = [];
  const at = new Map();
  const undecided = el => { out.push(el, null, null, 0); };
  const view = doc.defaultView;
  // Document-wide conditions.
  let gate = true;
  const trees = [doc, ...roots];
  for (const t of trees) if (t.querySelector('[aria-owns],:modal')) { gate = false; break; }
  if (gate && base !== doc) {
    // A scoped lookup: shadow roots outside the scope count too.
    for (const r of census(doc, false).roots) if (r.querySelector('[aria-owns],:modal')) { gate = false; break; }
  }
  if (gate) {
    const w = view.innerWidth, h = view.innerHeight;
    const a = doc.elementFromPoint(1, 1), b = doc.elementFromPoint(Math.max(w - 2, 0), Math.max(h - 2, 0));
    if (a && a === b && a !== doc.documentElement && a !== doc.body) gate = false;
  }
  const XHTML = 'http://www.w3.org/1999/xhtml';
  const okAttr = /^(id|class|style|type|name|value|disabled|tabindex|form|href|target|rel|download|hreflang|referrerpolicy|ping|autofocus|data-[^\s]*|on[a-z]+)$/;
  const apart = new Set(['a', 'area', 'button', 'label', 'select', 'datalist', 'option', 'optgroup', 'summary', 'details',
    'canvas', 'object', 'embed', 'iframe', 'video', 'audio', 'picture', 'map', 'template', 'noscript', 'slot', 'svg', 'math']);
  const hostable = new Set(['article', 'aside', 'blockquote', 'body', 'div', 'footer', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
    'header', 'main', 'nav', 'p', 'section', 'span']);
  const badText = /[^\S \t\n\r\f]|[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Cs}\p{Zl}\p{Zp}]/u;
  const noContent = c => c === 'none' || c === 'normal';
  // The form controls whose role the element's type decides and whose
  // name, with no aria-* and no title, comes from its one <label>.
  const fieldRole = {'': 'textbox', text: 'textbox', email: 'textbox', tel: 'textbox', url: 'textbox',
    search: 'searchbox', number: 'spinbutton', checkbox: 'checkbox', radio: 'radio'};
  const fieldAttr = /^(placeholder|autocomplete|required|readonly|maxlength|minlength|pattern|size|inputmode|spellcheck|autocapitalize|enterkeyhint|checked|min|max|step|rows|cols|wrap)$/;
  const labelAttr = /^(id|class|style|for|form|data-[^\s]*|on[a-z]+)$/;
  // Explicit roles the page decides: named from their content or
  // aria-label, on a generic host, with ARIA states that change neither
  // role nor name (Chromium's toggle and pop-up buttons, aria-pressed
  // and aria-haspopup, still report role button).
  const ariaRoles = new Set(['button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem', 'menuitemcheckbox',
    'menuitemradio', 'option', 'treeitem', 'heading']);
  const ariaHosts = new Set(['div', 'span', 'li', 'a']);
  // Roles Chromium keeps only under their owner (else generic): the
  // parent element must carry the owner's role.
  const ownerRole = {option: 'listbox', treeitem: 'tree'};
  const ariaAttr = /^(role|aria-label|aria-checked|aria-selected|aria-pressed|aria-haspopup|aria-expanded|aria-controls|aria-disabled|aria-level|aria-posinset|aria-setsize)$/;
  // Ancestor roles that own such elements without changing their role or
  // name (no presentational children, no name from content).
  const containers = new Set(['tablist', 'menu', 'menubar', 'listbox', 'tree', 'group', 'radiogroup', 'toolbar']);
  // ownText returns the text of n's child nodes when they are text and
  // comments only, else null.
  const ownText = n => {
    let text = '';
    for (const k of n.childNodes) {
      if (k.nodeType === 3) text += k.data;
      else if (k.nodeType !== 8) return null;
    }
    return text;
  };
  // plainStyle: no style of e that changes the text Chromium names with
  // (or hides e).
  const plainStyle = e => {
    const st = view.getComputedStyle(e);
    if (st.textTransform !== 'none' || !noContent(st.content) || st.display === 'contents' || st.display === 'none' ||
      st.display.includes('list-item') || st.hyphens === 'auto' || st.interactivity === 'inert') return false;
    for (const p of ['::before', '::after']) if (!noContent(view.getComputedStyle(e, p).content)) return false;
    for (const p of ['::first-letter', '::first-line']) if (view.getComputedStyle(e, p).textTransform !== 'none') return false;
    return true;
  };
  // chain checks e and its ancestors (see the package doc) and adds to
  // check the ones whose parent may host a shadow root; false when one
  // fails.
  const chain = (e, check) => {
    for (let p = e; p; p = p.parentElement) {
      if (p.namespaceURI !== XHTML || p.assignedSlot || p.localName.includes('-')) return false;
      if (p.hasAttribute('aria-hidden') || p.hasAttribute('inert') || p.hasAttribute('hidden') || p.hasAttribute('contenteditable')) return false;
      if (p !== e && (apart.has(p.localName) || (p.hasAttribute('role') && !containers.has(p.getAttribute('role'))) || p.shadowRoot)) return false;
      const up = p.parentElement;
      if (p !== e && up && hostable.has(up.localName)) check.push(p);
    }
    return true;
  };
  const judge = el => {
    if (el.namespaceURI !== XHTML || el.getRootNode() !== doc) return null;
    let role, text = '', field = false, aria = false, cell = false;
    const type = (el.getAttribute('type') || '').toLowerCase();
    if (el.hasAttribute('role')) {
      // One lower-case token Chromium takes as is, on a generic host;
      // aria-label names it when not blank, else its own text.
      role = el.getAttribute('role');
      if (!ariaRoles.has(role) || !ariaHosts.has(el.localName)) return null;
      if (Object.hasOwn(ownerRole, role) && (!el.parentElement || el.parentElement.getAttribute('role') !== ownerRole[role])) return null;
      aria = true;
      const al = el.getAttribute('aria-label');
      if (al != null) {
        if (!norm(al)) return null;
        text = al;
      } else text = ownText(el);
    } else switch (el.localName) {
    case 'button':
      if (el.hasAttribute('type') && type !== 'button' && type !== 'submit' && type !== 'reset') return null;
      role = 'button';
      text = ownText(el);
      break;
    case 'a':
      if (!el.hasAttribute('href')) return null;
      role = 'link';
      text = ownText(el);
      break;
    case 'h1': case 'h2': case 'h3': case 'h4': case 'h5': case 'h6':
      role = 'heading';
      text = ownText(el);
      break;
    case 'input':
      if (type === 'button' || type === 'submit' || type === 'reset') {
        role = 'button';
        text = el.getAttribute('value');
        if (text == null || el.value !== text) return null;
        break;
      }
      if (!Object.hasOwn(fieldRole, type)) return null;
      role = fieldRole[type];
      field = true;
      break;
    case 'textarea':
      role = 'textbox';
      field = true;
      break;
    case 'td': {
      // A cell of a plain table, laid out as one: tr in table or in its
      // tbody, thead or tfoot, no role on any of them (the chain checks),
      // every display the table's own.
      const tr = el.parentElement, sec = tr && tr.parentElement;
      const table = sec && (sec.localName === 'table' ? sec : sec.parentElement);
      if (!tr || tr.localName !== 'tr' || !table || table.localName !== 'table' || table.namespaceURI !== XHTML) return null;
      if (sec !== table && !/^(tbody|thead|tfoot)$/.test(sec.localName)) return null;
      const shown = e => view.getComputedStyle(e).display;
      if (shown(el) !== 'table-cell' || shown(tr) !== 'table-row' || !/^(table|inline-table)$/.test(shown(table))) return null;
      if (sec !== table && !/^table-(row|header|footer)-group$/.test(shown(sec))) return null;
      // Chromium exposes a layout table's cells as LayoutTableCell; a
      // caption, thead or tfoot makes it a data table for certain.
      if (!table.caption && !table.tHead && !table.tFoot) return null;
      role = 'cell';
      text = ownText(el);
      cell = true;
      break;
    }
    case 'select':
      if (el.hasAttribute('multiple') || el.hasAttribute('size')) return null;
      role = 'combobox';
      field = true;
      break;
    default:
      return null;
    }
    for (const a of el.getAttributeNames())
      if (!okAttr.test(a) && !(field && fieldAttr.test(a)) && !(aria && ariaAttr.test(a)) && !(cell && /^(colspan|rowspan)$/.test(a))) return null;
    const check = [];
    if (field) {
      // Named by its one <label>, which holds text only (so not the
      // control itself), is rendered, and passes the element's checks.
      const ls = labels(el);
      if (ls.length !== 1) return null;
      const l = ls[0];
      if (l.namespaceURI !== XHTML || l.getRootNode() !== doc) return null;
      text = ownText(l);
      if (text == null) return null;
      for (const a of l.getAttributeNames()) if (!labelAttr.test(a)) return null;
      if (!plainStyle(l) || view.getComputedStyle(l).visibility !== 'visible' || !chain(l, check)) return null;
      if (l.parentElement && hostable.has(l.parentElement.localName)) check.push(l);
    } else if (text == null || labels(el).length) return null;
    if (text.length > 1000 || badText.test(text) || !norm(text)) return null;
    if (!plainStyle(el) || !chain(el, check)) return null;
    return { role, name: norm(text), check };
  };
  for (const el of els) {
    const v = gate ? judge(el) : null;
    if (!v) { undecided(el); continue; }
    out.push(el, v.role, v.name, v.check.length);
    for (const c of v.check) {
      if (at.has(c)) out.push(at.get(c));
      else { at.set(c, out.length); out.push(c); }
    }
  }
  return out;
};
`

// roleVerdict is the page-side judgement of one role candidate: certain
// (role and name known for sure) or not, and the ancestor chain to
// describe before a match is believed.
type roleVerdict struct {
	obj     proto.RuntimeRemoteObjectID
	certain bool
	role    string
	name    string
	check   []proto.RuntimeRemoteObjectID
}

// errVerdicts is a malformed jsRoleVerdicts result: a driver bug, never
// a page state.
var errVerdicts = fmt.Errorf("browser: malformed role verdicts")

// parseVerdicts decodes the flat array jsRoleVerdicts returns, given its
// elements by index (Runtime.getProperties of the array).
func parseVerdicts(items []*proto.RuntimeRemoteObject) ([]roleVerdict, error) {
	var out []roleVerdict
	str := func(o *proto.RuntimeRemoteObject) (string, bool, error) {
		if o == nil {
			return "", false, errVerdicts
		}
		if o.Type == "object" && o.Subtype == "null" {
			return "", false, nil
		}
		if o.Type != "string" {
			return "", false, errVerdicts
		}
		return o.Value.Str(), true, nil
	}
	for i := 0; i < len(items); {
		if i+4 > len(items) {
			return nil, errVerdicts
		}
		el := items[i]
		if el == nil || el.ObjectID == "" {
			return nil, errVerdicts
		}
		role, okRole, err := str(items[i+1])
		if err != nil {
			return nil, err
		}
		name, okName, err := str(items[i+2])
		if err != nil {
			return nil, err
		}
		kObj := items[i+3]
		if kObj == nil || kObj.Type != "number" {
			return nil, errVerdicts
		}
		k := kObj.Value.Int()
		if k < 0 || okRole != okName || (!okRole && k != 0) || i+4+k > len(items) {
			return nil, errVerdicts
		}
		v := roleVerdict{obj: el.ObjectID, certain: okRole, role: role, name: name}
		for j, c := range items[i+4 : i+4+k] {
			if c != nil && c.Type == "number" {
				// The node at an earlier position of the result.
				n := c.Value.Int()
				if float64(n) != c.Value.Num() || n < 0 || n >= i+4+j || items[n] == nil || items[n].ObjectID == "" {
					return nil, errVerdicts
				}
				c = items[n]
			}
			if c == nil || c.ObjectID == "" {
				return nil, errVerdicts
			}
			v.check = append(v.check, c.ObjectID)
		}
		out = append(out, v)
		i += 4 + k
	}
	return out, nil
}

// arrayItems returns the elements of a page array by index (nil where
// the array has a hole).
func (d *Driver) arrayItems(ctx context.Context, sid proto.TargetSessionID, arr remoteObject) ([]*proto.RuntimeRemoteObject, error) {
	if arr.Description == "Array(0)" {
		return nil, nil
	}
	var res proto.RuntimeGetPropertiesResult
	if err := d.call(ctx, sid, proto.RuntimeGetProperties{ObjectID: arr.ObjectID, OwnProperties: true}, &res); err != nil {
		return nil, err
	}
	n := -1
	for _, p := range res.Result {
		if p.Name == "length" && p.Value != nil {
			n = p.Value.Value.Int()
		}
	}
	if n < 0 {
		var l int
		if err := json.Unmarshal([]byte(strings.TrimPrefix(strings.TrimSuffix(arr.Description, ")"), "Array(")), &l); err != nil {
			return nil, errVerdicts
		}
		n = l
	}
	out := make([]*proto.RuntimeRemoteObject, n)
	for _, p := range res.Result {
		i, err := strconv.Atoi(p.Name)
		if err != nil || i < 0 || i >= n {
			continue
		}
		out[i] = p.Value
	}
	return out, nil
}

// nameMatches compares an accessible name with a candidate's
// (normalised) name: exact after whitespace normalisation, else a
// case-insensitive substring; an empty wanted name matches any.
func nameMatches(got, name string, exact bool) bool {
	if name == "" {
		return true
	}
	got = normalizeSpace(got)
	if exact {
		return got == name
	}
	return strings.Contains(strings.ToLower(got), strings.ToLower(name))
}

// describeAll describes each distinct object once (DOM.describeNode, at
// most 8 at a time) and returns the nodes by object.
func (d *Driver) describeAll(ctx context.Context, sid proto.TargetSessionID, objs []proto.RuntimeRemoteObjectID) (map[proto.RuntimeRemoteObjectID]*proto.DOMNode, error) {
	uniq := make([]proto.RuntimeRemoteObjectID, 0, len(objs))
	seen := make(map[proto.RuntimeRemoteObjectID]bool, len(objs))
	for _, o := range objs {
		if !seen[o] {
			seen[o] = true
			uniq = append(uniq, o)
		}
	}
	res := make([]proto.DOMDescribeNodeResult, len(uniq))
	errs := make([]error, len(uniq))
	sem := make(chan struct{}, 8)
	var wg sync.WaitGroup
	for i, o := range uniq {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			errs[i] = d.call(ctx, sid, proto.DOMDescribeNode{ObjectID: o}, &res[i])
		}()
	}
	wg.Wait()
	out := make(map[proto.RuntimeRemoteObjectID]*proto.DOMNode, len(uniq))
	for i, o := range uniq {
		if errs[i] != nil {
			return nil, errs[i]
		}
		if res[i].Node == nil {
			return nil, errVerdicts
		}
		out[o] = res[i].Node
	}
	return out, nil
}

// slottedIn is slotted over nodes describeAll gave.
func slottedIn(nodes map[proto.RuntimeRemoteObjectID]*proto.DOMNode, first proto.RuntimeRemoteObjectID, chain []proto.RuntimeRemoteObjectID) (bool, proto.DOMBackendNodeID) {
	if nodes[first].AssignedSlot != nil {
		return true, 0
	}
	for _, o := range chain {
		if nodes[o].AssignedSlot != nil {
			return true, 0
		}
	}
	return false, nodes[first].BackendNodeID
}
