package runtime

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/redact"
	"github.com/vera-run/vera/locator"
)

// checkProposal enforces the recovery rules on a proposal before the run
// starts: an existing read-only or reversible action with a locator (or a
// field of its structured extraction), exactly one choice, a well-formed
// candidate that is semantic unless the target is a field, the
// resolved-root choice only for a field, bounded text, no redaction
// marker, templates only of declared inputs.
func checkProposal(c *capability.Capability, p *RecoveryProposal) error {
	bad := func(code, format string, a ...any) error {
		return &ProposalError{Code: code, Message: fmt.Sprintf(format, a...)}
	}
	a, _, _, ok := c.Action(p.Target.ActionID)
	if !ok {
		return bad(ProposalUnknownTarget, "no action %q", p.Target.ActionID)
	}
	if a.Effect != capability.EffectReadOnly && a.Effect != capability.EffectReversible {
		return bad(ProposalConsequential, "action %q is %s: only read-only and reversible actions are recovered", a.ID, a.Effect)
	}
	if !a.Operation.Interactive() && a.Operation != capability.OpExtract {
		return bad(ProposalNoLocator, "action %q (%s) has no locator to recover", a.ID, a.Operation)
	}
	var field *capability.Field
	if p.Target.Field != "" {
		if a.Operation != capability.OpExtract || a.Extract == nil || a.Extract.Mode == capability.ExtractText {
			return bad(ProposalUnknownTarget, "action %q has no structured extraction fields", a.ID)
		}
		for i := range a.Extract.Fields {
			if a.Extract.Fields[i].Name == p.Target.Field {
				field = &a.Extract.Fields[i]
			}
		}
		if field == nil {
			return bad(ProposalUnknownTarget, "action %q has no field %q", a.ID, p.Target.Field)
		}
	}
	if (p.Locator != nil) == p.UseResolvedActionRoot {
		return bad(ProposalChoice, "propose exactly one of a locator or use_resolved_action_root")
	}
	if p.UseResolvedActionRoot && field == nil {
		return bad(ProposalRootNotField, "use_resolved_action_root applies only to an extraction field")
	}
	if l := p.Locator; l != nil {
		if probs := l.Check(); len(probs) > 0 {
			return bad(ProposalBadLocator, "candidate breaks %s", probs[0].Code)
		}
		if l.Strategy == locator.CSS && field == nil {
			return bad(ProposalCSSNotField, "a CSS candidate is allowed only for an extraction field")
		}
		if strings.Contains(l.Value(), redact.Marker) {
			return bad(ProposalRedactedMarker, "the discovery redaction marker is never a literal locator")
		}
		names, ok := templateNames(l.Value())
		if !ok {
			return bad(ProposalBadLocator, "malformed template")
		}
		for _, n := range names {
			if _, ok := c.Input(n); !ok {
				return bad(ProposalBadLocator, "template refers to an undeclared input")
			}
		}
	}
	if utf8.RuneCountInString(p.Rationale) > MaxProposalText || utf8.RuneCountInString(p.Uncertainty) > MaxProposalText {
		return bad(ProposalTextTooLong, "rationale and uncertainty are at most %d characters", MaxProposalText)
	}
	return nil
}
