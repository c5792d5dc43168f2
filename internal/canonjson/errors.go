package canonjson

import (
	"errors"
	"strconv"
)

// MaxDepth is the deepest nesting of arrays and objects that Transform and
// Marshal accept. A document whose top-level value is an array holding an
// array has depth 2; the 1001st nested container is rejected with ErrDepth.
// The limit keeps the recursive-descent parser's stack bounded on hostile
// input.
const MaxDepth = 1000

// Sentinel errors. Every error returned by Transform, DigestBytes or the
// canonicalization step of Marshal and Digest that is caused by the input is
// a *SyntaxError; when the cause is one of the conditions below, the
// *SyntaxError wraps the matching sentinel so errors.Is works.
var (
	// ErrDuplicateKey reports an object with two members whose names are
	// equal after escape decoding ("a" and "\u0061" are duplicates).
	ErrDuplicateKey = errors.New("canonjson: duplicate object key")

	// ErrInvalidUTF8 reports a string containing bytes that are not
	// well-formed UTF-8 (including UTF-8 encoded surrogates and overlong
	// forms).
	ErrInvalidUTF8 = errors.New("canonjson: invalid UTF-8 in string")

	// ErrLoneSurrogate reports a \uD800-\uDBFF escape not immediately
	// followed by a \uDC00-\uDFFF escape, or a \uDC00-\uDFFF escape with no
	// preceding high surrogate.
	ErrLoneSurrogate = errors.New("canonjson: lone UTF-16 surrogate escape")

	// ErrNonFinite reports a number that is NaN or infinite: a Go float
	// given to Marshal or Digest, or a literal such as 1e400 whose magnitude
	// overflows float64.
	ErrNonFinite = errors.New("canonjson: non-finite number")

	// ErrUnsafeInteger reports an integer literal (no fraction, no exponent)
	// whose value is not exactly representable as an IEEE-754 double, such as
	// 9007199254740993. Canonicalization would silently change it.
	ErrUnsafeInteger = errors.New("canonjson: integer not exactly representable as float64")

	// ErrTrailingData reports non-whitespace bytes after the top-level value.
	ErrTrailingData = errors.New("canonjson: trailing data after top-level value")

	// ErrDepth reports nesting deeper than MaxDepth.
	ErrDepth = errors.New("canonjson: nesting exceeds MaxDepth")

	// ErrInvalidDigest reports a digest string that is not "sha256:"
	// followed by exactly 64 lowercase hexadecimal digits.
	ErrInvalidDigest = errors.New("canonjson: invalid digest")
)

// SyntaxError describes input that cannot be canonicalized: malformed JSON or
// JSON that RFC 8785 (or this package's stricter rules) does not accept.
type SyntaxError struct {
	// Offset is the byte offset in the input at which the problem was
	// detected. For Marshal and Digest it is an offset into the
	// intermediate encoding/json output.
	Offset int64
	// Reason is a short human-readable description.
	Reason string
	// Err is the sentinel error for the class of problem (ErrDuplicateKey,
	// ErrInvalidUTF8, ...), or nil for a plain grammar error.
	Err error
}

// Error implements error.
func (e *SyntaxError) Error() string {
	return "canonjson: " + e.Reason + " at offset " + strconv.FormatInt(e.Offset, 10)
}

// Unwrap returns the sentinel error, if any.
func (e *SyntaxError) Unwrap() error { return e.Err }
