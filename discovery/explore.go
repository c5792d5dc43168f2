package discovery

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/redact"
	"github.com/vera-run/vera/locator"
)

// Explorer is the host model that proposes the next exploration step in
// the autonomous and hybrid modes. It sees only redacted snapshots. Next
// returns a step with Kind [StepDone] to end exploration; an error ends the
// session with [ErrExplorer].
type Explorer interface {
	Next(ctx context.Context, obs Observation) (Step, error)
}

// ExplorerFunc adapts a function to [Explorer].
type ExplorerFunc func(ctx context.Context, obs Observation) (Step, error)

// Next calls f.
func (f ExplorerFunc) Next(ctx context.Context, obs Observation) (Step, error) { return f(ctx, obs) }

// Observation is what an [Explorer] sees before proposing a step.
type Observation struct {
	// Mode is the session's mode.
	Mode Mode
	// Snapshot is the current redacted snapshot.
	Snapshot *Snapshot
	// Last is the last recorded observation (nil before any).
	Last *ObservationStep
	// Steps is the number of steps proposed so far; StepsLeft how many
	// more the session allows.
	Steps, StepsLeft int
	// Refusal is set when the previous proposal was refused.
	Refusal *Refusal
	// AllowedOrigins are the origins the explorer may act on.
	AllowedOrigins []string
}

// StepKind is the kind of an exploration step.
type StepKind string

// The step kinds.
const (
	// StepAct performs one action through the page's [Actor].
	StepAct StepKind = "act"
	// StepWait waits one interval and takes a snapshot.
	StepWait StepKind = "wait"
	// StepDone ends exploration.
	StepDone StepKind = "done"
)

// Step is an explorer's proposal.
type Step struct {
	Kind StepKind
	// Act is the action of a StepAct.
	Act ActKind
	// Effect is the explorer's classification of the action. Only
	// read_only and reversible steps are ever executed.
	Effect capability.Effect
	// Frame is the frame path of the target control.
	Frame []string
	// Locator is a semantic candidate that must match exactly one
	// observed, visible, enabled control of the current snapshot.
	Locator locator.Candidate
	// Value is the text to fill or the option to select. It is never
	// recorded; it must not be identifier- or secret-shaped.
	Value string
	// Intent says why, for the reviewer (recorded redacted).
	Intent string
}

// StepRecord is a step as the evidence records it: locator and intent
// redacted, the value never.
type StepRecord struct {
	Kind    StepKind           `json:"kind"`
	Act     ActKind            `json:"act,omitempty"`
	Effect  capability.Effect  `json:"effect,omitempty"`
	Frame   []string           `json:"frame,omitempty"`
	Locator *locator.Candidate `json:"locator,omitempty"`
	Intent  string             `json:"intent,omitempty"`
	// ValueSupplied reports that the step carried a value (not recorded).
	ValueSupplied bool `json:"value_supplied,omitempty"`
}

// Refusal is the record of a step discovery did not execute.
type Refusal struct {
	// After is the id of the last observation before the proposal ("" if
	// none).
	After string `json:"after,omitempty"`
	// Reason is a stable code (the Reason constants).
	Reason RefusalReason `json:"reason"`
	// Detail explains the refusal without page text beyond redacted names.
	Detail string     `json:"detail"`
	Step   StepRecord `json:"step"`
}

// RefusalReason is the stable code of a [Refusal].
type RefusalReason string

// The refusal reasons.
const (
	ReasonUnknownStep          RefusalReason = "unknown_step"
	ReasonUnsupportedAct       RefusalReason = "unsupported_act"
	ReasonUnknownEffect        RefusalReason = "unknown_effect"
	ReasonConsequential        RefusalReason = "consequential_effect"
	ReasonConsequentialControl RefusalReason = "consequential_control"
	ReasonLocator              RefusalReason = "invalid_locator"
	ReasonNotSemantic          RefusalReason = "non_semantic_locator"
	ReasonFrame                RefusalReason = "frame_not_observed"
	ReasonOrigin               RefusalReason = "origin_not_allowed"
	ReasonNotObserved          RefusalReason = "control_not_observed"
	ReasonAmbiguous            RefusalReason = "control_ambiguous"
	ReasonNotInteractable      RefusalReason = "control_not_interactable"
	ReasonValue                RefusalReason = "value_not_allowed"
	ReasonNoActor              RefusalReason = "page_cannot_act"
	ReasonActFailed            RefusalReason = "act_failed"
)

