package discovery

import (
	"errors"
	"reflect"
	"slices"
	"testing"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/locator"
)

// authored returns the ledger draft with its actions authored from the
// observed controls.
func authored(t *testing.T, draft *capability.Capability) *capability.Capability {
	t.Helper()
	c, err := draft.Clone()
	if err != nil {
		t.Fatal(err)
	}
	visible := func(cand locator.Candidate) *capability.Condition {
		return &capability.Condition{Kind: capability.CondLocatorVisible, LocatorCandidates: []locator.Candidate{cand}}
	}
	c.Milestones[0].Actions = []capability.Action{{
		ID: "wait-ledger", Operation: capability.OpWait, Intent: "The ledger is shown",
		Effect: capability.EffectReadOnly, Confirmation: capability.ConfirmNone,
		Postcondition: visible(roleCand("button", "Export CSV")),
	}}
	c.Milestones[1].Actions = []capability.Action{{
		ID: "next-page", Operation: capability.OpClick, Intent: "Go to the next page",
		Effect: capability.EffectReadOnly, Confirmation: capability.ConfirmNone,
		LocatorCandidates: []locator.Candidate{roleCand("button", "Next page")},
		Postcondition:     visible(roleCand("button", "Previous page")),
	}}
	if errs := c.Validate(); len(errs) > 0 {
		t.Fatalf("authored capability invalid: %v", errs)
	}
	return c
}

func approval(t *testing.T, rec *Record) capability.Review {
	return capability.Review{Reviewer: "Operator One", ReviewedAt: "2026-03-30T09:00:00Z", RecordHash: mustHash(t, rec), AuthoringApproved: true}
}

func TestPromote(t *testing.T) {
	_, rec, draft := reviewedLedger(t)
	c := authored(t, draft)
	before, _ := c.Clone()
	out, err := Promote(c, rec, approval(t, rec))
	if err != nil {
		t.Fatal(err)
	}
	if out.State != capability.StateDiscovered || out.Provenance.Review == nil || !out.Provenance.Review.AuthoringApproved {
		t.Fatalf("promoted = %+v", out.Provenance)
	}
	if errs := out.ValidateForExecution(); len(errs) > 0 {
		t.Fatalf("a promoted capability must be executable: %v", errs)
	}
	if !reflect.DeepEqual(before, c) {
		t.Fatal("Promote mutated the draft")
	}
}

