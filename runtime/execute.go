package runtime

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/download"
	"github.com/vera-run/vera/internal/runwrite"
	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime/grant"
)

// errRunTimeout is the cause of the run context's deadline.
var errRunTimeout = errors.New("run timeout")

// Execute runs the capability with the given inputs through the driver set
// with [WithDriver] and returns the typed [Result].
//
// Before touching the driver it refuses, with a typed error and no
// evidence: a nil ctx or an option given a bad value ([ErrInvalidArgument],
// naming the option), a capability whose state is not executable ([ErrNotExecutable]),
// an invalid capability ([ErrInvalidCapability]; capability.ValidateForExecution
// always runs), an invalid recovery
// proposal ([ErrInvalidProposal]), missing, unknown or mistyped inputs
// ([ErrInputs]), a secret env name outside [WithAllowedEnv]
// ([ErrInvalidCapability]) or a secret that cannot be resolved
// ([ErrSecretUnavailable]), a missing driver ([ErrNoDriver]), a seeded
// capability on a driver that is not a [Seeder] ([ErrSeedUnsupported]),
// a driver another
// Execute is still using ([ErrDriverBusy]) and, last, a run folder
// that cannot take the evidence ([ErrRunDir], wrapping a
// *[receipt.RunDirError] that names the check: location, git_work_tree,
// symlink, not_directory, permission, reserve or writable). The run
// directory is reserved at that point, so the evidence written at the end
// cannot collide; a refusal leaves nothing behind, and the driver (Info
// included), the approver and the hooks are never called.
//
// Once the run starts, every terminal state, failures included, is data in
// the Result and the error is nil, with two exceptions: when the caller's
// ctx ends the run, Execute returns the Result (state failed, category
// canceled) and an error wrapping [ErrCanceled] and ctx.Err(); when the
// evidence still cannot be written at the end (a full disk, the reserved
// directory removed during the run) it returns the Result, with Clean
// false, and an error wrapping [ErrEvidence]. Execute never closes the
// driver and never modifies the capability.
func Execute(ctx context.Context, c *capability.Capability, inputs map[string]any, opts ...Option) (*Result, error) {
	if ctx == nil {
		return nil, fmt.Errorf("%w: nil context", ErrInvalidArgument)
	}
	cfg := config{poll: DefaultPollInterval}
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	if cfg.err != nil {
		return nil, cfg.err
	}
	if cfg.logger == nil {
		cfg.logger = slog.New(slog.DiscardHandler)
	}
	if c == nil {
		return nil, &CapabilityError{Problems: capability.ErrorList{{Code: capability.CodeRequired, Message: "nil capability"}}}
	}
	// Only a reviewed capability has an executable plan: authored,
	// discovered or validated_local. A scaffold has no established
	// controls and a draft's record is unreviewed, whatever the risk.
	if !c.State.Executable() {
		return nil, fmt.Errorf("%w: state %q (need %q, %q or %q)",
			ErrNotExecutable, c.State, capability.StateAuthored, capability.StateDiscovered, capability.StateValidatedLocal)
	}
	if errs := c.ValidateForExecution(); len(errs) > 0 {
		return nil, &CapabilityError{Problems: errs}
	}
	pl, errs := newPlan(c)
	if len(errs) > 0 {
		return nil, &CapabilityError{Problems: errs}
	}
	if cfg.proposal != nil {
		if err := checkProposal(c, cfg.proposal); err != nil {
			return nil, err
		}
	}
	vals, err := checkInputs(c, inputs)
	if err != nil {
		return nil, err
	}
	if cfg.driver == nil {
		return nil, ErrNoDriver
	}
	if _, ok := cfg.driver.(Seeder); !ok && !c.Seed.Empty() {
		return nil, fmt.Errorf("%w: %T", ErrSeedUnsupported, cfg.driver)
	}
	// One run per driver at a time (claim.go): a second concurrent
	// Execute on the same driver is refused here, before any driver call.
	release, err := claimDriver(cfg.driver)
	if err != nil {
		return nil, err
	}
	defer release()
	execHash, err := c.ExecutionHash()
	if err != nil {
		return nil, &CapabilityError{Problems: capability.ErrorList{{Code: codePlan, Message: "execution hash: " + err.Error()}}}
	}
	// The last check before the first driver call: the run folder, with
	// the run directory reserved now so the evidence cannot collide later.
	runID := runwrite.NewRunID()
	runDir, err := reserveRunDir(&cfg, runID)
	if err != nil {
		return nil, err
	}
	// Authorization before the first driver call that acts (grant.go): a
	// live run needs a grant that covers this capability. A refused run
	// leaves nothing: its empty run directory is removed.
	var secretEnv []string
	for _, s := range c.Secrets {
		secretEnv = append(secretEnv, s.Env)
	}
	granted, err := authorizeRun(&cfg, cfg.driver.Info(), execHash, c.Site.AllowedOrigins, secretEnv)
	if err != nil {
		_ = os.Remove(runDir)
		return nil, err
	}
	// A live run's secrets read only the variables its grant names (and,
	// with WithAllowedEnv, only those of them the host also lists).
	if granted != nil {
		cfg.allowedEnv = grantedEnv(granted.Env, cfg.allowedEnv, cfg.allowedEnvSet)
	}
	// Secrets (secrets.go): the allowed env names, then every referenced
	// secret resolved, before any driver call that acts.
	secrets, err := resolveSecrets(c, &cfg, inputs)
	if err != nil {
		_ = os.Remove(runDir)
		return nil, err
	}
	secrets.applyInputs(c, vals)
	if secrets.repl != nil {
		cfg.logger = slog.New(scrubHandler{inner: cfg.logger.Handler(), s: secrets})
	}
	r := &run{
		cfg:       cfg,
		log:       cfg.logger,
		hooks:     cfg.hooks,
		cap:       c,
		plan:      pl,
		frame:     c.Runtime.FrameSelectors,
		drv:       cfg.driver,
		info:      cfg.driver.Info(),
		vals:      vals,
		secrets:   secrets,
		execHash:  execHash,
		grant:     granted,
		runID:     runID,
		runDir:    runDir,
		pollEvery: cfg.poll,
		visits:    map[string]int{},
		outs:      map[string]*outState{},
		origins:   map[string]struct{}{},
	}
	r.actionTimeout = ms(c.Runtime.ActionTimeoutMS, DefaultActionTimeout, MaxActionTimeout)
	r.transitionTimeout = ms(c.Runtime.TransitionTimeoutMS, DefaultTransitionTimeout, MaxTransitionTimeout)
	r.maxActions = c.Runtime.MaxActions
	if r.maxActions <= 0 {
		r.maxActions = DefaultMaxActions
	}
	r.maxActions = min(r.maxActions, MaxActionsCeiling)
	for i := range c.Outputs {
		r.outs[c.Outputs[i].Name] = &outState{decl: &c.Outputs[i]}
	}
	if p := cfg.proposal; p != nil {
		r.proposal = p
		r.proposalOutcome = "failed"
	}
	r.capt = r.newCapture()

	r.started = time.Now()
	rctx, cancel := context.WithTimeoutCause(ctx, ms(c.Runtime.RunTimeoutMS, DefaultRunTimeout, MaxRunTimeout), errRunTimeout)
	defer cancel()
	r.parent, r.ctx = ctx, rctx
	term := r.execute()
	return r.finish(term)
}

