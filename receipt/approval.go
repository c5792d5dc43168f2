package receipt

import (
	"slices"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/canonjson"
)

// ShownSource is how an input shown to an approver was shown
// ([ShownInput.Source]).
type ShownSource string

// How an input shown to an approver was shown ([ShownInput.Source]).
const (
	// ShownSupplied: a supplied public value, shown as is; hashed as its
	// input record is ([HashInput]).
	ShownSupplied ShownSource = "supplied"
	// ShownDefault: the declared default (pinned by the execution hash).
	ShownDefault ShownSource = "default"
	// ShownSecret: a supplied secret, shown only as a redacted reference.
	ShownSecret ShownSource = "secret"
	// ShownAbsent: an optional input neither supplied nor defaulted.
	ShownAbsent ShownSource = "absent"
)

// ShownInput is one input as an approver saw it, in hashed form: its name,
// how it was shown and, for a supplied public value, the input hash of
// that value (the same hash as the receipt's input record).
type ShownInput struct {
	Name   string      `json:"name"`
	Source ShownSource `json:"source"`
	Hash   string      `json:"hash,omitempty"`
}

// ApprovalShownHash is the digest an [ApprovalProof] records of what its
// approver was shown: the sha256 of the RFC 8785 canonical JSON of
// {"action":actionID,"capability":executionHash,"inputs":[ShownInput...]}
// in the order shown. It holds no value, only input hashes, so a verifier
// recomputes it from the receipt's input records and the capability.
func ApprovalShownHash(executionHash, actionID string, shown []ShownInput) (string, error) {
	if shown == nil {
		shown = []ShownInput{}
	}
	return canonjson.Digest(map[string]any{"action": actionID, "capability": executionHash, "inputs": shown})
}

// shownFromRecords rebuilds what an approver of action (milestone m) was
// shown from the receipt's input records and the capability.
func shownFromRecords(r *Receipt, c *capability.Capability, m, action string) ([]string, []ShownInput) {
	names := c.ApprovalInputs(m, action)
	shown := make([]ShownInput, 0, len(names))
	for _, n := range names {
		i := slices.IndexFunc(r.Inputs, func(in InputRecord) bool { return in.Name == n })
		decl, _ := c.Input(n)
		s := ShownInput{Name: n, Source: ShownAbsent}
		switch {
		case i >= 0 && r.Inputs[i].Present && r.Inputs[i].Secret:
			s.Source = ShownSecret
		case i >= 0 && r.Inputs[i].Present:
			s.Source, s.Hash = ShownSupplied, r.Inputs[i].Hash
		case decl != nil && !decl.Secret && len(decl.Default) > 0:
			s.Source = ShownDefault
		}
		shown = append(shown, s)
	}
	return names, shown
}

// checkApprovalsShown: every approval names the inputs the capability
// says its action uses, and its shown_hash matches the input records.
func checkApprovalsShown(r *Receipt, c *capability.Capability, ps *problems) {
	for i, a := range r.Actions {
		ap := a.Approval
		if ap == nil {
			continue
		}
		names, shown := shownFromRecords(r, c, a.Milestone, a.ID)
		if !slices.Equal(ap.ShownInputs, names) {
			ps.add(FileReceipt, ErrInputs, "actions[%d].approval.shown_inputs does not name the inputs action %s uses", i, short(a.ID))
			continue
		}
		h, err := ApprovalShownHash(r.Capability.ExecutionHash, a.ID, shown)
		if err != nil || h != ap.ShownHash {
			ps.add(FileReceipt, ErrInputs, "actions[%d].approval.shown_hash does not match what the input records say was shown", i)
		}
	}
}
