package capability

import (
	"fmt"
	"github.com/vera-run/vera/internal/textrule"
	"strings"

	"github.com/vera-run/vera/locator"
)

func (o Operation) valid() bool {
	switch o {
	case OpNavigate, OpClick, OpFill, OpSelect, OpPress, OpCheck, OpUncheck, OpExtract, OpDownload, OpWait, OpNative:
		return true
	}
	return false
}

func (k ConditionKind) valid() bool {
	switch k {
	case CondLocatorVisible, CondLocatorHidden, CondTextVisible, CondURLIncludes, CondURLPath,
		CondOutputProduced, CondDownloadCompleted, CondAlways:
		return true
	}
	return false
}

func (m ExtractMode) valid() bool {
	return m == ExtractSingle || m == ExtractList || m == ExtractText
}

func (c Confirmation) valid() bool { return c == ConfirmNone || c == ConfirmActionTime }

// milestoneRules checks milestones, their actions and their transitions.
func (v *validation) milestoneRules() {
	actionIDs := map[string]bool{}
	for mi := range v.c.Milestones {
		m := &v.c.Milestones[mi]
		mp := at("milestones").i(mi)
		v.frame = v.c.FramePath(m)
		if first, ok := v.milestones[m.ID]; ok && first != mi {
			v.add(mp.f("id"), CodeDuplicateMilestone, "milestone id used twice", m.ID)
		}
		if reservedName(m.ID) {
			v.add(mp.f("id"), CodeReservedID, "the id is a reserved terminal name", m.ID)
		}
		if len(m.Actions) == 0 && len(m.Transitions) == 0 {
			v.add(mp, CodeEmptyMilestone, "a milestone has actions, transitions or both", "")
		}
		hasDownload := false
		for ai := range m.Actions {
			a := &m.Actions[ai]
			ap := mp.f("actions").i(ai)
			if a.ID != "" {
				if actionIDs[a.ID] {
					v.add(ap.f("id"), CodeDuplicateAction, "action ids are unique across the capability", a.ID)
				}
				actionIDs[a.ID] = true
			}
			if a.Operation == OpDownload {
				hasDownload = true
			}
			v.action(ap, a)
		}
		for ti := range m.Transitions {
			t := &m.Transitions[ti]
			tp := mp.f("transitions").i(ti)
			if t.When.Kind == CondAlways && ti != len(m.Transitions)-1 {
				v.add(tp.f("when"), CodeAlwaysNotLast, "an always transition is the last one (the ones after it could never be taken)", "")
			}
			v.condition(tp.f("when"), &t.When, condTransition, nil)
			if t.When.Kind == CondDownloadCompleted && !hasDownload {
				v.add(tp.f("when"), CodeInvalidCondition, "download_completed needs a download action in the milestone", "")
			}
			if t.To != "" && t.To != TerminalCompleted {
				if _, ok := v.milestones[t.To]; !ok {
					v.add(tp.f("to"), CodeUnknownTarget, `a transition goes to a milestone id or "completed"`, t.To)
				}
			}
		}
	}
}

