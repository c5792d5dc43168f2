package browser

import (
	"fmt"
	"testing"
	"time"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/testsite"
	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/runtime"
)

// reactCap searches the React-like directory: type into the controlled
// search box (every keystroke re-renders), click Search (a fetch, then a
// time-sliced render of the rows).
func reactCap(origin string) *capability.Capability {
	c := barrierCap(origin, testsite.ReactPath,
		capability.Action{ID: "fill-query", Operation: capability.OpFill, Intent: "Type the search",
			Effect: capability.EffectReadOnly, Confirmation: capability.ConfirmNone,
			LocatorCandidates: []locator.Candidate{{Strategy: locator.Label, Label: "Search members", Exact: true}},
			Input:             "query",
			Postcondition: &capability.Condition{Kind: capability.CondLocatorVisible,
				LocatorCandidates: []locator.Candidate{role("button", "Search")}}},
		barrierClick("search", capability.EffectReadOnly, textCond("members found"), role("button", "Search")),
	)
	c.Inputs = []capability.Input{{Name: "query", Type: capability.InputString, Required: true, MaxLength: 50}}
	return c
}

// phaseSums collects the breakdown of every action of a run.
type phaseSums struct {
	runs                                                           int
	total, resolve, act, settle, postcondition, evidence, approval time.Duration
	byAction                                                       map[string]runtime.ActionTiming
}

func (p *phaseSums) hooks(t testing.TB) runtime.Option {
	return runtime.WithHooks(&runtime.Hooks{ActionDone: func(i runtime.ActionDoneInfo) {
		tm, o := i.Timing, i.Outcome
		if tm.Total() > o.Duration {
			t.Errorf("%s: phases sum to %v, more than the duration %v", o.ID, tm.Total(), o.Duration)
		}
		p.total += o.Duration
		p.resolve += tm.Resolve
		p.act += tm.Act
		p.settle += tm.Settle
		p.postcondition += tm.Postcondition
		p.evidence += tm.Evidence
		p.approval += tm.Approval
		if p.byAction == nil {
			p.byAction = map[string]runtime.ActionTiming{}
		}
		p.byAction[o.ID] = tm
	}})
}

func (p *phaseSums) report(b *testing.B) {
	n := float64(max(p.runs, 1))
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) / n }
	b.ReportMetric(ms(p.total), "action-ms/run")
	b.ReportMetric(ms(p.resolve), "resolve-ms/run")
	b.ReportMetric(ms(p.act), "act-ms/run")
	b.ReportMetric(ms(p.settle), "settle-ms/run")
	b.ReportMetric(ms(p.postcondition), "post-ms/run")
	b.ReportMetric(ms(p.evidence), "evidence-ms/run")
}

func (p *phaseSums) String() string {
	return fmt.Sprintf("actions %v: resolve %v act %v settle %v postcondition %v evidence %v",
		p.total, p.resolve, p.act, p.settle, p.postcondition, p.evidence)
}

// TestActionTimingLive: on the React-like page every action reports its
// breakdown through the hooks, phases summing to no more than its
// duration, and the phases where it must have spent time are non-zero.
func TestActionTimingLive(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	var p phaseSums
	res := execute(t, tctx(t, 60*time.Second), d, reactCap(s.Teller.Origin()), map[string]any{"query": "Rossi"}, p.hooks(t))
	wantState(t, res, runtime.StateCompleted, "")
	for _, id := range []string{"fill-query", "search"} {
		tm, ok := p.byAction[id]
		if !ok {
			t.Fatalf("no timing for %s", id)
		}
		if tm.Resolve <= 0 || tm.Act <= 0 || tm.Settle <= 0 || tm.Postcondition <= 0 || tm.Evidence <= 0 {
			t.Errorf("%s: a phase is missing: %+v", id, tm)
		}
		t.Logf("%s: resolve %v act %v settle %v postcondition %v evidence %v", id, tm.Resolve, tm.Act, tm.Settle, tm.Postcondition, tm.Evidence)
	}
}

