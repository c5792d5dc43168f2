package convert

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/ident"
	"github.com/vera-run/vera/locator"
)

// The seed 004 artifact (apps/engine/src/artifact.ts), read strictly: a
// member without omitempty is required; the locator union is checked by
// hand because its members depend on the strategy.
type seedDoc struct {
	ID               string        `json:"id"`
	Version          string        `json:"version"`
	Name             string        `json:"name,omitempty"`
	Goal             string        `json:"goal"`
	TargetApp        string        `json:"targetApp"`
	Risk             string        `json:"risk"`
	Reviewed         bool          `json:"reviewed"`
	CreatedAt        string        `json:"createdAt"`
	DiscoveryModel   string        `json:"discoveryModel"`
	DiscoveryRunID   string        `json:"discoveryRunId"`
	Inputs           []seedInput   `json:"inputs"`
	Outputs          []seedOutput  `json:"outputs"`
	Steps            []seedStep    `json:"steps"`
	Checkpoint       *seedCheck    `json:"checkpoint,omitempty"`
	BusinessOutcomes []seedOutcome `json:"businessOutcomes,omitempty"`
}

type seedInput struct {
	Name        string   `json:"name"`
	Type        string   `json:"type"`
	Required    *bool    `json:"required,omitempty"`
	Description string   `json:"description,omitempty"`
	Values      []string `json:"values,omitempty"`
}

type seedOutput struct {
	Name        string `json:"name"`
	Type        string `json:"type"`
	Description string `json:"description,omitempty"`
}

type seedStep struct {
	Intent     string      `json:"intent"`
	Action     string      `json:"action"`
	URL        string      `json:"url,omitempty"`
	Target     *seedTarget `json:"target,omitempty"`
	Input      string      `json:"input,omitempty"`
	Value      *string     `json:"value,omitempty"`
	Key        string      `json:"key,omitempty"`
	Output     string      `json:"output,omitempty"`
	TimeoutMS  int         `json:"timeoutMs,omitempty"`
	Checkpoint *seedCheck  `json:"checkpoint,omitempty"`
}

type seedTarget struct {
	Primary    seedLocator   `json:"primary"`
	Fallbacks  []seedLocator `json:"fallbacks,omitempty"`
	Robustness string        `json:"robustness,omitempty"`
}

type seedLocator struct {
	Strategy string  `json:"strategy"`
	Role     *string `json:"role,omitempty"`
	Name     *string `json:"name,omitempty"`
	Exact    *bool   `json:"exact,omitempty"`
	CSS      *string `json:"css,omitempty"`
	Text     *string `json:"text,omitempty"`
}

type seedCheck struct {
	URLPattern      string      `json:"urlPattern,omitempty"`
	VisibleText     string      `json:"visibleText,omitempty"`
	RequiredElement *seedTarget `json:"requiredElement,omitempty"`
}

type seedOutcome struct {
	Code        string    `json:"code"`
	Description string    `json:"description,omitempty"`
	Detect      seedCheck `json:"detect"`
}

// The seed's closed vocabularies.
var (
	seedActions    = map[string]bool{"navigate": true, "click": true, "type": true, "select": true, "press": true, "wait": true, "extract": true}
	seedInputTypes = map[string]capability.InputType{"string": capability.InputString, "number": capability.InputNumber, "boolean": capability.InputBoolean, "enum": capability.InputEnum}
	semverRE       = regexp.MustCompile(capability.SemverPattern)
)

// seedConv holds one import.
type seedConv struct {
	o      *options
	r      *Report
	errs   SourceErrors
	c      *capability.Capability
	rename map[string]string // source input name -> capability name
	outs   map[string]string // source output name -> capability name
	filled map[string]bool   // capability outputs an extract fills
}

func (s *seedConv) fail(path, code, format string, a ...any) {
	s.errs = append(s.errs, &SourceError{Format: FormatSeed004, Path: path, Code: code, Message: fmt.Sprintf(format, a...)})
}

