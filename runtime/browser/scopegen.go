package browser

import (
	"strings"

	"github.com/go-rod/rod/lib/proto"
	"github.com/vera-run/vera/runtime"
)

// scopeEpochs tells the requests of documents committed under an earlier
// origin scope from those of the current one. A driver reused for
// another run (RestrictOrigins with the next run's scope) still sees the
// previous run's document at work until the start navigation replaces
// it, and after that its backlog: Chromium serializes same-URL GETs, so
// a page that polled one URL faster than it was answered left requests
// that were sent, and paused by the interceptor, up to a second after
// the document had gone. Outside the new scope they are blocked all the
// same, but they are not the new run's: recorded, they failed a clean
// run with dozens of violations of an origin it never loaded.
//
// The rule: a request is the new run's unless its document (Network
// requestWillBeSent's loaderId; when the pause comes first, the
// frame's document) last committed under an earlier scope. Every commit
// (Page.frameNavigated: a navigation, a reload, a back-forward cache
// restore) stamps its loader with the current generation, and so does a
// same-document navigation (Page.navigatedWithinDocument), so a document
// brought back or kept is the current run's again; a request of a
// document that never committed while the driver watched is the current
// run's (recorded, as before). The same holds for a connect-src refusal
// (the target's document decides) and for the network gate, which sees a
// plain HTTP request's Referer: a document outside the current scope
// can only be an earlier scope's, since the current scope blocks such
// documents or records them when they commit. Workers' requests carry no
// document loader and are always recorded.
type scopeEpochs struct {
	gen     uint64                                      // scopes installed so far
	loaders map[proto.NetworkLoaderID]uint64            // a document's generation at its last commit
	byReq   map[loadKey]proto.NetworkLoaderID           // the document that announced a request, until it is paused or ends
	current map[proto.PageFrameID]proto.NetworkLoaderID // each frame's document, by its last commit
	navs    map[proto.NetworkLoaderID]uint64            // a navigation's generation when it was sent, until it commits
	blocked uint64                                      // such requests blocked outside the scope (tests)
}

// epochLimit bounds the maps: past it they are cleared, and the requests
// they would have excused are recorded (fail closed).
const epochLimit = 1 << 14

// newScopeLocked starts a generation. Earlier generations' loaders stay
// known (up to epochLimit): a backlog can outlast several short runs.
func (s *scopeEpochs) newScopeLocked() { s.gen++ }

// navigationLocked notes when a navigation (a document request, whose
// loader is its request id) was sent.
func (s *scopeEpochs) navigationLocked(l proto.NetworkLoaderID) {
	if l == "" {
		return
	}
	if s.navs == nil || len(s.navs) >= epochLimit {
		s.navs = map[proto.NetworkLoaderID]uint64{}
	}
	if _, ok := s.navs[l]; !ok {
		s.navs[l] = s.gen
	}
}

// committedLocked stamps a document that committed in frame, and reports
// whether it is an earlier scope's: a navigation sent before the current
// scope was installed (the previous run's page, or its timer, leaving)
// that commits after it keeps the generation it was sent in, until the
// next run's start navigation replaces it.
func (s *scopeEpochs) committedLocked(frame proto.PageFrameID, l proto.NetworkLoaderID) bool {
	if l == "" {
		return false
	}
	if s.loaders == nil || len(s.loaders) >= epochLimit {
		s.loaders = map[proto.NetworkLoaderID]uint64{}
	}
	if s.current == nil || len(s.current) >= epochLimit {
		s.current = map[proto.PageFrameID]proto.NetworkLoaderID{}
	}
	g, sent := s.navs[l]
	delete(s.navs, l)
	if !sent || g > s.gen {
		g = s.gen
	}
	s.loaders[l] = g
	s.current[frame] = l
	return g < s.gen
}

// adoptedLocked stamps frame's document again: a same-document
// navigation (Navigate to the same URL with another fragment, a
// pushState) keeps the document, which is the current run's from then
// on.
func (s *scopeEpochs) adoptedLocked(frame proto.PageFrameID) {
	if l, ok := s.current[frame]; ok {
		s.loaders[l] = s.gen
	}
}

