package tool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/runtime"
)

// Errors of this package, usable with errors.Is.
var (
	// ErrInvalidCapability: the capability cannot be offered as a tool
	// (nil, no id, not executable, invalid for execution).
	ErrInvalidCapability = errors.New("tool: invalid capability")
	// ErrArguments: the call's arguments are not a JSON object, or the
	// runtime refused them (runtime.ErrInputs is wrapped too). The message
	// names inputs and rules, never a value.
	ErrArguments = errors.New("tool: invalid arguments")
	// ErrNoDriver: the tool has no driver source ([WithDriver]).
	ErrNoDriver = errors.New("tool: no driver")
	// ErrDriver: the driver source failed to open a driver.
	ErrDriver = errors.New("tool: driver unavailable")
)

// DefaultMaxConcurrent bounds the concurrent calls of a tool (all tools
// sharing a runner) when no [Runner] is configured.
const DefaultMaxConcurrent = 2

// DriverFunc opens a fresh driver for one call. The tool closes it when
// the call ends.
type DriverFunc func(ctx context.Context) (runtime.Driver, error)

// Runner runs one call's work, for example on a bounded job runner. Run
// must call job at most once, with a context that ends no later than ctx,
// and return its error; it may wait for a slot first and then returns
// ctx's error if ctx ends before one frees up.
type Runner interface {
	Run(ctx context.Context, job func(ctx context.Context) error) error
}

// Semaphore is the default [Runner]: at most n jobs run at once; the
// others wait for a slot or for their context. Share one between tools
// to bound them together.
type Semaphore struct{ slots chan struct{} }

// NewSemaphore returns a Semaphore of n slots (n < 1 means 1).
func NewSemaphore(n int) *Semaphore {
	if n < 1 {
		n = 1
	}
	return &Semaphore{slots: make(chan struct{}, n)}
}

// Run implements [Runner].
func (s *Semaphore) Run(ctx context.Context, job func(ctx context.Context) error) error {
	select {
	case s.slots <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-s.slots }()
	return job(ctx)
}

// Option configures a [Tool].
type Option func(*config)

type config struct {
	driver  DriverFunc
	runner  Runner
	runDir  string
	logger  *slog.Logger
	runtime []runtime.Option
}

// WithDriver sets where each call's driver comes from (required to call).
func WithDriver(f DriverFunc) Option { return func(c *config) { c.driver = f } }

// WithRunner runs calls through r (for example a job runner). Default: a
// [Semaphore] of [DefaultMaxConcurrent] slots per tool.
func WithRunner(r Runner) Option { return func(c *config) { c.runner = r } }

// WithMaxConcurrent is WithRunner(NewSemaphore(n)).
func WithMaxConcurrent(n int) Option { return func(c *config) { c.runner = NewSemaphore(n) } }

// WithRunDir is the parent folder of the run directories (runtime.WithRunDir).
func WithRunDir(dir string) Option { return func(c *config) { c.runDir = dir } }

// WithLogger sets the logger (default: discard). Argument values are never
// logged.
func WithLogger(l *slog.Logger) Option { return func(c *config) { c.logger = l } }

// WithRuntimeOptions adds runtime options to every call (for example
// runtime.WithRequester or runtime.WithDownloadDirectory). Driver, run
// folder, approver and hooks are set by the tool and per call.
func WithRuntimeOptions(opts ...runtime.Option) Option {
	return func(c *config) { c.runtime = append(c.runtime, opts...) }
}

// Tool is one capability offered as an agent tool. It is safe for
// concurrent use.
type Tool struct {
	cap  *capability.Capability
	desc *Description
	hash string
	cfg  config
}

// New makes a tool of c, which must be executable
// ([capability.State.Executable]: authored, discovered or validated_local)
// and valid for execution. c must not be modified afterwards.
func New(c *capability.Capability, opts ...Option) (*Tool, error) {
	d, err := Describe(c)
	if err != nil {
		return nil, err
	}
	if !c.State.Executable() {
		return nil, fmt.Errorf("%w: %s is %s, not executable", ErrInvalidCapability, c.ID, c.State)
	}
	if problems := c.ValidateForExecution(); len(problems) > 0 {
		return nil, fmt.Errorf("%w: %s: %w", ErrInvalidCapability, c.ID, problems)
	}
	h, err := c.ExecutionHash()
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrInvalidCapability, c.ID, err)
	}
	t := &Tool{cap: c, desc: d, hash: h}
	for _, o := range opts {
		if o != nil {
			o(&t.cfg)
		}
	}
	if t.cfg.runner == nil {
		t.cfg.runner = NewSemaphore(DefaultMaxConcurrent)
	}
	if t.cfg.logger == nil {
		t.cfg.logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return t, nil
}

