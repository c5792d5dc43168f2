package capability

import "github.com/vera-run/vera/internal/ident"

// Documented bounds enforced by [Capability.Validate]. Durations are in
// milliseconds, as in the document. A zero timeout or limit means "use the
// runtime default" and is always accepted.
const (
	// MinActionTimeoutMS and MaxActionTimeoutMS bound runtime.action_timeout_ms
	// and every action's timeout_ms (100 ms to 120 s).
	MinActionTimeoutMS = 100
	MaxActionTimeoutMS = 120_000
	// MinTransitionTimeoutMS and MaxTransitionTimeoutMS bound
	// runtime.transition_timeout_ms (100 ms to 120 s).
	MinTransitionTimeoutMS = 100
	MaxTransitionTimeoutMS = 120_000
	// MinRunTimeoutMS and MaxRunTimeoutMS bound runtime.run_timeout_ms
	// (1 s to 30 min).
	MinRunTimeoutMS = 1_000
	MaxRunTimeoutMS = 30 * 60 * 1000
	// MaxActionsCeiling bounds runtime.max_actions.
	MaxActionsCeiling = 10_000
	// MaxFrameSelectors bounds runtime.frame_selectors (the contract's five
	// nested iframes).
	MaxFrameSelectors = 5
	// MaxFrameSelectorLen bounds one frame selector, in bytes.
	MaxFrameSelectorLen = 300
	// MaxVisitsCeiling bounds a milestone's max_visits.
	MaxVisitsCeiling = 100
	// MaxRecordsCeiling bounds a list extraction's max_records.
	MaxRecordsCeiling = 1000
	// MaxOrigins bounds site.allowed_origins; MaxSubresourceOrigins bounds
	// site.subresource_origins.
	MaxOrigins            = 16
	MaxSubresourceOrigins = 32
	// MaxIDLen bounds ids (capability, milestone, action) and names (inputs,
	// outputs, fields, outcome codes, data classes), in bytes.
	MaxIDLen = ident.MaxLen
	// MaxNameLen bounds short human-readable strings (name, site name,
	// reviewer, model, run id), in runes.
	MaxNameLen = 200
	// MaxTextLen bounds intents and condition texts, in runes.
	MaxTextLen = 500
	// MaxDescriptionLen bounds goals, descriptions, native gaps and claims,
	// in runes.
	MaxDescriptionLen = 2000
	// MaxURLLen bounds runtime.start, navigate urls and condition values, in
	// bytes.
	MaxURLLen = 2048
	// MaxURLPatternLen bounds a business outcome's url_pattern, in bytes.
	MaxURLPatternLen = 500
	// MaxKeyLen bounds a press action's key, in bytes.
	MaxKeyLen = 32
	// MaxItems bounds inputs, outputs, output fields, extraction fields, enum
	// values, data classes and business outcomes (each list separately).
	MaxItems = 100
	// MaxTransitions bounds one milestone's transitions.
	MaxTransitions = 32
	// MaxAttributeLen bounds a field's attribute name, in bytes.
	MaxAttributeLen = 100
)