// run is the state of one execution.
type run struct {
	cfg      config
	log      *slog.Logger
	hooks    *Hooks
	cap      *capability.Capability
	plan     *plan
	drv      Driver
	info     DriverInfo
	vals     map[string]inputValue
	secrets  *secretSet // resolved secrets and the scrubber (secrets.go)
	execHash string
	grant    *grant.Grant // nil for a simulated run
	runID    string
	runDir   string // reserved before the run, filled by writeEvidence
	proposal *RecoveryProposal
	clock    *phaseClock // the running action's time breakdown, nil between actions
	capt     *captureRec // WithCapture's record, nil without (capture_record.go)
	looks    []look      // the batched looks of the current decision point (batch.go)
	looking  bool

	parent, ctx       context.Context
	pollEvery         time.Duration
	actionTimeout     time.Duration
	transitionTimeout time.Duration
	maxActions        int

	started         time.Time
	ordinal         int
	visits          map[string]int
	outs            map[string]*outState
	actions         []ActionOutcome
	records         []receipt.ActionRecord
	milestones      []receipt.MilestoneRecord
	origins         map[string]struct{}
	blocked         int
	dispatched      bool // a consequential action's input was sent
	handedOff       bool
	proposalOutcome string
	recovered       bool

	// pos is where the run is, for the known-dialog rule.
	pos position
	// frame is the running milestone's frame path (framepath.go).
	frame []string
	// lastScope is the document of the last resolved action element.
	lastScope Scope
	// gen counts possible page changes; scopeCache is valid for one gen.
	gen        uint64
	scopeCache scopeCache
	// acted holds the ids of the actions whose operation ran (see
	// scope.go: detect after_action).
	acted map[string]bool
	// sets accumulates the declared sets of list extractions over their
	// visits; pending holds, per action, a set still seen only in part
	// (setsize.go).
	sets    map[setKey]*setAcc
	pending map[string]incomplete
}

