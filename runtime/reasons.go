package runtime

import (
	"slices"

	"github.com/vera-run/vera/download"
	"github.com/vera-run/vera/internal/runwrite"
)

// Reason is a failure reason code: the bounded machine-readable cause a
// [Failure] carries next to its category, in a [Result] and in the
// receipt's failure.reason. The set is closed: the runtime writes only the
// Reason constants below and, for a download_failed failure, the download
// package's reason codes ([download.Reasons]), never a code built at run
// time. [Reasons] lists them all.
type Reason string

// The runtime's reason codes, each with the failure category it goes with.
const (
	// ReasonCanceled (category canceled): the caller's context ended the
	// run, or a Preflight.
	ReasonCanceled Reason = "canceled"
	// ReasonRunTimeout (run_timeout): runtime.run_timeout_ms was reached.
	ReasonRunTimeout Reason = "run_timeout"
	// ReasonMaxActionsExceeded (limit_exceeded): more actions than
	// runtime.max_actions.
	ReasonMaxActionsExceeded Reason = "max_actions_exceeded"
	// ReasonMaxVisitsExceeded (limit_exceeded): a milestone was visited
	// more than its max_visits times.
	ReasonMaxVisitsExceeded Reason = "max_visits_exceeded"

	// ReasonStartNotAllowed (target_not_allowed): runtime.start does not
	// resolve to an allowed origin; nothing was navigated.
	ReasonStartNotAllowed Reason = "start_not_allowed"
	// ReasonNavigateNotAllowed (target_not_allowed): a navigate action's
	// target is not on an allowed origin; nothing was navigated.
	ReasonNavigateNotAllowed Reason = "navigate_not_allowed"
	// ReasonStartNavigationFailed (target_unreachable): navigating to the
	// start failed.
	ReasonStartNavigationFailed Reason = "start_navigation_failed"
	// ReasonNavigationFailed (target_unreachable): a navigate action
	// failed.
	ReasonNavigationFailed Reason = "navigation_failed"
	// ReasonTargetUnreachable (target_unreachable): the driver reported
	// the target unreachable ([ErrTargetUnreachable]).
	ReasonTargetUnreachable Reason = "target_unreachable"

	// ReasonNavigationBlocked (origin_not_allowed): the browser blocked a
	// top-level navigation or redirect outside the allowed origins
	// ([ErrOriginBlocked], or a [ViolationNavigation]).
	ReasonNavigationBlocked Reason = "navigation_blocked"
	// ReasonPopupBlocked (origin_not_allowed): the browser blocked a popup
	// outside the allowed origins (a [ViolationPopup]).
	ReasonPopupBlocked Reason = "popup_blocked"
	// ReasonFrameBlocked (origin_not_allowed): the browser blocked a frame
	// document outside the allowed origins (a [ViolationFrame]).
	ReasonFrameBlocked Reason = "frame_blocked"
	// ReasonTopLevelOrigin (origin_not_allowed): the top-level page is on
	// an origin outside the allowed ones, or its URL is not absolute.
	ReasonTopLevelOrigin Reason = "top_level_origin"

	// ReasonFrameNotFound (frame_not_allowed): the frame path did not
	// resolve ([ErrFrameNotFound]).
	ReasonFrameNotFound Reason = "frame_not_found"
	// ReasonFrameAmbiguous (frame_not_allowed): a frame selector matched
	// several frames ([ErrFrameAmbiguous]).
	ReasonFrameAmbiguous Reason = "frame_ambiguous"
	// ReasonFrameOriginNotAllowed (frame_not_allowed): a frame on the path
	// has an origin outside the allowed ones.
	ReasonFrameOriginNotAllowed Reason = "frame_origin_not_allowed"

	// ReasonLocatorNotFound (locator_not_found): no candidate matched an
	// element within the action timeout.
	ReasonLocatorNotFound Reason = "locator_not_found"
	// ReasonLocatorAmbiguous (locator_not_found): candidates matched only
	// several elements.
	ReasonLocatorAmbiguous Reason = "locator_ambiguous"
	// ReasonLocatorError (locator_not_found, or extraction_failed for an
	// extraction): the driver failed while resolving a locator.
	ReasonLocatorError Reason = "locator_error"

	// ReasonPostconditionFailed (ui_assertion_failed): the action's
	// postcondition did not hold within the action timeout, or the act's
	// outcome was not known within it ([ErrActPending]: a request or a
	// navigation the act caused had no answer, the page removed the
	// frame the act navigated before its new document committed, or a
	// request the act caused was refused and never retried with
	// success).
	ReasonPostconditionFailed Reason = "postcondition_failed"
	// ReasonNoTransition (ui_assertion_failed): no transition of the
	// milestone held within the transition timeout.
	ReasonNoTransition Reason = "no_transition"
	// ReasonActFailed (ui_assertion_failed): the mechanical act (click,
	// fill, ...) failed, or the page refused a fill ([ErrFillRefused]).
	ReasonActFailed Reason = "act_failed"
	// ReasonNotInteractable (ui_assertion_failed): the element could not
	// be acted on ([ErrNotInteractable]).
	ReasonNotInteractable Reason = "not_interactable"
	// ReasonStaleElement (ui_assertion_failed): the element went stale
	// ([ErrStaleElement]).
	ReasonStaleElement Reason = "stale_element"
	// ReasonUnknownModal (ui_assertion_failed, terminal
	// blocked_by_unknown_modal): a dialog the capability does not target
	// appeared; it was not clicked.
	ReasonUnknownModal Reason = "unknown_modal"
	// ReasonNativeDialog (ui_assertion_failed, terminal
	// blocked_by_unknown_modal): a native JavaScript dialog appeared
	// ([ErrNativeDialog]); it was not answered.
	ReasonNativeDialog Reason = "native_dialog"

	// ReasonReadFailed (extraction_failed): reading a field failed.
	ReasonReadFailed Reason = "read_failed"
	// ReasonCoercionFailed (extraction_failed): a field's text does not
	// coerce to its declared type.
	ReasonCoercionFailed Reason = "coercion_failed"
	// ReasonRequiredFieldEmpty (extraction_failed): a required field is
	// absent or blank, or a text extraction into a required output read
	// only blank text within its timeout (FORMAT.md 1.4: white space and
	// zero-width characters only).
	ReasonRequiredFieldEmpty Reason = "required_field_empty"
	// ReasonMaxRecordsExceeded (extraction_failed): more records than the
	// extraction's max_records (or its limit input).
	ReasonMaxRecordsExceeded Reason = "max_records_exceeded"
	// ReasonRequiredOutputMissing (extraction_failed): a required output
	// was not produced by completion.
	ReasonRequiredOutputMissing Reason = "required_output_missing"
	// ReasonRecordsIncomplete (extraction_failed): a list extraction read
	// fewer members of a set than the page declares (aria-rowcount,
	// aria-setsize, gaps in aria-rowindex or aria-posinset, or an unknown
	// size of -1), by its last possible visit or by completion: a
	// virtualized or partly loaded list, never a silent truncation.
	ReasonRecordsIncomplete Reason = "records_incomplete"

	// ReasonJSONInvalid (extraction_failed): a json_pointer field's text
	// is not one JSON value.
	ReasonJSONInvalid Reason = "json_invalid"
	// ReasonJSONPointerMissing (extraction_failed): a field's json_pointer
	// names no value of the JSON text.
	ReasonJSONPointerMissing Reason = "json_pointer_missing"
	// ReasonJSONNotScalar (extraction_failed): a field's json_pointer
	// names an object or an array.
	ReasonJSONNotScalar Reason = "json_value_not_scalar"
	// ReasonOutputExpectationFailed (extraction_failed): an extracted
	// value violates its declared expectation, which names no business
	// outcome. The run never completes with such a value.
	ReasonOutputExpectationFailed Reason = "output_expectation_failed"

	// ReasonDownloadBeginFailed (download_failed): the download folder
	// could not be prepared.
	ReasonDownloadBeginFailed Reason = "download_begin_failed"
	// ReasonDownloadArmFailed (download_failed): the browser's download
	// listener could not be armed.
	ReasonDownloadArmFailed Reason = "download_arm_failed"
	// ReasonDownloadFailed (download_failed): another download failure.
	// Failures the download package classifies carry its reason code
	// instead ([download.Reasons]).
	ReasonDownloadFailed Reason = "download_failed"

	// ReasonNoApprover (approval_refused, terminal stopped_at_gate): no
	// approver is configured for a consequential action.
	ReasonNoApprover Reason = "no_approver"
	// ReasonDenied (approval_refused, terminal stopped_at_gate): the
	// approver denied the action.
	ReasonDenied Reason = "denied"
	// ReasonApproverError (approval_refused, terminal stopped_at_gate):
	// the approver returned an error.
	ReasonApproverError Reason = "approver_error"
	// ReasonApprovalMismatch (approval_refused, terminal failed): the
	// approval names another action.
	ReasonApprovalMismatch Reason = "approval_mismatch"

	// ReasonOutcomeUnconfirmed (effect_unconfirmed, terminal failed): a
	// consequential action's input (click, key press, check, download
	// click) was dispatched to the page and the run then failed before the
	// action's outcome was confirmed (its act erred after dispatch, its
	// postcondition never held, the page showed an unknown modal or broke).
	// The effect may have happened: the action record says dispatched and
	// Result.Unconfirmed is set, so a host must not retry blindly. It
	// replaces the failure that would otherwise have ended the run, except
	// an origin violation, a frame origin outside the scope and a caller
	// cancellation, which keep their own reason (the record still says
	// dispatched).
	ReasonOutcomeUnconfirmed Reason = "outcome_unconfirmed_after_effect"

	// ReasonBrowserCrashed (browser_crashed): the browser or its
	// connection died, or the driver was closed ([ErrBrowserCrashed],
	// [ErrClosed]).
	ReasonBrowserCrashed Reason = "browser_crashed"
	// ReasonBrowserUnavailable (browser_unavailable): no browser could be
	// reached or found ([ErrBrowserUnavailable]).
	ReasonBrowserUnavailable Reason = "browser_unavailable"
	// ReasonBrowserLaunchFailed (browser_launch_failed): launching the
	// browser failed ([ErrBrowserLaunchFailed]).
	ReasonBrowserLaunchFailed Reason = "browser_launch_failed"

	// ReasonUnsupported (internal): the driver does not support an
	// operation ([ErrUnsupported]).
	ReasonUnsupported Reason = "unsupported"
	// ReasonFrameError (internal): resolving the frame failed otherwise.
	ReasonFrameError Reason = "frame_error"
	// ReasonFindFailed (internal): finding elements for a condition
	// failed.
	ReasonFindFailed Reason = "find_failed"
	// ReasonVisibleFailed (internal): checking visibility failed.
	ReasonVisibleFailed Reason = "visible_failed"
	// ReasonURLFailed (internal): reading the current URL failed.
	ReasonURLFailed Reason = "url_failed"
	// ReasonViolationsFailed (internal): reading the blocked requests
	// failed.
	ReasonViolationsFailed Reason = "violations_failed"
	// ReasonSettleFailed (internal): waiting for the browser events an
	// act or navigation caused ([Driver.Settle]) failed without a more
	// specific sentinel.
	ReasonSettleFailed Reason = "settle_failed"
	// ReasonRestrictOriginsFailed (internal): installing the origin scope
	// failed.
	ReasonRestrictOriginsFailed Reason = "restrict_origins_failed"
	// ReasonSeedFailed (internal): setting the capability's seeded
	// cookies or storage ([Seeder]) failed without a more specific
	// sentinel.
	ReasonSeedFailed Reason = "seed_failed"
	// ReasonContractHashFailed (internal): hashing an action's contract
	// for a recovery request failed.
	ReasonContractHashFailed Reason = "contract_hash_failed"
	// ReasonDedupeKeyFailed (internal): computing an extraction's dedupe
	// key failed.
	ReasonDedupeKeyFailed Reason = "dedupe_key_failed"
	// ReasonDriverOpenFailed (internal): [Preflight] only, opening the
	// driver failed without a more specific sentinel.
	ReasonDriverOpenFailed Reason = "driver_open_failed"
	// ReasonNoDriverFactory (internal): [Preflight] only, no function to
	// open a driver was given.
	ReasonNoDriverFactory Reason = "no_driver_factory"
	// ReasonUnspecified (any category): the fallback newFailure writes
	// instead of a code outside this set (a download reason a newer
	// download package might add, say). No code path of the runtime
	// passes it deliberately.
	ReasonUnspecified Reason = "unspecified"
)

