package runtime

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/download"
	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/runtime/grant"
)

// Option configures [Execute].
type Option func(*config)

type config struct {
	driver        Driver
	approver      Approver
	requester     string
	proposal      *RecoveryProposal
	handoff       HandoffFunc
	downloadDir   string
	downloadOpts  []download.Option
	runDir        string
	allowGit      bool
	hooks         *Hooks
	logger        *slog.Logger
	poll          time.Duration
	envLookup     func(string) (string, bool) // secrets.go
	allowedEnv    []string
	allowedEnvSet bool           // WithAllowedEnv was given
	capture       *CapturePolicy // WithCapture (capture.go)
	grant         *grant.Grant   // WithGrant (grant.go)
	// err is the first bad option value; Execute refuses it.
	err error
}

// bad records the first bad option value.
func (c *config) bad(name, format string, args ...any) {
	if c.err == nil {
		c.err = fmt.Errorf("%w: option %s: %s", ErrInvalidArgument, name, fmt.Sprintf(format, args...))
	}
}

// WithDriver sets the driver the run uses. The caller owns the driver:
// Execute never closes it.
func WithDriver(d Driver) Option { return func(c *config) { c.driver = d } }

// WithApprover sets the host's approver, asked at action time before every
// consequential action. Without one, a run stops at the first
// consequential action with nothing clicked.
func WithApprover(a Approver) Option { return func(c *config) { c.approver = a } }

// WithRequester records who requested the run. Approvals by the same
// identity are recorded as self-approved (flagged, not blocked).
func WithRequester(id string) Option { return func(c *config) { c.requester = id } }

// WithRecoveryProposal supplies the host model's single recovery proposal
// for the second pass of a two-pass recovery. Execute validates it before
// touching the driver and refuses it with [ErrInvalidProposal].
func WithRecoveryProposal(p RecoveryProposal) Option {
	return func(c *config) { c.proposal = &p }
}

// WithHandoff lets a person take over the live page when the run is stuck
// (a missing locator, a failed postcondition, no transition) before the run
// fails or requests recovery. See [HandoffFunc].
func WithHandoff(f HandoffFunc) Option { return func(c *config) { c.handoff = f } }

// WithDownloadDirectory selects the folder route for downloads with this
// existing folder (for a redirected Downloads directory). It is local only
// and never enters a receipt. An empty dir is refused.
func WithDownloadDirectory(dir string) Option {
	return func(c *config) {
		if dir == "" {
			c.bad("WithDownloadDirectory", "empty folder")
			return
		}
		c.downloadDir = dir
	}
}

// WithDownloadOptions passes options (settle window, byte limit, poll
// interval) to the download verifier. The runtime always sets the timeout
// (the action timeout) and the logger itself. A bad value is refused by
// Execute before the run (as [download.CheckOptions] reports it), never
// first at the download.
func WithDownloadOptions(opts ...download.Option) Option {
	return func(c *config) {
		if err := download.CheckOptions(opts...); err != nil {
			c.bad("WithDownloadOptions", "%v", errors.Unwrap(err))
			return
		}
		c.downloadOpts = append(c.downloadOpts, opts...)
	}
}

// WithRunDir sets the parent directory of run directories (default
// os.UserCacheDir()/vera/runs). It must be outside a Git work tree unless
// [WithAllowGitWorkTree] is given, must be (or be creatable as) a real,
// writable directory, and is checked before the run: a refusal is
// [ErrRunDir] with no driver call. An empty parent is refused.
func WithRunDir(parent string) Option {
	return func(c *config) {
		if parent == "" {
			c.bad("WithRunDir", "empty folder")
			return
		}
		c.runDir = parent
	}
}

// WithAllowGitWorkTree allows the run directory inside a Git work tree.
func WithAllowGitWorkTree() Option { return func(c *config) { c.allowGit = true } }

// WithHooks sets progress hooks; nil funcs are skipped.
func WithHooks(h *Hooks) Option { return func(c *config) { c.hooks = h } }

