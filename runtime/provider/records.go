package provider

// The schema_version values of the three records.
const (
	SchemaProfile = "computer_use_runtime_profile_v0"
	SchemaRequest = "computer_use_action_request_v0"
	SchemaReceipt = "computer_use_receipt_v0"
)

// ProviderID is the provider_id Vera reports in its profile and receipts.
const ProviderID = "vera_browser_runtime"

// Limits of the records, enforced by parsing and validation.
const (
	// MaxRecordBytes bounds a serialized request or receipt.
	MaxRecordBytes = 64 << 10
	// MaxDepth bounds the nesting of a receipt (objects and arrays).
	MaxDepth = 8
	// MaxIDLen bounds goal_id, todo_id, provider_id, action_unit, gate_id,
	// capability ids and allowed action ids.
	MaxIDLen = 128
	// MaxTextLen bounds stop_condition and validation_target.
	MaxTextLen = 500
	// MaxFactLen bounds every string inside a receipt: a fact is compact;
	// anything longer is page text ([CodePageBody]).
	MaxFactLen = 256
	// MaxAllowedActions bounds write_scope.allowed_actions.
	MaxAllowedActions = 100
	// MaxKeyLen bounds idempotency_key and session_reference.
	MaxKeyLen = 128
)

// Profile is computer_use_runtime_profile_v0: what the runtime can do,
// as a readiness fact. It grants nothing.
type Profile struct {
	SchemaVersion string `json:"schema_version"`
	ProviderID    string `json:"provider_id"`
	// HostKind is "browser_runtime" for Vera.
	HostKind string `json:"host_kind"`
	// Visibility is "visible_or_replayable" for a launched or connected
	// Chromium (a person can watch or take over), "replayable" for the
	// simulated driver (fixtures replay, nobody watches).
	Visibility string     `json:"visibility"`
	Primitives Primitives `json:"provider_primitives"`
	Boundary   Boundary   `json:"boundary"`
	// Runtime are the public readiness facts of Preflight: library, mode,
	// browser product and protocol version. Nothing private.
	Runtime RuntimeFacts `json:"runtime"`
}

// Support is how a profile offers a primitive.
type Support string

// The support levels of a primitive.
const (
	// SupportHostOwned: the host (its browser, its screenshots) holds it;
	// the provider never copies it.
	SupportHostOwned Support = "host_owned"
	// SupportAvailable: the provider offers it.
	SupportAvailable Support = "available"
	// SupportOptional: offered by some drivers, not by this one.
	SupportOptional Support = "optional"
	// SupportGated: only behind an open gate at the current revision.
	SupportGated Support = "gated"
	// SupportUnavailable: not offered.
	SupportUnavailable Support = "unavailable"
)

// Primitives are the provider-advertised primitives (the seed's second
// sense of "capability").
type Primitives struct {
	Screenshots       Support `json:"screenshots"`
	AccessibilityTree Support `json:"accessibility_tree"`
	BrowserSession    Support `json:"browser_session"`
	RecordReplay      Support `json:"record_replay"`
	ExternalWrite     Support `json:"external_write"`
	PrivateSourceRead Support `json:"private_source_read"`
}

// Boundary is what the provider never does. Every member is false for
// Vera.
type Boundary struct {
	CredentialsCopied               bool `json:"credentials_copied"`
	CookiesExported                 bool `json:"cookies_exported"`
	RawScreenshotsCopied            bool `json:"raw_screenshots_copied"`
	RawPrivateBodiesCopied          bool `json:"raw_private_bodies_copied"`
	ExternalWriteAllowedWithoutGate bool `json:"external_write_allowed_without_gate"`
}

// RuntimeFacts are the public facts of a preflight.
type RuntimeFacts struct {
	Library         string `json:"library"`
	ExecutionMode   string `json:"execution_mode,omitempty"`
	Browser         string `json:"browser,omitempty"`
	ProtocolVersion string `json:"protocol_version,omitempty"`
	// Ready is true when the preflight opened and closed the driver.
	Ready bool `json:"ready"`
	// FailureCategory and FailureReason are set when it did not.
	FailureCategory string `json:"failure_category,omitempty"`
	FailureReason   string `json:"failure_reason,omitempty"`
}

// ActionRequest is computer_use_action_request_v0: the bounded action a
// capability asks the provider to attempt.
type ActionRequest struct {
	SchemaVersion string `json:"schema_version"`
	GoalID        string `json:"goal_id"`
	TodoID        string `json:"todo_id"`
	ProviderID    string `json:"provider_id"`
	// ActionUnit names the middle-grained unit ("draft_until_review_gate");
	// the receipt echoes it as attempted_action_unit.
	ActionUnit  string      `json:"action_unit"`
	EffectClass EffectClass `json:"effect_class"`
	WriteScope  WriteScope  `json:"write_scope"`
	// GateBinding is required for external_write and credential_use.
	GateBinding *GateBinding `json:"gate_binding,omitempty"`
	// StopCondition and ValidationTarget are reviewer text. They are
	// never the enforcement: effect_class, write_scope and the gate are.
	StopCondition    string `json:"stop_condition"`
	ValidationTarget string `json:"validation_target"`
	// Capability names the Vera capability to run.
	Capability CapabilityRef `json:"capability"`
	// Inputs are the values of the capability's non-secret inputs.
	Inputs map[string]any `json:"inputs"`
	// Secrets are the values of secret inputs. They are never serialized,
	// hashed or echoed; only a credential_use request may use them.
	Secrets map[string]any `json:"-"`
}

