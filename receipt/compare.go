package receipt

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/canonjson"
)

// Schemas of a comparison and of its normalization policy.
const (
	SchemaComparison       = "browser-run-comparison/v1"
	SchemaComparisonPolicy = "browser-run-comparison-policy/v1"
)

// ArtifactKind names a kind of compared artifact ([ArtifactChange.Kind],
// [Rule.Kind]).
type ArtifactKind string

// Artifact kinds a comparison reports and a [Rule] names. Step artifacts
// belong to one aligned action; run artifacts to the whole run.
const (
	// ArtifactAction is a step's milestone, effect, status, winning locator
	// index, postcondition and recovered flag.
	ArtifactAction ArtifactKind = "action"
	// ArtifactFailure is a step's failure (category, reason, detail hash),
	// null when it passed.
	ArtifactFailure ArtifactKind = "failure"
	// ArtifactRecords is the record count of an extraction step.
	ArtifactRecords ArtifactKind = "records"
	// ArtifactDownload is the download evidence of a download step.
	ArtifactDownload ArtifactKind = "download"
	// ArtifactApproval is the approval of a consequential step.
	ArtifactApproval ArtifactKind = "approval"
	// ArtifactCapability is the capability reference (id, version,
	// execution and discovery hashes).
	ArtifactCapability ArtifactKind = "capability"
	// ArtifactMode is the execution mode.
	ArtifactMode ArtifactKind = "execution_mode"
	// ArtifactEnvironment is the declared environment.
	ArtifactEnvironment ArtifactKind = "environment"
	// ArtifactInput is one input record: its value hash, or for a secret
	// input (which has none) its reference and presence only.
	ArtifactInput ArtifactKind = "input"
	// ArtifactOutput is one output record (kind, exposure, count, hash).
	ArtifactOutput ArtifactKind = "output"
	// ArtifactMilestones is the sequence of milestone visits.
	ArtifactMilestones ArtifactKind = "milestones"
	// ArtifactTerminal is the terminal state.
	ArtifactTerminal ArtifactKind = "terminal"
	// ArtifactOrigins is the set of origins reached.
	ArtifactOrigins ArtifactKind = "origins"
	// ArtifactBlocked is the number of blocked requests.
	ArtifactBlocked ArtifactKind = "blocked_requests"
	// ArtifactFlags are clean, recovered, handed_off and
	// locator_changes_during_run.
	ArtifactFlags ArtifactKind = "flags"
)

// artifactKinds returns every artifact kind, sorted.
func artifactKinds() []ArtifactKind {
	ks := []ArtifactKind{ArtifactAction, ArtifactFailure, ArtifactRecords, ArtifactDownload, ArtifactApproval,
		ArtifactCapability, ArtifactMode, ArtifactEnvironment, ArtifactInput, ArtifactOutput,
		ArtifactMilestones, ArtifactTerminal, ArtifactOrigins, ArtifactBlocked, ArtifactFlags}
	ks = append(ks, captureKinds...) // capture_compare.go
	slices.Sort(ks)
	return ks
}

// Comparison limits.
const (
	// MaxRules bounds the caller rules of one comparison.
	MaxRules = 32
	// MaxRuleLen bounds a rule's Find and Replace, in bytes.
	MaxRuleLen = 256
	// MaxNormalizedLen bounds any string after the rules are applied, in
	// bytes; an artifact whose normalization exceeds it is unknown (state
	// "over_limit"), never equal.
	MaxNormalizedLen = 64 << 10
	// DefaultMaxChanges is the number of changed and unknown artifact
	// records a comparison retains without [WithMaxChanges].
	DefaultMaxChanges = 1000
	// MaxMaxChanges is the largest accepted [WithMaxChanges] bound.
	MaxMaxChanges = 100_000
)

// IgnoredMembers are the receipt members the built-in normalization
// always ignores: timings and run identity, which differ between any two
// runs.
var IgnoredMembers = []string{"duration_ms", "finished_at", "run_id", "started_at"}

// ErrCompare is wrapped by every error [Compare] returns (misuse: a nil
// receipt or an invalid option).
var ErrCompare = errors.New("receipt: compare")

