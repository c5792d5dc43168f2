package receipt

// Document schemas written by the runtime.
const (
	SchemaReceipt   = "browser-run-receipt/v3"
	SchemaOutputs   = "browser-run-outputs/v1"
	SchemaLockV1    = "browser-run-lock/v1"
	SchemaLockV2    = "browser-run-lock/v2"
	SchemaProposals = "browser-recovery-proposals/v1"
)

// File names inside a run directory.
const (
	FileReceipt   = "run.receipt.json"
	FileOutputs   = "outputs.json"
	FileLock      = "run.lock.json"
	FileProposals = "recovery.proposals.json"
)

// ExecutionMode is the fact a driver reported about how the run executed.
// The runtime re-exports these values as runtime.ExecutionMode.
type ExecutionMode string

// The execution modes. A receipt that omits the mode is [ModeUnverified].
const (
	ModeLiveConnected ExecutionMode = "live_connected_chrome"
	ModeLiveLaunched  ExecutionMode = "live_launched_browser"
	ModeSimulated     ExecutionMode = "simulated"
	ModeUnverified    ExecutionMode = "unverified"
)

// TerminalState is how a run ended. Terminal states are data, not errors.
type TerminalState string

// The terminal states.
const (
	TerminalCompleted             TerminalState = "completed"
	TerminalBusinessOutcome       TerminalState = "business_outcome"
	TerminalStoppedAtGate         TerminalState = "stopped_at_gate"
	TerminalBlockedByUnknownModal TerminalState = "blocked_by_unknown_modal"
	TerminalNativeGap             TerminalState = "native_gap"
	TerminalRecoveryRequested     TerminalState = "recovery_requested"
	TerminalFailed                TerminalState = "failed"
)

// Category is the stable failure category of a failed run or action.
type Category string

// The failure categories (seed 003's taxonomy plus the capability
// contract's own).
const (
	CategoryBrowserUnavailable  Category = "browser_unavailable"
	CategoryBrowserLaunchFailed Category = "browser_launch_failed"
	CategoryTargetNotAllowed    Category = "target_not_allowed"
	CategoryOriginNotAllowed    Category = "origin_not_allowed"
	CategoryTargetUnreachable   Category = "target_unreachable"
	CategoryUIAssertionFailed   Category = "ui_assertion_failed"
	CategoryLocatorNotFound     Category = "locator_not_found"
	CategoryFrameNotAllowed     Category = "frame_not_allowed"
	CategoryExtractionFailed    Category = "extraction_failed"
	CategoryDownloadFailed      Category = "download_failed"
	CategoryApprovalRefused     Category = "approval_refused"
	CategoryRunTimeout          Category = "run_timeout"
	CategoryBrowserCrashed      Category = "browser_crashed"
	CategoryCanceled            Category = "canceled"
	CategoryLimitExceeded       Category = "limit_exceeded"
	CategoryInternal            Category = "internal"
	// CategoryEffectUnconfirmed: a consequential action's input (click,
	// key press) reached the page, so its effect may have happened, and
	// then the run failed before the action's outcome was confirmed. Its
	// only reason is [ReasonOutcomeUnconfirmed] and the action record says
	// dispatched. A host must not retry such a run blindly.
	CategoryEffectUnconfirmed Category = "effect_unconfirmed"
)

// ReasonOutcomeUnconfirmed is the reason code of every
// [CategoryEffectUnconfirmed] failure (runtime.ReasonOutcomeUnconfirmed).
const ReasonOutcomeUnconfirmed = "outcome_unconfirmed_after_effect"

// Failure is the model-visible description of a failure: a stable
// category, an optional bounded reason code ([a-z0-9_]{1,64}) and the
// SHA-256 of the local detail. Raw error text never appears here.
type Failure struct {
	Category   Category `json:"category"`
	Reason     string   `json:"reason,omitempty"`
	DetailHash string   `json:"detail_hash,omitempty"`
}

// CapabilityRef pins the capability a run executed.
type CapabilityRef struct {
	ID            string `json:"id"`
	Version       string `json:"version"`
	ExecutionHash string `json:"execution_hash"`
	DiscoveryHash string `json:"discovery_hash,omitempty"`
}

// InputRecord is one supplied input, hashed. The hash is the sha256 of the
// RFC 8785 canonical JSON of
// {"capability":<execution hash>,"name":<name>,"value":<typed value>}, so
// two runs of the same capability with the same value match. Secret inputs
// carry no hash at all, only Secret and Present.
type InputRecord struct {
	Name    string `json:"name"`
	Present bool   `json:"present"`
	Secret  bool   `json:"secret,omitempty"`
	Hash    string `json:"hash,omitempty"`
}