// runtimeReasons are the runtime's own codes, in documentation order.
var runtimeReasons = []Reason{
	ReasonCanceled, ReasonRunTimeout, ReasonMaxActionsExceeded, ReasonMaxVisitsExceeded,
	ReasonStartNotAllowed, ReasonNavigateNotAllowed, ReasonStartNavigationFailed, ReasonNavigationFailed, ReasonTargetUnreachable,
	ReasonNavigationBlocked, ReasonPopupBlocked, ReasonFrameBlocked, ReasonTopLevelOrigin,
	ReasonFrameNotFound, ReasonFrameAmbiguous, ReasonFrameOriginNotAllowed,
	ReasonLocatorNotFound, ReasonLocatorAmbiguous, ReasonLocatorError,
	ReasonPostconditionFailed, ReasonNoTransition, ReasonActFailed, ReasonNotInteractable, ReasonStaleElement,
	ReasonUnknownModal, ReasonNativeDialog,
	ReasonReadFailed, ReasonCoercionFailed, ReasonRequiredFieldEmpty, ReasonMaxRecordsExceeded, ReasonRequiredOutputMissing, ReasonRecordsIncomplete,
	ReasonJSONInvalid, ReasonJSONPointerMissing, ReasonJSONNotScalar, ReasonOutputExpectationFailed,
	ReasonDownloadBeginFailed, ReasonDownloadArmFailed, ReasonDownloadFailed,
	ReasonNoApprover, ReasonDenied, ReasonApproverError, ReasonApprovalMismatch,
	ReasonOutcomeUnconfirmed,
	ReasonBrowserCrashed, ReasonBrowserUnavailable, ReasonBrowserLaunchFailed,
	ReasonUnsupported, ReasonFrameError, ReasonFindFailed, ReasonVisibleFailed, ReasonURLFailed,
	ReasonViolationsFailed, ReasonSettleFailed, ReasonRestrictOriginsFailed, ReasonSeedFailed, ReasonContractHashFailed, ReasonDedupeKeyFailed,
	ReasonDriverOpenFailed, ReasonNoDriverFactory, ReasonUnspecified,
}