// Rule is a caller normalization rule: within artifacts of Kind, every
// string value has each exact occurrence of Find replaced by Replace
// (strings.ReplaceAll; no patterns). Rules apply only to the receipt's
// already sanitized fields.
type Rule struct {
	Kind    ArtifactKind `json:"kind"`
	Find    string       `json:"find"`
	Replace string       `json:"replace"`
}

// Policy is the normalization a comparison applied; the comparison commits
// to it by [Comparison.PolicyDigest], the sha256 of its canonical JSON.
type Policy struct {
	Schema string `json:"schema"`
	// Ignored are the built-in ignored members ([IgnoredMembers]).
	Ignored []string `json:"ignored"`
	// Rules are the caller rules, sorted by kind, find, replace, without
	// duplicates, in the order they were applied.
	Rules []Rule `json:"rules"`
	// Capture is the built-in capture normalization, present only when
	// step captures were compared ([WithCaptures]).
	Capture *CaptureNormalization `json:"capture,omitempty"`
}

// CompareOption configures [Compare].
type CompareOption func(*compareConfig)

type compareConfig struct {
	rules      []Rule
	maxChanges int
	errs       []error
	// captures are WithCaptures' documents (capture_compare.go).
	captures   bool
	capA, capB *Capture
}

// WithRule adds a caller normalization rule. Rules are sorted canonically
// before application, so the same set of rules gives the same result and
// digest in any order.
func WithRule(r Rule) CompareOption {
	return func(c *compareConfig) { c.rules = append(c.rules, r) }
}

// WithMaxChanges bounds the changed and unknown artifact records the
// result retains (0 keeps none); totals and the omitted count stay
// visible. It must be within 0 and [MaxMaxChanges].
func WithMaxChanges(n int) CompareOption {
	return func(c *compareConfig) {
		if n < 0 || n > MaxMaxChanges {
			c.errs = append(c.errs, fmt.Errorf("max changes %d outside 0..%d", n, MaxMaxChanges))
			return
		}
		c.maxChanges = n
	}
}

// ChangeStatus is the status of a step or an artifact, and the verdict of a
// [Comparison].
type ChangeStatus string

// Step and artifact statuses, and the verdict values.
const (
	StatusUnchanged ChangeStatus = "unchanged"
	StatusChanged   ChangeStatus = "changed"
	StatusUnknown   ChangeStatus = "unknown"
)

// Presence is how one side of a compared artifact was captured
// ([ArtifactState.State]).
type Presence string

// Artifact capture states.
const (
	StatePresent   Presence = "present"
	StateMissing   Presence = "missing"
	StateOverLimit Presence = "over_limit"
	// StateTruncated and StateDisabled are capture sections that were
	// truncated, or disabled on this side only ([WithCaptures]).
	StateTruncated Presence = "truncated"
	StateDisabled  Presence = "disabled"
)

// AlignCode is the code of an [AlignmentFailure].
type AlignCode string

// Alignment failure codes.
const (
	AlignDuplicate          AlignCode = "duplicate_step"
	AlignMissingInA         AlignCode = "missing_in_a"
	AlignMissingInB         AlignCode = "missing_in_b"
	AlignKindChanged        AlignCode = "action_kind_changed"
	AlignCapabilityMismatch AlignCode = "capability_mismatch"
	// AlignCaptureContext: the captures were taken in different browser,
	// mode, viewport or origin contexts ([WithCaptures]).
	AlignCaptureContext AlignCode = "capture_context_mismatch"
	// AlignCaptureMissing: only one run has a capture, or a step has no
	// capture record ([WithCaptures]).
	AlignCaptureMissing AlignCode = "capture_missing"
)

// RunRef identifies a compared run.
type RunRef struct {
	RunID         string `json:"run_id"`
	CapabilityID  string `json:"capability_id"`
	Version       string `json:"version"`
	ExecutionHash string `json:"execution_hash"`
}

// AlignmentFailure is a step that could not be aligned, or an incompatible
// context. Any alignment failure prevents an unchanged verdict.
type AlignmentFailure struct {
	Code AlignCode `json:"code"`
	// Action and Visit name the step; empty for a context failure.
	Action string `json:"action,omitempty"`
	Visit  int    `json:"visit,omitempty"`
	// Side is "a", "b" or "" (both).
	Side    string `json:"side,omitempty"`
	Message string `json:"message"`
}

