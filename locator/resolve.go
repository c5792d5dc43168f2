package locator

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Finder finds the elements one candidate matches, in document order. It
// is the only thing resolution needs from a page: the runtime adapts a
// driver, tests pass a map. Zero matches is not an error.
type Finder[E any] interface {
	Find(ctx context.Context, c Candidate) ([]E, error)
}

// FinderFunc adapts a function to [Finder].
type FinderFunc[E any] func(ctx context.Context, c Candidate) ([]E, error)

// Find calls f.
func (f FinderFunc[E]) Find(ctx context.Context, c Candidate) ([]E, error) { return f(ctx, c) }

// Reason says why a candidate did not win.
type Reason string

// The reasons a tried candidate lost.
const (
	// ReasonNoMatch: the candidate matched no element.
	ReasonNoMatch Reason = "no_match"
	// ReasonAmbiguous: the candidate matched several elements where exactly
	// one was required.
	ReasonAmbiguous Reason = "ambiguous"
	// ReasonError: the finder failed for this candidate; resolution stopped
	// there.
	ReasonError Reason = "error"
)

// Attempt records one candidate that was tried and did not win.
type Attempt struct {
	// Index is the candidate's position in the recorded list.
	Index int `json:"index"`
	// Matches is the number of elements it matched (0 for an error).
	Matches int `json:"matches"`
	// Reason is why it lost.
	Reason Reason `json:"reason"`
}

// String renders the attempt as "0:no_match" or "1:ambiguous:3".
func (a Attempt) String() string {
	s := strconv.Itoa(a.Index) + ":" + string(a.Reason)
	if a.Reason == ReasonAmbiguous {
		s += ":" + strconv.Itoa(a.Matches)
	}
	return s
}

// Resolution is the outcome of [Resolve]: the winning candidate's index,
// its element, and every earlier candidate with the reason it lost.
type Resolution[E any] struct {
	// Index is the winning candidate's index, -1 when none won.
	Index int
	// Element is the one element the winner matched.
	Element E
	// Tried lists the candidates tried before the winner (or all of them
	// when none won), in order.
	Tried []Attempt
}

// ListResolution is the outcome of [ResolveAll]: the first candidate that
// matched at least one element, with all its elements.
type ListResolution[E any] struct {
	// Index is the winning candidate's index, -1 when none matched.
	Index int
	// Elements are the winner's matches in document order.
	Elements []E
	// Tried lists the candidates tried before the winner (or all of them).
	Tried []Attempt
}

// Sentinel errors of resolution. A *[ResolveError] matches ErrNotFound
// whenever no candidate won, and ErrAmbiguous in addition when at least one
// candidate matched several elements.
var (
	// ErrNotFound: no candidate matched exactly one element (or, for
	// ResolveAll, at least one).
	ErrNotFound = errors.New("locator: no candidate matched")
	// ErrAmbiguous: no candidate matched uniquely and at least one matched
	// several elements.
	ErrAmbiguous = errors.New("locator: candidate matched several elements")
	// ErrNoCandidates: the candidate list is empty.
	ErrNoCandidates = errors.New("locator: no candidates")
	// ErrInvalidArgument: a nil context or a nil finder (a nil interface
	// or a nil FinderFunc). It is returned as is, never a panic.
	ErrInvalidArgument = errors.New("locator: invalid argument")
)

// ResolveError reports a resolution that produced no winner. It lists every
// attempt; Err is the finder error that stopped resolution, if any.
type ResolveError struct {
	Tried []Attempt
	// Err is the finder's error when resolution stopped on one.
	Err error
}

// Error implements error. It names candidate indexes and reasons only,
// never candidate values (which may carry substituted inputs).
func (e *ResolveError) Error() string {
	var b strings.Builder
	b.WriteString("locator: no unique match")
	if len(e.Tried) > 0 {
		parts := make([]string, len(e.Tried))
		for i, a := range e.Tried {
			parts[i] = a.String()
		}
		b.WriteString(" (tried " + strings.Join(parts, ", ") + ")")
	}
	if e.Err != nil {
		b.WriteString(": " + e.Err.Error())
	}
	return b.String()
}

