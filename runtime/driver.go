package runtime

import (
	"context"
	"errors"

	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/receipt"
)

// ExecutionMode is a fact about how a run was executed. Only a driver
// reports it; it is never a setting a caller chooses. It is the receipt's
// type, re-exported.
type ExecutionMode = receipt.ExecutionMode

// The execution modes.
const (
	// ModeLiveConnected is a run in an externally owned Chrome the driver
	// connected to (browser.Connect).
	ModeLiveConnected = receipt.ModeLiveConnected
	// ModeLiveLaunched is a run in a provider-owned Chromium the driver
	// launched (browser.Launch).
	ModeLiveLaunched = receipt.ModeLiveLaunched
	// ModeSimulated is a run against declarative fixtures (runtimetest).
	ModeSimulated = receipt.ModeSimulated
	// ModeUnverified is what a receipt without a mode means. No driver
	// reports it.
	ModeUnverified = receipt.ModeUnverified
)

// DownloadRoute says how a driver's downloads are attributed.
type DownloadRoute string

// The download routes.
const (
	// DownloadDirectory: the browser saves into the operator's normal
	// Downloads folder; the runtime attributes by snapshotting that folder
	// (download.Begin) before arming and clicking. The only route when
	// connected to an operator's Chrome, whose settings are never changed.
	DownloadDirectory DownloadRoute = "directory"
	// DownloadBrowserPath: the driver owns the browser and its download
	// folder, attributes the download by GUID and frame, and reports the
	// file's path in [DownloadEvent].
	DownloadBrowserPath DownloadRoute = "browser_path"
)

// DriverInfo is the static description of a driver and its browser.
type DriverInfo struct {
	Mode            ExecutionMode `json:"execution_mode"`
	Browser         string        `json:"browser"`          // product and version, e.g. "Chrome/156.0.8078.73"
	ProtocolVersion string        `json:"protocol_version"` // CDP protocol version, "" for fakes
	UserAgent       string        `json:"user_agent,omitempty"`
	DownloadRoute   DownloadRoute `json:"download_route"`
	// DownloadFolder is the folder the browser saves downloads into on
	// the [DownloadDirectory] route, when the driver knows it (a
	// connected browser.Driver given browser.WithDownloadDirectory). The runtime
	// watches it when no WithDownloadDirectory is given, so the folder is
	// named once. It is a local path: never serialized, never in evidence.
	DownloadFolder string `json:"-"`
}

// Scope is an opaque handle to a document: the top-level page or a frame
// resolved by [Driver.Frame]. Handles are only valid for the driver that
// returned them and until the next navigation of their document.
type Scope any

// Element is an opaque handle to one element returned by [Driver.Find].
// Handles are comparable: two handles a driver returns for the same DOM
// node compare equal with ==, so the runtime can tell a known dialog from
// an unknown one.
type Element any

// FrameInfo describes one frame on a resolved frame path.
type FrameInfo struct {
	// Selector is the frame selector that found the frame.
	Selector string
	// Origin is the frame document's actual origin (scheme://host[:port]),
	// or "null" for opaque origins.
	Origin string
}

// ActKind is a mechanical element action.
type ActKind string

// The element actions.
const (
	ActClick   ActKind = "click"
	ActFill    ActKind = "fill"
	ActSelect  ActKind = "select"
	ActPress   ActKind = "press"
	ActCheck   ActKind = "check"
	ActUncheck ActKind = "uncheck"
)

// Act is one mechanical action on an element.
type Act struct {
	Kind ActKind
	// Value is the text to fill, the option to select (matched by value,
	// then by label), or the key to press ("Enter", "Tab", "a").
	Value string
}

// ReadKind is what [Driver.Read] reads.
type ReadKind string

// The read kinds.
const (
	// ReadText is the element's rendered text (innerText) with whitespace
	// runs collapsed to one space and trimmed.
	ReadText ReadKind = "text"
	// ReadValue is a form control's current value.
	ReadValue ReadKind = "value"
	// ReadAttribute is the named attribute, "" when absent.
	ReadAttribute ReadKind = "attribute"
)

// Read selects what to read.
type Read struct {
	Kind ReadKind
	Name string // attribute name for ReadAttribute
}

