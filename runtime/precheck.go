package runtime

import (
	"fmt"
	"net/url"
	"regexp"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/origin"
	"github.com/vera-run/vera/locator"
)

// Codes of the executor's own checks. They run on every Execute, even with
// WithSkipValidationUnsafe, because executing without them is unsafe.
const (
	codeUnknownEffect     capability.Code = "runtime_unknown_effect"
	codeConfirmation                      = "runtime_confirmation_mode"
	codeEffectCeiling                     = "runtime_effect_above_authority"
	codeUnknownOperation                  = "runtime_unknown_operation"
	codeOrigin                            = "runtime_bad_origin"
	codeURL                               = "runtime_url_not_allowed"
	codeTemplate                          = "runtime_template"
	codeReference                         = "runtime_unknown_reference"
	codeNoLocator                         = "runtime_missing_locator"
	codeExtraction                        = "runtime_extraction"
	codeFrames                            = "runtime_frame_path"
	codeMilestones                        = "runtime_milestones"
	codeTransition                        = "runtime_transition_target"
	codeOutcome                           = "runtime_business_outcome"
	codeSchema                            = "runtime_schema"
	codeDuplicateID                       = "runtime_duplicate_id"
	codeLimitInput                        = "runtime_limit_input"
	codeConditionShape                    = "runtime_condition"
	codeCandidateStrategy                 = "runtime_candidate"
)

// plan is what the executor derives once from a capability.
type plan struct {
	allowed  []string // normalized allowed origins
	subres   []string
	outcomes []*regexp.Regexp // compiled url patterns, nil when unset
}

// precheck runs the executor's own safety checks and returns every problem,
// one rule step after another (a prechecker method each).
func precheck(c *capability.Capability) (*plan, capability.ErrorList) {
	k := &prechecker{c: c, p: &plan{}, milestoneIDs: map[string]string{}, actionIDs: map[string]string{}}
	k.site()
	k.query("runtime.start_query", c.Runtime.StartQuery)
	k.milestones()
	k.outcomes()
	return k.p, k.errs
}

// prechecker collects the problems of one precheck and the plan it
// derives.
type prechecker struct {
	c            *capability.Capability
	p            *plan
	errs         capability.ErrorList
	milestoneIDs map[string]string // milestone id -> path of its first use
	actionIDs    map[string]string // action id -> path of its first use
	frame        []string          // the frame path of the milestone being checked
}

func (k *prechecker) add(path string, code capability.Code, format string, a ...any) {
	k.errs = append(k.errs, &capability.Error{Path: path, Code: code, Message: fmt.Sprintf(format, a...)})
}

// site checks the schema, the origins (filling the plan's), the start URL
// and the frame selectors.
func (k *prechecker) site() {
	c, p := k.c, k.p
	if c.Schema != capability.SchemaV1 {
		k.add("schema", codeSchema, "schema must be %q", capability.SchemaV1)
	}
	if len(c.Site.AllowedOrigins) == 0 {
		k.add("site.allowed_origins", codeOrigin, "at least one allowed origin is required")
	}
	for i, o := range c.Site.AllowedOrigins {
		n, ok := normalizeOrigin(o)
		if !ok || !safeScheme(n) {
			k.add(fmt.Sprintf("site.allowed_origins[%d]", i), codeOrigin, "not an https origin (or an http loopback origin with a port)")
			continue
		}
		p.allowed = append(p.allowed, n)
	}
	for i, o := range c.Site.SubresourceOrigins {
		n, ok := normalizeOrigin(o)
		if !ok || !safeScheme(n) {
			k.add(fmt.Sprintf("site.subresource_origins[%d]", i), codeOrigin, "not an https origin (or an http loopback origin with a port)")
			continue
		}
		p.subres = append(p.subres, n)
	}
	if len(p.allowed) > 0 {
		if _, err := resolveURL(c.Runtime.Start, c.Runtime.StartQuery, p.allowed, nil); err != nil {
			k.add("runtime.start", codeURL, "%v", err)
		}
	}
	checkFramePath("runtime.frame_selectors", c.Runtime.FrameSelectors, k.add)
}