// position is the milestone and the first action whose locators count as
// known for the dialog rule; post also counts the postcondition of the
// action before from.
type position struct {
	m    *capability.Milestone
	from int
}

// outState accumulates one output.
type outState struct {
	decl     *capability.Output
	produced bool
	text     string
	record   map[string]any
	records  []any
	seen     map[string]bool
	files    []download.File
}

// stop is a terminal state reached inside the run.
type stop struct {
	state     TerminalState
	outcome   string
	failure   *Failure
	action    string
	nativeGap string
	recovery  *RecoveryRequest
	// cause is the local explanation (never evidence); see cause.go.
	cause *Cause
}

// failure builds a sanitized failure ([newFailure]); the raw detail is
// logged at debug level and only its hash leaves this function.
func (r *run) failure(cat Category, reason Reason, detail string) *Failure {
	detail = r.secrets.scrub(detail)
	f := newFailure(cat, reason, detail)
	r.log.Debug("vera run failure", "run", r.runID, "category", string(cat), "reason", f.Reason, "detail", detail)
	return f
}

func (r *run) failed(cat Category, reason Reason, detail string) *stop {
	return &stop{state: receipt.TerminalFailed, failure: r.failure(cat, reason, detail)}
}

// interrupted returns the stop for a run whose context ended: canceled by
// the caller, or the run timeout. It is nil while the run may continue.
func (r *run) interrupted() *stop {
	if err := r.parent.Err(); err != nil {
		return r.failed(receipt.CategoryCanceled, ReasonCanceled, "caller context: "+err.Error())
	}
	if r.ctx.Err() != nil {
		return r.failed(receipt.CategoryRunTimeout, ReasonRunTimeout, "run timeout reached")
	}
	return nil
}

// classify maps a driver (or download) error to a terminal stop; cat and
// reason are used when no sentinel applies.
func (r *run) classify(err error, cat Category, reason Reason) *stop {
	if st := r.interrupted(); st != nil {
		return st
	}
	detail := err.Error()
	var derr *download.Error
	switch {
	case errors.Is(err, ErrNativeDialog):
		st := r.failed(receipt.CategoryUIAssertionFailed, ReasonNativeDialog, detail)
		st.state = receipt.TerminalBlockedByUnknownModal
		return st
	case errors.Is(err, ErrOriginBlocked):
		return r.failed(receipt.CategoryOriginNotAllowed, ReasonNavigationBlocked, detail)
	case errors.Is(err, ErrTargetUnreachable):
		return r.failed(receipt.CategoryTargetUnreachable, ReasonTargetUnreachable, detail)
	case errors.Is(err, ErrBrowserCrashed), errors.Is(err, ErrClosed):
		return r.failed(receipt.CategoryBrowserCrashed, ReasonBrowserCrashed, detail)
	case errors.Is(err, ErrBrowserUnavailable):
		return r.failed(receipt.CategoryBrowserUnavailable, ReasonBrowserUnavailable, detail)
	case errors.Is(err, ErrBrowserLaunchFailed):
		return r.failed(receipt.CategoryBrowserLaunchFailed, ReasonBrowserLaunchFailed, detail)
	case errors.Is(err, ErrFrameNotFound):
		return r.failed(receipt.CategoryFrameNotAllowed, ReasonFrameNotFound, detail)
	case errors.Is(err, ErrFrameAmbiguous):
		return r.failed(receipt.CategoryFrameNotAllowed, ReasonFrameAmbiguous, detail)
	case errors.Is(err, ErrNotInteractable):
		return r.failed(receipt.CategoryUIAssertionFailed, ReasonNotInteractable, detail)
	case errors.Is(err, ErrStaleElement):
		return r.failed(receipt.CategoryUIAssertionFailed, ReasonStaleElement, detail)
	case errors.Is(err, ErrDownloadEventMissing):
		return r.failed(receipt.CategoryDownloadFailed, downloadReason(download.ReasonEventMissing), detail)
	case errors.As(err, &derr):
		return r.failed(receipt.CategoryDownloadFailed, downloadReason(derr.Reason), derr.Detail())
	case errors.Is(err, ErrUnsupported):
		return r.failed(receipt.CategoryInternal, ReasonUnsupported, detail)
	case errors.Is(err, ErrActPending):
		// The act's outcome was not known within the action timeout.
		return r.failed(receipt.CategoryUIAssertionFailed, ReasonPostconditionFailed, detail)
	case errors.Is(err, ErrFillRefused):
		// The element was acted on; the page did not take the value.
		return r.failed(receipt.CategoryUIAssertionFailed, ReasonActFailed, detail)
	}
	return r.failed(cat, reason, detail)
}

