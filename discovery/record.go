package discovery

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/canonjson"
	"github.com/vera-run/vera/internal/ident"
	"github.com/vera-run/vera/internal/redact"
)

// RecordSchema is the schema of the reviewed discovery record.
const RecordSchema = "browser-discovery/v2"

// Bounds of a discovery record.
const (
	// MaxRecordBytes bounds a record document; [LoadRecord] reads at most
	// this many bytes.
	MaxRecordBytes = 4 << 20
	// MaxRecordMilestones bounds the milestones of a record.
	MaxRecordMilestones = 100
	// MaxMilestoneControls bounds the controls listed per milestone.
	MaxMilestoneControls = 200
	// MaxMilestoneRefs bounds the observation references and the paths
	// listed per milestone.
	MaxMilestoneRefs = 1000
)

// Record is a browser-discovery/v2 document: the operator-reviewed account
// of what discovery established for one process on one site. Its hash (see
// [Record.Hash]) is what a draft's provenance.discovery_hash and a review's
// record_hash name.
type Record struct {
	Schema     string            `json:"schema"`
	Site       RecordSite        `json:"site"`
	Process    Process           `json:"process"`
	Discovery  DiscoveryInfo     `json:"discovery"`
	Runtime    RecordRuntime     `json:"runtime"`
	Authority  RecordAuthority   `json:"authority"`
	Privacy    RecordPrivacy     `json:"privacy"`
	Milestones []RecordMilestone `json:"milestones"`
	// EvidenceHash is the hash of the evidence document the record was
	// built from ([Evidence.Hash]).
	EvidenceHash string `json:"evidence_hash"`
	// Review is the operator's review of this exact record; nil until
	// reviewed. It is excluded from the record's hash.
	Review *RecordReview `json:"review,omitempty"`
}

// RecordSite is the site boundary.
type RecordSite struct {
	Name string `json:"name"`
	// AllowedOrigins are the origins the process may reach, sorted.
	AllowedOrigins []string `json:"allowed_origins"`
	// SubresourceOrigins are extra origins that may only serve
	// subresources, sorted.
	SubresourceOrigins []string `json:"subresource_origins,omitempty"`
}

// Process names the business process.
type Process struct {
	Name string `json:"name"`
	Goal string `json:"goal"`
}

// DiscoveryInfo names the session the record comes from.
type DiscoveryInfo struct {
	Mode Mode `json:"mode"`
	// Model names the host model that assisted, if any.
	Model string `json:"model,omitempty"`
	// RunID is the evidence's run id.
	RunID string `json:"run_id"`
}

// RecordRuntime is the runtime boundary: where a run starts and the fixed
// frame path.
type RecordRuntime struct {
	// Start is a query-free path, or URL on an allowed origin.
	Start          string   `json:"start"`
	FrameSelectors []string `json:"frame_selectors,omitempty"`
}

// RecordAuthority is the authority boundary.
type RecordAuthority struct {
	MaxEffect             capability.Effect `json:"max_effect"`
	OperatorAuthenticates bool              `json:"operator_authenticates"`
}

// RecordPrivacy is the privacy boundary.
type RecordPrivacy struct {
	// DataClasses are the classes of private data the process reads,
	// sorted.
	DataClasses     []string `json:"data_classes"`
	RetainDownloads bool     `json:"retain_downloads,omitempty"`
}

// RecordMilestone is one milestone the discovery observed.
type RecordMilestone struct {
	ID     string `json:"id"`
	Intent string `json:"intent"`
	// Observations are the ids of the evidence observations that show the
	// milestone. A milestone without any is a documented gap: it cannot
	// back an executable milestone at promotion.
	Observations []string `json:"observations"`
	// Controls are the observed controls the milestone uses.
	Controls []ControlRef `json:"controls"`
	// Paths are the URL paths observed in the milestone.
	Paths []string `json:"paths,omitempty"`
}

// RecordReview is the operator's review of the exact record.
type RecordReview struct {
	Reviewer string `json:"reviewer"`
	// ReviewedAt is an RFC 3339 timestamp.
	ReviewedAt string `json:"reviewed_at"`
}