// RefusalReasons returns every refusal reason.
func RefusalReasons() []RefusalReason {
	return []RefusalReason{ReasonUnknownStep, ReasonUnsupportedAct, ReasonUnknownEffect, ReasonConsequential,
		ReasonConsequentialControl, ReasonLocator, ReasonNotSemantic, ReasonFrame, ReasonOrigin,
		ReasonNotObserved, ReasonAmbiguous, ReasonNotInteractable, ReasonValue, ReasonNoActor, ReasonActFailed}
}

// RefusalError is the typed error of a refused step. It wraps [ErrRefused].
type RefusalError struct {
	Refusal Refusal
}

// Error names the refusal reason and its detail.
func (e *RefusalError) Error() string {
	return "discovery: step refused: " + string(e.Refusal.Reason) + ": " + e.Refusal.Detail
}

// Unwrap returns [ErrRefused].
func (e *RefusalError) Unwrap() error { return ErrRefused }

// Policy is what [CheckStep] enforces.
type Policy struct {
	// AllowedOrigins are the origins every document on the way to the
	// target must have. Empty refuses every action.
	AllowedOrigins []string
	// ConsequentialWords refuse a control whose name, label or placeholder
	// (or the locator) holds one of them as a whole word; nil means
	// [DefaultConsequentialWords].
	ConsequentialWords []string
	// MaxStringLen bounds recorded strings (0 means the default).
	MaxStringLen int
}

// Roles each action may target.
var actRoles = map[ActKind][]string{
	ActClick:   {"button", "checkbox", "combobox", "link", "menuitem", "menuitemcheckbox", "menuitemradio", "radio", "switch", "tab"},
	ActFill:    {"combobox", "searchbox", "spinbutton", "textbox"},
	ActSelect:  {"combobox", "listbox"},
	ActCheck:   {"checkbox", "menuitemcheckbox", "radio", "switch"},
	ActUncheck: {"checkbox", "menuitemcheckbox", "switch"},
}

// maxStepValue bounds a fill or select value, in runes.
const maxStepValue = 200

