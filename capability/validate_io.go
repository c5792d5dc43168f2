package capability

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strings"
	"unicode/utf8"
)

// Templates: "{{name}}", "{{name|json}}" or "{{name|url}}" where name
// matches NamePattern (see template.go). Any other "{{" is an invalid
// template.

// scanTemplates calls fn for each template reference of s and reports
// whether every "{{" opened a well-formed template.
func scanTemplates(s string, fn func(name string)) bool {
	return scanTemplateRefs(s, func(r TemplateRef) { fn(r.Name) })
}

// TemplateRefs returns the input names referenced by "{{name}}" templates
// in s, in order (with repeats), and whether every "{{" is well formed.
func TemplateRefs(s string) (names []string, ok bool) {
	ok = scanTemplates(s, func(n string) { names = append(names, n) })
	return names, ok
}

// templates records the template references of s found at path.
func (v *validation) templates(path pth, s string, kind inputUseKind) {
	if !strings.Contains(s, "{{") {
		return
	}
	if !scanTemplates(s, func(n string) { v.useInput(path, n, kind) }) {
		v.add(path, CodeInvalidTemplate, `a template is written {{name}}, {{name|json}} or {{name|url}} with a declared input name`, s)
	}
}

func (v *validation) useInput(path pth, name string, kind inputUseKind) {
	v.inputUse = append(v.inputUse, inputUse{path: path, name: name, kind: kind})
}

// inputDecls checks each input declaration on its own.
func (v *validation) inputDecls() {
	for i := range v.c.Inputs {
		in := &v.c.Inputs[i]
		p := at("inputs").i(i)
		if first, ok := v.inputs[in.Name]; ok && first != i {
			v.add(p.f("name"), CodeDuplicateInput, "input name declared twice", in.Name)
		}
		known := true
		switch in.Type {
		case InputString, InputInteger, InputNumber, InputBoolean, InputDate, InputEnum:
		default:
			known = false
		}
		if known {
			v.inputShape(p, in)
		}
		if len(in.Default) > 0 {
			switch {
			case in.Secret:
				v.add(p.f("default"), CodeSecretDefault, "a secret input never has a default (it would persist a secret)", "")
			case in.Required:
				v.add(p.f("default"), CodeInvalidDefault, "a required input has no default", "")
			case known:
				if msg := checkDefault(in); msg != "" {
					v.add(p.f("default"), CodeInvalidDefault, msg, string(in.Default))
				}
			}
		}
	}
}

func (v *validation) inputShape(p pth, in *Input) {
	if in.Type == InputEnum {
		if len(in.Values) == 0 {
			v.add(p.f("values"), CodeInvalidEnumValues, "an enum input lists its allowed values", "")
		}
		seen := map[string]bool{}
		for j, val := range in.Values {
			if seen[val] {
				v.add(p.f("values").i(j), CodeInvalidEnumValues, "enum value listed twice", val)
			}
			seen[val] = true
		}
	} else if len(in.Values) > 0 {
		v.add(p.f("values"), CodeInvalidEnumValues, "only enum inputs list values", "")
	}
	numeric := in.Type == InputInteger || in.Type == InputNumber
	for _, b := range []struct {
		name string
		val  *float64
	}{{"minimum", in.Minimum}, {"maximum", in.Maximum}} {
		if b.val == nil {
			continue
		}
		switch {
		case !numeric:
			v.add(p.f(b.name), CodeInvalidBounds, "only integer and number inputs have bounds", "")
		case in.Type == InputInteger && *b.val != math.Trunc(*b.val):
			v.add(p.f(b.name), CodeInvalidBounds, "the bound of an integer input is an integer", "")
		}
	}
	if numeric && in.Minimum != nil && in.Maximum != nil && *in.Minimum > *in.Maximum {
		v.add(p.f("minimum"), CodeInvalidBounds, "minimum is above maximum", "")
	}
	if in.MaxLength > 0 && in.Type != InputString {
		v.add(p.f("max_length"), CodeInvalidBounds, "only string inputs have max_length", "")
	}
}

