package convert

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/ident"
	"github.com/vera-run/vera/locator"
)

// seedOps maps the seed's action vocabulary onto capability operations.
var seedOps = map[string]capability.Operation{
	"navigate": capability.OpNavigate, "click": capability.OpClick, "type": capability.OpFill,
	"select": capability.OpSelect, "press": capability.OpPress, "wait": capability.OpWait, "extract": capability.OpExtract,
}

// segments groups step indexes into milestones: a navigate step after the
// first starts a new milestone, and a step with its own checkpoint ends
// one (the checkpoint is the proof the part arrived).
func segments(steps []seedStep) [][]int {
	var out [][]int
	var cur []int
	for i, st := range steps {
		if st.Action == "navigate" && len(cur) > 0 {
			out, cur = append(out, cur), nil
		}
		cur = append(cur, i)
		if st.Checkpoint != nil {
			out, cur = append(out, cur), nil
		}
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

// built is one step's action plus the wait actions of the rest of its
// checkpoint, before grouping.
type built struct {
	a     capability.Action
	cands []locator.Candidate
	extra []capability.Condition
}

func (s *seedConv) steps(d *seedDoc) {
	r := s.r
	if len(d.Steps) == 0 {
		s.fail("steps", CodeMissingMember, "an artifact has at least one step")
		return
	}
	if d.Steps[0].Action != "navigate" {
		s.fail("steps[0].action", CodeUnsupported, "the first step must navigate: a capability run begins at its declared start")
	}
	segs := segments(d.Steps)
	final := len(segs)
	// Where each step's action lands.
	mIdx, aIdx := make([]int, len(d.Steps)), make([]int, len(d.Steps))
	for m, seg := range segs {
		n := 0
		for _, i := range seg {
			mIdx[i], aIdx[i] = m, n
			n++
			if ck := d.Steps[i].Checkpoint; ck != nil {
				n += countConds(ck)
				if !ownProof(d.Steps[i]) {
					n--
				}
			}
		}
	}
	var finalConds []capability.Condition
	if d.Checkpoint != nil {
		finalConds = s.conditions("checkpoint", func(k int) string {
			return fmt.Sprintf("milestones[%d].actions[%d].postcondition", final, k)
		}, d.Checkpoint)
	} else {
		r.review("the artifact has no checkpoint: the run is proven only by each step's postcondition; add a final condition")
	}

	bs := make([]built, len(d.Steps))
	origins := map[string]bool{}
	for i := range d.Steps {
		bs[i] = s.step(d, i, fmt.Sprintf("milestones[%d].actions[%d]", mIdx[i], aIdx[i]), origins)
	}
	// Postconditions a click or press proves by what comes next.
	for i := range d.Steps {
		b := &bs[i]
		if b.a.Postcondition != nil || (b.a.Operation != capability.OpClick && b.a.Operation != capability.OpPress) {
			continue
		}
		tgt := fmt.Sprintf("milestones[%d].actions[%d].postcondition", mIdx[i], aIdx[i])
		switch {
		case i+1 < len(d.Steps) && len(bs[i+1].cands) > 0 && d.Steps[i+1].Action != "navigate":
			b.a.Postcondition = &capability.Condition{Kind: capability.CondLocatorVisible, LocatorCandidates: bs[i+1].cands}
			r.add(Derived, idx("steps", i+1)+".target", tgt, fmt.Sprintf("step %d has no checkpoint; its proof is that the next step's element is visible", i+1))
		case (i+1 == len(d.Steps) || d.Steps[i+1].Action == "navigate") && len(finalConds) > 0:
			c := finalConds[0]
			b.a.Postcondition = &c
			r.add(Derived, "checkpoint", tgt, fmt.Sprintf("step %d has no checkpoint; its proof is the artifact's checkpoint", i+1))
		default:
			s.fail(idx("steps", i), CodeUnsupported, "a %s is never completion: give the step a checkpoint, or follow it with a step that has a target", d.Steps[i].Action)
		}
	}
	if len(s.errs) > 0 {
		return
	}
	for _, seg := range segs {
		m := capability.Milestone{ID: fmt.Sprintf("part-%d", len(s.c.Milestones)+1), Intent: d.Steps[seg[0]].Intent}
		for _, i := range seg {
			m.Actions = append(m.Actions, bs[i].a)
			for k, cond := range bs[i].extra {
				m.Actions = append(m.Actions, waitAction(fmt.Sprintf("%s-check-%d", bs[i].a.ID, k+2), "Check the rest of the step's checkpoint", cond))
			}
		}
		s.c.Milestones = append(s.c.Milestones, m)
	}
	if len(finalConds) > 0 {
		m := capability.Milestone{ID: "checkpoint", Intent: "Assert the artifact's checkpoint: the run arrived"}
		for k, cond := range finalConds {
			m.Actions = append(m.Actions, waitAction(fmt.Sprintf("checkpoint-%d", k+1), "Assert the artifact's checkpoint", cond))
		}
		s.c.Milestones = append(s.c.Milestones, m)
	}
	for o := range origins {
		s.c.Site.AllowedOrigins = append(s.c.Site.AllowedOrigins, o)
	}
	sortStrings(s.c.Site.AllowedOrigins)
	if len(s.c.Site.AllowedOrigins) == 0 {
		s.fail("steps", CodeUnsupported, "no navigate step names an absolute URL, so the site's origin is unknown")
	}
}

func countConds(ck *seedCheck) int {
	n := 0
	if ck.URLPattern != "" {
		n++
	}
	if ck.VisibleText != "" {
		n++
	}
	if ck.RequiredElement != nil {
		n++
	}
	return max(n, 1)
}

// ownProof reports whether a step's action has a postcondition of its own
// before its checkpoint is considered.
func ownProof(st seedStep) bool {
	switch st.Action {
	case "navigate", "type", "select", "extract":
		return true
	case "wait":
		return st.Target != nil
	}
	return false
}

func waitAction(id, intent string, cond capability.Condition) capability.Action {
	return capability.Action{ID: id, Operation: capability.OpWait, Intent: intent, Effect: capability.EffectReadOnly, Confirmation: capability.ConfirmNone, Postcondition: &cond}
}

// step maps one step onto its action.
func (s *seedConv) step(d *seedDoc, i int, t string, origins map[string]bool) built {
	st := d.Steps[i]
	p := idx("steps", i)
	r := s.r
	var b built
	op, ok := seedOps[st.Action]
	if !ok {
		s.fail(p+".action", CodeBadValue, "action %q is not navigate, click, type, select, press, wait or extract", st.Action)
		return b
	}
	a := capability.Action{ID: fmt.Sprintf("step-%d", i+1), Operation: op, Intent: st.Intent, Effect: capability.EffectReadOnly, Confirmation: capability.ConfirmNone}
	r.add(Mapped, p+".action", t+".operation", "")
	if strings.TrimSpace(st.Intent) == "" {
		s.fail(p+".intent", CodeBadValue, "every step states its intent for the reviewer")
	}
	r.add(Mapped, p+".intent", t+".intent", "")
	if d.Risk == "risky" && (op == capability.OpClick || op == capability.OpPress || op == capability.OpSelect) {
		a.Effect, a.Confirmation = capability.EffectConsequential, capability.ConfirmActionTime
		r.add(Derived, "risk", t+".effect", "risky: consequential, confirmed at action time")
	}
	// Members by action.
	allowed := map[string]bool{
		"url":    st.Action == "navigate",
		"target": st.Action != "navigate",
		"input":  st.Action == "type" || st.Action == "select",
		"value":  st.Action == "type" || st.Action == "select",
		"key":    st.Action == "press",
		"output": st.Action == "extract",
	}
	present := map[string]bool{"url": st.URL != "", "target": st.Target != nil, "input": st.Input != "", "value": st.Value != nil, "key": st.Key != "", "output": st.Output != ""}
	for _, m := range []string{"url", "target", "input", "value", "key", "output"} {
		if present[m] && !allowed[m] {
			s.fail(p+"."+m, CodeUnknownMember, "member %q does not belong to a %s step", m, st.Action)
		}
	}
	need := func(m string) bool {
		if !present[m] {
			s.fail(p+"."+m, CodeMissingMember, "a %s step needs %q", st.Action, m)
			return false
		}
		return true
	}
	if st.Action != "navigate" && st.Action != "wait" {
		need("target")
	}
	if st.Target != nil && allowed["target"] {
		b.cands = s.candidates(p+".target", t+".locator_candidates", st.Target)
		if op != capability.OpWait {
			a.LocatorCandidates = b.cands
			if st.Target.Robustness != "" && len(b.cands) > 0 && allCSS(b.cands) {
				a.CSSOnlyReason = st.Target.Robustness
				r.add(Mapped, p+".target.robustness", t+".css_only_reason", "a CSS-only target: its robustness note is the reviewer-visible reason")
			}
		}
	}
	if st.TimeoutMS != 0 {
		a.TimeoutMS = st.TimeoutMS
		r.add(Mapped, p+".timeoutMs", t+".timeout_ms", "")
	}
	switch st.Action {
	case "navigate":
		if need("url") {
			s.navigate(p, t, st.URL, i == 0, origins, &a)
		}
	case "type", "select":
		s.value(p, t, st, b.cands, &a)
		a.Postcondition = &capability.Condition{Kind: capability.CondLocatorVisible, LocatorCandidates: b.cands}
		r.add(Derived, p+".target", t+".postcondition", "the field stays visible after it is filled")
	case "press":
		if need("key") {
			a.Key = st.Key
			r.add(Mapped, p+".key", t+".key", "")
		}
	case "extract":
		if need("output") {
			name, ok := s.outs[st.Output]
			if !ok {
				s.fail(p+".output", CodeBadValue, "output %q is not declared", st.Output)
				break
			}
			s.filled[name] = true
			a.Output = name
			a.Extract = &capability.Extraction{Mode: capability.ExtractText}
			a.Postcondition = &capability.Condition{Kind: capability.CondOutputProduced, Output: name}
			r.add(Mapped, p+".output", t+".output", "text mode; proven by output_produced")
		}
	case "wait":
		if st.Target != nil {
			a.Postcondition = &capability.Condition{Kind: capability.CondLocatorVisible, LocatorCandidates: b.cands}
			r.add(Mapped, p+".target", t+".postcondition", "a wait for an element is a wait action on locator_visible")
		} else if st.Checkpoint == nil {
			s.fail(p, CodeUnsupported, "a wait without a target or checkpoint is a sleep; a capability waits only for observable state")
		}
	}
	if st.Checkpoint != nil {
		conds := s.conditions(p+".checkpoint", func(k int) string {
			if k == 0 {
				return t + ".postcondition"
			}
			return fmt.Sprintf("%s (wait %s-check-%d)", t, a.ID, k+1)
		}, st.Checkpoint)
		switch {
		case len(conds) == 0:
		case a.Postcondition != nil:
			b.extra = conds // the step's own proof stays; the checkpoint follows as waits
		default:
			c := conds[0]
			a.Postcondition = &c
			b.extra = conds[1:]
		}
	}
	b.a = a
	return b
}

// navigate maps a navigate step's URL: the origin joins the allowed
// origins, the first step's path is the declared start.
func (s *seedConv) navigate(p, t, raw string, first bool, origins map[string]bool, a *capability.Action) {
	renamed, unknown := renameTemplates(raw, s.rename)
	for _, u := range unknown {
		s.fail(p+".url", CodeBadValue, "template {{%s}} names no declared input", u)
	}
	org, path, err := splitURL(strings.NewReplacer("{{", "%7B%7B", "}}", "%7D%7D").Replace(renamed))
	if err != nil {
		s.fail(p+".url", CodeUnsupported, "%v", err)
		return
	}
	path = strings.NewReplacer("%7B%7B", "{{", "%7D%7D", "}}").Replace(path)
	if org != "" {
		origins[org] = true
		s.r.add(Derived, p+".url", "site.allowed_origins", "the URL's origin is an allowed origin")
	} else if first {
		s.fail(p+".url", CodeUnsupported, "the first navigate step names an absolute URL: it fixes the site's origin")
	}
	a.URL = path
	s.r.add(Mapped, p+".url", t+".url", "as a path on the allowed origin")
	if first {
		s.c.Runtime.Start = path
		s.r.add(Mapped, p+".url", "runtime.start", "the first step's URL is the declared start")
	}
	proof := path
	if i := strings.IndexByte(proof, '#'); i >= 0 {
		proof = proof[:i]
	}
	a.Postcondition = &capability.Condition{Kind: capability.CondURLIncludes, Value: proof}
	s.r.add(Derived, p+".url", t+".postcondition", "the navigation is proven by the URL including its path")
}

var exactTemplateRE = regexp.MustCompile(`^\{\{\s*([^{}]+?)\s*\}\}$`)

// value maps what a type or select step enters: a named input, a
// {{placeholder}} that is exactly one input, or a public literal.
func (s *seedConv) value(p, t string, st seedStep, cands []locator.Candidate, a *capability.Action) {
	var name string
	if st.Input != "" {
		n, ok := s.rename[st.Input]
		if !ok {
			s.fail(p+".input", CodeBadValue, "input %q is not declared", st.Input)
			return
		}
		name = n
		s.r.add(Mapped, p+".input", t+".input", "")
	}
	if st.Value != nil {
		v := *st.Value
		if m := exactTemplateRE.FindStringSubmatch(v); m != nil {
			n, ok := s.rename[m[1]]
			switch {
			case !ok:
				s.fail(p+".value", CodeBadValue, "template {{%s}} names no declared input", m[1])
				return
			case name != "" && n != name:
				s.fail(p+".value", CodeBadValue, "the value's placeholder {{%s}} is not the step's input %q", m[1], st.Input)
				return
			}
			name = n
			s.r.add(Mapped, p+".value", t+".input", "the {{placeholder}} is the input itself")
		} else {
			if name != "" {
				s.fail(p+".value", CodeBadValue, "a step that names input %q types {{%s}}, not another value", st.Input, st.Input)
				return
			}
			if passwordField(cands) {
				s.fail(p+".value", CodeUnsupported, "a literal typed into a password field would put a credential into the capability; declare a secret input")
				return
			}
			renamed, unknown := renameTemplates(v, s.rename)
			for _, u := range unknown {
				s.fail(p+".value", CodeBadValue, "template {{%s}} names no declared input", u)
			}
			a.Value = renamed
			s.r.add(Mapped, p+".value", t+".value", "a public literal")
		}
	}
	if name == "" && a.Value == "" {
		s.fail(p, CodeMissingMember, "a %s step names an input or a value", st.Action)
		return
	}
	a.Input = name
	if name != "" && passwordField(cands) {
		for k := range s.c.Inputs {
			if s.c.Inputs[k].Name == name && !s.c.Inputs[k].Secret {
				s.c.Inputs[k].Secret = true
				s.r.add(Derived, p+".target", fmt.Sprintf("inputs[%d].secret", k), "typed into a password field: the input is secret")
			}
		}
	}
}

func (s *seedConv) outcomes(os []seedOutcome) {
	seen := map[string]bool{}
	for i, o := range os {
		p := idx("businessOutcomes", i)
		t := fmt.Sprintf("business_outcomes[%d]", len(s.c.BusinessOutcomes))
		code := snake(o.Code)
		if !ident.ValidName(code) || seen[code] {
			s.fail(p+".code", CodeBadValue, "outcome code %q has no unique snake_case form", o.Code)
			continue
		}
		seen[code] = true
		s.r.add(Mapped, p+".code", t+".code", "")
		bo := capability.BusinessOutcome{Code: code, Description: o.Description}
		if o.Description != "" {
			s.r.add(Mapped, p+".description", t+".description", "")
		}
		dp := p + ".detect"
		if o.Detect.VisibleText != "" {
			txt, unknown := renameTemplates(o.Detect.VisibleText, s.rename)
			for _, u := range unknown {
				s.fail(dp+".visibleText", CodeBadValue, "template {{%s}} names no declared input", u)
			}
			bo.Detect.VisibleText = txt
			s.r.add(Mapped, dp+".visibleText", t+".detect.visible_text", "")
		}
		if o.Detect.URLPattern != "" {
			if _, err := regexp.Compile(o.Detect.URLPattern); err != nil {
				s.fail(dp+".urlPattern", CodeBadValue, "not a regular expression (RE2): %v", err)
			}
			bo.Detect.URLPattern = o.Detect.URLPattern
			s.r.add(Mapped, dp+".urlPattern", t+".detect.url_pattern", "matched against the URL's path and fragment (the capability rule); a pattern over the origin or query needs review")
		}
		if o.Detect.RequiredElement != nil {
			bo.Detect.LocatorCandidates = s.candidates(dp+".requiredElement", t+".detect.locator_candidates", o.Detect.RequiredElement)
		}
		if o.Detect.VisibleText == "" && o.Detect.URLPattern == "" && o.Detect.RequiredElement == nil {
			s.fail(dp, CodeMissingMember, "a detect rule sets visibleText, urlPattern or requiredElement")
		}
		s.c.BusinessOutcomes = append(s.c.BusinessOutcomes, bo)
	}
	if os != nil && len(os) == 0 {
		s.r.add(Mapped, "businessOutcomes", "business_outcomes", "none")
	}
}
