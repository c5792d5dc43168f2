package provider

import (
	"context"
	"errors"
	"fmt"
	"sync"
)

// GateState is the current state of a host gate, as the host's own store
// (its Kernel) knows it.
type GateState struct {
	GateID   string     `json:"gate_id"`
	Revision int64      `json:"revision"`
	Status   GateStatus `json:"status"`
}

// GateSource answers the current state of a gate. [Run] asks it before
// the run and again at every consequential action, so a gate closed or
// revised during the run stops the run at that action.
type GateSource interface {
	GateState(ctx context.Context, gateID string) (GateState, error)
}

// GateSourceFunc adapts a function to [GateSource].
type GateSourceFunc func(ctx context.Context, gateID string) (GateState, error)

// GateState calls f.
func (f GateSourceFunc) GateState(ctx context.Context, gateID string) (GateState, error) {
	return f(ctx, gateID)
}

// ErrGateNotFound is returned by [Gates.GateState] for an unknown gate.
var ErrGateNotFound = errors.New("provider: gate not found")

// Gates is an in-memory [GateSource] for hosts and tests, safe for
// concurrent use. The zero value is empty and ready.
type Gates struct {
	mu    sync.Mutex
	gates map[string]GateState
}

// Set records a gate's state; a revision lower than the recorded one is
// refused (revisions only move forward).
func (g *Gates) Set(s GateState) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if s.GateID == "" || s.Revision < 1 || !s.Status.Valid() {
		return fmt.Errorf("%w: gate state %+v", ErrInvalidArgument, s)
	}
	if old, ok := g.gates[s.GateID]; ok && s.Revision < old.Revision {
		return fmt.Errorf("%w: gate %s revision %d is older than %d", ErrInvalidArgument, s.GateID, s.Revision, old.Revision)
	}
	if g.gates == nil {
		g.gates = make(map[string]GateState)
	}
	g.gates[s.GateID] = s
	return nil
}

// GateState returns the recorded state, or an error wrapping
// [ErrGateNotFound].
func (g *Gates) GateState(ctx context.Context, gateID string) (GateState, error) {
	if ctx == nil {
		return GateState{}, fmt.Errorf("%w: nil context", ErrInvalidArgument)
	}
	if err := ctx.Err(); err != nil {
		return GateState{}, err
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	s, ok := g.gates[gateID]
	if !ok {
		return GateState{}, fmt.Errorf("%w: %s", ErrGateNotFound, gateID)
	}
	return s, nil
}

// checkBindingAgainst compares a request's binding with the gate's current
// state: the binding must be at the current revision, and a gated effect
// class needs the gate open.
func checkBindingAgainst(b *GateBinding, cur GateState, class EffectClass, ps *problems) {
	const p = "gate_binding"
	switch {
	case cur.GateID != b.GateID:
		ps.add(p+".gate_id", CodeGateMismatch, "the gate source answered for another gate")
	case b.Revision < cur.Revision:
		ps.add(p+".revision", CodeGateStale, "revision %d is older than the gate's current revision %d", b.Revision, cur.Revision)
	case b.Revision > cur.Revision:
		ps.add(p+".revision", CodeGateMismatch, "revision %d is newer than the gate's current revision %d", b.Revision, cur.Revision)
	}
	if class.Gated() && (cur.Status != GateOpen || b.Status != GateOpen) {
		ps.add(p+".status", CodeGateNotOpen, "a request of class %s needs the gate open at its current revision; it is %s", class, cur.Status)
	}
}
