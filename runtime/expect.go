package runtime

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/jsonptr"
	"github.com/vera-run/vera/receipt"
)

// errNotScalar: a json_pointer names an object or an array.
var errNotScalar = errors.New("the pointer names an object or an array, not a scalar")

// jsonField takes a field out of JSON text with an RFC 6901 pointer: a
// string without its quotes, a number in its JSON decimal form, a boolean
// as true/false, null as "". Errors match jsonptr.ErrNotJSON,
// jsonptr.ErrMissing or errNotScalar; see jsonReason.
func jsonField(text, pointer string) (string, error) {
	v, err := jsonptr.Eval(text, pointer)
	if err != nil {
		return "", err
	}
	switch x := v.(type) {
	case string:
		return x, nil
	case json.Number:
		return x.String(), nil
	case bool:
		return strconv.FormatBool(x), nil
	case nil:
		return "", nil
	}
	return "", errNotScalar
}

// jsonReason is the reason of a jsonField error.
func jsonReason(err error) Reason {
	switch {
	case errors.Is(err, jsonptr.ErrNotJSON):
		return ReasonJSONInvalid
	case errors.Is(err, errNotScalar):
		return ReasonJSONNotScalar
	}
	return ReasonJSONPointerMissing
}

// checkExpectations checks the expectations of the output an extract
// action just filled. A violation ends the run with the expectation's
// business outcome, or fails it with output_expectation_failed.
func (r *run) checkExpectations(a *capability.Action) *stop {
	o := r.outs[a.Output]
	if o == nil || !o.produced {
		return nil
	}
	d := o.decl
	check := func(what string, e *capability.Expectation, t capability.FieldType, v any) *stop {
		if e == nil {
			return nil
		}
		rule, ok := r.expectationHolds(e, t, v)
		if ok {
			return nil
		}
		if e.Outcome != "" {
			r.log.Debug("vera output expectation mapped to an outcome", "run", r.runID, "output", what, "rule", rule, "code", e.Outcome)
			return &stop{state: receipt.TerminalBusinessOutcome, outcome: e.Outcome}
		}
		return r.failed(receipt.CategoryExtractionFailed, ReasonOutputExpectationFailed,
			fmt.Sprintf("action %s output %s: the value violates its %s expectation", a.ID, what, rule))
	}
	switch d.Kind {
	case capability.OutputText:
		return check(d.Name, d.Expect, capability.FieldString, o.text)
	case capability.OutputRecord, capability.OutputRecordSet:
		recs := o.records
		if d.Kind == capability.OutputRecord {
			recs = []any{o.record}
		}
		for ri, rec := range recs {
			m, _ := rec.(map[string]any)
			for fi := range d.Fields {
				f := &d.Fields[fi]
				if st := check(fmt.Sprintf("%s record %d field %s", d.Name, ri, f.Name), f.Expect, f.Type, m[f.Name]); st != nil {
					return st
				}
			}
		}
	}
	return nil
}

// expectationHolds reports whether v satisfies every rule of e, and the
// first rule it violates. An absent value (nil or "") is not checked:
// required_fields governs it.
func (r *run) expectationHolds(e *capability.Expectation, t capability.FieldType, v any) (string, bool) {
	if v == nil || v == "" {
		return "", true
	}
	text := valueText(v)
	if len(e.Enum) > 0 && !slices.Contains(e.Enum, text) {
		return "enum", false
	}
	if e.Pattern != "" {
		re, err := capability.CompileExpectPattern(e.Pattern)
		if err != nil || !re.MatchString(text) {
			return "pattern", false
		}
	}
	if e.Minimum != nil || e.Maximum != nil {
		n, ok := number(v)
		if !ok || e.Minimum != nil && n < *e.Minimum || e.Maximum != nil && n > *e.Maximum {
			return "range", false
		}
	}
	if e.EqualsInput != "" {
		in, ok := r.vals[e.EqualsInput]
		if !ok || in.typed == nil {
			return "equals_input", false
		}
		switch t {
		case capability.FieldInteger, capability.FieldNumber:
			a, aok := number(v)
			b, bok := number(in.typed)
			if !aok || !bok || a != b {
				return "equals_input", false
			}
		default:
			if text != valueText(in.typed) {
				return "equals_input", false
			}
		}
	}
	return "", true
}

// valueText is a coerced value's text form: strings as is, integers and
// numbers in shortest decimal, booleans as true/false.
func valueText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	}
	return fmt.Sprint(v)
}

func number(v any) (float64, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case float64:
		return x, true
	}
	return 0, false
}