// execute runs the start navigation and the milestones; nil means the run
// reached "completed".
func (r *run) execute() *stop {
	if err := r.drv.RestrictOrigins(r.ctx, OriginScope{Allowed: r.plan.allowed, Subresources: r.plan.subres}); err != nil {
		return r.classify(err, receipt.CategoryInternal, ReasonRestrictOriginsFailed)
	}
	if st := r.seed(); st != nil {
		return st
	}
	r.captureStart()
	start, err := resolveURL(r.cap.Runtime.Start, r.cap.Runtime.StartQuery, r.plan.allowed, r.vals)
	if err != nil {
		return r.failed(receipt.CategoryTargetNotAllowed, ReasonStartNotAllowed, err.Error())
	}
	nctx, cancel := context.WithTimeout(r.ctx, r.actionTimeout)
	err = r.drv.Navigate(nctx, start)
	cancel()
	r.touch()
	if err != nil {
		if errors.Is(err, ErrOriginBlocked) {
			r.countBlocked()
		}
		return r.classify(err, receipt.CategoryTargetUnreachable, ReasonStartNavigationFailed)
	}
	if st := r.afterNavigation(settleTimeout); st != nil {
		return st
	}
	r.captureInitial()
	return r.milestoneLoop()
}

// countBlocked drains the violations behind a navigation that failed
// with ErrOriginBlocked (a redirect the browser blocked, a target the
// driver refused) so the evidence counts the blocked requests; the run
// ends on the navigation's own error.
func (r *run) countBlocked() {
	if vs, err := r.drv.Violations(r.ctx); err == nil {
		r.blocked += len(vs)
	}
}

func (r *run) milestoneLoop() *stop {
	mi := 0
	for {
		m := &r.cap.Milestones[mi]
		r.visits[m.ID]++
		visit := r.visits[m.ID]
		maxVisits := max(m.MaxVisits, 1)
		if visit > maxVisits {
			return r.failed(receipt.CategoryLimitExceeded, ReasonMaxVisitsExceeded,
				fmt.Sprintf("milestone %s visited more than %d times", m.ID, maxVisits))
		}
		mstart := time.Now()
		r.enterMilestone(m)
		r.hooks.milestoneStart(MilestoneStartInfo{ID: m.ID, Visit: visit})
		next, st := r.runMilestone(m, mi, visit)
		status := "completed"
		if st != nil {
			status = "stopped"
			if st.state == receipt.TerminalFailed {
				status = "failed"
			}
			next = ""
		}
		r.milestones = append(r.milestones, receipt.MilestoneRecord{ID: m.ID, Visit: visit, Status: status, Next: next})
		r.hooks.milestoneDone(MilestoneDoneInfo{ID: m.ID, Visit: visit, Status: status, Next: next, Duration: time.Since(mstart)})
		if st != nil {
			return st
		}
		if next == capability.TerminalCompleted {
			return nil
		}
		_, mi, _ = r.cap.Milestone(next)
	}
}

