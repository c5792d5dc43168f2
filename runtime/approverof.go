package runtime

// ApproverOf returns the approver that opts set with [WithApprover] (the
// last one wins, as in [Execute]), or nil when none does. It lets a
// wrapper, such as the computer-use provider boundary, put its own policy
// in front of the host's approver without changing how the host configures
// a run. Applying opts has no side effect: options only record values.
func ApproverOf(opts ...Option) Approver {
	var c config
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	return c.approver
}