// StepResult is one aligned step.
type StepResult struct {
	Action    string `json:"action"`
	Visit     int    `json:"visit"`
	Operation string `json:"operation"`
	// Status is changed when any of its artifacts changed, else unknown
	// when any is unknown, else unchanged.
	Status ChangeStatus `json:"status"`
}

// ArtifactState is one side of a compared artifact.
type ArtifactState struct {
	State Presence `json:"state"`
	// Digest is the sha256 of the canonical JSON of the normalized
	// artifact, when present.
	Digest string `json:"digest,omitempty"`
}

// ArtifactChange is a changed or unknown artifact.
type ArtifactChange struct {
	Kind ArtifactKind `json:"kind"`
	// Action and Visit name the step of a step artifact.
	Action string `json:"action,omitempty"`
	Visit  int    `json:"visit,omitempty"`
	// Name is the input or output name of an input or output artifact.
	Name   string        `json:"name,omitempty"`
	Status ChangeStatus  `json:"status"`
	Before ArtifactState `json:"before"`
	After  ArtifactState `json:"after"`
}

// Totals are the counts of a comparison, complete even when changes were
// omitted.
type Totals struct {
	Steps          int `json:"steps"`
	StepsChanged   int `json:"steps_changed"`
	StepsUnchanged int `json:"steps_unchanged"`
	StepsUnknown   int `json:"steps_unknown"`
	Artifacts      int `json:"artifacts"`
	Changed        int `json:"changed"`
	Unchanged      int `json:"unchanged"`
	Unknown        int `json:"unknown"`
	// Retained and Omitted split the changed and unknown artifacts into
	// those listed in Changes and those the bound left out.
	Retained int `json:"retained"`
	Omitted  int `json:"omitted"`
}

// Comparison is a browser-run-comparison/v1 document.
type Comparison struct {
	Schema       string `json:"schema"`
	A            RunRef `json:"a"`
	B            RunRef `json:"b"`
	Policy       Policy `json:"policy"`
	PolicyDigest string `json:"policy_digest"`
	// Verdict is changed when any artifact changed (alignment failures do
	// not hide an observed difference), unchanged only when every step
	// aligned and every artifact is present and equal, and unknown
	// otherwise.
	Verdict           ChangeStatus       `json:"verdict"`
	AlignmentFailures []AlignmentFailure `json:"alignment_failures"`
	Steps             []StepResult       `json:"steps"`
	Changes           []ArtifactChange   `json:"changes"`
	MaxChanges        int                `json:"max_changes"`
	Totals            Totals             `json:"totals"`
}

// JSON returns the comparison as RFC 8785 canonical JSON.
func (c *Comparison) JSON() ([]byte, error) { return canonjson.Marshal(c) }

// PolicyDigest returns the sha256 digest of the canonical JSON of p.
func PolicyDigest(p Policy) (string, error) { return canonjson.Digest(p) }

// NormalizationPolicy returns the policy the given rules yield: validated,
// sorted and without duplicates.
func NormalizationPolicy(rules ...Rule) (Policy, error) {
	if len(rules) > MaxRules {
		return Policy{}, fmt.Errorf("%w: %d rules, at most %d", ErrCompare, len(rules), MaxRules)
	}
	kinds := artifactKinds()
	rs := slices.Clone(rules)
	for i, r := range rs {
		switch {
		case !slices.Contains(kinds, r.Kind):
			return Policy{}, fmt.Errorf("%w: rule %d: unknown artifact kind %s", ErrCompare, i, short(string(r.Kind)))
		case r.Find == "":
			return Policy{}, fmt.Errorf("%w: rule %d: empty find", ErrCompare, i)
		case len(r.Find) > MaxRuleLen || len(r.Replace) > MaxRuleLen:
			return Policy{}, fmt.Errorf("%w: rule %d: find or replace longer than %d bytes", ErrCompare, i, MaxRuleLen)
		case !utf8.ValidString(r.Find) || !utf8.ValidString(r.Replace):
			return Policy{}, fmt.Errorf("%w: rule %d: invalid UTF-8", ErrCompare, i)
		}
	}
	slices.SortFunc(rs, func(x, y Rule) int {
		if c := strings.Compare(string(x.Kind), string(y.Kind)); c != 0 {
			return c
		}
		if c := strings.Compare(x.Find, y.Find); c != 0 {
			return c
		}
		return strings.Compare(x.Replace, y.Replace)
	})
	rs = slices.Compact(rs)
	if rs == nil {
		rs = []Rule{}
	}
	return Policy{Schema: SchemaComparisonPolicy, Ignored: slices.Clone(IgnoredMembers), Rules: rs}, nil
}