// Hash is the sha256 digest of the RFC 8785 canonical JSON of the record
// without its "review" member, so that reviewing a record does not change
// the hash a draft made from it already names.
func (r *Record) Hash() (string, error) {
	c := *r
	c.Review = nil
	return canonjson.Digest(&c)
}

// RecordHashBytes is [Record.Hash] computed from a record document's
// bytes (top-level "review" member removed, RFC 8785), as an independent
// verifier computes it.
func RecordHashBytes(raw []byte) (string, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return "", &ParseError{Schema: RecordSchema, Err: err}
	}
	delete(m, "review")
	return canonjson.Digest(m)
}

// Marshal encodes the record as indented JSON for storage and review.
func (r *Record) Marshal() ([]byte, error) { return marshalIndent(r) }

// Clone returns a deep copy.
func (r *Record) Clone() *Record {
	raw, err := json.Marshal(r)
	if err != nil {
		return nil
	}
	var out Record
	if json.Unmarshal(raw, &out) != nil {
		return nil
	}
	return &out
}

// Reviewed returns a copy of the record carrying the operator's review.
// The record's hash does not change.
func (r *Record) Reviewed(reviewer string, at time.Time) (*Record, error) {
	if strings.TrimSpace(reviewer) == "" {
		return nil, fmt.Errorf("%w: a review names its reviewer", ErrInvalid)
	}
	out := r.Clone()
	if out == nil {
		return nil, fmt.Errorf("%w: record cannot be copied", ErrInvalid)
	}
	out.Review = &RecordReview{Reviewer: reviewer, ReviewedAt: at.UTC().Format(time.RFC3339)}
	if err := out.Validate(); err != nil {
		return nil, err
	}
	return out, nil
}

// Milestone returns the record milestone with the given id.
func (r *Record) Milestone(id string) (*RecordMilestone, bool) {
	for i := range r.Milestones {
		if r.Milestones[i].ID == id {
			return &r.Milestones[i], true
		}
	}
	return nil, false
}

// RecordSpec is what the operator (or host model) decides when turning
// evidence into a record: the boundaries and the milestones, each pointing
// at the observations that show it.
type RecordSpec struct {
	Site      RecordSite
	Process   Process
	Model     string
	Runtime   RecordRuntime
	Authority RecordAuthority
	Privacy   RecordPrivacy
	// Milestones in process order.
	Milestones []MilestoneSpec
}

// MilestoneSpec names one milestone and the observations that show it.
type MilestoneSpec struct {
	ID     string
	Intent string
	// Observations are evidence observation ids ("obs-3"). Include the
	// observation before a change as well as the change: the control the
	// operator used is usually unchanged by its own action (a "Next page"
	// button stays), so it appears only in the state before.
	Observations []string
	// Controls, when set, are the controls the milestone uses; each must
	// be present after one of the observations. When empty they are
	// derived: every control of a referenced baseline, and the controls
	// that appeared or changed in a referenced change or explore
	// observation (at most [MaxMilestoneControls]).
	Controls []ControlRef
}

