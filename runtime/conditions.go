package runtime

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/receipt"
)

// frameScope resolves the running milestone's frame path (r.frame, see
// framepath.go; the top-level document when there is none) and checks
// the actual origin of every frame on it. A missing or ambiguous frame is
// returned as a transient error (it may still load); an unapproved origin
// ends the run.
//
// The result is cached until the page may have changed: the next poll
// tick, act, navigation, approval or handoff (see touch), so the checks
// made at one instant (a postcondition, modals, outcomes) share one
// resolution while every wait tick and every step resolves afresh.
func (r *run) frameScope(ctx context.Context) (Scope, error, *stop) {
	if c := &r.scopeCache; c.valid && c.gen == r.gen {
		return c.scope, c.err, nil
	}
	scope, err, st := r.resolveFrame(ctx)
	if st == nil {
		r.scopeCache = scopeCache{valid: true, gen: r.gen, scope: scope, err: err}
	}
	return scope, err, st
}

// scopeCache is the last frame resolution and the page generation it
// belongs to.
type scopeCache struct {
	valid bool
	gen   uint64
	scope Scope
	err   error
}

// touch marks that the page may have changed.
func (r *run) touch() { r.gen++ }

func (r *run) resolveFrame(ctx context.Context) (Scope, error, *stop) {
	scope, infos, err := r.drv.Frame(ctx, r.frame)
	if err != nil {
		if errors.Is(err, ErrFrameNotFound) || errors.Is(err, ErrFrameAmbiguous) || errors.Is(err, ErrStaleElement) {
			return nil, err, nil
		}
		return nil, nil, r.classify(err, receipt.CategoryInternal, ReasonFrameError)
	}
	for i, fi := range infos {
		n, ok := normalizeOrigin(fi.Origin)
		if !ok || !containsString(r.plan.allowed, n) || !safeScheme(n) {
			return nil, nil, r.failed(receipt.CategoryFrameNotAllowed, ReasonFrameOriginNotAllowed,
				fmt.Sprintf("frame %d has origin %q outside the allowed origins", i, fi.Origin))
		}
		r.origins[n] = struct{}{}
	}
	return scope, nil, nil
}

// checkFrameAfter re-resolves the frame path after an action and checks
// its origins; a frame that is (momentarily) missing is left to the next
// locator wait.
func (r *run) checkFrameAfter() *stop {
	if len(r.frame) == 0 {
		return nil
	}
	_, _, st := r.frameScope(r.ctx)
	return st
}

// settleTimeout bounds one causal barrier ([Driver.Settle]) on top of the
// driver's own hard cap.
const settleTimeout = 5 * time.Second

// settle is the causal barrier: it waits, bounded by settleTimeout or
// bound, whichever is longer, until the driver has observed and
// attributed every browser event the last act or navigation caused
// (popups, navigations, paused requests, downloads, dialogs), so that the
// violations drained next are complete. Its own timeout is not a failure:
// the driver's cap already bounds it and the waits after it go on
// draining. An act whose outcome is not known within the bound
// ([ErrActPending]: a request or navigation it caused had no answer, or
// the page removed the frame it navigated) is: nothing after it may be judged.
func (r *run) settle(ctx context.Context, bound time.Duration) *stop {
	defer r.clock.enter(phaseSettle)()
	sctx, cancel := context.WithTimeout(ctx, max(settleTimeout, bound))
	err := r.drv.Settle(sctx)
	cancel()
	if err == nil || (ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded)) {
		return nil
	}
	return r.classify(err, receipt.CategoryInternal, ReasonSettleFailed)
}

// drain reads the blocked requests since the last drain and counts them
// all; a navigation, popup or frame violation fails the run with its
// reason (subresource ones are only counted, and keep the run from being
// clean).
func (r *run) drain(ctx context.Context) *stop {
	vs, err := r.drv.Violations(ctx)
	if err != nil {
		return r.classify(err, receipt.CategoryInternal, ReasonViolationsFailed)
	}
	var bad *Violation
	for i := range vs {
		r.blocked++
		if vs[i].Kind != ViolationSubresource && bad == nil {
			bad = &vs[i]
		}
	}
	if bad != nil {
		return r.failed(receipt.CategoryOriginNotAllowed, violationReason(bad.Kind),
			fmt.Sprintf("blocked %s to %s", bad.Kind, bad.Origin))
	}
	return nil
}

