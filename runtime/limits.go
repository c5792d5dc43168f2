package runtime

import (
	"time"

	"github.com/vera-run/vera/capability"
)

// Version is the library version recorded in every receipt's environment.
const Version = "0.1.0"

// Timeouts, limits and their ceilings. A capability value of zero selects
// the default; values above the ceiling are clamped to it.
const (
	// DefaultActionTimeout bounds each wait of an action (resolving its
	// element, its postcondition, its download) unless the action or
	// runtime.action_timeout_ms says otherwise.
	DefaultActionTimeout = 10 * time.Second
	// MaxActionTimeout is the ceiling of any action timeout (the
	// capability's documented maximum).
	MaxActionTimeout = capability.MaxActionTimeoutMS * time.Millisecond
	// DefaultTransitionTimeout bounds the wait for a milestone's
	// transitions.
	DefaultTransitionTimeout = 10 * time.Second
	// MaxTransitionTimeout is the ceiling of runtime.transition_timeout_ms.
	MaxTransitionTimeout = capability.MaxTransitionTimeoutMS * time.Millisecond
	// DefaultRunTimeout bounds a whole run (approvals and handoffs
	// included).
	DefaultRunTimeout = 10 * time.Minute
	// MaxRunTimeout is the ceiling of runtime.run_timeout_ms.
	MaxRunTimeout = capability.MaxRunTimeoutMS * time.Millisecond
	// DefaultMaxActions bounds the actions executed in one run, loops
	// included.
	DefaultMaxActions = 500
	// MaxActionsCeiling is the ceiling of runtime.max_actions.
	MaxActionsCeiling = capability.MaxActionsCeiling
	// MaxRecords is the ceiling of any extraction's max_records.
	MaxRecords = capability.MaxRecordsCeiling
	// MaxFrameDepth is the most nested frames a frame path may select.
	MaxFrameDepth = capability.MaxFrameSelectors
	// MaxProposalText bounds a recovery proposal's rationale and
	// uncertainty, in runes.
	MaxProposalText = 1000
	// DefaultPollInterval is how often waits re-check their condition.
	DefaultPollInterval = 25 * time.Millisecond
	// MinPollInterval and MaxPollInterval bound WithPollInterval. Waits
	// observe cancellation within MaxPollInterval plus one driver call.
	MinPollInterval = time.Millisecond
	MaxPollInterval = 50 * time.Millisecond
)

// Limits are the runtime's bounds as data, for reports.
type Limits struct {
	DefaultActionTimeout     time.Duration `json:"default_action_timeout"`
	MaxActionTimeout         time.Duration `json:"max_action_timeout"`
	DefaultTransitionTimeout time.Duration `json:"default_transition_timeout"`
	MaxTransitionTimeout     time.Duration `json:"max_transition_timeout"`
	DefaultRunTimeout        time.Duration `json:"default_run_timeout"`
	MaxRunTimeout            time.Duration `json:"max_run_timeout"`
	DefaultMaxActions        int           `json:"default_max_actions"`
	MaxActions               int           `json:"max_actions"`
	MaxRecords               int           `json:"max_records"`
	MaxFrameDepth            int           `json:"max_frame_depth"`
	PollInterval             time.Duration `json:"poll_interval"`
}

// DefaultLimits returns the constants above as a [Limits] value.
func DefaultLimits() Limits {
	return Limits{
		DefaultActionTimeout:     DefaultActionTimeout,
		MaxActionTimeout:         MaxActionTimeout,
		DefaultTransitionTimeout: DefaultTransitionTimeout,
		MaxTransitionTimeout:     MaxTransitionTimeout,
		DefaultRunTimeout:        DefaultRunTimeout,
		MaxRunTimeout:            MaxRunTimeout,
		DefaultMaxActions:        DefaultMaxActions,
		MaxActions:               MaxActionsCeiling,
		MaxRecords:               MaxRecords,
		MaxFrameDepth:            MaxFrameDepth,
		PollInterval:             DefaultPollInterval,
	}
}

// ms converts a capability millisecond value to a duration: zero or less
// selects def, anything above ceil is clamped.
func ms(v int, def, ceil time.Duration) time.Duration {
	if v <= 0 {
		return def
	}
	return min(time.Duration(v)*time.Millisecond, ceil)
}