// action checks one action.
func (v *validation) action(p pth, a *Action) {
	op := a.Operation
	if a.Effect.Valid() && a.Confirmation.valid() {
		want := ConfirmNone
		if a.Effect == EffectConsequential {
			want = ConfirmActionTime
		}
		if a.Confirmation != want {
			v.add(p.f("confirmation"), CodeConfirmationMismatch,
				fmt.Sprintf("a %s action requires confirmation %q", a.Effect, want), string(a.Confirmation))
		}
	}
	if a.Effect.Valid() && v.c.Authority.MaxEffect.Valid() && a.Effect.Rank() > v.c.Authority.MaxEffect.Rank() {
		v.add(p.f("effect"), CodeEffectExceedsAuthority,
			fmt.Sprintf("the action is more severe than authority.max_effect %q", v.c.Authority.MaxEffect), string(a.Effect))
	}
	// References are recorded whatever the operation, so that an unknown
	// operation does not also make its input look unused.
	if a.Input != "" {
		kind := useInput
		if op == OpFill {
			kind = useFill
		}
		v.useInput(p.f("input"), a.Input, kind)
	}
	if a.Output != "" && (op == OpExtract || op == OpDownload) {
		if i, ok := v.outputs[a.Output]; ok {
			v.produced[i] = true
		}
	}
	cssOnly := v.cssOnlyReason(p, a) // a declared CSS-only target (cssonly.go)
	if !op.valid() {
		return
	}
	if op == OpNative {
		v.native(p, a)
		return
	}
	if a.NativeGap != "" {
		v.add(p.f("native_gap"), CodeUnexpectedField, "only native actions declare a native gap", "")
	}
	forbid := func(fields ...string) {
		for _, f := range fields {
			if actionFieldSet(a, f) {
				v.add(p.f(f), CodeUnexpectedField, fmt.Sprintf("a %s action does not use %s", op, f), "")
			}
		}
	}
	need := func(field string, set bool) {
		if !set {
			v.add(p.f(field), CodeMissingField, fmt.Sprintf("a %s action needs %s", op, field), "")
		}
	}
	switch op {
	case OpNavigate:
		need("url", a.URL != "")
		forbid("locator_candidates", "input", "value", "key", "output", "extract")
		v.navTarget(p.f("url"), a.URL)
		v.query(p.f("query"), a.Query)
	case OpClick, OpCheck, OpUncheck:
		forbid("url", "query", "input", "value", "key", "output", "extract")
	case OpFill, OpSelect:
		if (a.Input == "") == (a.Value == "") {
			v.add(p, CodeInputXorValue, fmt.Sprintf("a %s action sets exactly one of input and value", op), "")
		}
		forbid("url", "query", "key", "output", "extract")
		if a.Value != "" {
			v.templates(p.f("value"), a.Value, useTemplate)
			if code, msg := templateContext(a.Value); code != "" {
				v.add(p.f("value"), code, msg, "")
			}
		}
	case OpPress:
		need("key", strings.TrimSpace(a.Key) != "")
		if strings.TrimSpace(a.Key) != "" && !validKey(a.Key) {
			v.add(p.f("key"), CodeInvalidKey, "not a key: a named key (Enter, Tab, ArrowDown, ...), F1 to F12 or one character, after optional modifiers such as Control+; never a template", a.Key)
		}
		forbid("url", "query", "input", "value", "output", "extract")
	case OpDownload:
		need("output", a.Output != "")
		forbid("url", "query", "input", "value", "key", "extract")
		if a.Output != "" {
			if i, ok := v.outputs[a.Output]; !ok {
				v.add(p.f("output"), CodeUndeclaredOutput, fmt.Sprintf("%q is not a declared output", a.Output), a.Output)
			} else if k := v.c.Outputs[i].Kind; k.valid() && k != OutputDownloadSet {
				v.add(p.f("output"), CodeOutputKindMismatch, fmt.Sprintf("a download fills a download_set output, not %s", k), a.Output)
			}
		}
	case OpExtract:
		need("output", a.Output != "")
		need("extract", a.Extract != nil)
		forbid("url", "query", "input", "value", "key")
		if a.Extract != nil {
			v.extraction(p, a)
		}
	case OpWait:
		forbid("locator_candidates", "url", "query", "input", "value", "key", "output", "extract")
	}
	if op.Interactive() {
		ctx := locator.Interactive
		if cssOnly {
			ctx = locator.RecordField
		}
		v.locators(p.f("locator_candidates"), a.LocatorCandidates, ctx)
	} else if op == OpExtract {
		ctx := locator.StateMarker
		if a.Extract != nil && a.Extract.Mode == ExtractList {
			// A list root is the record container: like a structural
			// locator_visible marker it may be CSS alone when scoped with
			// :visible, so retained hidden rows never count.
			ctx = locator.VisibleMarker
		} else if cssOnly {
			ctx = locator.RecordField
		}
		v.locators(p.f("locator_candidates"), a.LocatorCandidates, ctx)
	}
	v.postcondition(p, a)
}

