package browser

import (
	"slices"

	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/browser/internal/netgate"
)

// gateScope is the network gate's copy of an installed origin scope.
func gateScope(s *originScope) *netgate.Scope {
	gs := &netgate.Scope{}
	for o := range s.allowed {
		gs.Allowed = append(gs.Allowed, o)
	}
	for o := range s.subresources {
		gs.Subresources = append(gs.Subresources, o)
	}
	slices.Sort(gs.Allowed)
	slices.Sort(gs.Subresources)
	return gs
}

// onRefusal records a connection the network gate refused as a
// violation: a navigation or frame when the browser marked the request as
// one (Sec-Fetch headers), else a subresource, tunnels included (a
// CONNECT says nothing about what it carries), unless a document outside
// the scope sent it (its Referer: an earlier scope's document, see
// scopeEpochs). Called from the gate's goroutines.
func (d *Driver) onRefusal(r netgate.Refusal) {
	kind := runtime.ViolationSubresource
	switch r.Kind {
	case netgate.KindNavigation:
		kind = runtime.ViolationNavigation
	case netgate.KindFrame:
		kind = runtime.ViolationFrame
	}
	d.mu.Lock()
	// Sent by a document or resource outside the scope: an earlier
	// scope's, or its backlog (scopeEpochs): refused, not the current
	// run's.
	earlier := d.referrerEarlierLocked(r.Referrer)
	switch {
	case d.closed:
	case earlier:
		d.epochs.blocked++
	default:
		d.violations = append(d.violations, runtime.Violation{Kind: kind, Origin: r.Origin})
	}
	d.mu.Unlock()
	d.log.Info("connection blocked", "kind", string(kind), "origin", r.Origin, "reason", string(r.Reason), "layer", "network", "earlier_scope", earlier)
}
