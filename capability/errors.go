package capability

import (
	"errors"
	"fmt"
	"strings"
)

// ErrInvalid is wrapped by every error that reports a capability breaking
// the contract, so callers can test with errors.Is(err, ErrInvalid).
var ErrInvalid = errors.New("capability: invalid")

// ErrInvalidArgument is wrapped when a function is called with a nil
// argument it needs (a nil io.Reader for [Parse]); it is never a panic.
var ErrInvalidArgument = errors.New("capability: invalid argument")

// ErrParse is wrapped by every parsing error (syntax, unknown field,
// duplicate key, size limit, wrong schema).
var ErrParse = errors.New("capability: parse error")

// Error is one validation problem: where, which rule, and why. It follows
// the Kubernetes field.Error pattern.
type Error struct {
	// Path is the JSON path of the offending value, such as
	// milestones[1].actions[0].locator_candidates[2].
	Path string `json:"path"`
	// Code is a stable machine-readable rule name (see the Code constants).
	Code Code `json:"code"`
	// Message explains the problem for a person.
	Message string `json:"message"`
	// BadValue is the offending value when it is safe to show; it is always
	// empty for secret inputs and for credential-shaped values.
	BadValue string `json:"bad_value,omitempty"`
}

// Error implements error.
func (e *Error) Error() string {
	s := e.Path + ": " + e.Message + " [" + string(e.Code) + "]"
	if e.Path == "" {
		s = e.Message + " [" + string(e.Code) + "]"
	}
	if e.BadValue != "" {
		s += fmt.Sprintf(" (value %q)", e.BadValue)
	}
	return s
}

// Is makes every *Error match [ErrInvalid].
func (e *Error) Is(target error) bool { return target == ErrInvalid }

// ErrorList is every validation problem of a document, in a deterministic
// order (document order of the paths, then code). A nil or empty list means
// valid.
type ErrorList []*Error

// Error implements error, listing every problem on its own line.
func (l ErrorList) Error() string {
	if len(l) == 0 {
		return "capability: valid"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "capability: %d problem(s)", len(l))
	for _, e := range l {
		b.WriteString("\n  ")
		b.WriteString(e.Error())
	}
	return b.String()
}

// Is makes a non-empty list match [ErrInvalid].
func (l ErrorList) Is(target error) bool { return target == ErrInvalid && len(l) > 0 }

// Unwrap returns the individual errors for errors.As.
func (l ErrorList) Unwrap() []error {
	out := make([]error, len(l))
	for i, e := range l {
		out[i] = e
	}
	return out
}

// Err returns nil for an empty list and the list otherwise, so a caller can
// write `if err := c.Validate().Err(); err != nil`.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

// Codes returns the codes of the list, in order.
func (l ErrorList) Codes() []Code {
	out := make([]Code, len(l))
	for i, e := range l {
		out[i] = e.Code
	}
	return out
}

// Has reports whether the list holds a problem with the given code.
func (l ErrorList) Has(code Code) bool {
	for _, e := range l {
		if e.Code == code {
			return true
		}
	}
	return false
}

// ParseError is a problem reading a capability document.
type ParseError struct {
	// Code is a stable machine-readable class of the problem (see the
	// ParseCode constants).
	Code Code
	// Offset is the byte offset of the problem when known, else -1.
	Offset int64
	// Path is the JSON path of an unknown field or mistyped value when
	// known.
	Path string
	// Line and Column locate a syntax problem for a person (1-based,
	// the column in runes), 0 when unknown.
	Line, Column int
	Err          error
}

// Parse codes reported in [ParseError.Code].
const (
	// ParseCodeRead: the reader failed.
	ParseCodeRead Code = "read_error"
	// ParseCodeTooLarge: the document exceeds [MaxDocumentBytes].
	ParseCodeTooLarge Code = "too_large"
	// ParseCodeSyntax: not one well-formed JSON value (including invalid
	// UTF-8, lone surrogates, unsafe integers and excessive nesting).
	ParseCodeSyntax Code = "syntax"
	// ParseCodeDuplicateKey: an object repeats a member name.
	ParseCodeDuplicateKey Code = "duplicate_key"
	// ParseCodeTrailingData: bytes after the top-level value.
	ParseCodeTrailingData Code = "trailing_data"
	// ParseCodeUnsupportedSchema: schema is missing or not [SchemaV1].
	ParseCodeUnsupportedSchema Code = "unsupported_schema"
	// ParseCodeUnknownField: a member this schema does not define (member
	// names match exactly, case included).
	ParseCodeUnknownField Code = "unknown_field"
	// ParseCodeWrongType: a value of the wrong JSON type (a string where a
	// number belongs, an object where an array belongs, ...).
	ParseCodeWrongType Code = "wrong_type"
)

// Error implements error.
func (e *ParseError) Error() string {
	var b strings.Builder
	b.WriteString("capability: parse")
	if e.Code != "" {
		b.WriteString(" [" + string(e.Code) + "]")
	}
	if e.Path != "" {
		b.WriteString(" at " + e.Path)
	}
	switch {
	case e.Line > 0:
		fmt.Fprintf(&b, " (line %d, column %d, offset %d)", e.Line, e.Column, e.Offset)
	case e.Offset >= 0:
		fmt.Fprintf(&b, " (offset %d)", e.Offset)
	}
	b.WriteString(": ")
	b.WriteString(e.Err.Error())
	return b.String()
}

// Unwrap returns the cause.
func (e *ParseError) Unwrap() error { return e.Err }

// Is makes every *ParseError match [ErrParse].
func (e *ParseError) Is(target error) bool { return target == ErrParse }
