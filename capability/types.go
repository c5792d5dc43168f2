package capability

import (
	"encoding/json"

	"github.com/vera-run/vera/locator"
)

// SchemaV1 is the only capability schema this package reads and writes.
const SchemaV1 = "browser-capability/v1"

// State is a capability's lifecycle state.
type State string

// The capability states, from least to most established.
const (
	// StateScaffold names a target and process; no live discovery yet.
	StateScaffold State = "scaffold"
	// StateDraft was informed by a private discovery record that has not
	// been reviewed. A draft is never executable.
	StateDraft State = "draft"
	// StateAuthored was written by hand by a named author and reviewed by a
	// named reviewer; there is no discovery record behind it (provenance
	// kind [ProvenanceHandAuthored]). It runs, and is promoted to
	// validated_local only through the same two clean live runs.
	StateAuthored State = "authored"
	// StateDiscovered comes from an operator-reviewed discovery record; clean
	// replay is not yet proven.
	StateDiscovered State = "discovered"
	// StateValidatedLocal completed two clean live runs from its declared
	// start, without locator edits, on the same origin UI.
	StateValidatedLocal State = "validated_local"
)

// States returns the states in promotion order.
func States() []State {
	return []State{StateScaffold, StateDraft, StateAuthored, StateDiscovered, StateValidatedLocal}
}

// Rank is the state's position in promotion order, -1 when unknown.
func (s State) Rank() int {
	for i, v := range States() {
		if v == s {
			return i
		}
	}
	return -1
}

// Executable reports whether a capability in this state may run at all:
// only authored, discovered and validated_local do. A scaffold has no
// review behind it and a draft's record is unreviewed, so the runtime
// refuses both, safe or risky (see [Capability.ValidateForExecution]).
func (s State) Executable() bool { return s.Rank() >= StateAuthored.Rank() }

// Effect classifies what an action does to the world. The set is closed.
type Effect string

// The action effects.
const (
	EffectReadOnly      Effect = "read_only"
	EffectReversible    Effect = "reversible"
	EffectConsequential Effect = "consequential"
)

// Rank orders effects by severity; -1 for an unknown effect.
func (e Effect) Rank() int {
	switch e {
	case EffectReadOnly:
		return 0
	case EffectReversible:
		return 1
	case EffectConsequential:
		return 2
	}
	return -1
}

// Valid reports whether e is a known effect.
func (e Effect) Valid() bool { return e.Rank() >= 0 }

// Confirmation is when a person confirms an action.
type Confirmation string

// The confirmation modes. A consequential action requires
// [ConfirmActionTime]; every other effect requires [ConfirmNone].
const (
	ConfirmNone       Confirmation = "none"
	ConfirmActionTime Confirmation = "action_time"
)

// Operation is what an action does. The vocabulary is closed.
type Operation string

// The action operations.
const (
	OpNavigate Operation = "navigate" // go to URL (a path or URL on an allowed origin)
	OpClick    Operation = "click"
	OpFill     Operation = "fill"
	OpSelect   Operation = "select"
	OpPress    Operation = "press" // press Key on the located element
	OpCheck    Operation = "check"
	OpUncheck  Operation = "uncheck"
	OpExtract  Operation = "extract"  // fill Output from the page
	OpDownload Operation = "download" // click and capture exactly one download into Output
	OpWait     Operation = "wait"     // wait for the postcondition only
	OpNative   Operation = "native"   // a declared native gap: never executable
)

// Operations returns every operation.
func Operations() []Operation {
	return []Operation{OpNavigate, OpClick, OpFill, OpSelect, OpPress, OpCheck, OpUncheck, OpExtract, OpDownload, OpWait, OpNative}
}

// Interactive reports whether the operation acts on a located element and so
// needs a semantic locator candidate.
func (o Operation) Interactive() bool {
	switch o {
	case OpClick, OpFill, OpSelect, OpPress, OpCheck, OpUncheck, OpDownload:
		return true
	}
	return false
}

