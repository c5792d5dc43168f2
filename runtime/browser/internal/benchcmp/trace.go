//go:build benchcmp

package main

import (
	"context"
	"fmt"
	"os"
	"sort"
	"sync"
	"time"

	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/grant"
)

// tracing wraps a driver and sums the time spent in each method, to show
// where a run's time goes (-trace).
type tracing struct {
	runtime.Driver
	mu    sync.Mutex
	total map[string]time.Duration
	count map[string]int
}

// Authorization forwards the wrapped live driver's authorization, so
// runtime.Execute finds the grant through the wrapper.
func (t *tracing) Authorization() grant.Authorization {
	if a, ok := t.Driver.(runtime.Authorized); ok {
		return a.Authorization()
	}
	return grant.Authorization{}
}

func newTracing(d runtime.Driver) *tracing {
	return &tracing{Driver: d, total: map[string]time.Duration{}, count: map[string]int{}}
}

func (t *tracing) note(name string, start time.Time) {
	t.mu.Lock()
	t.total[name] += time.Since(start)
	t.count[name]++
	t.mu.Unlock()
}

func (t *tracing) Navigate(ctx context.Context, u string) error {
	defer t.note("Navigate", time.Now())
	return t.Driver.Navigate(ctx, u)
}
func (t *tracing) URL(ctx context.Context) (string, error) {
	defer t.note("URL", time.Now())
	return t.Driver.URL(ctx)
}
func (t *tracing) Frame(ctx context.Context, s []string) (runtime.Scope, []runtime.FrameInfo, error) {
	defer t.note("Frame", time.Now())
	return t.Driver.Frame(ctx, s)
}
func (t *tracing) Find(ctx context.Context, s runtime.Scope, r runtime.Element, c locator.Candidate) ([]runtime.Element, error) {
	key := "Find " + string(c.Strategy)
	if c.Strategy == locator.Role {
		key += " " + c.Role
	}
	defer t.note(key, time.Now())
	return t.Driver.Find(ctx, s, r, c)
}
func (t *tracing) Act(ctx context.Context, e runtime.Element, a runtime.Act) error {
	defer t.note("Act "+string(a.Kind), time.Now())
	return t.Driver.Act(ctx, e, a)
}
func (t *tracing) Read(ctx context.Context, e runtime.Element, r runtime.Read) (string, error) {
	defer t.note("Read", time.Now())
	return t.Driver.Read(ctx, e, r)
}
func (t *tracing) Visible(ctx context.Context, e runtime.Element) (bool, error) {
	defer t.note("Visible", time.Now())
	return t.Driver.Visible(ctx, e)
}
func (t *tracing) Settle(ctx context.Context) error {
	defer t.note("Settle", time.Now())
	return t.Driver.Settle(ctx)
}
func (t *tracing) RestrictOrigins(ctx context.Context, s runtime.OriginScope) error {
	defer t.note("RestrictOrigins", time.Now())
	return t.Driver.RestrictOrigins(ctx, s)
}
func (t *tracing) FrameURL(ctx context.Context, s runtime.Scope) (string, error) {
	defer t.note("FrameURL", time.Now())
	return t.Driver.FrameURL(ctx, s)
}
func (t *tracing) Violations(ctx context.Context) ([]runtime.Violation, error) {
	defer t.note("Violations", time.Now())
	return t.Driver.Violations(ctx)
}

// hooks returns hooks that charge each action's phases to "phase X"
// entries and the waits to "wait X" entries.
func (t *tracing) hooks() *runtime.Hooks {
	return &runtime.Hooks{
		ActionDone: func(i runtime.ActionDoneInfo) {
			t.mu.Lock()
			defer t.mu.Unlock()
			add := func(name string, d time.Duration) {
				t.total[name] += d
				t.count[name]++
			}
			tm := i.Timing
			add("phase resolve", tm.Resolve)
			add("phase act", tm.Act)
			add("phase settle", tm.Settle)
			add("phase postcondition", tm.Postcondition)
			add("phase evidence", tm.Evidence)
			add("action "+i.Outcome.ID, i.Outcome.Duration)
			id := i.Outcome.ID
			add(id+" resolve", tm.Resolve)
			add(id+" act", tm.Act)
			add(id+" settle", tm.Settle)
			add(id+" postcondition", tm.Postcondition)
			add(id+" evidence", tm.Evidence)
		},
		WaitDone: func(i runtime.WaitDoneInfo) {
			t.mu.Lock()
			defer t.mu.Unlock()
			t.total["wait "+string(i.Kind)] += i.Elapsed
			t.count["wait "+string(i.Kind)]++
		},
	}
}

func (t *tracing) report() {
	t.mu.Lock()
	defer t.mu.Unlock()
	names := make([]string, 0, len(t.total))
	for n := range t.total {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool { return t.total[names[i]] > t.total[names[j]] })
	for _, n := range names {
		fmt.Fprintf(os.Stderr, "  %-28s %4d calls  %8v total  %8v each\n", n, t.count[n], t.total[n].Round(time.Millisecond), (t.total[n] / time.Duration(t.count[n])).Round(100*time.Microsecond))
	}
}

// FindCounts forwards runtime.BatchFinder, so the traced run takes the
// same path as the untraced one.
func (t *tracing) FindCounts(ctx context.Context, s runtime.Scope, r runtime.Element, c []locator.Candidate) ([]int, error) {
	defer t.note("FindCounts", time.Now())
	return t.Driver.(runtime.BatchFinder).FindCounts(ctx, s, r, c)
}

// WaitChange forwards runtime.ChangeWaiter.
func (t *tracing) WaitChange(ctx context.Context, s runtime.Scope) error {
	defer t.note("WaitChange", time.Now())
	return t.Driver.(runtime.ChangeWaiter).WaitChange(ctx, s)
}
