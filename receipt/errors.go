package receipt

import (
	"errors"
	"fmt"

	"github.com/vera-run/vera/internal/problem"
)

// ErrVerify is wrapped by every problem [Load], the Load* functions and
// [VerifyRun] report. The specific errors below wrap it, so a caller can
// test for verification failure in general or for one reason.
var ErrVerify = errors.New("receipt: verification failed")

// Specific verification errors. Each wraps [ErrVerify]; each [Problem]
// carries exactly one of them and the matching code.
var (
	// ErrIncomplete: the run was interrupted before its evidence was
	// committed: run.lock.json is missing, or a temporary file of an
	// interrupted atomic write is left over. Incomplete is not tampered.
	ErrIncomplete = fmt.Errorf("%w: incomplete run", ErrVerify)
	// ErrMissingFile: a file the lock (or the run layout) requires is absent
	// although the lock was written.
	ErrMissingFile = fmt.Errorf("%w: missing file", ErrVerify)
	// ErrUnexpectedFile: the run directory holds an entry that is not part
	// of a run.
	ErrUnexpectedFile = fmt.Errorf("%w: unexpected file", ErrVerify)
	// ErrUnreadable: a file is a symbolic link, not a regular file, or
	// cannot be read.
	ErrUnreadable = fmt.Errorf("%w: unreadable file", ErrVerify)
	// ErrTooLarge: a file exceeds its documented size limit.
	ErrTooLarge = fmt.Errorf("%w: file too large", ErrVerify)
	// ErrMalformed: a file is not one valid JSON document (syntax, invalid
	// UTF-8, duplicate keys, trailing data) or has unknown members.
	ErrMalformed = fmt.Errorf("%w: malformed JSON", ErrVerify)
	// ErrNotCanonical: a file is valid JSON but not byte-exact RFC 8785
	// canonical JSON.
	ErrNotCanonical = fmt.Errorf("%w: not canonical JSON", ErrVerify)
	// ErrSchema: a document has the wrong schema, a member of the wrong
	// type, a missing member, a member the writer never writes, or a value
	// outside its allowed set or pattern.
	ErrSchema = fmt.Errorf("%w: schema violation", ErrVerify)
	// ErrHashMismatch: a hash does not match what it covers (the lock's
	// file hashes, an output's count or hash, download evidence).
	ErrHashMismatch = fmt.Errorf("%w: hash mismatch", ErrVerify)
	// ErrLink: the files do not belong together (different run ids, a v1
	// lock with recovery proposals, a v2 lock without).
	ErrLink = fmt.Errorf("%w: files not linked", ErrVerify)
	// ErrInconsistent: a receipt contradicts itself (clean but recovered,
	// completed with a failure, a recovered action in an unrecovered run).
	ErrInconsistent = fmt.Errorf("%w: receipt inconsistent", ErrVerify)
	// ErrSecret: a credential-shaped string appears in a file that must
	// hold none (receipt, lock, proposals).
	ErrSecret = fmt.Errorf("%w: secret-shaped content", ErrVerify)
	// ErrCapability: the receipt pins another capability (id, version,
	// execution hash or discovery hash).
	ErrCapability = fmt.Errorf("%w: capability mismatch", ErrVerify)
	// ErrInputs: the input records do not match the declared inputs.
	ErrInputs = fmt.Errorf("%w: inputs do not match the capability", ErrVerify)
	// ErrOutputs: outputs do not match the declared outputs (name, kind,
	// exposure, record shape, field types, download evidence).
	ErrOutputs = fmt.Errorf("%w: outputs do not match the capability", ErrVerify)
	// ErrOrigin: the run reached an origin the capability does not allow.
	ErrOrigin = fmt.Errorf("%w: origin not allowed", ErrVerify)
	// ErrSequence: the recorded milestones and actions do not follow the
	// capability's graph.
	ErrSequence = fmt.Errorf("%w: sequence does not follow the capability", ErrVerify)
	// ErrGrant: the receipt's grant record is malformed, its digest is not
	// the commitment's, or it does not cover the run (execution hash,
	// mode, origins reached, the capability's origins).
	ErrGrant = fmt.Errorf("%w: grant does not match the run", ErrVerify)
)

// Code is the stable machine-readable code of a verification [Problem].
type Code string

// Problem codes, one per specific error. They are stable and appear in
// [Problem.Code].
const (
	CodeIncomplete     Code = "incomplete"
	CodeMissingFile    Code = "missing_file"
	CodeUnexpectedFile Code = "unexpected_file"
	CodeUnreadable     Code = "unreadable"
	CodeTooLarge       Code = "too_large"
	CodeMalformed      Code = "malformed"
	CodeNotCanonical   Code = "not_canonical"
	CodeSchema         Code = "schema"
	CodeHashMismatch   Code = "hash_mismatch"
	CodeLink           Code = "link"
	CodeInconsistent   Code = "inconsistent"
	CodeSecret         Code = "secret"
	CodeCapability     Code = "capability"
	CodeInputs         Code = "inputs"
	CodeOutputs        Code = "outputs"
	CodeOrigin         Code = "origin"
	CodeSequence       Code = "sequence"
	CodeGrant          Code = "grant"
)