// actionFieldSet reports whether the named optional member of a is set.
func actionFieldSet(a *Action, field string) bool {
	switch field {
	case "locator_candidates":
		return len(a.LocatorCandidates) > 0
	case "url":
		return a.URL != ""
	case "query":
		return len(a.Query) > 0
	case "input":
		return a.Input != ""
	case "value":
		return a.Value != ""
	case "key":
		return a.Key != ""
	case "output":
		return a.Output != ""
	case "extract":
		return a.Extract != nil
	case "timeout_ms":
		return a.TimeoutMS != 0
	case "postcondition":
		return a.Postcondition != nil
	}
	return false
}

// native checks a declared native gap: documented, never executable.
func (v *validation) native(p pth, a *Action) {
	if textrule.Blank(a.NativeGap) {
		v.add(p.f("native_gap"), CodeNativeGapRequired, "a native action describes the non-browser step in native_gap", "")
	}
	for _, f := range []string{"locator_candidates", "url", "query", "input", "value", "key", "output", "extract", "timeout_ms", "postcondition"} {
		if actionFieldSet(a, f) {
			v.add(p.f(f), CodeNativeNotExecutable, "a native action is a declared gap handed to the operator; it has nothing executable", "")
		}
	}
}

// postcondition checks the state that proves an action worked.
func (v *validation) postcondition(p pth, a *Action) {
	pc := a.Postcondition
	pp := p.f("postcondition")
	if pc == nil {
		v.add(pp, CodeMissingPostcondition, "every executable action declares the visible state, URL, output or download that proves it worked (a click is never completion)", "")
		return
	}
	if pc.Kind == CondAlways {
		v.add(pp.f("kind"), CodePostconditionAlways, "always proves nothing; declare an observable state", "")
		return
	}
	if !pc.Kind.valid() {
		return
	}
	switch {
	case a.Operation == OpDownload && pc.Kind != CondDownloadCompleted:
		v.add(pp.f("kind"), CodePostconditionMismatch, "a download is proven by download_completed", string(pc.Kind))
		return
	case a.Operation != OpDownload && pc.Kind == CondDownloadCompleted:
		v.add(pp.f("kind"), CodePostconditionMismatch, "only a download action is proven by download_completed", string(pc.Kind))
		return
	case a.Operation == OpExtract && pc.Kind != CondOutputProduced:
		v.add(pp.f("kind"), CodePostconditionMismatch, "an extraction is proven by output_produced of its own output", string(pc.Kind))
		return
	case a.Operation != OpExtract && pc.Kind == CondOutputProduced:
		v.add(pp.f("kind"), CodePostconditionMismatch, "only an extract action is proven by output_produced", string(pc.Kind))
		return
	case a.Operation == OpExtract && pc.Output != "" && a.Output != "" && pc.Output != a.Output:
		v.add(pp.f("output"), CodePostconditionMismatch, "an extraction's output_produced names its own output", pc.Output)
		return
	}
	v.condition(pp, pc, condPostcondition, a)
}

type condRole int

// condFields is a set of the optional members of a condition.
type condFields uint8

const (
	condLocators condFields = 1 << iota
	condText
	condValue
	condOutput
)

const (
	condPostcondition condRole = iota
	condTransition
)