// afterNavigation runs the causal barrier (bounded by bound: the action
// timeout after an action), drains the blocked requests and checks the
// top-level origin. A violation the act caused takes
// precedence over anything the barrier itself reports (a native dialog,
// say), since it is the more specific cause.
func (r *run) afterNavigation(bound time.Duration) *stop {
	sst := r.settle(r.ctx, bound)
	if st := r.drain(r.ctx); st != nil {
		return st
	}
	if sst != nil {
		return sst
	}
	raw, err := r.drv.URL(r.ctx)
	if err != nil {
		return r.classify(err, receipt.CategoryInternal, ReasonURLFailed)
	}
	u, err := parseAbs(raw)
	if err != nil {
		return r.failed(receipt.CategoryOriginNotAllowed, ReasonTopLevelOrigin, "top-level URL is not an absolute URL")
	}
	o := originOf(u)
	if !containsString(r.plan.allowed, o) {
		return r.failed(receipt.CategoryOriginNotAllowed, ReasonTopLevelOrigin, "top-level page is on origin "+o)
	}
	r.origins[o] = struct{}{}
	return nil
}

// finalBarrier runs before the terminal state is written: the barrier
// and one last drain, so a violation that arrived after the last decision
// is counted and, when it is a navigation, popup or frame, ends the run
// as that failure instead of term (a caller's cancellation and an origin
// failure stay). It runs on a context detached from the run's, bounded by
// settleTimeout; the barrier is skipped when the caller canceled.
func (r *run) finalBarrier(term *stop) *stop {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(r.ctx), settleTimeout)
	defer cancel()
	if r.parent.Err() == nil {
		// An error here (a dialog, a crash) is already what term says or
		// is said by the drain below.
		_ = r.drv.Settle(ctx)
	}
	vs, err := r.drv.Violations(ctx)
	if err != nil {
		return term
	}
	var bad *Violation
	for i := range vs {
		r.blocked++
		if vs[i].Kind != ViolationSubresource && bad == nil {
			bad = &vs[i]
		}
	}
	if bad == nil {
		return term
	}
	if term != nil && term.failure != nil &&
		(term.failure.Category == receipt.CategoryCanceled || term.failure.Category == receipt.CategoryOriginNotAllowed) {
		return term
	}
	st := r.failed(receipt.CategoryOriginNotAllowed, violationReason(bad.Kind), fmt.Sprintf("blocked %s to %s", bad.Kind, bad.Origin))
	if term != nil {
		st.action = term.action
	}
	return st
}

func parseAbs(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, err
	}
	if u.Scheme == "" || u.Host == "" {
		return nil, errors.New("not an absolute URL")
	}
	return u, nil
}

// holds evaluates a condition once. as is the action whose postcondition
// it is (nil for transitions).
func (r *run) holds(ctx context.Context, c *capability.Condition, as *actState) (bool, *stop) {
	switch c.Kind {
	case capability.CondAlways:
		return true, nil
	case capability.CondLocatorVisible, capability.CondLocatorHidden, capability.CondTextVisible:
		scope, ferr, st := r.frameScope(ctx)
		if st != nil {
			return false, st
		}
		if ferr != nil {
			// A missing frame satisfies neither visible nor hidden.
			return false, nil
		}
		cands := c.LocatorCandidates
		if c.Kind == capability.CondTextVisible {
			cands = []locator.Candidate{{Strategy: locator.Text, Text: c.Text}}
		}
		vis, st := r.anyVisible(ctx, scope, nil, cands)
		if st != nil {
			return false, st
		}
		if c.Kind == capability.CondLocatorHidden {
			return !vis, nil
		}
		return vis, nil
	case capability.CondURLIncludes, capability.CondURLPath:
		raw, ok, st := r.conditionURL(ctx, c)
		if st != nil || !ok {
			return false, st
		}
		if c.Kind == capability.CondURLIncludes {
			return r.urlIncludes(raw, c.Value), nil
		}
		u, err := url.Parse(raw)
		if err != nil {
			return false, nil
		}
		return u.Path == c.Value || u.EscapedPath() == c.Value, nil
	case capability.CondOutputProduced:
		name := c.Output
		if name == "" && as != nil {
			name = as.a.Output
		}
		o := r.outs[name]
		return o != nil && o.produced, nil
	case capability.CondDownloadCompleted:
		if c.Output == "" {
			return as != nil && as.downloaded, nil
		}
		o := r.outs[c.Output]
		return o != nil && len(o.files) > 0, nil
	}
	return false, nil
}

