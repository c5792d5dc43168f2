package runtimetest

import (
	"context"
	"fmt"

	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/runtime"
)

// MethodNearestNames is the logged method of [Driver.NearestNames].
const MethodNearestNames Method = "NearestNames"

// NearestNames implements [runtime.NearestNamer] over the fixture: the
// accessible names of the visible elements with c's role in scope (or
// inside root), ranked against c.Name by [locator.NearestNames], as the
// browser driver ranks the names Chromium computes. The call is logged
// (Candidate set) like Find.
func (d *Driver) NearestNames(ctx context.Context, scope runtime.Scope, root runtime.Element, c locator.Candidate, n int) ([]locator.NearName, error) {
	var out []locator.NearName
	err := d.do(ctx, Call{Method: MethodNearestNames, Candidate: c}, func() error {
		if c.Strategy != locator.Role || c.Role == "" {
			return fmt.Errorf("%w: nearest names need a role candidate, got %s", runtime.ErrInvalidArgument, c)
		}
		if d.dialog != nil {
			return d.dialogErr()
		}
		doc, err := d.scopeDoc(scope)
		if err != nil {
			return err
		}
		from := doc.root
		if root != nil {
			r, err := d.element(root)
			if err != nil {
				return err
			}
			if r.doc != doc {
				return fmt.Errorf("%w: root element belongs to another document", runtime.ErrStaleElement)
			}
			from = r
		}
		els, err := find(doc, from, root != nil, locator.Candidate{Strategy: locator.Role, Role: c.Role})
		if err != nil {
			return err
		}
		names := make([]string, len(els))
		for i, e := range els {
			names[i] = accessibleName(e)
		}
		out = locator.NearestNames(c.Name, names, n)
		return nil
	})
	return out, err
}

var _ runtime.NearestNamer = (*Driver)(nil)
