package runtime

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/canonjson"
	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/receipt"
)

// actState is what one action produced, for its postcondition.
type actState struct {
	a          *capability.Action
	downloaded bool
	done       bool // the action's effect happened (acted, read or navigated)
	// dispatched: the act's input (click, key press) was sent to the
	// page, whatever came after.
	dispatched bool
}

// runAction executes one action with its checks and records its outcome.
func (r *run) runAction(m *capability.Milestone, ai, visit int) *stop {
	a := &m.Actions[ai]
	if r.ordinal >= r.maxActions {
		st := r.failed(receipt.CategoryLimitExceeded, ReasonMaxActionsExceeded, fmt.Sprintf("more than %d actions", r.maxActions))
		st.action = a.ID
		return st
	}
	r.ordinal++
	out := ActionOutcome{ID: a.ID, Milestone: m.ID, Visit: visit, Operation: string(a.Operation), Effect: string(a.Effect), LocatorIndex: -1}
	start := time.Now()
	r.hooks.actionStart(ActionStartInfo{ID: a.ID, Milestone: m.ID, Visit: visit, Operation: out.Operation, Effect: out.Effect, Ordinal: r.ordinal})
	as := &actState{a: a}
	r.clock = newPhaseClock()
	st := r.doAction(m, ai, as, &out)
	if as.dispatched && a.Effect == capability.EffectConsequential {
		out.Dispatched = true
		r.dispatched = true
		st = r.unconfirmed(st)
	}

	targeted := r.proposal != nil && r.proposal.Target.ActionID == a.ID
	switch {
	case st == nil:
		out.Status = receipt.ActionPassed
		if targeted {
			out.Recovered = true
			r.recovered = true
			r.proposalOutcome = "recovered"
		}
	default:
		st.action = a.ID
		switch st.state {
		case receipt.TerminalStoppedAtGate:
			out.Status = receipt.ActionStoppedAtGate
		case receipt.TerminalNativeGap:
			out.Status = receipt.ActionNativeGap
		case receipt.TerminalBlockedByUnknownModal:
			out.Status = receipt.ActionBlocked
		case receipt.TerminalBusinessOutcome:
			out.Status = receipt.ActionBlocked
			if as.done {
				out.Status = receipt.ActionPassed
			}
		default:
			out.Status = receipt.ActionFailed
			out.Failure = st.failure
			out.Cause = st.cause
			if a.Operation == capability.OpExtract {
				r.unsetOutput(a.Output)
			}
		}
	}
	timing := r.clock.stop()
	r.clock = nil
	out.Duration = time.Since(start)
	r.actions = append(r.actions, out)
	r.records = append(r.records, r.actionRecord(&out))
	r.captureAction(m, &out)
	r.hooks.actionDone(ActionDoneInfo{Outcome: out, Timing: timing})
	return st
}

// unconfirmed turns the failure of a consequential action whose input
// was dispatched into outcome_unconfirmed_after_effect (terminal failed,
// category effect_unconfirmed): its effect may have happened, so the run
// must not read as an ordinary failure, a gate or a modal block. An
// origin violation, a frame origin outside the scope and a caller
// cancellation keep their own failure; a business outcome and success
// stay what they are.
func (r *run) unconfirmed(st *stop) *stop {
	if st == nil {
		return nil
	}
	switch st.state {
	case receipt.TerminalFailed, receipt.TerminalBlockedByUnknownModal, receipt.TerminalRecoveryRequested:
	default:
		return st
	}
	if f := st.failure; f != nil {
		switch {
		case f.Category == receipt.CategoryOriginNotAllowed, f.Category == receipt.CategoryCanceled,
			f.Category == receipt.CategoryEffectUnconfirmed, f.Reason == string(ReasonFrameOriginNotAllowed):
			return st
		}
	}
	cause := "unknown"
	if st.failure != nil {
		cause = string(st.failure.Category) + "/" + st.failure.Reason
	}
	ust := r.failed(receipt.CategoryEffectUnconfirmed, ReasonOutcomeUnconfirmed,
		"the action's input was dispatched, then the run ended with "+cause)
	ust.cause = st.cause
	return ust
}

