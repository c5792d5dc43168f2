package capability

import (
	"slices"
	"strings"
	"testing"

	"github.com/vera-run/vera/locator"
)

const someDigest = "sha256:7d1c0a5e9b6f4e2c8a3d5f1b0c9e8d7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e"

// handAuthoredRisky is the consequential invoice capability written by
// hand: state authored, hand_authored provenance, no validation.
func handAuthoredRisky(t *testing.T) *Capability {
	c := loadValid(t, "invoice")
	c.State = StateAuthored
	c.Validation = nil
	c.Provenance = &Provenance{Kind: ProvenanceHandAuthored, Author: "a", Reason: "no discovery",
		Review: &Review{Reviewer: "r", ReviewedAt: "2026-04-02T09:30:00Z", AuthoringApproved: true}}
	return c
}

func TestProvenanceKinds(t *testing.T) {
	tests := []struct {
		name string
		base string
		edit func(c *Capability)
		want []Code // Validate codes; nil = valid
	}{
		{name: "hand authored", base: "mail"},
		{name: "hand authored explicit discovery kind on teller", base: "teller",
			edit: func(c *Capability) { c.Provenance.Kind = ProvenanceDiscovery }},
		{name: "hand authored validated_local", base: "mail", edit: func(c *Capability) {
			c.State = StateValidatedLocal
			c.Validation = &Validation{Receipts: []string{"sha256:" + strings.Repeat("1", 64), "sha256:" + strings.Repeat("2", 64)},
				ExecutionMode: "live_connected_chrome", FinalizedAt: "2026-04-03T10:00:00Z"}
		}},
		{name: "hand authored scaffold may be incomplete", base: "mail", edit: func(c *Capability) {
			c.State = StateScaffold
			c.Provenance.Author, c.Provenance.Reason, c.Provenance.Review = "", "", nil
		}},
		{name: "authored risky is a valid document", base: "invoice", edit: func(c *Capability) {
			*c = *handAuthoredRisky(t)
		}},
		{name: "authored without provenance", base: "mail", edit: func(c *Capability) { c.Provenance = nil },
			want: []Code{CodeProvenanceRequired}},
		{name: "authored over discovery", base: "teller", edit: func(c *Capability) { c.State = StateAuthored },
			want: []Code{CodeProvenanceKindMismatch}},
		{name: "draft hand authored", base: "mail", edit: func(c *Capability) { c.State = StateDraft },
			want: []Code{CodeProvenanceKindMismatch}},
		{name: "discovered hand authored", base: "mail", edit: func(c *Capability) { c.State = StateDiscovered },
			want: []Code{CodeProvenanceKindMismatch}},
		{name: "forged discovery members", base: "mail", edit: func(c *Capability) {
			p := c.Provenance
			p.DiscoveryHash, p.DiscoveryModel, p.DiscoveryRunID, p.DiscoveryMode = someDigest, "m", "run", "guided"
			p.Review.RecordHash, p.Review.ReviewHash = someDigest, someDigest
		}, want: []Code{CodeProvenanceKindMismatch}},
		{name: "hand authored validated_local without review", base: "mail", edit: func(c *Capability) {
			c.State = StateValidatedLocal
			c.Validation = &Validation{Receipts: []string{"sha256:" + strings.Repeat("1", 64), "sha256:" + strings.Repeat("2", 64)},
				ExecutionMode: "live_connected_chrome", FinalizedAt: "2026-04-03T10:00:00Z"}
			c.Provenance.Review = nil
		}, want: []Code{CodeReviewRequired}},
		{name: "hand authored not approved", base: "mail", edit: func(c *Capability) { c.Provenance.Review.AuthoringApproved = false },
			want: []Code{CodeAuthoringNotApproved}},
		{name: "hand authored blank reason", base: "mail", edit: func(c *Capability) { c.Provenance.Reason = "  " },
			want: []Code{CodeProvenanceIncomplete}},
		{name: "discovery with author", base: "teller", edit: func(c *Capability) { c.Provenance.Author, c.Provenance.Reason = "a", "b" },
			want: []Code{CodeProvenanceKindMismatch}},
		{name: "discovery without hash", base: "teller", edit: func(c *Capability) { c.Provenance.DiscoveryHash = "" },
			want: []Code{CodeRequired}},
		{name: "discovery review without record hash", base: "teller", edit: func(c *Capability) { c.Provenance.Review.RecordHash = "" },
			want: []Code{CodeRequired}},
		{name: "unknown kind", base: "mail", edit: func(c *Capability) { c.Provenance.Kind = "Hand_Authored" },
			want: []Code{CodeUnknownProvenanceKind}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := loadValid(t, tc.base)
			if tc.edit != nil {
				tc.edit(c)
			}
			if got := codeSet(c.Validate()); !slices.Equal(got, tc.want) {
				t.Fatalf("codes = %v, want %v (%v)", got, tc.want, c.Validate())
			}
		})
	}
}

