package discovery

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/locator"
)

func roleCand(role, name string) locator.Candidate {
	return locator.Candidate{Strategy: locator.Role, Role: role, Name: name, Exact: true}
}

// probeSnapshot is a sanitized snapshot with a form in the ledger frame.
func probeSnapshot() *Snapshot {
	raw := ledgerPage(2)
	raw.Controls = append(raw.Controls,
		RawControl{Frame: 2, Role: "textbox", Name: "Customer", Label: "Customer", Visible: true},
		RawControl{Frame: 2, Role: "checkbox", Name: "Only open", Label: "Only open", Visible: true, Checked: "false"},
		RawControl{Frame: 2, Role: "combobox", Name: "Status", Visible: true},
		RawControl{Frame: 2, Role: "button", Name: "Archive", Visible: true, Disabled: true},
		RawControl{Frame: 2, Role: "button", Name: "Delete draft", Visible: true},
		RawControl{Frame: 2, Role: "button", Name: "Details", Visible: true},
		RawControl{Frame: 2, Role: "button", Name: "Details", Visible: true},
		RawControl{Frame: 0, Role: "button", Name: "Help", Visible: true},
	)
	z := sanitizer{maxString: DefaultMaxStringLen, maxControls: DefaultMaxControls, counts: &RedactionCounts{}}
	return z.snapshot(raw)
}

func TestCheckStep(t *testing.T) {
	snap := probeSnapshot()
	pol := Policy{AllowedOrigins: []string{shell, work}}
	act := func(k ActKind, eff capability.Effect, frame []string, c locator.Candidate, v string) Step {
		return Step{Kind: StepAct, Act: k, Effect: eff, Frame: frame, Locator: c, Value: v}
	}
	ro, rv, cq := capability.EffectReadOnly, capability.EffectReversible, capability.EffectConsequential
	tests := []struct {
		name   string
		step   Step
		pol    *Policy
		reason RefusalReason // "" when accepted
	}{
		{"next page", act(ActClick, ro, ledger, roleCand("button", "Next page"), ""), nil, ""},
		{"wait", Step{Kind: StepWait}, nil, ""},
		{"done", Step{Kind: StepDone}, nil, ""},
		{"fill", act(ActFill, rv, ledger, locator.Candidate{Strategy: locator.Label, Label: "Customer"}, "acme"), nil, ""},
		{"check", act(ActCheck, rv, ledger, roleCand("checkbox", "Only open"), ""), nil, ""},
		{"top frame", act(ActClick, ro, nil, roleCand("button", "Help"), ""), nil, ""},
		{"unknown kind", Step{Kind: "jump"}, nil, ReasonUnknownStep},
		{"press", act("press", ro, ledger, roleCand("button", "Next page"), ""), nil, ReasonUnsupportedAct},
		{"consequential", act(ActClick, cq, ledger, roleCand("button", "Issue invoice"), ""), nil, ReasonConsequential},
		{"no effect", act(ActClick, "", ledger, roleCand("button", "Next page"), ""), nil, ReasonUnknownEffect},
		{"consequential name", act(ActClick, ro, ledger, roleCand("button", "Issue invoice"), ""), nil, ReasonConsequentialControl},
		{"italian word", act(ActClick, ro, ledger, roleCand("button", "Delete draft"), ""), &Policy{AllowedOrigins: pol.AllowedOrigins, ConsequentialWords: []string{"elimina"}}, ""},
		{"delete", act(ActClick, ro, ledger, roleCand("button", "Delete draft"), ""), nil, ReasonConsequentialControl},
		{"css", act(ActClick, ro, ledger, locator.Candidate{Strategy: locator.CSS, CSS: "#next-page"}, ""), nil, ReasonNotSemantic},
		{"bad strategy", act(ActClick, ro, ledger, locator.Candidate{Strategy: "xpath"}, ""), nil, ReasonLocator},
		{"marker", act(ActClick, ro, ledger, roleCand("button", "Next "+Marker), ""), nil, ReasonLocator},
		{"template", act(ActClick, ro, ledger, roleCand("button", "{{x}}"), ""), nil, ReasonLocator},
		{"wrong frame", act(ActClick, ro, ledger[:1], roleCand("button", "Next page"), ""), nil, ReasonNotObserved},
		{"unknown frame", act(ActClick, ro, []string{"iframe#other"}, roleCand("button", "Next page"), ""), nil, ReasonFrame},
		{"frame origin", act(ActClick, ro, ledger, roleCand("button", "Next page"), ""), &Policy{AllowedOrigins: []string{shell}}, ReasonOrigin},
		{"page origin", act(ActClick, ro, ledger, roleCand("button", "Next page"), ""), &Policy{AllowedOrigins: []string{work}}, ReasonOrigin},
		{"not observed", act(ActClick, ro, ledger, roleCand("button", "Refresh"), ""), nil, ReasonNotObserved},
		{"ambiguous", act(ActClick, ro, ledger, roleCand("button", "Details"), ""), nil, ReasonAmbiguous},
		{"disabled", act(ActClick, ro, ledger, roleCand("button", "Archive"), ""), nil, ReasonNotInteractable},
		{"hidden marker role", act(ActClick, ro, ledger, roleCand("heading", "Invoices"), ""), nil, ReasonUnsupportedAct},
		{"fill a button", act(ActFill, rv, ledger, roleCand("button", "Next page"), "x"), nil, ReasonUnsupportedAct},
		{"identifier value", act(ActFill, rv, ledger, roleCand("textbox", "Customer"), "mario.rossi@example.it"), nil, ReasonValue},
		{"secret value", act(ActFill, rv, ledger, roleCand("textbox", "Customer"), "password=hunter22"), nil, ReasonValue},
		{"blank value", act(ActFill, rv, ledger, roleCand("textbox", "Customer"), " "), nil, ReasonValue},
		{"click with value", act(ActClick, ro, ledger, roleCand("button", "Next page"), "x"), nil, ReasonValue},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := pol
			if tt.pol != nil {
				p = *tt.pol
			}
			err := CheckStep(snap, tt.step, p)
			if tt.reason == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			var re *RefusalError
			if !errors.As(err, &re) || !errors.Is(err, ErrRefused) || re.Refusal.Reason != tt.reason {
				t.Fatalf("err = %v, want reason %s", err, tt.reason)
			}
			if strings.TrimSpace(tt.step.Value) != "" && strings.Contains(err.Error(), tt.step.Value) {
				t.Fatalf("the refusal echoes the value")
			}
		})
	}
}