// dispatches reports whether an act kind sends input an effect can
// follow: a click, a key press, a check or uncheck (a click).
func dispatches(k ActKind) bool {
	switch k {
	case ActClick, ActPress, ActCheck, ActUncheck:
		return true
	}
	return false
}

// timeoutFor is the action's bound for each of its waits.
func (r *run) timeoutFor(a *capability.Action) time.Duration {
	if a.TimeoutMS > 0 {
		return ms(a.TimeoutMS, r.actionTimeout, MaxActionTimeout)
	}
	return r.actionTimeout
}

func (r *run) doAction(m *capability.Milestone, ai int, as *actState, out *ActionOutcome) *stop {
	a := as.a
	if a.Operation == capability.OpNative {
		return &stop{state: receipt.TerminalNativeGap, nativeGap: a.NativeGap}
	}
	timeout := r.timeoutFor(a)
	// Before acting: the frame path and unknown modals.
	r.pos = position{m: m, from: ai}
	if st := r.checkModals(r.ctx); st != nil {
		return st
	}
	if a.Effect == capability.EffectConsequential {
		if st := r.gate(m, a, out); st != nil {
			return st
		}
	}
	switch a.Operation {
	case capability.OpNavigate:
		u, err := resolveURL(a.URL, a.Query, r.plan.allowed, r.vals)
		if err != nil {
			return r.failed(receipt.CategoryTargetNotAllowed, ReasonNavigateNotAllowed, err.Error())
		}
		ctx, cancel := context.WithTimeout(r.ctx, timeout)
		done := r.clock.enter(phaseAct)
		err = r.drv.Navigate(ctx, u)
		done()
		cancel()
		r.touch()
		if err != nil {
			return r.classify(err, receipt.CategoryTargetUnreachable, ReasonNavigationFailed)
		}
		as.done = true
	case capability.OpWait:
		as.done = true
	case capability.OpExtract:
		done := r.clock.enter(phaseAct)
		st := r.extract(m, a, timeout, out)
		done()
		if st != nil {
			return st
		}
		as.done = true
	case capability.OpDownload:
		done := r.clock.enter(phaseAct)
		st := r.download(m, a, timeout, as, out)
		done()
		if st != nil {
			return st
		}
		as.done = true
	default:
		if st := r.interact(m, a, timeout, as, out); st != nil {
			return st
		}
		as.done = true
	}
	r.markActed(a.ID)
	// After acting: origins, frames, postcondition, modals, outcomes.
	if st := r.afterNavigation(timeout); st != nil {
		return st
	}
	if st := r.checkFrameAfter(); st != nil {
		return st
	}
	r.pos = position{m: m, from: ai + 1}
	if a.Postcondition != nil {
		check := func(ctx context.Context) (bool, *stop) {
			ok, st := r.holds(ctx, a.Postcondition, as)
			if st != nil || ok {
				return ok, st
			}
			return false, r.onMiss(ctx)
		}
		donePost := r.clock.enter(phasePostcondition)
		ok, st := r.waitFor(WaitPostcondition, m.ID, a.ID, timeout, check)
		donePost()
		if st != nil {
			return st
		}
		if !ok {
			back, hst := r.offerHandoff(m, a, HandoffPostconditionFailed)
			if hst != nil {
				return hst
			}
			if back {
				donePost := r.clock.enter(phasePostcondition)
				ok, st = r.waitFor(WaitPostcondition, m.ID, a.ID, timeout, check)
				donePost()
				if st != nil {
					return st
				}
			}
		}
		if !ok {
			out.Postcondition = "failed"
			if st := r.checkOutcomesNow(); st != nil {
				return st
			}
			return r.failed(receipt.CategoryUIAssertionFailed, ReasonPostconditionFailed,
				fmt.Sprintf("action %s: postcondition %s not met within %s", a.ID, a.Postcondition.Kind, timeout))
		}
		out.Postcondition = "verified"
	}
	r.lookAt(r.ctx, true, true)
	defer r.endLook()
	if st := r.checkModals(r.ctx); st != nil {
		return st
	}
	return r.checkOutcomesNow()
}