// Reasons returns every reason code a [Failure] of the runtime can carry:
// the Reason constants in documentation order, then the download reason
// codes of [download.Reasons] that download_failed failures pass through.
// The slice is new on every call.
func Reasons() []string {
	out := make([]string, 0, len(runtimeReasons)+len(download.Reasons()))
	for _, r := range runtimeReasons {
		out = append(out, string(r))
	}
	for _, r := range download.Reasons() {
		out = append(out, string(r))
	}
	return out
}

// known reports whether r is in [Reasons].
func (r Reason) known() bool {
	return slices.Contains(runtimeReasons, r) || slices.Contains(download.Reasons(), download.Reason(r))
}

// downloadReason is the reason of a failure the download package
// classified: its code, which [Reasons] lists.
func downloadReason(d download.Reason) Reason {
	return Reason(d)
}

// violationReason is the reason of a blocked request of the given kind:
// navigation_blocked, popup_blocked or frame_blocked. A kind outside the
// documented set counts as the strictest, a blocked top-level navigation.
func violationReason(k ViolationKind) Reason {
	switch k {
	case ViolationPopup:
		return ReasonPopupBlocked
	case ViolationFrame:
		return ReasonFrameBlocked
	}
	return ReasonNavigationBlocked
}

// newFailure is the only constructor of a [Failure]: the reason is one of
// [Reasons] (anything else becomes [ReasonUnspecified]) and the raw detail
// leaves only as its hash.
func newFailure(cat Category, reason Reason, detail string) *Failure {
	if !reason.known() {
		reason = ReasonUnspecified
	}
	return &Failure{Category: cat, Reason: string(reason), DetailHash: runwrite.DetailHash(detail)}
}