// MilestoneRecord is one visit of one milestone.
type MilestoneRecord struct {
	ID     string `json:"id"`
	Visit  int    `json:"visit"`
	Status string `json:"status"` // completed | failed | stopped
	// Next is the transition target taken: a milestone id, "completed", or
	// "" when the run ended inside the milestone.
	Next string `json:"next,omitempty"`
}

// ActionStatus is the sanitized outcome of one action.
type ActionStatus string

// The action statuses.
const (
	ActionPassed        ActionStatus = "passed"
	ActionFailed        ActionStatus = "failed"
	ActionStoppedAtGate ActionStatus = "stopped_at_gate"
	ActionNativeGap     ActionStatus = "native_gap"
	ActionBlocked       ActionStatus = "blocked"
)

// ActionRecord is the sanitized outcome of one executed action.
type ActionRecord struct {
	ID        string       `json:"id"`
	Milestone string       `json:"milestone"`
	Visit     int          `json:"visit"`
	Operation string       `json:"operation"`
	Effect    string       `json:"effect"`
	Status    ActionStatus `json:"status"`
	// LocatorIndex is the index of the winning locator candidate, absent
	// when the action has no locator or none won.
	LocatorIndex *int `json:"locator_index,omitempty"`
	// LocatorMatches is the winning resolution's evidence: how many
	// elements each candidate tried matched, in candidate order, from
	// candidate 0 to the winner (so exactly locator_index+1 entries; the
	// last is the winner's: 1, or the number of record roots of a list
	// extraction). Written with locator_index; receipts of earlier writers
	// may omit it. See locatorevidence.go.
	LocatorMatches []int `json:"locator_matches,omitempty"`
	// Postcondition is "verified", "failed" or "" when not reached.
	Postcondition string         `json:"postcondition,omitempty"`
	DurationMS    int64          `json:"duration_ms"`
	Failure       *Failure       `json:"failure,omitempty"`
	Download      *DownloadProof `json:"download,omitempty"`
	Approval      *ApprovalProof `json:"approval,omitempty"`
	// Records is the number of records an extraction produced.
	Records *int `json:"records,omitempty"`
	// Recovered marks an action that succeeded only through a recovery
	// proposal.
	Recovered bool `json:"recovered,omitempty"`
	// Dispatched marks a consequential action whose input (the click, key
	// press or check) was sent to the page, whatever happened after: its
	// effect may have happened even when the action failed.
	Dispatched bool `json:"dispatched,omitempty"`
}

// DownloadProof is the receipt's download evidence: categorical mechanism
// and evidence code, the byte length and file hash. Never a name or path.
type DownloadProof struct {
	Mechanism string `json:"mechanism"`
	Evidence  string `json:"evidence"`
	Bytes     int64  `json:"bytes"`
	SHA256    string `json:"sha256"`
}

// ApprovalProof records an action-time approval of a consequential action.
type ApprovalProof struct {
	Approved     bool   `json:"approved"`
	Requester    string `json:"requester"`
	Approver     string `json:"approver"`
	SelfApproved bool   `json:"self_approved"`
	// ShownInputs names the inputs the approver was shown, in the order
	// shown ([capability.Capability.ApprovalInputs]); absent when none.
	ShownInputs []string `json:"shown_inputs,omitempty"`
	// ShownHash is [ApprovalShownHash] of what was shown: the values
	// only as the receipt's own input hashes, secrets only as a marker.
	ShownHash string `json:"shown_hash"`
}

// OutputRecord is the receipt's view of one output: count and hash, never
// the value. For text, record and record_set outputs the hash is the
// sha256 of the canonical JSON of the value as written in outputs.json;
// for a download_set it is the sha256 of the canonical JSON array of
// {"bytes":N,"sha256":"sha256:..."} in order, never the paths.
type OutputRecord struct {
	Name     string `json:"name"`
	Kind     string `json:"kind"`
	Exposure string `json:"exposure"`
	Count    int    `json:"count"`
	Hash     string `json:"hash"`
}

// Terminal is how the run ended.
type Terminal struct {
	State TerminalState `json:"state"`
	// Outcome is the business outcome code when State is business_outcome.
	Outcome string   `json:"outcome,omitempty"`
	Failure *Failure `json:"failure,omitempty"`
	// Action is the action the run stopped at (gate, native gap, recovery,
	// failure), when there is one.
	Action string `json:"action,omitempty"`
}

// Environment is what the executing host declares about itself. It is a
// declaration, not an attestation.
type Environment struct {
	Browser         string `json:"browser"`
	ProtocolVersion string `json:"protocol_version,omitempty"`
	Library         string `json:"library"`
	GoVersion       string `json:"go_version"`
	OS              string `json:"os"`
	Arch            string `json:"arch"`
}

