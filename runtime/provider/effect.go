package provider

import (
	"slices"

	"github.com/vera-run/vera/capability"
)

// EffectClass is what a bounded action request may do to the world. The
// set is closed; see [EffectClasses] and FORMAT.md section "Computer-use
// provider boundary".
type EffectClass string

// The effect classes, from the least to the most severe.
const (
	// EffectRead observes only: navigation, reading, typing search terms
	// that change nothing.
	EffectRead EffectClass = "read"
	// EffectDraft prepares a reversible change (a saved draft, an opened
	// dialog) and stops before any external action.
	EffectDraft EffectClass = "draft"
	// EffectExternalWrite performs an external action (send, publish,
	// submit, purchase, delete). It needs an open gate at the current
	// revision.
	EffectExternalWrite EffectClass = "external_write"
	// EffectCredentialUse types a secret (a password) into the page. It
	// needs an open gate at the current revision and covers every other
	// class.
	EffectCredentialUse EffectClass = "credential_use"
)

// EffectClasses lists the effect classes in order of severity.
func EffectClasses() []EffectClass {
	return []EffectClass{EffectRead, EffectDraft, EffectExternalWrite, EffectCredentialUse}
}

// Rank orders the classes by severity (read 0 ... credential_use 3); -1
// for a value outside the set.
func (e EffectClass) Rank() int { return slices.Index(EffectClasses(), e) }

// Valid reports whether e is in the closed set.
func (e EffectClass) Valid() bool { return e.Rank() >= 0 }

// Covers reports whether a request of class e may run an action of class
// a: a class covers itself and every less severe class.
func (e EffectClass) Covers(a EffectClass) bool {
	return e.Valid() && a.Valid() && a.Rank() <= e.Rank()
}

// Gated reports whether a request of class e needs an open gate binding
// at the current revision (external_write and credential_use).
func (e EffectClass) Gated() bool {
	return e == EffectExternalWrite || e == EffectCredentialUse
}

// ClassOfEffect maps a capability effect onto an effect class; it is the
// one table (FORMAT.md) both action effects and authority.max_effect go
// through:
//
//	read_only     -> read
//	reversible    -> draft
//	consequential -> external_write
//
// An unknown effect maps to "" (no class covers it).
func ClassOfEffect(e capability.Effect) EffectClass {
	switch e {
	case capability.EffectReadOnly:
		return EffectRead
	case capability.EffectReversible:
		return EffectDraft
	case capability.EffectConsequential:
		return EffectExternalWrite
	}
	return ""
}

// ClassOfAction is the effect class of one action of c: credential_use
// when it fills a secret input (whatever its declared effect), else
// [ClassOfEffect] of its effect.
func ClassOfAction(c *capability.Capability, a *capability.Action) EffectClass {
	if a.Input != "" {
		for _, in := range c.Inputs {
			if in.Name == a.Input && in.Secret {
				return EffectCredentialUse
			}
		}
	}
	return ClassOfEffect(a.Effect)
}