// NewRecord builds an unreviewed record from evidence and the operator's
// spec: origins and data classes are sorted, controls and paths are
// derived from the referenced observations, the evidence hash and the
// session's mode and run id are filled in, and the result is checked
// against the evidence with [Record.CheckEvidence].
func NewRecord(ev *Evidence, spec RecordSpec) (*Record, error) {
	if ev == nil {
		return nil, fmt.Errorf("%w: nil evidence", ErrInvalid)
	}
	if err := ev.Validate(); err != nil {
		return nil, err
	}
	h, err := ev.Hash()
	if err != nil {
		return nil, err
	}
	r := &Record{
		Schema: RecordSchema,
		Site: RecordSite{
			Name:               spec.Site.Name,
			AllowedOrigins:     sortedUnique(spec.Site.AllowedOrigins),
			SubresourceOrigins: sortedUnique(spec.Site.SubresourceOrigins),
		},
		Process:      spec.Process,
		Discovery:    DiscoveryInfo{Mode: ev.Mode, Model: spec.Model, RunID: ev.RunID},
		Runtime:      RecordRuntime{Start: spec.Runtime.Start, FrameSelectors: slices.Clone(spec.Runtime.FrameSelectors)},
		Authority:    spec.Authority,
		Privacy:      RecordPrivacy{DataClasses: sortedUnique(spec.Privacy.DataClasses), RetainDownloads: spec.Privacy.RetainDownloads},
		Milestones:   []RecordMilestone{},
		EvidenceHash: h,
	}
	if r.Privacy.DataClasses == nil {
		r.Privacy.DataClasses = []string{}
	}
	if len(r.Site.SubresourceOrigins) == 0 {
		r.Site.SubresourceOrigins = nil
	}
	for _, ms := range spec.Milestones {
		m := RecordMilestone{ID: ms.ID, Intent: ms.Intent, Observations: slices.Clone(ms.Observations), Controls: []ControlRef{}}
		if m.Observations == nil {
			m.Observations = []string{}
		}
		seenCtl := map[string]bool{}
		addCtl := func(c ControlRef) {
			if k := c.key(); !seenCtl[k] && len(m.Controls) < MaxMilestoneControls {
				seenCtl[k] = true
				m.Controls = append(m.Controls, cloneRef(c))
			}
		}
		for _, c := range ms.Controls {
			addCtl(c)
		}
		for _, id := range ms.Observations {
			o, ok := ev.Observation(id)
			if !ok {
				continue // reported by CheckEvidence
			}
			if o.URLPath != "" && !slices.Contains(m.Paths, o.URLPath) {
				m.Paths = append(m.Paths, o.URLPath)
			}
			if len(ms.Controls) > 0 {
				continue
			}
			for _, c := range o.Controls {
				addCtl(c.ControlRef)
			}
			for _, c := range o.Appeared {
				addCtl(c.ControlRef)
			}
			for _, ch := range o.Changed {
				addCtl(ch.Control)
			}
		}
		r.Milestones = append(r.Milestones, m)
	}
	if err := r.Validate(); err != nil {
		return nil, err
	}
	if err := r.CheckEvidence(ev); err != nil {
		return nil, err
	}
	return r, nil
}

func sortedUnique(xs []string) []string {
	out := slices.Clone(xs)
	slices.Sort(out)
	return slices.Compact(out)
}

// Validate checks every rule of browser-discovery/v2 and returns a
// *[ValidationError] listing every problem, or nil. It does not need the
// evidence; [Record.CheckEvidence] checks the record against it.
func (r *Record) Validate() error {
	var ps problems
	r.validate(&ps)
	if raw, err := json.Marshal(r); err == nil {
		scanContent(raw, &ps)
	}
	return ps.err(RecordSchema)
}