// condition checks that a condition sets exactly what its kind uses.
func (v *validation) condition(p pth, c *Condition, role condRole, a *Action) {
	if !c.Kind.valid() {
		return
	}
	v.conditionScope(p, c)
	var uses condFields
	switch c.Kind {
	case CondLocatorVisible, CondLocatorHidden:
		uses |= condLocators
		ctx := locator.StateMarker
		if c.Kind == CondLocatorVisible && role == condTransition {
			ctx = locator.VisibleMarker
		}
		v.locators(p.f("locator_candidates"), c.LocatorCandidates, ctx)
	case CondTextVisible:
		uses |= condText
		if textrule.Blank(c.Text) {
			v.add(p.f("text"), CodeInvalidCondition, "text_visible needs text", "")
		} else {
			v.templates(p.f("text"), c.Text, useTemplate)
		}
	case CondURLIncludes, CondURLPath:
		uses |= condValue
		switch {
		case textrule.Blank(c.Value):
			v.add(p.f("value"), CodeInvalidCondition, fmt.Sprintf("%s needs value", c.Kind), "")
		case c.Kind == CondURLPath && (!strings.HasPrefix(c.Value, "/") || strings.ContainsAny(c.Value, "?#")):
			v.add(p.f("value"), CodeInvalidCondition, "url_path compares a path: it starts with / and has no query or fragment", c.Value)
		default:
			v.templates(p.f("value"), c.Value, useTemplate)
		}
	case CondOutputProduced:
		uses |= condOutput
		switch {
		case c.Output == "" && role == condPostcondition && a != nil && a.Output != "":
			// An extraction's output_produced names its own output; an
			// omitted name is accepted as that output.
		case c.Output == "":
			v.add(p.f("output"), CodeInvalidCondition, "output_produced names an output", "")
		default:
			if _, ok := v.outputs[c.Output]; !ok {
				v.add(p.f("output"), CodeUndeclaredOutput, fmt.Sprintf("%q is not a declared output", c.Output), c.Output)
			}
		}
	}
	for _, f := range [...]struct {
		bit  condFields
		name string
		set  bool
	}{
		{condLocators, "locator_candidates", len(c.LocatorCandidates) > 0},
		{condText, "text", c.Text != ""},
		{condValue, "value", c.Value != ""},
		{condOutput, "output", c.Output != ""},
	} {
		if f.set && uses&f.bit == 0 {
			v.add(p.f(f.name), CodeInvalidCondition, fmt.Sprintf("a %s condition does not use %s", c.Kind, f.name), "")
		}
	}
}

