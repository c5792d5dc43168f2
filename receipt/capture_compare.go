package receipt

import (
	"fmt"
	"slices"
	"strings"
)

// Artifact kinds of step captures ([WithCaptures]); each is one section
// of a [CaptureStep].
const (
	// ArtifactScreenshot compares by the PNG's content digest; no rule
	// applies to it.
	ArtifactScreenshot ArtifactKind = "screenshot"
	// ArtifactDOM and ArtifactAccessibility compare by normalized text:
	// whitespace runs collapsed to one space and trimmed, then the rules.
	ArtifactDOM           ArtifactKind = "dom"
	ArtifactAccessibility ArtifactKind = "accessibility"
	// ArtifactURL, ArtifactHistory and ArtifactStorage compare by their
	// text after the rules.
	ArtifactURL     ArtifactKind = "url"
	ArtifactHistory ArtifactKind = "history"
	ArtifactStorage ArtifactKind = "storage"
	// ArtifactEvents compares a step's kept events in order, without
	// their seq members, after the rules, and their omitted count.
	ArtifactEvents ArtifactKind = "events"
)

var captureKinds = []ArtifactKind{ArtifactScreenshot, ArtifactDOM, ArtifactAccessibility, ArtifactURL,
	ArtifactHistory, ArtifactStorage, ArtifactEvents}

// CaptureIgnored are the capture members the built-in normalization
// ignores: the time and position of a step and of each event.
var CaptureIgnored = []string{"elapsed_ms", "index", "seq"}

// CaptureNormalization is the built-in capture normalization a comparison
// commits to ([Policy.Capture]).
type CaptureNormalization struct {
	// Ignored are [CaptureIgnored].
	Ignored []string `json:"ignored"`
	// Screenshot is "content_sha256": screenshots compare by digest.
	Screenshot string `json:"screenshot"`
	// Text is "collapse_whitespace": DOM and accessibility text has its
	// whitespace runs collapsed before the rules.
	Text string `json:"text"`
}

// WithCaptures adds the runs' step captures (capture.json, from
// [RunFiles.Capture] or [LoadCapture]) to the comparison: a is run a's
// capture and b run b's; either may be nil for a run without one, which
// is an alignment failure (capture_missing). Each aligned step then also
// compares its screenshot, DOM, accessibility, URL, history, storage and
// events, and the initial states compare as artifacts named "initial". A
// capture whose run id is not its receipt's is refused with [ErrCompare].
func WithCaptures(a, b *Capture) CompareOption {
	return func(c *compareConfig) { c.captures, c.capA, c.capB = true, a, b }
}

// checkCaptureConfig checks WithCaptures' documents against the receipts
// and commits the policy to the capture normalization.
func checkCaptureConfig(cfg *compareConfig, a, b *Receipt, pol *Policy) error {
	if !cfg.captures {
		return nil
	}
	if cfg.capA == nil && cfg.capB == nil {
		return fmt.Errorf("%w: WithCaptures without a capture", ErrCompare)
	}
	if cfg.capA != nil && cfg.capA.RunID != a.RunID {
		return fmt.Errorf("%w: capture a belongs to another run than receipt a", ErrCompare)
	}
	if cfg.capB != nil && cfg.capB.RunID != b.RunID {
		return fmt.Errorf("%w: capture b belongs to another run than receipt b", ErrCompare)
	}
	for i, r := range pol.Rules {
		if r.Kind == ArtifactScreenshot {
			return fmt.Errorf("%w: rule %d: screenshots compare by digest, no rule applies to them", ErrCompare, i)
		}
	}
	pol.Capture = &CaptureNormalization{Ignored: slices.Clone(CaptureIgnored), Screenshot: "content_sha256", Text: "collapse_whitespace"}
	return nil
}

// captureCmp holds the two captures' steps by key.
type captureCmp struct {
	a, b       *Capture
	idxA, idxB map[stepKey]*CaptureStep
	dupA, dupB map[stepKey]bool
}

func indexCapture(c *Capture) (map[stepKey]*CaptureStep, map[stepKey]bool) {
	idx, dup := map[stepKey]*CaptureStep{}, map[stepKey]bool{}
	if c == nil {
		return idx, dup
	}
	for i := range c.Steps {
		k := stepKey{c.Steps[i].ActionID, c.Steps[i].Visit}
		if _, ok := idx[k]; ok {
			dup[k] = true
		}
		idx[k] = &c.Steps[i]
	}
	return idx, dup
}

func (c *comparer) setCaptures(cfg *compareConfig) {
	if !cfg.captures {
		return
	}
	cc := &captureCmp{a: cfg.capA, b: cfg.capB}
	cc.idxA, cc.dupA = indexCapture(cfg.capA)
	cc.idxB, cc.dupB = indexCapture(cfg.capB)
	c.capture = cc
}