// templates checks that s's {{input}} templates are well formed and name
// declared inputs.
func (k *prechecker) templates(path, s string) {
	c := k.c
	names, ok := templateNames(s)
	if !ok {
		k.add(path, codeTemplate, "malformed {{input}} template")
	}
	for _, n := range names {
		if _, ok := c.Input(n); !ok {
			k.add(path, codeTemplate, "template refers to an undeclared input %q", n)
		}
	}
}

// cands checks locator candidates: known strategies, no nested scope, and
// their templates.
func (k *prechecker) cands(path string, cs []locator.Candidate) {
	for i, cand := range cs {
		cp := fmt.Sprintf("%s.locator_candidates[%d]", path, i)
		if !cand.Strategy.Valid() {
			k.add(cp, codeCandidateStrategy, "unknown locator strategy")
		}
		for _, v := range []string{cand.Name, cand.Label, cand.Placeholder, cand.TestID, cand.Text, cand.CSS} {
			k.templates(cp, v)
		}
		if sc := cand.Scope; sc != nil {
			if !sc.Strategy.Valid() || sc.Scope != nil {
				k.add(cp+".scope", codeCandidateStrategy, "unknown locator strategy or nested scope")
			}
			for _, v := range []string{sc.Name, sc.Label, sc.Placeholder, sc.TestID, sc.Text, sc.CSS} {
				k.templates(cp+".scope", v)
			}
		}
	}
}

// scope checks a condition's scope.
func (k *prechecker) scope(path string, cond *capability.Condition) {
	if msg := scopeProblem(k.frame, cond); msg != "" {
		k.add(path+".scope", codeConditionShape, "%s", msg)
	}
}

// query checks query entries: templates, and never a secret input.
func (k *prechecker) query(path string, q []capability.QueryEntry) {
	c := k.c
	for i, e := range q {
		k.templates(fmt.Sprintf("%s[%d].value", path, i), e.Value)
		if secretTemplate(c, e.Value) {
			k.add(fmt.Sprintf("%s[%d].value", path, i), codeTemplate, "a query value never templates a secret input")
		}
	}
}

// cond checks a transition condition or a postcondition.
func (k *prechecker) cond(path string, cond *capability.Condition, postcondition bool) {
	c := k.c
	k.scope(path, cond)
	switch cond.Kind {
	case capability.CondLocatorVisible, capability.CondLocatorHidden:
		if len(cond.LocatorCandidates) == 0 {
			k.add(path, codeConditionShape, "a locator condition needs locator candidates")
		}
	case capability.CondTextVisible:
		if cond.Text == "" {
			k.add(path, codeConditionShape, "text_visible needs text")
		}
	case capability.CondURLIncludes, capability.CondURLPath:
		if cond.Value == "" {
			k.add(path, codeConditionShape, "a URL condition needs a value")
		}
	case capability.CondOutputProduced, capability.CondDownloadCompleted:
	case capability.CondAlways:
		if postcondition {
			k.add(path, codeConditionShape, "always is never a postcondition")
		}
	default:
		k.add(path, codeConditionShape, "unknown condition kind %q", cond.Kind)
	}
	if cond.Output != "" {
		if _, ok := c.Output(cond.Output); !ok {
			k.add(path, codeReference, "undeclared output %q", cond.Output)
		}
	}
	k.cands(path, cond.LocatorCandidates)
	k.templates(path+".text", cond.Text)
	k.templates(path+".value", cond.Value)
}

// milestones checks the milestones, their transitions and their actions.
func (k *prechecker) milestones() {
	c := k.c
	if len(c.Milestones) == 0 {
		k.add("milestones", codeMilestones, "at least one milestone is required")
	}
	for mi := range c.Milestones {
		k.milestone(fmt.Sprintf("milestones[%d]", mi), &c.Milestones[mi])
	}
}