// FromSeed004 imports a seed 004 artifact as a capability that still needs
// review: a scaffold, or a draft when [WithDiscoveryHash] names the
// discovery record. It returns the capability, the report of what became of
// every source value, and an error matching [ErrInvalidSource] for a
// source it refuses (a SourceErrors listing every problem) or
// [ErrInvalidDraft] when the mapping does not validate. See the package
// documentation for the mapping.
func FromSeed004(raw []byte, opts ...Option) (*capability.Capability, *Report, error) {
	o, err := buildOptions(opts)
	if err != nil {
		return nil, nil, err
	}
	var d seedDoc
	generic, errs := decodeStrict(FormatSeed004, raw, &d)
	if len(errs) > 0 {
		return nil, nil, errs
	}
	s := &seedConv{o: o, r: &Report{Format: FormatSeed004}, rename: map[string]string{}, outs: map[string]string{}, filled: map[string]bool{}}
	s.convert(&d)
	if len(s.errs) > 0 {
		return nil, nil, s.errs
	}
	s.r.finish(generic)
	if problems := s.c.Validate(); len(problems) > 0 {
		return nil, s.r, &DraftError{Format: FormatSeed004, Problems: problems}
	}
	o.logger.Debug("seed 004 artifact imported", "id", s.c.ID, "state", s.c.State, "entries", len(s.r.Entries), "unmapped", len(s.r.Unmapped()))
	return s.c, s.r, nil
}

func (s *seedConv) convert(d *seedDoc) {
	r := s.r
	c := &capability.Capability{Schema: capability.SchemaV1, State: capability.StateScaffold}
	s.c = c

	// Identity.
	if !ident.ValidID(d.ID) {
		s.fail("id", CodeBadValue, "%q is not a capability id (lowercase words joined by . - or _)", d.ID)
	}
	c.ID = d.ID
	r.add(Mapped, "id", "id", "")
	if !semverRE.MatchString(d.Version) {
		s.fail("version", CodeBadValue, "%q is not a semantic version", d.Version)
	}
	c.Version = d.Version
	r.add(Mapped, "version", "version", "")
	if strings.TrimSpace(d.Goal) == "" {
		s.fail("goal", CodeBadValue, "the goal is blank")
	}
	c.Goal = d.Goal
	r.add(Mapped, "goal", "goal", "")
	if d.Name != "" {
		c.Name = d.Name
		r.add(Mapped, "name", "name", "")
	} else {
		c.Name = d.ID
		r.review("the artifact has no name; the capability is named by its id")
	}
	if strings.TrimSpace(d.TargetApp) == "" {
		s.fail("targetApp", CodeBadValue, "the target app is blank")
	}
	c.Site.Name = d.TargetApp
	r.add(Mapped, "targetApp", "site.name", "the allowed origins are derived from the navigate steps")
	switch d.Risk {
	case "safe":
		c.Authority.MaxEffect = capability.EffectReadOnly
		r.add(Mapped, "risk", "authority.max_effect", "safe: every action is read_only; a reviewer confirms no step changes anything")
	case "risky":
		c.Authority.MaxEffect = capability.EffectConsequential
		r.add(Mapped, "risk", "authority.max_effect", "risky: every click, press and select is consequential with action-time confirmation (approval), the safe over-approximation")
		r.review("risky artifact: every click, press and select is marked consequential; narrow the effects to the steps that really change something")
	default:
		s.fail("risk", CodeBadValue, "risk %q is not safe or risky", d.Risk)
	}
	r.keep("reviewed", fmt.Sprint(d.Reviewed), fmt.Sprintf("reviewed=%v is the source's own review; a review of the artifact is not an operator review of a discovery record, so the import claims state %s only", d.Reviewed, stateFor(s.o)))
	if _, err := time.Parse(time.RFC3339, d.CreatedAt); err != nil {
		s.fail("createdAt", CodeBadValue, "createdAt %q is not an RFC 3339 time", d.CreatedAt)
	}
	r.keep("createdAt", d.CreatedAt, "a capability has no creation time; the import report keeps it")
	if strings.TrimSpace(d.DiscoveryModel) == "" {
		s.fail("discoveryModel", CodeBadValue, "the discovery model is blank")
	}
	if strings.TrimSpace(d.DiscoveryRunID) == "" {
		s.fail("discoveryRunId", CodeBadValue, "the discovery run id is blank")
	}
	if s.o.discoveryHash != "" {
		c.State = capability.StateDraft
		c.Provenance = &capability.Provenance{DiscoveryHash: s.o.discoveryHash, DiscoveryModel: d.DiscoveryModel, DiscoveryRunID: d.DiscoveryRunID}
		r.add(Mapped, "discoveryModel", "provenance.discovery_model", "")
		r.add(Mapped, "discoveryRunId", "provenance.discovery_run_id", "")
	} else {
		r.keep("discoveryModel", d.DiscoveryModel, "no discovery record hash was given (WithDiscoveryHash), and provenance without one would claim a record; the import report keeps it")
		r.keep("discoveryRunId", d.DiscoveryRunID, "no discovery record hash was given (WithDiscoveryHash); the import report keeps it")
	}
	c.Privacy.DataClasses = []string{}
	r.review("declare privacy.data_classes: the artifact does not name the private data the process reads")

	s.inputs(d.Inputs)
	s.outputs(d.Outputs)
	s.steps(d)
	s.outcomes(d.BusinessOutcomes)
	for i, o := range d.Outputs {
		if name := s.outs[o.Name]; name != "" && !s.filled[name] {
			s.fail(idx("outputs", i), CodeUnsupported, "output %q is declared but no extract step fills it", o.Name)
		}
	}
}