// earlierLocked reports whether loader l's document last committed under
// an earlier scope.
func (s *scopeEpochs) earlierLocked(l proto.NetworkLoaderID) bool {
	g, ok := s.loaders[l]
	return ok && g < s.gen
}

// frameEarlierLocked reports whether frame's document is an earlier
// scope's.
func (s *scopeEpochs) frameEarlierLocked(frame proto.PageFrameID) bool {
	l, ok := s.current[frame]
	return ok && s.earlierLocked(l)
}

// announcedLocked notes which document announced a request.
func (s *scopeEpochs) announcedLocked(k loadKey, l proto.NetworkLoaderID) {
	if l == "" {
		return
	}
	if s.byReq == nil || len(s.byReq) >= epochLimit {
		s.byReq = map[loadKey]proto.NetworkLoaderID{}
	}
	s.byReq[k] = l
}

// pausedLocked reports whether a paused request is an earlier scope's:
// the document that announced it, or when its announcement has not
// arrived, the frame's document, last committed before the current scope
// was installed. It forgets the request.
func (s *scopeEpochs) pausedLocked(k loadKey, frame proto.PageFrameID) bool {
	l, ok := s.byReq[k]
	if !ok {
		return s.frameEarlierLocked(frame)
	}
	delete(s.byReq, k)
	return s.earlierLocked(l)
}

// endedLocked forgets a request that ended (a memory-cache hit is never
// paused).
func (s *scopeEpochs) endedLocked(k loadKey) { delete(s.byReq, k) }

// referrerEarlierLocked reports whether a request was sent by a document
// or resource outside the current scope, by its Referer: no document or
// resource of the current scope can be one (the scope blocks them, and a
// document brought back without a request is recorded when it commits),
// so it is an earlier scope's. A request without a Referer is not.
func (d *Driver) referrerEarlierLocked(ref string) bool {
	if ref == "" || d.origins == nil {
		return false
	}
	o, governed := originOf(ref)
	return governed && o != "null" && !d.origins.permits(o, false)
}

// headerValue is the value of header name (any case) in h.
func headerValue(h proto.NetworkHeaders, name string) string {
	for k, v := range h {
		if strings.EqualFold(k, name) {
			return v.Str()
		}
	}
	return ""
}

// staleBlockedCount is how many requests of earlier scopes' documents were
// blocked without a violation (tests).
func (d *Driver) staleBlockedCount() uint64 {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.epochs.blocked
}

// commitViolationLocked records a document committed outside the scope
// without a request the interceptor could block: a back-forward cache
// restore brings a document back from memory, and a page on the next
// run's site that went back in history showed the previous run's
// origin, with nothing recorded by the driver (the runtime's check of
// the page's origin after each act is the next layer). A committed error page (a blocked
// navigation, recorded when it was blocked) and documents without a
// network origin (about:blank, srcdoc, data:) are not governed. It also
// stamps the document's generation (scopeEpochs.committedLocked).
func (d *Driver) commitViolationLocked(t *target, f *proto.PageFrame) {
	if d.epochs.committedLocked(f.ID, f.LoaderID) {
		// An earlier scope's navigation (committedLocked): sent while
		// that scope allowed it.
		return
	}
	if d.origins == nil || f.UnreachableURL != "" {
		return
	}
	origin, governed := originOf(f.URL)
	if !governed || d.origins.permits(origin, true) {
		return
	}
	v := runtime.Violation{Kind: runtime.ViolationFrame, Origin: origin}
	if f.ParentID == "" {
		switch t.kind {
		case kindPage:
			v.Kind = runtime.ViolationNavigation
		case kindPopup:
			v.Kind = runtime.ViolationPopup
		}
	}
	d.violations = append(d.violations, v)
	d.log.Info("document outside the scope committed", "kind", string(v.Kind), "origin", origin)
}
