package capability

import (
	"fmt"
	"github.com/vera-run/vera/internal/textrule"
	"regexp"
	"slices"
	"strings"

	"github.com/vera-run/vera/internal/jsonptr"
	"github.com/vera-run/vera/locator"
)

// Expectation declares what an extracted value must be (issue 22.4): at
// least one rule, and every set rule must hold for the value the
// extraction produced (after coercion). A value that is absent (an empty
// field, null) is governed by required_fields, not by expectations. A
// violated expectation never completes the run: it ends with the
// business outcome named by Outcome, or fails with category
// extraction_failed and reason output_expectation_failed.
type Expectation struct {
	// Enum lists the allowed values, compared with the value's text form
	// (a string or date as is, an integer or number in shortest decimal,
	// a boolean as true/false).
	Enum []string `json:"enum,omitempty" validate:"max=100,dive,max=200"`
	// Pattern is an RE2 regular expression (Go regexp syntax) that must
	// match somewhere in a string or date value: it is unanchored, as
	// JSON Schema's pattern; write ^...$ to match the whole value.
	Pattern string `json:"pattern,omitempty" validate:"max=500"`
	// Minimum and Maximum bound an integer or number value, inclusive.
	Minimum *float64 `json:"minimum,omitempty" validate:"-"`
	Maximum *float64 `json:"maximum,omitempty" validate:"-"`
	// EqualsInput names a non-secret input (a secret one is
	// secret_input_exposed) the value must equal: string,
	// date and enum inputs compare with string and date values as text,
	// integer and number inputs with integer and number values
	// numerically, boolean inputs with boolean values.
	EqualsInput string `json:"equals_input,omitempty" validate:"-"`
	// Outcome optionally names the declared business outcome a violation
	// ends the run with, instead of a failure.
	Outcome string `json:"outcome,omitempty" validate:"-"`
}

// Validation codes of expectations, JSON pointers and outcome detection
// scopes.
const (
	// CodeInvalidExpectation: an expectation with no rule, a rule that
	// does not apply to the value's type (pattern on a number, a range on
	// a string), minimum above maximum, an empty or repeated enum value,
	// an equals_input of another type, or an
	// expectation on a download_set or record output (records declare
	// expectations per field).
	CodeInvalidExpectation Code = "invalid_expectation"
	// CodeInvalidPattern: an expectation's pattern is not an RE2 regular
	// expression.
	CodeInvalidPattern Code = "invalid_pattern"
	// CodeUnknownOutcome: an expectation names a business outcome the
	// capability does not declare.
	CodeUnknownOutcome Code = "unknown_outcome"
	// CodeInvalidJSONPointer: a field's json_pointer is not an RFC 6901
	// JSON pointer, or is used with read: value.
	CodeInvalidJSONPointer Code = "invalid_json_pointer"
	// CodeUnknownAfterAction: a detect rule's after_action names no
	// action of the capability.
	CodeUnknownAfterAction Code = "unknown_after_action"
	// CodeDetectScopeUnused: a detect rule's scope with neither
	// visible_text nor locator_candidates to search in it.
	CodeDetectScopeUnused Code = "detect_scope_unused"
)

// CompileExpectPattern compiles an expectation's pattern (RE2).
func CompileExpectPattern(s string) (*regexp.Regexp, error) { return regexp.Compile(s) }

// expectations checks the expectations of outputs and output fields.
func (v *validation) expectations() {
	outcomes := map[string]bool{}
	for _, b := range v.c.BusinessOutcomes {
		outcomes[b.Code] = true
	}
	for i := range v.c.Outputs {
		o := &v.c.Outputs[i]
		p := at("outputs").i(i)
		if o.Expect != nil {
			if o.Kind != OutputText {
				v.add(p.f("expect"), CodeInvalidExpectation, fmt.Sprintf("a %s output has no expectation of its own (declare expectations on its fields)", o.Kind), "")
			} else {
				v.expectation(p.f("expect"), o.Expect, FieldString, outcomes)
			}
		}
		for j := range o.Fields {
			if e := o.Fields[j].Expect; e != nil {
				v.expectation(p.f("fields").i(j).f("expect"), e, o.Fields[j].Type, outcomes)
			}
		}
	}
}