func stateFor(o *options) capability.State {
	if o.discoveryHash != "" {
		return capability.StateDraft
	}
	return capability.StateScaffold
}

func (s *seedConv) inputs(ins []seedInput) {
	seen := map[string]bool{}
	s.c.Inputs = []capability.Input{}
	for i, in := range ins {
		p := idx("inputs", i)
		t := fmt.Sprintf("inputs[%d]", len(s.c.Inputs))
		name := snake(in.Name)
		if !ident.ValidName(name) {
			s.fail(p+".name", CodeBadValue, "input name %q has no snake_case form", in.Name)
			continue
		}
		if seen[name] {
			s.fail(p+".name", CodeBadValue, "input name %q repeats %q", in.Name, name)
			continue
		}
		seen[name] = true
		s.rename[in.Name] = name
		ci := capability.Input{Name: name, Description: in.Description, Required: in.Required != nil && *in.Required}
		note := ""
		if name != in.Name {
			note = fmt.Sprintf("renamed %q to snake_case %q; {{%s}} templates follow", in.Name, name, in.Name)
		}
		s.r.add(Mapped, p+".name", t+".name", note)
		typ, ok := seedInputTypes[in.Type]
		if !ok {
			s.fail(p+".type", CodeBadValue, "input type %q is not string, number, boolean or enum", in.Type)
		}
		ci.Type = typ
		s.r.add(Mapped, p+".type", t+".type", "")
		if in.Type == "enum" && len(in.Values) == 0 {
			s.fail(p+".values", CodeMissingMember, "an enum input lists its allowed values")
		}
		if in.Type != "enum" && in.Values != nil {
			s.fail(p+".values", CodeBadValue, "only an enum input lists allowed values")
		}
		if in.Values != nil {
			ci.Values = in.Values
			s.r.add(Mapped, p+".values", t+".values", "")
		}
		if in.Required != nil {
			s.r.add(Mapped, p+".required", t+".required", "")
		}
		if in.Description != "" {
			s.r.add(Mapped, p+".description", t+".description", "")
		}
		if secretName(name) {
			ci.Secret = true
			s.r.add(Derived, p+".name", t+".secret", "the name says credential: the input is secret (never persisted, logged or defaulted)")
		}
		s.c.Inputs = append(s.c.Inputs, ci)
	}
	if ins == nil {
		s.r.add(Mapped, "inputs", "inputs", "")
	} else if len(ins) == 0 {
		s.r.add(Mapped, "inputs", "inputs", "no inputs")
	}
}