// urlIncludes compares the substituted value with the raw URL and with the
// URL percent-decoded once (when decoding succeeds and yields UTF-8); the
// value with its inputs encoded by encodeURIComponent (fragments) and by
// encodeQueryComponent (query entries) is also compared with the raw URL.
func (r *run) urlIncludes(raw, tmpl string) bool {
	v := substitute(tmpl, r.vals, nil)
	if strings.Contains(raw, v) {
		return true
	}
	if dec, ok := decodeOnce(raw); ok && strings.Contains(dec, v) {
		return true
	}
	if strings.Contains(raw, substitute(tmpl, r.vals, encodeURIComponent)) {
		return true
	}
	// Inputs encoded as the runtime encodes query entries.
	return strings.Contains(raw, substitute(tmpl, r.vals, encodeQueryComponent))
}

// decodeOnce percent-decodes s once; ok is false when s holds a malformed
// escape or decodes to invalid UTF-8.
func decodeOnce(s string) (string, bool) {
	if !strings.Contains(s, "%") {
		return s, true
	}
	d, err := url.PathUnescape(s)
	if err != nil || !utf8.ValidString(d) {
		return "", false
	}
	return d, true
}

// anyVisible reports whether some candidate matches a visible element.
// Semantic candidates and ":visible" CSS match only visible elements;
// other CSS matches are checked with Driver.Visible.
func (r *run) anyVisible(ctx context.Context, scope Scope, root Element, cands []locator.Candidate) (bool, *stop) {
	for _, c := range cands {
		els, err := r.findCandidate(ctx, scope, root, c)
		if err != nil {
			if errors.Is(err, ErrStaleElement) {
				continue
			}
			return false, r.classify(err, receipt.CategoryInternal, ReasonFindFailed)
		}
		if len(els) == 0 {
			continue
		}
		if c.Strategy.Semantic() || c.VisibleScoped() {
			return true, nil
		}
		for _, el := range els {
			vis, err := r.drv.Visible(ctx, el)
			if err != nil {
				if errors.Is(err, ErrStaleElement) {
					continue
				}
				return false, r.classify(err, receipt.CategoryInternal, ReasonVisibleFailed)
			}
			if vis {
				return true, nil
			}
		}
	}
	return false, nil
}

// onMiss runs while a wait is unsatisfied: an unknown modal blocks the run
// and a business outcome ends it.
func (r *run) onMiss(ctx context.Context) *stop {
	if !r.looking {
		r.lookAt(ctx, true, true)
		defer r.endLook()
	}
	if st := r.checkModals(ctx); st != nil {
		return st
	}
	return r.checkOutcomes(ctx)
}

func (r *run) checkOutcomesNow() *stop { return r.checkOutcomes(r.ctx) }