var codeOf = problem.Codes[Code]{
	ErrIncomplete:     CodeIncomplete,
	ErrMissingFile:    CodeMissingFile,
	ErrUnexpectedFile: CodeUnexpectedFile,
	ErrUnreadable:     CodeUnreadable,
	ErrTooLarge:       CodeTooLarge,
	ErrMalformed:      CodeMalformed,
	ErrNotCanonical:   CodeNotCanonical,
	ErrSchema:         CodeSchema,
	ErrHashMismatch:   CodeHashMismatch,
	ErrLink:           CodeLink,
	ErrInconsistent:   CodeInconsistent,
	ErrSecret:         CodeSecret,
	ErrCapability:     CodeCapability,
	ErrInputs:         CodeInputs,
	ErrOutputs:        CodeOutputs,
	ErrOrigin:         CodeOrigin,
	ErrSequence:       CodeSequence,
	ErrGrant:          CodeGrant,
}

// Problem is one verification problem: the file it concerns (a base name
// in the run directory, "" for the directory itself), a stable code, a
// message for a person and the specific sentinel error. Messages name
// files, members, ids and counts; they never quote an input value, an
// output value or raw error text.
type Problem struct {
	File    string `json:"file"`
	Code    Code   `json:"code"`
	Message string `json:"message"`
	// Err is the specific sentinel ([ErrHashMismatch], ...); it wraps
	// [ErrVerify].
	Err error `json:"-"`
}

// Error implements error.
func (p Problem) Error() string {
	if p.File == "" {
		return p.Message + " [" + string(p.Code) + "]"
	}
	return p.File + ": " + p.Message + " [" + string(p.Code) + "]"
}

// Unwrap returns the sentinel.
func (p Problem) Unwrap() error { return p.Err }

func newProblem(file string, sentinel error, format string, args ...any) Problem {
	return Problem{File: file, Code: codeOf.Of(sentinel), Message: fmt.Sprintf(format, args...), Err: sentinel}
}

// problems collects problems in order.
type problems []Problem

func (ps *problems) add(file string, sentinel error, format string, args ...any) {
	*ps = append(*ps, newProblem(file, sentinel, format, args...))
}

// Report is the result of [VerifyRun] (and of [Load]): every problem
// found, filled even when verification fails, in the style of
// golang.org/x/mod/zip.CheckedFiles.
type Report struct {
	// Dir is the run directory.
	Dir string `json:"dir"`
	// Complete is false when the run's evidence was never committed (no
	// run.lock.json, or leftover temporary files). An incomplete run is
	// reported as such, never as tampered.
	Complete bool `json:"complete"`
	// RunID is the run id of the lock (or the receipt when there is no
	// lock), when readable.
	RunID string `json:"run_id,omitempty"`
	// ReceiptHash is the sha256 of run.receipt.json's bytes, when readable.
	ReceiptHash string `json:"receipt_hash,omitempty"`
	// Problems lists every problem, in the order found.
	Problems []Problem `json:"problems"`
}

// Err returns nil when the report has no problem, else a *[VerifyError]
// matching every problem's sentinel with errors.Is.
func (r *Report) Err() error {
	if r == nil || len(r.Problems) == 0 {
		return nil
	}
	return &VerifyError{Dir: r.Dir, Problems: r.Problems}
}

// Has reports whether the report holds a problem with the given sentinel
// (compared with errors.Is).
func (r *Report) Has(sentinel error) bool {
	for _, p := range r.Problems {
		if errors.Is(p.Err, sentinel) {
			return true
		}
	}
	return false
}

// VerifyError is the error of a failed verification. It wraps every
// problem, so errors.Is(err, ErrHashMismatch) holds when any problem is a
// hash mismatch, and errors.Is(err, ErrVerify) always holds.
type VerifyError struct {
	Dir      string
	Problems []Problem
}

// Error implements error, listing at most the first ten problems.
func (e *VerifyError) Error() string {
	header := "receipt: verification failed"
	if e.Dir != "" {
		header += " for " + e.Dir
	}
	return problem.List(header, e.Problems, Problem.Error, problem.MaxListed)
}

// Unwrap returns the problems.
func (e *VerifyError) Unwrap() []error {
	out := make([]error, len(e.Problems))
	for i, p := range e.Problems {
		out[i] = p
	}
	return out
}

// Is reports ErrVerify for any VerifyError (even an empty one).
func (e *VerifyError) Is(target error) bool { return target == ErrVerify }

// short quotes an untrusted string for a message, bounded to 80 bytes
// (a whole digest fits).
func short(s string) string {
	if len(s) > 80 {
		return fmt.Sprintf("%q...", s[:80])
	}
	return fmt.Sprintf("%q", s)
}