// scriptedExplorer proposes steps in order, then done; it records what it
// saw.
type scriptedExplorer struct {
	steps []Step
	seen  []Observation
}

func (e *scriptedExplorer) Next(_ context.Context, o Observation) (Step, error) {
	e.seen = append(e.seen, o)
	if len(e.seen) > len(e.steps) {
		return Step{Kind: StepDone}, nil
	}
	return e.steps[len(e.seen)-1], nil
}

func TestObserveAutonomous(t *testing.T) {
	page := &actorPage{states: []*RawSnapshot{ledgerPage(1), ledgerPage(2), ledgerPage(3)}}
	ex := &scriptedExplorer{steps: []Step{
		{Kind: StepAct, Act: ActClick, Effect: capability.EffectReadOnly, Frame: ledger, Locator: roleCand("button", "Next page"), Intent: "See page 2"},
		{Kind: StepAct, Act: ActClick, Effect: capability.EffectConsequential, Frame: ledger, Locator: roleCand("button", "Issue invoice")},
		{Kind: StepAct, Act: ActClick, Effect: capability.EffectReadOnly, Frame: ledger, Locator: roleCand("button", "Issue invoice")},
		{Kind: StepWait},
		{Kind: StepAct, Act: ActClick, Effect: capability.EffectReversible, Frame: ledger, Locator: roleCand("button", "Next page"), Intent: "See page 3"},
	}}
	ev, err := Observe(tctx(t, 10*time.Second), page, fastOpts(WithMode(ModeAutonomous), WithExplorer(ex), WithAllowedOrigins(shell, work))...)
	if err != nil {
		t.Fatal(err)
	}
	if ev.EndReason != EndExplorerDone || ev.Steps != 6 {
		t.Fatalf("end %s steps %d", ev.EndReason, ev.Steps)
	}
	if len(page.acts) != 2 {
		t.Fatalf("page acted %d times, want 2 (consequential steps refused)", len(page.acts))
	}
	if len(ev.Refusals) != 2 || ev.Refusals[0].Reason != ReasonConsequential || ev.Refusals[1].Reason != ReasonConsequentialControl {
		t.Fatalf("refusals = %+v", ev.Refusals)
	}
	if ex.seen[2].Refusal == nil || ex.seen[2].Refusal.Reason != ReasonConsequential {
		t.Fatalf("the explorer was not shown the refusal")
	}
	kinds := []ObservationKind{}
	for _, o := range ev.Observations {
		kinds = append(kinds, o.Kind)
	}
	if want := []ObservationKind{KindBaseline, KindExplore, KindExplore, KindExplore}; !equalKinds(kinds, want) {
		t.Fatalf("observation kinds = %v, want %v", kinds, want)
	}
	if s := ev.Observations[1].Step; s == nil || s.Act != ActClick || s.Locator.Name != "Next page" || s.Intent != "See page 2" {
		t.Fatalf("step record = %+v", s)
	}
	if err := ev.Validate(); err != nil {
		t.Fatal(err)
	}
}