// checkOutcomes evaluates the business outcomes in order; the first whose
// set detect rules all hold ends the run.
func (r *run) checkOutcomes(ctx context.Context) *stop {
	outs := r.cap.BusinessOutcomes
	if len(outs) == 0 {
		return nil
	}
	if !r.looking {
		r.lookAt(ctx, false, true)
		defer r.endLook()
	}
	var (
		haveURL       bool
		raw, dec      string
		haveScope     bool
		scope         Scope
		scopeOK       bool
		pathAndFrag   string
		decPathAndFrg string
	)
	for i := range outs {
		d := &outs[i].Detect
		ok := true
		if d.URLPattern != "" {
			if !haveURL {
				u, err := r.drv.URL(ctx)
				if err != nil {
					return r.classify(err, receipt.CategoryInternal, ReasonURLFailed)
				}
				raw, haveURL = u, true
				if pu, err := url.Parse(raw); err == nil {
					pathAndFrag = pu.EscapedPath()
					decPathAndFrg = pu.Path
					if pu.Fragment != "" {
						pathAndFrag += "#" + pu.EscapedFragment()
						decPathAndFrg += "#" + pu.Fragment
					}
				}
				dec = decPathAndFrg
			}
			re := r.plan.outcomes[i]
			ok = re != nil && (re.MatchString(pathAndFrag) || re.MatchString(dec))
		}
		if ok && d.AfterAction != "" {
			ok = r.actedOn(d.AfterAction)
		}
		if ok && (d.VisibleText != "" || len(d.LocatorCandidates) > 0) {
			if !haveScope {
				s, ferr, st := r.frameScope(ctx)
				if st != nil {
					return st
				}
				scope, scopeOK, haveScope = s, ferr == nil, true
			}
			ok = scopeOK
		}
		var within Element
		if ok && (d.VisibleText != "" || len(d.LocatorCandidates) > 0) {
			el, found, st := r.detectRoot(ctx, scope, d)
			if st != nil {
				return st
			}
			within, ok = el, found
		}
		if ok && d.VisibleText != "" {
			vis, st := r.anyVisible(ctx, scope, within, []locator.Candidate{{Strategy: locator.Text, Text: d.VisibleText}})
			if st != nil {
				return st
			}
			ok = vis
		}
		if ok && len(d.LocatorCandidates) > 0 {
			vis, st := r.anyVisible(ctx, scope, within, d.LocatorCandidates)
			if st != nil {
				return st
			}
			ok = vis
		}
		if ok {
			r.log.Debug("vera business outcome", "run", r.runID, "code", outs[i].Code)
			return &stop{state: receipt.TerminalBusinessOutcome, outcome: outs[i].Code}
		}
	}
	return nil
}

var dialogRoles = [...]locator.Candidate{
	{Strategy: locator.Role, Role: "dialog"},
	{Strategy: locator.Role, Role: "alertdialog"},
}

// checkModals looks for visible dialogs (role dialog or alertdialog) in
// the top-level document and the selected frame; one the capability does
// not target blocks the run.
func (r *run) checkModals(ctx context.Context) *stop {
	if !r.looking {
		r.lookAt(ctx, true, false)
		defer r.endLook()
	}
	fs, ferr, st := r.frameScope(ctx)
	if st != nil {
		return st
	}
	var scopes [2]Scope
	n := 0
	if len(r.frame) > 0 {
		top, _, err := r.drv.Frame(ctx, nil)
		if err != nil {
			return r.classify(err, receipt.CategoryInternal, ReasonFrameError)
		}
		scopes[n] = top
		n++
	}
	if ferr == nil {
		scopes[n] = fs
		n++
	}
	for _, scope := range scopes[:n] {
		for _, role := range dialogRoles {
			els, err := r.find(ctx, scope, nil, role)
			if err != nil {
				if errors.Is(err, ErrStaleElement) {
					continue
				}
				return r.classify(err, receipt.CategoryInternal, ReasonFindFailed)
			}
			for _, d := range els {
				known, st := r.knownDialog(ctx, scope, d)
				if st != nil {
					return st
				}
				if !known {
					// The dialog was visible when the dialogs were
					// listed; the candidates were looked for after
					// that. One that closed meanwhile (a confirmation
					// whose submission just answered: its own button
					// is hidden with it) blocks nothing and is no
					// evidence of an unknown modal. Only a dialog
					// still visible after the look is unknown.
					if open, st := r.stillVisible(ctx, d); st != nil {
						return st
					} else if !open {
						r.log.Debug("vera dialog closed while it was checked", "run", r.runID, "role", role.Role)
						continue
					}
					st := r.failed(receipt.CategoryUIAssertionFailed, ReasonUnknownModal, "a visible "+role.Role+" the capability does not target")
					st.state = receipt.TerminalBlockedByUnknownModal
					return st
				}
			}
		}
	}
	return nil
}