// extraction checks an extract action's configuration against its output.
func (v *validation) extraction(p pth, a *Action) {
	e := a.Extract
	ep := p.f("extract")
	var out *Output
	if a.Output != "" {
		if i, ok := v.outputs[a.Output]; ok {
			out = &v.c.Outputs[i]
		} else {
			v.add(p.f("output"), CodeUndeclaredOutput, fmt.Sprintf("%q is not a declared output", a.Output), a.Output)
		}
	}
	if !e.Mode.valid() {
		return
	}
	want := map[ExtractMode]OutputKind{ExtractSingle: OutputRecord, ExtractList: OutputRecordSet, ExtractText: OutputText}[e.Mode]
	// The field shape is compared only against an output that declares
	// fields (a missing shape is reported on the output itself).
	shapeOK := out != nil && out.Kind == want && len(out.Fields) > 0
	if out != nil && out.Kind.valid() && out.Kind != want {
		v.add(p.f("output"), CodeOutputKindMismatch,
			fmt.Sprintf("a %s extraction fills a %s output, not %s", e.Mode, want, out.Kind), a.Output)
	}
	switch e.Mode {
	case ExtractText:
		if len(e.Fields) > 0 {
			v.add(ep.f("fields"), CodeExtractFieldsNotAllowed, "a text extraction reads the root's visible text and has no fields", "")
		}
		v.extractForbid(ep, e, "max_records", "limit_input", "required_fields", "dedupe_keys")
		return
	case ExtractSingle:
		v.extractForbid(ep, e, "max_records", "limit_input", "dedupe_keys")
	case ExtractList:
		if e.MaxRecords == 0 {
			v.add(ep.f("max_records"), CodeMissingField, fmt.Sprintf("a list extraction declares its hard maximum max_records (1..%d)", MaxRecordsCeiling), "")
		}
		if e.LimitInput != "" {
			v.useInput(ep.f("limit_input"), e.LimitInput, useLimit)
		}
	}
	names := map[string]FieldType{}
	for fi := range e.Fields {
		f := &e.Fields[fi]
		fp := ep.f("fields").i(fi)
		if _, dup := names[f.Name]; dup && f.Name != "" {
			v.add(fp.f("name"), CodeDuplicateField, "field extracted twice", f.Name)
		} else {
			names[f.Name] = f.Type
		}
		if len(f.LocatorCandidates) > 0 {
			v.locators(fp.f("locator_candidates"), f.LocatorCandidates, locator.RecordField)
			for ci, fc := range f.LocatorCandidates {
				if candidateIn(fc, a.LocatorCandidates) {
					v.add(fp.f("locator_candidates").i(ci), CodeFieldRepeatsActionRoot,
						"a field locator repeats the action root (it would search the root inside itself); write locator_candidates: [] to read the root", fc.Value())
				}
			}
		}
		v.jsonPointer(fp, f)
		switch {
		case f.Read == ReadAttribute && textrule.Blank(f.Attribute):
			v.add(fp.f("attribute"), CodeMissingField, "an attribute read names the attribute", "")
		case f.Read != ReadAttribute && f.Attribute != "":
			v.add(fp.f("attribute"), CodeUnexpectedField, "attribute is used only with read: attribute", "")
		}
		if shapeOK {
			if of, ok := outputField(out, f.Name); !ok {
				if f.Name != "" {
					v.add(fp.f("name"), CodeExtractFieldExtra, fmt.Sprintf("output %q has no field %q", out.Name, f.Name), f.Name)
				}
			} else if of.Type != f.Type && knownFieldType(f.Type) && knownFieldType(of.Type) {
				v.add(fp.f("type"), CodeExtractFieldTypeMismatch,
					fmt.Sprintf("output field %q is %s", f.Name, of.Type), string(f.Type))
			}
		}
	}
	if shapeOK {
		for _, of := range out.Fields {
			if _, ok := names[of.Name]; !ok && of.Name != "" {
				v.add(ep.f("fields"), CodeExtractFieldMissing,
					fmt.Sprintf("output field %q is not extracted (the field shape is exact)", of.Name), of.Name)
			}
		}
	}
	v.fieldRefs(ep.f("required_fields"), e.RequiredFields, names)
	if e.Mode == ExtractList {
		v.fieldRefs(ep.f("dedupe_keys"), e.DedupeKeys, names)
	}
}

func (v *validation) extractForbid(ep pth, e *Extraction, fields ...string) {
	for _, f := range fields {
		set := false
		switch f {
		case "max_records":
			set = e.MaxRecords != 0
		case "limit_input":
			set = e.LimitInput != ""
		case "required_fields":
			set = len(e.RequiredFields) > 0
		case "dedupe_keys":
			set = len(e.DedupeKeys) > 0
		}
		if set {
			v.add(ep.f(f), CodeUnexpectedField, fmt.Sprintf("a %s extraction does not use %s", e.Mode, f), "")
		}
	}
}

func (v *validation) fieldRefs(p pth, refs []string, names map[string]FieldType) {
	seen := map[string]bool{}
	for i, r := range refs {
		if _, ok := names[r]; !ok {
			v.add(p.i(i), CodeUnknownFieldRef, fmt.Sprintf("%q is not an extracted field", r), r)
		}
		if seen[r] {
			v.add(p.i(i), CodeDuplicateFieldRef, "field named twice", r)
		}
		seen[r] = true
	}
}

func knownFieldType(t FieldType) bool {
	switch t {
	case FieldString, FieldInteger, FieldNumber, FieldBoolean, FieldDate:
		return true
	}
	return false
}

func outputField(o *Output, name string) (OutputField, bool) {
	for _, f := range o.Fields {
		if f.Name == name {
			return f, true
		}
	}
	return OutputField{}, false
}

// candidateIn reports whether c equals one of cs, ignoring reviewer notes.
func candidateIn(c locator.Candidate, cs []locator.Candidate) bool {
	for _, x := range cs {
		if x.Equal(c) {
			return true
		}
	}
	return false
}