func (s *seedConv) outputs(outs []seedOutput) {
	seen := map[string]bool{}
	s.c.Outputs = []capability.Output{}
	for i, o := range outs {
		p := idx("outputs", i)
		t := fmt.Sprintf("outputs[%d]", len(s.c.Outputs))
		name := snake(o.Name)
		if !ident.ValidName(name) || seen[name] {
			s.fail(p+".name", CodeBadValue, "output name %q has no unique snake_case form", o.Name)
			continue
		}
		seen[name] = true
		s.outs[o.Name] = name
		note := ""
		if name != o.Name {
			note = fmt.Sprintf("renamed %q to snake_case %q", o.Name, name)
		}
		s.r.add(Mapped, p+".name", t+".name", note)
		switch o.Type {
		case "string":
			s.r.add(Mapped, p+".type", t+".kind", "a string output is a text output, read by an extract step in text mode")
		case "number", "boolean":
			s.r.add(Unmapped, p+".type", "", fmt.Sprintf("a %s output becomes a text output: a text output carries the visible text, uncoerced; a reviewer may model it as a record field of that type", o.Type))
		default:
			s.fail(p+".type", CodeBadValue, "output type %q is not string, number or boolean", o.Type)
		}
		if o.Description != "" {
			s.r.add(Mapped, p+".description", t+".description", "")
		}
		s.c.Outputs = append(s.c.Outputs, capability.Output{Name: name, Kind: capability.OutputText, Exposure: capability.ExposureArtifactOnly, Description: o.Description, Required: true})
		s.r.review(fmt.Sprintf("output %q is artifact_only (never returned to the model) until a reviewer chooses its exposure", name))
	}
	if len(outs) == 0 {
		s.r.add(Mapped, "outputs", "outputs", "no outputs")
	}
}

// candidates maps a target onto locator candidates: the primary first,
// then the fallbacks in recorded order; the robustness note goes on the
// primary.
func (s *seedConv) candidates(p, t string, tg *seedTarget) []locator.Candidate {
	var cs []locator.Candidate
	add := func(lp string, l seedLocator) {
		c, ok := s.locator(lp, l)
		if ok {
			s.r.add(Mapped, lp, fmt.Sprintf("%s[%d]", t, len(cs)), "")
			cs = append(cs, c)
		}
	}
	add(p+".primary", tg.Primary)
	for i, f := range tg.Fallbacks {
		add(idx(p+".fallbacks", i), f)
	}
	if len(tg.Fallbacks) == 0 && tg.Fallbacks != nil {
		s.r.add(Mapped, p+".fallbacks", t, "no fallbacks")
	}
	if tg.Robustness != "" && len(cs) > 0 && !allCSS(cs) {
		cs[0].Note = tg.Robustness
		s.r.add(Mapped, p+".robustness", t+"[0].note", "")
	}
	if len(cs) > locator.MaxCandidates {
		s.fail(p, CodeBadValue, "%d locators, over the limit of %d", len(cs), locator.MaxCandidates)
	}
	return cs
}

// allCSS reports whether every candidate is a CSS candidate: a target
// with no semantic handle, whose robustness note becomes the action's
// css_only_reason (the capability's honest declaration of a CSS-only
// target) instead of a note.
func allCSS(cs []locator.Candidate) bool {
	for _, c := range cs {
		if c.Strategy != locator.CSS {
			return false
		}
	}
	return true
}

