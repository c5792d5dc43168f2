package convert

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/vera-run/vera/capability"
)

// Change is one difference between two capabilities.
type Change struct {
	// Path is the go-cmp path of the changed value, e.g.
	// {*capability.Capability}.Outputs[0].Exposure.
	Path string
	// Before and After render the values as JSON; "<missing>" when the value
	// is absent on that side (a list element added or removed).
	Before, After string
}

// String renders the change on one line.
func (c Change) String() string { return fmt.Sprintf("%s: %s -> %s", c.Path, c.Before, c.After) }

// Review is what a review changed between an imported draft and the edited
// capability: the readable go-cmp diff and each changed value.
type Review struct {
	// Diff is cmp.Diff(draft, edited): "-" lines are the draft, "+" lines
	// the edit, with unchanged context elided.
	Diff string
	// Changes lists every changed leaf value in go-cmp's walk order.
	Changes []Change
}

// Empty reports whether nothing changed.
func (r *Review) Empty() bool { return len(r.Changes) == 0 }

// String lists the changes, one per line.
func (r *Review) String() string {
	lines := make([]string, len(r.Changes))
	for i, c := range r.Changes {
		lines[i] = c.String()
	}
	return strings.Join(lines, "\n")
}

// Diff compares an imported draft with the edited capability, so a
// reviewer sees exactly what the review changed before promotion. A nil
// and an empty list are equal (the JSON writer treats them alike); all
// else, order included, counts. Neither capability is modified.
func Diff(draft, edited *capability.Capability) (*Review, error) {
	if draft == nil || edited == nil {
		return nil, fmt.Errorf("%w: Diff needs two capabilities", capability.ErrInvalidArgument)
	}
	var rep reporter
	opt := cmpopts.EquateEmpty()
	cmp.Equal(draft, edited, opt, cmp.Reporter(&rep))
	return &Review{Diff: cmp.Diff(draft, edited, opt), Changes: rep.changes}, nil
}

// reporter collects the differing leaves of a cmp walk.
type reporter struct {
	path    cmp.Path
	changes []Change
}

func (r *reporter) PushStep(ps cmp.PathStep) { r.path = append(r.path, ps) }
func (r *reporter) PopStep()                 { r.path = r.path[:len(r.path)-1] }

func (r *reporter) Report(rs cmp.Result) {
	if rs.Equal() {
		return
	}
	vx, vy := r.path.Last().Values()
	show := func(v interface {
		IsValid() bool
		Interface() any
	}) string {
		if !v.IsValid() {
			return "<missing>"
		}
		if b, err := json.Marshal(v.Interface()); err == nil {
			return string(b)
		}
		return fmt.Sprintf("%+v", v.Interface())
	}
	r.changes = append(r.changes, Change{Path: r.path.GoString(), Before: show(vx), After: show(vy)})
}

// Acceptance is the reviewer's decision that makes an imported draft
// runnable: who reviewed it, when, and why it has no discovery record of
// its own (for example "imported from the seed 004 artifact
// get_member_balances 1.0.0; locators checked on the teller console").
type Acceptance struct {
	Reviewer   string
	ReviewedAt string // RFC 3339
	Reason     string
}

// Accept is the promotion step of an import. It compares the imported
// draft with the reviewer's edit ([Diff]) and returns the edit as an
// authored capability with a hand_authored provenance (author and review
// from a, no discovery record, authoring approved), together with the
// review of what changed. An import has no discovery record, so it never
// becomes discovered: the honest state is authored, and validated_local
// still takes two clean live runs (receipt.Finalize). Neither argument is
// modified; the result must pass capability.ValidateForExecution, or
// Accept returns a *DraftError.
func Accept(imported, edited *capability.Capability, a Acceptance) (*capability.Capability, *Review, error) {
	rv, err := Diff(imported, edited)
	if err != nil {
		return nil, nil, err
	}
	if strings.TrimSpace(a.Reviewer) == "" || strings.TrimSpace(a.Reason) == "" {
		return nil, nil, fmt.Errorf("%w: Accept needs a reviewer and a reason", capability.ErrInvalidArgument)
	}
	out, err := edited.Clone()
	if err != nil {
		return nil, nil, err
	}
	out.State = capability.StateAuthored
	out.Provenance = &capability.Provenance{
		Kind:   capability.ProvenanceHandAuthored,
		Author: a.Reviewer,
		Reason: a.Reason,
		Review: &capability.Review{Reviewer: a.Reviewer, ReviewedAt: a.ReviewedAt, AuthoringApproved: true},
	}
	if p := out.ValidateForExecution(); len(p) > 0 {
		return nil, rv, &DraftError{Format: "accept", Problems: p}
	}
	return out, rv, nil
}
