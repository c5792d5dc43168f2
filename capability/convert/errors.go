package convert

import (
	"errors"
	"fmt"
	"strings"

	"github.com/vera-run/vera/capability"
)

// ErrInvalidSource is matched (errors.Is) by every error that reports a
// source document the importer refuses: bad JSON, an unknown or missing
// member, a value outside the format, a step without a faithful mapping
// that would change what the process does.
var ErrInvalidSource = errors.New("convert: invalid source")

// ErrInvalidDraft is matched when the mapped draft breaks a rule of
// browser-capability/v1 ([capability.Capability.Validate]); the import never
// hands out a document that does not validate.
var ErrInvalidDraft = errors.New("convert: the imported draft is not a valid capability")

// SourceError is one problem of the source document.
type SourceError struct {
	// Format is the source format ([FormatSeed004] or [FormatRecorder]).
	Format string
	// Path is the JSON path of the offending value in the source
	// (steps[2].target.primary.role), "" for the document itself.
	Path string
	// Code is a stable machine-readable problem name (the Code constants).
	Code string
	// Message explains the problem for a person.
	Message string
}

// Stable codes of [SourceError].
const (
	CodeSyntax        = "source_syntax"         // not one strict JSON value (duplicate keys, trailing data)
	CodeTooLarge      = "source_too_large"      // over MaxSourceBytes
	CodeUnknownMember = "source_unknown_member" // a member the format does not define
	CodeMissingMember = "source_missing_member" // a required member is absent
	CodeWrongType     = "source_wrong_type"     // a value of the wrong JSON type
	CodeBadValue      = "source_bad_value"      // a value outside the format (enum, pattern, range)
	CodeUnsupported   = "source_unsupported"    // valid in the format, but no faithful mapping exists and dropping it would change the process
)

// Error implements error.
func (e *SourceError) Error() string {
	if e.Path == "" {
		return fmt.Sprintf("%s: %s [%s]", e.Format, e.Message, e.Code)
	}
	return fmt.Sprintf("%s: %s: %s [%s]", e.Format, e.Path, e.Message, e.Code)
}

// Is makes every *SourceError match [ErrInvalidSource].
func (e *SourceError) Is(target error) bool { return target == ErrInvalidSource }

// SourceErrors is every problem found in a source document, in document
// order. A non-empty list matches [ErrInvalidSource].
type SourceErrors []*SourceError

// Error lists the problems, one per line.
func (l SourceErrors) Error() string {
	parts := make([]string, len(l))
	for i, e := range l {
		parts[i] = e.Error()
	}
	return strings.Join(parts, "\n")
}

// Is matches [ErrInvalidSource] when the list is not empty.
func (l SourceErrors) Is(target error) bool { return target == ErrInvalidSource && len(l) > 0 }

// Unwrap returns the individual problems.
func (l SourceErrors) Unwrap() []error {
	out := make([]error, len(l))
	for i, e := range l {
		out[i] = e
	}
	return out
}

// HasCode reports whether some problem carries the code.
func (l SourceErrors) HasCode(code string) bool {
	for _, e := range l {
		if e.Code == code {
			return true
		}
	}
	return false
}

// DraftError reports that the mapped draft does not validate. It matches
// [ErrInvalidDraft] and unwraps to the capability's problems (which match
// capability.ErrInvalid).
type DraftError struct {
	Format   string
	Problems capability.ErrorList
}

// Error names the format and lists the problems.
func (e *DraftError) Error() string {
	return e.Format + ": the imported draft is not a valid capability:\n" + e.Problems.Error()
}

// Is matches [ErrInvalidDraft].
func (e *DraftError) Is(target error) bool { return target == ErrInvalidDraft }

// Unwrap returns the capability problems.
func (e *DraftError) Unwrap() error { return e.Problems }
