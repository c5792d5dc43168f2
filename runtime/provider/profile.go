package provider

import (
	"context"

	"github.com/vera-run/vera/runtime"
)

// NewProfile runs runtime.Preflight with open and derives Vera's
// computer_use_runtime_profile_v0 from the report: a readiness fact only.
// It grants nothing, copies nothing and names no account. External writes
// and private-source reads are always "gated" and every boundary flag is
// false. The profile and the report are returned even when the preflight
// fails (then runtime.ready is false with the failure's codes, and the
// error is Preflight's).
func NewProfile(ctx context.Context, open func(ctx context.Context) (runtime.Driver, error)) (*Profile, *runtime.PreflightReport, error) {
	rep, err := runtime.Preflight(ctx, open)
	return profileFrom(rep, err == nil), rep, err
}

// profileFrom maps a preflight report onto the profile.
func profileFrom(rep *runtime.PreflightReport, ready bool) *Profile {
	p := &Profile{
		SchemaVersion: SchemaProfile,
		ProviderID:    ProviderID,
		HostKind:      "browser_runtime",
		Visibility:    "visible_or_replayable",
		Primitives: Primitives{
			// Vera takes no screenshots: the screen is the host's.
			Screenshots:       SupportHostOwned,
			AccessibilityTree: SupportAvailable,
			BrowserSession:    SupportAvailable,
			RecordReplay:      SupportAvailable,
			ExternalWrite:     SupportGated,
			PrivateSourceRead: SupportGated,
		},
	}
	if rep == nil {
		p.Runtime.Library = "vera/" + runtime.Version
		p.Primitives.BrowserSession = SupportUnavailable
		return p
	}
	p.Runtime = RuntimeFacts{
		Library:         rep.Library,
		ExecutionMode:   string(rep.Mode),
		Browser:         rep.Browser,
		ProtocolVersion: rep.ProtocolVersion,
		Ready:           ready,
	}
	if f := rep.Failure; f != nil {
		p.Runtime.Ready = false
		p.Runtime.FailureCategory, p.Runtime.FailureReason = string(f.Category), f.Reason
	}
	switch rep.Mode {
	case runtime.ModeLiveConnected:
		// The operator's own Chrome: the session is the host's.
		p.Primitives.BrowserSession = SupportHostOwned
	case runtime.ModeSimulated:
		// Fixtures replay; nobody watches a window.
		p.Visibility = "replayable"
	case runtime.ModeLiveLaunched:
	default:
		p.Primitives.BrowserSession = SupportUnavailable
	}
	if !p.Runtime.Ready {
		p.Primitives.BrowserSession = SupportUnavailable
	}
	return p
}