// milestone checks one milestone: its id, transitions and actions.
func (k *prechecker) milestone(mp string, m *capability.Milestone) {
	c := k.c
	k.frame = c.FramePath(m)
	checkMilestoneFrames(c, mp, m, k.add)
	if m.ID == "" || m.ID == capability.TerminalCompleted {
		k.add(mp+".id", codeMilestones, "a milestone needs an id other than %q", capability.TerminalCompleted)
	} else if prev, dup := k.milestoneIDs[m.ID]; dup {
		k.add(mp+".id", codeDuplicateID, "id %q already used at %s", m.ID, prev)
	} else {
		k.milestoneIDs[m.ID] = mp
	}
	for ti := range m.Transitions {
		tr := &m.Transitions[ti]
		tp := fmt.Sprintf("%s.transitions[%d]", mp, ti)
		if tr.To != capability.TerminalCompleted {
			if _, _, ok := c.Milestone(tr.To); !ok {
				k.add(tp+".to", codeTransition, "unknown transition target %q", tr.To)
			}
		}
		k.cond(tp+".when", &tr.When, false)
	}
	for ai := range m.Actions {
		k.action(fmt.Sprintf("%s.actions[%d]", mp, ai), &m.Actions[ai])
	}
}

// action checks one action: id, effect and confirmation, operation,
// locators, references, URL and query, extraction or download, and
// postcondition.
func (k *prechecker) action(ap string, a *capability.Action) {
	c, p := k.c, k.p
	if a.ID == "" {
		k.add(ap+".id", codeMilestones, "an action needs an id")
	} else if prev, dup := k.actionIDs[a.ID]; dup {
		k.add(ap+".id", codeDuplicateID, "id %q already used at %s", a.ID, prev)
	} else {
		k.actionIDs[a.ID] = ap
	}
	if !a.Effect.Valid() {
		k.add(ap+".effect", codeUnknownEffect, "unknown effect %q", a.Effect)
	} else {
		want := capability.ConfirmNone
		if a.Effect == capability.EffectConsequential {
			want = capability.ConfirmActionTime
		}
		if a.Confirmation != want {
			k.add(ap+".confirmation", codeConfirmation, "a %s action requires confirmation %q", a.Effect, want)
		}
		if k.c.Authority.MaxEffect.Valid() && a.Effect.Rank() > k.c.Authority.MaxEffect.Rank() {
			k.add(ap+".effect", codeEffectCeiling, "effect %s is above the authority ceiling %s", a.Effect, k.c.Authority.MaxEffect)
		}
	}
	known := false
	for _, op := range capability.Operations() {
		if op == a.Operation {
			known = true
		}
	}
	if !known {
		k.add(ap+".operation", codeUnknownOperation, "unknown operation %q", a.Operation)
	}
	if (a.Operation.Interactive() || a.Operation == capability.OpExtract) && len(a.LocatorCandidates) == 0 {
		k.add(ap+".locator_candidates", codeNoLocator, "a %s action needs locator candidates", a.Operation)
	}
	k.cands(ap, a.LocatorCandidates)
	k.templates(ap+".value", a.Value)
	if a.Input != "" {
		if _, ok := c.Input(a.Input); !ok {
			k.add(ap+".input", codeReference, "undeclared input %q", a.Input)
		}
	}
	if a.Operation == capability.OpNavigate && len(p.allowed) > 0 {
		if _, err := resolveURL(a.URL, a.Query, p.allowed, nil); err != nil {
			k.add(ap+".url", codeURL, "%v", err)
		}
		k.templates(ap+".url", a.URL)
		k.query(ap+".query", a.Query)
	} else if len(a.Query) > 0 {
		k.add(ap+".query", codeURL, "only a navigate action has a query")
	}
	switch a.Operation {
	case capability.OpExtract:
		k.extraction(ap, a)
	case capability.OpDownload:
		out, ok := c.Output(a.Output)
		if !ok || out.Kind != capability.OutputDownloadSet {
			k.add(ap+".output", codeReference, "a download fills a declared download_set output")
		}
	}
	if a.Postcondition != nil {
		k.cond(ap+".postcondition", a.Postcondition, true)
	}
}