// Capability is a browser-capability/v1 document: a typed, reviewable
// instruction package for one business process on one site.
type Capability struct {
	Schema  string `json:"schema" validate:"eq=browser-capability/v1"`
	ID      string `json:"id" validate:"required,capid"`
	Version string `json:"version" validate:"required,semver"`
	Name    string `json:"name" validate:"nonblank,max=200"`
	Goal    string `json:"goal" validate:"nonblank,max=2000"`
	State   State  `json:"state" validate:"required,oneof=scaffold draft authored discovered validated_local"`

	Provenance *Provenance `json:"provenance,omitempty"`
	Site       Site        `json:"site"`
	Runtime    Runtime     `json:"runtime"`
	Authority  Authority   `json:"authority"`
	Privacy    Privacy     `json:"privacy"`

	Inputs           []Input           `json:"inputs" validate:"max=100,dive"`
	Outputs          []Output          `json:"outputs" validate:"max=100,dive"`
	Milestones       []Milestone       `json:"milestones" validate:"required,min=1,dive"`
	BusinessOutcomes []BusinessOutcome `json:"business_outcomes,omitempty" validate:"max=100,dive"`
	// Secrets declares the environment-backed secrets the capability
	// refers to (see [Secret]); Seed is the state set before the first
	// navigation (see [Seed]).
	Secrets []Secret `json:"secrets,omitempty" validate:"max=16,dive"`
	Seed    *Seed    `json:"seed,omitempty"`

	// Validation is set only by receipt.Finalize on promotion to
	// validated_local. It is excluded from the execution hash.
	Validation *Validation `json:"validation,omitempty"`
}

// ProvenanceKind says where a capability came from.
type ProvenanceKind string

// The provenance kinds. An omitted kind is [ProvenanceDiscovery].
const (
	// ProvenanceDiscovery: informed by a browser-discovery/v2 record
	// (discovery_hash and, from discovered up, model, run id and review).
	ProvenanceDiscovery ProvenanceKind = "discovery"
	// ProvenanceHandAuthored: written by hand; author and reason name who
	// wrote it and why no discovery record exists, and the review (without
	// record_hash) is the reviewer's approval of the document itself. It
	// carries no discovery member at all.
	ProvenanceHandAuthored ProvenanceKind = "hand_authored"
)

// Provenance audits a capability back to the discovery that produced it,
// or to the author who wrote it by hand.
type Provenance struct {
	// Kind is discovery (the default when omitted) or hand_authored.
	Kind ProvenanceKind `json:"kind,omitempty" validate:"omitempty,oneof=discovery hand_authored"`
	// DiscoveryHash is the sha256 digest of the private browser-discovery/v2
	// record that informed the capability; required for the discovery kind,
	// forbidden for hand_authored.
	DiscoveryHash  string  `json:"discovery_hash,omitempty" validate:"omitempty,sha256digest"`
	DiscoveryModel string  `json:"discovery_model,omitempty" validate:"max=200"`
	DiscoveryRunID string  `json:"discovery_run_id,omitempty" validate:"max=200"`
	DiscoveryMode  string  `json:"discovery_mode,omitempty" validate:"omitempty,oneof=guided autonomous hybrid"` // guided | autonomous | hybrid
	Review         *Review `json:"review,omitempty"`
	// Author names who wrote a hand_authored capability (a label, not an
	// authenticated identity).
	Author string `json:"author,omitempty" validate:"max=200"`
	// Reason says, for reviewers, why a hand_authored capability has no
	// discovery record.
	Reason string `json:"reason,omitempty" validate:"max=2000"`
}

// HandAuthored reports whether the provenance is of kind hand_authored.
func (p *Provenance) HandAuthored() bool { return p != nil && p.Kind == ProvenanceHandAuthored }

