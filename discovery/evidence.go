package discovery

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/vera-run/vera/internal/timestamp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/canonjson"
	"github.com/vera-run/vera/internal/redact"
)

// EvidenceSchema is the schema of the observation evidence document.
const EvidenceSchema = "browser-discovery-evidence/v1"

// ObservationKind says what produced an observation.
type ObservationKind string

// The observation kinds.
const (
	// KindBaseline is the first observation: the full control list.
	KindBaseline ObservationKind = "baseline"
	// KindChange is a change seen while polling the operator's
	// demonstration.
	KindChange ObservationKind = "change"
	// KindExplore is the state after an exploration step (recorded even
	// when nothing changed).
	KindExplore ObservationKind = "explore"
)

// EndReason is why a discovery session ended ([Evidence.EndReason]).
type EndReason string

// The end reasons of a session.
const (
	EndStopped        EndReason = "stopped"              // the operator's stop channel closed
	EndMaxSnapshots   EndReason = "max_snapshots"        // the guided snapshot budget was spent
	EndMaxDuration    EndReason = "max_duration"         // the session bound elapsed
	EndMaxEvidence    EndReason = "max_evidence_bytes"   // the next observation would exceed the size bound
	EndExplorerDone   EndReason = "explorer_done"        // the explorer returned StepDone
	EndMaxSteps       EndReason = "max_steps"            // the step budget was spent
	EndMaxRefusals    EndReason = "max_refusals"         // too many refused steps
	EndLeftOrigins    EndReason = "left_allowed_origins" // an exploration step left the allowed origins
	EndCanceled       EndReason = "canceled"             // ctx ended
	EndSnapshotFailed EndReason = "snapshot_failed"      // too many snapshot failures in a row
	EndExplorerFailed EndReason = "explorer_failed"      // the explorer returned an error
)

// EndReasons returns every end reason.
func EndReasons() []EndReason {
	return []EndReason{EndStopped, EndMaxSnapshots, EndMaxDuration, EndMaxEvidence, EndExplorerDone,
		EndMaxSteps, EndMaxRefusals, EndLeftOrigins, EndCanceled, EndSnapshotFailed, EndExplorerFailed}
}

// Evidence is a browser-discovery-evidence/v1 document: the bounded,
// redacted observations of one discovery session.
type Evidence struct {
	Schema string `json:"schema"`
	// RunID names the session (lowercase letters and hyphens).
	RunID string `json:"run_id"`
	Mode  Mode   `json:"mode"`
	// StartedAt and EndedAt are RFC 3339 timestamps.
	StartedAt string `json:"started_at"`
	EndedAt   string `json:"ended_at"`
	// EndReason is one of the End constants.
	EndReason EndReason      `json:"end_reason"`
	Limits    EvidenceLimits `json:"limits"`
	Site      EvidenceSite   `json:"site"`
	// Snapshots counts snapshots taken; SnapshotErrors those that failed.
	Snapshots      int `json:"snapshots"`
	SnapshotErrors int `json:"snapshot_errors"`
	// Steps counts exploration steps proposed (executed, waited or
	// refused).
	Steps        int               `json:"steps"`
	Observations []ObservationStep `json:"observations"`
	Refusals     []Refusal         `json:"refusals"`
	Redactions   RedactionCounts   `json:"redactions"`
}

// EvidenceLimits records the bounds the session ran with.
type EvidenceLimits struct {
	MinIntervalMS    int64 `json:"min_interval_ms"`
	MaxSnapshots     int   `json:"max_snapshots"`
	MaxControls      int   `json:"max_controls"`
	MaxStringLen     int   `json:"max_string_len"`
	MaxFrames        int   `json:"max_frames"`
	MaxSteps         int   `json:"max_steps"`
	MaxEvidenceBytes int   `json:"max_evidence_bytes"`
}

// EvidenceSite records the origins of the session.
type EvidenceSite struct {
	// Origins is every origin recorded in an observation, sorted.
	Origins []string `json:"origins"`
	// AllowedOrigins are the origins the session was restricted to, sorted
	// (empty: unrestricted guided observation).
	AllowedOrigins []string `json:"allowed_origins,omitempty"`
}