// Receipt is a browser-run-receipt/v3 document. It holds hashes, counts and
// categories, never private values, raw errors, URL queries or page text.
type Receipt struct {
	Schema     string        `json:"schema"`
	RunID      string        `json:"run_id"`
	Capability CapabilityRef `json:"capability"`
	// ExecutionMode is omitted only by foreign writers; omitted means
	// unverified.
	ExecutionMode ExecutionMode     `json:"execution_mode,omitempty"`
	StartedAt     string            `json:"started_at"`
	FinishedAt    string            `json:"finished_at"`
	DurationMS    int64             `json:"duration_ms"`
	Inputs        []InputRecord     `json:"inputs"`
	Milestones    []MilestoneRecord `json:"milestones"`
	Actions       []ActionRecord    `json:"actions"`
	Outputs       []OutputRecord    `json:"outputs"`
	Terminal      Terminal          `json:"terminal"`
	Environment   Environment       `json:"environment"`
	// Grant is the run's grant (grant.go): present in every live run the
	// runtime writes, absent in a simulated one.
	Grant *GrantRecord `json:"grant,omitempty"`
	// Origins are the query-free origins the top-level page and frames
	// reached, sorted.
	Origins []string `json:"origins"`
	// BlockedRequests counts requests the browser blocked by origin scope.
	BlockedRequests int `json:"blocked_requests"`
	// LocatorChangesDuringRun is true when any locator differed from the
	// capability (a recovery proposal was used).
	LocatorChangesDuringRun bool `json:"locator_changes_during_run"`
	Recovered               bool `json:"recovered"`
	// HandedOff is true when a person took over the live page; such a run
	// is not clean.
	HandedOff bool `json:"handed_off"`
	// Clean is true when the run completed from the declared start with no
	// recovery, no handoff, no locator change and no blocked request.
	Clean bool `json:"clean"`
}

// OutputValue is one output in outputs.json.
type OutputValue struct {
	Name     string `json:"name"`
	Kind     string `json:"kind"`
	Exposure string `json:"exposure"`
	// Value is the text (string), record (object) or record set (array of
	// objects); absent for download sets and outputs not produced.
	Value any `json:"value,omitempty"`
	// Files are the verified downloads of a download set, in order.
	Files []DownloadFile `json:"files,omitempty"`
	// Produced is false when the run ended before producing the output.
	Produced bool `json:"produced"`
}

// DownloadFile is one verified download: the only place a local path is
// ever written.
type DownloadFile struct {
	Path   string `json:"path"`
	Bytes  int64  `json:"bytes"`
	SHA256 string `json:"sha256"`
}

// Outputs is a browser-run-outputs/v1 document (outputs.json). It is
// owner-only, local and never portable.
type Outputs struct {
	Schema  string        `json:"schema"`
	RunID   string        `json:"run_id"`
	Outputs []OutputValue `json:"outputs"`
}

// Lock is a browser-run-lock/v1 or /v2 document linking a run's files. Each
// hash is the sha256 of the file's exact bytes (which are RFC 8785
// canonical JSON).
type Lock struct {
	Schema    string `json:"schema"`
	Algorithm string `json:"algorithm"` // "sha256"
	RunID     string `json:"run_id"`
	Receipt   string `json:"receipt"`
	Outputs   string `json:"outputs"`
	// RecoveryProposals is present (and required) in v2, present in v3
	// exactly when the run has recovery proposals.
	RecoveryProposals string `json:"recovery_proposals,omitempty"`
	// Capture is the sha256 of capture.json, present (and required) only
	// in v3 ([SchemaLockV3], FORMAT.md 16.4).
	Capture string `json:"capture,omitempty"`
}

// RecoveryTarget is the exact action or extraction field to recover.
type RecoveryTarget struct {
	ActionID string `json:"action_id"`
	Field    string `json:"field,omitempty"`
}

// Proposal is one recovery proposal and its outcome in
// recovery.proposals.json.
type Proposal struct {
	Target RecoveryTarget `json:"target"`
	// Locator is the single proposed candidate, as JSON, when one was
	// proposed.
	Locator any `json:"locator,omitempty"`
	// UseResolvedActionRoot is the resolved-root choice for a field.
	UseResolvedActionRoot bool   `json:"use_resolved_action_root,omitempty"`
	Rationale             string `json:"rationale,omitempty"`
	Uncertainty           string `json:"uncertainty,omitempty"`
	// ContractHash is the sha256 of the canonical JSON of the unchanged
	// action contract.
	ContractHash string `json:"contract_hash"`
	// FailureHash is the failure hash of the first pass.
	FailureHash string `json:"failure_hash,omitempty"`
	// Outcome is "recovered", "failed" or "rejected".
	Outcome string `json:"outcome"`
}

// Proposals is a browser-recovery-proposals/v1 document.
type Proposals struct {
	Schema    string     `json:"schema"`
	RunID     string     `json:"run_id"`
	Proposals []Proposal `json:"proposals"`
}