// TestPromoteRefusesEveryBoundary: each mismatch with the reviewed record
// is refused with the boundary named.
func TestPromoteRefusesEveryBoundary(t *testing.T) {
	_, rec, draft := reviewedLedger(t)
	base := authored(t, draft)
	tests := []struct {
		name     string
		cap      func(c *capability.Capability)
		rec      func(r *Record)
		review   func(rv *capability.Review)
		boundary Boundary
	}{
		{name: "unreviewed record", rec: func(r *Record) { r.Review = nil }, boundary: BoundaryReview},
		{name: "review of another record", review: func(rv *capability.Review) { rv.RecordHash = "sha256:" + fill64('1') }, boundary: BoundaryReview},
		{name: "no authoring approval", review: func(rv *capability.Review) { rv.AuthoringApproved = false }, boundary: BoundaryReview},
		{name: "no reviewer", review: func(rv *capability.Review) { rv.Reviewer = "" }, boundary: BoundaryReview},
		{name: "bad review time", review: func(rv *capability.Review) { rv.ReviewedAt = "now" }, boundary: BoundaryReview},
		{name: "not a draft", cap: func(c *capability.Capability) { c.State = capability.StateScaffold }, boundary: BoundaryState},
		{name: "other record hash", cap: func(c *capability.Capability) { c.Provenance.DiscoveryHash = "sha256:" + fill64('2') }, boundary: BoundaryProvenance},
		{name: "other mode", cap: func(c *capability.Capability) { c.Provenance.DiscoveryMode = "autonomous" }, boundary: BoundaryProvenance},
		{name: "other model", cap: func(c *capability.Capability) { c.Provenance.DiscoveryModel = "other" }, boundary: BoundaryProvenance},
		{name: "other run", cap: func(c *capability.Capability) { c.Provenance.DiscoveryRunID = "run-other-run" }, boundary: BoundaryProvenance},
		{name: "site name", cap: func(c *capability.Capability) { c.Site.Name = "Other" }, boundary: BoundarySite},
		{name: "more origins", cap: func(c *capability.Capability) {
			c.Site.AllowedOrigins = append(c.Site.AllowedOrigins, "https://pay.example")
		}, boundary: BoundarySite},
		{name: "fewer origins", cap: func(c *capability.Capability) { c.Site.AllowedOrigins = c.Site.AllowedOrigins[:1] }, boundary: BoundarySite},
		{name: "subresource origin", cap: func(c *capability.Capability) { c.Site.SubresourceOrigins = []string{"https://cdn.example"} }, boundary: BoundarySite},
		{name: "process name", cap: func(c *capability.Capability) { c.Name = "Export and pay invoices" }, boundary: BoundaryProcess},
		{name: "process goal", cap: func(c *capability.Capability) { c.Goal = "Export and pay every invoice." }, boundary: BoundaryProcess},
		{name: "start", cap: func(c *capability.Capability) { c.Runtime.Start = "/billing/admin" }, boundary: BoundaryRuntime},
		{name: "frame selectors", cap: func(c *capability.Capability) { c.Runtime.FrameSelectors = ledger[:1] }, boundary: BoundaryRuntime},
		{name: "higher max effect", cap: func(c *capability.Capability) { c.Authority.MaxEffect = capability.EffectConsequential }, boundary: BoundaryAuthority},
		{name: "lower max effect", rec: func(r *Record) { r.Authority.MaxEffect = capability.EffectReversible }, boundary: BoundaryAuthority},
		{name: "operator authentication", cap: func(c *capability.Capability) { c.Authority.OperatorAuthenticates = false }, boundary: BoundaryAuthority},
		{name: "more data classes", cap: func(c *capability.Capability) {
			c.Privacy.DataClasses = append(c.Privacy.DataClasses, "payments")
		}, boundary: BoundaryPrivacy},
		{name: "fewer data classes", cap: func(c *capability.Capability) { c.Privacy.DataClasses = []string{} }, boundary: BoundaryPrivacy},
		{name: "retain downloads", cap: func(c *capability.Capability) { c.Privacy.RetainDownloads = true }, boundary: BoundaryPrivacy},
		{name: "unobserved milestone", cap: func(c *capability.Capability) {
			c.Milestones = append(c.Milestones, capability.Milestone{ID: "export", Intent: "Export", Actions: []capability.Action{{
				ID: "export-csv", Operation: capability.OpClick, Intent: "Export", Effect: capability.EffectReadOnly,
				Confirmation: capability.ConfirmNone, LocatorCandidates: []locator.Candidate{roleCand("button", "Export CSV")},
				Postcondition: &capability.Condition{Kind: capability.CondLocatorVisible, LocatorCandidates: []locator.Candidate{roleCand("button", "Export CSV")}},
			}}})
		}, boundary: BoundaryObservation},
		{name: "milestone without observations", rec: func(r *Record) { r.Milestones[1].Observations = []string{} }, boundary: BoundaryObservation},
		{name: "unobserved control", cap: func(c *capability.Capability) {
			c.Milestones[1].Actions[0].LocatorCandidates = []locator.Candidate{roleCand("button", "Next")}
		}, boundary: BoundaryObservation},
		{name: "control observed in another milestone only", cap: func(c *capability.Capability) {
			// Previous page appeared only in paginate's observations.
			c.Milestones[0].Actions = append(c.Milestones[0].Actions, capability.Action{
				ID: "prev-page", Operation: capability.OpClick, Intent: "Back", Effect: capability.EffectReadOnly,
				Confirmation: capability.ConfirmNone, LocatorCandidates: []locator.Candidate{roleCand("button", "Previous page")},
				Postcondition: &capability.Condition{Kind: capability.CondLocatorVisible, LocatorCandidates: []locator.Candidate{roleCand("button", "Next page")}},
			})
		}, boundary: BoundaryObservation},
		{name: "unobserved navigation", cap: func(c *capability.Capability) {
			c.Milestones[0].Actions = append(c.Milestones[0].Actions, capability.Action{
				ID: "go-admin", Operation: capability.OpNavigate, Intent: "Admin", URL: "/admin",
				Effect: capability.EffectReadOnly, Confirmation: capability.ConfirmNone,
				Postcondition: &capability.Condition{Kind: capability.CondURLPath, Value: "/admin"},
			})
		}, boundary: BoundaryObservation},
		{name: "actions not authored", cap: func(c *capability.Capability) { c.Milestones[0].Actions = nil }, boundary: BoundaryCapability},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, _ := base.Clone()
			r := rec.Clone()
			if tt.rec != nil {
				tt.rec(r)
			}
			rv := approval(t, r)
			if tt.cap != nil {
				tt.cap(c)
			}
			if tt.review != nil {
				tt.review(&rv)
			}
			out, err := Promote(c, r, rv)
			if out != nil || !errors.Is(err, ErrPromotion) {
				t.Fatalf("promoted: %v", err)
			}
			var pe PromotionErrors
			if !errors.As(err, &pe) || !pe.Has(tt.boundary) {
				t.Fatalf("err = %v, want boundary %s", err, tt.boundary)
			}
			var one *PromotionError
			if !errors.As(err, &one) || !errors.Is(one, ErrPromotion) {
				t.Fatalf("no *PromotionError in %v", err)
			}
		})
	}
}