// ObservationStep is one recorded observation: the baseline control list,
// or the before/after states around one change.
type ObservationStep struct {
	// ID is "obs-<seq>".
	ID   string          `json:"id"`
	Seq  int             `json:"seq"`
	AtMS int64           `json:"at_ms"`
	Kind ObservationKind `json:"kind"`
	// Origin and URLPath locate the top-level page after the change.
	Origin  string `json:"origin,omitempty"`
	URLPath string `json:"url_path,omitempty"`
	// PathChanged reports that the origin, path or scope changed; then
	// PrevURLPath is the path before.
	PathChanged bool   `json:"path_changed,omitempty"`
	PrevURLPath string `json:"prev_url_path,omitempty"`
	OutOfScope  bool   `json:"out_of_scope,omitempty"`
	// Frames is the frame list: always in the baseline, afterwards only
	// when it changed.
	Frames []FrameRecord `json:"frames,omitempty"`
	// Controls is the full control list (baseline only).
	Controls []Control `json:"controls,omitempty"`
	// Appeared, Disappeared and Changed are the changes since the previous
	// snapshot.
	Appeared    []Control       `json:"appeared,omitempty"`
	Disappeared []Control       `json:"disappeared,omitempty"`
	Changed     []ControlChange `json:"changed,omitempty"`
	// TotalControls is the number of controls the page reported.
	TotalControls int  `json:"total_controls"`
	Truncated     bool `json:"truncated,omitempty"`
	// Step is the exploration step that preceded an explore observation.
	Step *StepRecord `json:"step,omitempty"`
}

// Hash is the sha256 digest of the RFC 8785 canonical JSON of the whole
// document: what a discovery record's evidence_hash names.
func (e *Evidence) Hash() (string, error) { return canonjson.Digest(e) }

// Marshal encodes the document as indented JSON for storage and review.
func (e *Evidence) Marshal() ([]byte, error) { return marshalIndent(e) }

// Observation returns the observation with the given id.
func (e *Evidence) Observation(id string) (*ObservationStep, bool) {
	for i := range e.Observations {
		if e.Observations[i].ID == id {
			return &e.Observations[i], true
		}
	}
	return nil, false
}

// Replay calls yield for every observation in order with the full control
// list and frame list after it, reconstructed from the baseline and the
// changes. It stops when yield returns false. The control list holds the
// same controls, with the same per-reference order, as the snapshot it
// came from.
func (e *Evidence) Replay(yield func(o *ObservationStep, controls []Control, frames []FrameRecord) bool) {
	var controls []Control
	var frames []FrameRecord
	for i := range e.Observations {
		o := &e.Observations[i]
		if o.Kind == KindBaseline {
			controls = slices.Clone(o.Controls)
		} else {
			controls = applyDiff(controls, o.Appeared, o.Disappeared, o.Changed)
		}
		switch {
		case o.OutOfScope:
			frames = nil
		case len(o.Frames) > 0:
			frames = o.Frames
		}
		if !yield(o, controls, frames) {
			return
		}
	}
}

// ControlsAt returns the controls present after the observation id.
func (e *Evidence) ControlsAt(id string) ([]Control, bool) {
	var out []Control
	found := false
	e.Replay(func(o *ObservationStep, cs []Control, _ []FrameRecord) bool {
		if o.ID == id {
			out, found = cs, true
			return false
		}
		return true
	})
	return out, found
}

// obsID formats an observation id.
func obsID(seq int) string { return "obs-" + strconv.Itoa(seq) }

// Validate checks every rule of browser-discovery-evidence/v1 and returns
// a *[ValidationError] listing every problem, or nil. Beyond the shape, it
// enforces the redaction invariant: no string holds an identifier-shaped
// substring or a secret.
func (e *Evidence) Validate() error {
	var ps problems
	e.validate(&ps)
	if raw, err := json.Marshal(e); err == nil {
		scanContent(raw, &ps)
	}
	return ps.err(EvidenceSchema)
}

func (e *Evidence) validate(ps *problems) {
	e.validateHeader(ps)
	e.validateLimits(ps)
	oc := e.originChecker(ps)
	e.validateCounts(ps)
	maxStr := max(e.Limits.MaxStringLen, 16)
	var prevAt int64
	for i := range e.Observations {
		o := &e.Observations[i]
		p := "observations[" + strconv.Itoa(i) + "]"
		if o.Seq != i+1 || o.ID != obsID(i+1) {
			ps.add(p+".id", CodeOrder, "observations are numbered obs-1, obs-2, ... in order")
		}
		if o.AtMS < prevAt {
			ps.add(p+".at_ms", CodeOrder, "observation times never decrease")
		}
		prevAt = o.AtMS
		validateObservationKind(ps, p, i, o)
		validateObservationPage(ps, p, o, oc)
		e.validateFrames(ps, p, o, oc)
		e.validateObservedControls(ps, p, o, maxStr)
		if o.Step != nil {
			validateStepRecord(ps, p+".step", o.Step, maxStr)
		}
	}
	e.validateRefusals(ps, maxStr)
	e.validateRedactions(ps)
}

