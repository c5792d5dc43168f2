package browser

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/go-rod/rod/lib/proto"
	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/runtime"
)

var _ runtime.BatchFinder = (*Driver)(nil)

// jsCountsWith makes the counts helper out of the three helpers Find
// runs (find: jsFind, roles: jsRoleCandidates, label: jsLabel), so a
// document that keeps them (helpers.go) compiles each once for
// FindCounts and Find alike. The helper it returns runs with this = the
// scope's document and, for each candidate, runs the page-side helper
// Find runs for it and returns how many elements it gave: the number
// Find returns for every strategy but role, and for a role 0 when the
// pre-filter found no element that may carry it (Find then asks the
// accessibility tree about nothing), else -1 (only the tree can tell).
// A helper that throws (an invalid selector) or has no answer gives -1.
// It returns 'stale' or 'detached' as the helpers do.
const jsCountsWith = `function(find, roles, label) {
  return function(root, limit, cands) {
    const doc = this;
    if (!doc.defaultView) return 'stale';
    if (root && (root.ownerDocument !== doc || !root.isConnected)) return 'detached';
    return cands.map(c => {
      try {
        const r = c.s === 'role' ? roles.call(doc, c.role, c.v, c.exact, root, limit) :
          c.s === 'label' ? label.call(doc, c.v, c.exact, root) : find.call(doc, c.s, c.v, c.exact, root);
        if (!Array.isArray(r)) return -1;
        return c.s === 'role' && r.length ? -1 : r.length;
      } catch (e) { return -1; }
    });
  };
}`

// jsCounts is the counts helper on its own (this = the document): for a
// call in a document without a dispatcher.
const jsCounts = `function(root, limit, cands) {
  return (` + jsCountsWith + `)((` + jsFind + `), (` + jsRoleCandidates + `), (` + jsLabel + `)).call(this, root, limit, cands);
}`

// countCand is one candidate as jsCounts takes it.
type countCand struct {
	S     string `json:"s"`
	Role  string `json:"role,omitempty"`
	V     string `json:"v"`
	Exact bool   `json:"exact"`
}

// FindCounts implements [runtime.BatchFinder]: in one page-side call it
// runs, for every candidate, the helper [Driver.Find] would run, and
// returns how many elements each gives (-1 for a role candidate the
// pre-filter did not rule out, a scoped candidate, an unknown strategy
// or a helper error: Find decides those). It never asks the
// accessibility tree, so 0 for a role means the pre-filter, a superset
// of the tree's answer, found nothing.
func (d *Driver) FindCounts(ctx context.Context, s runtime.Scope, root runtime.Element, cands []locator.Candidate) ([]int, error) {
	cctx, done, err := d.begin(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	sc, rootObj, err := d.scopeRoot(s, root)
	if err != nil {
		return nil, err
	}
	out := make([]int, len(cands))
	var ask []countCand
	var at []int
	for i, c := range cands {
		out[i] = -1
		switch {
		case c.Scope != nil:
			continue
		case c.Strategy == locator.Role:
			ask = append(ask, countCand{S: string(c.Strategy), Role: c.Role, V: normalizeSpace(c.Name), Exact: c.Exact})
		case c.Strategy == locator.Label, c.Strategy == locator.Placeholder, c.Strategy == locator.TestID,
			c.Strategy == locator.Text, c.Strategy == locator.CSS:
			ask = append(ask, countCand{S: string(c.Strategy), V: c.Value(), Exact: c.Exact})
		default:
			continue
		}
		at = append(at, i)
	}
	if len(ask) == 0 {
		return out, nil
	}
	counts, err := inDocument(cctx, d, sc, func(doc proto.RuntimeRemoteObjectID) ([]int, error) {
		r, err := d.callHelper(cctx, sc.sid, doc, helperCounts, false, true, nil, obj(rootObj), val(maxRoleCandidates), val(ask))
		if err != nil {
			return nil, err
		}
		if err := helperStatus(r); err != nil {
			return nil, err
		}
		var n []int
		if err := json.Unmarshal(r.Value, &n); err != nil || len(n) != len(ask) {
			return nil, fmt.Errorf("decode page result: %d counts for %d candidates (%v)", len(n), len(ask), err)
		}
		return n, nil
	})
	if err != nil {
		return nil, err
	}
	for j, i := range at {
		out[i] = counts[j]
	}
	return out, nil
}