// Review records the operator's approval of the exact discovery record and
// the separate capability-authoring approval.
type Review struct {
	Reviewer string `json:"reviewer" validate:"nonblank,max=200"`
	// ReviewedAt is an RFC 3339 timestamp.
	ReviewedAt string `json:"reviewed_at" validate:"required,rfc3339"`
	// RecordHash must equal Provenance.DiscoveryHash: the review covers that
	// exact record and nothing broader. A hand_authored review has none (it
	// covers the capability document itself, which the execution hash
	// pins).
	RecordHash string `json:"record_hash,omitempty" validate:"omitempty,sha256digest"`
	// AuthoringApproved is the capability-authoring approval; transfer
	// approval of a developer pack never implies it.
	AuthoringApproved bool `json:"authoring_approved" validate:"-"`
	// ReviewHash binds this review to the discovery record's own review
	// member (reviewer and time), which the record hash excludes:
	// value_digest({"record_hash": record_hash, "review": record.review}).
	// discovery.Promote checks it when given and always sets it.
	ReviewHash string `json:"review_hash,omitempty" validate:"omitempty,sha256digest"`
}

// Site names the target application and the origins the run may reach.
type Site struct {
	Name string `json:"name" validate:"nonblank,max=200"`
	// AllowedOrigins are scheme://host[:port] origins that navigation, frames
	// and popups may reach.
	AllowedOrigins []string `json:"allowed_origins" validate:"required,min=1,max=16,dive,origin"`
	// SubresourceOrigins are extra origins the page may load subresources
	// (scripts, images, styles, fetches) from, never navigate to.
	SubresourceOrigins []string `json:"subresource_origins,omitempty" validate:"max=32,dive,origin"`
}

// Runtime holds the execution parameters that belong to the reviewed
// contract and the execution hash.
type Runtime struct {
	// Start is the declared start state: a query-free path or URL on an
	// allowed origin; every run and every recovery retry begins here.
	Start string `json:"start" validate:"required,max=2048"`
	// StartQuery is the start's query, built by the runtime from ordered
	// entries (see [QueryEntry]); Start itself never carries one.
	StartQuery []QueryEntry `json:"start_query,omitempty" validate:"max=32,dive"`
	// FrameSelectors selects at most five fixed nested iframes, outermost
	// first. Locators and locator postconditions use the selected frame;
	// navigation, download events and URL conditions use the top-level tab,
	// except URL conditions with scope "frame", which read the selected
	// frame's URL. It applies to every milestone; a capability that sets
	// it declares no milestone frame_selectors ([CodeFramePathMixed]).
	FrameSelectors []string `json:"frame_selectors,omitempty" validate:"max=5,dive,nonblank,max=300"`
	// ActionTimeoutMS is the default per-action timeout.
	ActionTimeoutMS int `json:"action_timeout_ms,omitempty" validate:"omitempty,min=100,max=120000"`
	// TransitionTimeoutMS bounds the wait for a milestone's transitions.
	TransitionTimeoutMS int `json:"transition_timeout_ms,omitempty" validate:"omitempty,min=100,max=120000"`
	// RunTimeoutMS bounds the whole run.
	RunTimeoutMS int `json:"run_timeout_ms,omitempty" validate:"omitempty,min=1000,max=1800000"`
	// MaxActions bounds the number of actions executed in one run (loops
	// included).
	MaxActions int `json:"max_actions,omitempty" validate:"omitempty,min=1,max=10000"`
}

// Authority is the ceiling of what the capability may do.
type Authority struct {
	// MaxEffect is the most severe effect any action may declare.
	MaxEffect Effect `json:"max_effect" validate:"required,oneof=read_only reversible consequential"`
	// Account describes whose account the operator authenticates with, for
	// reviewers (for example "teller staff account").
	Account string `json:"account,omitempty" validate:"max=200"`
	// OperatorAuthenticates says the operator signs in personally; a
	// capability never carries credentials.
	OperatorAuthenticates bool `json:"operator_authenticates" validate:"-"`
}