// CheckStep applies the exploration policy to a proposed step against the
// current snapshot. It returns nil when the step may run (wait and done
// steps always may) and a *[RefusalError] otherwise. The checks, in order:
// a known kind and action; an effect of read_only or reversible (never
// consequential, never unknown); an in-scope page on an allowed origin; a
// valid semantic locator without the redaction marker; an observed frame
// path whose every origin is allowed; exactly one observed control in that
// frame matching the locator, visible, enabled and of a role the action
// applies to; no consequential word in the control or the locator; and a
// fill or select value that is present, bounded and neither identifier- nor
// secret-shaped (other actions carry none).
func CheckStep(snap *Snapshot, step Step, p Policy) error {
	rec := stepRecord(step, p.MaxStringLen)
	refuse := func(reason RefusalReason, format string, args ...any) error {
		return &RefusalError{Refusal: Refusal{Reason: reason, Detail: fmt.Sprintf(format, args...), Step: rec}}
	}
	switch step.Kind {
	case StepWait, StepDone:
		return nil
	case StepAct:
	default:
		return refuse(ReasonUnknownStep, "unknown step kind %q", clip(string(step.Kind)))
	}
	if !step.Act.Valid() {
		return refuse(ReasonUnsupportedAct, "exploration performs only click, fill, select, check and uncheck")
	}
	switch step.Effect {
	case capability.EffectReadOnly, capability.EffectReversible:
	case capability.EffectConsequential:
		return refuse(ReasonConsequential, "consequential steps are the operator's, never the explorer's")
	default:
		return refuse(ReasonUnknownEffect, "a step declares read_only or reversible")
	}
	allowed := map[string]bool{}
	for _, o := range p.AllowedOrigins {
		allowed[o] = true
	}
	if snap == nil || snap.OutOfScope || !allowed[snap.Origin] {
		return refuse(ReasonOrigin, "the page is not on an allowed origin")
	}
	c := step.Locator
	if !c.Strategy.Valid() {
		return refuse(ReasonLocator, "unknown locator strategy")
	}
	if !c.Strategy.Semantic() {
		return refuse(ReasonNotSemantic, "exploration acts only through semantic locators")
	}
	if probs := c.Check(); len(probs) > 0 {
		return refuse(ReasonLocator, "the locator breaks rule %s", probs[0].Code)
	}
	for _, v := range []string{c.Role, c.Name, c.Label, c.Placeholder, c.TestID, c.Text} {
		if strings.Contains(v, Marker) || strings.Contains(v, "{{") {
			return refuse(ReasonLocator, "the redaction marker and templates are never locator values")
		}
	}
	if len(step.Frame) > capability.MaxFrameSelectors {
		return refuse(ReasonFrame, "at most %d frame selectors", capability.MaxFrameSelectors)
	}
	var frame *FrameRecord
	for i := range snap.Frames {
		if slices.Equal(snap.Frames[i].Path, step.Frame) || (len(step.Frame) == 0 && len(snap.Frames[i].Path) == 0) {
			frame = &snap.Frames[i]
			break
		}
	}
	if frame == nil {
		return refuse(ReasonFrame, "the frame path was not observed in the current snapshot")
	}
	for _, o := range frame.Origins {
		if !allowed[o] {
			return refuse(ReasonOrigin, "a document on the frame path is not on an allowed origin")
		}
	}
	var match *Control
	n := 0
	for i := range snap.Controls {
		ctl := &snap.Controls[i]
		if slices.Equal(ctl.Frame, step.Frame) && ctl.Matches(c) {
			n++
			match = ctl
		}
	}
	switch {
	case n == 0:
		return refuse(ReasonNotObserved, "no observed control matches the locator")
	case n > 1:
		return refuse(ReasonAmbiguous, "%d observed controls match the locator", n)
	}
	if !match.State.Visible || match.State.Disabled {
		return refuse(ReasonNotInteractable, "the control is hidden or disabled")
	}
	if !slices.Contains(actRoles[step.Act], match.Role) {
		return refuse(ReasonUnsupportedAct, "%s does not apply to a %s", step.Act, match.Role)
	}
	words := p.ConsequentialWords
	if words == nil {
		words = DefaultConsequentialWords
	}
	for _, text := range []string{match.Name, match.Label, match.Placeholder, c.Name, c.Label, c.Placeholder, c.Text, c.TestID} {
		for _, w := range wordsOf(text) {
			if slices.Contains(words, w) {
				return refuse(ReasonConsequentialControl, "the control reads %q, which exploration never acts on", w)
			}
		}
	}
	switch step.Act {
	case ActFill, ActSelect:
		_, secret := redact.FindSecret(step.Value)
		if strings.TrimSpace(step.Value) == "" || utf8.RuneCountInString(step.Value) > maxStepValue ||
			!utf8.ValidString(step.Value) || secret || redact.ContainsIdentifier(step.Value) ||
			strings.Contains(step.Value, Marker) {
			return refuse(ReasonValue, "a value is non-blank, at most %d runes, and neither identifier- nor secret-shaped", maxStepValue)
		}
	default:
		if step.Value != "" {
			return refuse(ReasonValue, "%s carries no value", step.Act)
		}
	}
	return nil
}

// wordsOf splits text into lower-case words, also splitting test-id style
// separators.
func wordsOf(s string) []string { return words(s) }

// clip bounds a string echoed in a refusal detail.
func clip(s string) string {
	s = RedactText(s, 40, nil)
	return s
}

// stepRecord is the recorded form of a step.
func stepRecord(s Step, maxLen int) StepRecord {
	var counts RedactionCounts
	red := func(v string) string { return RedactText(v, maxLen, &counts) }
	r := StepRecord{
		Kind:          StepKind(clip(string(s.Kind))),
		Act:           ActKind(clip(string(s.Act))),
		Effect:        capability.Effect(clip(string(s.Effect))),
		Intent:        red(s.Intent),
		ValueSupplied: s.Value != "",
	}
	for _, f := range s.Frame {
		r.Frame = append(r.Frame, red(f))
	}
	if s.Kind == StepAct {
		c := s.Locator
		c.Strategy = locator.Strategy(clip(string(c.Strategy)))
		c.Role, c.Name, c.Label = red(c.Role), red(c.Name), red(c.Label)
		c.Placeholder, c.Text, c.CSS, c.Note = red(c.Placeholder), red(c.Text), red(c.CSS), red(c.Note)
		if c.TestID != "" && (redact.ContainsIdentifier(c.TestID) || c.TestID != red(c.TestID)) {
			c.TestID = Marker
		}
		r.Locator = &c
	}
	return r
}
