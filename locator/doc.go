// Package locator holds the locator candidate model of Vera capabilities and
// its static rules; resolution against a live page lives in [Resolve].
//
// A locator is an ordered list of [Candidate] values. Each candidate names one
// strategy: role and accessible name, label, placeholder, test id, bounded
// visible text or CSS.
//
// Invariants:
//   - Candidates are tried in recorded order, never as a DOM-ordered union.
//   - Strategies appear in preference order (role, label, placeholder,
//     test_id, text, css); CSS is only a later fallback, except for a
//     structural locator_visible marker scoped with ":visible" and for fields
//     inside an already resolved record container ([ListContext]).
//   - A candidate sets exactly the fields of its strategy; coordinates are
//     never a locator; visible text is bounded by [MaxTextLen].
//   - The discovery redaction marker is never accepted as a literal value,
//     nor any part of it: either of its brackets anywhere in a value or a
//     scope's value is the marker.
//   - A value of white space and zero-width characters only is blank
//     (locator_missing_value; exact on a role without a non-blank name).
//   - Resolution fails closed: a finder error stops at that candidate, so a
//     later candidate never wins over an earlier one whose answer is
//     unknown.
//   - A scoped candidate ([Candidate.Scope]) is searched only below the
//     one element its scope matches; a scope that matches no element or
//     several makes the candidate lose (no_match, or ambiguous with the
//     scope's count). Nesting is one level deep ([CodeScopeNested]). The
//     candidate's own strategy decides its rank and whether it is
//     semantic. Resolving a scoped candidate needs a [WithinFinder]
//     ([ErrScopeUnsupported] otherwise); see [FindScoped].
//   - Everything here except [Resolve], [ResolveAll] and [FindScoped]
//     (which call the caller's Finder) is pure: no I/O, no browser.
package locator
