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
// reply to a chaining request arrived meanwhile (a late reply of the page
// load on a loaded machine, never the typing itself). The Search click's
// fetch reply opens the quiet window, and Settle returns only once it has
// passed. The counts and times compared are the driver's own event facts,
// never durations measured by the test.
func TestActionTimingSettleNoFixedQuiet(t *testing.T) {
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
	// facts returns the quiet-window waits, the chaining replies and the
	// end of the current quiet window.
	facts := func() (waits, replies uint64, until time.Time) {
		d.mu.Lock()
		defer d.mu.Unlock()
		return d.causal.chainWaits, d.causal.chainReplies, d.causal.chainUntil
	}
	box := find(locator.Candidate{Strategy: locator.Label, Label: "Search members", Exact: true})
	waits0, replies0, _ := facts()
	if err := d.Act(ctx, box, runtime.Act{Kind: runtime.ActFill, Value: "Rossi"}); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := d.Settle(ctx); err != nil {
		t.Fatal(err)
	}
	t.Logf("settle after the fill: %v", time.Since(start))
	if waits, replies, _ := facts(); waits != waits0 && replies == replies0 {
		t.Errorf("the fill's settle waited on the quiet window %d times with no chaining reply", waits-waits0)
	}
	_, replies0, _ = facts()
	if err := d.Act(ctx, find(role("button", "Search")), runtime.Act{Kind: runtime.ActClick}); err != nil {
		t.Fatal(err)
	}
	start = time.Now()
	if err := d.Settle(ctx); err != nil {
		t.Fatal(err)
	}
	// Read the facts first: a reply after Settle returned would move the
	// window on.
	_, replies, until := facts()
	returned := time.Now()
	t.Logf("settle after the search click: %v", returned.Sub(start))
	if replies == replies0 {
		t.Error("the search's fetch reply was not seen by the barrier")
	}
	if returned.Before(until) {
		t.Errorf("Settle returned %v before the quiet window after the fetch reply ended", until.Sub(returned))
	}
}
