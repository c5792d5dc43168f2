package jobs

import (
	"context"
	"errors"
	"time"

	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
)

// State is a job's state: queued → running → passed | failed |
// cancelled, and interrupted for a job a stop or a restart of the
// runner ended.
type State string

// The job states.
const (
	StateQueued      State = "queued"
	StateRunning     State = "running"
	StatePassed      State = "passed"
	StateFailed      State = "failed"
	StateCancelled   State = "cancelled"
	StateInterrupted State = "interrupted"
)

// Terminal reports whether s is final: passed, failed, cancelled or
// interrupted.
func (s State) Terminal() bool {
	switch s {
	case StatePassed, StateFailed, StateCancelled, StateInterrupted:
		return true
	}
	return false
}

// Code is the seed's error taxonomy (browser job contract v1): the one
// machine-readable error of a failed, cancelled or interrupted job, or of
// a refused submission. The set is closed; [Codes] lists it. How Vera's
// terminal states, failure categories and errors map onto it is the
// table in the package documentation.
type Code string

// The error codes.
const (
	CodeBrowserUnavailable  Code = "browser_unavailable"
	CodeBrowserLaunchFailed Code = "browser_launch_failed"
	CodeTargetNotAllowed    Code = "target_not_allowed"
	CodeTargetUnreachable   Code = "target_unreachable"
	CodeUIAssertionFailed   Code = "ui_assertion_failed"
	CodeRunTimeout          Code = "run_timeout"
	CodeBrowserCrashed      Code = "browser_crashed"
	CodeQueueFull           Code = "queue_full"
	CodeArtifactCapacity    Code = "artifact_capacity"
	CodeServiceRestarted    Code = "service_restarted"
	CodeServiceStopped      Code = "service_stopped"
	// CodeCancelled is the code of a job cancelled by [Runner.Cancel] or
	// by its expiry while still queued or running. The seed has no code
	// for it (its cancelled state carries none); Vera names it so every
	// non-passed job has one.
	CodeCancelled Code = "cancelled"
)

// Codes returns every code, in the order above.
func Codes() []Code {
	return []Code{CodeBrowserUnavailable, CodeBrowserLaunchFailed, CodeTargetNotAllowed, CodeTargetUnreachable,
		CodeUIAssertionFailed, CodeRunTimeout, CodeBrowserCrashed, CodeQueueFull, CodeArtifactCapacity,
		CodeServiceRestarted, CodeServiceStopped, CodeCancelled}
}

// Refusals of [Runner.Submit] and errors of the other methods. Each is a
// sentinel for errors.Is; [CodeOf] gives the taxonomy code of the first
// four.
var (
	// ErrQueueFull (queue_full): the queue is at its limit (every slot
	// busy and MaxQueued jobs waiting) or RetainedRuns jobs are retained.
	ErrQueueFull = errors.New("jobs: queue full")
	// ErrArtifactCapacity (artifact_capacity): admitting the job could
	// exceed the retained-artifact admission budget.
	ErrArtifactCapacity = errors.New("jobs: artifact capacity exhausted")
	// ErrStopped (service_stopped): the runner is closed.
	ErrStopped = errors.New("jobs: runner stopped")
	// ErrBrowserUnavailable (browser_unavailable): the runner's
	// Available check failed; the job was not admitted.
	ErrBrowserUnavailable = errors.New("jobs: browser unavailable")
	// ErrInvalidRequest: the submission is refused as such (no
	// capability, a run budget outside 1 ms..MaxRunBudget, more steps
	// than MaxSteps, or a capability or inputs runtime.Execute refuses;
	// the runtime's error is wrapped too).
	ErrInvalidRequest = errors.New("jobs: invalid request")
	// ErrTooLarge: the submission's JSON encoding is larger than
	// [MaxSubmissionBytes]. It wraps ErrInvalidRequest.
	ErrTooLarge = errors.New("jobs: submission too large")
	// ErrNotFound: no job with this id (never accepted, or expired and
	// removed).
	ErrNotFound = errors.New("jobs: no such job")
	// ErrInvalidArgument: a nil ctx, source or runner, or an option value
	// outside its range.
	ErrInvalidArgument = errors.New("jobs: invalid argument")
)

// CodeOf returns the taxonomy code of a refusal ("" for errors that have
// none, such as ErrInvalidRequest).
func CodeOf(err error) Code {
	switch {
	case errors.Is(err, ErrQueueFull):
		return CodeQueueFull
	case errors.Is(err, ErrArtifactCapacity):
		return CodeArtifactCapacity
	case errors.Is(err, ErrStopped):
		return CodeServiceStopped
	case errors.Is(err, ErrBrowserUnavailable):
		return CodeBrowserUnavailable
	}
	return ""
}

// StatusSchema is the schema of a job record.
const StatusSchema = "vera-job/v1"