// OriginScope is what the browser lets the page reach.
type OriginScope struct {
	// Allowed origins may be navigated to, framed and opened as popups, and
	// may serve subresources.
	Allowed []string
	// Subresources may only serve subresources (scripts, styles, images,
	// fetch/XHR), never documents.
	Subresources []string
}

// ViolationKind classifies a blocked request.
type ViolationKind string

// The violation kinds.
const (
	ViolationNavigation  ViolationKind = "navigation"  // top-level navigation or redirect
	ViolationPopup       ViolationKind = "popup"       // window.open or target=_blank
	ViolationFrame       ViolationKind = "frame"       // a frame document
	ViolationSubresource ViolationKind = "subresource" // scripts, images, fetch, ...
)

// Violation is one request the driver blocked because its origin is outside
// the scope. It holds the origin only, never a path or query.
type Violation struct {
	Kind   ViolationKind
	Origin string
}

// DownloadState is the final state of a browser download.
type DownloadState string

// The download states a driver reports.
const (
	DownloadCompleted DownloadState = "completed"
	DownloadCanceled  DownloadState = "canceled"
)

// DownloadEvent is the browser's report of the one download an armed
// listener attributed.
type DownloadEvent struct {
	// GUID is the browser's download id.
	GUID string
	// SuggestedName is the file name the site suggested. It is local
	// evidence only and never enters a receipt.
	SuggestedName string
	// State is the final state.
	State DownloadState
	// Path is the finished file, set only on the [DownloadBrowserPath]
	// route.
	Path string
}

// PendingDownload is an armed download listener.
type PendingDownload interface {
	// Wait blocks until the attributed download reaches a final state, or
	// fails with [ErrDownloadEventMissing] when no download starts before
	// ctx ends.
	Wait(ctx context.Context) (DownloadEvent, error)
	// Close disarms the listener; it is idempotent.
	Close() error
}

