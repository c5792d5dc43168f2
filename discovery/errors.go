package discovery

import (
	"errors"
	"fmt"

	"github.com/vera-run/vera/internal/problem"
)

// Sentinel errors. Every error this package returns wraps one of them, so
// callers can branch with errors.Is.
var (
	// ErrInvalidOption: an option is out of its documented range, or a
	// mode lacks what it needs (an explorer, allowed origins).
	ErrInvalidOption = errors.New("discovery: invalid option")
	// ErrInvalidArgument: a nil context given to [Observe], [SealPack],
	// [VerifyPack] or [ApproveTransfer]. It is never a panic.
	ErrInvalidArgument = errors.New("discovery: invalid argument")
	// ErrSnapshot: the page failed to produce snapshots too many times in a
	// row.
	ErrSnapshot = errors.New("discovery: snapshot failed")
	// ErrExplorer: the explorer failed.
	ErrExplorer = errors.New("discovery: explorer failed")
	// ErrRefused: discovery refused an exploration step (see [Refusal]).
	ErrRefused = errors.New("discovery: step refused")
	// ErrParse: a document is not well-formed JSON of its schema (syntax,
	// duplicate key, unknown field, wrong schema, size limit).
	ErrParse = errors.New("discovery: parse error")
	// ErrInvalid: a document breaks its schema's rules.
	ErrInvalid = errors.New("discovery: invalid document")
	// ErrPromotion: a draft cannot be promoted (see [PromotionError]).
	ErrPromotion = errors.New("discovery: promotion refused")
	// ErrPack: a developer pack cannot be sealed or does not verify.
	ErrPack = errors.New("discovery: developer pack")
)

// Problem is one rule a document breaks, with the JSON path of the value.
type Problem struct {
	// Path is the JSON path, such as "observations[2].controls[0].name".
	Path string `json:"path"`
	// Code is a stable machine-readable rule name.
	Code Code `json:"code"`
	// Detail explains the problem. It never echoes a secret or an
	// identifier.
	Detail string `json:"detail"`
}

// String renders the problem as "path: detail [code]".
func (p Problem) String() string {
	if p.Path == "" {
		return p.Detail + " [" + string(p.Code) + "]"
	}
	return p.Path + ": " + p.Detail + " [" + string(p.Code) + "]"
}

// Code is a stable machine-readable rule name of a [Problem] or a
// [PromotionError].
type Code string

// Problem codes shared by the document validators and VerifyPack.
const (
	CodeSchema       Code = "schema"        // wrong or missing schema string
	CodeRequired     Code = "required"      // a required value is missing or blank
	CodeRange        Code = "range"         // a number or length out of bounds
	CodeFormat       Code = "format"        // a value has the wrong shape
	CodeUnknown      Code = "unknown_value" // a value outside a closed set
	CodeDuplicate    Code = "duplicate"     // a value repeated where it must be unique
	CodeReference    Code = "reference"     // a reference that resolves to nothing
	CodeIdentifier   Code = "identifier"    // an identifier-shaped substring survived
	CodeSecret       Code = "secret"        // a secret-shaped string
	CodeOrigin       Code = "origin"        // an origin that breaks the origin rule
	CodeOrder        Code = "order"         // values out of their required order
	CodeNotObserved  Code = "not_observed"  // a record claims what the evidence does not hold
	CodeLinkMismatch Code = "link_mismatch" // a hash link does not match
)

// ValidationError lists every problem of a document. It wraps [ErrInvalid].
type ValidationError struct {
	// Schema is the schema of the document checked.
	Schema   string
	Problems []Problem
}

// Error lists the first problems.
func (e *ValidationError) Error() string {
	return problem.List("discovery: invalid "+e.Schema+" document", e.Problems, Problem.String, problem.MaxListed)
}

// Unwrap returns [ErrInvalid].
func (e *ValidationError) Unwrap() error { return ErrInvalid }

// problems accumulates validation problems.
type problems []Problem

func (ps *problems) add(path string, code Code, format string, args ...any) {
	*ps = append(*ps, Problem{Path: path, Code: code, Detail: fmt.Sprintf(format, args...)})
}

func (ps problems) err(schema string) error {
	if len(ps) == 0 {
		return nil
	}
	return &ValidationError{Schema: schema, Problems: ps}
}

// ParseError reports a document that could not be read.
type ParseError struct {
	// Schema is the schema the caller expected.
	Schema string
	Err    error
}

// Error names the schema and the cause.
func (e *ParseError) Error() string {
	return "discovery: parse " + e.Schema + ": " + e.Err.Error()
}

// Unwrap returns the cause.
func (e *ParseError) Unwrap() error { return e.Err }

// Is makes every *ParseError match [ErrParse].
func (e *ParseError) Is(target error) bool { return target == ErrParse }
