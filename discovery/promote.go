package discovery

import (
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/canonjson"
	"github.com/vera-run/vera/locator"
)

// Boundary names what a promotion refusal concerns ([PromotionError.Boundary]).
type Boundary string

// The boundaries a promotion refusal names.
const (
	BoundaryInput       Boundary = "input"       // a nil draft or record
	BoundaryRecord      Boundary = "record"      // the reviewed record is invalid
	BoundaryReview      Boundary = "review"      // the record is unreviewed, or the review does not cover it or approve authoring
	BoundaryState       Boundary = "state"       // the capability is not a draft
	BoundaryProvenance  Boundary = "provenance"  // discovery hash, mode, model or run id differ
	BoundarySite        Boundary = "site"        // site name or origins differ
	BoundaryProcess     Boundary = "process"     // process name or goal differ
	BoundaryRuntime     Boundary = "runtime"     // start or frame selectors differ
	BoundaryAuthority   Boundary = "authority"   // max effect, operator authentication, or an action beyond the reviewed authority
	BoundaryPrivacy     Boundary = "privacy"     // data classes or download retention differ
	BoundaryObservation Boundary = "observation" // an executable milestone, control or path the discovery never observed
	BoundaryCapability  Boundary = "capability"  // the promoted capability breaks a capability rule
)

// Stable codes of the review refusals ([PromotionError.Code]).
const (
	// PromotionUnreviewed: the record carries no operator review.
	PromotionUnreviewed Code = "review_missing"
	// PromotionReviewRecord: review.record_hash is not the record's hash.
	PromotionReviewRecord Code = "review_record_mismatch"
	// PromotionReviewSwapped: the review's reviewer or time is not the
	// record's own review (a record whose review member was replaced).
	PromotionReviewSwapped Code = "review_mismatch"
	// PromotionReviewHash: review.review_hash is not [ReviewHash] of the
	// record.
	PromotionReviewHash Code = "review_hash_mismatch"
	// PromotionReviewIncomplete: the review names no reviewer, has no RFC
	// 3339 time, or does not approve authoring.
	PromotionReviewIncomplete Code = "review_incomplete"
)

// PromotionError is one reason a draft cannot be promoted: the boundary
// that differs from the reviewed record and how. It matches
// [ErrPromotion].
type PromotionError struct {
	Boundary Boundary
	// Code is a stable code for the review boundary's refusals
	// (Promotion* constants); empty for the other boundaries, whose
	// Boundary is their code.
	Code   Code
	Detail string
}

// Error names the boundary and how it differs.
func (e *PromotionError) Error() string {
	return "discovery: promotion refused: " + string(e.Boundary) + ": " + e.Detail
}

// Is makes every *PromotionError match [ErrPromotion].
func (e *PromotionError) Is(target error) bool { return target == ErrPromotion }

// PromotionErrors is every reason a promotion was refused. It matches
// [ErrPromotion] and unwraps to its *PromotionError values.
type PromotionErrors []*PromotionError

// Error lists every refusal, one per line.
func (l PromotionErrors) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "discovery: promotion refused: %d reason(s)", len(l))
	for _, e := range l {
		b.WriteString("\n  ")
		b.WriteString(string(e.Boundary))
		b.WriteString(": ")
		b.WriteString(e.Detail)
	}
	return b.String()
}

// Is makes a non-empty list match [ErrPromotion].
func (l PromotionErrors) Is(target error) bool { return target == ErrPromotion && len(l) > 0 }

// Unwrap returns the individual errors.
func (l PromotionErrors) Unwrap() []error {
	out := make([]error, len(l))
	for i, e := range l {
		out[i] = e
	}
	return out
}

// Boundaries returns the distinct boundaries named, in order.
func (l PromotionErrors) Boundaries() []Boundary {
	var out []Boundary
	for _, e := range l {
		if !slices.Contains(out, e.Boundary) {
			out = append(out, e.Boundary)
		}
	}
	return out
}

// HasCode reports whether a refusal carries the code.
func (l PromotionErrors) HasCode(code Code) bool {
	return slices.ContainsFunc(l, func(e *PromotionError) bool { return e.Code == code })
}

// ReviewHash is the binding between a promotion and the record's own
// review member, which the record hash excludes:
// value_digest({"record_hash": record hash, "review": record.review}).
// [Promote] checks review.review_hash against it (when set) and writes it
// into the promoted capability's provenance.review.review_hash. A record
// without a review has no review hash.
func ReviewHash(r *Record) (string, error) {
	if r == nil || r.Review == nil {
		return "", fmt.Errorf("%w: the record has no review", ErrInvalid)
	}
	h, err := r.Hash()
	if err != nil {
		return "", err
	}
	return canonjson.Digest(map[string]any{"record_hash": h, "review": r.Review})
}

