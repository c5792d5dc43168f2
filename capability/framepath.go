package capability

// CodeFramePathMixed: a capability that declares runtime.frame_selectors
// and also a milestone frame_selectors. A capability uses one form: the
// runtime-wide path (every milestone acts in that frame) or per-milestone
// paths (each milestone in its own frame, or the top-level document when
// it declares none), so that an absent milestone member always means the
// same thing.
const CodeFramePathMixed Code = "frame_path_mixed"

// framePathCodes are the codes of this file, for [Codes].
var framePathCodes = []Code{CodeFramePathMixed}

// FramePath returns the frame path milestone m acts in, outermost first:
// the runtime-wide runtime.frame_selectors when the capability declares
// one, otherwise m's own frame_selectors. Empty means the top-level
// document. The returned slice is the capability's own; callers must not
// modify it. m may be nil (the path outside any milestone: the
// runtime-wide one).
func (c *Capability) FramePath(m *Milestone) []string {
	if c == nil {
		return nil
	}
	if len(c.Runtime.FrameSelectors) > 0 || m == nil {
		return c.Runtime.FrameSelectors
	}
	return m.FrameSelectors
}

// PerMilestoneFrames reports whether some milestone declares its own frame
// path.
func (c *Capability) PerMilestoneFrames() bool {
	if c == nil {
		return false
	}
	for i := range c.Milestones {
		if len(c.Milestones[i].FrameSelectors) > 0 {
			return true
		}
	}
	return false
}

// framePaths checks the per-milestone frame paths: never together with
// runtime.frame_selectors ([CodeFramePathMixed], reported at every
// milestone path). Count, blank and length rules are the field rules
// shared with runtime.frame_selectors; templates are refused by
// unsubstituted.
func (v *validation) framePaths() {
	if len(v.c.Runtime.FrameSelectors) == 0 {
		return
	}
	for mi := range v.c.Milestones {
		if len(v.c.Milestones[mi].FrameSelectors) > 0 {
			v.add(at("milestones").i(mi).f("frame_selectors"), CodeFramePathMixed,
				"runtime.frame_selectors already sets the frame of every milestone; declare either the runtime-wide path or per-milestone paths, never both", "")
		}
	}
}