func (r *Record) validate(ps *problems) {
	if r.Schema != RecordSchema {
		ps.add("schema", CodeSchema, "want %q", RecordSchema)
	}
	text(ps, "site.name", r.Site.Name, capability.MaxNameLen)
	if n := len(r.Site.AllowedOrigins); n == 0 || n > capability.MaxOrigins {
		ps.add("site.allowed_origins", CodeRange, "1 to %d origins", capability.MaxOrigins)
	}
	originList(ps, "site.allowed_origins", r.Site.AllowedOrigins, true)
	if len(r.Site.SubresourceOrigins) > capability.MaxSubresourceOrigins {
		ps.add("site.subresource_origins", CodeRange, "at most %d origins", capability.MaxSubresourceOrigins)
	}
	originList(ps, "site.subresource_origins", r.Site.SubresourceOrigins, true)
	text(ps, "process.name", r.Process.Name, capability.MaxNameLen)
	text(ps, "process.goal", r.Process.Goal, capability.MaxDescriptionLen)
	if !r.Discovery.Mode.Valid() {
		ps.add("discovery.mode", CodeUnknown, "mode is guided, autonomous or hybrid")
	}
	if utf8.RuneCountInString(r.Discovery.Model) > capability.MaxNameLen || strings.Contains(r.Discovery.Model, Marker) {
		ps.add("discovery.model", CodeRange, "at most %d runes, no redaction marker", capability.MaxNameLen)
	}
	if !validRunID(r.Discovery.RunID) {
		ps.add("discovery.run_id", CodeFormat, "a run id is 8 to 64 lowercase letters and hyphens")
	}
	if msg := checkStart(r.Runtime.Start, r.Site.AllowedOrigins); msg != "" {
		ps.add("runtime.start", CodeFormat, "%s", msg)
	}
	if len(r.Runtime.FrameSelectors) > capability.MaxFrameSelectors {
		ps.add("runtime.frame_selectors", CodeRange, "at most %d selectors", capability.MaxFrameSelectors)
	}
	for i, sel := range r.Runtime.FrameSelectors {
		if !validSelector(sel) || strings.Contains(sel, Marker) {
			ps.add(fmt.Sprintf("runtime.frame_selectors[%d]", i), CodeFormat, "a non-blank selector of at most %d bytes", capability.MaxFrameSelectorLen)
		}
	}
	if !r.Authority.MaxEffect.Valid() {
		ps.add("authority.max_effect", CodeUnknown, "read_only, reversible or consequential")
	}
	if r.Privacy.DataClasses == nil {
		ps.add("privacy.data_classes", CodeRequired, "a list, possibly empty")
	}
	if len(r.Privacy.DataClasses) > capability.MaxItems {
		ps.add("privacy.data_classes", CodeRange, "at most %d classes", capability.MaxItems)
	}
	for i, d := range r.Privacy.DataClasses {
		p := fmt.Sprintf("privacy.data_classes[%d]", i)
		if !ident.ValidName(d) {
			ps.add(p, CodeFormat, "snake_case of at most %d bytes", capability.MaxIDLen)
		}
		if i > 0 && r.Privacy.DataClasses[i-1] >= d {
			ps.add(p, CodeOrder, "sorted and unique")
		}
	}
	if n := len(r.Milestones); n == 0 || n > MaxRecordMilestones {
		ps.add("milestones", CodeRange, "1 to %d milestones", MaxRecordMilestones)
	}
	ids := map[string]bool{}
	for i := range r.Milestones {
		m := &r.Milestones[i]
		p := "milestones[" + strconv.Itoa(i) + "]"
		if !ident.ValidID(m.ID) || m.ID == capability.TerminalCompleted {
			ps.add(p+".id", CodeFormat, "a lowercase id of at most %d bytes, not %q", capability.MaxIDLen, capability.TerminalCompleted)
		}
		if ids[m.ID] {
			ps.add(p+".id", CodeDuplicate, "milestone id used twice")
		}
		ids[m.ID] = true
		text(ps, p+".intent", m.Intent, capability.MaxTextLen)
		if m.Observations == nil {
			ps.add(p+".observations", CodeRequired, "a list, possibly empty")
		}
		if len(m.Observations) > MaxMilestoneRefs || len(m.Paths) > MaxMilestoneRefs {
			ps.add(p, CodeRange, "at most %d observations and paths", MaxMilestoneRefs)
		}
		seen := map[string]bool{}
		for j, id := range m.Observations {
			if !validObsID(id) {
				ps.add(fmt.Sprintf("%s.observations[%d]", p, j), CodeFormat, "an observation id obs-<n>")
			}
			if seen[id] {
				ps.add(fmt.Sprintf("%s.observations[%d]", p, j), CodeDuplicate, "listed twice")
			}
			seen[id] = true
		}
		if m.Controls == nil {
			ps.add(p+".controls", CodeRequired, "a list, possibly empty")
		}
		if len(m.Controls) > MaxMilestoneControls {
			ps.add(p+".controls", CodeRange, "at most %d controls", MaxMilestoneControls)
		}
		for j := range m.Controls {
			validateRef(ps, fmt.Sprintf("%s.controls[%d]", p, j), &m.Controls[j], MaxStringLenCeiling)
		}
		for j, path := range m.Paths {
			if !validPath(path) {
				ps.add(fmt.Sprintf("%s.paths[%d]", p, j), CodeFormat, "a query-free path starting with /")
			} else if redact.ContainsPathIdentifier(path) {
				ps.add(fmt.Sprintf("%s.paths[%d]", p, j), CodeIdentifier, "a path segment is identifier-shaped")
			}
		}
	}
	if !canonjson.ValidDigest(r.EvidenceHash) {
		ps.add("evidence_hash", CodeFormat, "sha256: and 64 lowercase hex digits")
	}
	if rv := r.Review; rv != nil {
		text(ps, "review.reviewer", rv.Reviewer, capability.MaxNameLen)
		if _, ok := parseTime(rv.ReviewedAt); !ok {
			ps.add("review.reviewed_at", CodeFormat, "an RFC 3339 timestamp")
		}
	}
}