// Description is the tool's description (shared; do not modify).
func (t *Tool) Description() *Description { return t.desc }

// Capability is the capability (shared; do not modify).
func (t *Tool) Capability() *capability.Capability { return t.cap }

// ExecutionHash is the capability's execution hash.
func (t *Tool) ExecutionHash() string { return t.hash }

// CallOption configures one call.
type CallOption func(*callConfig)

type callConfig struct {
	approver runtime.Approver
	hooks    *runtime.Hooks
}

// WithApprover asks a for each consequential action. Without one, a
// consequential action stops the run at its gate ([StatusStoppedAtGate]
// with the [Decision]); nothing is ever approved automatically.
func WithApprover(a runtime.Approver) CallOption { return func(c *callConfig) { c.approver = a } }

// WithHooks observes the call's run (runtime.WithHooks).
func WithHooks(h *runtime.Hooks) CallOption { return func(c *callConfig) { c.hooks = h } }

// Result is a call's structured result: exactly what a model may see. It
// never holds an argument value, an artifact_only output or a local path.
type Result struct {
	// Status is the run's terminal state.
	Status runtime.TerminalState `json:"status"`
	// RunID identifies the run and its evidence.
	RunID        string `json:"run_id"`
	CapabilityID string `json:"capability_id"`
	Version      string `json:"version"`
	// Outputs are the model-visible outputs (runtime Result.ModelOutputs).
	Outputs map[string]any `json:"outputs,omitempty"`
	// Artifacts names the produced artifact_only outputs with their
	// counts; their values stay in the run's outputs.json.
	Artifacts map[string]int `json:"artifacts,omitempty"`
	// Outcome is the business outcome, for status business_outcome.
	Outcome *Outcome `json:"outcome,omitempty"`
	// Decision is the pending decision, for status stopped_at_gate.
	Decision *Decision `json:"decision,omitempty"`
	// Failure is the typed failure (category, reason, detail hash) for
	// status failed and the other stopped states.
	Failure *runtime.Failure `json:"failure,omitempty"`
	// StoppedAt is the action the run stopped at, if any.
	StoppedAt string `json:"stopped_at,omitempty"`
	// NativeGap describes the step handed to the operator.
	NativeGap string `json:"native_gap,omitempty"`
	// Clean, EffectDispatched and Unconfirmed are the runtime's flags: a
	// dispatched or unconfirmed run must not be retried blindly.
	Clean            bool `json:"clean"`
	EffectDispatched bool `json:"effect_dispatched"`
	Unconfirmed      bool `json:"unconfirmed"`
	// ReceiptHash is the sha256 of the run's receipt.
	ReceiptHash string `json:"receipt_hash,omitempty"`
}

// Outcome is a business outcome: a legitimate answer, not a failure.
type Outcome struct {
	Code        string `json:"code"`
	Description string `json:"description,omitempty"`
}

// Decision is the exact decision a stopped gate waits for: which action of
// which capability (by execution hash), what it does, and why it stopped
// (the runtime's reason: no_approver, denied or approver_error).
type Decision struct {
	CapabilityID  string               `json:"capability_id"`
	Version       string               `json:"version"`
	ExecutionHash string               `json:"execution_hash"`
	Milestone     string               `json:"milestone"`
	ActionID      string               `json:"action_id"`
	Operation     capability.Operation `json:"operation"`
	Intent        string               `json:"intent"`
	Effect        capability.Effect    `json:"effect"`
	Reason        string               `json:"reason"`
}

