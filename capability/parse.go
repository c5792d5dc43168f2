package capability

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/vera-run/vera/internal/canonjson"
)

// MaxDocumentBytes bounds a capability document. Parse reads at most this
// many bytes plus one and fails beyond it.
const MaxDocumentBytes = 4 << 20

// ErrTooLarge is wrapped when a document exceeds [MaxDocumentBytes].
var ErrTooLarge = errors.New("document exceeds MaxDocumentBytes")

// ErrSchema is wrapped when the schema field is not [SchemaV1].
var ErrSchema = errors.New("unsupported schema")

// Parse reads one browser-capability/v1 document strictly: valid UTF-8 JSON,
// no duplicate keys at any depth, no unknown fields, no trailing data, the
// exact schema string, at most [MaxDocumentBytes]. It does not validate the
// contract rules; call [Capability.Validate] for that. Errors wrap
// [ErrParse] and are *ParseError.
func Parse(r io.Reader) (*Capability, error) {
	raw, err := io.ReadAll(io.LimitReader(r, MaxDocumentBytes+1))
	if err != nil {
		return nil, &ParseError{Offset: -1, Err: err}
	}
	if len(raw) > MaxDocumentBytes {
		return nil, &ParseError{Offset: MaxDocumentBytes, Err: ErrTooLarge}
	}
	return ParseBytes(raw)
}

// ParseBytes is [Parse] over a byte slice.
func ParseBytes(raw []byte) (*Capability, error) {
	if len(raw) > MaxDocumentBytes {
		return nil, &ParseError{Offset: MaxDocumentBytes, Err: ErrTooLarge}
	}
	// Canonicalisation rejects duplicate keys, invalid UTF-8, lone
	// surrogates, unsafe integers and trailing data.
	if _, err := canonjson.Transform(raw); err != nil {
		off := int64(-1)
		var se *canonjson.SyntaxError
		if errors.As(err, &se) {
			off = int64(se.Offset)
		}
		return nil, &ParseError{Offset: off, Err: err}
	}
	var probe struct {
		Schema *string `json:"schema"`
	}
	if err := json.Unmarshal(raw, &probe); err != nil {
		return nil, &ParseError{Offset: -1, Err: err}
	}
	if probe.Schema == nil {
		return nil, &ParseError{Offset: -1, Path: "schema", Err: fmt.Errorf("%w: missing schema field", ErrSchema)}
	}
	if *probe.Schema != SchemaV1 {
		return nil, &ParseError{Offset: -1, Path: "schema", Err: fmt.Errorf("%w %q (want %q)", ErrSchema, *probe.Schema, SchemaV1)}
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var c Capability
	if err := dec.Decode(&c); err != nil {
		pe := &ParseError{Offset: dec.InputOffset(), Err: err}
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			pe.Offset, pe.Path = te.Offset, te.Field
		}
		return nil, pe
	}
	return &c, nil
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
