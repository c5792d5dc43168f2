package runtime

import "time"

// Hooks observe a run's progress, in the style of net/http/httptrace: set
// the funcs you need, nil funcs are skipped. Hooks are called synchronously
// on the goroutine running Execute, in run order; they must not block for
// long and must not call back into the run.
type Hooks struct {
	MilestoneStart func(MilestoneStartInfo)
	MilestoneDone  func(MilestoneDoneInfo)
	ActionStart    func(ActionStartInfo)
	ActionDone     func(ActionDoneInfo)
	WaitStart      func(WaitStartInfo)
	WaitDone       func(WaitDoneInfo)
}

// MilestoneStartInfo is passed to Hooks.MilestoneStart.
type MilestoneStartInfo struct {
	ID    string
	Visit int
}

// MilestoneDoneInfo is passed to Hooks.MilestoneDone.
type MilestoneDoneInfo struct {
	ID     string
	Visit  int
	Status string // completed | failed | stopped
	// Next is the transition target taken, "" when the run ended inside the
	// milestone.
	Next     string
	Duration time.Duration
}

// ActionStartInfo is passed to Hooks.ActionStart.
type ActionStartInfo struct {
	ID        string
	Milestone string
	Visit     int
	Operation string
	Effect    string
	// Ordinal counts the actions of the run, from 1.
	Ordinal int
}

// ActionDoneInfo is passed to Hooks.ActionDone.
type ActionDoneInfo struct {
	Outcome ActionOutcome
	// Timing is where the action's time went, phase by phase.
	Timing ActionTiming
}

// WaitKind names what a wait waits for.
type WaitKind string

// The wait kinds.
const (
	WaitLocator       WaitKind = "locator"
	WaitPostcondition WaitKind = "postcondition"
	WaitTransition    WaitKind = "transition"
	WaitDownload      WaitKind = "download"
)

// WaitStartInfo is passed to Hooks.WaitStart.
type WaitStartInfo struct {
	Kind      WaitKind
	Milestone string
	// ActionID is empty for a transition wait.
	ActionID string
	Timeout  time.Duration
}

// WaitDoneInfo is passed to Hooks.WaitDone.
type WaitDoneInfo struct {
	Kind      WaitKind
	Milestone string
	ActionID  string
	Satisfied bool
	Elapsed   time.Duration
}

func (h *Hooks) milestoneStart(i MilestoneStartInfo) {
	if h != nil && h.MilestoneStart != nil {
		h.MilestoneStart(i)
	}
}

func (h *Hooks) milestoneDone(i MilestoneDoneInfo) {
	if h != nil && h.MilestoneDone != nil {
		h.MilestoneDone(i)
	}
}

func (h *Hooks) actionStart(i ActionStartInfo) {
	if h != nil && h.ActionStart != nil {
		h.ActionStart(i)
	}
}

func (h *Hooks) actionDone(i ActionDoneInfo) {
	if h != nil && h.ActionDone != nil {
		h.ActionDone(i)
	}
}

func (h *Hooks) waitStart(i WaitStartInfo) {
	if h != nil && h.WaitStart != nil {
		h.WaitStart(i)
	}
}

func (h *Hooks) waitDone(i WaitDoneInfo) {
	if h != nil && h.WaitDone != nil {
		h.WaitDone(i)
	}
}