// Privacy is the data boundary of the capability.
type Privacy struct {
	// DataClasses names the classes of private data the process reads, for
	// example "member_balances".
	DataClasses []string `json:"data_classes" validate:"max=100,dive,name"`
	// RetainDownloads says downloaded files stay in the local run folder
	// after the run.
	RetainDownloads bool `json:"retain_downloads,omitempty" validate:"-"`
}

// InputType is the type of an input reference.
type InputType string

// The input types.
const (
	InputString  InputType = "string"
	InputInteger InputType = "integer"
	InputNumber  InputType = "number"
	InputBoolean InputType = "boolean"
	InputDate    InputType = "date" // YYYY-MM-DD
	InputEnum    InputType = "enum"
)

// Input is a typed reference. A capability never holds private values:
// the host supplies them at run time and receipts only hash them.
type Input struct {
	Name        string    `json:"name" validate:"required,name"`
	Type        InputType `json:"type" validate:"required,oneof=string integer number boolean date enum"`
	Description string    `json:"description,omitempty" validate:"max=2000"`
	Required    bool      `json:"required,omitempty" validate:"-"`
	// Secret inputs are never persisted, logged or defaulted.
	Secret bool `json:"secret,omitempty" validate:"-"`
	// Values lists the allowed values of an enum input.
	Values []string `json:"values,omitempty" validate:"max=100,dive,nonblank,max=200"`
	// Default is a public default for optional, non-secret inputs.
	Default json.RawMessage `json:"default,omitempty" validate:"-"`
	// Minimum and Maximum bound integer and number inputs.
	Minimum *float64 `json:"minimum,omitempty" validate:"-"`
	Maximum *float64 `json:"maximum,omitempty" validate:"-"`
	// MaxLength bounds string inputs, in runes.
	MaxLength int `json:"max_length,omitempty" validate:"min=0"`
	// SecretRef names a declared secret ([Secret]) the runtime resolves
	// from the environment as this input's value; the host never
	// supplies it. Only on a secret string input.
	SecretRef string `json:"secret_ref,omitempty" validate:"-"`
}

// OutputKind is the shape of an output.
type OutputKind string

// The output kinds.
const (
	OutputText        OutputKind = "text"
	OutputRecord      OutputKind = "record"
	OutputRecordSet   OutputKind = "record_set"
	OutputDownloadSet OutputKind = "download_set"
)

// Collection reports whether the kind holds zero or more items (an empty
// collection is a valid answer).
func (k OutputKind) Collection() bool { return k == OutputRecordSet || k == OutputDownloadSet }

// Exposure says where an output's values may go.
type Exposure string

// The exposure classes.
const (
	// ExposureArtifactOnly values stay in the local outputs.json and are
	// never returned to the model.
	ExposureArtifactOnly Exposure = "artifact_only"
	// ExposureModelAndArtifact values are returned to the host model and
	// written to outputs.json.
	ExposureModelAndArtifact Exposure = "model_and_artifact"
	// ExposureModelSummary returns only a summary (counts and field names,
	// or the text itself for a text output) to the model.
	ExposureModelSummary Exposure = "model_summary"
)

// FieldType is the coercion applied to an extracted value.
type FieldType string

// The field types. Coercion rules are documented in package runtime.
const (
	FieldString  FieldType = "string"
	FieldInteger FieldType = "integer"
	FieldNumber  FieldType = "number"
	FieldBoolean FieldType = "boolean"
	FieldDate    FieldType = "date"
)

// Output declares one result of the process.
type Output struct {
	Name        string     `json:"name" validate:"required,name"`
	Kind        OutputKind `json:"kind" validate:"required,oneof=text record record_set download_set"`
	Exposure    Exposure   `json:"exposure" validate:"required,oneof=artifact_only model_and_artifact model_summary"`
	Description string     `json:"description,omitempty" validate:"max=2000"`
	// Required non-collection outputs must be produced on every path to a
	// completed terminal; a required text is produced only non-blank
	// (FORMAT.md 3.2 "Blank values").
	Required bool `json:"required,omitempty" validate:"-"`
	// Fields is the exact record shape of record and record_set outputs.
	Fields []OutputField `json:"fields,omitempty" validate:"max=100,dive"`
	// Expect declares what a text output's value must be (see
	// [Expectation]); record outputs declare it per field.
	Expect *Expectation `json:"expect,omitempty"`
}