// Has reports whether a refusal names the boundary.
func (l PromotionErrors) Has(boundary Boundary) bool {
	return slices.ContainsFunc(l, func(e *PromotionError) bool { return e.Boundary == boundary })
}

// Promote turns a draft into a discovered capability when it stays within
// the exact reviewed record, and returns the new capability; the draft is
// never modified. Every refusal is reported at once as [PromotionErrors],
// each naming its boundary:
//
//   - review: the record carries an operator review; review.record_hash is
//     the record's hash; the review's reviewer and reviewed_at are the
//     record's own review (so a record that differs only in its review
//     member, which the record hash excludes, is refused); review_hash,
//     when given, is [ReviewHash] of the record; the review names a
//     reviewer and an RFC 3339 time; review.authoring_approved is true
//     (transfer approval of a developer pack never stands in for it);
//   - state and provenance: the capability is a draft whose
//     provenance.discovery_hash is the record's hash and whose mode, model
//     and run id are the record's;
//   - site, process, runtime, authority and privacy: equal to the record's
//     (origins and data classes as sets); no action more severe than the
//     record's max_effect (a consequential action against a read_only
//     review is refused);
//   - observation: every executable milestone (one with an action that is
//     not native) has a record milestone with the same id and at least one
//     observation; every interactive action has a semantic locator
//     candidate that matches a control observed in that milestone, in the
//     runtime's frame path; every navigate target's path was observed;
//   - capability: the promoted capability passes capability.Validate.
//
// A review of a narrower record therefore never authorizes a broader
// capability. The promoted capability's review carries review_hash, so
// the promotion commits to the record's review as well as to its hash.
func Promote(draft *capability.Capability, reviewed *Record, review capability.Review) (*capability.Capability, error) {
	pr := &promotion{}
	refuse := pr.refuse
	if draft == nil || reviewed == nil {
		refuse(BoundaryInput, "a draft and a reviewed record are required")
		return nil, pr.errs
	}
	if err := reviewed.Validate(); err != nil {
		refuse(BoundaryRecord, "the reviewed record is invalid: %v", err)
		return nil, pr.errs
	}
	h, err := reviewed.Hash()
	if err != nil {
		refuse(BoundaryRecord, "the record cannot be hashed: %v", err)
		return nil, pr.errs
	}

	binding, ok := pr.checkReview(reviewed, review, h)
	if !ok {
		return nil, pr.errs
	}
	pr.checkProvenance(draft, reviewed, h)
	pr.checkSite(draft, reviewed)
	pr.checkProcess(draft, reviewed)
	pr.checkAuthority(draft, reviewed)
	pr.checkPrivacy(draft, reviewed)
	pr.checkObservation(draft, reviewed)
	if len(pr.errs) > 0 {
		return nil, pr.errs
	}

	out, err := draft.Clone()
	if err != nil {
		refuse(BoundaryCapability, "the draft cannot be copied: %v", err)
		return nil, pr.errs
	}
	rv := review
	rv.ReviewHash = binding
	out.State = capability.StateDiscovered
	out.Provenance.Review = &rv
	for _, e := range out.Validate() {
		refuse(BoundaryCapability, "%s", e.Error())
	}
	if len(pr.errs) > 0 {
		return nil, pr.errs
	}
	return out, nil
}

// promotion collects the refusals of one Promote call.
type promotion struct{ errs PromotionErrors }

func (pr *promotion) refuse(boundary Boundary, format string, args ...any) {
	pr.errs = append(pr.errs, &PromotionError{Boundary: boundary, Detail: fmt.Sprintf(format, args...)})
}

func (pr *promotion) refuseReview(code Code, format string, args ...any) {
	pr.errs = append(pr.errs, &PromotionError{Boundary: BoundaryReview, Code: code, Detail: fmt.Sprintf(format, args...)})
}

// checkReview checks the review against the record's own review and hash
// and returns the review binding. ok is false when the review cannot be
// hashed (Promote stops there).
func (pr *promotion) checkReview(reviewed *Record, review capability.Review, h string) (binding string, ok bool) {
	var err error
	if reviewed.Review == nil {
		pr.refuseReview(PromotionUnreviewed, "the record has not been reviewed by the operator")
	} else {
		if review.Reviewer != reviewed.Review.Reviewer || review.ReviewedAt != reviewed.Review.ReviewedAt {
			pr.refuseReview(PromotionReviewSwapped, "the review (%q at %s) is not the record's own review", review.Reviewer, review.ReviewedAt)
		}
		if binding, err = ReviewHash(reviewed); err != nil {
			pr.refuse(BoundaryRecord, "the record's review cannot be hashed: %v", err)
			return "", false
		}
		if review.ReviewHash != "" && review.ReviewHash != binding {
			pr.refuseReview(PromotionReviewHash, "review_hash %s does not bind the record's review %s", short(review.ReviewHash), short(binding))
		}
	}
	if review.RecordHash != h {
		pr.refuseReview(PromotionReviewRecord, "the review covers record %s, not the reviewed record %s", short(review.RecordHash), short(h))
	}
	if strings.TrimSpace(review.Reviewer) == "" {
		pr.refuseReview(PromotionReviewIncomplete, "the review names no reviewer")
	}
	if _, ok := parseTime(review.ReviewedAt); !ok {
		pr.refuseReview(PromotionReviewIncomplete, "reviewed_at is not an RFC 3339 timestamp")
	}
	if !review.AuthoringApproved {
		pr.refuseReview(PromotionReviewIncomplete, "capability-authoring approval is required (transfer approval never implies it)")
	}

	return binding, true
}

