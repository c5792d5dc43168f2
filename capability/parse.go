package capability

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strconv"

	"github.com/vera-run/vera/internal/canonjson"
	"github.com/vera-run/vera/internal/redact"
)

// MaxDocumentBytes bounds a capability document. Parse reads at most this
// many bytes plus one and fails beyond it.
const MaxDocumentBytes = 4 << 20

// ErrTooLarge is wrapped when a document exceeds [MaxDocumentBytes].
var ErrTooLarge = errors.New("document exceeds MaxDocumentBytes")

// ErrSchema is wrapped when the schema field is not [SchemaV1].
var ErrSchema = errors.New("unsupported schema")

// Parse reads one browser-capability/v1 document strictly: valid UTF-8 JSON,
// no duplicate keys at any depth, no unknown fields (member names match
// exactly, case included), values of the declared JSON types, no trailing
// data, the exact schema string, at most [MaxDocumentBytes]. It does not
// validate the contract rules; call [Capability.Validate] for that. Errors
// wrap [ErrParse] and are *ParseError with a [ParseError.Code].
func Parse(r io.Reader) (*Capability, error) {
	raw, err := io.ReadAll(io.LimitReader(r, MaxDocumentBytes+1))
	if err != nil {
		return nil, &ParseError{Code: ParseCodeRead, Offset: -1, Err: err}
	}
	if len(raw) > MaxDocumentBytes {
		return nil, &ParseError{Code: ParseCodeTooLarge, Offset: MaxDocumentBytes, Err: ErrTooLarge}
	}
	return ParseBytes(raw)
}

// ParseBytes is [Parse] over a byte slice.
func ParseBytes(raw []byte) (*Capability, error) {
	if len(raw) > MaxDocumentBytes {
		return nil, &ParseError{Code: ParseCodeTooLarge, Offset: MaxDocumentBytes, Err: ErrTooLarge}
	}
	// Canonicalisation rejects duplicate keys, invalid UTF-8, lone
	// surrogates, unsafe integers and trailing data.
	if _, err := canonjson.Transform(raw); err != nil {
		pe := &ParseError{Code: ParseCodeSyntax, Offset: -1, Err: err}
		var se *canonjson.SyntaxError
		if errors.As(err, &se) {
			pe.Offset = se.Offset
		}
		switch {
		case errors.Is(err, canonjson.ErrDuplicateKey):
			pe.Code = ParseCodeDuplicateKey
		case errors.Is(err, canonjson.ErrTrailingData):
			pe.Code = ParseCodeTrailingData
		}
		return nil, pe
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var generic any
	if err := dec.Decode(&generic); err != nil {
		return nil, &ParseError{Code: ParseCodeSyntax, Offset: dec.InputOffset(), Err: err}
	}
	top, ok := generic.(map[string]any)
	if !ok {
		return nil, &ParseError{Code: ParseCodeWrongType, Offset: -1, Err: errors.New("a capability is a JSON object")}
	}
	schema, present := top["schema"]
	if !present || schema == nil {
		return nil, &ParseError{Code: ParseCodeUnsupportedSchema, Offset: -1, Path: "schema", Err: fmt.Errorf("%w: missing schema field", ErrSchema)}
	}
	if s, _ := schema.(string); s != SchemaV1 {
		return nil, &ParseError{Code: ParseCodeUnsupportedSchema, Offset: -1, Path: "schema", Err: fmt.Errorf("%w %q (want %q)", ErrSchema, fmt.Sprint(schema), SchemaV1)}
	}
	if pe := checkMembers(generic, capabilityType, nil); pe != nil {
		return nil, pe
	}
	dec = json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var c Capability
	if err := dec.Decode(&c); err != nil {
		pe := &ParseError{Code: ParseCodeWrongType, Offset: dec.InputOffset(), Err: err}
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			pe.Offset, pe.Path = te.Offset, te.Field
		}
		return nil, pe
	}
	return &c, nil
}

// checkMembers walks a generically decoded document along the Go type and
// reports the first member (in path order, keys sorted) that the type does
// not define with exactly that name, or a value of the wrong JSON type.
// encoding/json alone would accept case-insensitive member names, which
// would let "ID" and "id" both set the same field.
func checkMembers(v any, t reflect.Type, segs []pathSeg) *ParseError {
	if v == nil {
		return nil // null leaves the zero value, as in encoding/json
	}
	t = derefType(t)
	if t == rawMessageType {
		return nil
	}
	wrong := func(want string) *ParseError {
		return &ParseError{Code: ParseCodeWrongType, Offset: -1, Path: renderPath(segs),
			Err: fmt.Errorf("want %s, found %s", want, jsonKind(v))}
	}
	switch t.Kind() {
	case reflect.Struct:
		obj, ok := v.(map[string]any)
		if !ok {
			return wrong("an object")
		}
		si := infoOf(t)
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			pos, ok := si.byName[k]
			if !ok {
				if _, secret := redact.FindSecret(k); secret {
					return &ParseError{Code: ParseCodeUnknownField, Offset: -1, Path: renderPath(segs),
						Err: errors.New("unknown field (name withheld: it is credential-shaped)")}
				}
				return &ParseError{Code: ParseCodeUnknownField, Offset: -1, Path: renderPath(append(segs, pathSeg{name: k})),
					Err: fmt.Errorf("unknown field %q", k)}
			}
			if pe := checkMembers(obj[k], si.fields[pos].typ, append(segs, pathSeg{name: k})); pe != nil {
				return pe
			}
		}
	case reflect.Slice:
		arr, ok := v.([]any)
		if !ok {
			return wrong("an array")
		}
		for i, e := range arr {
			if pe := checkMembers(e, t.Elem(), append(segs, pathSeg{index: i})); pe != nil {
				return pe
			}
		}
	case reflect.String:
		if _, ok := v.(string); !ok {
			return wrong("a string")
		}
	case reflect.Bool:
		if _, ok := v.(bool); !ok {
			return wrong("a boolean")
		}
	case reflect.Int, reflect.Int64, reflect.Int32:
		n, ok := v.(json.Number)
		if !ok {
			return wrong("an integer")
		}
		if _, err := strconv.ParseInt(string(n), 10, 64); err != nil {
			return wrong("an integer")
		}
	case reflect.Float64, reflect.Float32:
		if _, ok := v.(json.Number); !ok {
			return wrong("a number")
		}
	}
	return nil
}

func jsonKind(v any) string {
	switch v.(type) {
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	}
	return "null"
}

// Marshal encodes the capability as indented, deterministic JSON for
// storage and review (struct field order, two-space indent, trailing
// newline). Hashes never depend on this layout: they use RFC 8785.
func (c *Capability) Marshal() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(c); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Clone returns a deep copy through JSON, so a caller can change the copy
// (for example its state) without touching the original.
func (c *Capability) Clone() (*Capability, error) {
	raw, err := json.Marshal(c)
	if err != nil {
		return nil, err
	}
	var out Capability
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, err
	}
	return &out, nil
}
