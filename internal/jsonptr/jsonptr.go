// Package jsonptr evaluates JSON Pointers (RFC 6901) over JSON text.
//
// Invariants:
//   - A pointer is "" (the whole document) or a sequence of "/"-prefixed
//     reference tokens; "~0" stands for "~" and "~1" for "/", and any other
//     "~" is a syntax error ([ErrSyntax]).
//   - An array index is "0" or a decimal without leading zeros; "-" (the
//     element after the last) never resolves.
//   - Evaluation decodes the text strictly: one JSON value, no trailing
//     data, numbers kept as their decimal text ([ErrNotJSON] otherwise).
//   - A token that names no member or element is [ErrMissing]; nothing
//     here panics on any input.
package jsonptr

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Errors of parsing and evaluation.
var (
	// ErrSyntax: the pointer is not RFC 6901 syntax.
	ErrSyntax = errors.New("jsonptr: invalid JSON pointer")
	// ErrNotJSON: the text is not one JSON value.
	ErrNotJSON = errors.New("jsonptr: text is not JSON")
	// ErrMissing: the pointer names no value of the document.
	ErrMissing = errors.New("jsonptr: pointer names no value")
)

// MaxLen bounds a pointer, in bytes.
const MaxLen = 500

// Parse splits a pointer into its unescaped reference tokens.
func Parse(p string) ([]string, error) {
	if len(p) > MaxLen {
		return nil, fmt.Errorf("%w: longer than %d bytes", ErrSyntax, MaxLen)
	}
	if p == "" {
		return nil, nil
	}
	if p[0] != '/' {
		return nil, fmt.Errorf("%w: a pointer is empty or starts with \"/\"", ErrSyntax)
	}
	toks := strings.Split(p[1:], "/")
	for i, t := range toks {
		for j := 0; j < len(t); j++ {
			if t[j] == '~' && (j+1 == len(t) || t[j+1] != '0' && t[j+1] != '1') {
				return nil, fmt.Errorf("%w: \"~\" is written \"~0\" and \"/\" \"~1\"", ErrSyntax)
			}
		}
		toks[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
	}
	return toks, nil
}

// Eval returns the value the pointer names in the JSON text: a string,
// json.Number, bool, nil, map[string]any or []any.
func Eval(text, pointer string) (any, error) {
	toks, err := Parse(pointer)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotJSON, err)
	}
	var rest json.RawMessage
	if err := dec.Decode(&rest); err == nil || len(bytes.TrimSpace(rest)) > 0 {
		return nil, fmt.Errorf("%w: data after the JSON value", ErrNotJSON)
	}
	cur := doc
	for i, t := range toks {
		switch v := cur.(type) {
		case map[string]any:
			next, ok := v[t]
			if !ok {
				return nil, fmt.Errorf("%w: no member %q (token %d)", ErrMissing, t, i)
			}
			cur = next
		case []any:
			n, ok := index(t)
			if !ok || n >= len(v) {
				return nil, fmt.Errorf("%w: no element %q of an array of %d (token %d)", ErrMissing, t, len(v), i)
			}
			cur = v[n]
		default:
			return nil, fmt.Errorf("%w: token %d goes into a scalar", ErrMissing, i)
		}
	}
	return cur, nil
}

// index parses an array index token: "0" or digits without a leading zero.
func index(t string) (int, bool) {
	if t == "" || len(t) > 1 && t[0] == '0' {
		return 0, false
	}
	for i := 0; i < len(t); i++ {
		if t[i] < '0' || t[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.Atoi(t)
	return n, err == nil
}
