package locator

import (
	"context"
	"errors"
	"fmt"
)

// Scoped candidates: "this role and name within that container", as
// Playwright chains locators
// (page.getByRole('region', {name: 'Responses'}).getByRole('cell', {name: '200'})).
//
// A candidate's Scope is itself a candidate (any strategy, semantic or CSS)
// that must match exactly one element; the candidate is then searched among
// that element's descendants only (open shadow roots included, as every
// search below a root is). Nesting is one level deep: a scope never has a
// scope of its own ([CodeScopeNested]); a limit keeps resolution bounded
// (at most two finder calls per candidate) and the locator reviewable. A
// scope that matches no element makes its candidate lose as no_match; one
// that matches several makes it lose as ambiguous, Matches counting the
// scope's matches. The candidate's own strategy decides its rank in the
// preference order and whether it is semantic: a role candidate scoped by
// CSS is a semantic candidate.

// Problem codes of scoped candidates, reported by [Candidate.Check].
const (
	// CodeScopeNested: a scope has a scope of its own.
	CodeScopeNested = "locator_scope_nested"
	// CodeScopeNote: a scope carries a note (notes belong to the
	// candidate).
	CodeScopeNote = "locator_scope_note"
)

// ErrScopeUnsupported is returned (wrapped in a *[ResolveError]) when a
// scoped candidate is resolved with a [Finder] that is not a
// [WithinFinder].
var ErrScopeUnsupported = errors.New("locator: finder cannot search within an element")

// WithinFinder is a [Finder] that can also search the descendants of one
// element it returned. [Resolve] and [ResolveAll] need it for scoped
// candidates: the scope is found with Find, the candidate with FindWithin
// below the scope's single match. FindWithin is never given a candidate
// that has a Scope.
type WithinFinder[E any] interface {
	Finder[E]
	FindWithin(ctx context.Context, root E, c Candidate) ([]E, error)
}

// Unscoped returns the candidate without its scope.
func (c Candidate) Unscoped() Candidate {
	c.Scope = nil
	return c
}

// key is the candidate's identity for duplicate detection: its values and
// its scope's values, notes excluded.
type key struct {
	c, scope Candidate
	scoped   bool
}

func (c Candidate) key() key {
	k := key{c: c.Unscoped()}
	k.c.Note = ""
	if c.Scope != nil {
		k.scope, k.scoped = c.Scope.Unscoped(), true
		k.scope.Note = ""
	}
	return k
}

// checkScope returns the problems of c's scope, with fields prefixed
// "scope.".
func (c Candidate) checkScope() []Problem {
	if c.Scope == nil {
		return nil
	}
	s := *c.Scope
	var ps []Problem
	if s.Scope != nil {
		ps = append(ps, Problem{Code: CodeScopeNested, Field: "scope.scope", Detail: "a scope cannot have a scope of its own (one level of nesting)"})
		s.Scope = nil
	}
	if s.Note != "" {
		ps = append(ps, Problem{Code: CodeScopeNote, Field: "scope.note", Detail: "a note belongs to the candidate, not to its scope"})
	}
	for _, p := range s.Check() {
		if p.Field == "" {
			p.Field = "scope"
		} else {
			p.Field = "scope." + p.Field
		}
		ps = append(ps, p)
	}
	return ps
}

// FindScoped returns the elements c matches: f.Find for an unscoped
// candidate; for a scoped one the scope's matches first, then, when the
// scope matched exactly one element, the candidate's matches below it.
// scopeMatches is the number of elements the scope matched (-1 for an
// unscoped candidate); when it is not 1 the element list is empty. A
// scoped candidate with a finder that is not a [WithinFinder] fails with
// [ErrScopeUnsupported].
func FindScoped[E any](ctx context.Context, f Finder[E], c Candidate) (els []E, scopeMatches int, err error) {
	if c.Scope == nil {
		els, err := f.Find(ctx, c)
		return els, -1, err
	}
	wf, ok := f.(WithinFinder[E])
	if !ok {
		return nil, 0, ErrScopeUnsupported
	}
	roots, err := wf.Find(ctx, c.Scope.Unscoped())
	if err != nil {
		return nil, 0, fmt.Errorf("scope: %w", err)
	}
	if len(roots) != 1 {
		return nil, len(roots), nil
	}
	els, err = wf.FindWithin(ctx, roots[0], c.Unscoped())
	return els, 1, err
}

// Equal reports whether c and d find the same elements: the same values
// and the same scope values, reviewer notes ignored.
func (c Candidate) Equal(d Candidate) bool { return c.key() == d.key() }