// text checks a required, bounded, marker-free human text.
func text(ps *problems, path, s string, maxRunes int) {
	switch {
	case strings.TrimSpace(s) == "":
		ps.add(path, CodeRequired, "required")
	case utf8.RuneCountInString(s) > maxRunes || !utf8.ValidString(s):
		ps.add(path, CodeRange, "at most %d runes of valid UTF-8", maxRunes)
	case strings.Contains(s, Marker):
		ps.add(path, CodeFormat, "the redaction marker is evidence of redaction, never text to copy")
	}
}

// checkStart checks runtime.start: a query-free path, or an absolute URL on
// an allowed origin.
func checkStart(s string, allowed []string) string {
	if s == "" {
		return "required"
	}
	if strings.ContainsAny(s, "?#") {
		return "the start is query- and fragment-free"
	}
	if strings.Contains(s, Marker) || strings.Contains(s, "{{") {
		return "the start holds no redaction marker or template"
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= ' ' || c == 0x7f || c == '\\' {
			return "the start holds no spaces, control characters or backslashes (percent-encode them)"
		}
	}
	if strings.HasPrefix(s, "/") {
		if strings.HasPrefix(s, "//") || !validPath(s) {
			return "a path starting with a single /"
		}
		return ""
	}
	origin, path := splitURL(s)
	if origin == "" || !slices.Contains(allowed, origin) {
		return "an absolute start is on an allowed origin"
	}
	if path != "" && !validPath(path) {
		return "a path starting with /"
	}
	return ""
}

// splitURL splits an absolute http(s) URL into origin and path.
func splitURL(s string) (origin, path string) {
	i := strings.Index(s, "://")
	if i < 0 {
		return "", ""
	}
	j := strings.IndexByte(s[i+3:], '/')
	if j < 0 {
		return s, ""
	}
	return s[:i+3+j], s[i+3+j:]
}

// startPath returns the path of runtime.start ("/" for a bare origin).
func startPath(s string) (origin, path string) {
	if strings.HasPrefix(s, "/") {
		return "", s
	}
	origin, path = splitURL(s)
	if path == "" {
		path = "/"
	}
	return origin, path
}

func validObsID(s string) bool {
	n, ok := strings.CutPrefix(s, "obs-")
	if !ok || n == "" || n[0] == '0' || len(n) > 7 {
		return false
	}
	for i := 0; i < len(n); i++ {
		if n[i] < '0' || n[i] > '9' {
			return false
		}
	}
	return true
}