func equalKinds(a, b []ObservationKind) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestObserveExplorationNeverRecordsValues(t *testing.T) {
	raw := ledgerPage(1)
	raw.Controls = append(raw.Controls, RawControl{Frame: 2, Role: "textbox", Name: "Customer", Visible: true})
	page := &actorPage{states: []*RawSnapshot{raw}}
	ex := &scriptedExplorer{steps: []Step{
		{Kind: StepAct, Act: ActFill, Effect: capability.EffectReversible, Frame: ledger, Locator: roleCand("textbox", "Customer"), Value: "zebra quartz"},
	}}
	ev, err := Observe(tctx(t, 10*time.Second), page, fastOpts(WithMode(ModeAutonomous), WithExplorer(ex), WithAllowedOrigins(shell, work))...)
	if err != nil {
		t.Fatal(err)
	}
	if len(page.acts) != 1 || page.acts[0].Value != "zebra quartz" {
		t.Fatalf("acts = %+v", page.acts)
	}
	b, _ := json.Marshal(ev)
	if strings.Contains(string(b), "zebra") || !strings.Contains(string(b), `"value_supplied":true`) {
		t.Fatalf("value recorded or not marked: %s", b)
	}
}

func TestObserveExplorationFailures(t *testing.T) {
	t.Run("act error is a refusal without the error text", func(t *testing.T) {
		page := &actorPage{states: []*RawSnapshot{ledgerPage(1)}, fail: true}
		ex := &scriptedExplorer{steps: []Step{
			{Kind: StepAct, Act: ActClick, Effect: capability.EffectReadOnly, Frame: ledger, Locator: roleCand("button", "Next page")},
		}}
		ev, err := Observe(tctx(t, 10*time.Second), page, fastOpts(WithMode(ModeAutonomous), WithExplorer(ex), WithAllowedOrigins(shell, work))...)
		if err != nil || len(ev.Refusals) != 1 || ev.Refusals[0].Reason != ReasonActFailed {
			t.Fatalf("err %v refusals %+v", err, ev.Refusals)
		}
		if b, _ := json.Marshal(ev); strings.Contains(string(b), "secret typed") {
			t.Fatal("the actor's error text was recorded")
		}
	})
	t.Run("page cannot act", func(t *testing.T) {
		page := &fakePage{script: snaps(ledgerPage(1))}
		ex := &scriptedExplorer{steps: []Step{
			{Kind: StepAct, Act: ActClick, Effect: capability.EffectReadOnly, Frame: ledger, Locator: roleCand("button", "Next page")},
		}}
		ev, err := Observe(tctx(t, 10*time.Second), page, fastOpts(WithMode(ModeAutonomous), WithExplorer(ex), WithAllowedOrigins(shell, work))...)
		if err != nil || len(ev.Refusals) != 1 || ev.Refusals[0].Reason != ReasonNoActor {
			t.Fatalf("err %v refusals %+v", err, ev.Refusals)
		}
	})
	t.Run("max refusals", func(t *testing.T) {
		page := &actorPage{states: []*RawSnapshot{ledgerPage(1)}}
		bad := Step{Kind: StepAct, Act: ActClick, Effect: capability.EffectConsequential, Frame: ledger, Locator: roleCand("button", "Issue invoice")}
		ex := &scriptedExplorer{steps: []Step{bad, bad, bad, bad}}
		ev, err := Observe(tctx(t, 10*time.Second), page, fastOpts(WithMode(ModeAutonomous), WithExplorer(ex), WithAllowedOrigins(shell, work), WithMaxRefusals(3))...)
		if err != nil || ev.EndReason != EndMaxRefusals || len(ev.Refusals) != 3 || len(page.acts) != 0 {
			t.Fatalf("err %v end %s refusals %d acts %d", err, ev.EndReason, len(ev.Refusals), len(page.acts))
		}
	})
	t.Run("explorer error", func(t *testing.T) {
		page := &actorPage{states: []*RawSnapshot{ledgerPage(1)}}
		ex := ExplorerFunc(func(context.Context, Observation) (Step, error) { return Step{}, errors.New("model offline") })
		ev, err := Observe(tctx(t, 10*time.Second), page, fastOpts(WithMode(ModeAutonomous), WithExplorer(ex), WithAllowedOrigins(shell, work))...)
		if !errors.Is(err, ErrExplorer) || ev == nil || ev.EndReason != EndExplorerFailed {
			t.Fatalf("err %v ev %+v", err, ev)
		}
	})
	t.Run("max steps", func(t *testing.T) {
		page := &actorPage{states: []*RawSnapshot{ledgerPage(1)}}
		ex := ExplorerFunc(func(context.Context, Observation) (Step, error) { return Step{Kind: StepWait}, nil })
		ev, err := Observe(tctx(t, 10*time.Second), page, fastOpts(WithMode(ModeAutonomous), WithExplorer(ex), WithAllowedOrigins(shell, work), WithMaxSteps(4))...)
		if err != nil || ev.EndReason != EndMaxSteps || ev.Steps != 4 || len(ev.Observations) != 5 {
			t.Fatalf("err %v end %s steps %d observations %d", err, ev.EndReason, ev.Steps, len(ev.Observations))
		}
	})
	t.Run("leaving the allowed origins ends exploration", func(t *testing.T) {
		out := &RawSnapshot{Origin: "https://elsewhere.example", Path: "/", Frames: []RawFrame{topFrame("https://elsewhere.example")}}
		page := &actorPage{states: []*RawSnapshot{ledgerPage(1), out}}
		ex := &scriptedExplorer{steps: []Step{
			{Kind: StepAct, Act: ActClick, Effect: capability.EffectReadOnly, Frame: ledger, Locator: roleCand("button", "Next page")},
			{Kind: StepWait},
		}}
		ev, err := Observe(tctx(t, 10*time.Second), page, fastOpts(WithMode(ModeAutonomous), WithExplorer(ex), WithAllowedOrigins(shell, work))...)
		if err != nil || ev.EndReason != EndLeftOrigins || !ev.Observations[1].OutOfScope {
			t.Fatalf("err %v end %s", err, ev.EndReason)
		}
	})
}

