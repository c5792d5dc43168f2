package canonjson

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
)

// Transform returns the RFC 8785 canonical form of the JSON text raw.
//
// raw must hold exactly one JSON value, optionally surrounded by JSON
// whitespace. Errors are *SyntaxError values; see the package documentation
// for what is rejected. raw is not modified and not retained.
func Transform(raw []byte) ([]byte, error) {
	p := getParser()
	defer putParser(p)
	b, err := p.run(raw)
	if err != nil {
		return nil, err
	}
	return bytes.Clone(b), nil
}

// Marshal returns the RFC 8785 canonical JSON encoding of v.
//
// v is first encoded with encoding/json semantics (struct tags, omitempty,
// json.Marshaler, encoding.TextMarshaler, json.RawMessage, json.Number), with
// HTML escaping off, and the result is canonicalized as by Transform. A NaN or
// infinite float yields an error wrapping ErrNonFinite; an integer that is not
// exactly representable as a float64 (beyond ±2^53) yields ErrUnsafeInteger;
// other encoding/json errors are returned unchanged.
func Marshal(v any) ([]byte, error) {
	var out []byte
	err := canonical(v, func(b []byte) { out = bytes.Clone(b) })
	return out, err
}

// Digest returns "sha256:" followed by the lowercase hex SHA-256 of
// Marshal(v).
func Digest(v any) (string, error) {
	var d string
	err := canonical(v, func(b []byte) { d = sum(b) })
	return d, err
}

// DigestBytes returns "sha256:" followed by the lowercase hex SHA-256 of
// Transform(raw). Use it for JSON text, canonical or not; use SumBytes to
// hash a file's bytes as they are.
func DigestBytes(raw []byte) (string, error) {
	p := getParser()
	defer putParser(p)
	b, err := p.run(raw)
	if err != nil {
		return "", err
	}
	return sum(b), nil
}

// SumBytes returns "sha256:" followed by the lowercase hex SHA-256 of b,
// unmodified. It is the digest of a file, not of a JSON document.
func SumBytes(b []byte) string { return sum(b) }

const digestPrefix = "sha256:"

// DigestLen is the length of a digest string: "sha256:" and 64 hex digits.
const DigestLen = len(digestPrefix) + 2*sha256.Size

func sum(b []byte) string {
	h := sha256.Sum256(b)
	var s [DigestLen]byte
	copy(s[:], digestPrefix)
	for i, c := range h {
		s[len(digestPrefix)+2*i] = hexDigits[c>>4]
		s[len(digestPrefix)+2*i+1] = hexDigits[c&0xF]
	}
	return string(s[:])
}

// ParseDigest decodes a digest string of the form "sha256:" followed by
// exactly 64 lowercase hexadecimal digits. Anything else (uppercase hex,
// another algorithm, surrounding space, wrong length) is rejected with an
// error wrapping ErrInvalidDigest.
func ParseDigest(s string) ([32]byte, error) {
	var h [32]byte
	if len(s) != DigestLen || s[:len(digestPrefix)] != digestPrefix {
		return h, fmt.Errorf("%w: want %q followed by 64 lowercase hex digits", ErrInvalidDigest, digestPrefix)
	}
	for i := range h {
		hi, ok1 := unhex(s[len(digestPrefix)+2*i])
		lo, ok2 := unhex(s[len(digestPrefix)+2*i+1])
		if !ok1 || !ok2 {
			return [32]byte{}, fmt.Errorf("%w: non-lowercase-hex character", ErrInvalidDigest)
		}
		h[i] = hi<<4 | lo
	}
	return h, nil
}

// ValidDigest reports whether ParseDigest would accept s.
func ValidDigest(s string) bool {
	_, err := ParseDigest(s)
	return err == nil
}

func unhex(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	}
	return 0, false
}

var encPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// canonical encodes v with encoding/json, canonicalizes it and passes the
// canonical bytes (valid only during the call) to use.
func canonical(v any, use func([]byte)) error {
	buf := encPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer func() {
		if buf.Cap() <= maxPooled {
			encPool.Put(buf)
		}
	}()
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		var uv *json.UnsupportedValueError
		if errors.As(err, &uv) && (uv.Str == "NaN" || uv.Str == "+Inf" || uv.Str == "-Inf") {
			return fmt.Errorf("%w: %w", ErrNonFinite, err)
		}
		return err
	}
	p := getParser()
	defer putParser(p)
	b, err := p.run(buf.Bytes())
	if err != nil {
		return err
	}
	use(b)
	return nil
}