// checkDefault type-checks a default against its input.
func checkDefault(in *Input) string {
	raw := bytes.TrimSpace(in.Default)
	if bytes.Equal(raw, []byte("null")) {
		return "a default is never null; omit it instead"
	}
	switch in.Type {
	case InputString, InputDate, InputEnum:
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return fmt.Sprintf("the default of a %s input is a JSON string", in.Type)
		}
		switch in.Type {
		case InputString:
			if in.MaxLength > 0 && utf8.RuneCountInString(s) > in.MaxLength {
				return "the default is longer than max_length"
			}
		case InputDate:
			if !validDate(s) {
				return "the default of a date input is YYYY-MM-DD"
			}
		case InputEnum:
			for _, val := range in.Values {
				if val == s {
					return ""
				}
			}
			return "the default is not one of the enum values"
		}
	case InputBoolean:
		var b bool
		if json.Unmarshal(raw, &b) != nil {
			return "the default of a boolean input is true or false"
		}
	case InputInteger, InputNumber:
		var f float64
		if len(raw) == 0 || (raw[0] != '-' && (raw[0] < '0' || raw[0] > '9')) || json.Unmarshal(raw, &f) != nil {
			return fmt.Sprintf("the default of a %s input is a JSON number", in.Type)
		}
		if in.Type == InputInteger && (f != math.Trunc(f) || math.Abs(f) > 1<<53) {
			return "the default of an integer input is an integer"
		}
		if in.Minimum != nil && f < *in.Minimum {
			return "the default is below minimum"
		}
		if in.Maximum != nil && f > *in.Maximum {
			return "the default is above maximum"
		}
	}
	return ""
}

// inputUsage checks every reference against the declarations, then that
// every input is used.
func (v *validation) inputUsage() {
	used := make([]bool, len(v.c.Inputs))
	for _, u := range v.inputUse {
		i, ok := v.inputs[u.name]
		if !ok {
			v.add(u.path, CodeUndeclaredInput, fmt.Sprintf("%q is not a declared input", u.name), u.name)
			continue
		}
		used[i] = true
		in := &v.c.Inputs[i]
		if in.Secret && u.kind != useFill {
			v.add(u.path, CodeSecretInputExposed, fmt.Sprintf("secret input %q may only be the input of a fill action (templates and other uses copy it into URLs, locators or receipts)", u.name), "")
		}
		if u.kind == useLimit && (in.Type != InputInteger || in.Minimum == nil || *in.Minimum < 1) {
			v.add(u.path, CodeInvalidLimitInput, "limit_input names an integer input with minimum >= 1 (a positive integer)", u.name)
		}
	}
	for i := range v.c.Inputs {
		in := &v.c.Inputs[i]
		if first, ok := v.inputs[in.Name]; ok && first == i && !used[i] {
			v.add(at("inputs").i(i).f("name"), CodeUnusedInput, "the input is never used (no template, action input or limit_input refers to it)", in.Name)
		}
	}
}

// outputDecls checks each output declaration on its own.
func (v *validation) outputDecls() {
	for i := range v.c.Outputs {
		o := &v.c.Outputs[i]
		p := at("outputs").i(i)
		if first, ok := v.outputs[o.Name]; ok && first != i {
			v.add(p.f("name"), CodeDuplicateOutput, "output name declared twice", o.Name)
		}
		switch o.Kind {
		case OutputRecord, OutputRecordSet:
			if len(o.Fields) == 0 {
				v.add(p.f("fields"), CodeOutputFieldsRequired, "a record output declares its exact fields", "")
			}
		case OutputText, OutputDownloadSet:
			if len(o.Fields) > 0 {
				v.add(p.f("fields"), CodeOutputFieldsNotAllowed, fmt.Sprintf("a %s output has no fields", o.Kind), "")
			}
		}
		if o.Kind == OutputDownloadSet && o.Exposure.valid() && o.Exposure != ExposureArtifactOnly {
			v.add(p.f("exposure"), CodeDownloadExposure, "download sets are always artifact_only", string(o.Exposure))
		}
		seen := map[string]bool{}
		for j, f := range o.Fields {
			if f.Name != "" && seen[f.Name] {
				v.add(p.f("fields").i(j).f("name"), CodeDuplicateField, "field name declared twice", f.Name)
			}
			seen[f.Name] = true
		}
	}
}

func (e Exposure) valid() bool {
	switch e {
	case ExposureArtifactOnly, ExposureModelAndArtifact, ExposureModelSummary:
		return true
	}
	return false
}

func (k OutputKind) valid() bool {
	switch k {
	case OutputText, OutputRecord, OutputRecordSet, OutputDownloadSet:
		return true
	}
	return false
}

// outputUsage reports outputs no action produces.
func (v *validation) outputUsage() {
	for i := range v.c.Outputs {
		o := &v.c.Outputs[i]
		if first, ok := v.outputs[o.Name]; ok && first == i && !v.produced[i] {
			v.add(at("outputs").i(i).f("name"), CodeOutputNotProduced, "no extract or download action produces this output", o.Name)
		}
	}
}

// compileURLPattern compiles a business outcome's url_pattern.
func compileURLPattern(s string) (*regexp.Regexp, error) { return regexp.Compile(s) }