// OutputField is one field of a record output.
type OutputField struct {
	Name string    `json:"name" validate:"required,name"`
	Type FieldType `json:"type" validate:"required,oneof=string integer number boolean date"`
	// Expect declares what the field's value must be (see [Expectation]).
	Expect *Expectation `json:"expect,omitempty"`
}

// Milestone is an ordered group of actions followed by ordered transitions.
type Milestone struct {
	ID      string   `json:"id" validate:"required,capid"`
	Intent  string   `json:"intent" validate:"nonblank,max=500"`
	Actions []Action `json:"actions" validate:"dive"`
	// Transitions are evaluated in order after the actions; the first whose
	// condition holds wins. With none, the run continues with the next
	// milestone in document order, and after the last one completes.
	Transitions []Transition `json:"transitions,omitempty" validate:"max=32,dive"`
	// MaxVisits bounds how often the milestone runs in one run. A milestone
	// on a cycle must declare it; otherwise it is 1.
	MaxVisits int `json:"max_visits,omitempty" validate:"omitempty,min=1,max=100"`
	// FrameSelectors is this milestone's own frame path (the same form and
	// limits as runtime.frame_selectors): its actions, locators,
	// conditions with scope "frame", extraction, dialog checks and
	// outcome detection use that frame; a milestone without one uses the
	// top-level document. A capability declares either the runtime-wide
	// path or per-milestone paths, never both ([CodeFramePathMixed]); see
	// [Capability.FramePath].
	FrameSelectors []string `json:"frame_selectors,omitempty" validate:"max=5,dive,nonblank,max=300"`
}

// TerminalCompleted is the transition target that ends a run as completed.
const TerminalCompleted = "completed"

// Transition moves to another milestone or a terminal when its condition
// holds.
type Transition struct {
	When Condition `json:"when"`
	// To is a milestone id or [TerminalCompleted].
	To string `json:"to" validate:"required"`
}

// ConditionKind is the kind of a state condition.
type ConditionKind string

// The condition kinds.
const (
	// CondLocatorVisible holds when the locator resolves to a visible element
	// in the selected frame.
	CondLocatorVisible ConditionKind = "locator_visible"
	// CondLocatorHidden holds when the frame resolves, is approved, and the
	// locator matches no visible element. A missing frame never satisfies it.
	CondLocatorHidden ConditionKind = "locator_hidden"
	// CondTextVisible holds when Text is visible in the selected frame.
	CondTextVisible ConditionKind = "text_visible"
	// CondURLIncludes holds when the top-level URL (raw or once safely
	// percent-decoded) includes Value after input substitution.
	CondURLIncludes ConditionKind = "url_includes"
	// CondURLPath holds when the top-level URL's path equals Value (raw or
	// percent-decoded).
	//
	// Both URL kinds read the selected frame's URL instead when Scope is
	// [ScopeFrame].
	CondURLPath ConditionKind = "url_path"
	// CondOutputProduced holds when the action produced Output.
	CondOutputProduced ConditionKind = "output_produced"
	// CondDownloadCompleted holds when the action's download was verified.
	CondDownloadCompleted ConditionKind = "download_completed"
	// CondAlways always holds (a transition's default branch). Never a
	// postcondition.
	CondAlways ConditionKind = "always"
)