// captureRun compares the capture contexts and the initial states.
func (c *comparer) captureRun(cfg *compareConfig) {
	cc := c.capture
	if cc == nil {
		return
	}
	none := stepKey{}
	switch {
	case cc.a == nil:
		c.align(AlignCaptureMissing, none, "a", "run a has no capture")
		return
	case cc.b == nil:
		c.align(AlignCaptureMissing, none, "b", "run b has no capture")
		return
	}
	x, y := cc.a.Context, cc.b.Context
	if x.Browser != y.Browser || x.Mode != y.Mode || x.Viewport != y.Viewport || !slices.Equal(x.Origins, y.Origins) {
		c.align(AlignCaptureContext, none, "", "the captures were taken in different browser, mode, viewport or origin contexts")
	}
	c.compareSteps(none, "initial", &cc.a.Initial, &cc.b.Initial)
}

// captureStep compares one aligned step's capture records.
func (c *comparer) captureStep(k stepKey) ChangeStatus {
	cc := c.capture
	if cc == nil {
		return StatusUnchanged
	}
	if cc.a == nil || cc.b == nil {
		return StatusUnknown // reported once by captureRun
	}
	x, okA := cc.idxA[k]
	y, okB := cc.idxB[k]
	// side names the capture at fault, "" for both (as for receipts).
	side := func(inA, inB bool) string {
		switch {
		case inA && inB:
			return ""
		case inA:
			return "a"
		}
		return "b"
	}
	switch {
	case cc.dupA[k] || cc.dupB[k]:
		c.align(AlignDuplicate, k, side(cc.dupA[k], cc.dupB[k]), "step %s visit %d has more than one capture record", short(k.id), k.visit)
		return StatusUnknown
	case !okA || !okB:
		s := side(!okA, !okB)
		where := "in " + s
		if s == "" {
			where = "in either capture"
		}
		c.align(AlignCaptureMissing, k, s, "step %s visit %d has no capture record %s", short(k.id), k.visit, where)
		return StatusUnknown
	}
	return c.compareSteps(k, "", x, y)
}

// compareSteps compares the sections and events of two capture records.
func (c *comparer) compareSteps(k stepKey, name string, x, y *CaptureStep) ChangeStatus {
	status := StatusUnchanged
	merge := func(s ChangeStatus) {
		switch {
		case s == StatusChanged:
			status = StatusChanged
		case s == StatusUnknown && status == StatusUnchanged:
			status = StatusUnknown
		}
	}
	kinds := map[string]ArtifactKind{"url": ArtifactURL, "screenshot": ArtifactScreenshot, "dom": ArtifactDOM,
		"accessibility": ArtifactAccessibility, "history": ArtifactHistory, "storage": ArtifactStorage}
	sy := y.Sections()
	for i, ns := range x.Sections() {
		kind := kinds[ns.Name]
		sx, s2 := ns.Section, sy[i].Section
		if sx.State == CaptureDisabled && s2.State == CaptureDisabled {
			continue // neither side captured it: nothing to compare
		}
		merge(c.record(kind, k, name, c.sectionState(kind, sx), c.sectionState(kind, s2)))
	}
	if x.Events.State != CaptureDisabled || y.Events.State != CaptureDisabled {
		merge(c.record(ArtifactEvents, k, name, c.eventsState(&x.Events), c.eventsState(&y.Events)))
	}
	return status
}

// presence maps a capture state to a comparison state.
func presence(s CaptureState) Presence {
	switch s {
	case CaptureCaptured:
		return StatePresent
	case CaptureTruncated:
		return StateTruncated
	case CaptureDisabled:
		return StateDisabled
	}
	return StateMissing
}

// sectionState normalizes and digests one side of a section.
func (c *comparer) sectionState(kind ArtifactKind, s *CaptureSection) ArtifactState {
	p := presence(s.State)
	if p != StatePresent && p != StateTruncated {
		return ArtifactState{State: p}
	}
	var st ArtifactState
	switch kind {
	case ArtifactScreenshot:
		st = ArtifactState{State: StatePresent, Digest: s.SHA256}
	case ArtifactDOM, ArtifactAccessibility:
		st = c.state(kind, strings.Join(strings.Fields(s.Content), " "), true)
	default:
		st = c.state(kind, s.Content, true)
	}
	if st.State == StatePresent {
		st.State = p
	}
	return st
}

// eventsState normalizes and digests one side of a step's events.
func (c *comparer) eventsState(e *CaptureEvents) ArtifactState {
	p := presence(e.State)
	if p != StatePresent && p != StateTruncated {
		return ArtifactState{State: p}
	}
	recs := make([]any, len(e.Records))
	for i, r := range e.Records {
		recs[i] = map[string]any{"kind": string(r.Kind), "level": r.Level, "method": r.Method, "url": r.URL, "text": r.Text, "length": r.Length}
	}
	st := c.state(ArtifactEvents, map[string]any{"records": recs, "omitted": e.Omitted}, true)
	if st.State == StatePresent {
		st.State = p
	}
	return st
}
