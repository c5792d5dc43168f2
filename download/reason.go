package download

import (
	"errors"
	"strings"
)

// Reason is a stable, sanitized reason code explaining why a download could
// not be attributed or verified. The set is closed: every value the package
// produces is listed by [Reasons], and a Reason never contains a file name, a
// path, or any other local detail, so it may be copied into a receipt or shown
// to a model.
type Reason string

// The closed set of reason codes. Codes marked "caller" are never produced by
// this package; they exist so the driver and runtime report those situations
// with the same vocabulary.
const (
	// ReasonEventMissing (caller): the browser never reported a download
	// event for the click, so no attribution is attempted.
	ReasonEventMissing Reason = "download_event_missing"
	// ReasonTimeout: no settled new file before the deadline, including a
	// new partial download that never completed.
	ReasonTimeout Reason = "download_timeout"
	// ReasonAmbiguous: the observation cannot be tied to the click, for
	// example a pre-existing partial download disappeared (it may have
	// completed under a new name) or a pre-existing file reappeared under a
	// new name.
	ReasonAmbiguous Reason = "download_ambiguous"
	// ReasonOverwrite: a pre-existing entry changed identity (same name, new
	// inode, size, mtime or type). Overwrites are an ambiguity: the result
	// cannot be told apart from the operator's existing file.
	ReasonOverwrite Reason = "download_overwrite"
	// ReasonConcurrentArrival: two or more new regular files arrived.
	ReasonConcurrentArrival Reason = "download_concurrent_arrival"
	// ReasonFolderUnavailable: the folder is missing, unreadable, not a
	// directory, or was removed or replaced during observation.
	ReasonFolderUnavailable Reason = "download_folder_unavailable"
	// ReasonCanceled (caller, or [VerifyBrowserDownload]): the browser
	// reported the download as canceled.
	ReasonCanceled Reason = "download_canceled"
	// ReasonNotRegular: the new entry is a symlink, directory, device,
	// FIFO or socket instead of a regular file.
	ReasonNotRegular Reason = "download_not_regular"
	// ReasonUnstable: the file changed between settling and the end of
	// hashing (identity recheck failed).
	ReasonUnstable Reason = "download_unstable"
	// ReasonLocked: the directory lock could not be acquired within the lock
	// timeout because another cooperating run holds it.
	ReasonLocked Reason = "download_locked"
	// ReasonTooLarge: the file is larger than the configured byte limit
	// (see [WithMaxBytes]).
	ReasonTooLarge Reason = "download_too_large"
	// ReasonInterrupted: the caller's context ended, or the Watch was
	// closed, before verification finished. The wrapped error is the
	// context's error, so errors.Is(err, context.Canceled) also works.
	ReasonInterrupted Reason = "download_interrupted"
	// ReasonInvalidRequest: misuse, such as an invalid GUID, a second call
	// to [Watch.Wait], or a malformed [File] given to [SetHash].
	ReasonInvalidRequest Reason = "download_invalid_request"
)

var allReasons = []Reason{
	ReasonEventMissing,
	ReasonTimeout,
	ReasonAmbiguous,
	ReasonOverwrite,
	ReasonConcurrentArrival,
	ReasonFolderUnavailable,
	ReasonCanceled,
	ReasonNotRegular,
	ReasonUnstable,
	ReasonLocked,
	ReasonTooLarge,
	ReasonInterrupted,
	ReasonInvalidRequest,
}

// Reasons returns the closed set of reason codes in a fixed, documented
// order. The returned slice is a fresh copy.
func Reasons() []Reason {
	out := make([]Reason, len(allReasons))
	copy(out, allReasons)
	return out
}

// Valid reports whether r is one of the codes returned by [Reasons].
func (r Reason) Valid() bool {
	for _, v := range allReasons {
		if r == v {
			return true
		}
	}
	return false
}

// String returns the code itself.
func (r Reason) String() string { return string(r) }

// Error is the error type of every failure this package reports.
//
// Error() is sanitized: it contains only the fixed operation name and the
// reason code, never a file name, path or wrapped message, so it is safe for
// receipts and model-visible failures. The wrapped Err is local detail: it
// may contain paths and OS messages, and belongs only in local logs (see
// [Error.Detail]) or, hashed, in a receipt's detail digest.
type Error struct {
	// Reason is the sanitized, stable reason code.
	Reason Reason
	// Op is a fixed operation name chosen by this package ("begin", "lock",
	// "wait", "verify", "hash", "sethash"); it never holds caller data.
	Op string
	// Err is the underlying local detail, possibly nil. It may contain
	// paths and file names and must not leave the local machine.
	Err error
}

// Error returns "download: <op>: <reason>" without any local detail.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("download: ")
	if e.Op != "" {
		b.WriteString(e.Op)
		b.WriteString(": ")
	}
	b.WriteString(string(e.Reason))
	return b.String()
}

// Detail returns the sanitized message followed by the wrapped local detail.
// The result may contain paths and file names: use it for local logs only.
func (e *Error) Detail() string {
	if e.Err == nil {
		return e.Error()
	}
	return e.Error() + ": " + e.Err.Error()
}

// Unwrap returns the wrapped local detail.
func (e *Error) Unwrap() error { return e.Err }

// Is reports whether target is an *Error with the same Reason whose Op is
// empty or equal to e.Op. This makes the per-reason sentinels such as
// [ErrTimeout] match any error carrying that reason.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	if !ok || t == nil {
		return false
	}
	return t.Reason == e.Reason && (t.Op == "" || t.Op == e.Op)
}

// errNilContext is the local detail of the [ErrInvalidRequest] that
// [Begin], [VerifyPath] and [Watch.Wait] return for a nil context.
var errNilContext = errors.New("nil context")

// Sentinel errors, one per reason code, for use with errors.Is. They carry
// only a Reason; errors returned by this package carry the same Reason plus
// an operation and local detail.
var (
	ErrEventMissing      = &Error{Reason: ReasonEventMissing}
	ErrTimeout           = &Error{Reason: ReasonTimeout}
	ErrAmbiguous         = &Error{Reason: ReasonAmbiguous}
	ErrOverwrite         = &Error{Reason: ReasonOverwrite}
	ErrConcurrentArrival = &Error{Reason: ReasonConcurrentArrival}
	ErrFolderUnavailable = &Error{Reason: ReasonFolderUnavailable}
	ErrCanceled          = &Error{Reason: ReasonCanceled}
	ErrNotRegular        = &Error{Reason: ReasonNotRegular}
	ErrUnstable          = &Error{Reason: ReasonUnstable}
	ErrLocked            = &Error{Reason: ReasonLocked}
	ErrTooLarge          = &Error{Reason: ReasonTooLarge}
	ErrInterrupted       = &Error{Reason: ReasonInterrupted}
	ErrInvalidRequest    = &Error{Reason: ReasonInvalidRequest}
)

// ReasonOf returns the Reason of the first *Error in err's chain, or "" when
// err is nil or carries no download reason.
func ReasonOf(err error) Reason {
	var e *Error
	if errors.As(err, &e) {
		return e.Reason
	}
	return ""
}

func newError(r Reason, op string, err error) *Error {
	return &Error{Reason: r, Op: op, Err: err}
}

// detailOf returns the local detail of err for logging.
func detailOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Detail()
	}
	if err == nil {
		return ""
	}
	return err.Error()
}