// CheckEvidence checks the record against the evidence it names: the
// evidence is valid and its hash is evidence_hash; mode and run id are the
// session's; every allowed origin, the start path, the frame path, every
// milestone's observations, controls and paths were actually observed.
// It returns a *[ValidationError] listing every problem, or nil.
func (r *Record) CheckEvidence(ev *Evidence) error {
	var ps problems
	if ev == nil {
		ps.add("", CodeRequired, "no evidence")
		return ps.err(RecordSchema)
	}
	if err := ev.Validate(); err != nil {
		ps.add("evidence_hash", CodeReference, "the evidence is invalid")
		return ps.err(RecordSchema)
	}
	if h, err := ev.Hash(); err != nil || h != r.EvidenceHash {
		ps.add("evidence_hash", CodeLinkMismatch, "the evidence document has another hash")
	}
	if r.Discovery.Mode != ev.Mode {
		ps.add("discovery.mode", CodeLinkMismatch, "the evidence was recorded in mode %s", ev.Mode)
	}
	if r.Discovery.RunID != ev.RunID {
		ps.add("discovery.run_id", CodeLinkMismatch, "the evidence has another run id")
	}
	for i, o := range r.Site.AllowedOrigins {
		if !slices.Contains(ev.Site.Origins, o) {
			ps.add(fmt.Sprintf("site.allowed_origins[%d]", i), CodeNotObserved, "origin never observed")
		}
	}
	// One replay collects what the record may claim.
	wanted := map[string]bool{}
	for _, m := range r.Milestones {
		for _, id := range m.Observations {
			wanted[id] = true
		}
	}
	states := map[string][]Control{}
	paths := map[string]bool{}      // origin + path and bare path
	framePaths := map[string]bool{} // joined frame paths
	ev.Replay(func(o *ObservationStep, cs []Control, frames []FrameRecord) bool {
		if wanted[o.ID] {
			states[o.ID] = cs
		}
		if !o.OutOfScope && o.URLPath != "" {
			paths[o.URLPath] = true
			paths[o.Origin+o.URLPath] = true
		}
		for _, f := range frames {
			framePaths[strings.Join(f.Path, "\x1f")] = true
		}
		return true
	})
	origin, sp := startPath(r.Runtime.Start)
	if dec, err := url.PathUnescape(sp); err == nil {
		sp = dec // observed paths are recorded percent-decoded
	}
	if r.Runtime.Start != "" && !paths[origin+sp] {
		ps.add("runtime.start", CodeNotObserved, "the start path was never observed")
	}
	if len(r.Runtime.FrameSelectors) > 0 && !framePaths[strings.Join(r.Runtime.FrameSelectors, "\x1f")] {
		ps.add("runtime.frame_selectors", CodeNotObserved, "the frame path was never observed")
	}
	for i := range r.Milestones {
		m := &r.Milestones[i]
		p := "milestones[" + strconv.Itoa(i) + "]"
		mpaths := map[string]bool{}
		for j, id := range m.Observations {
			o, ok := ev.Observation(id)
			if !ok {
				ps.add(fmt.Sprintf("%s.observations[%d]", p, j), CodeReference, "no such observation in the evidence")
				continue
			}
			mpaths[o.URLPath] = true
			if o.PathChanged {
				mpaths[o.PrevURLPath] = true
			}
		}
		for j := range m.Controls {
			c := &m.Controls[j]
			found := false
			for _, id := range m.Observations {
				for _, sc := range states[id] {
					if sc.ControlRef.Equal(*c) {
						found = true
						break
					}
				}
				if found {
					break
				}
			}
			if !found {
				ps.add(fmt.Sprintf("%s.controls[%d]", p, j), CodeNotObserved, "the control is not present after any of the milestone's observations")
			}
		}
		for j, path := range m.Paths {
			if !mpaths[path] {
				ps.add(fmt.Sprintf("%s.paths[%d]", p, j), CodeNotObserved, "the path was not observed in the milestone's observations")
			}
		}
	}
	return ps.err(RecordSchema)
}

// LoadRecord reads a browser-discovery/v2 document strictly (valid UTF-8
// JSON, no duplicate keys, no unknown fields, no trailing data, the exact
// schema, at most [MaxRecordBytes]) and validates it. Errors wrap
// [ErrParse] or [ErrInvalid].
func LoadRecord(raw []byte) (*Record, error) {
	var r Record
	if err := strictDecode(raw, RecordSchema, MaxRecordBytes, &r); err != nil {
		return nil, err
	}
	if err := r.Validate(); err != nil {
		return nil, err
	}
	return &r, nil
}
