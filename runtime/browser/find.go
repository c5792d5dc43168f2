package browser

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/go-rod/rod/lib/proto"
	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/runtime"
)

// link is one iframe element on a frame path: the session of its parent
// document and its object there.
type link struct {
	sid proto.TargetSessionID
	obj proto.RuntimeRemoteObjectID
}

// scope is the driver's [runtime.Scope]: one document. The top scope's
// document is looked up afresh on every use, so it survives navigation;
// a frame scope is bound to the document it resolved and goes stale when
// that frame navigates.
type scope struct {
	sid   proto.TargetSessionID
	frame proto.PageFrameID
	doc   proto.RuntimeRemoteObjectID
	chain []link
	top   bool
}

// elemKey identifies one DOM node: backend node ids are unique within a
// renderer, and a session is bound to one target.
type elemKey struct {
	sid     proto.TargetSessionID
	backend proto.DOMBackendNodeID
}

// element is the driver's [runtime.Element]. The driver hands out one
// pointer per DOM node, so handles of the same node compare equal.
type element struct {
	d       *Driver
	sid     proto.TargetSessionID
	frame   proto.PageFrameID
	backend proto.DOMBackendNodeID
	obj     proto.RuntimeRemoteObjectID
	chain   []link
	stale   bool // guarded by d.mu
}

// document returns the object of the scope's document. The top-level
// document's object is cached until the main frame navigates; beside its
// lookup the driver installs the helpers' dispatcher there (helpers.go),
// so the first helper call on the document is one command. Should a
// navigation come between the two evaluations, the dispatcher and the
// document object belong to two contexts, and a call with both fails as
// stale (and is retried on the new document), never answers.
func (d *Driver) document(ctx context.Context, sc *scope) (proto.RuntimeRemoteObjectID, error) {
	if !sc.top {
		return sc.doc, nil
	}
	d.mu.Lock()
	doc := d.topDoc
	d.mu.Unlock()
	if doc != "" {
		return doc, nil
	}
	var fn proto.RuntimeRemoteObjectID
	installed := make(chan struct{})
	go func() {
		defer close(installed)
		fn, _ = d.evalObject(ctx, sc.sid, jsInstallTop)
	}()
	doc, err := d.evalObject(ctx, sc.sid, "document")
	<-installed
	if err != nil {
		return "", err
	}
	d.mu.Lock()
	d.topDoc = doc
	if fn != "" {
		d.recordHelperLocked(helperKey{sc.sid, doc, helperDispatcher}, fn)
	}
	d.mu.Unlock()
	return doc, nil
}

// forgetTopDoc drops a cached top-level document object found stale.
func (d *Driver) forgetTopDoc(doc proto.RuntimeRemoteObjectID) {
	d.mu.Lock()
	if d.topDoc == doc {
		d.topDoc = ""
	}
	for k := range d.helpers {
		if k.doc == doc {
			delete(d.helpers, k)
		}
	}
	d.mu.Unlock()
}

func (d *Driver) asScope(s runtime.Scope) (*scope, error) {
	if s == nil {
		return d.top, nil
	}
	sc, ok := s.(*scope)
	if !ok || sc == nil {
		return nil, fmt.Errorf("%w: scope %T was not returned by this driver", runtime.ErrUnsupported, s)
	}
	if sc != d.top && !sc.top {
		d.mu.Lock()
		_, live := d.targets[sc.sid]
		d.mu.Unlock()
		if !live {
			return nil, fmt.Errorf("%w: the frame of this scope is gone", runtime.ErrStaleElement)
		}
	}
	return sc, nil
}

func (d *Driver) asElement(e runtime.Element) (*element, error) {
	if e == nil {
		return nil, fmt.Errorf("%w: nil element", runtime.ErrInvalidArgument)
	}
	el, ok := e.(*element)
	if !ok || el == nil || el.d != d {
		return nil, fmt.Errorf("%w: element %T was not returned by this driver", runtime.ErrUnsupported, e)
	}
	d.mu.Lock()
	stale := el.stale
	d.mu.Unlock()
	if stale {
		return nil, fmt.Errorf("%w: its document navigated", runtime.ErrStaleElement)
	}
	return el, nil
}

