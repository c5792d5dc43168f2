package browser

import (
	"context"

	"github.com/go-rod/rod/lib/proto"
)

// The document helpers (jsCounts, jsFind, jsRoleCandidates, jsFilter) are
// 11 to 36 KB of source each. Sent with every Runtime.callFunctionOn, the
// source, not the page-side work, was most of a look's cost on a small
// page (the browser receives and compiles it on every call). So the
// driver installs each helper once per document, as a remote function
// object bound to that document, and later calls send only that object
// and a one-line declaration.
//
// The installed function lives in the document's own execution context
// and object group (never as a page global the page could reach or
// replace) and dies with that context: a call through it on a replaced
// document fails as a call with the document object itself fails (a
// stale error), so it gives the same answers as sending the source.

// docHelper names one document helper.
type docHelper int

const (
	helperCounts docHelper = iota
	helperFind
	helperRoleCandidates
	helperFilter
	numHelpers
)

// helperSrc is each helper's function declaration (this = the document).
var helperSrc = [numHelpers]string{
	helperCounts:         jsCounts,
	helperFind:           jsFind,
	helperRoleCandidates: jsRoleCandidates,
	helperFilter:         jsFilter,
}

// jsInstall runs with this = a document and returns the helper bound to
// it, as a function of an array holding nk known elements and then the
// helper's arguments, and of one (see callHelper). With one, an answer of
// exactly one element is answered as the index of that element among the
// known ones, or else as the element itself. Reflect.apply and
// Array.isArray are read once, here, so a call through it reads no
// property the page may have replaced since.
func jsInstall(src string) string {
	return `function() {
  const apply = Reflect.apply, isArray = Array.isArray, doc = this, h = (` + src + `);
  return (a, one, nk) => {
    const args = [];
    for (let i = nk; i < a.length; i++) args[i - nk] = a[i];
    const r = apply(h, doc, args);
    if (!one || !isArray(r) || r.length !== 1) return r;
    for (let i = 0; i < nk; i++) if (a[i] === r[0]) return i;
    return r[0];
  };
}`
}

// jsViaHelper calls an installed helper (f) with one, nk and the
// arguments after them (nk known elements, then the helper's own).
const jsViaHelper = `function(f, one, nk, ...a) { return f(a, one, nk); }`

// helperOne[h] is helper h's own declaration answering, like an installed
// helper called with one, an array of exactly one element as that
// element: for a call before the helper is installed.
var helperOne = func() (out [numHelpers]string) {
	for h, src := range helperSrc {
		out[h] = `function(...a) { const r = Reflect.apply((` + src + `), this, a); return Array.isArray(r) && r.length === 1 ? r[0] : r; }`
	}
	return out
}()

// helperKey is one helper installed in one document.
type helperKey struct {
	sid proto.TargetSessionID
	doc proto.RuntimeRemoteObjectID
	h   docHelper
}

// maxHelperEntries bounds the installed-helper table: past it, the
// entries of documents other than the current top-level one are dropped
// (their helpers are installed again on next use).
const maxHelperEntries = 64

// installedHelper returns the function object of helper h in document
// doc, or "" when it is not installed.
func (d *Driver) installedHelper(sid proto.TargetSessionID, doc proto.RuntimeRemoteObjectID, h docHelper) proto.RuntimeRemoteObjectID {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.helpers[helperKey{sid, doc, h}]
}

// installHelper installs helper h in document doc and records it. A
// failure is not reported: the next call sends the source again.
func (d *Driver) installHelper(ctx context.Context, sid proto.TargetSessionID, doc proto.RuntimeRemoteObjectID, h docHelper) {
	r, err := d.callOn(ctx, sid, doc, jsInstall(helperSrc[h]), false, nil)
	if err != nil || r.Type != "function" || r.ObjectID == "" {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.helpers == nil {
		d.helpers = map[helperKey]proto.RuntimeRemoteObjectID{}
	}
	if len(d.helpers) >= maxHelperEntries {
		for k := range d.helpers {
			if k.doc != d.topDoc {
				delete(d.helpers, k)
			}
		}
	}
	d.helpers[helperKey{sid, doc, h}] = r.ObjectID
}

// dropHelpersLocked forgets the helpers installed in documents of
// session sid (its top document was replaced). d.mu is held.
func (d *Driver) dropHelpersLocked(sid proto.TargetSessionID) {
	for k := range d.helpers {
		if k.sid == sid {
			delete(d.helpers, k)
		}
	}
}

// callHelper is callOn(ctx, sid, doc, helperSrc[h], byValue, out, args...)
// through the helper installed in doc. On the helper's first use in doc
// it sends the source, and installs the helper beside that call (the two
// commands are in flight together, so the first call waits no longer).
// With one, an array of exactly one element is answered as that element,
// so the caller needs no Runtime.getProperties for it.
func (d *Driver) callHelper(ctx context.Context, sid proto.TargetSessionID, doc proto.RuntimeRemoteObjectID, h docHelper, one, byValue bool, out any, args ...callArg) (remoteObject, error) {
	return d.callHelperKnown(ctx, sid, doc, h, nil, one, byValue, out, args...)
}

// callHelperKnown is callHelper where, with one and the helper installed,
// an answer of exactly one element that is one of the known objects
// (elements of doc) is answered as its index in known, a number, so the
// caller needs no DOM.describeNode to learn which node it is. Before the
// helper is installed, known is not used.
func (d *Driver) callHelperKnown(ctx context.Context, sid proto.TargetSessionID, doc proto.RuntimeRemoteObjectID, h docHelper, known []proto.RuntimeRemoteObjectID, one, byValue bool, out any, args ...callArg) (remoteObject, error) {
	if fn := d.installedHelper(sid, doc, h); fn != "" {
		all := make([]callArg, 0, 3+len(known)+len(args))
		all = append(all, obj(fn), val(one), val(len(known)))
		for _, o := range known {
			all = append(all, obj(o))
		}
		return d.callOn(ctx, sid, doc, jsViaHelper, byValue, out, append(all, args...)...)
	}
	installed := make(chan struct{})
	go func() {
		defer close(installed)
		d.installHelper(ctx, sid, doc, h)
	}()
	decl := helperSrc[h]
	if one {
		decl = helperOne[h]
	}
	r, err := d.callOn(ctx, sid, doc, decl, byValue, out, args...)
	<-installed
	return r, err
}
