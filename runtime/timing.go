package runtime

import "time"

// ActionTiming is where one action's time went ([ActionDoneInfo.Timing]).
// Every instant of the action is charged to exactly one phase, so the
// phases sum to at most [ActionOutcome.Duration] (the difference is the
// few calls between the action's start and its clock, and its end and the
// duration's measurement).
type ActionTiming struct {
	// Approval is the time the host's approver took (consequential
	// actions only).
	Approval time.Duration
	// Resolve is waiting for the action's locator (and an extraction's
	// field locators, a frame path) to resolve uniquely, polls included.
	Resolve time.Duration
	// Act is the mechanical act: the driver's click, fill, select, key
	// press or navigation, an extraction's reads, a download's arming and
	// wait for its file.
	Act time.Duration
	// Settle is the causal barrier after the act ([Driver.Settle]): the
	// browser events the act caused, observed and attributed.
	Settle time.Duration
	// Postcondition is waiting for the action's postcondition to hold.
	Postcondition time.Duration
	// Evidence is everything else the runtime does to decide and record
	// the action: the modal checks before and after it, the drain of
	// blocked requests, the top-level origin and frame checks, the
	// business-outcome checks.
	Evidence time.Duration
}

// Total is the sum of the phases.
func (t ActionTiming) Total() time.Duration {
	return t.Approval + t.Resolve + t.Act + t.Settle + t.Postcondition + t.Evidence
}

// phaseClock charges the time of one action to its phases: the time
// since the last switch goes to the current phase. A nil clock (no action
// running: transitions, the final barrier) does nothing.
type phaseClock struct {
	t     ActionTiming
	cur   *time.Duration
	since time.Time
}

func newPhaseClock() *phaseClock {
	c := &phaseClock{since: time.Now()}
	c.cur = &c.t.Evidence
	return c
}

// enter charges the time so far to the current phase and makes p current;
// the returned func restores the previous phase.
func (c *phaseClock) enter(p func(*ActionTiming) *time.Duration) (restore func()) {
	if c == nil {
		return func() {}
	}
	prev := c.cur
	c.switchTo(p(&c.t))
	return func() { c.switchTo(prev) }
}

func (c *phaseClock) switchTo(p *time.Duration) {
	now := time.Now()
	*c.cur += now.Sub(c.since)
	c.since, c.cur = now, p
}

// stop charges the remaining time and returns the breakdown.
func (c *phaseClock) stop() ActionTiming {
	c.switchTo(c.cur)
	return c.t
}

func phaseApproval(t *ActionTiming) *time.Duration      { return &t.Approval }
func phaseResolve(t *ActionTiming) *time.Duration       { return &t.Resolve }
func phaseAct(t *ActionTiming) *time.Duration           { return &t.Act }
func phaseSettle(t *ActionTiming) *time.Duration        { return &t.Settle }
func phasePostcondition(t *ActionTiming) *time.Duration { return &t.Postcondition }
