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

// BenchmarkExecutePerAction runs a capability of actionsPerRun clicks (each
// with a locator, a postcondition and the modal, origin and outcome checks)
// on the fake driver, evidence included, and reports the cost per action.
func BenchmarkExecutePerAction(b *testing.B) {
	const actionsPerRun = 200
	var actions []capability.Action
	for i := range actionsPerRun {
		actions = append(actions, click(fmt.Sprintf("a%d", i), textVisible("ready"), role("button", "More")))
	}
	c := newCap("/", milestone("loop", actions...))
	c.Runtime.MaxActions = actionsPerRun
	c.BusinessOutcomes = []capability.BusinessOutcome{{Code: "session_expired", Detect: capability.OutcomeDetect{VisibleText: "Session expired"}}}
	mustValid(b, c)
	s := loopSite()
	dir := b.TempDir()
	var inActions time.Duration
	b.ReportAllocs()
	for b.Loop() {
		// A fresh fake per run keeps its call log from growing across runs.
		d := runtimetest.NewDriver(s)
		res, err := runtime.Execute(context.Background(), c, nil, runtime.WithDriver(d), runtime.WithRunDir(dir))
		d.Close()
		if err != nil || res.State != receipt.TerminalCompleted {
			b.Fatalf("%v %v", res, err)
		}
		for _, a := range res.Actions {
			inActions += a.Duration
		}
	}
	// ns/action: the whole run (validation, hashing and the fsynced
	// evidence included) per action; ns/action-exec: time inside actions.
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*actionsPerRun), "ns/action")
	b.ReportMetric(float64(inActions.Nanoseconds())/float64(b.N*actionsPerRun), "ns/action-exec")
}
