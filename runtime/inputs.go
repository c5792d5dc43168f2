package runtime

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/vera-run/vera/capability"
)

// maxSafeInteger is 2^53-1, the largest integer canonical JSON (and a
// float64) holds exactly.
const maxSafeInteger = 1<<53 - 1

// inputValue is one effective input: the typed value (string, int64,
// float64 or bool) and its text form for templates.
type inputValue struct {
	typed    any
	text     string
	supplied bool
	secret   bool
}

// checkInputs type-checks the supplied inputs against the declarations and
// returns the effective values (supplied, else a public default). Every
// problem is collected; values are never echoed.
func checkInputs(c *capability.Capability, supplied map[string]any) (map[string]inputValue, error) {
	var probs []InputProblem
	add := func(name, code, format string, a ...any) {
		probs = append(probs, InputProblem{Name: name, Code: code, Message: fmt.Sprintf(format, a...)})
	}
	out := make(map[string]inputValue, len(c.Inputs))
	for name := range supplied {
		if _, ok := c.Input(name); !ok {
			add(name, InputUnknown, "not a declared input")
		}
	}
	limitInputs := map[string]bool{}
	for _, a := range c.Actions {
		if a.Extract != nil && a.Extract.LimitInput != "" {
			limitInputs[a.Extract.LimitInput] = true
		}
	}
	for i := range c.Inputs {
		in := &c.Inputs[i]
		v, ok := supplied[in.Name]
		if ok && v == nil {
			ok = false
		}
		if !ok {
			if in.Required {
				add(in.Name, InputMissing, "required input not supplied")
				continue
			}
			if len(in.Default) == 0 || in.Secret {
				continue
			}
			dec := json.NewDecoder(bytes.NewReader(in.Default))
			dec.UseNumber()
			var d any
			if err := dec.Decode(&d); err != nil {
				add(in.Name, InputType, "default is not JSON")
				continue
			}
			tv, text, code, msg := coerceInput(in, d)
			if code != "" {
				add(in.Name, code, "default: %s", msg)
				continue
			}
			out[in.Name] = inputValue{typed: tv, text: text}
			continue
		}
		tv, text, code, msg := coerceInput(in, v)
		if code != "" {
			add(in.Name, code, "%s", msg)
			continue
		}
		if limitInputs[in.Name] {
			if n, isInt := tv.(int64); !isInt || n < 1 {
				add(in.Name, InputRange, "a runtime limit must be a positive integer")
				continue
			}
		}
		out[in.Name] = inputValue{typed: tv, text: text, supplied: true, secret: in.Secret}
	}
	if len(probs) > 0 {
		slices.SortStableFunc(probs, func(a, b InputProblem) int {
			if a.Name != b.Name {
				return strings.Compare(a.Name, b.Name)
			}
			return strings.Compare(a.Code, b.Code)
		})
		return nil, &InputError{Problems: probs}
	}
	return out, nil
}

// coerceInput checks one value against its declaration. It returns the
// typed value, its template text, or a problem code and message.
func coerceInput(in *capability.Input, v any) (typed any, text, code, msg string) {
	switch in.Type {
	case capability.InputString, capability.InputEnum:
		s, ok := v.(string)
		if !ok {
			return nil, "", InputType, "want a string, got " + kindOf(v)
		}
		if !utf8.ValidString(s) {
			return nil, "", InputFormat, "not valid UTF-8"
		}
		if in.Type == capability.InputEnum {
			if !slices.Contains(in.Values, s) {
				return nil, "", InputEnum, "not one of the declared values"
			}
			return s, s, "", ""
		}
		if in.MaxLength > 0 && utf8.RuneCountInString(s) > in.MaxLength {
			return nil, "", InputLength, fmt.Sprintf("longer than %d characters", in.MaxLength)
		}
		return s, s, "", ""
	case capability.InputBoolean:
		b, ok := v.(bool)
		if !ok {
			return nil, "", InputType, "want a boolean, got " + kindOf(v)
		}
		return b, strconv.FormatBool(b), "", ""
	case capability.InputDate:
		switch d := v.(type) {
		case string:
			t, err := time.Parse(time.DateOnly, d)
			if err != nil || t.Format(time.DateOnly) != d {
				return nil, "", InputFormat, "want a date as YYYY-MM-DD"
			}
			return d, d, "", ""
		case time.Time:
			s := d.Format(time.DateOnly)
			return s, s, "", ""
		}
		return nil, "", InputType, "want a date string, got " + kindOf(v)
	case capability.InputInteger:
		n, code, msg := toInt64(v)
		if code != "" {
			return nil, "", code, msg
		}
		f := float64(n)
		if in.Minimum != nil && f < *in.Minimum {
			return nil, "", InputRange, "below the minimum"
		}
		if in.Maximum != nil && f > *in.Maximum {
			return nil, "", InputRange, "above the maximum"
		}
		return n, strconv.FormatInt(n, 10), "", ""
	case capability.InputNumber:
		f, code, msg := toFloat64(v)
		if code != "" {
			return nil, "", code, msg
		}
		if in.Minimum != nil && f < *in.Minimum {
			return nil, "", InputRange, "below the minimum"
		}
		if in.Maximum != nil && f > *in.Maximum {
			return nil, "", InputRange, "above the maximum"
		}
		return f, strconv.FormatFloat(f, 'f', -1, 64), "", ""
	}
	return nil, "", InputType, fmt.Sprintf("unknown input type %q", in.Type)
}

func kindOf(v any) string {
	if v == nil {
		return "null"
	}
	if _, ok := v.(json.Number); ok {
		return "number"
	}
	return reflect.TypeOf(v).Kind().String()
}