// Driver is the small, mechanical seam between the runtime and a page. All
// policy (locator order, origin checks, postconditions, branches, outcomes,
// receipts) lives in the runtime, so every driver behaves the same; the
// conformance suite runtimetest.TestDriver holds drivers to this contract.
//
// A Driver drives one page in its own browser context. Every method takes
// ctx first, honours cancellation promptly and returns an error wrapping one
// of the sentinel errors below where one applies. A nil ctx, and a nil
// element for Act, Read and Visible, fail with an error wrapping
// [ErrInvalidArgument], never a panic (a nil scope and a nil root are
// valid: the top-level document, the whole scope). A Driver is not safe
// for concurrent use: [Execute] claims its driver for the run and refuses
// a second concurrent Execute on it with [ErrDriverBusy] (for concurrent
// runs, give each its own driver; browser.Browser hands them out).
type Driver interface {
	// Info describes the driver; it never blocks and never changes.
	Info() DriverInfo

	// RestrictOrigins installs the origin scope. The browser itself blocks
	// every request outside it before the request leaves (request
	// interception, not an after-the-fact URL check). It is called before
	// the first Navigate and may be called again to replace the scope
	// (Execute calls it first in every run).
	RestrictOrigins(ctx context.Context, scope OriginScope) error

	// Violations returns the blocked requests since the last call, in order,
	// and clears them. It never waits: call Settle first to be sure the
	// requests an act caused have been decided. Only the current scope's
	// are returned: a request of a document that was loaded under an
	// earlier scope (the previous run's page, still polling while the next
	// run starts) is blocked when outside the scope but is not this run's
	// violation; a document outside the scope that is brought back without
	// a request (a back-forward cache restore) is one.
	Violations(ctx context.Context) ([]Violation, error)

	// Settle is the causal barrier after an act or a navigation. It returns
	// once every browser event the page's last input or navigation caused
	// has been observed and attributed: new targets (popups, frames,
	// workers) attached and their first document decided, navigations the
	// page requested or scheduled committed, failed or blocked, paused
	// requests answered, downloads begun and native dialogs opened, so that
	// Violations, ArmDownload listeners and [ErrNativeDialog] report them.
	// It is event-driven: it ends when nothing is pending and no new causal
	// event has arrived for a short quiet window, or at a driver-defined
	// hard cap (which is not an error), or when ctx ends (ctx.Err()). The
	// cap does not apply to a request the last act caused that has no
	// answer yet, nor to a navigation it asked for that has not committed
	// its new document: Settle waits for it until ctx ends, then fails
	// with [ErrActPending]. A driver that sees the answers' statuses may
	// also fail with [ErrActPending] when a request the act caused (a
	// write, or a read of what the page is to show) was refused with a
	// status pages retry after a backoff, or lost without an answer, and
	// no retry of it succeeded. An open native dialog
	// gives [ErrNativeDialog]. A
	// driver without asynchronous effects (the fake) returns at once.
	Settle(ctx context.Context) error

	// Navigate loads url in the top-level page and waits for its load event.
	// A target outside the scope fails with [ErrOriginBlocked]; a network or
	// HTTP-level failure with [ErrTargetUnreachable]. A document that
	// committed (the target answered) but did not finish loading before
	// ctx's deadline is a reached target, not an unreachable one: the
	// driver may return nil and leave the rest of the load to Settle.
	Navigate(ctx context.Context, url string) error

	// URL returns the top-level page's current URL.
	URL(ctx context.Context) (string, error)

	// FrameURL returns the current URL of the document scope belongs to (a
	// frame resolved by Frame; a nil scope is the top-level page, like
	// URL), as that document itself reports it (document.URL: fragment
	// and same-document history changes included). A scope whose document
	// was navigated away fails with [ErrStaleElement].
	FrameURL(ctx context.Context, scope Scope) (string, error)

	// Frame resolves a frame path from the top-level document. Each
	// selector is a CSS selector evaluated in the previous frame's document
	// and must match exactly one iframe (else [ErrFrameNotFound] or
	// [ErrFrameAmbiguous]). It returns the innermost document's scope and
	// the actual origin of every frame on the way. An empty path returns the
	// top-level document.
	Frame(ctx context.Context, selectors []string) (Scope, []FrameInfo, error)

	// Find returns the elements matching one candidate inside scope, or
	// inside root when root is not nil (descendants of root only), in
	// document order. Role candidates use the browser's accessibility tree;
	// semantic candidates (role, label, placeholder, test id, text) match
	// only rendered, visible elements; CSS matches every element unless the
	// selector ends with ":visible". Name matching: exact compares the
	// whitespace-normalised string; otherwise case-insensitive substring.
	// Zero matches is not an error. A candidate with a Scope is refused
	// with [ErrUnsupported]: the runtime resolves the scope itself and
	// passes its element as root.
	Find(ctx context.Context, scope Scope, root Element, c locator.Candidate) ([]Element, error)

	// Act performs one action on el after waiting, bounded by ctx, for it
	// to be attached, visible, stable and enabled ([ErrNotInteractable]
	// when ctx ends first); a fill needs it editable rather than stable.
	// A fill the page refused, one after which the field still holds the
	// value it had before though the value filled differs from it, is
	// [ErrFillRefused]; a value the page reformatted is not refused (the
	// action's postcondition judges what the value means). An error after
	// the input went out is a *[DispatchError]; it wraps
	// [ErrStaleElement] only when the input reached el and the page then
	// replaced it or its document (a submit that navigated), which the
	// runtime counts as the act done. A driver that cannot tell where its
	// input went (el's document went away before it could look) must
	// report another error, or a press that landed in the document that
	// replaced el would be counted as el's click.
	Act(ctx context.Context, el Element, a Act) error

	// Read reads text, a value or an attribute of el.
	Read(ctx context.Context, el Element, r Read) (string, error)

	// Visible reports whether el is attached, rendered and visible.
	Visible(ctx context.Context, el Element) (bool, error)

	// ArmDownload starts listening for the next download of this page
	// before the click that triggers it.
	ArmDownload(ctx context.Context) (PendingDownload, error)

	// Close releases the page and everything the driver owns: a launched
	// browser is killed and its profile deleted; a connected browser is
	// only disconnected and stays alive. No goroutine or process outlives
	// Close. It is idempotent.
	Close() error
}

