package browser

import (
	"context"
	"strings"

	"github.com/go-rod/rod/lib/proto"
)

// The document helpers (jsCounts, jsFind, jsRoleCandidates, jsFilter) are
// 11 to 36 KB of source each. Sent with every Runtime.callFunctionOn, the
// source, not the page-side work, was most of a look's cost on a small
// page (the browser receives and compiles it on every call). So the
// driver installs them once per document, as one remote function object
// bound to that document, and later calls send only that object and a
// one-line declaration.
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

// jsInstall runs with this = a document and returns every helper bound
// to it, as one function of a helper's index (docHelper), an array
// holding nk known elements and then the helper's arguments, and one (see
// callHelperKnown). With one, an answer of exactly one element is
// answered as the index of that element among the known ones, or else as
// the element itself. Reflect.apply and Array.isArray are read once,
// here, so a call through it reads no property the page may have
// replaced since.
var jsInstall = installSource("this")

// jsInstallTop is jsInstall as an expression for Runtime.evaluate in the
// top-level document (bound to document, which a page cannot redefine).
var jsInstallTop = "(" + installSource("document") + ")()"

func installSource(docExpr string) string {
	var b strings.Builder
	b.WriteString("function() {\n  const apply = Reflect.apply, isArray = Array.isArray, doc = " + docExpr + ";\n  const hs = [")
	for h, src := range helperSrc {
		if h > 0 {
			b.WriteString(", ")
		}
		b.WriteString("(" + src + ")")
	}
	b.WriteString(`];
  return (h, a, one, nk) => {
    const args = [];
    for (let i = nk; i < a.length; i++) args[i - nk] = a[i];
    const r = apply(hs[h], doc, args);
    if (!one || !isArray(r) || r.length !== 1) return r;
    for (let i = 0; i < nk; i++) if (a[i] === r[0]) return i;
    return r[0];
  };
}`)
	return b.String()
}

// jsViaHelper calls the installed helpers (f): helper h with one, nk and
// the arguments after them (nk known elements, then the helper's own).
const jsViaHelper = `function(f, h, one, nk, ...a) { return f(h, a, one, nk); }`

// helperOne[h] is helper h's own declaration answering, like an installed
// helper called with one, an array of exactly one element as that
// element: for a call before the helpers are installed.
var helperOne = func() (out [numHelpers]string) {
	for h, src := range helperSrc {
		out[h] = `function(...a) { const r = Reflect.apply((` + src + `), this, a); return Array.isArray(r) && r.length === 1 ? r[0] : r; }`
	}
	return out
}()

// helperKey is one document, where the helpers are installed.
type helperKey struct {
	sid proto.TargetSessionID
	doc proto.RuntimeRemoteObjectID
}

// maxHelperEntries bounds the installed-helper table: past it, the
// entries of documents other than the current top-level one are dropped
// (their helpers are installed again on next use).
const maxHelperEntries = 32

// installedHelpers returns the function object of the helpers installed
// in document doc, or "" when they are not installed. When they are
// neither installed nor being installed, it marks them as being installed
// and reports install true: the caller installs them (installHelpers).
func (d *Driver) installedHelpers(sid proto.TargetSessionID, doc proto.RuntimeRemoteObjectID) (fn proto.RuntimeRemoteObjectID, install bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	k := helperKey{sid, doc}
	if fn = d.helpers[k]; fn != "" {
		return fn, false
	}
	if d.installing[k] {
		return "", false
	}
	if d.installing == nil {
		d.installing = map[helperKey]bool{}
	}
	d.installing[k] = true
	return "", true
}

// installHelpers installs the helpers in document doc and records them.
// A failure is not reported: the next call sends the source again and
// tries once more.
func (d *Driver) installHelpers(ctx context.Context, sid proto.TargetSessionID, doc proto.RuntimeRemoteObjectID) {
	r, err := d.callOn(ctx, sid, doc, jsInstall, false, nil)
	k := helperKey{sid, doc}
	d.mu.Lock()
	defer d.mu.Unlock()
	delete(d.installing, k)
	if err != nil || r.Type != "function" || r.ObjectID == "" {
		return
	}
	d.recordHelpersLocked(k, r.ObjectID)
}

// recordHelpersLocked records fn as the helpers installed in document
// k. d.mu is held.
func (d *Driver) recordHelpersLocked(k helperKey, fn proto.RuntimeRemoteObjectID) {
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
// through the helpers installed in doc. On the first helper call in doc
// it sends the helper's source, and installs all the helpers beside that
// call (the two commands are in flight together, so the first call waits
// no longer). With one, an array of exactly one element is answered as
// that element, so the caller needs no Runtime.getProperties for it.
func (d *Driver) callHelper(ctx context.Context, sid proto.TargetSessionID, doc proto.RuntimeRemoteObjectID, h docHelper, one, byValue bool, out any, args ...callArg) (remoteObject, error) {
	return d.callHelperKnown(ctx, sid, doc, h, nil, one, byValue, out, args...)
}

// callHelperKnown is callHelper where, with one and the helpers
// installed, an answer of exactly one element that is one of the known
// objects (elements of doc) is answered as its index in known, a number,
// so the caller needs no DOM.describeNode to learn which node it is.
// Before the helpers are installed, known is not used.
func (d *Driver) callHelperKnown(ctx context.Context, sid proto.TargetSessionID, doc proto.RuntimeRemoteObjectID, h docHelper, known []proto.RuntimeRemoteObjectID, one, byValue bool, out any, args ...callArg) (remoteObject, error) {
	fn, install := d.installedHelpers(sid, doc)
	if fn != "" {
		all := make([]callArg, 0, 4+len(known)+len(args))
		all = append(all, obj(fn), val(int(h)), val(one), val(len(known)))
		for _, o := range known {
			all = append(all, obj(o))
		}
		return d.callOn(ctx, sid, doc, jsViaHelper, byValue, out, append(all, args...)...)
	}
	var installed chan struct{}
	if install {
		installed = make(chan struct{})
		go func() {
			defer close(installed)
			d.installHelpers(ctx, sid, doc)
		}()
	}
	decl := helperSrc[h]
	if one {
		decl = helperOne[h]
	}
	r, err := d.callOn(ctx, sid, doc, decl, byValue, out, args...)
	if installed != nil {
		<-installed
	}
	return r, err
}
