package receipt_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/runwrite"
	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/receipt"
)

// handAuthored is testCapability written by hand: state authored,
// hand_authored provenance, no discovery record.
func handAuthored() *capability.Capability {
	c := testCapability()
	c.State = capability.StateAuthored
	c.Provenance = &capability.Provenance{Kind: capability.ProvenanceHandAuthored, Author: "maintainer",
		Reason: "written against the synthetic teller; no discovery session",
		Review: &capability.Review{Reviewer: "operator", ReviewedAt: "2026-01-02T03:04:05Z", AuthoringApproved: true}}
	return c
}

// handRun is a clean run of a hand-authored capability: it pins no
// discovery hash.
func handRun(t *testing.T, c *capability.Capability, mutate func(*runwrite.Run)) string {
	t.Helper()
	return writeRun(t, cleanRun(t, c, func(r *runwrite.Run) {
		r.Receipt.Capability.DiscoveryHash = ""
		if mutate != nil {
			mutate(r)
		}
	}))
}

func TestFinalizeHandAuthored(t *testing.T) {
	c := handAuthored()
	if err := c.Validate().Err(); err != nil {
		t.Fatal(err)
	}
	a, b := handRun(t, c, nil), handRun(t, c, nil)
	v, err := receipt.Finalize(context.Background(), c, []string{a, b}, fixedClock)
	if err != nil {
		t.Fatal(err)
	}
	if v.State != capability.StateValidatedLocal || !v.Provenance.HandAuthored() || v.Provenance.DiscoveryHash != "" {
		t.Fatalf("promoted: state %s, provenance %+v", v.State, v.Provenance)
	}
	if err := v.Validate().Err(); err != nil {
		t.Fatalf("the promoted hand-authored capability is invalid: %v", err)
	}
	ha, hb := readFile(t, a, receipt.FileReceipt), readFile(t, b, receipt.FileReceipt)
	if err := receipt.CheckClaim(context.Background(), v, map[string][]byte{sum(ha): ha, sum(hb): hb}); err != nil {
		t.Fatalf("CheckClaim: %v", err)
	}

	// One clean run does not promote.
	_, err = receipt.Finalize(context.Background(), c, []string{a}, fixedClock)
	var fe receipt.FinalizeErrors
	if !errors.As(err, &fe) || !fe.Has("", receipt.CheckRuns) {
		t.Fatalf("one run: %v", err)
	}
	// The same run twice does not either.
	if _, err := receipt.Finalize(context.Background(), c, []string{a, a}, fixedClock); !errors.As(err, &fe) || !fe.Has(a, receipt.CheckUnique) {
		t.Fatalf("one run twice: %v", err)
	}
	// A receipt that pins a (forged) discovery hash is not a run of this
	// hand-authored capability.
	forged := writeRun(t, cleanRun(t, c, nil)) // cleanRun pins the helper's discovery hash
	if _, err := receipt.Finalize(context.Background(), c, []string{a, forged}, fixedClock); !errors.As(err, &fe) || !fe.Has(forged, receipt.CheckDiscoveryHash) {
		t.Fatalf("forged discovery hash: %v", err)
	}
	// Promoting an already validated capability, or a draft, is refused.
	if _, err := receipt.Finalize(context.Background(), v, []string{a, b}, fixedClock); !errors.As(err, &fe) || !fe.Has("", receipt.CheckState) {
		t.Fatalf("validated_local again: %v", err)
	}
}

