package capability

// Risky reports whether the capability has any consequential action. Risk
// is derived, never declared: a risky capability cannot run below
// [StateDiscovered].
func (c *Capability) Risky() bool {
	for _, m := range c.Milestones {
		for _, a := range m.Actions {
			if a.Effect == EffectConsequential {
				return true
			}
		}
	}
	return false
}

// Input returns the declared input with the given name.
func (c *Capability) Input(name string) (*Input, bool) {
	for i := range c.Inputs {
		if c.Inputs[i].Name == name {
			return &c.Inputs[i], true
		}
	}
	return nil, false
}

// Output returns the declared output with the given name.
func (c *Capability) Output(name string) (*Output, bool) {
	for i := range c.Outputs {
		if c.Outputs[i].Name == name {
			return &c.Outputs[i], true
		}
	}
	return nil, false
}

// Milestone returns the milestone with the given id and its index.
func (c *Capability) Milestone(id string) (*Milestone, int, bool) {
	for i := range c.Milestones {
		if c.Milestones[i].ID == id {
			return &c.Milestones[i], i, true
		}
	}
	return nil, -1, false
}

// Action returns the action with the given id and the index of its
// milestone and of itself within it.
func (c *Capability) Action(id string) (a *Action, milestone, index int, ok bool) {
	for mi := range c.Milestones {
		for ai := range c.Milestones[mi].Actions {
			if c.Milestones[mi].Actions[ai].ID == id {
				return &c.Milestones[mi].Actions[ai], mi, ai, true
			}
		}
	}
	return nil, -1, -1, false
}

// Actions calls yield for every action in document order with its
// milestone; it stops when yield returns false.
func (c *Capability) Actions(yield func(m *Milestone, a *Action) bool) {
	for mi := range c.Milestones {
		m := &c.Milestones[mi]
		for ai := range m.Actions {
			if !yield(m, &m.Actions[ai]) {
				return
			}
		}
	}
}

// ConsequentialActions returns the ids of the consequential actions in
// document order.
func (c *Capability) ConsequentialActions() []string {
	var ids []string
	for m, a := range c.Actions {
		_ = m
		if a.Effect == EffectConsequential {
			ids = append(ids, a.ID)
		}
	}
	return ids
}
