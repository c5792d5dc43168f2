package runtime

import (
	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/receipt"
)

// ApprovalInput is one input shown to the approver of a consequential
// action ([ApprovalRequest.Inputs]): the resolved value, so the approver
// sees what the action will send. A secret is never shown: its Value is
// nil and its Text the reference marker [SecretShown].
type ApprovalInput struct {
	Name string
	// Source is how the value was resolved: receipt.ShownSupplied,
	// ShownDefault, ShownSecret or ShownAbsent.
	Source receipt.ShownSource
	// Value is the typed value (string, int64, float64 or bool); nil for
	// a secret or an absent input.
	Value any
	// Text is the value as templates insert it ("" when absent,
	// [SecretShown] for a secret).
	Text string
}

// SecretShown is the text an approver is shown in place of a secret
// input's value.
const SecretShown = "[secret: not shown]"

// approvalInputs resolves what the approver of a (in milestone m) is
// shown ([capability.Capability.ApprovalInputs]) and its hashed form for
// the receipt.
func (r *run) approvalInputs(m *capability.Milestone, a *capability.Action) ([]ApprovalInput, []receipt.ShownInput, error) {
	names := r.cap.ApprovalInputs(m.ID, a.ID)
	shown := make([]ApprovalInput, 0, len(names))
	hashed := make([]receipt.ShownInput, 0, len(names))
	for _, n := range names {
		v, ok := r.vals[n]
		in := ApprovalInput{Name: n, Source: receipt.ShownAbsent}
		h := receipt.ShownInput{Name: n, Source: receipt.ShownAbsent}
		switch {
		case ok && v.secret:
			in.Source, in.Text = receipt.ShownSecret, SecretShown
			h.Source = receipt.ShownSecret
		case ok && v.supplied:
			in.Source, in.Value, in.Text = receipt.ShownSupplied, v.typed, v.text
			hash, err := receipt.HashInput(r.execHash, n, v.typed)
			if err != nil {
				return nil, nil, err
			}
			h.Source, h.Hash = receipt.ShownSupplied, hash
		case ok:
			in.Source, in.Value, in.Text = receipt.ShownDefault, v.typed, v.text
			h.Source = receipt.ShownDefault
		}
		shown = append(shown, in)
		hashed = append(hashed, h)
	}
	return shown, hashed, nil
}