// validateHeader checks the session's schema, id, mode, times and end.
func (e *Evidence) validateHeader(ps *problems) {
	if e.Schema != EvidenceSchema {
		ps.add("schema", CodeSchema, "want %q", EvidenceSchema)
	}
	if !validRunID(e.RunID) {
		ps.add("run_id", CodeFormat, "a run id is 8 to 64 lowercase letters and hyphens")
	}
	if !e.Mode.Valid() {
		ps.add("mode", CodeUnknown, "mode is guided, autonomous or hybrid")
	}
	start, okStart := parseTime(e.StartedAt)
	end, okEnd := parseTime(e.EndedAt)
	if !okStart {
		ps.add("started_at", CodeFormat, "an RFC 3339 timestamp")
	}
	if !okEnd {
		ps.add("ended_at", CodeFormat, "an RFC 3339 timestamp")
	}
	if okStart && okEnd && end.Before(start) {
		ps.add("ended_at", CodeOrder, "the session ends before it starts")
	}
	if !slices.Contains(EndReasons(), e.EndReason) {
		ps.add("end_reason", CodeUnknown, "unknown end reason")
	}
}

// validateLimits checks that every limit is inside its ceiling.
func (e *Evidence) validateLimits(ps *problems) {
	l := e.Limits
	rangeCheck := func(path string, v, lo, hi int) {
		if v < lo || v > hi {
			ps.add(path, CodeRange, "must be in [%d, %d]", lo, hi)
		}
	}
	if l.MinIntervalMS < MinIntervalFloor.Milliseconds() || l.MinIntervalMS > MaxDurationCeiling.Milliseconds() {
		ps.add("limits.min_interval_ms", CodeRange, "out of range")
	}
	rangeCheck("limits.max_snapshots", l.MaxSnapshots, 1, MaxSnapshotsCeiling)
	rangeCheck("limits.max_controls", l.MaxControls, 1, MaxControlsCeiling)
	rangeCheck("limits.max_string_len", l.MaxStringLen, 16, MaxStringLenCeiling)
	rangeCheck("limits.max_frames", l.MaxFrames, 1, MaxFramesCeiling)
	rangeCheck("limits.max_steps", l.MaxSteps, 1, MaxStepsCeiling)
	rangeCheck("limits.max_evidence_bytes", l.MaxEvidenceBytes, 4096, MaxEvidenceBytes)
}

// originChecker checks the site's origin lists and returns the check of
// one recorded origin against them.
func (e *Evidence) originChecker(ps *problems) func(path, o string) {
	originList(ps, "site.origins", e.Site.Origins, true)
	originList(ps, "site.allowed_origins", e.Site.AllowedOrigins, true)
	recorded := map[string]bool{}
	for _, o := range e.Site.Origins {
		recorded[o] = true
	}
	allowed := map[string]bool{}
	for _, o := range e.Site.AllowedOrigins {
		allowed[o] = true
	}
	return func(path, o string) {
		if !recorded[o] {
			ps.add(path, CodeReference, "origin not listed in site.origins")
		}
		if len(allowed) > 0 && !allowed[o] {
			ps.add(path, CodeOrigin, "origin outside site.allowed_origins")
		}
	}
}

// validateCounts checks the session's snapshot, error, step and
// observation counts against each other and the limits.
func (e *Evidence) validateCounts(ps *problems) {
	if e.Snapshots < 0 || e.Snapshots > MaxSnapshotsCeiling+MaxConsecutiveSnapshotErrors*(MaxStepsCeiling+1) {
		ps.add("snapshots", CodeRange, "out of range")
	}
	if e.SnapshotErrors < 0 || e.SnapshotErrors > e.Snapshots {
		ps.add("snapshot_errors", CodeRange, "between 0 and snapshots")
	}
	if e.Steps < 0 || e.Steps > e.Limits.MaxSteps {
		ps.add("steps", CodeRange, "between 0 and limits.max_steps")
	}
	if len(e.Observations) > max(e.Snapshots, 0) {
		ps.add("observations", CodeRange, "more observations than snapshots")
	}
}

