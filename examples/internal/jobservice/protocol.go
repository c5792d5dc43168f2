package jobservice

import (
	"encoding/json"
	"time"

	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/jobs"
)

// The protocol's versions and fixed limits (FORMAT.md §17).
const (
	// ProtocolHeader carries the protocol version on every /v1 request
	// and response.
	ProtocolHeader = "X-Vera-Protocol"
	// ProtocolVersion is the only protocol version this service speaks.
	ProtocolVersion = "1"
	// APIVersion is the only api_version a request body may name.
	APIVersion = "1"
	// MaxBodyBytes bounds a submission's body; at most MaxBodyBytes+1
	// bytes are ever read.
	MaxBodyBytes = jobs.MaxSubmissionBytes
	// MaxWait bounds a status request's wait_ms.
	MaxWait = 30 * time.Second
	// PreflightInterval is how long a preflight report is reused: the
	// browser probe runs at most once per interval.
	PreflightInterval = time.Minute
	// TokenPrefix starts every run token.
	TokenPrefix = "vrt_"
)

// The protocol's own error codes, next to the runner's [jobs.Code]s
// (queue_full, artifact_capacity, browser_unavailable, service_stopped
// for refused submissions).
const (
	// ErrorNotFound: wrong, missing, unknown or expired; one body for all.
	ErrorNotFound = "not_found"
	// ErrorProtocolMismatch: X-Vera-Protocol or api_version is not "1".
	ErrorProtocolMismatch = "protocol_mismatch"
	// ErrorInvalidRequest: the body or the capability or inputs it
	// carries is refused.
	ErrorInvalidRequest = "invalid_request"
	// ErrorTooLarge: the body is above MaxBodyBytes.
	ErrorTooLarge = "request_too_large"
	// ErrorBundleInvalid: the named bundle does not verify.
	ErrorBundleInvalid = "bundle_invalid"
	// ErrorNotTerminal: artifacts of a run that has not ended.
	ErrorNotTerminal = "run_not_terminal"
	// ErrorArtifactNotFound: the run lists no artifact of that name.
	ErrorArtifactNotFound = "artifact_not_found"
	// ErrorTrialUnavailable: the service offers no trial (WithTrial).
	ErrorTrialUnavailable = "trial_unavailable"
	// ErrorInternal: the service failed (its state folder).
	ErrorInternal = "internal"
)

// SubmitRequest is the body of POST /v1/runs. Exactly one of Bundle and
// Capability is set.
type SubmitRequest struct {
	// APIVersion must be [APIVersion].
	APIVersion string `json:"api_version"`
	// Bundle names a sealed bundle: a folder directly under the
	// service's bundle folder, verified with bundle.Verify before the
	// run.
	Bundle string `json:"bundle,omitempty"`
	// Capability is an inline capability document (browser-capability/v1).
	Capability json.RawMessage `json:"capability,omitempty"`
	// Inputs are the run's inputs; never written to disk.
	Inputs map[string]any `json:"inputs,omitempty"`
	// Label is a free label (at most 128 bytes).
	Label string `json:"label,omitempty"`
	// TimeoutMS is the run budget in milliseconds (0: 60000; at most
	// 120000).
	TimeoutMS int64 `json:"timeout_ms,omitempty"`
	// Viewports, when not empty, run the capability once per viewport
	// (at most [jobs.MaxViewports]), each in a fresh browser context of
	// its size, each passing run ending with a viewport screenshot
	// ([jobs.Request].Viewports).
	Viewports []jobs.Viewport `json:"viewports,omitempty"`
}

// Accepted is the 202 answer to a submission. Token is the run's secret:
// the service keeps only its SHA-256 and never shows it again.
type Accepted struct {
	APIVersion    string     `json:"api_version"`
	ID            string     `json:"id"`
	Token         string     `json:"token"`
	Status        jobs.State `json:"status"`
	QueuePosition int        `json:"queue_position"`
	AcceptedAt    time.Time  `json:"accepted_at"`
	ExpiresAt     time.Time  `json:"expires_at"`
}