// gate asks the host's approver for an action-time confirmation.
func (r *run) gate(m *capability.Milestone, a *capability.Action, out *ActionOutcome) *stop {
	gated := func(reason Reason, detail string) *stop {
		return &stop{state: receipt.TerminalStoppedAtGate, failure: r.failure(receipt.CategoryApprovalRefused, reason, detail)}
	}
	if r.cfg.approver == nil {
		return gated(ReasonNoApprover, "no approver for consequential action "+a.ID)
	}
	defer r.clock.enter(phaseApproval)()
	req := ApprovalRequest{
		RunID: r.runID, CapabilityID: r.cap.ID, Version: r.cap.Version, ExecutionHash: r.execHash,
		Milestone: m.ID, ActionID: a.ID, Operation: a.Operation, Intent: a.Intent,
		Effect: a.Effect, Confirmation: a.Confirmation, Requester: r.cfg.requester,
	}
	shown, hashed, err := r.approvalInputs(m, a)
	if err != nil {
		return r.failed(receipt.CategoryInternal, ReasonContractHashFailed, "approval inputs: "+err.Error())
	}
	shownHash, err := receipt.ApprovalShownHash(r.execHash, a.ID, hashed)
	if err != nil {
		return r.failed(receipt.CategoryInternal, ReasonContractHashFailed, "approval inputs: "+err.Error())
	}
	req.Inputs = shown
	ap, err := r.cfg.approver.Approve(r.ctx, req)
	r.touch()
	if err != nil {
		if st := r.interrupted(); st != nil {
			return st
		}
		return gated(ReasonApproverError, "approver: "+err.Error())
	}
	if ap.ActionID != a.ID {
		return r.failed(receipt.CategoryApprovalRefused, ReasonApprovalMismatch, "approval names another action than "+a.ID)
	}
	out.Approval = &receipt.ApprovalProof{
		Approved:     ap.Approved,
		Requester:    r.cfg.requester,
		Approver:     ap.Approver,
		SelfApproved: ap.Approver != "" && ap.Approver == r.cfg.requester,
		ShownHash:    shownHash,
	}
	for _, in := range shown {
		out.Approval.ShownInputs = append(out.Approval.ShownInputs, in.Name)
	}
	if !ap.Approved {
		return gated(ReasonDenied, "approver denied action "+a.ID)
	}
	return nil
}

// interact resolves the action's element and performs the mechanical act,
// each bounded by the action timeout. An element that went stale before
// the act is re-resolved and retried until one action timeout has passed
// since the first try. An act whose input was dispatched
// ([ErrAfterDispatch]) is never retried: its effect may have happened.
// When such an act then reports the element or its document stale, the
// page changed under the input it had just received (a submit that
// navigated), which is the act's effect, not a failure.
func (r *run) interact(m *capability.Milestone, a *capability.Action, timeout time.Duration, as *actState, out *ActionOutcome) *stop {
	act := r.actFor(a)
	retryUntil := time.Now().Add(timeout)
	for {
		el, st := r.locateAction(m, a, timeout, out)
		if st != nil {
			return st
		}
		ctx, cancel := context.WithTimeout(r.ctx, timeout)
		done := r.clock.enter(phaseAct)
		err := r.drv.Act(ctx, el, act)
		done()
		cancel()
		r.touch()
		if err == nil {
			as.dispatched = as.dispatched || dispatches(act.Kind)
			return nil
		}
		if errors.Is(err, ErrAfterDispatch) {
			as.dispatched = true
			if errors.Is(err, ErrStaleElement) && r.interrupted() == nil {
				return nil
			}
			return r.withCause(r.classify(err, receipt.CategoryUIAssertionFailed, ReasonActFailed), r.actCause(a, out, err))
		}
		if errors.Is(err, ErrStaleElement) && time.Now().Before(retryUntil) && r.interrupted() == nil {
			continue
		}
		return r.withCause(r.classify(err, receipt.CategoryUIAssertionFailed, ReasonActFailed), r.actCause(a, out, err))
	}
}