// validateObservationKind checks observation i's kind against its place
// and what it lists.
func validateObservationKind(ps *problems, p string, i int, o *ObservationStep) {
	switch o.Kind {
	case KindBaseline:
		if i != 0 {
			ps.add(p+".kind", CodeOrder, "only the first observation is the baseline")
		}
		if len(o.Appeared)+len(o.Disappeared)+len(o.Changed) > 0 {
			ps.add(p, CodeFormat, "a baseline lists controls, not changes")
		}
	case KindChange, KindExplore:
		if i == 0 {
			ps.add(p+".kind", CodeOrder, "the first observation is the baseline")
		}
		if len(o.Controls) > 0 {
			ps.add(p+".controls", CodeFormat, "only the baseline lists every control")
		}
		if o.Kind == KindChange && o.Step != nil {
			ps.add(p+".step", CodeFormat, "only explore observations record a step")
		}
		if o.Kind == KindExplore && o.Step == nil {
			ps.add(p+".step", CodeRequired, "an explore observation records its step")
		}
	default:
		ps.add(p+".kind", CodeUnknown, "kind is baseline, change or explore")
	}
}

// validateObservationPage checks where an observation was taken: scope,
// origin and (redacted, query-free) paths.
func validateObservationPage(ps *problems, p string, o *ObservationStep, checkOrigin func(path, o string)) {
	if o.OutOfScope {
		if o.URLPath != "" || len(o.Frames)+len(o.Controls)+len(o.Appeared)+len(o.Changed) > 0 {
			ps.add(p, CodeFormat, "an out-of-scope observation records nothing of the page")
		}
	} else {
		if o.Origin == "" {
			ps.add(p+".origin", CodeRequired, "an in-scope observation names its origin")
		}
		if !validPath(o.URLPath) {
			ps.add(p+".url_path", CodeFormat, "a query-free path starting with /")
		} else if redact.ContainsPathIdentifier(o.URLPath) {
			ps.add(p+".url_path", CodeIdentifier, "a path segment is identifier-shaped")
		}
		if o.Kind == KindBaseline && len(o.Frames) == 0 {
			ps.add(p+".frames", CodeRequired, "the baseline lists its frames")
		}
	}
	if o.Origin != "" {
		checkOrigin(p+".origin", o.Origin)
	}
	if o.PrevURLPath != "" && (!o.PathChanged || !validPath(o.PrevURLPath)) {
		ps.add(p+".prev_url_path", CodeFormat, "set only with path_changed, a query-free path")
	} else if redact.ContainsPathIdentifier(o.PrevURLPath) {
		ps.add(p+".prev_url_path", CodeIdentifier, "a path segment is identifier-shaped")
	}
}

// validateFrames checks an observation's frame list.
func (e *Evidence) validateFrames(ps *problems, p string, o *ObservationStep, checkOrigin func(path, o string)) {
	if len(o.Frames) > max(e.Limits.MaxFrames, 1) {
		ps.add(p+".frames", CodeRange, "more frames than limits.max_frames")
	}
	for j, f := range o.Frames {
		fp := p + ".frames[" + strconv.Itoa(j) + "]"
		if j == 0 && len(f.Path) != 0 {
			ps.add(fp+".path", CodeOrder, "the first frame is the top-level document")
		}
		if len(f.Path) > capability.MaxFrameSelectors || len(f.Origins) != len(f.Path)+1 {
			ps.add(fp, CodeFormat, "at most %d selectors and one origin per document", capability.MaxFrameSelectors)
		}
		for k, sel := range f.Path {
			if !validSelector(sel) {
				ps.add(fp+".path["+strconv.Itoa(k)+"]", CodeFormat, "a non-blank selector of at most %d bytes", capability.MaxFrameSelectorLen)
			}
		}
		for k, og := range f.Origins {
			op := fp + ".origins[" + strconv.Itoa(k) + "]"
			if capability.CheckOrigin(og) != nil {
				ps.add(op, CodeOrigin, "not an acceptable origin")
			} else {
				checkOrigin(op, og)
			}
		}
	}
}