// Sentinel errors drivers wrap. The runtime maps them to failure
// categories.
var (
	// ErrOriginBlocked: the browser blocked a navigation, redirect, popup or
	// frame outside the origin scope.
	ErrOriginBlocked = errors.New("origin not allowed")
	// ErrTargetUnreachable: DNS, connection, TLS or HTTP failure.
	ErrTargetUnreachable = errors.New("target unreachable")
	// ErrFrameNotFound: a frame selector matched no iframe.
	ErrFrameNotFound = errors.New("frame not found")
	// ErrFrameAmbiguous: a frame selector matched several iframes.
	ErrFrameAmbiguous = errors.New("frame selector ambiguous")
	// ErrStaleElement: the element is no longer attached.
	ErrStaleElement = errors.New("element is stale")
	// ErrNotInteractable: the element did not become visible, stable and
	// enabled in time.
	ErrNotInteractable = errors.New("element not interactable")
	// ErrNativeDialog: a native JavaScript dialog (alert, confirm, prompt,
	// beforeunload) is open. Drivers never accept or dismiss it.
	ErrNativeDialog = errors.New("native dialog open")
	// ErrDownloadEventMissing: no download started after arming.
	ErrDownloadEventMissing = errors.New("download event missing")
	// ErrBrowserCrashed: the browser or its connection went away.
	ErrBrowserCrashed = errors.New("browser crashed or disconnected")
	// ErrBrowserUnavailable: no browser could be found or reached.
	ErrBrowserUnavailable = errors.New("browser unavailable")
	// ErrBrowserLaunchFailed: a browser was found but did not start.
	ErrBrowserLaunchFailed = errors.New("browser launch failed")
	// ErrClosed: the driver was closed.
	ErrClosed = errors.New("driver closed")
	// ErrUnsupported: the driver cannot do this (for example an unknown
	// action kind).
	ErrUnsupported = errors.New("unsupported by driver")
	// ErrFillRefused: the page refused a fill: the field holds the value
	// it had before, though the value filled differs from it (an input
	// handler or a controlled input that renders the old value back, a
	// cancelled beforeinput, a maxlength of 0). A value the page
	// reformatted changed and is not refused.
	ErrFillRefused = errors.New("fill refused by the page")
	// ErrActPending: the last act's effect is not known, so nothing after
	// it may be judged: Settle's context ended while a request the act
	// caused (a fetch or XHR its input started, or a navigation it asked
	// for: a form it submitted, a link) still had no answer, the page
	// removed the frame the act had asked to navigate (a form
	// it submitted) before the new document committed, or a request the
	// act caused was refused with a status pages retry (408, 429, 5xx),
	// or its connection failed without an answer, and no retry of it
	// succeeded (what the page shows may be its optimistic render of a
	// change the server never made, or the data it showed before the
	// act: the last search's results).
	ErrActPending = errors.New("the act's outcome is not known yet")
	// ErrFormInvalid: the click or Enter would have submitted a form and
	// the form's constraint validation refused it (a required field left
	// empty, a value out of its pattern or range): no submit event fired
	// and nothing was sent. Drivers return it inside a *[DispatchError]
	// (the input went out; the page's click handlers ran).
	ErrFormInvalid = errors.New("form submission refused by its validation")
	// ErrAfterDispatch: an Act failed after its input (the mouse press and
	// release, or the key event) had already been sent to the page, so its
	// effect may have happened. Drivers return it as a *[DispatchError].
	ErrAfterDispatch = errors.New("act failed after its input was dispatched")
)

// DispatchError is the error of an Act that failed after its input was
// sent to the page: the click, key press or check went out (the page may
// have acted on it) and then a CDP call, a wait or the page failed. Err is
// the underlying error, so errors.Is(err, ErrStaleElement) and the other
// sentinels still work; errors.Is(err, ErrAfterDispatch) reports the
// dispatch. The runtime records such an action as dispatched whatever
// the error.
type DispatchError struct {
	Err error
}

// Error implements error.
func (e *DispatchError) Error() string {
	if e.Err == nil {
		return ErrAfterDispatch.Error()
	}
	return ErrAfterDispatch.Error() + ": " + e.Err.Error()
}

// Unwrap returns the underlying error.
func (e *DispatchError) Unwrap() error { return e.Err }

// Is matches [ErrAfterDispatch].
func (e *DispatchError) Is(target error) bool { return target == ErrAfterDispatch }
