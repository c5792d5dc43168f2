package discovery

import (
	"errors"
	"testing"
)

// TestPromoteMilestoneFramePath: a milestone's own frame path is checked
// like the runtime-wide one: an action's target must have been observed
// in the frame the milestone acts in. The reviewed runtime path must still
// equal the record's (discovery records one runtime-wide path), so a
// per-milestone draft of a framed record is refused at the runtime
// boundary.
func TestPromoteMilestoneFramePath(t *testing.T) {
	_, rec, draft := reviewedLedger(t)
	base := authored(t, draft)

	// The record's runtime path is the ledger's: the per-milestone form is
	// a different runtime boundary, whatever the milestones say.
	c, _ := base.Clone()
	c.Runtime.FrameSelectors = nil
	for i := range c.Milestones {
		c.Milestones[i].FrameSelectors = ledger
	}
	_, err := Promote(c, rec, approval(t, rec))
	var pe PromotionErrors
	if !errors.As(err, &pe) || !pe.Has(BoundaryRuntime) || pe.Has(BoundaryObservation) {
		t.Fatalf("ledger per milestone: %v, want only the runtime boundary", err)
	}
	// A milestone path where the controls were never observed is also an
	// observation refusal.
	c.Milestones[1].FrameSelectors = ledger[:1]
	_, err = Promote(c, rec, approval(t, rec))
	if !errors.As(err, &pe) || !pe.Has(BoundaryObservation) {
		t.Fatalf("workspace path: %v, want an observation refusal", err)
	}
}