// validateObservedControls checks an observation's control lists and
// changes.
func (e *Evidence) validateObservedControls(ps *problems, p string, o *ObservationStep, maxStr int) {
	if o.TotalControls < 0 {
		ps.add(p+".total_controls", CodeRange, "never negative")
	}
	lim := max(e.Limits.MaxControls, 1)
	if len(o.Controls) > lim || len(o.Appeared) > lim || len(o.Disappeared) > lim || len(o.Changed) > lim {
		ps.add(p, CodeRange, "more controls than limits.max_controls")
	}
	for j := range o.Controls {
		validateControl(ps, fmt.Sprintf("%s.controls[%d]", p, j), &o.Controls[j], maxStr)
	}
	for j := range o.Appeared {
		validateControl(ps, fmt.Sprintf("%s.appeared[%d]", p, j), &o.Appeared[j], maxStr)
	}
	for j := range o.Disappeared {
		validateControl(ps, fmt.Sprintf("%s.disappeared[%d]", p, j), &o.Disappeared[j], maxStr)
	}
	for j := range o.Changed {
		ch := &o.Changed[j]
		cp := fmt.Sprintf("%s.changed[%d]", p, j)
		validateRef(ps, cp+".control", &ch.Control, maxStr)
		validateState(ps, cp+".before", ch.Before, ch.Control.Role, maxStr)
		validateState(ps, cp+".after", ch.After, ch.Control.Role, maxStr)
		if ch.Nth < 0 || ch.Nth >= lim {
			ps.add(cp+".nth", CodeRange, "out of range")
		}
		if ch.Before == ch.After {
			ps.add(cp, CodeFormat, "a change changes the state")
		}
	}
}

// validateRefusals checks the refused steps.
func (e *Evidence) validateRefusals(ps *problems, maxStr int) {
	if len(e.Refusals) > max(e.Limits.MaxSteps, 1) {
		ps.add("refusals", CodeRange, "more refusals than limits.max_steps")
	}
	for i := range e.Refusals {
		r := &e.Refusals[i]
		p := "refusals[" + strconv.Itoa(i) + "]"
		if !slices.Contains(RefusalReasons(), r.Reason) {
			ps.add(p+".reason", CodeUnknown, "unknown refusal reason")
		}
		if r.After != "" {
			if _, ok := e.Observation(r.After); !ok {
				ps.add(p+".after", CodeReference, "no such observation")
			}
		}
		if utf8.RuneCountInString(r.Detail) > 500 {
			ps.add(p+".detail", CodeRange, "at most 500 runes")
		}
		validateStepRecord(ps, p+".step", &r.Step, maxStr)
	}
}

// validateRedactions checks the redaction counts.
func (e *Evidence) validateRedactions(ps *problems) {
	for k, n := range e.Redactions.Identifiers {
		if !slices.Contains(redact.Kinds(), k) && k != redact.KindPathSegment || n < 0 {
			ps.add("redactions.identifiers", CodeUnknown, "unknown identifier kind or negative count")
		}
	}
	rc := e.Redactions
	if rc.TestIDsWithheld < 0 || rc.SecretsWithheld < 0 || rc.FramesWithheld < 0 || rc.OutOfScope < 0 ||
		rc.ControlsWithheld < 0 || rc.ControlsDropped < 0 || rc.StringsTruncated < 0 {
		ps.add("redactions", CodeRange, "counts are never negative")
	}
}

func validateStepRecord(ps *problems, p string, s *StepRecord, maxStr int) {
	switch s.Kind {
	case StepAct, StepWait, StepDone:
	default:
		ps.add(p+".kind", CodeUnknown, "unknown step kind")
	}
	if s.Kind == StepAct && (s.Locator == nil) {
		ps.add(p+".locator", CodeRequired, "an act step records its locator")
	}
	if len(s.Frame) > capability.MaxFrameSelectors {
		ps.add(p+".frame", CodeRange, "at most %d selectors", capability.MaxFrameSelectors)
	}
	for _, v := range append(slices.Clone(s.Frame), string(s.Act), string(s.Effect), s.Intent) {
		if utf8.RuneCountInString(v) > maxStr {
			ps.add(p, CodeRange, "a string longer than limits.max_string_len")
			break
		}
	}
	if c := s.Locator; c != nil {
		for _, v := range []string{string(c.Strategy), c.Role, c.Name, c.Label, c.Placeholder, c.TestID, c.Text, c.CSS, c.Note} {
			if utf8.RuneCountInString(v) > maxStr {
				ps.add(p+".locator", CodeRange, "a string longer than limits.max_string_len")
				break
			}
		}
	}
}