// Compare compares two receipts step by step (seed 002's scenario
// comparison applied to run receipts).
//
// Steps align by exact action id and visit. A step id that occurs twice
// in one receipt, a step without a counterpart and a step whose operation
// changed are alignment failures, as is a different capability id: they
// prevent an unchanged verdict, while differences observed elsewhere still
// prove a change. Each aligned step and each run-level artifact is
// changed, unchanged or unknown; missing evidence (a record count, download
// or approval absent, an input or output recorded in one run only) is
// unknown, never equal. Secret inputs carry no hash and compare by
// reference (name and presence) only.
//
// Normalization ignores timings and run identity ([IgnoredMembers]) and
// applies the caller rules ([WithRule]) to string values of their artifact
// kind, sorted canonically; the result commits to the policy by
// [Comparison.PolicyDigest]. [WithMaxChanges] bounds the retained change
// records; totals and omitted counts remain visible. Errors wrap
// [ErrCompare].
func Compare(a, b *Receipt, opts ...CompareOption) (*Comparison, error) {
	if a == nil || b == nil {
		return nil, fmt.Errorf("%w: nil receipt", ErrCompare)
	}
	cfg := compareConfig{maxChanges: DefaultMaxChanges}
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	if err := errors.Join(cfg.errs...); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrCompare, err)
	}
	pol, err := NormalizationPolicy(cfg.rules...)
	if err != nil {
		return nil, err
	}
	if err := checkCaptureConfig(&cfg, a, b, &pol); err != nil {
		return nil, err
	}
	pd, err := PolicyDigest(pol)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrCompare, err)
	}
	cmp := &comparer{rules: pol.Rules, max: cfg.maxChanges}
	cmp.setCaptures(&cfg)
	out := &Comparison{
		Schema: SchemaComparison, A: refOf(a), B: refOf(b), Policy: pol, PolicyDigest: pd,
		AlignmentFailures: []AlignmentFailure{}, Steps: []StepResult{}, Changes: []ArtifactChange{},
		MaxChanges: cfg.maxChanges,
	}
	cmp.out = out

	if a.Capability.ID != b.Capability.ID {
		out.AlignmentFailures = append(out.AlignmentFailures, AlignmentFailure{Code: AlignCapabilityMismatch,
			Message: "the runs executed different capabilities"})
	}
	cmp.steps(a, b)
	cmp.runArtifacts(a, b)
	cmp.captureRun(&cfg)

	t := &out.Totals
	switch {
	case t.Changed > 0:
		out.Verdict = StatusChanged
	case t.Unknown == 0 && len(out.AlignmentFailures) == 0:
		out.Verdict = StatusUnchanged
	default:
		out.Verdict = StatusUnknown
	}
	return out, nil
}

func refOf(r *Receipt) RunRef {
	return RunRef{RunID: r.RunID, CapabilityID: r.Capability.ID, Version: r.Capability.Version, ExecutionHash: r.Capability.ExecutionHash}
}

type comparer struct {
	rules []Rule
	max   int
	out   *Comparison
	// capture is the capture comparison state, nil without WithCaptures.
	capture *captureCmp
}

type stepKey struct {
	id    string
	visit int
}

func indexSteps(r *Receipt) (map[stepKey]int, map[stepKey]bool) {
	idx := map[stepKey]int{}
	dup := map[stepKey]bool{}
	for i, a := range r.Actions {
		k := stepKey{a.ID, a.Visit}
		if _, ok := idx[k]; ok {
			dup[k] = true
		}
		idx[k] = i
	}
	return idx, dup
}

func (c *comparer) align(code AlignCode, k stepKey, side, format string, args ...any) {
	c.out.AlignmentFailures = append(c.out.AlignmentFailures, AlignmentFailure{
		Code: code, Action: k.id, Visit: k.visit, Side: side, Message: fmt.Sprintf(format, args...)})
}