// Condition is a machine-checkable state assertion used by postconditions,
// transitions and business-outcome detection.
type Condition struct {
	Kind              ConditionKind       `json:"kind" validate:"required,oneof=locator_visible locator_hidden text_visible url_includes url_path output_produced download_completed always"`
	LocatorCandidates []locator.Candidate `json:"locator_candidates,omitempty" validate:"-"`
	Text              string              `json:"text,omitempty" validate:"max=500"`
	Value             string              `json:"value,omitempty" validate:"max=2048"`
	Output            string              `json:"output,omitempty" validate:"-"`
	// Scope says whose URL url_includes and url_path read: "page" (the
	// default when omitted) the top-level page's, "frame" the innermost
	// frame of the condition's milestone's path (runtime.frame_selectors
	// or the milestone's frame_selectors).
	Scope ConditionScope `json:"scope,omitempty" validate:"omitempty,oneof=page frame"`
}

// Action is one executable step.
type Action struct {
	ID           string       `json:"id" validate:"required,capid"`
	Operation    Operation    `json:"operation" validate:"required,oneof=navigate click fill select press check uncheck extract download wait native"`
	Intent       string       `json:"intent" validate:"nonblank,max=500"`
	Effect       Effect       `json:"effect" validate:"required,oneof=read_only reversible consequential"`
	Confirmation Confirmation `json:"confirmation" validate:"required,oneof=none action_time"`
	// LocatorCandidates finds the action's element (its root for extract).
	LocatorCandidates []locator.Candidate `json:"locator_candidates,omitempty" validate:"-"`
	// CSSOnlyReason is the reviewer-visible reason an action's locator has
	// only CSS candidates: the target has no semantic handle (a value in
	// <dd id="saldo">), so a semantic candidate would be a decoy. It waives
	// the semantic-candidate rule, is allowed only when every candidate is
	// CSS and never on a consequential action, and is hashed like every
	// member.
	CSSOnlyReason string `json:"css_only_reason,omitempty" validate:"-"`
	// URL is the navigate target: a query-free path or URL on an allowed
	// origin; its fragment may carry templates such as #search/{{query}}.
	URL string `json:"url,omitempty" validate:"max=2048"`
	// Query is the navigate target's query, built by the runtime from
	// ordered entries (see [QueryEntry]); URL itself never carries one.
	Query []QueryEntry `json:"query,omitempty" validate:"max=32,dive"`
	// Input names the declared input a fill or select reads.
	Input string `json:"input,omitempty" validate:"-"`
	// Value is a public literal (may hold templates) for fill or select
	// when no Input is named.
	Value string `json:"value,omitempty" validate:"max=2000"`
	// Key is the key a press sends, such as "Enter".
	Key string `json:"key,omitempty" validate:"max=32"`
	// Output names the declared output an extract or download fills.
	Output string `json:"output,omitempty" validate:"-"`
	// Extract configures an extract action.
	Extract *Extraction `json:"extract,omitempty"`
	// TimeoutMS overrides the runtime's default action timeout.
	TimeoutMS int `json:"timeout_ms,omitempty" validate:"omitempty,min=100,max=120000"`
	// Postcondition is the state that proves the action worked. A click is
	// never completion.
	Postcondition *Condition `json:"postcondition,omitempty"`
	// NativeGap describes the non-browser step of a native action.
	NativeGap string `json:"native_gap,omitempty" validate:"max=2000"`
}

// ExtractMode is how an extract action reads.
type ExtractMode string

// The extraction modes.
const (
	// ExtractSingle reads one record from the uniquely resolved root.
	ExtractSingle ExtractMode = "single"
	// ExtractList reads one record per matching root (the record container).
	ExtractList ExtractMode = "list"
	// ExtractText reads the root's visible text into a text output.
	ExtractText ExtractMode = "text"
)