// stillVisible reports whether the dialog d is visible now; a handle that
// went stale (the dialog was removed) is not.
func (r *run) stillVisible(ctx context.Context, d Element) (bool, *stop) {
	vis, err := r.drv.Visible(ctx, d)
	if err != nil {
		if errors.Is(err, ErrStaleElement) {
			return false, nil
		}
		return false, r.classify(err, receipt.CategoryInternal, ReasonVisibleFailed)
	}
	return vis, nil
}

// knownDialog reports whether a candidate the capability is about to use
// (see knownCandidates) resolves to the dialog itself (same handle) or to
// an element inside it.
func (r *run) knownDialog(ctx context.Context, scope Scope, d Element) (bool, *stop) {
	for _, c := range r.knownCandidates() {
		els, err := r.findCandidate(ctx, scope, nil, c)
		if err != nil {
			if errors.Is(err, ErrStaleElement) {
				continue
			}
			return false, r.classify(err, receipt.CategoryInternal, ReasonFindFailed)
		}
		if slices.ContainsFunc(els, func(e Element) bool { return sameElement(e, d) }) {
			return true, nil
		}
		inside, err := r.findCandidate(ctx, scope, d, c)
		if err != nil {
			if errors.Is(err, ErrStaleElement) {
				continue
			}
			return false, r.classify(err, receipt.CategoryInternal, ReasonFindFailed)
		}
		if len(inside) > 0 {
			return true, nil
		}
	}
	return false, nil
}

// sameElement compares two handles with ==, guarding against handle types
// that are not comparable.
func sameElement(a, b Element) bool {
	ta := reflect.TypeOf(a)
	if ta == nil || ta != reflect.TypeOf(b) || !ta.Comparable() {
		return false
	}
	return a == b
}

// knownCandidates lists the candidates that make a dialog known at the
// current position: the locators and postconditions of the current and
// later actions of the milestone (and the locator and postcondition of the
// action just run), its transitions, the actions of the milestones its transitions
// lead to (or of the next milestone when it has none), and the business
// outcomes' detect rules. Text conditions count as text candidates.
func (r *run) knownCandidates() []locator.Candidate {
	var out []locator.Candidate
	addCond := func(c *capability.Condition) {
		if c == nil {
			return
		}
		out = append(out, c.LocatorCandidates...)
		if c.Kind == capability.CondTextVisible && c.Text != "" {
			out = append(out, locator.Candidate{Strategy: locator.Text, Text: c.Text})
		}
	}
	addActions := func(as []capability.Action) {
		for i := range as {
			out = append(out, r.actionCands(&as[i])...)
			addCond(as[i].Postcondition)
		}
	}
	if m := r.pos.m; m != nil {
		from := min(r.pos.from, len(m.Actions))
		addActions(m.Actions[from:])
		if from > 0 {
			// The action just run: its postcondition, and its own
			// locator, since a dialog holding the element the run just
			// acted on (a confirmation whose submit is in flight) is one
			// the capability targets.
			addCond(m.Actions[from-1].Postcondition)
			out = append(out, r.actionCands(&m.Actions[from-1])...)
		}
		for i := range m.Transitions {
			addCond(&m.Transitions[i].When)
			if next, _, ok := r.cap.Milestone(m.Transitions[i].To); ok {
				addActions(next.Actions)
			}
		}
		if len(m.Transitions) == 0 {
			if _, mi, ok := r.cap.Milestone(m.ID); ok && mi+1 < len(r.cap.Milestones) {
				addActions(r.cap.Milestones[mi+1].Actions)
			}
		}
	}
	for i := range r.cap.BusinessOutcomes {
		d := &r.cap.BusinessOutcomes[i].Detect
		out = append(out, d.LocatorCandidates...)
		if d.VisibleText != "" {
			out = append(out, locator.Candidate{Strategy: locator.Text, Text: d.VisibleText})
		}
	}
	return out
}

// sortedOrigins returns the reached origins, sorted.
func (r *run) sortedOrigins() []string {
	out := make([]string, 0, len(r.origins))
	for o := range r.origins {
		out = append(out, o)
	}
	slices.Sort(out)
	return out
}
