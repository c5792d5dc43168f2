package capability

import (
	"slices"

	"github.com/vera-run/vera/locator"
)

// Code is a stable machine-readable name of one rule: the validation codes
// reported in [Error.Code] (including the locator codes, which package
// locator declares as untyped constants so they are Codes here too) and the
// parse codes reported in [ParseError.Code]. The set of validation codes is
// [Codes].
type Code string

// Validation codes reported in [Error.Code]. They are stable: tools may
// switch on them. Locator rules are reported with the codes of package
// locator (locator.CodeNoSemantic, locator.CodeOrder, ...) unchanged; see
// [Codes] for the complete list.
const (
	// Generic field rules.

	// CodeRequired: a required value is missing, null or blank.
	CodeRequired Code = "required"
	// CodeTooLong: a string exceeds its documented length bound.
	CodeTooLong Code = "too_long"
	// CodeTooMany: a list exceeds its documented item bound.
	CodeTooMany Code = "too_many"

	// Identity.

	// CodeUnsupportedSchema: schema is not [SchemaV1].
	CodeUnsupportedSchema Code = "unsupported_schema"
	// CodeInvalidID: an id (capability, milestone, action) does not match
	// [IDPattern] within [MaxIDLen].
	CodeInvalidID Code = "invalid_id"
	// CodeInvalidName: a name (input, output, field, outcome code) does not
	// match [NamePattern] within [MaxIDLen].
	CodeInvalidName Code = "invalid_name"
	// CodeInvalidVersion: version is not Semantic Versioning 2.0.0.
	CodeInvalidVersion Code = "invalid_version"
	// CodeReservedID: a milestone id or outcome code is a reserved terminal
	// name such as "completed".
	CodeReservedID Code = "reserved_id"

	// State, provenance and validation metadata.

	// CodeUnknownState: state is not one of [States].
	CodeUnknownState Code = "unknown_state"
	// CodeProvenanceRequired: a draft, authored, discovered or
	// validated_local capability has no provenance.
	CodeProvenanceRequired Code = "provenance_required"
	// CodeProvenanceIncomplete: a discovered or validated_local capability
	// lacks discovery_model or discovery_run_id, or a hand_authored one
	// (authored or validated_local) lacks author or reason.
	CodeProvenanceIncomplete Code = "provenance_incomplete"
	// CodeInvalidDigest: a digest is not "sha256:" and 64 lowercase hex digits.
	CodeInvalidDigest Code = "invalid_digest"
	// CodeInvalidTimestamp: a timestamp is not RFC 3339.
	CodeInvalidTimestamp Code = "invalid_timestamp"
	// CodeUnknownDiscoveryMode: discovery_mode is not guided, autonomous or
	// hybrid.
	CodeUnknownDiscoveryMode Code = "unknown_discovery_mode"
	// CodeReviewRequired: a discovered, authored or validated_local
	// capability has no provenance.review.
	CodeReviewRequired Code = "review_required"
	// CodeReviewRecordMismatch: review.record_hash differs from
	// provenance.discovery_hash (the review covers another record).
	CodeReviewRecordMismatch Code = "review_record_mismatch"
	// CodeAuthoringNotApproved: review.authoring_approved is false.
	CodeAuthoringNotApproved Code = "authoring_not_approved"
	// CodeValidationRequired: a validated_local capability has no validation
	// metadata.
	CodeValidationRequired Code = "validation_required"
	// CodeValidationNotAllowed: validation metadata below validated_local.
	CodeValidationNotAllowed Code = "validation_not_allowed"
	// CodeInvalidReceipts: validation.receipts is not exactly two distinct
	// digests.
	CodeInvalidReceipts Code = "invalid_receipts"
	// CodeReceiptsNotSorted: the two validation.receipts digests are not in
	// ascending order, the order receipt.Finalize writes and bundle
	// verification (receipt.CheckClaim) requires.
	CodeReceiptsNotSorted Code = "receipts_not_sorted"
	// CodeInvalidExecutionMode: validation.execution_mode is not a live mode.
	CodeInvalidExecutionMode Code = "invalid_execution_mode"
	// CodeStateNotExecutable: the state does not run (scaffold or draft).
	// Reported only by [Capability.ValidateForExecution].
	CodeStateNotExecutable Code = "state_not_executable"
	// CodeRiskyBelowDiscovered: a capability with a consequential action is
	// in a state that does not run (scaffold or draft; reported instead of
	// CodeStateNotExecutable). Reported only by
	// [Capability.ValidateForExecution].
	CodeRiskyBelowDiscovered Code = "risky_below_discovered"
	// CodeProvenanceKindMismatch: the state and the provenance kind do not
	// go together (authored needs hand_authored, draft and discovered need
	// the discovery kind), or a member of the other kind is set
	// (discovery_hash, discovery_model, discovery_run_id, discovery_mode or
	// review.record_hash on a hand_authored provenance; author or reason on
	// a discovery provenance).
	CodeProvenanceKindMismatch Code = "provenance_kind_mismatch"
	// CodeUnknownProvenanceKind: provenance.kind is not discovery or
	// hand_authored.
	CodeUnknownProvenanceKind Code = "unknown_provenance_kind"

	// Origins and navigation targets.

	// CodeInvalidOrigin: an origin is not exactly scheme://host[:port].
	CodeInvalidOrigin Code = "invalid_origin"
	// CodeInsecureOrigin: HTTP on a non-loopback host, or loopback HTTP
	// without an explicit port.
	CodeInsecureOrigin Code = "insecure_origin"
	// CodeDuplicateOrigin: the same origin is listed twice.
	CodeDuplicateOrigin Code = "duplicate_origin"
	// CodeInvalidURL: a navigation target is neither a path nor an absolute
	// http(s) URL, or carries user information.
	CodeInvalidURL Code = "invalid_url"
	// CodeURLQuery: a navigation target or URL condition carries a query.
	CodeURLQuery Code = "url_query"
	// CodeOriginNotAllowed: an absolute navigation target is on an origin
	// outside site.allowed_origins.
	CodeOriginNotAllowed Code = "origin_not_allowed"
	// CodeTemplateInPath: a template in the origin or path of a navigation
	// target (only fragments may carry templates).
	CodeTemplateInPath Code = "template_in_path"

	// Runtime parameters.

	// CodeTooManyFrames: more than [MaxFrameSelectors] frame selectors.
	CodeTooManyFrames Code = "too_many_frames"
	// CodeInvalidFrameSelector: a frame selector is blank or too long.
	CodeInvalidFrameSelector Code = "invalid_frame_selector"
	// CodeTimeoutOutOfRange: a timeout outside its documented bounds.
	CodeTimeoutOutOfRange Code = "timeout_out_of_range"
	// CodeMaxActionsOutOfRange: runtime.max_actions outside 1..[MaxActionsCeiling].
	CodeMaxActionsOutOfRange Code = "max_actions_out_of_range"

	// Authority and privacy.

	// CodeUnknownEffect: an effect (max_effect or an action's) is unknown.
	CodeUnknownEffect Code = "unknown_effect"
	// CodeEffectExceedsAuthority: an action is more severe than
	// authority.max_effect.
	CodeEffectExceedsAuthority Code = "effect_exceeds_authority"
	// CodeInvalidDataClass: a data class does not match [NamePattern].
	CodeInvalidDataClass Code = "invalid_data_class"
	// CodeDuplicateDataClass: a data class is listed twice.
	CodeDuplicateDataClass Code = "duplicate_data_class"

	// Inputs and templates.

	// CodeUnknownInputType: an input type is unknown.
	CodeUnknownInputType Code = "unknown_input_type"
	// CodeDuplicateInput: two inputs share a name.
	CodeDuplicateInput Code = "duplicate_input"
	// CodeInvalidEnumValues: an enum input without values, with duplicate
	// values, or values on a non-enum input.
	CodeInvalidEnumValues Code = "invalid_enum_values"
	// CodeInvalidBounds: minimum/maximum on a non-numeric input, minimum
	// above maximum, or max_length on a non-string input.
	CodeInvalidBounds Code = "invalid_bounds"
	// CodeInvalidDefault: a default that does not type-check against its
	// input (type, enum values, bounds), or a default on a required input.
	CodeInvalidDefault Code = "invalid_default"
	// CodeSecretDefault: a secret input declares a default.
	CodeSecretDefault Code = "secret_default"
	// CodeUndeclaredInput: a template, action input or limit_input names no
	// declared input.
	CodeUndeclaredInput Code = "undeclared_input"
	// CodeUnusedInput: a declared input is never referenced.
	CodeUnusedInput Code = "unused_input"
	// CodeSecretInputExposed: a secret input is used anywhere but as the
	// input of a fill action (templates would copy it into URLs, locators,
	// conditions or receipts).
	CodeSecretInputExposed Code = "secret_input_exposed"
	// CodeInvalidTemplate: a "{{" that does not open a well-formed
	// {{name}} template.
	CodeInvalidTemplate Code = "invalid_template"
	// CodeTemplateEncodingRequired: a template without an encoding (or
	// with the wrong one) inside a structured literal of a fill or select
	// value: a JSON literal takes {{name|json}} or {{name|url}}, a URL
	// literal {{name|url}} (see [TemplateEncoding]).
	CodeTemplateEncodingRequired Code = "template_encoding_required"
	// CodeTemplateEncodingContext: an encoded template where its encoding
	// does not make a well-formed literal: a json template inside a JSON
	// string or as an object key, a url template outside a JSON string, or
	// a JSON literal that does not parse with its templates standing for
	// values.
	CodeTemplateEncodingContext Code = "template_encoding_context"

	// Outputs.

	// CodeDuplicateOutput: two outputs share a name.
	CodeDuplicateOutput Code = "duplicate_output"
	// CodeUnknownOutputKind: an output kind is unknown.
	CodeUnknownOutputKind Code = "unknown_output_kind"
	// CodeUnknownExposure: an output exposure is unknown.
	CodeUnknownExposure Code = "unknown_exposure"
	// CodeDownloadExposure: a download_set output is not artifact_only.
	CodeDownloadExposure Code = "download_exposure"
	// CodeOutputFieldsRequired: a record or record_set output without fields.
	CodeOutputFieldsRequired Code = "output_fields_required"
	// CodeOutputFieldsNotAllowed: a text or download_set output with fields.
	CodeOutputFieldsNotAllowed Code = "output_fields_not_allowed"
	// CodeDuplicateField: two fields of one output or extraction share a name.
	CodeDuplicateField Code = "duplicate_field"
	// CodeUnknownFieldType: a field type is unknown.
	CodeUnknownFieldType Code = "unknown_field_type"
	// CodeUndeclaredOutput: an action or condition names no declared output.
	CodeUndeclaredOutput Code = "undeclared_output"
	// CodeOutputNotProduced: no extract or download action produces a
	// declared output.
	CodeOutputNotProduced Code = "output_not_produced"
	// CodeRequiredOutputNotGuaranteed: a required non-collection output is
	// not produced on every path from the start to completed.
	CodeRequiredOutputNotGuaranteed Code = "required_output_not_guaranteed"
	// CodeOutputKindMismatch: an action's output has the wrong kind for it
	// (download needs download_set; text, single and list extraction need
	// text, record and record_set).
	CodeOutputKindMismatch Code = "output_kind_mismatch"

	// Milestones, transitions and conditions.

	// CodeDuplicateMilestone: two milestones share an id.
	CodeDuplicateMilestone Code = "duplicate_milestone"
	// CodeEmptyMilestone: a milestone with neither actions nor transitions.
	CodeEmptyMilestone Code = "empty_milestone"
	// CodeUnknownTarget: a transition goes to no milestone and not to
	// "completed".
	CodeUnknownTarget Code = "unknown_target"
	// CodeUnreachableMilestone: no path from the first milestone reaches it.
	CodeUnreachableMilestone Code = "unreachable_milestone"
	// CodeCompletionUnreachable: no path from the first milestone reaches
	// "completed".
	CodeCompletionUnreachable Code = "completion_unreachable"
	// CodeUnboundedCycle: a milestone on a cycle does not declare
	// max_visits.
	CodeUnboundedCycle Code = "unbounded_cycle"
	// CodeMaxVisitsOutOfRange: max_visits outside 1..[MaxVisitsCeiling].
	CodeMaxVisitsOutOfRange Code = "max_visits_out_of_range"
	// CodeUnknownConditionKind: a condition kind is unknown.
	CodeUnknownConditionKind Code = "unknown_condition_kind"
	// CodeInvalidCondition: a condition lacks what its kind needs or sets
	// what its kind does not use.
	CodeInvalidCondition Code = "invalid_condition"
	// CodeAlwaysNotLast: an "always" transition is followed by others that
	// could never be taken.
	CodeAlwaysNotLast Code = "always_not_last"

	// Actions.

	// CodeDuplicateAction: two actions share an id (ids are unique across
	// the capability).
	CodeDuplicateAction Code = "duplicate_action"
	// CodeUnknownOperation: an operation is unknown.
	CodeUnknownOperation Code = "unknown_operation"
	// CodeUnknownConfirmation: a confirmation mode is unknown.
	CodeUnknownConfirmation Code = "unknown_confirmation"
	// CodeConfirmationMismatch: a consequential action without action_time
	// confirmation, or another effect without "none".
	CodeConfirmationMismatch Code = "confirmation_mismatch"
	// CodeMissingField: an operation needs a field that is absent (url of
	// navigate, key of press, output or extract of extract, max_records of
	// a list, attribute of an attribute read).
	CodeMissingField Code = "missing_field"
	// CodeUnexpectedField: a field the operation, mode or read kind does not
	// use is set.
	CodeUnexpectedField Code = "unexpected_field"
	// CodeInputXorValue: a fill or select sets both or neither of input and
	// value.
	CodeInputXorValue Code = "input_xor_value"
	// CodeMissingPostcondition: an executable action declares no
	// postcondition (a click is never completion).
	CodeMissingPostcondition Code = "missing_postcondition"
	// CodePostconditionAlways: a postcondition of kind "always".
	CodePostconditionAlways Code = "postcondition_always"
	// CodePostconditionMismatch: the postcondition kind does not fit the
	// operation (download needs download_completed, extract needs
	// output_produced of its own output, and only they may use them).
	CodePostconditionMismatch Code = "postcondition_mismatch"
	// CodeNativeGapRequired: a native action without native_gap text.
	CodeNativeGapRequired Code = "native_gap_required"
	// CodeNativeNotExecutable: a native action sets an executable field
	// (locators, url, input, value, key, output, extract, timeout,
	// postcondition).
	CodeNativeNotExecutable Code = "native_not_executable"

	// Literal safety.

	// CodeCredentialLiteral: a credential-shaped string anywhere in the
	// document. The value is never echoed.
	CodeCredentialLiteral Code = "credential_literal"
	// CodeRedactionMarker: the discovery redaction marker outside a locator
	// (inside one it is locator.CodeRedactedMarker).
	CodeRedactionMarker Code = "redaction_marker"
	// CodeControlCharacter: a string holds a character no document string
	// holds: a C0 control other than tab, LF and CR (U+0000 included,
	// however it was escaped), DEL, a C1 control, U+2028 or U+2029.
	CodeControlCharacter Code = "control_character"
	// CodeBidiControl: a string holds a bidirectional formatting control
	// (U+202A to U+202E, U+2066 to U+2069), which reorders what a reviewer
	// sees.
	CodeBidiControl Code = "bidi_control"

	// Extraction.

	// CodeUnknownExtractMode: extract.mode is unknown.
	CodeUnknownExtractMode Code = "unknown_extract_mode"
	// CodeExtractFieldsNotAllowed: a text extraction declares fields.
	CodeExtractFieldsNotAllowed Code = "extract_fields_not_allowed"
	// CodeExtractFieldMissing: an output field has no extraction field.
	CodeExtractFieldMissing Code = "extract_field_missing"
	// CodeExtractFieldExtra: an extraction field is not an output field.
	CodeExtractFieldExtra Code = "extract_field_extra"
	// CodeExtractFieldTypeMismatch: an extraction field's type differs from
	// the output field's.
	CodeExtractFieldTypeMismatch Code = "extract_field_type_mismatch"
	// CodeUnknownReadKind: a field's read is not text, value or attribute.
	CodeUnknownReadKind Code = "unknown_read_kind"
	// CodeMaxRecordsOutOfRange: max_records outside 1..[MaxRecordsCeiling].
	CodeMaxRecordsOutOfRange Code = "max_records_out_of_range"
	// CodeInvalidLimitInput: limit_input is not an integer input with
	// minimum >= 1.
	CodeInvalidLimitInput Code = "invalid_limit_input"
	// CodeUnknownFieldRef: required_fields or dedupe_keys names no field.
	CodeUnknownFieldRef Code = "unknown_field_ref"
	// CodeDuplicateFieldRef: required_fields or dedupe_keys repeats a name.
	CodeDuplicateFieldRef Code = "duplicate_field_ref"
	// CodeFieldLocatorMissing: a field without a locator_candidates array
	// (an empty array, which reads the root, must be written).
	CodeFieldLocatorMissing Code = "field_locator_missing"
	// CodeFieldRepeatsActionRoot: a field candidate equal to one of the
	// action's root candidates (it would search the root inside itself).
	CodeFieldRepeatsActionRoot Code = "field_repeats_action_root"
	// CodeCSSOnlyReasonInvalid: css_only_reason is blank, longer than
	// [MaxCSSOnlyReasonRunes] or holds control characters.
	CodeCSSOnlyReasonInvalid Code = "css_only_reason_invalid"
	// CodeCSSOnlyReasonMisplaced: css_only_reason on an action without
	// locator candidates, with a non-CSS candidate, or on a consequential
	// action.
	CodeCSSOnlyReasonMisplaced Code = "css_only_reason_misplaced"

	// Business outcomes.

	// CodeDuplicateOutcome: two business outcomes share a code.
	CodeDuplicateOutcome Code = "duplicate_outcome"
	// CodeOutcomeWithoutDetect: a business outcome without detect rules.
	CodeOutcomeWithoutDetect Code = "outcome_without_detect"
	// CodeInvalidURLPattern: url_pattern is not a Go regular expression.
	CodeInvalidURLPattern Code = "invalid_url_pattern"
)