// TestFinalizeHandAuthoredForgedCombinations: a capability whose state and
// provenance kind disagree is refused as invalid, whatever its runs.
func TestFinalizeHandAuthoredForgedCombinations(t *testing.T) {
	tests := []struct {
		name string
		edit func(c *capability.Capability)
	}{
		{"authored over a discovery provenance", func(c *capability.Capability) { *c.Provenance = *testCapability().Provenance }},
		{"discovered over a hand_authored provenance", func(c *capability.Capability) { c.State = capability.StateDiscovered }},
		{"hand_authored with an invented discovery hash", func(c *capability.Capability) { c.Provenance.DiscoveryHash = discoveryHash }},
		{"hand_authored review naming a record", func(c *capability.Capability) { c.Provenance.Review.RecordHash = discoveryHash }},
		{"hand_authored without author", func(c *capability.Capability) { c.Provenance.Author = "" }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := handAuthored()
			tc.edit(c)
			a, b := handRun(t, c, nil), handRun(t, c, nil)
			_, err := receipt.Finalize(context.Background(), c, []string{a, b}, fixedClock)
			var fe receipt.FinalizeErrors
			if !errors.As(err, &fe) || !fe.Has("", receipt.CheckCapability) {
				t.Fatalf("err = %v", err)
			}
			if _, err := receipt.VerifyRun(context.Background(), a, c); err == nil {
				t.Fatal("VerifyRun accepted a run of a forged capability")
			}
		})
	}
}

// TestFinalizeHandAuthoredConsequential: a hand-authored consequential
// action still needs its action-time approval in every counted run.
func TestFinalizeHandAuthoredConsequential(t *testing.T) {
	c := handAuthored()
	c.Authority.MaxEffect = capability.EffectConsequential
	sub := &c.Milestones[0].Actions[2]
	sub.Effect, sub.Confirmation = capability.EffectConsequential, capability.ConfirmActionTime
	if err := c.ValidateForExecution().Err(); err != nil {
		t.Fatal(err)
	}
	consequential := func(approved bool) func(*runwrite.Run) {
		return func(r *runwrite.Run) {
			a := &r.Receipt.Actions[2]
			a.Effect, a.Dispatched = "consequential", true
			if approved {
				names, shown := receipt.ShownFromRecords(r.Receipt, c, c.Milestones[0].ID, a.ID)
				h, err := receipt.ApprovalShownHash(r.Receipt.Capability.ExecutionHash, a.ID, shown)
				if err != nil {
					t.Fatal(err)
				}
				a.Approval = &receipt.ApprovalProof{Approved: true, Requester: "agent", Approver: "operator",
					ShownInputs: names, ShownHash: h}
			}
		}
	}
	a, b := handRun(t, c, consequential(true)), handRun(t, c, consequential(true))
	if _, err := receipt.Finalize(context.Background(), c, []string{a, b}, fixedClock); err != nil {
		t.Fatalf("approved runs: %v", err)
	}
	unapproved := handRun(t, c, consequential(false))
	_, err := receipt.Finalize(context.Background(), c, []string{a, unapproved}, fixedClock)
	var fe receipt.FinalizeErrors
	if !errors.As(err, &fe) || !fe.Has(unapproved, receipt.CheckVerify) || !errors.Is(err, receipt.ErrSequence) {
		t.Fatalf("unapproved consequential run: %v", err)
	}
}

// decoyCapability puts a role candidate before the member record's test
// id root: the role matches three elements in every run.
func decoyCapability() *capability.Capability {
	c := handAuthored()
	rm := &c.Milestones[1].Actions[0]
	rm.LocatorCandidates = []locator.Candidate{role("definition", ""), {Strategy: locator.CSS, CSS: "dl#member"}}
	return c
}