// toInt64 accepts Go integers, integral floats and json.Number literals of
// integral values within ±(2^53-1).
func toInt64(v any) (int64, string, string) {
	var f float64
	switch n := v.(type) {
	case int:
		return rangeInt(int64(n))
	case int8:
		return rangeInt(int64(n))
	case int16:
		return rangeInt(int64(n))
	case int32:
		return rangeInt(int64(n))
	case int64:
		return rangeInt(n)
	case uint:
		if uint64(n) > maxSafeInteger {
			return 0, InputRange, "beyond ±(2^53-1)"
		}
		return int64(n), "", ""
	case uint8:
		return int64(n), "", ""
	case uint16:
		return int64(n), "", ""
	case uint32:
		return int64(n), "", ""
	case uint64:
		if n > maxSafeInteger {
			return 0, InputRange, "beyond ±(2^53-1)"
		}
		return int64(n), "", ""
	case float32:
		f = float64(n)
	case float64:
		f = n
	case json.Number:
		if i, err := strconv.ParseInt(string(n), 10, 64); err == nil {
			return rangeInt(i)
		}
		x, err := strconv.ParseFloat(string(n), 64)
		if err != nil {
			return 0, InputType, "not a number"
		}
		f = x
	default:
		return 0, InputType, "want an integer, got " + kindOf(v)
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, InputNotFinite, "not a finite number"
	}
	if f != math.Trunc(f) {
		return 0, InputType, "want an integer, got a fraction"
	}
	if math.Abs(f) > maxSafeInteger {
		return 0, InputRange, "beyond ±(2^53-1)"
	}
	return int64(f), "", ""
}

func rangeInt(n int64) (int64, string, string) {
	if n > maxSafeInteger || n < -maxSafeInteger {
		return 0, InputRange, "beyond ±(2^53-1)"
	}
	return n, "", ""
}

// toFloat64 accepts Go numbers and json.Number literals; NaN and infinities
// are refused.
func toFloat64(v any) (float64, string, string) {
	var f float64
	switch n := v.(type) {
	case int:
		f = float64(n)
	case int8:
		f = float64(n)
	case int16:
		f = float64(n)
	case int32:
		f = float64(n)
	case int64:
		f = float64(n)
	case uint:
		f = float64(n)
	case uint8:
		f = float64(n)
	case uint16:
		f = float64(n)
	case uint32:
		f = float64(n)
	case uint64:
		f = float64(n)
	case float32:
		f = float64(n)
	case float64:
		f = n
	case json.Number:
		x, err := strconv.ParseFloat(string(n), 64)
		if err != nil {
			return 0, InputType, "not a number"
		}
		f = x
	default:
		return 0, InputType, "want a number, got " + kindOf(v)
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, InputNotFinite, "not a finite number"
	}
	return f, "", ""
}

// templateNames returns the input names "{{name}}" templates in s refer
// to, in order; an encoding suffix ("|json", "|url") is not part of the
// name. Whitespace inside the braces is ignored. ok is false for an
// unterminated or empty template or an unknown encoding.
func templateNames(s string) (names []string, ok bool) {
	for {
		i := strings.Index(s, "{{")
		if i < 0 {
			return names, true
		}
		j := strings.Index(s[i+2:], "}}")
		if j < 0 {
			return names, false
		}
		name, enc, _ := splitTemplate(s[i+2 : i+2+j])
		if name == "" || (enc != "" && enc != capability.EncodingJSON && enc != capability.EncodingURL) {
			return names, false
		}
		names = append(names, name)
		s = s[i+2+j+2:]
	}
}

// splitTemplate splits a template body "name|enc" into its trimmed name
// and encoding.
func splitTemplate(body string) (name string, enc capability.TemplateEncoding, hasEnc bool) {
	n, e, has := strings.Cut(strings.TrimSpace(body), "|")
	return strings.TrimSpace(n), capability.TemplateEncoding(strings.TrimSpace(e)), has
}

// substitute replaces every template in s with its input value written in
// the template's encoding ([capability.TemplateEncoding]): "{{name|json}}"
// as one JSON value, "{{name|url}}" percent-encoded, "{{name}}" as
// enc(value text) (raw when enc is nil). Where the context itself encodes
// (enc is encodeURIComponent, a navigation fragment), a json value is then
// encoded by enc too and a url value is not encoded twice. Absent optional
// inputs substitute the empty string (null for json).
func substitute(s string, vals map[string]inputValue, enc func(string) string) string {
	if !strings.Contains(s, "{{") {
		return s
	}
	var b strings.Builder
	for {
		i := strings.Index(s, "{{")
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		j := strings.Index(s[i+2:], "}}")
		if j < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		name, encoding, _ := splitTemplate(s[i+2 : i+2+j])
		iv := vals[name]
		var v string
		switch encoding {
		case capability.EncodingJSON:
			v = jsonText(iv.typed)
			if enc != nil {
				v = enc(v)
			}
		case capability.EncodingURL:
			v = encodeURIComponent(iv.text)
		default:
			v = iv.text
			if enc != nil {
				v = enc(v)
			}
		}
		b.WriteString(v)
		s = s[i+2+j+2:]
	}
}

// jsonText writes a typed input value (string, int64, float64, bool, or
// nil when absent) as one JSON value, without HTML escaping.
func jsonText(v any) string {
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	if err := e.Encode(v); err != nil {
		// Typed input values always encode; a NaN or infinity was refused
		// when the input was checked.
		return "null"
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// encodeURIComponent percent-encodes s as JavaScript's encodeURIComponent
// does: every UTF-8 byte except A-Z a-z 0-9 - _ . ! ~ * ' ( ) is escaped
// as %XX with upper-case hex digits.
func encodeURIComponent(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-_.!~*'()", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}
