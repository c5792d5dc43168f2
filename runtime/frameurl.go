package runtime

import (
	"context"
	"errors"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/receipt"
)

// conditionURL reads the URL a URL condition compares: the top-level
// page's, or with scope "frame" the running milestone's frame's (the
// innermost frame of its path, see framepath.go; its origins checked as
// for every frame use). ok is false when the frame is (momentarily)
// missing or its document was just replaced: the condition does not hold
// at this instant and the wait goes on, exactly as a locator condition in
// a missing frame.
func (r *run) conditionURL(ctx context.Context, c *capability.Condition) (raw string, ok bool, st *stop) {
	if c.Scope != capability.ScopeFrame {
		raw, err := r.drv.URL(ctx)
		if err != nil {
			return "", false, r.classify(err, receipt.CategoryInternal, ReasonURLFailed)
		}
		return raw, true, nil
	}
	scope, ferr, st := r.frameScope(ctx)
	if st != nil {
		return "", false, st
	}
	if ferr != nil {
		return "", false, nil
	}
	raw, err := r.drv.FrameURL(ctx, scope)
	if err != nil {
		if errors.Is(err, ErrStaleElement) {
			return "", false, nil
		}
		return "", false, r.classify(err, receipt.CategoryInternal, ReasonURLFailed)
	}
	return raw, true, nil
}

// scopeProblem is the precheck's rule for a condition's scope: only URL
// conditions have one, and "frame" needs a frame path (frame, the
// condition's milestone's).
func scopeProblem(frame []string, cond *capability.Condition) string {
	switch cond.Scope {
	case "":
		return ""
	case capability.ScopePage, capability.ScopeFrame:
	default:
		return "unknown condition scope"
	}
	if cond.Kind != capability.CondURLIncludes && cond.Kind != capability.CondURLPath {
		return "only url_includes and url_path have a scope"
	}
	if cond.Scope == capability.ScopeFrame && len(frame) == 0 {
		return `scope "frame" needs a frame path (runtime.frame_selectors or the milestone's frame_selectors)`
	}
	return ""
}

// secretTemplate reports whether s templates a secret input.
func secretTemplate(c *capability.Capability, s string) bool {
	names, _ := templateNames(s)
	for _, n := range names {
		if in, ok := c.Input(n); ok && in.Secret {
			return true
		}
	}
	return false
}