// Is matches [ErrNotFound] when no finder error stopped resolution, and
// [ErrAmbiguous] when some candidate matched several elements.
func (e *ResolveError) Is(target error) bool {
	switch target {
	case ErrNotFound:
		return e.Err == nil
	case ErrAmbiguous:
		for _, a := range e.Tried {
			if a.Reason == ReasonAmbiguous {
				return true
			}
		}
	}
	return false
}

// Unwrap returns the finder error, if any.
func (e *ResolveError) Unwrap() error { return e.Err }

// Resolve tries the candidates in recorded order and returns the first one
// that matches exactly one element. A candidate that matches nothing or
// several elements loses and the next one is tried; the result records each
// loser with its reason. Candidates are never merged into a DOM-ordered
// union.
//
// A finder error stops resolution at that candidate (fail closed: a later
// candidate never wins over an earlier one whose answer is unknown) and is
// returned wrapped in a *[ResolveError]; the error is also returned when ctx
// is done before the first try. With no winner the error is a
// *ResolveError matching [ErrNotFound] (and [ErrAmbiguous] when some
// candidate matched several elements). The returned Resolution is filled in
// every case. A nil ctx or finder is refused with [ErrInvalidArgument].
func Resolve[E any](ctx context.Context, f Finder[E], cs []Candidate) (Resolution[E], error) {
	i, els, tried, err := resolve(ctx, f, cs, false)
	res := Resolution[E]{Index: i, Tried: tried}
	if i >= 0 {
		res.Element = els[0]
	}
	return res, err
}

// ResolveAll is list-mode resolution for list extraction roots: it tries
// the candidates in recorded order and returns every element of the first
// candidate that matches at least one. Errors follow [Resolve]; with no
// winner the error matches [ErrNotFound].
func ResolveAll[E any](ctx context.Context, f Finder[E], cs []Candidate) (ListResolution[E], error) {
	i, els, tried, err := resolve(ctx, f, cs, true)
	return ListResolution[E]{Index: i, Elements: els, Tried: tried}, err
}

// resolve is the loop both modes share: the first candidate with exactly
// one match wins, or with at least one match when list is set. It returns
// the winner's index (-1 for none) and elements, and the losers.
func resolve[E any](ctx context.Context, f Finder[E], cs []Candidate, list bool) (int, []E, []Attempt, error) {
	if ctx == nil {
		return -1, nil, nil, fmt.Errorf("%w: nil context", ErrInvalidArgument)
	}
	if ff, ok := f.(FinderFunc[E]); f == nil || ok && ff == nil {
		return -1, nil, nil, fmt.Errorf("%w: nil finder", ErrInvalidArgument)
	}
	if len(cs) == 0 {
		return -1, nil, nil, ErrNoCandidates
	}
	var tried []Attempt
	for i, c := range cs {
		if err := ctx.Err(); err != nil {
			return -1, nil, tried, &ResolveError{Tried: tried, Err: err}
		}
		els, scopeN, err := FindScoped(ctx, f, c)
		if err != nil {
			tried = append(tried, Attempt{Index: i, Reason: ReasonError})
			return -1, nil, tried, &ResolveError{Tried: tried, Err: fmt.Errorf("candidate %d: %w", i, err)}
		}
		switch {
		case scopeN == 0:
			tried = append(tried, Attempt{Index: i, Reason: ReasonNoMatch})
			continue
		case scopeN > 1:
			tried = append(tried, Attempt{Index: i, Matches: scopeN, Reason: ReasonAmbiguous})
			continue
		}
		switch {
		case len(els) == 1 || list && len(els) > 1:
			return i, els, tried, nil
		case len(els) == 0:
			tried = append(tried, Attempt{Index: i, Reason: ReasonNoMatch})
		default:
			tried = append(tried, Attempt{Index: i, Matches: len(els), Reason: ReasonAmbiguous})
		}
	}
	return -1, nil, tried, &ResolveError{Tried: tried}
}