func (v *validation) expectation(p pth, e *Expectation, t FieldType, outcomes map[string]bool) {
	if len(e.Enum) == 0 && e.Pattern == "" && e.Minimum == nil && e.Maximum == nil && e.EqualsInput == "" {
		v.add(p, CodeInvalidExpectation, "an expectation declares at least one rule (enum, pattern, minimum, maximum, equals_input)", "")
	}
	numeric := t == FieldInteger || t == FieldNumber
	textual := t == FieldString || t == FieldDate
	seen := map[string]bool{}
	for i, s := range e.Enum {
		if textrule.Blank(s) || seen[s] {
			v.add(p.f("enum").i(i), CodeInvalidExpectation, "enum values are non-blank and distinct", s)
		}
		seen[s] = true
	}
	if e.Pattern != "" {
		if !textual {
			v.add(p.f("pattern"), CodeInvalidExpectation, fmt.Sprintf("pattern applies to string and date values, not %s", t), e.Pattern)
		} else if _, err := CompileExpectPattern(e.Pattern); err != nil {
			v.add(p.f("pattern"), CodeInvalidPattern, "not an RE2 regular expression: "+err.Error(), e.Pattern)
		}
	}
	if (e.Minimum != nil || e.Maximum != nil) && !numeric {
		v.add(p, CodeInvalidExpectation, fmt.Sprintf("minimum and maximum apply to integer and number values, not %s", t), "")
	}
	if e.Minimum != nil && e.Maximum != nil && *e.Minimum > *e.Maximum {
		v.add(p.f("minimum"), CodeInvalidExpectation, "minimum is above maximum", "")
	}
	if e.EqualsInput != "" {
		v.useInput(p.f("equals_input"), e.EqualsInput, useExpect)
		if i, ok := v.inputs[e.EqualsInput]; ok {
			in := &v.c.Inputs[i]
			var fits bool
			switch in.Type {
			case InputString, InputDate, InputEnum:
				fits = textual
			case InputInteger, InputNumber:
				fits = numeric
			case InputBoolean:
				fits = t == FieldBoolean
			}
			if !fits {
				v.add(p.f("equals_input"), CodeInvalidExpectation, fmt.Sprintf("a %s input cannot equal a %s value", in.Type, t), e.EqualsInput)
			}
		}
	}
	if e.Outcome != "" && !outcomes[e.Outcome] {
		v.add(p.f("outcome"), CodeUnknownOutcome, fmt.Sprintf("%q is not a declared business outcome", e.Outcome), e.Outcome)
	}
}

// jsonPointer checks a field's json_pointer.
func (v *validation) jsonPointer(p pth, f *Field) {
	if f.JSONPointer == "" {
		return
	}
	if _, err := jsonptr.Parse(f.JSONPointer); err != nil {
		v.add(p.f("json_pointer"), CodeInvalidJSONPointer, err.Error(), f.JSONPointer)
	}
	if f.Read == ReadValue {
		v.add(p.f("json_pointer"), CodeInvalidJSONPointer, "json_pointer reads JSON text (read: text or attribute), not a form value", f.JSONPointer)
	}
}

// detectWhere checks where business-outcome detection looks: its scope
// and its after_action.
func (v *validation) detectWhere() {
	var ids []string
	for _, m := range v.c.Milestones {
		for _, a := range m.Actions {
			ids = append(ids, a.ID)
		}
	}
	for i := range v.c.BusinessOutcomes {
		d := &v.c.BusinessOutcomes[i].Detect
		dp := at("business_outcomes").i(i).f("detect")
		if d.AfterAction != "" && !slices.Contains(ids, d.AfterAction) {
			v.add(dp.f("after_action"), CodeUnknownAfterAction, fmt.Sprintf("%q is not an action of the capability", d.AfterAction), d.AfterAction)
		}
		if d.Scope == nil {
			continue
		}
		sp := dp.f("scope")
		if textrule.Blank(d.VisibleText) && len(d.LocatorCandidates) == 0 {
			v.add(sp, CodeDetectScopeUnused, "a detect scope limits visible_text or locator_candidates; set one of them", "")
		}
		for _, pr := range d.Scope.Check() {
			pp := sp
			if pr.Field != "" {
				for _, seg := range strings.Split(pr.Field, ".") {
					pp = pp.f(seg)
				}
			}
			v.add(pp, Code(pr.Code), pr.Detail, d.Scope.Value())
		}
		if d.Scope.Note != "" {
			v.add(sp.f("note"), locator.CodeScopeNote, "a note belongs to a candidate, not to a scope", "")
		}
		if val := d.Scope.Value(); val != "" {
			v.templates(sp.f(primaryField(d.Scope.Strategy)), val, useTemplate)
		}
	}
}