// runMilestone runs the actions of one visit and picks the next target.
func (r *run) runMilestone(m *capability.Milestone, mi, visit int) (string, *stop) {
	for ai := range m.Actions {
		if st := r.runAction(m, ai, visit); st != nil {
			return "", st
		}
	}
	if len(m.Transitions) == 0 {
		if mi+1 < len(r.cap.Milestones) {
			return r.cap.Milestones[mi+1].ID, nil
		}
		return capability.TerminalCompleted, nil
	}
	next, st := r.chooseTransition(m)
	if st != nil {
		return "", st
	}
	if st := r.checkOutcomesNow(); st != nil {
		return "", st
	}
	return next, nil
}

// chooseTransition waits up to the transition timeout for the first
// transition, in order, whose condition holds.
func (r *run) chooseTransition(m *capability.Milestone) (string, *stop) {
	r.pos = position{m: m, from: len(m.Actions)}
	var chosen string
	check := func(ctx context.Context) (bool, *stop) {
		for i := range m.Transitions {
			ok, st := r.holds(ctx, &m.Transitions[i].When, nil)
			if st != nil {
				return false, st
			}
			if ok {
				chosen = m.Transitions[i].To
				return true, nil
			}
		}
		return false, r.onMiss(ctx)
	}
	ok, st := r.waitFor(WaitTransition, m.ID, "", r.transitionTimeout, check)
	if st != nil {
		return "", st
	}
	if !ok {
		back, hst := r.offerHandoff(m, nil, HandoffNoTransition)
		if hst != nil {
			return "", hst
		}
		if back {
			ok, st = r.waitFor(WaitTransition, m.ID, "", r.transitionTimeout, check)
			if st != nil {
				return "", st
			}
		}
	}
	if !ok {
		return "", r.failed(receipt.CategoryUIAssertionFailed, ReasonNoTransition,
			fmt.Sprintf("milestone %s: no transition held within %s", m.ID, r.transitionTimeout))
	}
	return chosen, nil
}

// waitFor polls check, bounded by timeout, reporting the wait to hooks. It
// returns ok when check succeeded, or the stop check or an interruption
// produced; (false, nil) means the timeout passed.
func (r *run) waitFor(kind WaitKind, milestone, action string, timeout time.Duration, check func(context.Context) (bool, *stop)) (bool, *stop) {
	ctx, cancel := context.WithTimeout(r.ctx, timeout)
	defer cancel()
	r.hooks.waitStart(WaitStartInfo{Kind: kind, Milestone: milestone, ActionID: action, Timeout: timeout})
	start := time.Now()
	ok, st := r.poll(ctx, check)
	r.hooks.waitDone(WaitDoneInfo{Kind: kind, Milestone: milestone, ActionID: action, Satisfied: ok, Elapsed: time.Since(start)})
	return ok, st
}

// poll calls check now and then every poll interval until it succeeds,
// returns a stop, or ctx ends. A stop produced while ctx was ending is
// replaced by the interruption (or by a plain timeout when only ctx's own
// deadline passed).
func (r *run) poll(ctx context.Context, check func(context.Context) (bool, *stop)) (bool, *stop) {
	var timer *time.Timer
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	for {
		r.touch()
		checked := time.Now()
		ok, st := check(ctx)
		if st == nil {
			// Every poll is a decision point: a blocked navigation or
			// popup ends the wait, whatever the check saw.
			st = r.drain(ctx)
		}
		if st != nil {
			if ctx.Err() != nil {
				if ist := r.interrupted(); ist != nil {
					return false, ist
				}
				return false, nil
			}
			return false, st
		}
		if ok {
			return true, nil
		}
		if r.pause(ctx, &timer, checked) {
			if ist := r.interrupted(); ist != nil {
				return false, ist
			}
			return false, nil
		}
	}
}