// handle returns the one handle of a node, creating it on first sight.
func (d *Driver) handle(sc *scope, backend proto.DOMBackendNodeID, o proto.RuntimeRemoteObjectID) *element {
	k := elemKey{sid: sc.sid, backend: backend}
	d.mu.Lock()
	defer d.mu.Unlock()
	if el := d.elems[k]; el != nil {
		d.noteRecentLocked(el)
		return el
	}
	el := &element{d: d, sid: sc.sid, frame: sc.frame, backend: backend, obj: o, chain: sc.chain}
	d.elems[k] = el
	d.noteRecentLocked(el)
	return el
}

// maxKnown is how many recently returned handles a DOM Find passes to
// the page, so that an answer of one of them needs no DOM.describeNode.
const maxKnown = 8

// noteRecentLocked makes el the newest of the recent handles. d.mu is
// held.
func (d *Driver) noteRecentLocked(el *element) {
	if i := slices.Index(d.recent, el); i >= 0 {
		d.recent = slices.Delete(d.recent, i, i+1)
	} else if len(d.recent) >= maxKnown {
		d.recent = slices.Delete(d.recent, 0, 1)
	}
	d.recent = append(d.recent, el)
}

// recentHandles returns the live recent handles of sc's document, newest
// first.
func (d *Driver) recentHandles(sc *scope) []*element {
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []*element
	for i := len(d.recent) - 1; i >= 0; i-- {
		if el := d.recent[i]; !el.stale && el.sid == sc.sid && el.frame == sc.frame {
			out = append(out, el)
		}
	}
	return out
}

// knownObject returns the object of a node already handed out.
func (d *Driver) knownObject(sid proto.TargetSessionID, backend proto.DOMBackendNodeID) proto.RuntimeRemoteObjectID {
	d.mu.Lock()
	defer d.mu.Unlock()
	if el := d.elems[elemKey{sid: sid, backend: backend}]; el != nil {
		return el.obj
	}
	return ""
}

