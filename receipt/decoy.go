package receipt

import (
	"fmt"
	"strings"

	"github.com/vera-run/vera/capability"
)

// FinalizeReport is what [Finalize] observed about the locator candidates
// in the runs it was given, filled even when it refuses (pass one with
// [WithReport]).
type FinalizeReport struct {
	// Candidates lists every action locator candidate that was tried in
	// the runs and never won: it matched no element or several elements
	// each time. Candidates after every winner were never tried and are not
	// listed (they are untested fallbacks).
	Candidates []CandidateFinding `json:"candidates"`
}

// CandidateFinding is one action locator candidate that never matched
// uniquely in the runs Finalize was given.
type CandidateFinding struct {
	// Action is the action id.
	Action string `json:"action"`
	// Candidate is the candidate's index in the action's
	// locator_candidates.
	Candidate int `json:"candidate"`
	// Strategy is the candidate's strategy (role, css, ...).
	Strategy string `json:"strategy"`
	// Matches is the element count of each losing try, in run and record
	// order; -1 where the receipt recorded no locator_matches.
	Matches []int `json:"matches"`
	// Decoy is true when every try matched several elements: the candidate
	// can never identify the target on this UI. A decoy blocks promotion
	// ([CheckDecoyCandidate]); a candidate that only matched nothing (stale)
	// is reported and does not block.
	Decoy bool `json:"decoy"`
}

// WithReport makes [Finalize] fill r with its findings about the locator
// candidates, on success and on refusal. A nil r is ignored.
func WithReport(r *FinalizeReport) FinalizeOption {
	return func(p *policy) { p.report = r }
}

// checkCandidates finds the action candidates that were tried and never
// won in the given receipts, reports them, and fails a decoy: a candidate
// that matched several elements every time it was tried. The semantic-
// first rule is meant to make a reviewer-recognisable candidate the one
// that resolves; a decoy satisfies it on paper while a later (CSS)
// candidate does the work. The honest form of such a locator is CSS-only
// with css_only_reason.
func (ck *checker) checkCandidates(c *capability.Capability, receipts []*Receipt, pol policy) {
	type key struct {
		action string
		index  int
	}
	won := map[key]bool{}
	lost := map[key][]int{}
	var order []key
	for _, r := range receipts {
		for _, a := range r.Actions {
			if a.LocatorIndex == nil || a.Recovered {
				continue
			}
			w := *a.LocatorIndex
			won[key{a.ID, w}] = true
			for i := 0; i < w; i++ {
				k := key{a.ID, i}
				n := -1
				if len(a.LocatorMatches) == w+1 {
					n = a.LocatorMatches[i]
				}
				if _, seen := lost[k]; !seen {
					order = append(order, k)
				}
				lost[k] = append(lost[k], n)
			}
		}
	}
	var findings []CandidateFinding
	for _, k := range order {
		if won[k] {
			continue
		}
		ca, _, _, ok := c.Action(k.action)
		if !ok || k.index >= len(ca.LocatorCandidates) {
			continue // reported by VerifyRun
		}
		f := CandidateFinding{Action: k.action, Candidate: k.index, Strategy: string(ca.LocatorCandidates[k.index].Strategy), Matches: lost[k], Decoy: true}
		for _, n := range f.Matches {
			if n < 2 {
				f.Decoy = false
			}
		}
		findings = append(findings, f)
		if f.Decoy {
			counts := make([]string, len(f.Matches))
			for i, n := range f.Matches {
				counts[i] = fmt.Sprint(n)
			}
			ck.fail("", CheckDecoyCandidate, "action %s: locator candidate %d (%s) matched several elements every time it was tried (%s) and never won; drop it, or declare the locator CSS-only with css_only_reason",
				k.action, k.index, f.Strategy, strings.Join(counts, ", "))
		}
	}
	if pol.report != nil {
		pol.report.Candidates = findings
	}
}