// ErrorDoc is the body of every non-2xx answer.
type ErrorDoc struct {
	APIVersion string `json:"api_version"`
	Error      string `json:"error"`
	// Message is a sentence for a person; absent on 404.
	Message string `json:"message,omitempty"`
	// Problems lists a refused request's or bundle's problems (at most
	// 20).
	Problems []string `json:"problems,omitempty"`
}

// Progress is a running job's last per-step report.
type Progress struct {
	// Index counts the job's actions from 1; Total is the declared
	// number.
	Index int `json:"index"`
	Total int `json:"total"`
	// Step and Milestone are the action's and milestone's ids.
	Step      string `json:"step"`
	Milestone string `json:"milestone"`
	// Viewport names the viewport being run (none without viewports).
	Viewport string `json:"viewport,omitempty"`
	// Done is false while the action runs, true once it ended with
	// Status.
	Done   bool                 `json:"done"`
	Status receipt.ActionStatus `json:"status,omitempty"`
}

// RunDocument is the answer of GET and DELETE /v1/runs/{id}: the job's
// current status, or its terminal receipt.
type RunDocument struct {
	APIVersion string     `json:"api_version"`
	ID         string     `json:"id"`
	Status     jobs.State `json:"status"`
	// Error is the job's code (null while queued or running and when
	// passed).
	Error             *jobs.Code            `json:"error"`
	Label             string                `json:"label,omitempty"`
	Bundle            string                `json:"bundle,omitempty"`
	CapabilityID      string                `json:"capability_id"`
	CapabilityVersion string                `json:"capability_version"`
	Terminal          receipt.TerminalState `json:"terminal,omitempty"`
	Category          receipt.Category      `json:"category,omitempty"`
	Reason            string                `json:"reason,omitempty"`
	Outcome           string                `json:"outcome,omitempty"`
	ExecutionMode     runtime.ExecutionMode `json:"execution_mode,omitempty"`
	// Endpoint names the browser endpoint the run runs or ran on, once
	// it started ("default" for a service over one driver source).
	Endpoint string `json:"endpoint,omitempty"`
	// Environment is what the deciding run's receipt declares about the
	// host that executed it (browser and CDP versions, Vera's library
	// version, Go version, OS, architecture), read from the retained
	// receipt whose digest is ReceiptHash; absent until a receipt exists.
	Environment *receipt.Environment `json:"environment,omitempty"`
	// Viewports are the request's viewports, each with its result, in
	// request order (absent without viewports).
	Viewports       []ViewportResult  `json:"viewports,omitempty"`
	AcceptedAt      time.Time         `json:"accepted_at"`
	StartedAt       *time.Time        `json:"started_at,omitempty"`
	FinishedAt      *time.Time        `json:"finished_at,omitempty"`
	ExpiresAt       time.Time         `json:"expires_at"`
	TimeoutMS       int64             `json:"timeout_ms"`
	QueuePosition   int               `json:"queue_position,omitempty"`
	CancelRequested bool              `json:"cancel_requested,omitempty"`
	TotalSteps      int               `json:"total_steps"`
	CompletedSteps  int               `json:"completed_steps"`
	Progress        *Progress         `json:"progress,omitempty"`
	Steps           []jobs.StepRecord `json:"steps,omitempty"`
	Outputs         map[string]any    `json:"outputs,omitempty"`
	RunID           string            `json:"run_id,omitempty"`
	ReceiptHash     string            `json:"receipt_hash,omitempty"`
	ArtifactBytes   int64             `json:"artifact_bytes"`
	Artifacts       []jobs.Artifact   `json:"artifacts,omitempty"`
	// Revision grows with every change the service saw (state, queue
	// position, step); a status request with after=Revision waits for
	// the next one.
	Revision uint64 `json:"revision"`
}

