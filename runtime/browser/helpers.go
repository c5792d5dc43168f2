package browser

import (
	"context"
	"strconv"

	"github.com/go-rod/rod/lib/proto"
)

// The document helpers (jsCounts, jsFind, jsRoleCandidates, jsFilter,
// jsLabel) are 11 to 37 KB of source each. Sent with every
// Runtime.callFunctionOn, the source, not the page-side work, was most of
// a look's cost on a small page (the browser receives and compiles it on
// every call). So the driver installs, once per document, a small
// dispatcher: a remote function object bound to that document that keeps
// the helpers given to it. The first call of a helper in a document sends
// its source through the dispatcher, which runs it and keeps it; later
// calls send only the dispatcher's handle and a one-line declaration.
// Each helper's source is so compiled once per document, and only when a
// look needs it: a cold label lookup compiles jsLabel alone, not the
// 84 KB of every helper (installed together, they cost a cold lookup on
// a fresh 10,000-node renderer about 60 ms).
//
// The dispatcher lives in the document's own execution context and
// object group (never as a page global the page could reach or replace)
// and dies with that context: a call through it on a replaced document
// fails as a call with the document object itself fails (a stale error),
// so it gives the same answers as sending the source.

// docHelper names one document helper.
type docHelper int

const (
	helperCounts docHelper = iota
	helperFind
	helperRoleCandidates
	helperFilter
	helperLabel
	numHelpers
)

// helperDispatcher is the key slot of a document's dispatcher itself in
// the installed-helper table (Driver.helpers): a key with a helper's
// index records that the dispatcher keeps that helper.
const helperDispatcher = numHelpers

// helperSrc is each helper's function declaration (this = the document).
var helperSrc = [numHelpers]string{
	helperCounts:         jsCounts,
	helperFind:           jsFind,
	helperRoleCandidates: jsRoleCandidates,
	helperFilter:         jsFilter,
	helperLabel:          jsLabel,
}

// jsInstall runs with this = a document and returns the dispatcher bound
// to it: a function of a helper's index (docHelper), an array holding nk
// known elements and then the helper's arguments, one (see
// callHelperKnown) and, on the helper's first call in the document, its
// function, which the dispatcher keeps. With one, an answer of exactly
// one element is answered as the index of that element among the known
// ones, or else as the element itself. With a null array it calls
// nothing: it keeps the function given, if any, and returns the function
// it keeps for that index (undefined when none), which is how the counts
// helper's first call reuses or gives the helpers it is made of.
// Reflect.apply and Array.isArray are read once, here, and the helpers
// are kept in an object without a prototype, so a call through it reads
// no property the page may have replaced since.
var jsInstall = installSource("this")

// jsInstallTop is jsInstall as an expression for Runtime.evaluate in the
// top-level document (bound to document, which a page cannot redefine).
var jsInstallTop = "(" + installSource("document") + ")()"

func installSource(docExpr string) string {
	return `function() {
  const apply = Reflect.apply, isArray = Array.isArray, doc = ` + docExpr + `;
  const hs = { __proto__: null };
  return (h, a, one, nk, src) => {
    if (src) hs[h] = src;
    const fn = hs[h];
    if (a === null) return fn; // keep src, or look up h: no call
    if (!fn) throw new Error('vera: document helper ' + h + ' was not installed');
    const args = [];
    for (let i = nk; i < a.length; i++) args[i - nk] = a[i];
    const r = apply(fn, doc, args);
    if (!one || !isArray(r) || r.length !== 1) return r;
    for (let i = 0; i < nk; i++) if (a[i] === r[0]) return i;
    return r[0];
  };
}`
}

// jsViaHelper calls a helper the dispatcher (f) keeps: helper h with
// one, nk and the arguments after them (nk known elements, then the
// helper's own).
const jsViaHelper = `function(f, h, one, nk, ...a) { return f(h, a, one, nk); }`

// jsViaHelperFirst[h] is jsViaHelper giving the dispatcher helper h's
// function, for its first call in a document. The counts helper's is
// made of the find, role and label helpers the dispatcher keeps, each
// given to it first when it keeps none yet (helperParts): a Find after
// a FindCounts, or the reverse, compiles none of them twice.
var jsViaHelperFirst = func() (out [numHelpers]string) {
	for h, src := range helperSrc {
		out[h] = "function(f, h, one, nk, ...a) { return f(h, a, one, nk, (" + src + ")); }"
	}
	kept := func(p docHelper) string {
		i := strconv.Itoa(int(p))
		return "f(" + i + ", null) || f(" + i + ", null, false, 0, (" + helperSrc[p] + "))"
	}
	out[helperCounts] = "function(f, h, one, nk, ...a) { return f(h, a, one, nk, (" + jsCountsWith + ")(" +
		kept(helperFind) + ", " + kept(helperRoleCandidates) + ", " + kept(helperLabel) + ")); }"
	return out
}()

// helperParts[h] are the helpers helper h's first call in a document
// gives the dispatcher besides h (see jsViaHelperFirst).
var helperParts = [numHelpers][]docHelper{
	helperCounts: {helperFind, helperRoleCandidates, helperLabel},
}

