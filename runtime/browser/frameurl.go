package browser

import (
	"context"
	"errors"
	"fmt"

	"github.com/vera-run/vera/runtime"
)

// FrameURL returns the current URL of the document a scope from Frame
// belongs to, as that document reports it (document.URL, evaluated in the
// frame's own session for an out-of-process frame), so a cross-origin
// frame's URL is read without the top-level page ever seeing it. A nil or
// top-level scope gives the top-level page's URL, as URL does. A scope
// whose document was navigated away or detached fails with
// runtime.ErrStaleElement: the runtime resolves the frame path again.
func (d *Driver) FrameURL(ctx context.Context, s runtime.Scope) (string, error) {
	cctx, done, err := d.begin(ctx)
	if err != nil {
		return "", err
	}
	defer done()
	sc, err := d.asScope(s)
	if err != nil {
		return "", err
	}
	if sc.top {
		d.mu.Lock()
		defer d.mu.Unlock()
		return d.url, nil
	}
	var info docInfo
	if _, err := d.callOn(cctx, sc.sid, sc.doc, jsDocInfo, true, &info); err != nil {
		var js *jsError
		if isStaleError(err) || errors.As(err, &js) {
			return "", fmt.Errorf("%w: the frame's document was replaced", runtime.ErrStaleElement)
		}
		return "", d.fail(cctx, "frame url", err)
	}
	if !info.Live {
		return "", fmt.Errorf("%w: the frame's document was navigated away", runtime.ErrStaleElement)
	}
	return info.URL, nil
}