// ViewportResult is one viewport of a run document: the request's
// name and size, then, once its run ended, its state, code, Vera's
// account of the run, its answer, its evidence (run id, receipt digest)
// and its final screenshot (an artifact name of the run and its size).
type ViewportResult struct {
	Name   string `json:"name"`
	Width  int    `json:"width"`
	Height int    `json:"height"`
	// State is passed or failed, or the run's cancelled or interrupted;
	// empty while the viewport has not run (or never will: an earlier
	// one did not pass).
	State jobs.State `json:"state,omitempty"`
	// Error is this viewport's code; null unless it ended without
	// passing.
	Error    *jobs.Code            `json:"error"`
	Terminal receipt.TerminalState `json:"terminal,omitempty"`
	Category receipt.Category      `json:"category,omitempty"`
	Reason   string                `json:"reason,omitempty"`
	Outcome  string                `json:"outcome,omitempty"`
	// Outputs are this viewport's model outputs.
	Outputs map[string]any `json:"outputs,omitempty"`
	// RunID and ReceiptHash identify this viewport's run evidence.
	RunID       string `json:"run_id,omitempty"`
	ReceiptHash string `json:"receipt_hash,omitempty"`
	// Screenshot is the artifact name of the viewport-sized PNG taken
	// when the viewport passed ("screenshots/<name>.png", served by the
	// artifact route), ScreenshotBytes its size.
	Screenshot      string `json:"screenshot,omitempty"`
	ScreenshotBytes int64  `json:"screenshot_bytes,omitempty"`
}

// Limits are the service's limits, in the preflight answer.
type Limits struct {
	ActiveBrowsers      int   `json:"active_browsers"`
	MaxQueued           int   `json:"max_queued"`
	RetainedRuns        int   `json:"retained_runs"`
	MaxSteps            int   `json:"max_steps"`
	DefaultTimeoutMS    int64 `json:"default_timeout_ms"`
	MaxTimeoutMS        int64 `json:"max_timeout_ms"`
	MaxSubmissionBytes  int   `json:"max_submission_bytes"`
	MaxRunArtifactBytes int64 `json:"max_run_artifact_bytes"`
	ArtifactBudgetBytes int64 `json:"artifact_budget_bytes"`
	ExpirySeconds       int64 `json:"expiry_seconds"`
	// MaxViewports, MaxViewportWidth and MaxViewportHeight bound a
	// submission's viewports; Viewports is false when the service's
	// browser source opens no viewport (a submission with viewports is
	// then refused).
	Viewports         bool `json:"viewports"`
	MaxViewports      int  `json:"max_viewports"`
	MaxViewportWidth  int  `json:"max_viewport_width"`
	MaxViewportHeight int  `json:"max_viewport_height"`
}

// PreflightDoc is the answer of GET /v1/preflight: 200 when the probe
// opened and closed a driver, 503 (with Error browser_unavailable) when
// it did not.
type PreflightDoc struct {
	APIVersion      string `json:"api_version"`
	ProtocolVersion string `json:"protocol_version"`
	// Available is the probe's verdict (for a pool: whether one endpoint
	// is available); Error is browser_unavailable when it is false.
	Available bool   `json:"available"`
	Error     string `json:"error,omitempty"`
	// Report is the runtime's preflight report of the last probe
	// (CheckedAt is when it ran).
	Report *runtime.PreflightReport `json:"report"`
	Limits Limits                   `json:"limits"`
	// Endpoints is each endpoint of a service over a pool
	// (WithEndpoints), in the pool's order; absent for a single browser.
	Endpoints []EndpointPreflight `json:"endpoints,omitempty"`
}

// EndpointPreflight is one endpoint of a pool in the preflight answer.
// It carries the endpoint's name, never its address (which may hold a
// credential).
type EndpointPreflight struct {
	Name  string `json:"name"`
	Slots int    `json:"slots"`
	// Busy is how many of its slots runs hold now.
	Busy int `json:"busy"`
	// Available: its last probe passed and the runner has not found it
	// unhealthy or gone since; Error is browser_unavailable when not.
	Available bool   `json:"available"`
	Error     string `json:"error,omitempty"`
	// Gone: the endpoint's browser process exited; it gets no run again.
	Gone bool `json:"gone,omitempty"`
	// Browser is the browser version its last passing probe reported.
	Browser string `json:"browser,omitempty"`
	// CheckedAt is when its last probe ran (zero when it was not probed:
	// gone).
	CheckedAt time.Time `json:"checked_at,omitzero"`
}
