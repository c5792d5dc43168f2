package bundle

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	problems "github.com/vera-run/vera/internal/problem"
)

// ErrVerify is wrapped by every verification problem. The specific errors
// below wrap it, so a caller can test for failure in general or for one
// reason with [errors.Is].
var ErrVerify = errors.New("bundle: verification failed")

// Specific verification errors. Each [FileProblem] carries exactly one of
// them (and the matching code); each wraps [ErrVerify].
var (
	// ErrUnlisted: an entry on disk that the lock does not list.
	ErrUnlisted = fmt.Errorf("%w: file not in the lock", ErrVerify)
	// ErrMissing: a lock entry without a file.
	ErrMissing = fmt.Errorf("%w: listed file missing", ErrVerify)
	// ErrMismatch: a file whose size or SHA-256 differs from its lock
	// entry, or a receipt whose name is not its hash.
	ErrMismatch = fmt.Errorf("%w: size or hash mismatch", ErrVerify)
	// ErrUnsafePath: a path that fails [CheckPath] or [CheckPaths] (in the
	// lock or on disk).
	ErrUnsafePath = fmt.Errorf("%w: unsafe path", ErrVerify)
	// ErrUnsafeFile: a symbolic link or an irregular file (FIFO, socket,
	// device) where a file or directory belongs. Never followed or opened.
	ErrUnsafeFile = fmt.Errorf("%w: symbolic link or irregular file", ErrVerify)
	// ErrForbidden: a path outside the bundle layout or content that must
	// never travel (run outputs, run locks, recovery proposals, HTML,
	// images, browser storage, credentials, session URLs, discovery
	// records).
	ErrForbidden = fmt.Errorf("%w: forbidden content", ErrVerify)
	// ErrLock: bundle.lock.json is missing, malformed, not canonical, of an
	// unknown schema or algorithm, lists itself, repeats or misorders an
	// entry, or names another capability than capability.json.
	ErrLock = fmt.Errorf("%w: invalid lock", ErrVerify)
	// ErrCapability: capability.json does not parse, fails validation, is in
	// a state that never travels (scaffold, draft), or differs from what
	// the caller expects.
	ErrCapability = fmt.Errorf("%w: invalid capability", ErrVerify)
	// ErrClaim: the receipts do not support the capability's state: a
	// validated_local claim that receipt.CheckClaim rejects, or receipts
	// beside a capability that claims none.
	ErrClaim = fmt.Errorf("%w: claim not supported", ErrVerify)
	// ErrLimit: a documented limit is exceeded (files, sizes, depth).
	ErrLimit = fmt.Errorf("%w: limit exceeded", ErrVerify)
)

// Code is the stable machine-readable code of a [FileProblem].
type Code string

// Problem codes, one per specific error, as they appear in
// [FileProblem.Code].
const (
	CodeUnlisted   Code = "unlisted"
	CodeMissing    Code = "missing"
	CodeMismatch   Code = "mismatch"
	CodeUnsafePath Code = "unsafe_path"
	CodeUnsafeFile Code = "unsafe_file"
	CodeForbidden  Code = "forbidden"
	CodeLock       Code = "lock"
	CodeCapability Code = "capability"
	CodeClaim      Code = "claim"
	CodeLimit      Code = "limit"
)

var codeOf = problems.Codes[Code]{
	ErrUnlisted:   CodeUnlisted,
	ErrMissing:    CodeMissing,
	ErrMismatch:   CodeMismatch,
	ErrUnsafePath: CodeUnsafePath,
	ErrUnsafeFile: CodeUnsafeFile,
	ErrForbidden:  CodeForbidden,
	ErrLock:       CodeLock,
	ErrCapability: CodeCapability,
	ErrClaim:      CodeClaim,
	ErrLimit:      CodeLimit,
}

// FileProblem is one problem with one path of a bundle: the slash-separated
// path relative to the bundle ("" for the bundle directory itself), a
// stable code, a message for a person and the specific sentinel. Messages
// name paths, sizes, kinds and line numbers; they never quote a secret.
type FileProblem struct {
	Path    string `json:"path"`
	Code    Code   `json:"code"`
	Message string `json:"message"`
	// Err is the specific sentinel ([ErrMismatch], ...); it wraps
	// [ErrVerify].
	Err error `json:"-"`
}

// Error implements error: "path: message [code]".
func (p FileProblem) Error() string {
	where := showPath(p.Path)
	if p.Path == "" {
		where = "(bundle)"
	}
	return where + ": " + p.Message + " [" + string(p.Code) + "]"
}

// Unwrap returns the sentinel.
func (p FileProblem) Unwrap() error { return p.Err }

func problem(path string, sentinel error, format string, args ...any) FileProblem {
	return FileProblem{Path: path, Code: codeOf.Of(sentinel), Message: fmt.Sprintf(format, args...), Err: sentinel}
}

// showPath renders a path for a message: as is when it passes CheckPath,
// Go-quoted and bounded otherwise (an on-disk name may hold anything).
func showPath(p string) string {
	if CheckPath(p) == nil || strings.HasSuffix(p, "/") && CheckPath(p[:len(p)-1]) == nil {
		return p
	}
	if len(p) > 2*MaxPathLen {
		return strconv.Quote(p[:2*MaxPathLen]) + "..."
	}
	return strconv.Quote(p)
}

// VerifyError is the error of a failed [Verify]: every problem of the
// [Report]. errors.Is(err, ErrVerify) always holds, and errors.Is(err,
// ErrMismatch) holds when any problem is a mismatch; the claim error (from
// package receipt) is wrapped too.
type VerifyError struct {
	// Dir is the bundle directory ("" from ParseLock).
	Dir string
	// Problems are the [FileProblem] values and the claim error, in the
	// order of the report's fields.
	Problems []error
}

// Error implements error, listing at most the first ten problems.
func (e *VerifyError) Error() string {
	header := "bundle: verification failed"
	if e.Dir != "" {
		header += " for " + e.Dir
	}
	return problems.List(header, e.Problems, error.Error, problems.MaxListed)
}

// Unwrap returns the problems.
func (e *VerifyError) Unwrap() []error { return e.Problems }

// Is reports ErrVerify for any VerifyError.
func (e *VerifyError) Is(target error) bool { return target == ErrVerify }

// ErrSeal is wrapped by every error of [Seal]. The cause is wrapped too: an
// existing destination matches [fs.ErrExist], a capability that may not
// travel [ErrCapability], receipts that do not support the claim
// [ErrClaim] (and the receipt package's error), content the bundle rules
// forbid [ErrForbidden].
var ErrSeal = errors.New("bundle: seal")

// ErrInvalidArgument is returned (by [Verify]) or wrapped (by [Seal], with
// [ErrSeal]) for a nil context, and by [Seal] for an empty destination. It is never a panic and is not a
// verification failure: it does not match [ErrVerify].
var ErrInvalidArgument = errors.New("bundle: invalid argument")