// Status is a job's record: what Status returns and what the runner
// keeps on disk as job.json. It holds no input value and no capability;
// its Outputs are the run's model outputs (runtime.Result.ModelOutputs),
// the answer a host asked for.
type Status struct {
	Schema string `json:"schema"`
	ID     string `json:"id"`
	Label  string `json:"label,omitempty"`
	State  State  `json:"state"`
	// Code is the error of a job that did not pass, from [Codes].
	Code Code `json:"error,omitempty"`
	// Terminal, Category and Reason are Vera's own account of the run
	// (runtime.Result.State, the failure's category and reason), when a
	// run produced one.
	Terminal receipt.TerminalState `json:"terminal,omitempty"`
	Category receipt.Category      `json:"category,omitempty"`
	Reason   string                `json:"reason,omitempty"`
	// Outcome is the business outcome code of a passed run that ended
	// in a named business outcome.
	Outcome string `json:"outcome,omitempty"`
	// CapabilityID and CapabilityVersion name what ran.
	CapabilityID      string `json:"capability_id"`
	CapabilityVersion string `json:"capability_version"`
	// Mode is the driver's execution mode, once the run started.
	Mode runtime.ExecutionMode `json:"execution_mode,omitempty"`
	// Endpoint names the endpoint the job runs or ran on (WithEndpoints;
	// "default" for a runner over one source), once it started.
	Endpoint string `json:"endpoint,omitempty"`
	// Viewports are the request's viewports and each one's result, in
	// request order (none without viewports).
	Viewports []ViewportRecord `json:"viewports,omitempty"`

	Accepted time.Time  `json:"accepted_at"`
	Started  *time.Time `json:"started_at,omitempty"`
	Finished *time.Time `json:"finished_at,omitempty"`
	Expires  time.Time  `json:"expires_at"`
	// BudgetMS is the run budget in milliseconds.
	BudgetMS int64 `json:"budget_ms"`

	// QueuePosition is the job's position in the queue, from 1, while
	// queued; 0 otherwise.
	QueuePosition int `json:"queue_position,omitempty"`
	// CancelRequested is set once Cancel was called on a running job.
	CancelRequested bool `json:"cancel_requested,omitempty"`
	// TotalSteps is the number of declared actions; CompletedSteps the
	// actions that ran so far; Steps each action's outcome, in order.
	TotalSteps     int          `json:"total_steps"`
	CompletedSteps int          `json:"completed_steps"`
	Steps          []StepRecord `json:"steps,omitempty"`

	// Outputs are the run's model outputs.
	Outputs map[string]any `json:"outputs,omitempty"`
	// RunID and ReceiptHash identify the run's evidence, inside the
	// job's run folder ([Runner.RunDir]).
	RunID       string `json:"run_id,omitempty"`
	ReceiptHash string `json:"receipt_hash,omitempty"`
	// ArtifactBytes is the size of every file the job retains;
	// Artifacts lists them (paths relative to the run folder, sorted).
	ArtifactBytes int64      `json:"artifact_bytes"`
	Artifacts     []Artifact `json:"artifacts,omitempty"`
}

// Artifact is one file a job retains.
type Artifact struct {
	// Name is the file's slash-separated path inside the job's run
	// folder ([Runner.RunDir]), e.g. "run_<hex>/run.receipt.json".
	Name string `json:"name"`
	Size int64  `json:"size"`
}

// StepRecord is one action's outcome in a job record.
type StepRecord struct {
	// Viewport names the viewport the step ran in (none without
	// viewports).
	Viewport  string               `json:"viewport,omitempty"`
	Index     int                  `json:"index"`
	ID        string               `json:"id"`
	Milestone string               `json:"milestone"`
	Status    receipt.ActionStatus `json:"status"`
}

// Hooks report a job's progress, in the style of net/http/httptrace. Any
// field may be nil. Hooks are called from the runner's goroutines, never
// with the runner's lock held (a hook may call Status), and must not
// block for long.
type Hooks struct {
	// StateChange is called after every state change, with the new
	// record (queued at acceptance included).
	StateChange func(Status)
	// QueuePosition is called when a queued job's position changes
	// (and at acceptance), from 1.
	QueuePosition func(id string, position int)
	// Step is called when a running job's action starts (Done false)
	// and ends (Done true).
	Step func(id string, step StepProgress)
	// Viewport is called when one viewport's run of a running job has
	// ended and its result, steps and files are in the record on disk
	// (before the next viewport starts), with that viewport's record.
	Viewport func(id string, v ViewportRecord)
}

// StepProgress is one per-step progress report.
type StepProgress struct {
	// Index counts the job's actions from 1; Total is the number of
	// declared actions (a branch may run fewer, a revisit more).
	Index, Total  int
	ID, Milestone string
	// Viewport names the viewport being run (none without viewports).
	Viewport string
	Done     bool
	// Status is the action's outcome when Done.
	Status receipt.ActionStatus
}

// DriverSource opens a fresh driver for one job; the runner closes it
// when the job ends. browser.(*Browser).Open fits, as does any function
// over the fake driver of runtime/runtimetest. Its error's sentinel
// (runtime.ErrBrowserUnavailable, ErrBrowserLaunchFailed,
// ErrBrowserCrashed) gives the job's code.
type DriverSource func(ctx context.Context) (runtime.Driver, error)