// actFor builds the mechanical act of an interactive action.
func (r *run) actFor(a *capability.Action) Act {
	value := func() string {
		if a.Input != "" {
			return r.vals[a.Input].text
		}
		return substitute(a.Value, r.vals, nil)
	}
	switch a.Operation {
	case capability.OpFill:
		return Act{Kind: ActFill, Value: value()}
	case capability.OpSelect:
		return Act{Kind: ActSelect, Value: value()}
	case capability.OpPress:
		return Act{Kind: ActPress, Value: a.Key}
	case capability.OpCheck:
		if a.Input != "" {
			if b, ok := r.vals[a.Input].typed.(bool); ok && !b {
				return Act{Kind: ActUncheck}
			}
		}
		return Act{Kind: ActCheck}
	case capability.OpUncheck:
		return Act{Kind: ActUncheck}
	}
	return Act{Kind: ActClick}
}

// actionCands returns the locator the action runs with: the capability's,
// or the recovery proposal's single candidate for its target.
func (r *run) actionCands(a *capability.Action) []locator.Candidate {
	if p := r.proposal; p != nil && p.Target.ActionID == a.ID && p.Target.Field == "" {
		return []locator.Candidate{*p.Locator}
	}
	return a.LocatorCandidates
}

// fieldCands returns a field's locator, with the proposal applied.
func (r *run) fieldCands(a *capability.Action, f *capability.Field) []locator.Candidate {
	if p := r.proposal; p != nil && p.Target.ActionID == a.ID && p.Target.Field == f.Name {
		if p.UseResolvedActionRoot {
			return nil
		}
		return []locator.Candidate{*p.Locator}
	}
	return f.LocatorCandidates
}

// locateAction waits for the action's locator to resolve uniquely. When it
// does not, it offers a handoff, then fails or requests recovery.
func (r *run) locateAction(m *capability.Milestone, a *capability.Action, timeout time.Duration, out *ActionOutcome) (Element, *stop) {
	cands := r.actionCands(a)
	found, res, lastErr, st := r.locate(m, a, cands, timeout)
	if st == nil && !found {
		back, hst := r.offerHandoff(m, a, HandoffLocatorNotFound)
		if hst != nil {
			st = hst
		} else if back {
			found, res, lastErr, st = r.locate(m, a, cands, timeout)
		}
	}
	out.Tried = candidateAttempts(res.Tried)
	if st != nil {
		return nil, st
	}
	if found {
		out.LocatorIndex = res.Index
		out.LocatorMatches = winnerMatches(res.Tried, res.Index, 1)
		return res.Element, nil
	}
	return nil, r.missingLocator(m, a, "", res.Tried, lastErr)
}

// locate polls until the candidates resolve uniquely in the selected
// frame (found), the timeout passes (not found, nil stop) or the run stops.
func (r *run) locate(m *capability.Milestone, a *capability.Action, cands []locator.Candidate, timeout time.Duration) (bool, locator.Resolution[Element], error, *stop) {
	defer r.clock.enter(phaseResolve)()
	var (
		res     locator.Resolution[Element]
		lastErr error
		found   bool
	)
	ok, st := r.waitFor(WaitLocator, m.ID, a.ID, timeout, func(ctx context.Context) (bool, *stop) {
		scope, ferr, st := r.frameScope(ctx)
		if st != nil {
			return false, st
		}
		if ferr != nil {
			lastErr = ferr
			return false, r.onMiss(ctx)
		}
		rr, err := locator.Resolve(ctx, r.finder(scope, nil), cands)
		if err != nil && ctx.Err() != nil {
			// The wait ended during this try: its answer is unknown, so
			// the last complete try stays the one reported.
			return false, nil
		}
		res = rr
		if err == nil {
			found = true
			r.lastScope = scope
			return true, nil
		}
		if errors.Is(err, locator.ErrNotFound) || errors.Is(err, ErrStaleElement) {
			lastErr = err
			return false, r.onMiss(ctx)
		}
		return false, r.classify(err, receipt.CategoryLocatorNotFound, ReasonLocatorError)
	})
	if st != nil {
		return false, res, lastErr, st
	}
	if !ok || !found {
		return false, res, lastErr, nil
	}
	return true, res, nil, nil
}