// checkProvenance checks the draft's state and that its provenance names
// the reviewed record.
func (pr *promotion) checkProvenance(draft *capability.Capability, reviewed *Record, h string) {
	if draft.State != capability.StateDraft {
		pr.refuse(BoundaryState, "only a draft is promoted to discovered, not a %q capability", draft.State)
	}
	p := draft.Provenance
	if p == nil {
		pr.refuse(BoundaryProvenance, "the draft has no provenance")
	} else {
		if p.DiscoveryHash != h {
			pr.refuse(BoundaryProvenance, "the draft names discovery record %s, not the reviewed record %s", short(p.DiscoveryHash), short(h))
		}
		if p.DiscoveryMode != "" && p.DiscoveryMode != string(reviewed.Discovery.Mode) {
			pr.refuse(BoundaryProvenance, "discovery mode %q differs from the record's %q", p.DiscoveryMode, reviewed.Discovery.Mode)
		}
		if p.DiscoveryModel != reviewed.Discovery.Model {
			pr.refuse(BoundaryProvenance, "discovery model %q differs from the record's %q", p.DiscoveryModel, reviewed.Discovery.Model)
		}
		if p.DiscoveryRunID != reviewed.Discovery.RunID {
			pr.refuse(BoundaryProvenance, "discovery run id differs from the record's")
		}
		if p.Review != nil {
			pr.refuse(BoundaryProvenance, "the draft already carries a review")
		}
	}

}

// checkSite checks that the draft's site is the reviewed one.
func (pr *promotion) checkSite(draft *capability.Capability, reviewed *Record) {
	if draft.Site.Name != reviewed.Site.Name {
		pr.refuse(BoundarySite, "site name %q differs from the reviewed %q", draft.Site.Name, reviewed.Site.Name)
	}
	compareSets(draft.Site.AllowedOrigins, reviewed.Site.AllowedOrigins, func(extra bool, v string) {
		if extra {
			pr.refuse(BoundarySite, "broader: allowed origin %s was not reviewed", v)
		} else {
			pr.refuse(BoundarySite, "differs: reviewed allowed origin %s is missing", v)
		}
	})
	compareSets(draft.Site.SubresourceOrigins, reviewed.Site.SubresourceOrigins, func(extra bool, v string) {
		if extra {
			pr.refuse(BoundarySite, "broader: subresource origin %s was not reviewed", v)
		} else {
			pr.refuse(BoundarySite, "differs: reviewed subresource origin %s is missing", v)
		}
	})

}

// checkProcess checks the process name and goal, the start and the frame
// selectors against the review.
func (pr *promotion) checkProcess(draft *capability.Capability, reviewed *Record) {
	if draft.Name != reviewed.Process.Name {
		pr.refuse(BoundaryProcess, "process name %q differs from the reviewed %q", draft.Name, reviewed.Process.Name)
	}
	if draft.Goal != reviewed.Process.Goal {
		pr.refuse(BoundaryProcess, "process goal differs from the reviewed goal")
	}

	if draft.Runtime.Start != reviewed.Runtime.Start {
		pr.refuse(BoundaryRuntime, "start %q differs from the reviewed %q", draft.Runtime.Start, reviewed.Runtime.Start)
	}
	if !slices.Equal(draft.Runtime.FrameSelectors, reviewed.Runtime.FrameSelectors) {
		pr.refuse(BoundaryRuntime, "frame selectors %q differ from the reviewed %q", draft.Runtime.FrameSelectors, reviewed.Runtime.FrameSelectors)
	}

}