// Extraction declares how an extract action reads its output.
type Extraction struct {
	Mode   ExtractMode `json:"mode" validate:"required,oneof=single list text"`
	Fields []Field     `json:"fields,omitempty" validate:"max=100,dive"`
	// MaxRecords is the hard maximum of a list extraction (at most
	// [MaxRecordsCeiling]); more matching records fail the action.
	MaxRecords int `json:"max_records,omitempty" validate:"omitempty,min=1,max=1000"`
	// LimitInput optionally names a positive-integer input that lowers the
	// number of records read at run time.
	LimitInput string `json:"limit_input,omitempty" validate:"-"`
	// RequiredFields must be non-empty (not null, not blank) in every
	// record.
	RequiredFields []string `json:"required_fields,omitempty" validate:"-"`
	// DedupeKeys drop later records whose key fields equal an earlier one.
	DedupeKeys []string `json:"dedupe_keys,omitempty" validate:"-"`
}

// ReadKind is what a field reads from its element.
type ReadKind string

// The read kinds.
const (
	ReadText      ReadKind = "text"
	ReadValue     ReadKind = "value"
	ReadAttribute ReadKind = "attribute"
)

// Field is one extracted field, located inside the action root.
type Field struct {
	Name string    `json:"name" validate:"required,name"`
	Type FieldType `json:"type" validate:"required,oneof=string integer number boolean date"`
	// LocatorCandidates find the field inside the resolved root; an empty
	// list (which must be present) reads the root itself.
	LocatorCandidates []locator.Candidate `json:"locator_candidates" validate:"required"`
	Read              ReadKind            `json:"read,omitempty" validate:"omitempty,oneof=text value attribute"`
	// Attribute names the attribute of a ReadAttribute field.
	Attribute string `json:"attribute,omitempty" validate:"max=100"`
	// JSONPointer, when set, takes the field out of the JSON text read:
	// an RFC 6901 pointer starting with "/" (the whole document is the
	// text itself, so "" means no pointer). It yields a string value
	// without its quotes, a number in its JSON decimal form, a boolean as
	// true/false, null as empty; text that is not JSON, a pointer that
	// names no value, or an object or array fails the extraction.
	JSONPointer string `json:"json_pointer,omitempty" validate:"max=500"`
}

// BusinessOutcome is a named legitimate answer (member_not_found,
// session_expired) the caller branches on, not a crash.
type BusinessOutcome struct {
	Code        string        `json:"code" validate:"required,name"`
	Description string        `json:"description,omitempty" validate:"max=2000"`
	Detect      OutcomeDetect `json:"detect"`
}

// OutcomeDetect holds the detect rules; at least one is set and all set
// rules must hold.
type OutcomeDetect struct {
	VisibleText string `json:"visible_text,omitempty" validate:"max=500"`
	// URLPattern is a Go regular expression over the query-free top-level URL
	// path and fragment.
	URLPattern        string              `json:"url_pattern,omitempty" validate:"max=500"`
	LocatorCandidates []locator.Candidate `json:"locator_candidates,omitempty" validate:"-"`
	// Scope limits where visible_text and locator_candidates look: the
	// container one candidate (of any strategy, unscoped) matches; the
	// rule holds only when it matches exactly one element and the text or
	// a candidate is visible below it. Text shown as documentation
	// elsewhere on the page then does not fire the outcome.
	Scope *locator.Candidate `json:"scope,omitempty" validate:"-"`
	// AfterAction names an action: the rule holds only once that action
	// has run (passed) in this run.
	AfterAction string `json:"after_action,omitempty" validate:"-"`
}

// Validation is the metadata receipt.Finalize writes on promotion.
type Validation struct {
	// Receipts are the sha256 digests of the two clean run receipts.
	Receipts []string `json:"receipts" validate:"dive,sha256digest"`
	// ExecutionMode is the mode both receipts recorded.
	ExecutionMode string `json:"execution_mode" validate:"required,oneof=live_connected_chrome live_launched_browser"`
	// FinalizedAt is an RFC 3339 timestamp.
	FinalizedAt string `json:"finalized_at" validate:"required,rfc3339"`
	// Claim states the limit of the evidence: artifact consistency, not an
	// attestation of a person, machine or website.
	Claim string `json:"claim,omitempty" validate:"max=2000"`
}
