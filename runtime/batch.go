package runtime

import (
	"context"
	"reflect"

	"github.com/vera-run/vera/locator"
)

// BatchFinder is an optional [Driver] extension: one look at a document
// that tells, for several candidates at once, which of them match
// nothing. The runtime's checks that run at one decision point (the
// unknown-modal check for dialogs and alert dialogs, the business
// outcomes' visible texts and locators, each in its scope) ask it first
// and call [Driver.Find] only for the candidates it cannot rule out, so a
// page with no dialog and no outcome costs one round trip instead of one
// per candidate. A driver without it is asked candidate by candidate, with
// the same answers.
type BatchFinder interface {
	// FindCounts returns, for each candidate, how many elements
	// Find(ctx, scope, root, cands[i]) would return at this instant, or
	// -1 where it cannot tell without Find (a role candidate whose
	// elements the accessibility tree decides, a scoped candidate, a
	// selector Find would refuse). 0 must mean exactly that Find returns
	// no element and no error. An error means the look failed as a whole;
	// the runtime then asks Find for every candidate.
	FindCounts(ctx context.Context, scope Scope, root Element, cands []locator.Candidate) ([]int, error)
}

// look holds the candidates one batched look ruled out, for the checks
// of one decision point in one document (page generation gen). Only
// Finds without a root consult it.
type look struct {
	scope Scope
	gen   uint64
	none  map[locator.Candidate]bool
}

// lookKey is the map key of a candidate: the note never changes a match.
func lookKey(c locator.Candidate) locator.Candidate {
	c.Note = ""
	return c
}

// lookAt starts the looks of one decision point, when the driver is a
// [BatchFinder]: the dialogs (modals) in the top-level document and the
// selected frame, and the business outcomes' candidates (outcomes) in
// the selected frame, one FindCounts per document. Until endLook, r.find
// answers the candidates ruled out without asking the driver. A frame
// that does not resolve, or a look that fails, leaves the checks to ask
// Find themselves, as without a BatchFinder.
func (r *run) lookAt(ctx context.Context, modals, outcomes bool) {
	if _, ok := r.drv.(BatchFinder); !ok {
		return
	}
	r.looking = true
	fs, ferr, st := r.frameScope(ctx)
	if st != nil {
		return
	}
	var fc []locator.Candidate
	if modals {
		fc = append(fc, dialogRoles[:]...)
		if len(r.frame) > 0 {
			if top, _, err := r.drv.Frame(ctx, nil); err == nil && (ferr != nil || !sameScope(top, fs)) {
				r.addLook(ctx, top, dialogRoles[:])
			}
		}
	}
	if outcomes {
		fc = r.outcomeCandidates(fc)
	}
	if ferr == nil {
		r.addLook(ctx, fs, fc)
	}
}

// addLook asks the driver which of cands match nothing in scope and
// keeps the answer. Candidates are substituted as the checks substitute
// them.
func (r *run) addLook(ctx context.Context, scope Scope, cands []locator.Candidate) {
	bf, ok := r.drv.(BatchFinder)
	if !ok || len(cands) < 2 {
		return
	}
	subst := make([]locator.Candidate, len(cands))
	for i, c := range cands {
		subst[i] = r.substCandidate(c)
	}
	counts, err := bf.FindCounts(ctx, scope, nil, subst)
	if err != nil || len(counts) != len(subst) {
		return
	}
	l := look{scope: scope, gen: r.gen, none: make(map[locator.Candidate]bool, len(subst))}
	for i, n := range counts {
		if n == 0 && subst[i].Scope == nil {
			l.none[lookKey(subst[i])] = true
		}
	}
	r.looks = append(r.looks, l)
}

// endLook drops the looks: the next decision point looks again.
func (r *run) endLook() {
	r.looks = r.looks[:0]
	r.looking = false
}

// find is the runtime's Driver.Find for a substituted candidate: an
// answer the current look already has (no element, in that scope,
// without a root, on the same page generation) is not asked again.
func (r *run) find(ctx context.Context, scope Scope, root Element, c locator.Candidate) ([]Element, error) {
	if root == nil {
		for i := range r.looks {
			l := &r.looks[i]
			if l.gen == r.gen && sameScope(l.scope, scope) && l.none[lookKey(c)] {
				return nil, nil
			}
		}
	}
	return r.drv.Find(ctx, scope, root, c)
}

// sameScope compares two scope handles with ==, guarding against handle
// types that are not comparable.
func sameScope(a, b Scope) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	ta := reflect.TypeOf(a)
	if ta != reflect.TypeOf(b) || !ta.Comparable() {
		return false
	}
	return a == b
}

// outcomeCandidates lists the candidates the business outcomes' detect
// rules find without a root: visible texts, unscoped locators of rules
// without a detect scope, and the detect scopes themselves.
func (r *run) outcomeCandidates(out []locator.Candidate) []locator.Candidate {
	for i := range r.cap.BusinessOutcomes {
		d := &r.cap.BusinessOutcomes[i].Detect
		if d.Scope != nil {
			out = append(out, d.Scope.Unscoped())
			continue
		}
		if d.VisibleText != "" {
			out = append(out, locator.Candidate{Strategy: locator.Text, Text: d.VisibleText})
		}
		for _, c := range d.LocatorCandidates {
			if c.Scope == nil {
				out = append(out, c)
			}
		}
	}
	return out
}