// TestAuthoredExecutable: an authored capability runs, a consequential one
// too (the runtime's action-time gate still stops it for approval), and
// its execution hash covers the provenance.
func TestAuthoredExecutable(t *testing.T) {
	c := handAuthoredRisky(t)
	if !c.Risky() {
		t.Fatal("invoice capability is not risky")
	}
	if errs := c.ValidateForExecution(); len(errs) != 0 {
		t.Fatalf("ValidateForExecution: %v", errs)
	}
	h1, err := c.ExecutionHash()
	if err != nil {
		t.Fatal(err)
	}
	c.Provenance.Author = "someone else"
	if h2, _ := c.ExecutionHash(); h2 == h1 {
		t.Fatal("the author is not covered by the execution hash")
	}
	c.State = StateScaffold
	if got := codeSet(c.ValidateForExecution()); !slices.Equal(got, []Code{CodeRiskyBelowDiscovered}) {
		t.Fatalf("hand-authored risky scaffold: %v", got)
	}
}

func TestCSSOnlyReason(t *testing.T) {
	cssOnly := []locator.Candidate{css("dd#saldo")}
	tests := []struct {
		name   string
		reason string
		cands  []locator.Candidate
		want   []Code // sorted; an invalid reason waives nothing
	}{
		{name: "css only without reason", cands: cssOnly, want: []Code{locator.CodeNoSemantic}},
		{name: "css only with reason", reason: "the balance <dd> has no role, label or text handle", cands: cssOnly},
		{name: "blank", reason: " \t", cands: cssOnly, want: []Code{CodeCSSOnlyReasonInvalid, locator.CodeNoSemantic}},
		{name: "control character", reason: "no handle\x07", cands: cssOnly, want: []Code{CodeControlCharacter, CodeCSSOnlyReasonInvalid, locator.CodeNoSemantic}},
		{name: "newline", reason: "no\nhandle", cands: cssOnly, want: []Code{CodeCSSOnlyReasonInvalid, locator.CodeNoSemantic}},
		{name: "too long", reason: strings.Repeat("é", MaxCSSOnlyReasonRunes+1), cands: cssOnly, want: []Code{CodeCSSOnlyReasonInvalid, locator.CodeNoSemantic}},
		{name: "at the bound", reason: strings.Repeat("é", MaxCSSOnlyReasonRunes), cands: cssOnly},
		{name: "with a semantic candidate", reason: "x", cands: []locator.Candidate{role("definition", ""), css("dd#saldo")},
			want: []Code{CodeCSSOnlyReasonMisplaced}},
		{name: "credential-shaped reason", reason: "password=hunter2hunter2", cands: cssOnly, want: []Code{CodeCredentialLiteral}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := loadValid(t, "teller")
			a := act(t, c, "extract-balances")
			a.LocatorCandidates = tc.cands
			a.CSSOnlyReason = tc.reason
			got := codeSet(c.Validate())
			if !slices.Equal(got, tc.want) {
				t.Fatalf("codes = %v, want %v (%v)", got, tc.want, c.Validate())
			}
			if tc.reason != "" && tc.want == nil {
				h1, _ := c.ExecutionHash()
				a.CSSOnlyReason += "."
				if h2, _ := c.ExecutionHash(); h1 == h2 {
					t.Fatal("css_only_reason is not hashed")
				}
			}
		})
	}
	// Misplaced: an action without a locator, and a consequential click.
	c := loadValid(t, "invoice")
	for _, m := range c.Milestones {
		for i := range m.Actions {
			a := &m.Actions[i]
			if a.Effect == EffectConsequential {
				a.LocatorCandidates = []locator.Candidate{css("button.issue")}
				a.CSSOnlyReason = "no handle"
			}
		}
	}
	if got := codeSet(c.Validate()); !slices.Contains(got, CodeCSSOnlyReasonMisplaced) || !slices.Contains(got, locator.CodeNoSemantic) {
		t.Fatalf("consequential CSS-only click: %v", got)
	}
}
