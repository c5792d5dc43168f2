package capability

import "slices"

// ApprovalInputs returns the inputs an approver of the consequential
// action actionID in milestone milestoneID is shown, by name, in order of
// first use: every input the actions of that milestone use, from its first
// action up to and including actionID, through an action's input member
// or a template in its value, url or locator candidates. That is what the
// action "uses": a submit click sends what the fills before it in the
// milestone typed, and its own templates. Conditions (postconditions,
// transitions) are checks, not part of what is sent, and are left out.
// Secret inputs are included by name; whoever shows them shows a
// reference, never the value. The result is nil for an unknown milestone
// or action. The runtime builds the approval request from it and receipt
// verification recomputes it, so both follow one rule.
func (c *Capability) ApprovalInputs(milestoneID, actionID string) []string {
	m, _, ok := c.Milestone(milestoneID)
	if !ok {
		return nil
	}
	end := slices.IndexFunc(m.Actions, func(a Action) bool { return a.ID == actionID })
	if end < 0 {
		return nil
	}
	var names []string
	add := func(n string) {
		if n != "" && !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	addTemplates := func(s string) {
		refs, _ := ParseTemplates(s)
		for _, r := range refs {
			add(r.Name)
		}
	}
	for i := 0; i <= end; i++ {
		a := &m.Actions[i]
		add(a.Input)
		addTemplates(a.Value)
		addTemplates(a.URL)
		for _, lc := range a.LocatorCandidates {
			addTemplates(lc.Value())
		}
	}
	return names
}