func (c *comparer) steps(a, b *Receipt) {
	ia, da := indexSteps(a)
	ib, db := indexSteps(b)
	reported := map[stepKey]bool{}
	for _, x := range a.Actions {
		k := stepKey{x.ID, x.Visit}
		if reported[k] {
			continue
		}
		reported[k] = true
		switch {
		case da[k] || db[k]:
			side := "a"
			if !da[k] {
				side = "b"
			} else if db[k] {
				side = ""
			}
			c.align(AlignDuplicate, k, side, "step %s visit %d occurs more than once", short(k.id), k.visit)
			continue
		}
		j, ok := ib[k]
		if !ok {
			c.align(AlignMissingInB, k, "b", "step %s visit %d has no counterpart in b", short(k.id), k.visit)
			continue
		}
		y := b.Actions[j]
		if x.Operation != y.Operation {
			c.align(AlignKindChanged, k, "", "step %s visit %d is %s in a and %s in b", short(k.id), k.visit, short(x.Operation), short(y.Operation))
			continue
		}
		c.step(&a.Actions[ia[k]], &y)
	}
	for _, y := range b.Actions {
		k := stepKey{y.ID, y.Visit}
		if reported[k] {
			continue
		}
		reported[k] = true
		if db[k] {
			c.align(AlignDuplicate, k, "b", "step %s visit %d occurs more than once", short(k.id), k.visit)
			continue
		}
		c.align(AlignMissingInA, k, "a", "step %s visit %d has no counterpart in a", short(k.id), k.visit)
	}
}

// step compares the artifacts of one aligned step; evidence a step lacks
// (records, download, approval) is missing, hence unknown.
func (c *comparer) step(x, y *ActionRecord) {
	k := stepKey{x.ID, x.Visit}
	status := StatusUnchanged
	merge := func(s ChangeStatus) {
		switch {
		case s == StatusChanged:
			status = StatusChanged
		case s == StatusUnknown && status == StatusUnchanged:
			status = StatusUnknown
		}
	}
	actionView := func(r *ActionRecord) any {
		return map[string]any{"milestone": r.Milestone, "effect": r.Effect, "status": r.Status,
			"locator_index": r.LocatorIndex, "postcondition": r.Postcondition, "recovered": r.Recovered}
	}
	merge(c.artifact(ArtifactAction, k, "", actionView(x), true, actionView(y), true))
	merge(c.artifact(ArtifactFailure, k, "", x.Failure, true, y.Failure, true))
	if x.Operation == string(capability.OpExtract) {
		merge(c.artifact(ArtifactRecords, k, "", x.Records, x.Records != nil, y.Records, y.Records != nil))
	}
	if x.Operation == string(capability.OpDownload) {
		merge(c.artifact(ArtifactDownload, k, "", x.Download, x.Download != nil, y.Download, y.Download != nil))
	}
	if x.Effect == string(capability.EffectConsequential) || y.Effect == string(capability.EffectConsequential) {
		merge(c.artifact(ArtifactApproval, k, "", x.Approval, x.Approval != nil, y.Approval, y.Approval != nil))
	}
	merge(c.captureStep(k))
	c.out.Steps = append(c.out.Steps, StepResult{Action: k.id, Visit: k.visit, Operation: x.Operation, Status: status})
	t := &c.out.Totals
	t.Steps++
	switch status {
	case StatusChanged:
		t.StepsChanged++
	case StatusUnknown:
		t.StepsUnknown++
	default:
		t.StepsUnchanged++
	}
}