// missingLocator ends the run for a locator that never resolved uniquely:
// a frame problem fails with frame_not_allowed; a read-only or reversible
// action (or extraction field) requests recovery in a run without a
// proposal; everything else fails with locator_not_found.
func (r *run) missingLocator(m *capability.Milestone, a *capability.Action, field string, tried []locator.Attempt, lastErr error) *stop {
	switch {
	case errors.Is(lastErr, ErrFrameNotFound), errors.Is(lastErr, ErrFrameAmbiguous):
		return r.withCause(r.classify(lastErr, receipt.CategoryFrameNotAllowed, ReasonFrameNotFound), r.missCause(a, field, tried, lastErr))
	}
	reason := ReasonLocatorNotFound
	for _, t := range tried {
		if t.Reason == locator.ReasonAmbiguous {
			reason = ReasonLocatorAmbiguous
		}
	}
	target := "action " + a.ID
	if field != "" {
		target += " field " + field
	}
	detail := target + ": no candidate matched exactly one element"
	if lastErr != nil {
		detail += ": " + lastErr.Error()
	}
	f := r.failure(receipt.CategoryLocatorNotFound, reason, detail)
	cause := r.missCause(a, field, tried, lastErr)
	if r.proposal != nil || a.Effect == capability.EffectConsequential || !a.Effect.Valid() {
		return &stop{state: receipt.TerminalFailed, failure: f, cause: cause}
	}
	hash, err := canonjson.Digest(a)
	if err != nil {
		return r.failed(receipt.CategoryInternal, ReasonContractHashFailed, err.Error())
	}
	origin, path := r.where()
	req := &RecoveryRequest{
		Target:       RecoveryTarget{ActionID: a.ID, Field: field},
		Milestone:    m.ID,
		Action:       *a,
		ContractHash: hash,
		Origin:       origin,
		Path:         path,
		Tried:        candidateAttempts(tried),
		FailureHash:  f.DetailHash,
	}
	return &stop{state: receipt.TerminalRecoveryRequested, failure: f, recovery: req, cause: cause}
}

// finder adapts the driver to locator.Finder in a scope, substituting
// templates in candidate values.
func (r *run) finder(scope Scope, root Element) locator.Finder[Element] {
	return &scopedFinder{r: r, scope: scope, root: root}
}

// substCandidate substitutes input templates in a candidate's values
// (and its scope's): raw, except in CSS, where every value is escaped
// as a CSS identifier (cssEscape) so that it stays data.
func (r *run) substCandidate(c locator.Candidate) locator.Candidate {
	c = r.substScope(c)
	if !strings.Contains(c.Value(), "{{") {
		return c
	}
	c.Name = substitute(c.Name, r.vals, nil)
	c.Label = substitute(c.Label, r.vals, nil)
	c.Placeholder = substitute(c.Placeholder, r.vals, nil)
	c.TestID = substitute(c.TestID, r.vals, nil)
	c.Text = substitute(c.Text, r.vals, nil)
	c.CSS = substitute(c.CSS, r.vals, cssEscape)
	return c
}

// actionRecord is the sanitized receipt view of an outcome.
func (r *run) actionRecord(o *ActionOutcome) receipt.ActionRecord {
	rec := receipt.ActionRecord{
		ID: o.ID, Milestone: o.Milestone, Visit: o.Visit, Operation: o.Operation, Effect: o.Effect,
		Status: o.Status, Postcondition: o.Postcondition, DurationMS: o.Duration.Milliseconds(),
		Failure: o.Failure, Download: o.Download, Approval: o.Approval, Recovered: o.Recovered,
		Dispatched: o.Dispatched,
	}
	if o.LocatorIndex >= 0 {
		i := o.LocatorIndex
		rec.LocatorIndex = &i
		rec.LocatorMatches = o.LocatorMatches
	}
	if o.Operation == string(capability.OpExtract) && o.Status == receipt.ActionPassed {
		n := o.Records
		rec.Records = &n
	}
	return rec
}