// Call runs the capability with the JSON object args through the runner:
// it opens a driver, runs runtime.Execute and closes the driver. Terminal
// states are data (a nil error); errors are ErrArguments (wrapping
// runtime.ErrInputs when the runtime refused them), ErrNoDriver,
// ErrDriver, the runner's or ctx's error, and Execute's errors.
func (t *Tool) Call(ctx context.Context, args json.RawMessage, opts ...CallOption) (*Result, error) {
	inputs := map[string]any{}
	if len(args) > 0 && string(args) != "null" {
		if err := decodeArgs(args, &inputs); err != nil {
			return nil, err
		}
	}
	return t.CallInputs(ctx, inputs, opts...)
}

// CallInputs is [Tool.Call] with decoded inputs (as for runtime.Execute).
func (t *Tool) CallInputs(ctx context.Context, inputs map[string]any, opts ...CallOption) (*Result, error) {
	if t.cfg.driver == nil {
		return nil, ErrNoDriver
	}
	var cc callConfig
	for _, o := range opts {
		if o != nil {
			o(&cc)
		}
	}
	var out *Result
	err := t.cfg.runner.Run(ctx, func(ctx context.Context) error {
		d, err := t.cfg.driver(ctx)
		if err != nil {
			return fmt.Errorf("%w: %w", ErrDriver, err)
		}
		defer d.Close()
		ropts := append([]runtime.Option{}, t.cfg.runtime...)
		ropts = append(ropts, runtime.WithDriver(d), runtime.WithLogger(t.cfg.logger))
		if t.cfg.runDir != "" {
			ropts = append(ropts, runtime.WithRunDir(t.cfg.runDir))
		}
		if cc.approver != nil {
			ropts = append(ropts, runtime.WithApprover(cc.approver))
		}
		if cc.hooks != nil {
			ropts = append(ropts, runtime.WithHooks(cc.hooks))
		}
		res, err := runtime.Execute(ctx, t.cap, inputs, ropts...)
		if err != nil {
			if errors.Is(err, runtime.ErrInputs) {
				return fmt.Errorf("%w: %w", ErrArguments, err)
			}
			return err
		}
		out = t.result(res)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// decodeArgs decodes a JSON object with numbers kept exact (json.Number
// is accepted by the runtime's coercion).
func decodeArgs(raw json.RawMessage, into *map[string]any) error {
	var probe any
	if err := json.Unmarshal(raw, &probe); err != nil {
		return fmt.Errorf("%w: not JSON", ErrArguments)
	}
	m, ok := probe.(map[string]any)
	if !ok {
		return fmt.Errorf("%w: not a JSON object", ErrArguments)
	}
	*into = m
	return nil
}

// result maps a runtime result to what a model may see.
func (t *Tool) result(r *runtime.Result) *Result {
	out := &Result{
		Status:           r.State,
		RunID:            r.RunID,
		CapabilityID:     t.cap.ID,
		Version:          t.cap.Version,
		Failure:          r.Failure,
		StoppedAt:        r.StoppedAt,
		NativeGap:        r.NativeGap,
		Clean:            r.Clean,
		EffectDispatched: r.EffectDispatched,
		Unconfirmed:      r.Unconfirmed,
		ReceiptHash:      r.ReceiptHash,
	}
	if len(r.ModelOutputs) > 0 {
		out.Outputs = r.ModelOutputs
	}
	if len(r.ArtifactOutputs) > 0 {
		out.Artifacts = r.ArtifactOutputs
	}
	if r.State == runtime.StateBusinessOutcome {
		out.Outcome = &Outcome{Code: r.Outcome}
		for _, o := range t.cap.BusinessOutcomes {
			if o.Code == r.Outcome {
				out.Outcome.Description = o.Description
			}
		}
	}
	if r.State == runtime.StateStoppedAtGate {
		out.Decision = t.decision(r)
	}
	return out
}

func (t *Tool) decision(r *runtime.Result) *Decision {
	d := &Decision{CapabilityID: t.cap.ID, Version: t.cap.Version, ExecutionHash: t.hash, ActionID: r.StoppedAt}
	if r.Failure != nil {
		d.Reason = r.Failure.Reason
	}
	for _, m := range t.cap.Milestones {
		for _, a := range m.Actions {
			if a.ID == r.StoppedAt {
				d.Milestone, d.Operation, d.Intent, d.Effect = m.ID, a.Operation, a.Intent, a.Effect
			}
		}
	}
	return d
}