// Codes returns every code [Capability.Validate] and
// [Capability.ValidateForExecution] may report, including the locator
// codes, sorted.
func Codes() []Code {
	cs := []Code{
		CodeRequired, CodeTooLong, CodeTooMany,
		CodeUnsupportedSchema, CodeInvalidID, CodeInvalidName, CodeInvalidVersion, CodeReservedID,
		CodeUnknownState, CodeProvenanceRequired, CodeProvenanceIncomplete, CodeInvalidDigest,
		CodeInvalidTimestamp, CodeUnknownDiscoveryMode, CodeReviewRequired, CodeReviewRecordMismatch,
		CodeAuthoringNotApproved, CodeValidationRequired, CodeValidationNotAllowed, CodeInvalidReceipts,
		CodeReceiptsNotSorted,
		CodeInvalidExecutionMode, CodeStateNotExecutable, CodeRiskyBelowDiscovered,
		CodeProvenanceKindMismatch, CodeUnknownProvenanceKind, CodeCSSOnlyReasonInvalid, CodeCSSOnlyReasonMisplaced,
		CodeInvalidOrigin, CodeInsecureOrigin, CodeDuplicateOrigin, CodeInvalidURL, CodeURLQuery,
		CodeOriginNotAllowed, CodeTemplateInPath,
		CodeTooManyFrames, CodeInvalidFrameSelector, CodeTimeoutOutOfRange, CodeMaxActionsOutOfRange,
		CodeUnknownEffect, CodeEffectExceedsAuthority, CodeInvalidDataClass, CodeDuplicateDataClass,
		CodeUnknownInputType, CodeDuplicateInput, CodeInvalidEnumValues, CodeInvalidBounds,
		CodeInvalidDefault, CodeSecretDefault, CodeUndeclaredInput, CodeUnusedInput,
		CodeSecretInputExposed, CodeInvalidTemplate, CodeTemplateEncodingRequired, CodeTemplateEncodingContext,
		CodeDuplicateOutput, CodeUnknownOutputKind, CodeUnknownExposure, CodeDownloadExposure,
		CodeOutputFieldsRequired, CodeOutputFieldsNotAllowed, CodeDuplicateField, CodeUnknownFieldType,
		CodeUndeclaredOutput, CodeOutputNotProduced, CodeRequiredOutputNotGuaranteed, CodeOutputKindMismatch,
		CodeDuplicateMilestone, CodeEmptyMilestone, CodeUnknownTarget, CodeUnreachableMilestone,
		CodeCompletionUnreachable, CodeUnboundedCycle, CodeMaxVisitsOutOfRange,
		CodeUnknownConditionKind, CodeInvalidCondition, CodeAlwaysNotLast,
		CodeDuplicateAction, CodeUnknownOperation, CodeUnknownConfirmation, CodeConfirmationMismatch,
		CodeMissingField, CodeUnexpectedField, CodeInputXorValue, CodeMissingPostcondition,
		CodePostconditionAlways, CodePostconditionMismatch, CodeNativeGapRequired, CodeNativeNotExecutable,
		CodeCredentialLiteral, CodeRedactionMarker, CodeControlCharacter, CodeBidiControl,
		CodeUnknownExtractMode, CodeExtractFieldsNotAllowed, CodeExtractFieldMissing, CodeExtractFieldExtra,
		CodeExtractFieldTypeMismatch, CodeUnknownReadKind, CodeMaxRecordsOutOfRange, CodeInvalidLimitInput,
		CodeUnknownFieldRef, CodeDuplicateFieldRef, CodeFieldLocatorMissing, CodeFieldRepeatsActionRoot,
		CodeDuplicateOutcome, CodeOutcomeWithoutDetect, CodeInvalidURLPattern, CodeInvalidKey, CodeTemplateNotSubstituted, CodeSecretEnum,
		locator.CodeUnknownStrategy, locator.CodeMissingValue, locator.CodeForeignField,
		locator.CodeUnknownRole, locator.CodeTooLong, locator.CodeCoordinates, locator.CodeInvalidUTF8,
		locator.CodeExactNotAllowed, locator.CodeBadCSS, locator.CodeNoCandidates, locator.CodeTooMany,
		locator.CodeNoSemantic, locator.CodeOrder, locator.CodeCSSNotVisible, locator.CodeDuplicate,
		locator.CodeRedactedMarker,
		CodeInvalidExpectation, CodeInvalidPattern, CodeUnknownOutcome, CodeInvalidJSONPointer,
		CodeUnknownAfterAction, CodeDetectScopeUnused, locator.CodeScopeNested, locator.CodeScopeNote,
	}
	cs = append(cs, queryCodes...)
	cs = append(cs, framePathCodes...)
	cs = append(cs, secretCodes...)
	cs = append(cs, seedCodes...)
	slices.Sort(cs)
	return cs
}