func TestFinalizeDecoyCandidate(t *testing.T) {
	c := decoyCapability()
	if err := c.Validate().Err(); err != nil {
		t.Fatal(err)
	}
	withMatches := func(first int) func(*runwrite.Run) {
		return func(r *runwrite.Run) {
			a := &r.Receipt.Actions[3]
			a.LocatorIndex, a.LocatorMatches = intp(1), []int{first, 1}
			// fill-query won at 1 after the role matched nothing: stale.
			r.Receipt.Actions[0].LocatorMatches = []int{0, 1}
		}
	}
	a, b := handRun(t, c, withMatches(3)), handRun(t, c, withMatches(3))
	var rep receipt.FinalizeReport
	_, err := receipt.Finalize(context.Background(), c, []string{a, b}, fixedClock, receipt.WithReport(&rep))
	var fe receipt.FinalizeErrors
	if !errors.As(err, &fe) || !fe.Has("", receipt.CheckDecoyCandidate) || len(fe) != 1 {
		t.Fatalf("decoy: %v", err)
	}
	want := []receipt.CandidateFinding{
		{Action: "fill-query", Candidate: 0, Strategy: "role", Matches: []int{0, 0}},
		{Action: "read-member", Candidate: 0, Strategy: "role", Matches: []int{3, 3}, Decoy: true},
	}
	if !slices.EqualFunc(rep.Candidates, want, func(x, y receipt.CandidateFinding) bool {
		return x.Action == y.Action && x.Candidate == y.Candidate && x.Strategy == y.Strategy && slices.Equal(x.Matches, y.Matches) && x.Decoy == y.Decoy
	}) {
		t.Fatalf("report = %+v, want %+v", rep.Candidates, want)
	}

	// A candidate that matched several elements in one run and nothing in
	// the other is reported, not a decoy: promotion goes ahead.
	a2 := handRun(t, c, withMatches(0))
	rep = receipt.FinalizeReport{}
	if _, err := receipt.Finalize(context.Background(), c, []string{a, a2}, fixedClock, receipt.WithReport(&rep)); err != nil {
		t.Fatalf("mixed: %v", err)
	}
	if len(rep.Candidates) != 2 || rep.Candidates[1].Decoy {
		t.Fatalf("mixed report = %+v", rep.Candidates)
	}
	// A candidate that won in one of the runs is not reported.
	won := handRun(t, c, func(r *runwrite.Run) {
		a := &r.Receipt.Actions[3]
		a.LocatorIndex, a.LocatorMatches = intp(0), []int{1}
	})
	rep = receipt.FinalizeReport{}
	if _, err := receipt.Finalize(context.Background(), c, []string{a, won}, fixedClock, receipt.WithReport(&rep)); err != nil {
		t.Fatalf("won once: %v", err)
	}
	for _, f := range rep.Candidates {
		if f.Action == "read-member" {
			t.Fatalf("a candidate that won is reported: %+v", f)
		}
	}
}

