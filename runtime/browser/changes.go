package browser

import (
	"context"
	"errors"
	"time"

	"github.com/vera-run/vera/runtime"
)

var _ runtime.ChangeWaiter = (*Driver)(nil)

// maxChangeWait bounds one page-side wait for a mutation when ctx has no
// earlier deadline (the runtime always gives one: its poll interval).
const maxChangeWait = time.Second

// jsMutation runs with this = a document and resolves on the first DOM
// mutation in it (nodes, attributes, text; open shadow roots are not
// observed) or after ms milliseconds, whichever comes first.
const jsMutation = `function(ms) {
  const doc = this;
  return new Promise(done => {
    let t = 0;
    const mo = new MutationObserver(() => { clearTimeout(t); mo.disconnect(); done(true); });
    mo.observe(doc, { subtree: true, childList: true, attributes: true, characterData: true });
    t = setTimeout(() => { mo.disconnect(); done(false); }, ms);
  });
}`

// WaitChange implements [runtime.ChangeWaiter]. It returns when the
// scope's document mutates (a page-side MutationObserver, in one
// Runtime.callFunctionOn that resolves on the first mutation or at the
// bound), when any Page or Target event of the driver's sessions arrives
// (navigation committed, loading started or stopped, lifecycle, frame or
// target attached or detached), when the observed document goes away, or
// at ctx's deadline (nil). Mutations in other frames and in shadow trees
// are not observed: the runtime's bound covers them.
func (d *Driver) WaitChange(ctx context.Context, s runtime.Scope) error {
	cctx, done, err := d.begin(ctx)
	if err != nil {
		return err
	}
	defer done()
	sc, err := d.asScope(s)
	if err != nil {
		if errors.Is(err, runtime.ErrStaleElement) {
			return nil // the frame went away: a change
		}
		return err
	}
	wake := d.newWaker(changesPage)
	defer wake.close()
	bound := maxChangeWait
	if dl, ok := cctx.Deadline(); ok {
		bound = min(bound, time.Until(dl))
	}
	if bound <= 0 {
		return nil
	}
	doc, err := d.document(cctx, sc)
	if err != nil {
		return d.changeEnd(ctx, cctx)
	}
	ectx, cancel := context.WithCancel(cctx)
	res := make(chan error, 1)
	go func() {
		var r callResult
		res <- d.call(ectx, sc.sid, callFunctionOn{
			FunctionDeclaration: jsMutation,
			ObjectID:            doc,
			Arguments:           []callArg{val(bound.Milliseconds() + 1)},
			ReturnByValue:       true,
			AwaitPromise:        true,
		}, &r)
	}()
	defer func() {
		cancel()
		<-res
	}()
	timer := time.NewTimer(bound)
	defer timer.Stop()
	select {
	case <-wake.ch:
	case err := <-res:
		res <- err // for the deferred receive
		if err != nil && isStaleError(err) {
			d.forgetTopDoc(doc)
		}
	case <-timer.C:
	case <-cctx.Done():
	}
	return d.changeEnd(ctx, cctx)
}

// changesPage reports whether an event may change what a condition
// sees: a document committed or replaced, a same-document navigation, a
// frame or target attached or detached, a load state reached, a dialog.
// Lifecycle notices (network idle), resizes and the like do not.
func changesPage(method string) bool {
	switch method {
	case "Page.frameNavigated", "Page.navigatedWithinDocument", "Page.frameAttached", "Page.frameDetached",
		"Page.frameStartedLoading", "Page.frameStoppedLoading", "Page.loadEventFired", "Page.domContentEventFired",
		"Page.javascriptDialogOpening", "Page.frameRequestedNavigation",
		"Target.attachedToTarget", "Target.detachedFromTarget", "Target.targetCrashed":
		return true
	}
	return false
}

// changeEnd is WaitChange's answer once it stopped waiting: the caller's
// cancellation (not its deadline) or an interruption of the driver (a
// dialog, a crash) is an error; everything else is a possible change.
func (d *Driver) changeEnd(ctx, cctx context.Context) error {
	if c := interruption(cctx); c != nil {
		return d.fail(cctx, "wait for a change", c)
	}
	if ctx.Err() != nil && ctx.Err() != context.DeadlineExceeded {
		return ctx.Err()
	}
	return nil
}
