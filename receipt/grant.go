package receipt

import (
	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/origin"
	"github.com/vera-run/vera/runtime/grant"
)

// GrantRecord is a receipt's record of the grant that authorized the run
// (FORMAT section 15): the grant's commitment (the grant document with
// its executable path or endpoint replaced by their SHA-256, so no local
// path or private endpoint enters evidence) and its digest, the SHA-256
// of the commitment's canonical JSON.
type GrantRecord struct {
	Digest     string           `json:"digest"`
	Commitment grant.Commitment `json:"commitment"`
}

// checkGrant is the grant rule of a receipt on its own: a simulated run
// has none; a present record is a well-formed commitment whose digest
// recomputes, for the receipt's execution hash, in the mode of its
// execution mode, listing every origin the run reached. A live receipt
// without a grant is accepted in browser-run-receipt/v3 (FORMAT 15.4).
func checkGrant(r *Receipt, ps *problems) {
	g := r.Grant
	if g == nil {
		return
	}
	if r.ExecutionMode == ModeSimulated {
		ps.add(FileReceipt, ErrGrant, "a simulated run records no grant")
		return
	}
	if err := g.Commitment.Validate(); err != nil {
		ps.add(FileReceipt, ErrGrant, "grant.commitment is not a valid grant commitment")
		return
	}
	if d, err := g.Commitment.Digest(); err != nil || d != g.Digest {
		ps.add(FileReceipt, ErrGrant, "grant.digest is not the sha256 of the commitment's canonical JSON")
	}
	if g.Commitment.ExecutionHash != r.Capability.ExecutionHash {
		ps.add(FileReceipt, ErrGrant, "the grant is for another execution hash than the receipt's capability")
	}
	want := grant.ModeLaunch
	if r.ExecutionMode == ModeLiveConnected {
		want = grant.ModeConnect
	}
	if r.ExecutionMode != "" && g.Commitment.Mode != want {
		ps.add(FileReceipt, ErrGrant, "the grant's mode %s does not match the execution mode", g.Commitment.Mode)
	}
	granted := map[string]bool{}
	for _, o := range g.Commitment.Origins {
		granted[o] = true
	}
	for i, o := range r.Origins {
		if p, ok := origin.Of(o); !granted[o] && (!ok || !granted[p.HTTPEquivalent().String()]) {
			ps.add(FileReceipt, ErrGrant, "origins[%d] was reached but the grant does not list it", i)
		}
	}
}

// checkGrantCovers is the capability side of the grant rule: the grant
// lists every origin the capability allows.
func checkGrantCovers(r *Receipt, c *capability.Capability, ps *problems) {
	if r.Grant == nil {
		return
	}
	granted := map[string]bool{}
	for _, o := range r.Grant.Commitment.Origins {
		granted[o] = true
	}
	for i, s := range c.Site.AllowedOrigins {
		if n, err := origin.Normalize(s); err == nil && !granted[n] {
			ps.add(FileReceipt, ErrGrant, "the capability's site.allowed_origins[%d] is not in the grant", i)
		}
	}
}