// BenchmarkActionTiming reports where the actions of a run spend their
// time, per run, on the teller flow (server-rendered pages, a login form
// post, a search) and on the React-like page (a controlled input that
// re-renders on every keystroke, a fetch and a time-sliced render).
func BenchmarkActionTiming(b *testing.B) {
	b.Run("teller", func(b *testing.B) {
		d := shared(b)
		s := sites(b)
		c := tellerCapability(b, s)
		var p phaseSums
		for b.Loop() {
			res := execute(b, tctx(b, 60*time.Second), d, c,
				map[string]any{"username": "teller1", "password": "correct horse battery", "member_id": "100234"}, p.hooks(b))
			wantState(b, res, runtime.StateCompleted, "")
			p.runs++
		}
		p.report(b)
		b.Logf("teller, %d runs: %s", p.runs, &p)
	})
	b.Run("react", func(b *testing.B) {
		d := shared(b)
		s := sites(b)
		c := reactCap(s.Teller.Origin())
		var p phaseSums
		for b.Loop() {
			res := execute(b, tctx(b, 60*time.Second), d, c, map[string]any{"query": "Rossi"}, p.hooks(b))
			wantState(b, res, runtime.StateCompleted, "")
			p.runs++
		}
		p.report(b)
		b.Logf("react, %d runs: %s", p.runs, &p)
	})
}

// TestActionTimingSettleNoFixedQuiet: on the React-like page, typing into
// the controlled input (every keystroke re-renders the app) is settled by
// the round trips alone: its Settle waits on the quiet window only when a
// reply to a chaining request arrived meanwhile, and runs a DOM-quiet
// check only when a fetch or XHR load ended meanwhile (a late reply of
// the page load on a loaded machine, never the typing itself). The Search
// click's fetch is followed as a load until the renderer has its body,
// and Settle returns only after a DOM-quiet check of the page that came
// after it; the fetch opens no quiet window. The counts compared are the
// driver's own event facts, never durations measured by the test.
func TestActionTimingSettleNoFixedQuiet(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	ctx := tctx(t, 60*time.Second)
	if err := d.RestrictOrigins(ctx, runtime.OriginScope{Allowed: []string{s.Teller.Origin()}}); err != nil {
		t.Fatal(err)
	}
	if err := d.Navigate(ctx, s.Teller.URL()+testsite.ReactPath); err != nil {
		t.Fatal(err)
	}
	if err := d.Settle(ctx); err != nil {
		t.Fatal(err)
	}
	top, _, err := d.Frame(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	find := func(c locator.Candidate) runtime.Element {
		els, err := d.Find(ctx, top, nil, c)
		if err != nil || len(els) != 1 {
			t.Fatalf("Find %+v = %d, %v", c, len(els), err)
		}
		return els[0]
	}
	// facts returns the quiet-window waits, the chaining replies, the
	// DOM-quiet checks and the loads not ended.
	type fact struct{ waits, replies, checks uint64 }
	facts := func() (fact, int) {
		d.mu.Lock()
		defer d.mu.Unlock()
		return fact{d.causal.chainWaits, d.causal.chainReplies, d.causal.domChecks}, len(d.causal.loads)
	}
	box := find(locator.Candidate{Strategy: locator.Label, Label: "Search members", Exact: true})
	f0, _ := facts()
	if err := d.Act(ctx, box, runtime.Act{Kind: runtime.ActFill, Value: "Rossi"}); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := d.Settle(ctx); err != nil {
		t.Fatal(err)
	}
	t.Logf("settle after the fill: %v", time.Since(start))
	if f, _ := facts(); f.waits != f0.waits && f.replies == f0.replies {
		t.Errorf("the fill's settle waited on the quiet window %d times with no chaining reply", f.waits-f0.waits)
	}
	f0, _ = facts()
	d.mu.Lock()
	landed0 := len(d.causal.landed)
	d.mu.Unlock()
	if err := d.Act(ctx, find(role("button", "Search")), runtime.Act{Kind: runtime.ActClick}); err != nil {
		t.Fatal(err)
	}
	start = time.Now()
	if err := d.Settle(ctx); err != nil {
		t.Fatal(err)
	}
	f, open := facts()
	t.Logf("settle after the search click: %v", time.Since(start))
	if landed0 > 0 {
		t.Logf("a load of the page had ended before the click (%d frames to check)", landed0)
	}
	if f.checks == f0.checks {
		t.Error("no DOM-quiet check after the search's fetch: the barrier did not follow its load")
	}
	if open != 0 {
		t.Errorf("Settle returned with %d fetch or XHR loads not ended", open)
	}
	if f.replies != f0.replies && f.waits != f0.waits {
		t.Errorf("the search's fetch opened the quiet window (%d replies, %d waits): its load is followed instead", f.replies-f0.replies, f.waits-f0.waits)
	}
}