func TestObserveHybrid(t *testing.T) {
	stop := make(chan struct{})
	page := &actorPage{states: []*RawSnapshot{ledgerPage(1), ledgerPage(2)}}
	ex := &scriptedExplorer{steps: []Step{
		{Kind: StepAct, Act: ActClick, Effect: capability.EffectReadOnly, Frame: ledger, Locator: roleCand("button", "Next page")},
	}}
	hooks := Hooks{SnapshotTaken: func(n int, _ error) {
		if n == 2 {
			close(stop)
		}
	}}
	ev, err := Observe(tctx(t, 10*time.Second), page, fastOpts(WithMode(ModeHybrid), WithExplorer(ex), WithAllowedOrigins(shell, work), WithStop(stop), WithHooks(hooks))...)
	if err != nil {
		t.Fatal(err)
	}
	if ev.Mode != ModeHybrid || ev.EndReason != EndExplorerDone || len(page.acts) != 1 || len(ex.seen) != 2 {
		t.Fatalf("end %s acts %d explorer calls %d", ev.EndReason, len(page.acts), len(ex.seen))
	}
	if ev.Observations[0].Kind != KindBaseline || ev.Observations[len(ev.Observations)-1].Kind != KindExplore {
		t.Fatalf("observations = %+v", ev.Observations)
	}
}
