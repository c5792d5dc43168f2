package runtime

import (
	"context"
	"errors"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/receipt"
)

// Scoped candidates and detection scopes (issue 22.3 and 22.4). A
// driver's Find never sees a scope: the runtime finds the scope
// candidate, requires exactly one match, and searches the candidate below
// it with the scope element as Find's root (which includes open shadow
// roots below it in the rod driver).

// scopedFinder adapts the driver to locator.WithinFinder in one document
// (and below root when it is not nil), substituting templates.
type scopedFinder struct {
	r     *run
	scope Scope
	root  Element
}

// Find finds an unscoped candidate.
func (f *scopedFinder) Find(ctx context.Context, c locator.Candidate) ([]Element, error) {
	return f.r.find(ctx, f.scope, f.root, f.r.substCandidate(c))
}

// FindWithin finds an unscoped candidate below root.
func (f *scopedFinder) FindWithin(ctx context.Context, root Element, c locator.Candidate) ([]Element, error) {
	return f.r.find(ctx, f.scope, root, f.r.substCandidate(c))
}

// findCandidate returns the elements one candidate matches in scope (below
// root), its scope resolved first: a scope that does not match exactly one
// element gives no elements.
func (r *run) findCandidate(ctx context.Context, scope Scope, root Element, c locator.Candidate) ([]Element, error) {
	els, _, err := locator.FindScoped[Element](ctx, &scopedFinder{r: r, scope: scope, root: root}, c)
	return els, err
}

// substScope substitutes input templates in a scope candidate's values.
func (r *run) substScope(c locator.Candidate) locator.Candidate {
	if c.Scope != nil {
		s := r.substCandidate(c.Scope.Unscoped())
		c.Scope = &s
	}
	return c
}

// detectRoot resolves a business outcome's detect scope in the document:
// ok is false when the scope matches no element or several, so the rule
// does not hold. A semantic scope matches only visible elements (the
// driver's rule); a CSS scope must be visible too.
func (r *run) detectRoot(ctx context.Context, scope Scope, d *capability.OutcomeDetect) (Element, bool, *stop) {
	if d.Scope == nil {
		return nil, true, nil
	}
	els, err := r.find(ctx, scope, nil, r.substCandidate(d.Scope.Unscoped()))
	if err != nil {
		if errors.Is(err, ErrStaleElement) {
			return nil, false, nil
		}
		return nil, false, r.classify(err, receipt.CategoryInternal, ReasonFindFailed)
	}
	if len(els) != 1 {
		return nil, false, nil
	}
	if !d.Scope.Strategy.Semantic() && !d.Scope.VisibleScoped() {
		vis, err := r.drv.Visible(ctx, els[0])
		if err != nil {
			if errors.Is(err, ErrStaleElement) {
				return nil, false, nil
			}
			return nil, false, r.classify(err, receipt.CategoryInternal, ReasonVisibleFailed)
		}
		if !vis {
			return nil, false, nil
		}
	}
	return els[0], true, nil
}

// actedOn reports whether the named action has acted in this run (its
// operation ran; its postcondition may still be pending).
func (r *run) actedOn(id string) bool {
	return r.acted[id]
}

// markActed records that an action's operation ran.
func (r *run) markActed(id string) {
	if r.acted == nil {
		r.acted = map[string]bool{}
	}
	r.acted[id] = true
}
