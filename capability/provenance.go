package capability

import (
	"fmt"
	"github.com/vera-run/vera/internal/textrule"
)

// provenance checks the provenance rules of the state, by kind.
//
// A discovery provenance (kind omitted or "discovery") always names its
// discovery_hash; from discovered up it also names the model and run and
// carries a review of that exact record (record_hash equal to
// discovery_hash, authoring approved). A hand_authored provenance carries no
// discovery member at all (a hand-written capability never fakes a
// discovery record); in authored and validated_local it names the author
// and the reason there is no discovery record, and carries a review without
// record_hash (reviewer, reviewed_at, authoring approved). The state and the
// kind must agree: authored is hand_authored, draft and discovered are
// discovery, scaffold and validated_local may be either.
func (v *validation) provenance(rank int) {
	c := v.c
	p := c.Provenance
	if p == nil {
		if rank >= StateDraft.Rank() {
			v.add(at("provenance"), CodeProvenanceRequired,
				fmt.Sprintf("a %s capability needs provenance (the discovery hash, or hand_authored with author and review)", c.State), "")
		}
		return
	}
	if p.Kind != "" && p.Kind != ProvenanceDiscovery && p.Kind != ProvenanceHandAuthored {
		return // reported by the field rules
	}
	if p.HandAuthored() {
		v.handAuthored(p)
		return
	}
	kindPath := at("provenance.kind")
	if p.Kind == "" {
		kindPath = at("provenance")
	}
	if c.State == StateAuthored {
		v.add(kindPath, CodeProvenanceKindMismatch,
			"an authored capability is hand-written: its provenance is kind hand_authored, with no discovery record", string(p.Kind))
	}
	if p.Author != "" {
		v.add(at("provenance.author"), CodeProvenanceKindMismatch, "author belongs to a hand_authored provenance; a discovery provenance names its record", "")
	}
	if p.Reason != "" {
		v.add(at("provenance.reason"), CodeProvenanceKindMismatch, "reason belongs to a hand_authored provenance; a discovery provenance names its record", "")
	}
	if p.DiscoveryHash == "" {
		v.add(at("provenance.discovery_hash"), CodeRequired, "a discovery provenance names the discovery record's digest", "")
	}
	discovered := rank >= StateDiscovered.Rank()
	if discovered {
		if textrule.Blank(p.DiscoveryModel) {
			v.add(at("provenance.discovery_model"), CodeProvenanceIncomplete,
				fmt.Sprintf("a %s capability names the discovery model", c.State), "")
		}
		if textrule.Blank(p.DiscoveryRunID) {
			v.add(at("provenance.discovery_run_id"), CodeProvenanceIncomplete,
				fmt.Sprintf("a %s capability names the discovery run", c.State), "")
		}
		if p.Review == nil {
			v.add(at("provenance.review"), CodeReviewRequired,
				fmt.Sprintf("a %s capability comes from an operator-reviewed discovery record", c.State), "")
		}
	}
	r := p.Review
	if r == nil {
		return
	}
	if r.RecordHash == "" {
		v.add(at("provenance.review.record_hash"), CodeRequired, "the review of a discovery record names that record's digest", "")
	}
	if discovered {
		if validDigest(r.RecordHash) && validDigest(p.DiscoveryHash) && r.RecordHash != p.DiscoveryHash {
			v.add(at("provenance.review.record_hash"), CodeReviewRecordMismatch,
				"the review covers another discovery record than provenance.discovery_hash", "")
		}
		if !r.AuthoringApproved {
			v.add(at("provenance.review.authoring_approved"), CodeAuthoringNotApproved,
				"capability-authoring approval is separate from transfer approval and required", "")
		}
	}
}

// handAuthored checks a hand_authored provenance.
func (v *validation) handAuthored(p *Provenance) {
	c := v.c
	if c.State == StateDraft || c.State == StateDiscovered {
		v.add(at("provenance.kind"), CodeProvenanceKindMismatch,
			fmt.Sprintf("a %s capability comes from a discovery record; a hand-written one is in state authored", c.State), string(p.Kind))
	}
	for _, m := range []struct{ name, val string }{
		{"discovery_hash", p.DiscoveryHash},
		{"discovery_model", p.DiscoveryModel},
		{"discovery_run_id", p.DiscoveryRunID},
		{"discovery_mode", p.DiscoveryMode},
	} {
		if m.val != "" {
			v.add(at("provenance."+m.name), CodeProvenanceKindMismatch,
				"a hand_authored capability has no discovery record; "+m.name+" must be absent", "")
		}
	}
	if r := p.Review; r != nil {
		if r.RecordHash != "" {
			v.add(at("provenance.review.record_hash"), CodeProvenanceKindMismatch,
				"the review of a hand_authored capability covers the document itself, not a discovery record; record_hash must be absent", "")
		}
		if r.ReviewHash != "" {
			v.add(at("provenance.review.review_hash"), CodeProvenanceKindMismatch,
				"review_hash binds a discovery record's review; a hand_authored review has none", "")
		}
	}
	if c.State != StateAuthored && c.State != StateValidatedLocal {
		return // a hand-written scaffold may be incomplete
	}
	if textrule.Blank(p.Author) {
		v.add(at("provenance.author"), CodeProvenanceIncomplete,
			fmt.Sprintf("a hand_authored %s capability names its author", c.State), "")
	}
	if textrule.Blank(p.Reason) {
		v.add(at("provenance.reason"), CodeProvenanceIncomplete,
			fmt.Sprintf("a hand_authored %s capability says why it has no discovery record", c.State), "")
	}
	if p.Review == nil {
		v.add(at("provenance.review"), CodeReviewRequired,
			fmt.Sprintf("a hand_authored %s capability is reviewed (reviewer, reviewed_at, authoring_approved)", c.State), "")
	} else if !p.Review.AuthoringApproved {
		v.add(at("provenance.review.authoring_approved"), CodeAuthoringNotApproved,
			"the reviewer approves the hand-written capability with authoring_approved", "")
	}
}