func validateRef(ps *problems, p string, r *ControlRef, maxStr int) {
	if !RecordedRole(r.Role) {
		ps.add(p+".role", CodeUnknown, "not a recorded role")
	}
	if len(r.Frame) > capability.MaxFrameSelectors {
		ps.add(p+".frame", CodeRange, "at most %d selectors", capability.MaxFrameSelectors)
	}
	for k, sel := range r.Frame {
		if !validSelector(sel) {
			ps.add(p+".frame["+strconv.Itoa(k)+"]", CodeFormat, "a non-blank selector")
		}
	}
	for name, v := range map[string]string{"name": r.Name, "label": r.Label, "placeholder": r.Placeholder, "test_id": r.TestID} {
		if utf8.RuneCountInString(v) > maxStr || strings.TrimSpace(v) != v {
			ps.add(p+"."+name, CodeRange, "a trimmed string of at most limits.max_string_len runes")
		}
	}
	if r.TestIDWithheld && r.TestID != "" {
		ps.add(p+".test_id", CodeFormat, "a withheld test id is empty")
	}
	if strings.Contains(r.TestID, Marker) {
		ps.add(p+".test_id", CodeFormat, "test ids are withheld, never redacted")
	}
}

func validateState(ps *problems, p string, s ControlState, role string, maxStr int) {
	if s.Checked != "" && s.Checked != "true" && s.Checked != "false" && s.Checked != "mixed" {
		ps.add(p+".checked", CodeUnknown, "true, false or mixed")
	}
	if s.Expanded != "" && s.Expanded != "true" && s.Expanded != "false" {
		ps.add(p+".expanded", CodeUnknown, "true or false")
	}
	if s.Text != "" && !textRole(role) {
		ps.add(p+".text", CodeFormat, "only status and alert regions record text")
	}
	if utf8.RuneCountInString(s.Text) > maxStr {
		ps.add(p+".text", CodeRange, "at most limits.max_string_len runes")
	}
}

func validateControl(ps *problems, p string, c *Control, maxStr int) {
	validateRef(ps, p, &c.ControlRef, maxStr)
	validateState(ps, p+".state", c.State, c.Role, maxStr)
}

// originList checks a list of origins: each acceptable, sorted, unique.
func originList(ps *problems, path string, os []string, sorted bool) {
	for i, o := range os {
		if err := capability.CheckOrigin(o); err != nil {
			ps.add(fmt.Sprintf("%s[%d]", path, i), CodeOrigin, "not an acceptable origin")
		}
		if i > 0 && os[i-1] == o {
			ps.add(fmt.Sprintf("%s[%d]", path, i), CodeDuplicate, "listed twice")
		} else if sorted && i > 0 && os[i-1] > o {
			ps.add(fmt.Sprintf("%s[%d]", path, i), CodeOrder, "origins are sorted")
		}
	}
}

// validRunID accepts 8 to 64 lowercase ASCII letters and hyphens.
func validRunID(s string) bool {
	if len(s) < 8 || len(s) > 64 || s[0] == '-' || s[len(s)-1] == '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if (s[i] < 'a' || s[i] > 'z') && s[i] != '-' {
			return false
		}
	}
	return true
}

// validPath accepts a query- and fragment-free path starting with "/".
func validPath(p string) bool {
	return strings.HasPrefix(p, "/") && !strings.ContainsAny(p, "?#") && len(p) <= capability.MaxURLLen &&
		utf8.ValidString(p) && !strings.ContainsFunc(p, func(r rune) bool { return r < 0x20 || r == 0x7f })
}

func validSelector(s string) bool {
	return s != "" && strings.TrimSpace(s) == s && len(s) <= capability.MaxFrameSelectorLen && utf8.ValidString(s)
}

func parseTime(s string) (time.Time, bool) {
	t, err := timestamp.Parse(s)
	return t, err == nil
}

// LoadEvidence reads a browser-discovery-evidence/v1 document strictly
// (valid UTF-8 JSON, no duplicate keys, no unknown fields, no trailing
// data, the exact schema, at most [MaxEvidenceBytes]) and validates it.
// Errors wrap [ErrParse] or [ErrInvalid].
func LoadEvidence(raw []byte) (*Evidence, error) {
	var e Evidence
	if err := strictDecode(raw, EvidenceSchema, MaxEvidenceBytes, &e); err != nil {
		return nil, err
	}
	if err := e.Validate(); err != nil {
		return nil, err
	}
	return &e, nil
}

// marshalIndent encodes v with two-space indentation, no HTML escaping
// and a trailing newline.
func marshalIndent(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
