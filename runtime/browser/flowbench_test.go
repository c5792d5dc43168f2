package browser

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vera-run/vera/runtime"
)

// BenchmarkTellerFlow runs the teller capability end to end (sign in,
// search, read the balances, evidence written) on the shared driver and
// reports the CDP commands per run and, with -v, where each action's
// time and commands went.
func BenchmarkTellerFlow(b *testing.B) {
	d := shared(b)
	s := sites(b)
	c := tellerCapability(b, s)
	ctx := tctx(b, 10*time.Minute)
	var (
		mu      sync.Mutex
		cur     = "(setup)"
		calls   = map[string]map[string]int{}
		took    = map[string]map[string]time.Duration{}
		timings = map[string]runtime.ActionTiming{}
		total   int
		// runStart, lastDone: the run's start and its last action's end;
		// beforeFirst, afterLast sum the time before the first action
		// (validation, run folder, origin scope, start navigation) and
		// after the last (final barrier, evidence).
		runStart, lastDone     time.Time
		beforeFirst, afterLast time.Duration
	)
	d.setCallTrace(func(method string, start time.Time) {
		mu.Lock()
		defer mu.Unlock()
		if calls[cur] == nil {
			calls[cur], took[cur] = map[string]int{}, map[string]time.Duration{}
		}
		calls[cur][method]++
		took[cur][method] += time.Since(start)
		total++
	})
	b.Cleanup(func() { d.setCallTrace(nil) })
	hooks := &runtime.Hooks{
		ActionStart: func(i runtime.ActionStartInfo) {
			mu.Lock()
			cur = i.ID
			if i.Ordinal == 1 {
				beforeFirst += time.Since(runStart)
			}
			mu.Unlock()
		},
		ActionDone: func(i runtime.ActionDoneInfo) {
			mu.Lock()
			t := timings[i.Outcome.ID]
			t.Resolve += i.Timing.Resolve
			t.Act += i.Timing.Act
			t.Settle += i.Timing.Settle
			t.Postcondition += i.Timing.Postcondition
			t.Evidence += i.Timing.Evidence
			timings[i.Outcome.ID] = t
			cur = "(between actions)"
			lastDone = time.Now()
			mu.Unlock()
		},
	}
	inputs := map[string]any{"username": "teller1", "password": "correct horse", "member_id": "100234"}
	runs := 0
	d.mu.Lock()
	waits0 := d.causal.chainWaits
	d.mu.Unlock()
	for b.Loop() {
		mu.Lock()
		cur = "(setup)"
		runStart = time.Now()
		mu.Unlock()
		res, err := runtime.Execute(ctx, c, inputs, runtime.WithDriver(d), runtime.WithRunDir(b.TempDir()), runtime.WithHooks(hooks))
		mu.Lock()
		afterLast += time.Since(lastDone)
		mu.Unlock()
		if err != nil || res.State != runtime.StateCompleted {
			b.Fatalf("Execute = %v, %v", res, err)
		}
		runs++
	}
	b.ReportMetric(float64(total)/float64(runs), "cdp-calls/op")
	b.Logf("before the first action %v, after the last %v (per run)", (beforeFirst / time.Duration(runs)).Round(100*time.Microsecond), (afterLast / time.Duration(runs)).Round(100*time.Microsecond))
	d.mu.Lock()
	b.ReportMetric(float64(d.causal.chainWaits-waits0)/float64(runs), "quiet-waits/op")
	d.mu.Unlock()
	keys := make([]string, 0, len(calls))
	for k := range calls {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		var sb strings.Builder
		n := 0
		var ms []string
		for m, c := range calls[k] {
			n += c
			ms = append(ms, fmt.Sprintf("%s %.1f (%v)", m, float64(c)/float64(runs), (took[k][m]/time.Duration(runs)).Round(100*time.Microsecond)))
		}
		slices.Sort(ms)
		t := timings[k]
		fmt.Fprintf(&sb, "%s: %.1f calls/run; resolve %v act %v settle %v post %v evidence %v\n    %s",
			k, float64(n)/float64(runs), (t.Resolve / time.Duration(runs)).Round(100*time.Microsecond), (t.Act / time.Duration(runs)).Round(100*time.Microsecond),
			(t.Settle / time.Duration(runs)).Round(100*time.Microsecond), (t.Postcondition / time.Duration(runs)).Round(100*time.Microsecond),
			(t.Evidence / time.Duration(runs)).Round(100*time.Microsecond), strings.Join(ms, "\n    "))
		b.Log(sb.String())
	}
}

// BenchmarkConnect measures Connect and Close on a running Chromium
// (a new browser context and page each time) and reports, with -v, the
// CDP commands of one Connect and the time until each answer.
func BenchmarkConnect(b *testing.B) {
	requireBrowser(b)
	e := startExternal(b)
	ctx := tctx(b, 5*time.Minute)
	var (
		mu    sync.Mutex
		calls = map[string]int{}
		took  = map[string]time.Duration{}
		runs  int
	)
	trace := withCallTrace(func(method string, start time.Time) {
		mu.Lock()
		calls[method]++
		took[method] += time.Since(start)
		mu.Unlock()
	})
	var connect time.Duration
	for b.Loop() {
		t0 := time.Now()
		d, err := Connect(ctx, e.HTTPEndpoint(), trace)
		if err != nil {
			b.Fatal(err)
		}
		connect += time.Since(t0)
		runs++
		d.Close()
	}
	b.ReportMetric(float64(connect.Microseconds())/float64(runs)/1000, "connect-ms/op")
	var ms []string
	for m, c := range calls {
		ms = append(ms, fmt.Sprintf("%s %.1f (%v)", m, float64(c)/float64(runs), (took[m]/time.Duration(runs)).Round(100*time.Microsecond)))
	}
	slices.Sort(ms)
	b.Log("per Connect+Close:\n    " + strings.Join(ms, "\n    "))
}

func withCallTrace(f func(method string, start time.Time)) Option {
	return func(o *options) { o.callTrace = f }
}