// offerHandoff hands the page to a person when a handoff func is set. It
// reports whether they handed it back (the caller then re-checks once).
// What happened meanwhile is evidence like any act: after the handoff the
// causal barrier runs and the blocked requests are drained, so a person
// who followed a link out of the scope ends the run as that violation;
// a run timeout (or cancellation) during the handoff ends it as such.
func (r *run) offerHandoff(m *capability.Milestone, a *capability.Action, reason string) (bool, *stop) {
	if r.cfg.handoff == nil || r.interrupted() != nil {
		return false, nil
	}
	r.handedOff = true
	req := HandoffRequest{Milestone: m.ID, Reason: reason}
	if a != nil {
		req.ActionID, req.Intent = a.ID, a.Intent
	} else {
		req.Intent = m.Intent
	}
	req.Origin, req.Path = r.where()
	err := r.cfg.handoff(r.ctx, req)
	r.touch()
	if st := r.interrupted(); st != nil {
		return false, st
	}
	sst := r.settle(r.ctx, settleTimeout)
	if st := r.drain(r.ctx); st != nil {
		return false, st
	}
	if err != nil {
		r.log.Debug("vera handoff declined", "run", r.runID, "milestone", m.ID, "detail", err.Error())
		return false, nil
	}
	if sst != nil {
		return false, sst
	}
	return true, nil
}

// where returns the top-level page's origin and query- and fragment-free
// path, or empty strings when unknown.
func (r *run) where() (origin, path string) {
	raw, err := r.drv.URL(r.ctx)
	if err != nil {
		return "", ""
	}
	u, err := parseAbs(raw)
	if err != nil {
		return "", ""
	}
	return originOf(u), r.secrets.scrub(u.EscapedPath())
}

// finish turns the terminal stop into the Result and writes the evidence.
func (r *run) finish(term *stop) (*Result, error) {
	term = r.finalBarrier(term)
	if term == nil {
		term = r.checkRequiredOutputs()
	}
	if term == nil {
		term = r.checkIncomplete()
	}
	if term == nil {
		term = &stop{state: receipt.TerminalCompleted}
	}
	finished := time.Now()
	res := &Result{
		RunID:                   r.runID,
		State:                   term.state,
		Outcome:                 term.outcome,
		Failure:                 term.failure,
		Cause:                   term.cause,
		StoppedAt:               term.action,
		NativeGap:               term.nativeGap,
		Actions:                 r.actions,
		Milestones:              r.milestones,
		RecoveryRequest:         term.recovery,
		Recovered:               r.recovered,
		LocatorChangesDuringRun: r.proposal != nil,
		HandedOff:               r.handedOff,
		Origins:                 r.sortedOrigins(),
		BlockedRequests:         r.blocked,
		Mode:                    r.info.Mode,
		Started:                 r.started,
		Finished:                finished,
	}
	if r.proposal != nil {
		res.ProposalOutcome = r.proposalOutcome
	}
	res.Clean = term.state == receipt.TerminalCompleted && r.proposal == nil && !r.handedOff && r.blocked == 0
	res.EffectDispatched = r.dispatched
	res.Unconfirmed = term.failure != nil && term.failure.Category == receipt.CategoryEffectUnconfirmed
	res.ModelOutputs, res.ArtifactOutputs = r.exposedOutputs()
	var runErr error
	if term.failure != nil && term.failure.Category == receipt.CategoryCanceled {
		runErr = fmt.Errorf("%w: %w", ErrCanceled, r.parent.Err())
	}
	dir, hash, err := r.writeEvidence(res, term)
	res.RunDir, res.ReceiptHash = dir, hash
	if err != nil {
		// Without evidence the run cannot count: never clean.
		res.Clean = false
		return res, errors.Join(runErr, fmt.Errorf("%w: %w", ErrEvidence, err))
	}
	return res, runErr
}

// checkRequiredOutputs fails a completed run that did not produce a
// required non-collection output.
func (r *run) checkRequiredOutputs() *stop {
	for i := range r.cap.Outputs {
		o := &r.cap.Outputs[i]
		if o.Required && !o.Kind.Collection() && !r.outs[o.Name].produced {
			return r.failed(receipt.CategoryExtractionFailed, ReasonRequiredOutputMissing, "output "+o.Name+" was not produced")
		}
	}
	return nil
}

// candidateAttempts converts resolution attempts for records.
func candidateAttempts(t []locator.Attempt) []locator.Attempt {
	if len(t) == 0 {
		return nil
	}
	return append([]locator.Attempt(nil), t...)
}