// WriteScope is the typed write scope of a request.
type WriteScope struct {
	// AllowedActions are the ids of the capability actions the request
	// lets run. Every non-consequential action must be listed (no gate
	// can stop it); a consequential action left out is where the run
	// stops.
	AllowedActions []string `json:"allowed_actions"`
	// ForbiddenEffectClasses may never run, whatever effect_class covers.
	ForbiddenEffectClasses []EffectClass `json:"forbidden_effect_classes"`
}

// GateStatus is the state of a host gate.
type GateStatus string

// The gate statuses.
const (
	// GateOpen: the gate lets the bound effect through at this revision.
	GateOpen GateStatus = "open"
	// GatePending: a human decision is awaited.
	GatePending GateStatus = "pending"
	// GateClosed: rejected, expired or withdrawn.
	GateClosed GateStatus = "closed"
)

// Valid reports whether s is in the closed set.
func (s GateStatus) Valid() bool { return s == GateOpen || s == GatePending || s == GateClosed }

// GateBinding is the host gate a request was issued under: its id, the
// revision the request was generated from and the status at that time.
type GateBinding struct {
	GateID   string     `json:"gate_id"`
	Revision int64      `json:"revision"`
	Status   GateStatus `json:"status"`
}

// CapabilityRef names a capability by id and execution hash (and, for
// readers, its version).
type CapabilityRef struct {
	ID            string `json:"id"`
	Version       string `json:"version,omitempty"`
	ExecutionHash string `json:"execution_hash"`
}

// StopReason is the closed enum of why a provider stopped.
type StopReason string

// The stop reasons.
const (
	StopCompleted             StopReason = "completed"
	StopAtGate                StopReason = "stopped_at_gate"
	StopBlockedByUnknownModal StopReason = "blocked_by_unknown_modal"
	StopFailed                StopReason = "failed"
)

// StopReasons lists the closed enum.
func StopReasons() []StopReason {
	return []StopReason{StopCompleted, StopAtGate, StopBlockedByUnknownModal, StopFailed}
}

// Receipt is computer_use_receipt_v0 as Vera writes it: what was
// attempted and observed, facts only.
type Receipt struct {
	SchemaVersion       string     `json:"schema_version"`
	GoalID              string     `json:"goal_id"`
	TodoID              string     `json:"todo_id"`
	ProviderID          string     `json:"provider_id"`
	AttemptedActionUnit string     `json:"attempted_action_unit"`
	StopReason          StopReason `json:"stop_reason"`
	// GateBinding echoes the request's binding, when it had one, so a
	// stale receipt can be told from a current one.
	GateBinding   *GateBinding  `json:"gate_binding,omitempty"`
	ObservedFacts ObservedFacts `json:"observed_facts"`
	Evidence      Evidence      `json:"evidence"`
	// IdempotencyKey is the request's hash ([RequestHash]): one bounded
	// request, one accepted receipt.
	IdempotencyKey string `json:"idempotency_key"`
	// SessionReference is an opaque handle to the provider's session (the
	// run id); it opens nothing by itself.
	SessionReference string `json:"session_reference"`
}

// ObservedFacts are what Vera observed, facts only: no decision, no
// value of the page.
type ObservedFacts struct {
	// ScreenReached: the run reached its start page and a milestone.
	ScreenReached bool `json:"screen_reached"`
	// FinalActionClicked: the input of a consequential action was sent to
	// the page (runtime.Result.EffectDispatched), whatever followed.
	FinalActionClicked bool `json:"final_action_clicked"`
	// UnknownModal: an untargeted dialog (or native dialog) blocked the run.
	UnknownModal bool `json:"unknown_modal"`
	// EffectUnconfirmed: dispatched, then not confirmed; the effect may or
	// may not have happened.
	EffectUnconfirmed bool `json:"effect_unconfirmed"`
	// ActionsSucceeded counts the actions that succeeded.
	ActionsSucceeded int `json:"actions_succeeded"`
	// TerminalState is Vera's own terminal state (the run receipt's).
	TerminalState string `json:"terminal_state"`
	// BusinessOutcome is the outcome code of a business_outcome run.
	BusinessOutcome string `json:"business_outcome,omitempty"`
	// StoppedAtAction is the action id the run stopped at.
	StoppedAtAction string `json:"stopped_at_action,omitempty"`
	// FailureCategory and FailureReason are the run's failure codes.
	FailureCategory string `json:"failure_category,omitempty"`
	FailureReason   string `json:"failure_reason,omitempty"`
	// ExecutionMode is the mode the driver reported.
	ExecutionMode string `json:"execution_mode"`
}

// Evidence is a handle to the run's evidence, never the evidence.
type Evidence struct {
	// HandleKind is [HandleKindRunReceipt] for Vera.
	HandleKind string `json:"handle_kind"`
	// Handle is the sha256 of the run's run.receipt.json.
	Handle                string `json:"handle"`
	RawEvidenceCopied     bool   `json:"raw_evidence_copied"`
	PrivateSourceRedacted bool   `json:"private_source_redacted"`
}

// HandleKindRunReceipt is the handle kind of a Vera run receipt hash.
const HandleKindRunReceipt = "vera_run_receipt_sha256"
