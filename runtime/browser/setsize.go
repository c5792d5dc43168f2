package browser

import (
	"context"
	"fmt"
	"slices"

	"github.com/go-rod/rod/lib/proto"
	"github.com/vera-run/vera/runtime"
)

// DeclaredSets implements [runtime.SetDeclarer]: it reads, in the page,
// what the ARIA attributes declare about the sets the elements belong
// to, so the runtime can tell a virtualized grid's 13 rendered rows from
// its 1,000 rows. A row's set is the rows of its nearest grid, table or
// treegrid (size aria-rowcount, positions aria-rowindex) when that
// declares anything; otherwise, and for a listitem, option, treeitem or
// article, the members of the same role and aria-level under the nearest
// list, listbox, group, tree or feed (the document when there is none),
// sized by aria-setsize (-1 on any member makes it unknown, else the
// largest) with positions aria-posinset. Roles are the explicit role's
// first token, else the implicit role of the tag (tr, li, ul, ol, menu,
// option, optgroup, fieldset, select, datalist, article, table and its
// row groups); open shadow roots are crossed both ways. A set is Busy
// when one of the elements asked about, or an ancestor of it, has
// aria-busy="true" (the page says its content is still being updated: a
// row whose cells show placeholders until it is scrolled near); such
// elements are reported even when their set declares nothing, and those
// that belong to no set (a record root of no row or item role) form one
// busy set of their own, size 0. The fake driver
// (runtimetest) reads its fixtures by the same rules, aria-busy aside (it
// reports no busy set). One page call per
// document; an element whose document was replaced fails with
// [runtime.ErrStaleElement].
func (d *Driver) DeclaredSets(ctx context.Context, els []runtime.Element) ([]runtime.DeclaredSet, error) {
	cctx, done, err := d.begin(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	groups := map[proto.TargetSessionID][]int{}
	var order []proto.TargetSessionID
	objs := make([]*element, len(els))
	for i, e := range els {
		el, err := d.asElement(e)
		if err != nil {
			return nil, err
		}
		objs[i] = el
		if _, ok := groups[el.sid]; !ok {
			order = append(order, el.sid)
		}
		groups[el.sid] = append(groups[el.sid], i)
	}
	var out []runtime.DeclaredSet
	for _, sid := range order {
		idx := groups[sid]
		args := make([]callArg, len(idx))
		for j, i := range idx {
			args[j] = obj(objs[i].obj)
		}
		var res struct {
			Stale bool `json:"stale"`
			Sets  []struct {
				Size      int   `json:"size"`
				Positions []int `json:"positions"`
				Members   []int `json:"members"`
				Busy      bool  `json:"busy"`
			} `json:"sets"`
		}
		if _, err := d.callOn(cctx, sid, objs[idx[0]].obj, jsDeclaredSets, true, &res, args...); err != nil {
			return nil, d.elemErr(cctx, "declared sets", err)
		}
		if res.Stale {
			return nil, fmt.Errorf("%w: detached from the document", runtime.ErrStaleElement)
		}
		for _, s := range res.Sets {
			ds := runtime.DeclaredSet{Size: s.Size, Positions: s.Positions, Busy: s.Busy}
			for _, m := range s.Members {
				if m < 0 || m >= len(idx) {
					return nil, fmt.Errorf("browser: declared sets: page answered member %d of %d", m, len(idx))
				}
				ds.Members = append(ds.Members, idx[m])
			}
			out = append(out, ds)
		}
	}
	slices.SortStableFunc(out, func(a, b runtime.DeclaredSet) int { return a.Members[0] - b.Members[0] })
	return out, nil
}

var _ runtime.SetDeclarer = (*Driver)(nil)

// jsDeclaredSets runs with this = the first element and the elements as
// arguments; it answers {stale: true} when one left its document, else
// {sets: [{size, positions, members}]} in the order of their first
// member (see DeclaredSets).
const jsDeclaredSets = `function(...els) {
  const CONT = {row: ['grid', 'table', 'treegrid'], listitem: ['list', 'directory'],
    option: ['listbox', 'group', 'combobox'], treeitem: ['tree', 'group'], article: ['feed']};
  for (const e of els) if (!e || !e.isConnected) return {stale: true};
  const roles = new Map();
  const roleOf = (e) => {
    if (roles.has(e)) return roles.get(e);
    let r = (e.getAttribute('role') || '').trim().toLowerCase().split(/\s+/)[0] || '';
    if (!r) switch (e.localName) {
      case 'tr': r = 'row'; break;
      case 'li': r = 'listitem'; break;
      case 'ul': case 'ol': case 'menu': r = 'list'; break;
      case 'option': r = 'option'; break;
      case 'optgroup': case 'fieldset': r = 'group'; break;
      case 'select': r = (e.multiple || e.size > 1) ? 'listbox' : 'combobox'; break;
      case 'datalist': r = 'listbox'; break;
      case 'article': r = 'article'; break;
      case 'table': r = 'table'; break;
      case 'thead': case 'tbody': case 'tfoot': r = 'rowgroup'; break;
    }
    roles.set(e, r);
    return r;
  };
  const up = (e) => e.parentElement || (e.parentNode && e.parentNode.host) || null;
  const nearest = (e, rs) => { for (let x = up(e); x; x = up(x)) if (rs.includes(roleOf(x))) return x; return null; };
  const int = (v) => {
    if (v == null) return 0;
    v = String(v).trim();
    if (!/^-?[0-9]+$/.test(v)) return 0;
    const n = Number(v);
    return n < -1 ? 0 : Math.min(n, 1 << 30);
  };
  const walk = (node, f) => {
    for (const c of node.children) {
      f(c);
      if (c.shadowRoot) walk(c.shadowRoot, f);
      walk(c, f);
    }
  };
  const describe = (id, member) => {
    const from = id.container || member.ownerDocument.documentElement;
    const rs = CONT[id.role];
    const s = {size: id.rows ? int(id.container.getAttribute('aria-rowcount')) : 0, positions: []};
    walk(from, (x) => {
      if (roleOf(x) !== id.role || nearest(x, rs) !== id.container) return;
      if (id.rows) { s.positions.push(Math.max(int(x.getAttribute('aria-rowindex')), 0)); return; }
      if ((x.getAttribute('aria-level') || '') !== id.level) return;
      const n = int(x.getAttribute('aria-setsize'));
      if (n < 0 || s.size < 0) s.size = -1; else if (n > s.size) s.size = n;
      s.positions.push(Math.max(int(x.getAttribute('aria-posinset')), 0));
    });
    s.declared = s.size !== 0 || s.positions.some((p) => p > 0);
    return s;
  };
  const busyOf = (e) => { for (let x = e; x; x = up(x)) if ((x.getAttribute('aria-busy') || '').trim().toLowerCase() === 'true') return true; return false; };
  const sets = [], byKey = new Map(), orphans = [];
  els.forEach((e, i) => {
    const role = roleOf(e), rs = CONT[role], busy = busyOf(e);
    if (!rs) { if (busy) orphans.push(i); return; }
    const c = nearest(e, rs);
    let id = null;
    if (role === 'row' && c) {
      const rid = {container: c, rows: true, role, level: ''};
      if (describe(rid, e).declared) id = rid;
    }
    if (!id) id = {container: c, rows: false, role, level: e.getAttribute('aria-level') || ''};
    let byC = byKey.get(id.container);
    if (!byC) { byC = new Map(); byKey.set(id.container, byC); }
    const k = (id.rows ? 'rows' : 'items') + '\u0000' + role + '\u0000' + id.level;
    if (byC.has(k)) { const s = byC.get(k); s.members.push(i); s.busy = s.busy || busy; return; }
    const s = describe(id, e);
    const out = {size: s.size, positions: s.positions, members: [i], busy, declared: s.declared};
    byC.set(k, out);
    sets.push(out);
  });
  const res = sets.filter((s) => s.declared || s.busy);
  if (orphans.length) res.push({size: 0, positions: orphans.map(() => 0), members: orphans, busy: true});
  return {sets: res};
}`