func (c *comparer) runArtifacts(a, b *Receipt) {
	none := stepKey{}
	c.artifact(ArtifactCapability, none, "", a.Capability, true, b.Capability, true)
	c.artifact(ArtifactMode, none, "", modeOf(a), true, modeOf(b), true)
	c.artifact(ArtifactEnvironment, none, "", a.Environment, true, b.Environment, true)
	c.artifact(ArtifactMilestones, none, "", a.Milestones, true, b.Milestones, true)
	c.artifact(ArtifactTerminal, none, "", a.Terminal, true, b.Terminal, true)
	c.artifact(ArtifactOrigins, none, "", a.Origins, true, b.Origins, true)
	c.artifact(ArtifactBlocked, none, "", a.BlockedRequests, true, b.BlockedRequests, true)
	flags := func(r *Receipt) any {
		return map[string]bool{"clean": r.Clean, "recovered": r.Recovered, "handed_off": r.HandedOff,
			"locator_changes_during_run": r.LocatorChangesDuringRun}
	}
	c.artifact(ArtifactFlags, none, "", flags(a), true, flags(b), true)

	// Inputs and outputs by name, in a's order then b's.
	inA, inB := map[string]InputRecord{}, map[string]InputRecord{}
	var names []string
	for _, in := range a.Inputs {
		inA[in.Name] = in
		names = appendNew(names, in.Name)
	}
	for _, in := range b.Inputs {
		inB[in.Name] = in
		names = appendNew(names, in.Name)
	}
	for _, n := range names {
		x, okA := inA[n]
		y, okB := inB[n]
		// A secret input carries no hash: it compares by reference (name,
		// secret, presence), never by value.
		c.artifact(ArtifactInput, none, n, x, okA, y, okB)
	}
	outA, outB := map[string]OutputRecord{}, map[string]OutputRecord{}
	names = names[:0]
	for _, o := range a.Outputs {
		outA[o.Name] = o
		names = appendNew(names, o.Name)
	}
	for _, o := range b.Outputs {
		outB[o.Name] = o
		names = appendNew(names, o.Name)
	}
	for _, n := range names {
		x, okA := outA[n]
		y, okB := outB[n]
		c.artifact(ArtifactOutput, none, n, x, okA, y, okB)
	}
}

func appendNew(xs []string, x string) []string {
	if slices.Contains(xs, x) {
		return xs
	}
	return append(xs, x)
}

// artifact compares one artifact and records it; it returns its status.
func (c *comparer) artifact(kind ArtifactKind, k stepKey, name string, x any, okX bool, y any, okY bool) ChangeStatus {
	return c.record(kind, k, name, c.state(kind, x, okX), c.state(kind, y, okY))
}

// record counts one compared artifact and retains it when changed or
// unknown, within the bound; it returns its status.
func (c *comparer) record(kind ArtifactKind, k stepKey, name string, before, after ArtifactState) ChangeStatus {
	status := StatusUnknown
	if before.State == StatePresent && after.State == StatePresent {
		status = StatusUnchanged
		if before.Digest != after.Digest {
			status = StatusChanged
		}
	}
	t := &c.out.Totals
	t.Artifacts++
	switch status {
	case StatusUnchanged:
		t.Unchanged++
		return status
	case StatusChanged:
		t.Changed++
	default:
		t.Unknown++
	}
	if t.Retained < c.max {
		t.Retained++
		c.out.Changes = append(c.out.Changes, ArtifactChange{Kind: kind, Action: k.id, Visit: k.visit, Name: name,
			Status: status, Before: before, After: after})
	} else {
		t.Omitted++
	}
	return status
}

// state normalizes one side of an artifact and digests it.
func (c *comparer) state(kind ArtifactKind, v any, ok bool) ArtifactState {
	if !ok {
		return ArtifactState{State: StateMissing}
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return ArtifactState{State: StateMissing}
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var g any
	if err := dec.Decode(&g); err != nil {
		return ArtifactState{State: StateMissing}
	}
	var rules []Rule
	for _, r := range c.rules {
		if r.Kind == kind {
			rules = append(rules, r)
		}
	}
	g, within := normalize(g, rules)
	if !within {
		return ArtifactState{State: StateOverLimit}
	}
	d, err := canonjson.Digest(g)
	if err != nil {
		return ArtifactState{State: StateMissing}
	}
	return ArtifactState{State: StatePresent, Digest: d}
}

// normalize applies the rules to every string value (never to member
// names), bounded by MaxNormalizedLen.
func normalize(v any, rules []Rule) (any, bool) {
	if len(rules) == 0 {
		return v, true
	}
	switch x := v.(type) {
	case string:
		for _, r := range rules {
			if n := strings.Count(x, r.Find); n > 0 {
				if len(x)+n*(len(r.Replace)-len(r.Find)) > MaxNormalizedLen {
					return nil, false
				}
				x = strings.ReplaceAll(x, r.Find, r.Replace)
			}
		}
		return x, true
	case map[string]any:
		for k, e := range x {
			ne, ok := normalize(e, rules)
			if !ok {
				return nil, false
			}
			x[k] = ne
		}
		return x, true
	case []any:
		for i, e := range x {
			ne, ok := normalize(e, rules)
			if !ok {
				return nil, false
			}
			x[i] = ne
		}
		return x, true
	}
	return v, true
}