// locator checks the strict union on strategy and maps one locator.
func (s *seedConv) locator(p string, l seedLocator) (locator.Candidate, bool) {
	var c locator.Candidate
	foreign := func(present bool, member string) {
		if present {
			s.fail(p+"."+member, CodeUnknownMember, "member %q does not belong to strategy %q", member, l.Strategy)
		}
	}
	n := len(s.errs)
	switch l.Strategy {
	case "a11y":
		foreign(l.CSS != nil, "css")
		foreign(l.Text != nil, "text")
		if l.Role == nil {
			s.fail(p+".role", CodeMissingMember, "an a11y locator names a role")
			break
		}
		c = locator.Candidate{Strategy: locator.Role, Role: *l.Role}
		if l.Name != nil {
			c.Name = *l.Name
		}
	case "css":
		foreign(l.Role != nil, "role")
		foreign(l.Name != nil, "name")
		foreign(l.Text != nil, "text")
		foreign(l.Exact != nil, "exact")
		if l.CSS == nil {
			s.fail(p+".css", CodeMissingMember, "a css locator has a selector")
			break
		}
		c = locator.Candidate{Strategy: locator.CSS, CSS: *l.CSS}
	case "text":
		foreign(l.Role != nil, "role")
		foreign(l.Name != nil, "name")
		foreign(l.CSS != nil, "css")
		if l.Text == nil {
			s.fail(p+".text", CodeMissingMember, "a text locator has a text")
			break
		}
		c = locator.Candidate{Strategy: locator.Text, Text: *l.Text}
	default:
		s.fail(p+".strategy", CodeBadValue, "strategy %q is not a11y, css or text", l.Strategy)
	}
	if l.Exact != nil {
		c.Exact = *l.Exact
	}
	if len(s.errs) > n {
		return c, false
	}
	var unknown []string
	for _, f := range []*string{&c.Name, &c.Text} {
		*f, unknown = renameTemplates(*f, s.rename)
		for _, u := range unknown {
			s.fail(p, CodeBadValue, "template {{%s}} names no declared input", u)
		}
	}
	for _, pr := range c.Check() {
		s.fail(p, CodeBadValue, "%s (%s)", pr.Detail, pr.Code)
	}
	return c, len(s.errs) == n
}

// conditions maps a checkpoint onto the conditions that must all hold.
func (s *seedConv) conditions(p string, t func(k int) string, ck *seedCheck) []capability.Condition {
	var out []capability.Condition
	if ck.URLPattern != "" {
		cond, exact, ok, err := urlCondition(ck.URLPattern)
		switch {
		case err != nil:
			s.fail(p+".urlPattern", CodeBadValue, "not a regular expression: %v", err)
		case !ok:
			s.r.add(Unmapped, p+".urlPattern", "", "a capability condition matches a URL path or a literal part of the URL, not a regular expression, and this pattern has no literal part; a reviewer must add a condition")
		case exact:
			s.r.add(Mapped, p+".urlPattern", t(len(out)), "")
			out = append(out, cond)
		default:
			s.r.add(Weakened, p+".urlPattern", t(len(out)), fmt.Sprintf("the pattern %q became %s %q, which every matching URL satisfies but which is weaker; a reviewer should strengthen it", ck.URLPattern, cond.Kind, cond.Value))
			out = append(out, cond)
		}
	}
	if ck.VisibleText != "" {
		txt, unknown := renameTemplates(ck.VisibleText, s.rename)
		for _, u := range unknown {
			s.fail(p+".visibleText", CodeBadValue, "template {{%s}} names no declared input", u)
		}
		s.r.add(Mapped, p+".visibleText", t(len(out)), "text_visible")
		out = append(out, capability.Condition{Kind: capability.CondTextVisible, Text: txt})
	}
	if ck.RequiredElement != nil {
		cs := s.candidates(p+".requiredElement", t(len(out))+".locator_candidates", ck.RequiredElement)
		out = append(out, capability.Condition{Kind: capability.CondLocatorVisible, LocatorCandidates: cs})
	}
	if ck.URLPattern == "" && ck.VisibleText == "" && ck.RequiredElement == nil {
		s.fail(p, CodeMissingMember, "a checkpoint sets urlPattern, visibleText or requiredElement")
	}
	return out
}