// TestVerifyRunLocatorMatches tampers with the winning-candidate evidence.
func TestVerifyRunLocatorMatches(t *testing.T) {
	c := testCapability()
	tests := []struct {
		name string
		edit func(r *receipt.Receipt)
		want error // nil: the run verifies
	}{
		{"consistent", func(r *receipt.Receipt) { r.Actions[0].LocatorMatches = []int{2, 1} }, nil},
		{"list root", func(r *receipt.Receipt) { r.Actions[6].LocatorMatches = []int{2} }, nil},
		{"absent (an earlier writer)", func(r *receipt.Receipt) {}, nil},
		{"without locator_index", func(r *receipt.Receipt) { r.Actions[0].LocatorIndex = nil; r.Actions[0].LocatorMatches = []int{1} }, receipt.ErrInconsistent},
		{"too short", func(r *receipt.Receipt) { r.Actions[0].LocatorMatches = []int{1} }, receipt.ErrInconsistent},
		{"too long", func(r *receipt.Receipt) { r.Actions[0].LocatorMatches = []int{0, 0, 1} }, receipt.ErrInconsistent},
		{"negative", func(r *receipt.Receipt) { r.Actions[0].LocatorMatches = []int{-1, 1} }, receipt.ErrSchema},
		{"winner matched nothing", func(r *receipt.Receipt) { r.Actions[0].LocatorMatches = []int{0, 0} }, receipt.ErrInconsistent},
		{"unique loser", func(r *receipt.Receipt) { r.Actions[0].LocatorMatches = []int{1, 1} }, receipt.ErrInconsistent},
		{"ambiguous winner of a fill", func(r *receipt.Receipt) { r.Actions[0].LocatorMatches = []int{0, 3} }, receipt.ErrSequence},
		{"list root after a matching loser", func(r *receipt.Receipt) {
			r.Actions[6].LocatorIndex, r.Actions[6].LocatorMatches = intp(0), []int{3}
			r.Actions[3].LocatorMatches = []int{1}
			r.Actions[8].LocatorMatches = []int{1}
		}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeRun(t, cleanRun(t, c, func(r *runwrite.Run) { tc.edit(r.Receipt) }))
			_, err := receipt.VerifyRun(context.Background(), dir, c)
			if tc.want == nil {
				if err != nil {
					t.Fatalf("VerifyRun: %v", err)
				}
				// Any edit after sealing breaks the lock.
				editless := readFile(t, dir, receipt.FileReceipt)
				rewrite(t, dir, receipt.FileReceipt, append(editless[:len(editless):len(editless)], ' '))
				if _, err := receipt.VerifyRun(context.Background(), dir, c); !errors.Is(err, receipt.ErrVerify) {
					t.Fatalf("edited receipt verifies: %v", err)
				}
				return
			}
			if !errors.Is(err, tc.want) || !errors.Is(err, receipt.ErrVerify) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
		})
	}
	// Re-locked edit of a sealed receipt: the verifier catches the
	// inconsistency, not only the hash.
	dir := writeRun(t, cleanRun(t, c, func(r *runwrite.Run) { r.Receipt.Actions[0].LocatorMatches = []int{3, 1} }))
	editReceipt(t, dir, func(r *receipt.Receipt) { r.Actions[0].LocatorMatches = []int{1, 1} })
	if _, err := receipt.VerifyRun(context.Background(), dir, c); !errors.Is(err, receipt.ErrInconsistent) {
		t.Fatalf("re-locked forged evidence: %v", err)
	}
}

// TestVerifyRunScopedListLoser: a list root's losing candidate matched
// nothing, except a scoped candidate whose scope matched several
// elements (FORMAT 3.2 "Scoped candidates": it loses as ambiguous, and
// its entry is the scope's count, 2 or more); an unscoped loser with
// matches, or a scoped one with exactly 1, is refused.
func TestVerifyRunScopedListLoser(t *testing.T) {
	body := role("rowgroup", "")
	tests := []struct {
		name    string
		scoped  bool
		matches []int
		want    error // nil: the run verifies
	}{
		{"scoped, ambiguous scope", true, []int{2, 3}, nil},
		{"scoped, matched nothing", true, []int{0, 3}, nil},
		{"scoped, unique", true, []int{1, 3}, receipt.ErrInconsistent},
		{"unscoped, several", false, []int{2, 3}, receipt.ErrSequence},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := testCapability()
			first := role("row", "Movement")
			if tc.scoped {
				first.Scope = &body
			}
			for mi := range c.Milestones {
				for ai := range c.Milestones[mi].Actions {
					if a := &c.Milestones[mi].Actions[ai]; a.ID == "read-movements" {
						a.LocatorCandidates = append([]locator.Candidate{first}, a.LocatorCandidates...)
					}
				}
			}
			dir := writeRun(t, cleanRun(t, c, func(r *runwrite.Run) {
				for i := range r.Receipt.Actions {
					if a := &r.Receipt.Actions[i]; a.ID == "read-movements" {
						a.LocatorIndex, a.LocatorMatches = intp(1), tc.matches
					}
				}
			}))
			_, err := receipt.VerifyRun(context.Background(), dir, c)
			if tc.want == nil {
				if err != nil {
					t.Fatalf("VerifyRun: %v", err)
				}
				return
			}
			if !errors.Is(err, tc.want) || !errors.Is(err, receipt.ErrVerify) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
		})
	}
}
