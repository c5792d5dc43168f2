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