// Find returns the elements matching c inside scope (or inside root),
// in document order, open shadow roots included (closed ones are never
// entered). Role candidates are answered by the browser's accessibility
// tree (Accessibility.getPartialAXTree per pre-filtered node, or
// Accessibility.queryAXTree scoped to the document or root), except
// where the page reads the role and name with certainty (see findRole); label,
// placeholder, test id and text are computed by a page-side helper over
// the DOM and its open shadow trees; CSS is querySelectorAll, evaluated
// per compound across shadow boundaries when the page has open shadow
// roots. Semantic strategies and ":visible" CSS keep only visible
// elements. See the package documentation for the shadow DOM rules.
func (d *Driver) Find(ctx context.Context, s runtime.Scope, root runtime.Element, c locator.Candidate) ([]runtime.Element, error) {
	cctx, done, err := d.begin(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	if c.Scope != nil {
		// The runtime resolves scopes (Find with the scope's element as
		// root); ignoring one here would search the whole document.
		return nil, fmt.Errorf("%w: a scoped candidate (resolve its scope first)", runtime.ErrUnsupported)
	}
	sc, rootObj, err := d.scopeRoot(s, root)
	if err != nil {
		return nil, err
	}
	els, err := inDocument(cctx, d, sc, func(doc proto.RuntimeRemoteObjectID) ([]*element, error) {
		switch c.Strategy {
		case locator.Role:
			return d.findRole(cctx, sc, doc, rootObj, c)
		case locator.Label:
			return d.findLabel(cctx, sc, doc, rootObj, c)
		case locator.Placeholder, locator.TestID, locator.Text, locator.CSS:
			return d.findDOM(cctx, sc, doc, rootObj, c)
		}
		return nil, fmt.Errorf("%w: locator strategy %q", runtime.ErrUnsupported, c.Strategy)
	})
	if err != nil {
		return nil, err
	}
	out := make([]runtime.Element, len(els))
	for i, el := range els {
		out[i] = el
	}
	return out, nil
}

// scopeRoot resolves a Find-style scope and optional root element; the
// root must belong to the scope's document.
func (d *Driver) scopeRoot(s runtime.Scope, root runtime.Element) (*scope, proto.RuntimeRemoteObjectID, error) {
	sc, err := d.asScope(s)
	if err != nil {
		return nil, "", err
	}
	if root == nil {
		return sc, "", nil
	}
	rel, err := d.asElement(root)
	if err != nil {
		return nil, "", err
	}
	if rel.sid != sc.sid || rel.frame != sc.frame {
		return nil, "", fmt.Errorf("%w: root element is not in this scope", runtime.ErrStaleElement)
	}
	return sc, rel.obj, nil
}

// inDocument runs query against the scope's current document. When the
// cached top-level document was replaced (errStaleScope or a stale CDP
// error, and ctx still live) it forgets it and runs query once more on the
// new one. Errors are mapped as Find maps them (findErr).
func inDocument[T any](ctx context.Context, d *Driver, sc *scope, query func(doc proto.RuntimeRemoteObjectID) (T, error)) (T, error) {
	run := func() (T, proto.RuntimeRemoteObjectID, error) {
		doc, err := d.document(ctx, sc)
		if err != nil {
			var zero T
			return zero, "", err
		}
		v, err := query(doc)
		return v, doc, err
	}
	v, doc, err := run()
	if err != nil && sc.top && interruption(ctx) == nil && (errors.Is(err, errStaleScope) || isStaleError(err)) {
		d.forgetTopDoc(doc)
		v, _, err = run()
	}
	if err != nil {
		var zero T
		return zero, d.findErr(ctx, err)
	}
	return v, nil
}

var errStaleScope = fmt.Errorf("%w: the scope's document was replaced", runtime.ErrStaleElement)

func (d *Driver) findErr(ctx context.Context, err error) error {
	var js *jsError
	switch {
	case errors.Is(err, runtime.ErrStaleElement), errors.Is(err, ErrInvalidSelector):
		return err
	case errors.As(err, &js) && strings.Contains(js.msg, "is not a valid selector"):
		return fmt.Errorf("%w: %s", ErrInvalidSelector, js.msg)
	case context.Cause(ctx) == nil && isStaleError(err):
		if e := d.fail(ctx, "find", err); !errors.Is(e, runtime.ErrBrowserCrashed) {
			return fmt.Errorf("%w: %v", runtime.ErrStaleElement, err)
		}
	}
	return d.fail(ctx, "find", err)
}

func (d *Driver) findDOM(ctx context.Context, sc *scope, doc, rootObj proto.RuntimeRemoteObjectID, c locator.Candidate) ([]*element, error) {
	return d.findElements(ctx, sc, doc, helperFind, val(string(c.Strategy)), val(c.Value()), val(c.Exact), obj(rootObj))
}

// findElements calls helper h (one that answers an array of elements,
// 'stale' or 'detached') with args and returns the handles of its answer.
// The recently returned handles of the scope are passed as known, so an
// answer of one of them costs no DOM.describeNode, and an answer of one
// element comes as the element (no Runtime.getProperties).
func (d *Driver) findElements(ctx context.Context, sc *scope, doc proto.RuntimeRemoteObjectID, h docHelper, args ...callArg) ([]*element, error) {
	known := d.recentHandles(sc)
	objs := make([]proto.RuntimeRemoteObjectID, len(known))
	for i, el := range known {
		objs[i] = el.obj
	}
	r, err := d.callHelperKnown(ctx, sc.sid, doc, h, objs, true, false, nil, args...)
	if err != nil && len(known) > 0 && isStaleError(err) {
		// A known handle's document went away before the event saying
		// so arrived: ask again without them, as without known handles.
		known = nil
		r, err = d.callHelperKnown(ctx, sc.sid, doc, h, nil, true, false, nil, args...)
	}
	if err != nil {
		return nil, err
	}
	if err := helperStatus(r); err != nil {
		return nil, err
	}
	if r.Type == "number" {
		// One element, a known one (callHelperKnown).
		var i int
		if err := jsonNumber(r.Value, &i); err != nil || i < 0 || i >= len(known) {
			return nil, fmt.Errorf("decode page result: known element %s of %d", r.Value, len(known))
		}
		el := known[i]
		d.mu.Lock()
		stale := el.stale
		if !stale {
			d.noteRecentLocked(el)
		}
		d.mu.Unlock()
		if stale {
			return nil, errStaleScope
		}
		return []*element{el}, nil
	}
	if r.Subtype == "node" {
		// One element, answered as itself (callHelper's one).
		return d.handles(ctx, sc, []proto.RuntimeRemoteObjectID{r.ObjectID})
	}
	els, err := d.arrayObjects(ctx, sc.sid, r)
	if err != nil {
		return nil, err
	}
	return d.handles(ctx, sc, els)
}

// handles maps element objects to handles, describing each node once
// (concurrently, a few at a time) to learn its backend id.
func (d *Driver) handles(ctx context.Context, sc *scope, objs []proto.RuntimeRemoteObjectID) ([]*element, error) {
	out := make([]*element, len(objs))
	errs := make([]error, len(objs))
	sem := make(chan struct{}, 8)
	var wg sync.WaitGroup
	for i, o := range objs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			var res proto.DOMDescribeNodeResult
			if err := d.call(ctx, sc.sid, proto.DOMDescribeNode{ObjectID: o}, &res); err != nil {
				errs[i] = err
				return
			}
			out[i] = d.handle(sc, res.Node.BackendNodeID, o)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// maxRoleCandidates is how many DOM candidates findRole checks node by
// node before it asks the whole accessibility tree instead, unless the
// page decides every candidate (then up to 64 times as many: no
// accessibility call at all).
const maxRoleCandidates = 64

// findRole answers a role candidate. A page-side helper first narrows the
// DOM to the visible elements that may carry the role and name (a
// superset) and judges each (jsRoleVerdicts): where the role and name
// are certain (a plain native button or link named by its own text; see
// rolefast.go) the page's answer decides, once DOM.describeNode showed
// that no element of its ancestor chain is slotted into a shadow root the
// page cannot see; every other candidate is decided by the browser's
// computed role and name (Accessibility.getPartialAXTree). Each node the
// matches and their chains share is described once. When the role is not
// in the helper's table, or there are many candidates and the page does
// not decide them all, one Accessibility.queryAXTree over the scope
// answers instead.
func (d *Driver) findRole(ctx context.Context, sc *scope, doc, rootObj proto.RuntimeRemoteObjectID, c locator.Candidate) ([]*element, error) {
	name := normalizeSpace(c.Name)
	r, err := d.callHelper(ctx, sc.sid, doc, helperRoleCandidates, false, false, nil,
		val(c.Role), val(name), val(c.Exact), obj(rootObj), val(maxRoleCandidates), val(true))
	if err != nil {
		return nil, err
	}
	if err := helperStatus(r); err != nil {
		return nil, err
	}
	if r.Subtype == "null" || r.ObjectID == "" {
		return d.queryRole(ctx, sc, doc, rootObj, c)
	}
	items, err := d.arrayItems(ctx, sc.sid, r)
	if err != nil {
		return nil, err
	}
	vs, err := parseVerdicts(items)
	if err != nil {
		return nil, err
	}
	backends := make([]proto.DOMBackendNodeID, len(vs))
	errs := make([]error, len(vs))
	// The page's matches and their chains, each node described once
	// (chains share their ancestors).
	var objs []proto.RuntimeRemoteObjectID
	for _, v := range vs {
		if v.certain && v.role == c.Role && nameMatches(v.name, name, c.Exact) {
			objs = append(objs, v.obj)
			objs = append(objs, v.check...)
		}
	}
	nodes, err := d.describeAll(ctx, sc.sid, objs)
	if err != nil {
		return nil, err
	}
	sem := make(chan struct{}, 8)
	var wg sync.WaitGroup
	for i, v := range vs {
		if v.certain && (v.role != c.Role || !nameMatches(v.name, name, c.Exact)) {
			continue // certainly not a match
		}
		if v.certain {
			slot, b := slottedIn(nodes, v.obj, v.check)
			if !slot {
				backends[i] = b
				continue
			}
			// Slotted into a shadow tree: only the browser knows.
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			var res proto.AccessibilityGetPartialAXTreeResult
			if err := d.call(ctx, sc.sid, getPartialAXTree{ObjectID: v.obj}, &res); err != nil {
				errs[i] = err
				return
			}
			// Without relatives the answer is the node itself.
			for _, n := range res.Nodes {
				if n != nil && n.BackendDOMNodeID != 0 {
					if axMatches(n, c.Role, name, c.Exact) {
						backends[i] = n.BackendDOMNodeID
					}
					return
				}
			}
		}()
	}
	wg.Wait()
	var out []*element
	for i, v := range vs {
		if errs[i] != nil {
			return nil, errs[i]
		}
		if backends[i] != 0 {
			out = append(out, d.handle(sc, backends[i], v.obj))
		}
	}
	return out, nil
}

// getPartialAXTree is Accessibility.getPartialAXTree with fetchRelatives
// sent even when false (go-rod's type omits a false value, and the
// protocol's default is true).
type getPartialAXTree struct {
	ObjectID       proto.RuntimeRemoteObjectID `json:"objectId"`
	FetchRelatives bool                        `json:"fetchRelatives"`
}

func (getPartialAXTree) ProtoReq() string { return "Accessibility.getPartialAXTree" }

// axMatches reports whether an accessibility node has the role and name.
func axMatches(n *proto.AccessibilityAXNode, role, name string, exact bool) bool {
	if n.Ignored || n.Role == nil || n.Role.Value.Str() != role {
		return false
	}
	if name == "" {
		return true
	}
	got := ""
	if n.Name != nil {
		got = n.Name.Value.Str()
	}
	return nameMatches(got, name, exact)
}

// queryRole asks the whole accessibility tree of the scope (or root).
func (d *Driver) queryRole(ctx context.Context, sc *scope, doc, rootObj proto.RuntimeRemoteObjectID, c locator.Candidate) ([]*element, error) {
	name := normalizeSpace(c.Name)
	q := proto.AccessibilityQueryAXTree{ObjectID: doc, Role: c.Role}
	if rootObj != "" {
		q.ObjectID = rootObj
	}
	// No accessibleName filter, even for an exact name: Chromium compares
	// it with the raw name ("Pay\u00a0now", "a  b" from a value), which
	// misses names equal after whitespace normalisation that the node by
	// node path (and the fast path) match. Names are compared here.
	var res proto.AccessibilityQueryAXTreeResult
	if err := d.call(ctx, sc.sid, q, &res); err != nil {
		return nil, err
	}
	var backends []proto.DOMBackendNodeID
	seen := map[proto.DOMBackendNodeID]bool{}
	for _, n := range res.Nodes {
		if n == nil || n.Ignored || n.BackendDOMNodeID == 0 || seen[n.BackendDOMNodeID] {
			continue
		}
		if !axMatches(n, c.Role, name, c.Exact) {
			continue
		}
		seen[n.BackendDOMNodeID] = true
		backends = append(backends, n.BackendDOMNodeID)
	}
	keep, objs, err := d.filterAXNodes(ctx, sc, doc, rootObj, backends)
	if err != nil {
		return nil, err
	}
	out := make([]*element, 0, len(keep))
	for _, i := range keep {
		out = append(out, d.handle(sc, backends[i], objs[i]))
	}
	return out, nil
}

// filterAXNodes resolves the nodes an accessibility query matched to page
// objects and keeps those the page-side filter (jsFilter) accepts: inside
// root and visible in this document. It returns the kept indices into
// backends, each valid, and the objects by index. No node at all still
// checks that the scope is current: an empty answer from a replaced
// document must not look like "no match" (errStaleScope).
func (d *Driver) filterAXNodes(ctx context.Context, sc *scope, doc, rootObj proto.RuntimeRemoteObjectID, backends []proto.DOMBackendNodeID) ([]int, []proto.RuntimeRemoteObjectID, error) {
	if len(backends) == 0 {
		var live bool
		if _, err := d.callOn(ctx, sc.sid, doc, `function(){ return !!this.defaultView }`, true, &live); err != nil {
			return nil, nil, err
		}
		if !live {
			return nil, nil, errStaleScope
		}
		return nil, nil, nil
	}
	objs := make([]proto.RuntimeRemoteObjectID, len(backends))
	errs := make([]error, len(backends))
	sem := make(chan struct{}, 8)
	var wg sync.WaitGroup
	for i, b := range backends {
		if o := d.knownObject(sc.sid, b); o != "" {
			objs[i] = o
			continue
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			var r proto.DOMResolveNodeResult
			if err := d.call(ctx, sc.sid, proto.DOMResolveNode{BackendNodeID: b, ObjectGroup: objectGroup}, &r); err != nil {
				errs[i] = err
				return
			}
			if r.Object != nil {
				objs[i] = r.Object.ObjectID
			}
		}()
	}
	wg.Wait()
	args := []callArg{obj(rootObj)}
	for i, o := range objs {
		if errs[i] != nil || o == "" {
			args = append(args, val(nil))
			continue
		}
		args = append(args, obj(o))
	}
	var keep []int
	r, err := d.callHelper(ctx, sc.sid, doc, helperFilter, false, true, &keep, args...)
	if err != nil {
		return nil, nil, err
	}
	if err := helperStatus(r); err != nil {
		return nil, nil, err
	}
	valid := keep[:0]
	for _, i := range keep {
		if i >= 0 && i < len(backends) {
			valid = append(valid, i)
		}
	}
	return valid, objs, nil
}

// normalizeSpace collapses whitespace runs to one space and trims.
func normalizeSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

// Frame resolves a frame path from the top-level document. Each selector
// must match exactly one iframe of the previous document. Frame waits,
// bounded by ctx, for each frame to leave its initial empty document, so
// the origin it reports is the frame's real one; out-of-process frames
// are reached through their own target session.
func (d *Driver) Frame(ctx context.Context, selectors []string) (runtime.Scope, []runtime.FrameInfo, error) {
	cctx, done, err := d.begin(ctx)
	if err != nil {
		return nil, nil, err
	}
	defer done()
	cur := d.top
	if len(selectors) == 0 {
		return cur, nil, nil
	}
	doc, err := d.document(cctx, cur)
	if err != nil {
		return nil, nil, d.fail(cctx, "frame", err)
	}
	if _, err := d.callOn(cctx, cur.sid, doc, `function(){ return 1 }`, true, nil); err != nil {
		// A stale cached top-level document: look it up again.
		d.forgetTopDoc(doc)
		if doc, err = d.document(cctx, cur); err != nil {
			return nil, nil, d.fail(cctx, "frame", err)
		}
	}
	infos := make([]runtime.FrameInfo, 0, len(selectors))
	for _, sel := range selectors {
		next, info, err := d.resolveFrame(cctx, cur, doc, sel)
		if err != nil {
			return nil, nil, err
		}
		infos = append(infos, runtime.FrameInfo{Selector: sel, Origin: info.Origin})
		cur, doc = next, next.doc
	}
	return cur, infos, nil
}

type docInfo struct {
	Live   bool   `json:"live"`
	URL    string `json:"url"`
	Ready  string `json:"ready"`
	Origin string `json:"origin"`
}

// resolveFrame looks for the frame of sel until it is ready. Between two
// looks it waits for a Page or Target event (the frame committing,
// attaching or loading), bounded by frameRecheck, never for a fixed
// interval.
func (d *Driver) resolveFrame(ctx context.Context, parent *scope, doc proto.RuntimeRemoteObjectID, sel string) (*scope, docInfo, error) {
	var wake *changeWaker
	defer func() {
		if wake != nil {
			wake.close()
		}
	}()
	var timer *time.Timer
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	for {
		if wake != nil {
			wake.drain()
		}
		sc, info, retry, err := d.tryFrame(ctx, parent, doc, sel)
		if err != nil {
			return nil, docInfo{}, err
		}
		if !retry {
			return sc, info, nil
		}
		if wake == nil {
			// Registered after the first look: an event that came before
			// it is covered by one more look at once.
			wake = d.newChangeWaker()
			continue
		}
		if timer == nil {
			timer = time.NewTimer(frameRecheck)
		} else {
			timer.Reset(frameRecheck)
		}
		select {
		case <-ctx.Done():
			return nil, docInfo{}, d.fail(ctx, fmt.Sprintf("frame %q did not finish loading", sel), ctx.Err())
		case <-wake.ch:
		case <-timer.C:
		}
	}
}

func (d *Driver) tryFrame(ctx context.Context, parent *scope, doc proto.RuntimeRemoteObjectID, sel string) (*scope, docInfo, bool, error) {
	r, err := d.callOn(ctx, parent.sid, doc, jsFrameOwner, false, nil, val(sel))
	if err != nil {
		var js *jsError
		if errors.As(err, &js) {
			return nil, docInfo{}, false, fmt.Errorf("%w: %q: %w: %s", runtime.ErrFrameNotFound, sel, ErrInvalidSelector, js.msg)
		}
		if context.Cause(ctx) == nil && isStaleError(err) {
			return nil, docInfo{}, false, fmt.Errorf("%w: %q: parent document was replaced", runtime.ErrFrameNotFound, sel)
		}
		return nil, docInfo{}, false, d.fail(ctx, "frame", err)
	}
	if r.Type == "number" {
		var n int
		_ = jsonNumber(r.Value, &n)
		switch {
		case n == 0:
			return nil, docInfo{}, false, fmt.Errorf("%w: %q matched no iframe", runtime.ErrFrameNotFound, sel)
		case n < 0:
			return nil, docInfo{}, false, fmt.Errorf("%w: %q matched an element that is not an iframe", runtime.ErrFrameNotFound, sel)
		default:
			return nil, docInfo{}, false, fmt.Errorf("%w: %q matched %d elements", runtime.ErrFrameAmbiguous, sel, n)
		}
	}
	owner := r.ObjectID
	var desc proto.DOMDescribeNodeResult
	depth := 1
	if err := d.call(ctx, parent.sid, proto.DOMDescribeNode{ObjectID: owner, Depth: &depth}, &desc); err != nil {
		return nil, docInfo{}, false, d.fail(ctx, "frame", err)
	}
	n := desc.Node
	next := &scope{frame: n.FrameID, chain: append(append([]link(nil), parent.chain...), link{sid: parent.sid, obj: owner})}
	switch {
	case n.ContentDocument != nil:
		var rn proto.DOMResolveNodeResult
		if err := d.call(ctx, parent.sid, proto.DOMResolveNode{BackendNodeID: n.ContentDocument.BackendNodeID, ObjectGroup: objectGroup}, &rn); err != nil {
			if isStaleError(err) {
				return nil, docInfo{}, true, nil
			}
			return nil, docInfo{}, false, d.fail(ctx, "frame", err)
		}
		next.sid, next.doc = parent.sid, rn.Object.ObjectID
	case n.FrameID != "":
		d.mu.Lock()
		t := d.byTarget[proto.TargetTargetID(n.FrameID)]
		d.mu.Unlock()
		if t == nil {
			return nil, docInfo{}, true, nil // out-of-process frame not attached yet
		}
		o, err := d.evalObject(ctx, t.sid, "document")
		if err != nil {
			if isStaleError(err) {
				return nil, docInfo{}, true, nil
			}
			return nil, docInfo{}, false, d.fail(ctx, "frame", err)
		}
		next.sid, next.doc = t.sid, o
	default:
		return nil, docInfo{}, true, nil
	}
	var info docInfo
	if _, err := d.callOn(ctx, next.sid, next.doc, jsDocInfo, true, &info); err != nil {
		if isStaleError(err) {
			return nil, docInfo{}, true, nil
		}
		return nil, docInfo{}, false, d.fail(ctx, "frame", err)
	}
	var src string
	if _, err := d.callOn(ctx, parent.sid, owner, `function(){ return this.getAttribute('src') || '' }`, true, &src); err != nil {
		return nil, docInfo{}, false, d.fail(ctx, "frame", err)
	}
	src = strings.TrimSpace(src)
	pendingSrc := src != "" && !strings.HasPrefix(src, "about:") && !strings.HasPrefix(src, "javascript:")
	if !info.Live || info.Ready == "loading" || (info.URL == "about:blank" && pendingSrc) {
		return nil, docInfo{}, true, nil
	}
	return next, info, false, nil
}
