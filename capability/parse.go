package capability

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/vera-run/vera/internal/canonjson"
	"github.com/vera-run/vera/internal/strictjson"
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
// wrap [ErrParse] and are *ParseError with a [ParseError.Code]. A nil r is
// a *ParseError (code read) wrapping [ErrInvalidArgument].
func Parse(r io.Reader) (*Capability, error) {
	if r == nil {
		return nil, &ParseError{Code: ParseCodeRead, Offset: -1, Err: fmt.Errorf("%w: nil reader", ErrInvalidArgument)}
	}
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
	// internal/strictjson: RFC 8785 canonicalisation rejects duplicate
	// keys, invalid UTF-8, lone surrogates, unsafe integers and trailing
	// data; the typed decode matches member names exactly (encoding/json
	// alone would let "ID" set the field of "id") and checks JSON types.
	doc, err := strictjson.Parse(raw)
	if err != nil {
		return nil, parseError(err)
	}
	if _, ok := doc.Value().(map[string]any); !ok {
		return nil, &ParseError{Code: ParseCodeWrongType, Offset: -1, Err: errors.New("a capability is a JSON object")}
	}
	schema, present := doc.Member("schema")
	if !present || schema == nil {
		return nil, &ParseError{Code: ParseCodeUnsupportedSchema, Offset: -1, Path: "schema", Err: fmt.Errorf("%w: missing schema field", ErrSchema)}
	}
	if s, _ := schema.(string); s != SchemaV1 {
		return nil, &ParseError{Code: ParseCodeUnsupportedSchema, Offset: -1, Path: "schema", Err: fmt.Errorf("%w %q (want %q)", ErrSchema, fmt.Sprint(schema), SchemaV1)}
	}
	var c Capability
	if err := doc.Decode(&c); err != nil {
		return nil, parseError(err)
	}
	return &c, nil
}

// parseError maps a strictjson problem to its parse code.
func parseError(err error) *ParseError {
	pe := &ParseError{Code: ParseCodeSyntax, Offset: -1, Err: err}
	var se *strictjson.Error
	if !errors.As(err, &se) {
		return pe
	}
	pe.Offset, pe.Path, pe.Err = se.Offset, se.Path, se.Err
	pe.Line, pe.Column = se.Line, se.Column
	var syn *canonjson.SyntaxError
	if pe.Line > 0 && errors.As(se.Err, &syn) {
		// The location is in the ParseError; keep the cause's reason
		// without a second "at offset".
		pe.Err = &syntaxReason{syn}
	}
	switch se.Kind {
	case strictjson.KindDuplicateKey:
		pe.Code = ParseCodeDuplicateKey
	case strictjson.KindTrailingData:
		pe.Code = ParseCodeTrailingData
	case strictjson.KindUnknownMember:
		pe.Code = ParseCodeUnknownField
	case strictjson.KindWrongType:
		pe.Code = ParseCodeWrongType
	}
	return pe
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

// syntaxReason is a canonjson syntax error printed without its offset
// (the ParseError carries line, column and offset); it unwraps to it.
type syntaxReason struct{ se *canonjson.SyntaxError }

func (e *syntaxReason) Error() string { return e.se.Reason }
func (e *syntaxReason) Unwrap() error { return e.se }