// checkAuthority checks that no effect exceeds the reviewed authority.
func (pr *promotion) checkAuthority(draft *capability.Capability, reviewed *Record) {
	want := reviewed.Authority.MaxEffect
	switch got := draft.Authority.MaxEffect; {
	case got.Rank() > want.Rank():
		pr.refuse(BoundaryAuthority, "broader: max_effect %s exceeds the reviewed %s", got, want)
	case got != want:
		pr.refuse(BoundaryAuthority, "differs: max_effect %s is not the reviewed %s", got, want)
	}
	if draft.Authority.OperatorAuthenticates != reviewed.Authority.OperatorAuthenticates {
		pr.refuse(BoundaryAuthority, "operator_authenticates differs from the reviewed record")
	}
	for m, a := range draft.Actions {
		if !a.Effect.Valid() || a.Effect.Rank() > want.Rank() {
			pr.refuse(BoundaryAuthority, "broader: action %s in milestone %s is %s; the reviewed authority is %s", a.ID, m.ID, a.Effect, want)
		}
	}

}

// checkPrivacy checks data classes and download retention.
func (pr *promotion) checkPrivacy(draft *capability.Capability, reviewed *Record) {
	compareSets(draft.Privacy.DataClasses, reviewed.Privacy.DataClasses, func(extra bool, v string) {
		if extra {
			pr.refuse(BoundaryPrivacy, "broader: data class %s was not reviewed", v)
		} else {
			pr.refuse(BoundaryPrivacy, "differs: reviewed data class %s is missing", v)
		}
	})
	if draft.Privacy.RetainDownloads != reviewed.Privacy.RetainDownloads {
		if draft.Privacy.RetainDownloads {
			pr.refuse(BoundaryPrivacy, "broader: downloads are retained; the reviewed record does not retain them")
		} else {
			pr.refuse(BoundaryPrivacy, "differs: the reviewed record retains downloads")
		}
	}

}

// checkObservation checks that every executable milestone, interactive
// target and navigation was observed in the reviewed record.
func (pr *promotion) checkObservation(draft *capability.Capability, reviewed *Record) {
	observedPaths := map[string]bool{}
	if o, sp := startPath(reviewed.Runtime.Start); sp != "" {
		if dec, err := url.PathUnescape(sp); err == nil {
			sp = dec
		}
		observedPaths[o+sp] = true
		observedPaths[sp] = true
	}
	for _, rm := range reviewed.Milestones {
		for _, path := range rm.Paths {
			observedPaths[path] = true
		}
	}
	for mi := range draft.Milestones {
		m := &draft.Milestones[mi]
		if !executable(m) {
			continue
		}
		rm, ok := reviewed.Milestone(m.ID)
		if !ok || len(rm.Observations) == 0 {
			pr.refuse(BoundaryObservation, "executable milestone %s has no discovery observation in the reviewed record", m.ID)
			continue
		}
		for ai := range m.Actions {
			a := &m.Actions[ai]
			switch {
			case a.Operation.Interactive():
				if !observedTarget(a.LocatorCandidates, rm.Controls, draft.FramePath(m)) {
					pr.refuse(BoundaryObservation, "action %s targets no control observed in milestone %s", a.ID, m.ID)
				}
			case a.Operation == capability.OpNavigate:
				if !observedNavigation(a.URL, observedPaths) {
					pr.refuse(BoundaryObservation, "action %s navigates to a path never observed", a.ID)
				}
			}
		}
	}
}

// executable reports whether a milestone has an action that is not native.
func executable(m *capability.Milestone) bool {
	for _, a := range m.Actions {
		if a.Operation != capability.OpNative {
			return true
		}
	}
	return false
}

// observedTarget reports whether a semantic candidate matches an observed
// control in the frame path.
func observedTarget(cands []locator.Candidate, controls []ControlRef, frame []string) bool {
	for _, c := range cands {
		if !c.Strategy.Semantic() {
			continue
		}
		for _, ref := range controls {
			if slices.Equal(ref.Frame, frame) && (Control{ControlRef: ref}).Matches(c) {
				return true
			}
		}
	}
	return false
}

// observedNavigation reports whether a navigate target's path (fragment
// ignored) was observed.
func observedNavigation(u string, observed map[string]bool) bool {
	if i := strings.IndexByte(u, '#'); i >= 0 {
		u = u[:i]
	}
	origin, path := startPath(u)
	if path == "" {
		path = "/"
	}
	if dec, err := url.PathUnescape(path); err == nil {
		path = dec // observed paths are recorded percent-decoded
	}
	return observed[origin+path] || observed[path]
}

// compareSets reports values of got missing from want (extra) and values
// of want missing from got.
func compareSets(got, want []string, report func(extra bool, v string)) {
	for _, v := range sortedUnique(got) {
		if !slices.Contains(want, v) {
			report(true, v)
		}
	}
	for _, v := range sortedUnique(want) {
		if !slices.Contains(got, v) {
			report(false, v)
		}
	}
}

// short abbreviates a digest for messages.
func short(d string) string {
	if len(d) > 19 {
		return d[:19] + "…"
	}
	if d == "" {
		return `""`
	}
	return d
}