// TestNarrowerReviewNeverAuthorizesBroader: a record reviewed for a
// read-only, one-origin, one-class proof does not authorize a capability
// with a consequential action, another origin or another data class, even
// when everything else matches.
func TestNarrowerReviewNeverAuthorizesBroader(t *testing.T) {
	_, rec, draft := reviewedLedger(t)
	c := authored(t, draft)
	// Broaden the capability in one place at a time.
	issue, _ := c.Clone()
	issue.Authority.MaxEffect = capability.EffectConsequential
	issue.Milestones[1].Actions = append(issue.Milestones[1].Actions, capability.Action{
		ID: "issue", Operation: capability.OpClick, Intent: "Issue an invoice",
		Effect: capability.EffectConsequential, Confirmation: capability.ConfirmActionTime,
		LocatorCandidates: []locator.Candidate{roleCand("button", "Issue invoice")},
		Postcondition:     &capability.Condition{Kind: capability.CondTextVisible, Text: "issued"},
	})
	_, err := Promote(issue, rec, approval(t, rec))
	var pe PromotionErrors
	if !errors.As(err, &pe) || !pe.Has(BoundaryAuthority) {
		t.Fatalf("consequential action against a read_only review: %v", err)
	}
	// Even if the action claims read_only, the reviewed record's authority
	// is compared on its own: the action is observed, the effect is what
	// the capability declares; a consequential declaration is refused.
	sneaky, _ := c.Clone()
	sneaky.Milestones[1].Actions = append(sneaky.Milestones[1].Actions, capability.Action{
		ID: "issue", Operation: capability.OpClick, Intent: "Issue an invoice",
		Effect: capability.EffectConsequential, Confirmation: capability.ConfirmActionTime,
		LocatorCandidates: []locator.Candidate{roleCand("button", "Issue invoice")},
		Postcondition:     &capability.Condition{Kind: capability.CondTextVisible, Text: "issued"},
	})
	if _, err := Promote(sneaky, rec, approval(t, rec)); !errors.As(err, &pe) || !pe.Has(BoundaryAuthority) {
		t.Fatalf("consequential action with a read_only ceiling: %v", err)
	}
	// The broader review promotes what the narrower one refuses.
	wide := rec.Clone()
	wide.Authority.MaxEffect = capability.EffectConsequential
	widen, _ := issue.Clone()
	widen.Provenance.DiscoveryHash = mustHash(t, wide)
	if _, err := Promote(widen, wide, approval(t, wide)); err != nil {
		t.Fatalf("broader review: %v", err)
	}
	// And the narrower review still refuses that same capability.
	if _, err := Promote(widen, rec, approval(t, rec)); !errors.As(err, &pe) || !slices.Contains(pe.Boundaries(), BoundaryAuthority) {
		t.Fatalf("narrower review authorized a broader capability: %v", err)
	}
}