// helperOne[h] is helper h's own declaration answering, like a helper
// called through the dispatcher with one, an array of exactly one element
// as that element: for a call in a document without a dispatcher.
var helperOne = func() (out [numHelpers]string) {
	for h, src := range helperSrc {
		out[h] = `function(...a) { const r = Reflect.apply((` + src + `), this, a); return Array.isArray(r) && r.length === 1 ? r[0] : r; }`
	}
	return out
}()

// helperKey is one helper (h), or the dispatcher (helperDispatcher), of
// one document.
type helperKey struct {
	sid proto.TargetSessionID
	doc proto.RuntimeRemoteObjectID
	h   docHelper
}

// maxHelperEntries bounds the installed-helper table: past it, the
// entries of documents other than the current top-level one are dropped
// (their dispatcher is installed again on next use).
const maxHelperEntries = 64

// dispatcher returns the dispatcher installed in document doc, or "" when
// there is none, and whether it keeps helper h. When there is none and
// none is being installed, it marks one as being installed and reports
// install true: the caller installs it (installDispatcher).
func (d *Driver) dispatcher(sid proto.TargetSessionID, doc proto.RuntimeRemoteObjectID, h docHelper) (fn proto.RuntimeRemoteObjectID, kept, install bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	k := helperKey{sid, doc, helperDispatcher}
	if fn = d.helpers[k]; fn != "" {
		return fn, d.helpers[helperKey{sid, doc, h}] == fn, false
	}
	if d.installing[k] {
		return "", false, false
	}
	if d.installing == nil {
		d.installing = map[helperKey]bool{}
	}
	d.installing[k] = true
	return "", false, true
}

// installDispatcher installs the dispatcher in document doc, records it
// and returns it. A failure is not reported ("" is returned): the caller
// sends the helper's source instead, and the next call tries once more.
func (d *Driver) installDispatcher(ctx context.Context, sid proto.TargetSessionID, doc proto.RuntimeRemoteObjectID) proto.RuntimeRemoteObjectID {
	r, err := d.callOn(ctx, sid, doc, jsInstall, false, nil)
	k := helperKey{sid, doc, helperDispatcher}
	d.mu.Lock()
	defer d.mu.Unlock()
	delete(d.installing, k)
	if err != nil || r.Type != "function" || r.ObjectID == "" {
		return ""
	}
	d.recordHelperLocked(k, r.ObjectID)
	return r.ObjectID
}

// recordHelperLocked records fn as the dispatcher of document k.doc
// (k.h is helperDispatcher) or as one that keeps helper k.h. d.mu is
// held.
func (d *Driver) recordHelperLocked(k helperKey, fn proto.RuntimeRemoteObjectID) {
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
	if k.h != helperDispatcher && d.helpers[helperKey{k.sid, k.doc, helperDispatcher}] != fn {
		return // the dispatcher was dropped or replaced meanwhile
	}
	d.helpers[k] = fn
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
// through the dispatcher of doc. A document without one gets it installed
// first (the top-level document's is installed beside its lookup,
// Driver.document); the helper's first call there sends its source to the
// dispatcher, which keeps it, so each helper's source is compiled once per
// document. With one, an array of exactly one element is answered as
// that element, so the caller needs no Runtime.getProperties for it.
func (d *Driver) callHelper(ctx context.Context, sid proto.TargetSessionID, doc proto.RuntimeRemoteObjectID, h docHelper, one, byValue bool, out any, args ...callArg) (remoteObject, error) {
	return d.callHelperKnown(ctx, sid, doc, h, nil, one, byValue, out, args...)
}

// callHelperKnown is callHelper where, with one and a dispatcher, an
// answer of exactly one element that is one of the known objects
// (elements of doc) is answered as its index in known, a number, so the
// caller needs no DOM.describeNode to learn which node it is. Without a
// dispatcher (its install failed or is under way in another call), the
// helper's source is sent on its own and known is not used.
func (d *Driver) callHelperKnown(ctx context.Context, sid proto.TargetSessionID, doc proto.RuntimeRemoteObjectID, h docHelper, known []proto.RuntimeRemoteObjectID, one, byValue bool, out any, args ...callArg) (remoteObject, error) {
	fn, kept, install := d.dispatcher(sid, doc, h)
	if install {
		fn = d.installDispatcher(ctx, sid, doc)
	}
	if fn == "" {
		decl := helperSrc[h]
		if one {
			decl = helperOne[h]
		}
		return d.callOn(ctx, sid, doc, decl, byValue, out, args...)
	}
	all := make([]callArg, 0, 4+len(known)+len(args))
	all = append(all, obj(fn), val(int(h)), val(one), val(len(known)))
	for _, o := range known {
		all = append(all, obj(o))
	}
	decl := jsViaHelper
	if !kept {
		decl = jsViaHelperFirst[h]
	}
	r, err := d.callOn(ctx, sid, doc, decl, byValue, out, append(all, args...)...)
	if err == nil && !kept {
		// The call ran, so the dispatcher keeps the helper (it does so
		// before running it).
		d.mu.Lock()
		d.recordHelperLocked(helperKey{sid, doc, h}, fn)
		for _, p := range helperParts[h] {
			d.recordHelperLocked(helperKey{sid, doc, p}, fn)
		}
		d.mu.Unlock()
	}
	return r, err
}
