package cdpws

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"unicode"
	"unicode/utf8"
)

// Kind is what a valid CDP message is.
type Kind int

const (
	// Response answers a command: it has an id and exactly one of result
	// or error.
	Response Kind = iota + 1
	// Event is a notification: it has a method and no id.
	Event
)

// ShapeError says why a message is not a CDP message.
type ShapeError struct{ Reason string }

func (e *ShapeError) Error() string { return e.Reason }

func shapef(format string, args ...any) *ShapeError {
	return &ShapeError{Reason: fmt.Sprintf(format, args...)}
}

// fields are the member names go-rod's client decodes, by their folded
// form. encoding/json matches names case-insensitively (with Unicode
// simple folding: "ſ" matches "s", "K" (Kelvin) matches "k"), so a
// member "ID" or "ſessionId" would reach rod's decoder as "id" or
// "sessionId": Validate refuses every spelling but the canonical one.
var (
	topFields   = foldSet("id", "method", "sessionId", "params", "result", "error")
	errorFields = foldSet("code", "message", "data")
)

func foldSet(names ...string) map[string]string {
	m := make(map[string]string, len(names))
	for _, n := range names {
		m[fold(n)] = n
	}
	return m
}

// fold is encoding/json's name folding: fold(a) == fold(b) exactly when
// encoding/json would match a against a field named b.
func fold(s string) string {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if 'a' <= c && c <= 'z' {
				c -= 'a' - 'A'
			}
			out = append(out, c)
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		out = utf8.AppendRune(out, foldRune(r))
		i += n
	}
	return string(out)
}

func foldRune(r rune) rune {
	for {
		r2 := unicode.SimpleFold(r)
		if r2 <= r {
			return r2
		}
		r = r2
	}
}

// Validate checks that msg is a message go-rod's CDP client can decode
// without failing (its reader goroutine panics on any decoding error),
// and returns its kind and, for a response, its id. The rules:
//   - msg is one JSON object (encoding/json's syntax, nesting depth
//     included);
//   - no member name occurs twice, and no name is a case variant of a
//     CDP member ("ID", "Method");
//   - "id", when present, is an integer from 0 to the largest int,
//     written without fraction or exponent;
//   - "method" and "sessionId", when present, are strings;
//   - "params" and "result", when present, are objects;
//   - "error", when present, is an object whose "code" is an integer in
//     int's range, "message" a string and "data", when present, a string;
//   - a response has "id", exactly one of "result" and "error", and no
//     "method" or "params"; an event has a non-empty "method" and no
//     "id", "result" or "error".
//
// Members with other names are allowed and ignored.
func Validate(msg []byte) (Kind, int64, error) {
	if !json.Valid(msg) {
		return 0, 0, shapef("not valid JSON")
	}
	if t := jsonType(msg); t != "object" {
		return 0, 0, shapef("a JSON %s, not an object", t)
	}
	m, err := members(msg, topFields)
	if err != nil {
		return 0, 0, err
	}
	if raw, ok := m["method"]; ok && jsonType(raw) != "string" {
		return 0, 0, shapef(`"method" is a JSON %s, not a string`, jsonType(raw))
	}
	if raw, ok := m["sessionId"]; ok && jsonType(raw) != "string" {
		return 0, 0, shapef(`"sessionId" is a JSON %s, not a string`, jsonType(raw))
	}
	for _, k := range []string{"params", "result"} {
		if raw, ok := m[k]; ok && jsonType(raw) != "object" {
			return 0, 0, shapef("%q is a JSON %s, not an object", k, jsonType(raw))
		}
	}
	if raw, ok := m["error"]; ok {
		if err := validateError(raw); err != nil {
			return 0, 0, err
		}
	}
	rawID, hasID := m["id"]
	_, hasMethod := m["method"]
	_, hasParams := m["params"]
	_, hasResult := m["result"]
	_, hasError := m["error"]
	if hasID {
		id, err := integer(rawID, "id")
		if err != nil {
			return 0, 0, err
		}
		if id < 0 {
			return 0, 0, shapef(`"id" is negative`)
		}
		switch {
		case hasMethod || hasParams:
			return 0, 0, shapef("both a response (id) and an event (method, params)")
		case hasResult && hasError:
			return 0, 0, shapef(`a response with both "result" and "error"`)
		case !hasResult && !hasError:
			return 0, 0, shapef(`a response with neither "result" nor "error"`)
		}
		return Response, id, nil
	}
	if hasResult || hasError {
		return 0, 0, shapef(`"result" or "error" without "id"`)
	}
	if !hasMethod {
		return 0, 0, shapef(`neither a response ("id") nor an event ("method")`)
	}
	var method string
	if err := json.Unmarshal(m["method"], &method); err != nil || method == "" {
		return 0, 0, shapef(`an event with an empty "method"`)
	}
	return Event, 0, nil
}

func validateError(raw json.RawMessage) error {
	if t := jsonType(raw); t != "object" {
		return shapef(`"error" is a JSON %s, not an object`, t)
	}
	m, err := members(raw, errorFields)
	if err != nil {
		return shapef(`"error": %s`, err.(*ShapeError).Reason)
	}
	code, ok := m["code"]
	if !ok {
		return shapef(`"error" has no "code"`)
	}
	if _, err := integer(code, "error.code"); err != nil {
		return err
	}
	msg, ok := m["message"]
	if !ok || jsonType(msg) != "string" {
		return shapef(`"error.message" is missing or not a string`)
	}
	if d, ok := m["data"]; ok && jsonType(d) != "string" {
		return shapef(`"error.data" is a JSON %s, not a string`, jsonType(d))
	}
	return nil
}

// members returns the members of the (valid) JSON object obj whose
// names fold to one of known, keyed by the canonical name. A repeated
// name, or a case variant of a known name, is an error.
func members(obj []byte, known map[string]string) (map[string]json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(obj))
	if _, err := dec.Token(); err != nil { // '{'
		return nil, shapef("not valid JSON")
	}
	seen := map[string]bool{}
	out := map[string]json.RawMessage{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, shapef("not valid JSON")
		}
		name, _ := tok.(string)
		if seen[name] {
			return nil, shapef("member %q occurs twice", name)
		}
		seen[name] = true
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, shapef("not valid JSON")
		}
		canon, ok := known[fold(name)]
		if !ok {
			continue
		}
		if name != canon {
			return nil, shapef("member %q is a case variant of %q", name, canon)
		}
		out[canon] = raw
	}
	return out, nil
}

// integer parses a JSON number that is an integer literal in int's range.
func integer(raw json.RawMessage, name string) (int64, error) {
	if jsonType(raw) != "number" {
		return 0, shapef("%q is a JSON %s, not an integer", name, jsonType(raw))
	}
	s := string(bytes.TrimSpace(raw))
	n, err := strconv.ParseInt(s, 10, strconv.IntSize)
	if err != nil {
		if bytes.ContainsAny(raw, ".eE") {
			return 0, shapef("%q is not an integer", name)
		}
		return 0, shapef("%q is out of range", name)
	}
	return n, nil
}

// jsonType names the type of a valid JSON value.
func jsonType(v []byte) string {
	v = bytes.TrimLeft(v, " \t\r\n")
	if len(v) == 0 {
		return "nothing"
	}
	switch v[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	default:
		return "number"
	}
}