// extraction checks an extract action's output and extract block.
func (k *prechecker) extraction(ap string, a *capability.Action) {
	c := k.c
	out, ok := c.Output(a.Output)
	if !ok {
		k.add(ap+".output", codeReference, "undeclared output %q", a.Output)
	}
	if a.Extract == nil {
		k.add(ap+".extract", codeExtraction, "an extract action needs an extract block")
		return
	}
	x := a.Extract
	switch x.Mode {
	case capability.ExtractText:
		if ok && out.Kind != capability.OutputText {
			k.add(ap+".output", codeExtraction, "text mode fills a text output")
		}
	case capability.ExtractSingle:
		if ok && out.Kind != capability.OutputRecord && out.Kind != capability.OutputRecordSet {
			k.add(ap+".output", codeExtraction, "single mode fills a record or record_set output")
		}
	case capability.ExtractList:
		if ok && out.Kind != capability.OutputRecordSet {
			k.add(ap+".output", codeExtraction, "list mode fills a record_set output")
		}
		if x.MaxRecords < 1 || x.MaxRecords > MaxRecords {
			k.add(ap+".extract.max_records", codeExtraction, "list mode needs max_records in [1, %d]", MaxRecords)
		}
	default:
		k.add(ap+".extract.mode", codeExtraction, "unknown extraction mode %q", x.Mode)
	}
	fields := map[string]bool{}
	for fi := range x.Fields {
		f := &x.Fields[fi]
		fields[f.Name] = true
		k.cands(fmt.Sprintf("%s.extract.fields[%d]", ap, fi), f.LocatorCandidates)
		if f.Read == capability.ReadAttribute && f.Attribute == "" {
			k.add(fmt.Sprintf("%s.extract.fields[%d].attribute", ap, fi), codeExtraction, "an attribute read names the attribute")
		}
	}
	for _, n := range append(append([]string{}, x.RequiredFields...), x.DedupeKeys...) {
		if !fields[n] {
			k.add(ap+".extract", codeExtraction, "unknown field %q in required_fields or dedupe_keys", n)
		}
	}
	if x.LimitInput != "" {
		in, ok := c.Input(x.LimitInput)
		if !ok || in.Type != capability.InputInteger {
			k.add(ap+".extract.limit_input", codeLimitInput, "the limit input must be a declared integer input")
		}
	}
}

// outcomes checks the business outcomes' detect rules and compiles their
// URL patterns into the plan.
func (k *prechecker) outcomes() {
	c, p := k.c, k.p
	for i := range c.BusinessOutcomes {
		o := &c.BusinessOutcomes[i]
		op := fmt.Sprintf("business_outcomes[%d]", i)
		d := o.Detect
		if d.VisibleText == "" && d.URLPattern == "" && len(d.LocatorCandidates) == 0 {
			k.add(op+".detect", codeOutcome, "at least one detect rule is required")
		}
		var re *regexp.Regexp
		if d.URLPattern != "" {
			var err error
			if re, err = regexp.Compile(d.URLPattern); err != nil {
				k.add(op+".detect.url_pattern", codeOutcome, "not a Go regular expression")
			}
		}
		p.outcomes = append(p.outcomes, re)
		k.templates(op+".detect.visible_text", d.VisibleText)
		k.cands(op+".detect", d.LocatorCandidates)
	}
}

// normalizeOrigin returns scheme://host[:port] in lower case with default
// ports removed, or false when s is not exactly an origin
// (internal/origin's rules).
func normalizeOrigin(s string) (string, bool) {
	o, err := origin.Normalize(s)
	return o, err == nil
}

// originOf returns the normalized origin of an absolute URL, "" when it
// has none.
func originOf(u *url.URL) string {
	if o, ok := origin.OfURL(u); ok {
		return o.String()
	}
	return ""
}

// safeScheme reports whether a normalized origin keeps the HTTPS rule:
// https, or http on a loopback host with an explicit port.
func safeScheme(o string) bool {
	p, err := origin.Parse(o)
	return err == nil && p.Secure()
}

func containsString(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}
