package runtime

import (
	"github.com/vera-run/vera/capability"
)

// The frame path a run acts in is the running milestone's
// ([capability.Capability.FramePath]): the runtime-wide
// runtime.frame_selectors, or the milestone's own frame_selectors, or none
// (the top-level document). enterMilestone sets it at the start of every
// milestone visit, before its first action, and everything that reads a
// frame (frameScope, checkFrameAfter, checkModals, conditionURL, the
// cause) reads r.frame, so one milestone's actions, postconditions,
// transitions, extraction, dialog checks and outcome detection use one
// path. The start navigation runs before any milestone, with the
// runtime-wide path (or none).

// enterMilestone makes m's frame path the run's. A change of path
// invalidates the cached frame resolution: the next use resolves the new
// path and checks its origins.
func (r *run) enterMilestone(m *capability.Milestone) {
	path := r.cap.FramePath(m)
	if !sameStrings(path, r.frame) {
		r.scopeCache = scopeCache{}
	}
	r.frame = path
}

func sameStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
