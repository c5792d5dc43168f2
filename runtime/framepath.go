package runtime

import (
	"fmt"
	"strings"

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

// checkFramePath is the executor's own check of one frame path (the
// runtime-wide one or a milestone's): at most MaxFrameDepth fixed,
// non-empty selectors.
func checkFramePath(path string, sels []string, add func(path string, code capability.Code, format string, a ...any)) {
	if len(sels) > MaxFrameDepth {
		add(path, codeFrames, "at most %d frames", MaxFrameDepth)
	}
	for i, s := range sels {
		if strings.TrimSpace(s) == "" || strings.Contains(s, "{{") {
			add(fmt.Sprintf("%s[%d]", path, i), codeFrames, "a frame selector is a fixed, non-empty CSS selector")
		}
	}
}

// checkMilestoneFrames checks a milestone's own frame path, which never
// comes with a runtime-wide one.
func checkMilestoneFrames(c *capability.Capability, mp string, m *capability.Milestone, add func(path string, code capability.Code, format string, a ...any)) {
	if len(m.FrameSelectors) == 0 {
		return
	}
	if len(c.Runtime.FrameSelectors) > 0 {
		add(mp+".frame_selectors", codeFrames, "runtime.frame_selectors and a milestone frame path are never mixed")
	}
	checkFramePath(mp+".frame_selectors", m.FrameSelectors, add)
}