// WithLogger sets the logger for local diagnostics (default: discard). Raw
// driver errors are logged at debug level here and nowhere else; input
// values are never logged.
func WithLogger(l *slog.Logger) Option { return func(c *config) { c.logger = l } }

// WithPollInterval sets how often waits re-check their condition (default
// [DefaultPollInterval]), from [MinPollInterval] to [MaxPollInterval]; a
// value outside that range is refused.
func WithPollInterval(d time.Duration) Option {
	return func(c *config) {
		if d < MinPollInterval || d > MaxPollInterval {
			c.bad("WithPollInterval", "%v is outside [%v, %v]", d, MinPollInterval, MaxPollInterval)
			return
		}
		c.poll = d
	}
}

// Approver is the host's action-time confirmation of consequential actions
// (maker/checker). It is called once per consequential action, just before
// the element is resolved and acted on. It may block (a person deciding)
// and must honour ctx.
type Approver interface {
	Approve(ctx context.Context, req ApprovalRequest) (Approval, error)
}

// ApproverFunc adapts a function to [Approver].
type ApproverFunc func(ctx context.Context, req ApprovalRequest) (Approval, error)

// Approve calls f.
func (f ApproverFunc) Approve(ctx context.Context, req ApprovalRequest) (Approval, error) {
	return f(ctx, req)
}

// ApprovalRequest describes the consequential action awaiting approval,
// with the resolved inputs it uses (secrets only as a marker). It stays
// local: the receipt records only the names shown and a hash.
type ApprovalRequest struct {
	RunID         string
	CapabilityID  string
	Version       string
	ExecutionHash string
	Milestone     string
	ActionID      string
	Operation     capability.Operation
	Intent        string
	Effect        capability.Effect
	Confirmation  capability.Confirmation
	// Requester is the identity given with [WithRequester].
	Requester string
	// Inputs are the inputs the action uses, resolved, in order of first
	// use ([capability.Capability.ApprovalInputs]): every input the
	// milestone's actions up to and including this one fill, select or
	// template. Show them to the approver.
	Inputs []ApprovalInput
}

// Approval is the approver's decision. ActionID must name the action of
// the request: an approval naming another action is refused (the run fails
// with approval_refused and nothing is clicked).
type Approval struct {
	ActionID string
	Approved bool
	// Approver identifies who decided; equal to the requester means
	// self-approval, recorded and flagged but not blocked.
	Approver string
}

// HandoffFunc hands the live page to a person when the run is stuck. The
// host shows req, lets the person act in the browser and returns nil when
// they hand control back; the runtime then re-checks once (re-resolves the
// locator, the postcondition or the transitions) with a fresh timeout. A
// non-nil error declines the handoff and the run proceeds to its failure
// or recovery request. Any handoff marks the run handed off and not clean.
type HandoffFunc func(ctx context.Context, req HandoffRequest) error

// Handoff reasons.
const (
	HandoffLocatorNotFound     = "locator_not_found"
	HandoffPostconditionFailed = "postcondition_failed"
	HandoffNoTransition        = "no_transition"
)

// HandoffRequest says where the run is stuck. It holds no input values.
type HandoffRequest struct {
	Milestone string
	// ActionID is empty when the run is stuck on a milestone's transitions.
	ActionID string
	Intent   string
	Reason   string
	// Origin and Path (query- and fragment-free) of the top-level page.
	Origin, Path string
}

// RecoveryProposal is the host model's one proposal for the target of a
// recovery request. Exactly one of Locator and UseResolvedActionRoot is
// set: a semantic locator for an action or field, a CSS locator only for a
// structured extraction field (scoped to the resolved record container),
// or UseResolvedActionRoot for a field that reads the action root itself.
type RecoveryProposal struct {
	Target                RecoveryTarget
	Locator               *locator.Candidate
	UseResolvedActionRoot bool
	// Rationale and Uncertainty are the model's semantic explanation, at
	// most [MaxProposalText] runes each; they go to recovery.proposals.json.
	Rationale   string
	Uncertainty string
	// FailureHash is the first pass's failure hash (from the
	// RecoveryRequest), recorded with the proposal.
	FailureHash string
}