func TestPromoteNil(t *testing.T) {
	var pe PromotionErrors
	if _, err := Promote(nil, nil, capability.Review{}); !errors.As(err, &pe) || !pe.Has(BoundaryInput) {
		t.Fatalf("err = %v", err)
	}
}

func fill64(c byte) string {
	b := make([]byte, 64)
	for i := range b {
		b[i] = c
	}
	return string(b)
}

// TestPromoteBindsTheRecordReview: the record hash excludes the review
// member, so Promote binds the review itself: a record that differs from
// the reviewed one only in its review (another reviewer and date) is
// refused with a typed code, and the promoted capability commits to the
// record's review through review_hash.
func TestPromoteBindsTheRecordReview(t *testing.T) {
	_, rec, draft := reviewedLedger(t)
	c := authored(t, draft)
	bound, err := ReviewHash(rec)
	if err != nil {
		t.Fatal(err)
	}
	out, err := Promote(c, rec, approval(t, rec))
	if err != nil {
		t.Fatal(err)
	}
	if out.Provenance.Review.ReviewHash != bound {
		t.Fatalf("review_hash = %q, want %q", out.Provenance.Review.ReviewHash, bound)
	}
	if errs := out.Validate(); len(errs) > 0 {
		t.Fatal(errs)
	}

	swapped := rec.Clone()
	swapped.Review = &RecordReview{Reviewer: "Someone Else", ReviewedAt: "2026-04-01T10:00:00Z"}
	if mustHash(t, swapped) != mustHash(t, rec) {
		t.Fatal("the record hash covers the review; the test premise is gone")
	}
	if _, err := ReviewHash(&Record{}); !errors.Is(err, ErrInvalid) {
		t.Errorf("ReviewHash of an unreviewed record: %v", err)
	}
	withHash := func(rv capability.Review, h string) capability.Review { rv.ReviewHash = h; return rv }
	asSwapped := capability.Review{Reviewer: "Someone Else", ReviewedAt: "2026-04-01T10:00:00Z",
		RecordHash: mustHash(t, rec), AuthoringApproved: true}
	tests := []struct {
		name   string
		rec    *Record
		review capability.Review
		code   Code
	}{
		{"the approved review against a swapped record", swapped, approval(t, rec), PromotionReviewSwapped},
		{"bound to the original, fields and record swapped", swapped, withHash(asSwapped, bound), PromotionReviewHash},
		{"a review hash that binds nothing", rec, withHash(approval(t, rec), "sha256:"+fill64('3')), PromotionReviewHash},
		{"another reviewer than the record's", rec, func() capability.Review { rv := approval(t, rec); rv.Reviewer = "Operator Two"; return rv }(), PromotionReviewSwapped},
		{"unreviewed record", func() *Record { r := rec.Clone(); r.Review = nil; return r }(), approval(t, rec), PromotionUnreviewed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Promote(c, tt.rec, tt.review)
			var pe PromotionErrors
			if !errors.As(err, &pe) || !pe.HasCode(tt.code) || !pe.Has(BoundaryReview) || !errors.Is(err, ErrPromotion) {
				t.Fatalf("err = %v, want code %s", err, tt.code)
			}
		})
	}
	// The binding given explicitly and right is accepted.
	if _, err := Promote(c, rec, withHash(approval(t, rec), bound)); err != nil {
		t.Fatalf("explicit review_hash: %v", err)
	}
}
