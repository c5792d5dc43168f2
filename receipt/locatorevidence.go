package receipt

import (
	"strings"

	"github.com/vera-run/vera/capability"
)

// checkLocatorMatches checks an action record's winning-candidate evidence
// on its own: locator_matches only with locator_index and exactly
// locator_index+1 entries, none negative, the winner's at least 1, and no
// loser with exactly one match (a candidate matching one element wins, in
// every resolution mode).
func checkLocatorMatches(f, p string, a *ActionRecord, ps *problems) {
	m := a.LocatorMatches
	if m == nil {
		return // absent: a receipt of an earlier writer, or no winner
	}
	if a.LocatorIndex == nil {
		ps.add(f, ErrInconsistent, "%s.locator_matches without locator_index", p)
		return
	}
	if *a.LocatorIndex < 0 || len(m) != *a.LocatorIndex+1 {
		ps.add(f, ErrInconsistent, "%s.locator_matches has %d entries; the winner at locator_index %d needs %d", p, len(m), *a.LocatorIndex, *a.LocatorIndex+1)
		return
	}
	for i, n := range m {
		switch {
		case n < 0:
			ps.add(f, ErrSchema, "%s.locator_matches[%d] is negative", p, i)
		case i == len(m)-1 && n < 1:
			ps.add(f, ErrInconsistent, "%s.locator_matches[%d]: the winning candidate matched nothing", p, i)
		case i < len(m)-1 && n == 1:
			ps.add(f, ErrInconsistent, "%s.locator_matches[%d]: a candidate that matched exactly one element would have won", p, i)
		}
	}
}

// verifyLocatorMatches checks the evidence against the action's
// resolution mode: a list extraction root wins with one or more matches,
// so every loser matched nothing, except a scoped candidate whose scope
// matched several elements (it loses as ambiguous, its entry being the
// scope's count, two or more: FORMAT 3.2 "Scoped candidates"); every
// other locator wins with exactly one match.
func verifyLocatorMatches(f, p string, a *ActionRecord, ca *capability.Action, ps *problems) {
	m := a.LocatorMatches
	if a.LocatorIndex == nil || len(m) != *a.LocatorIndex+1 {
		return // reported by checkLocatorMatches
	}
	list := ca.Operation == capability.OpExtract && ca.Extract != nil && ca.Extract.Mode == capability.ExtractList
	last := len(m) - 1
	if list {
		for i, n := range m[:last] {
			scoped := i < len(ca.LocatorCandidates) && ca.LocatorCandidates[i].Scope != nil
			if n != 0 && !(scoped && n >= 2) {
				ps.add(f, ErrSequence, "%s: locator_matches[%d] is %d, but a list root candidate with any match wins", p, i, n)
			}
		}
		return
	}
	if m[last] != 1 {
		ps.add(f, ErrSequence, "%s: locator_matches[%d] is %d, but a %s locator wins only with exactly one match", p, last, m[last], ca.Operation)
	}
}

// checkProvenance reports the capability's state and provenance problems
// (a hand_authored provenance with discovery members, an authored state
// over a discovery provenance, a missing author or review, ...) as
// [ErrCapability]: a run is never evidence for a capability whose origin
// claim is forged. The rest of the contract is Finalize's and bundle
// verification's concern.
func checkProvenance(c *capability.Capability, ps *problems) {
	for _, e := range c.Validate() {
		if e.Path == "state" || e.Path == "provenance" || strings.HasPrefix(e.Path, "provenance.") {
			ps.add("", ErrCapability, "capability %s: %s [%s]", e.Path, e.Message, e.Code)
		}
	}
}
