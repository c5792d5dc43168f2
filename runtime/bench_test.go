package runtime_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/runtimetest"
)

// BenchmarkExecutePerAction runs a small looping capability on the fake
// driver: a milestone of 10 clicks (each with a locator, a postcondition,
// the frame, origin, modal and business-outcome checks) visited 100 times,
// so one Execute performs 1000 actions and then ends on max_visits; the
// evidence is written as for every run. It reports:
//
//   - ns/action: wall time of the whole Execute (validation, hashing,
//     fsynced evidence included) per action;
//   - cpu-ns/action: the process CPU time of the same, which a loaded
//     machine inflates less than wall time;
//   - ns/action-exec: wall time spent inside actions only.
func BenchmarkExecutePerAction(b *testing.B) {
	const perVisit, visits = 10, 100
	const actionsPerRun = perVisit * visits
	var actions []capability.Action
	for i := range perVisit {
		actions = append(actions, click(fmt.Sprintf("a%d", i), textVisible("ready"), role("button", "More")))
	}
	loop := milestone("loop", actions...)
	loop.MaxVisits = visits
	loop.Transitions = []capability.Transition{
		{When: *textVisible("finished"), To: capability.TerminalCompleted},
		{When: capability.Condition{Kind: capability.CondAlways}, To: "loop"},
	}
	c := newCap("/", loop)
	c.Runtime.MaxActions = 2 * actionsPerRun
	// The overhead is measured, not the timeouts: a scheduler stall on a
	// shared machine must not fail an action (300 ms did at load 35).
	c.Runtime.ActionTimeoutMS, c.Runtime.TransitionTimeoutMS = 10_000, 10_000
	c.BusinessOutcomes = []capability.BusinessOutcome{{Code: "session_expired", Detect: capability.OutcomeDetect{VisibleText: "Session expired"}}}
	mustValid(b, c)
	s := loopSite()
	dir := b.TempDir()
	var inActions time.Duration
	b.ReportAllocs()
	cpu0 := cpuTime()
	for b.Loop() {
		// A fresh fake per run keeps its call log from growing across runs.
		d := runtimetest.NewDriver(s)
		res, err := runtime.Execute(context.Background(), c, nil, runtime.WithDriver(d), runtime.WithRunDir(dir))
		d.Close()
		if err != nil || res.State != receipt.TerminalFailed || res.Failure.Reason != "max_visits_exceeded" || len(res.Actions) != actionsPerRun {
			b.Fatalf("%v %v", res, err)
		}
		for _, a := range res.Actions {
			inActions += a.Duration
		}
	}
	cpu := cpuTime() - cpu0
	n := float64(b.N * actionsPerRun)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n, "ns/action")
	b.ReportMetric(float64(cpu.Nanoseconds())/n, "cpu-ns/action")
	b.ReportMetric(float64(inActions.Nanoseconds())/n, "ns/action-exec")
}
