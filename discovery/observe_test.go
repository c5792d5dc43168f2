package discovery

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestObserveGuidedRecordsBeforeAfter(t *testing.T) {
	ev := observeLedger(t)
	if err := ev.Validate(); err != nil {
		t.Fatal(err)
	}
	if ev.Mode != ModeGuided || ev.EndReason != EndMaxSnapshots || ev.Snapshots != 6 {
		t.Fatalf("mode %s end %s snapshots %d", ev.Mode, ev.EndReason, ev.Snapshots)
	}
	// page1 (baseline), page1 (no change), page2, page3, page2, page2 (no change).
	if got := len(ev.Observations); got != 4 {
		t.Fatalf("observations = %d, want 4", got)
	}
	base := ev.Observations[0]
	if base.Kind != KindBaseline || base.URLPath != "/billing" || len(base.Frames) != 3 || len(base.Controls) != 8 {
		t.Fatalf("baseline = %+v", base)
	}
	p2 := ev.Observations[1]
	if p2.Kind != KindChange || len(p2.Appeared) != 1 || p2.Appeared[0].Name != "Previous page" {
		t.Fatalf("page 2 appeared = %+v", p2.Appeared)
	}
	if len(p2.Changed) != 1 || p2.Changed[0].Before.Text != "Page 1 of 3" || p2.Changed[0].After.Text != "Page 2 of 3" {
		t.Fatalf("page 2 changed = %+v", p2.Changed)
	}
	if !slices.Equal(p2.Changed[0].Control.Frame, ledger) {
		t.Fatalf("frame path = %v", p2.Changed[0].Control.Frame)
	}
	p3 := ev.Observations[2]
	if len(p3.Disappeared) != 1 || p3.Disappeared[0].Name != "Next page" {
		t.Fatalf("page 3 disappeared = %+v", p3.Disappeared)
	}
	if p3.PathChanged || p3.Frames != nil {
		t.Fatalf("page 3 reports a path or frame change")
	}
	if !slices.Equal(ev.Site.Origins, []string{shell, work}) {
		t.Fatalf("origins = %v", ev.Site.Origins)
	}
}

func TestReplayReconstructsEverySnapshot(t *testing.T) {
	pages := []*RawSnapshot{ledgerPage(1), ledgerPage(2), ledgerPage(3), ledgerPage(2), ledgerPage(1)}
	p := &fakePage{script: snaps(pages...)}
	ev, err := Observe(tctx(t, 10*time.Second), p, fastOpts(WithMaxSnapshots(len(pages)))...)
	if err != nil {
		t.Fatal(err)
	}
	var s sanitizer
	s = sanitizer{maxString: DefaultMaxStringLen, maxControls: DefaultMaxControls, counts: &RedactionCounts{}}
	i := 0
	ev.Replay(func(o *ObservationStep, cs []Control, frames []FrameRecord) bool {
		want := s.snapshot(pages[i])
		sortc := cmpopts.SortSlices(func(a, b Control) bool { return a.key()+a.State.Text < b.key()+b.State.Text })
		if d := cmp.Diff(want.Controls, cs, sortc, cmpopts.EquateEmpty()); d != "" {
			t.Errorf("replay of %s differs (-want +got):\n%s", o.ID, d)
		}
		if !framesEqual(want.Frames, frames) {
			t.Errorf("frames of %s differ", o.ID)
		}
		i++
		return true
	})
	if i != len(pages) {
		t.Fatalf("replayed %d observations, want %d", i, len(pages))
	}
}

func TestObserveRedactsBeforeRecording(t *testing.T) {
	raw := &RawSnapshot{
		Origin: shell, Path: "/members/100234?tab=balances#x", Frames: []RawFrame{topFrame(shell)},
		Controls: []RawControl{
			{Role: "textbox", Name: "Member ID", Label: "Member ID", Placeholder: "e.g. 100234", Visible: true},
			{Role: "button", Name: "Search", TestID: "member-search-submit", Visible: true},
			{Role: "link", Name: "Write to mario.rossi@example.it", TestID: "contact-mario.rossi@example.it", Visible: true},
			{Role: "heading", Name: "Conto IT60 X054 2811 1010 0000 0123 456", Visible: true},
			{Role: "status", Text: "Card 4111 1111 1111 1111 saved", Visible: true},
			{Role: "textbox", Name: "password=hunter22", Visible: true},
			{Role: "row", Name: "Ada Lovelace $12,480.55", Visible: true},
			{Role: "cell", Name: "$12,480.55", Visible: true},
		},
	}
	p := &fakePage{script: snaps(raw)}
	ev, err := Observe(tctx(t, 5*time.Second), p, fastOpts(WithMaxSnapshots(1))...)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(ev)
	for _, leak := range []string{"100234", "mario.rossi", "IT60", "4111", "hunter22", "12,480.55", "tab=balances", "Ada Lovelace"} {
		if strings.Contains(string(b), leak) {
			t.Errorf("evidence holds %q", leak)
		}
	}
	cs := ev.Observations[0].Controls
	if len(cs) != 6 {
		t.Fatalf("controls = %d, want 6 (row and cell dropped)", len(cs))
	}
	if got := ev.Observations[0].URLPath; got != "/members/"+Marker {
		t.Errorf("url path = %q", got)
	}
	if cs[0].Placeholder != "e.g. "+Marker || cs[0].Name != "Member ID" {
		t.Errorf("textbox = %+v", cs[0])
	}
	if cs[1].TestID != "member-search-submit" || cs[1].TestIDWithheld {
		t.Errorf("a stable test id was withheld: %+v", cs[1])
	}
	if cs[2].TestID != "" || !cs[2].TestIDWithheld || cs[2].Name != "Write to "+Marker {
		t.Errorf("link = %+v", cs[2])
	}
	if cs[4].State.Text != "Card "+Marker+" saved" {
		t.Errorf("status text = %q", cs[4].State.Text)
	}
	if cs[5].Name != Marker {
		t.Errorf("secret-shaped name = %q", cs[5].Name)
	}
	r := ev.Redactions
	want := map[string]int{"digit_run": 2, "email": 1, "iban": 1, "payment_card": 1}
	if d := cmp.Diff(want, r.Identifiers); d != "" {
		t.Errorf("identifier counts (-want +got):\n%s", d)
	}
	if r.TestIDsWithheld != 1 || r.SecretsWithheld != 1 || r.ControlsDropped != 2 {
		t.Errorf("counts = %+v", r)
	}
}

func TestObserveBounds(t *testing.T) {
	long := strings.Repeat("Scarica estratto conto ", 100)
	var cs []RawControl
	for i := range 50 {
		cs = append(cs, RawControl{Role: "button", Name: long + string(rune('a'+i%26)), Visible: true})
	}
	raw := &RawSnapshot{Origin: shell, Path: "/x", Frames: []RawFrame{topFrame(shell)}, Controls: cs, TotalControls: 50}
	p := &fakePage{script: snaps(raw)}
	ev, err := Observe(tctx(t, 5*time.Second), p, fastOpts(WithMaxSnapshots(3), WithMaxControls(10), WithMaxStringLen(40))...)
	if err != nil {
		t.Fatal(err)
	}
	if p.calls != 3 {
		t.Fatalf("snapshots taken = %d, want 3", p.calls)
	}
	for _, l := range p.limits {
		if l.MaxControls != 10 || l.MaxStringLen != rawStringLen(40) || l.MaxFrames != DefaultMaxFrames || l.MaxFrameDepth != 5 {
			t.Fatalf("limits = %+v", l)
		}
	}
	o := ev.Observations[0]
	if len(o.Controls) != 10 || !o.Truncated || o.TotalControls != 50 {
		t.Fatalf("controls %d truncated %v total %d", len(o.Controls), o.Truncated, o.TotalControls)
	}
	for _, c := range o.Controls {
		if n := len([]rune(c.Name)); n > 40 {
			t.Fatalf("name of %d runes", n)
		}
	}
	if ev.Redactions.ControlsDropped == 0 || ev.Redactions.StringsTruncated == 0 {
		t.Errorf("counts = %+v", ev.Redactions)
	}
}

func TestObserveMinInterval(t *testing.T) {
	p := &fakePage{script: snaps(ledgerPage(1))}
	start := time.Now()
	if _, err := Observe(tctx(t, 5*time.Second), p, WithMinInterval(50*time.Millisecond), WithMaxSnapshots(5)); err != nil {
		t.Fatal(err)
	}
	// Five snapshots need four intervals. (A lower bound only: no timed
	// upper bound in tests.)
	if el := time.Since(start); el < 4*50*time.Millisecond {
		t.Fatalf("5 snapshots in %v: the interval was not honoured", el)
	}
}

func TestObserveStopAndCancel(t *testing.T) {
	t.Run("stop", func(t *testing.T) {
		stop := make(chan struct{})
		p := &fakePage{script: snaps(ledgerPage(1))}
		var n int
		hooks := Hooks{SnapshotTaken: func(i int, err error) {
			n = i
			if i == 3 {
				close(stop)
			}
		}}
		ev, err := Observe(tctx(t, 5*time.Second), p, fastOpts(WithStop(stop), WithHooks(hooks))...)
		if err != nil || ev.EndReason != EndStopped || n != 3 {
			t.Fatalf("err %v end %v snapshots %d", err, ev.EndReason, n)
		}
	})
	t.Run("cancel keeps the evidence", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		p := &fakePage{script: snaps(ledgerPage(1), ledgerPage(2))}
		hooks := Hooks{ObservationRecorded: func(o ObservationStep) {
			if o.Seq == 2 {
				cancel()
			}
		}}
		ev, err := Observe(ctx, p, fastOpts(WithHooks(hooks))...)
		if !errors.Is(err, context.Canceled) || ev == nil || ev.EndReason != EndCanceled || len(ev.Observations) != 2 {
			t.Fatalf("err %v ev %+v", err, ev)
		}
		if verr := ev.Validate(); verr != nil {
			t.Fatal(verr)
		}
	})
	t.Run("max duration", func(t *testing.T) {
		now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		clock := func() time.Time { now = now.Add(time.Minute); return now }
		p := &fakePage{script: snaps(ledgerPage(1))}
		ev, err := Observe(tctx(t, 5*time.Second), p, fastOpts(WithClock(clock), WithMaxDuration(5*time.Minute))...)
		if err != nil || ev.EndReason != EndMaxDuration {
			t.Fatalf("err %v end %s", err, ev.EndReason)
		}
	})
	t.Run("max evidence bytes", func(t *testing.T) {
		var raws []*RawSnapshot
		for i := range 40 {
			r := ledgerPage(1 + i%3)
			raws = append(raws, r)
		}
		p := &fakePage{script: snaps(raws...)}
		ev, err := Observe(tctx(t, 5*time.Second), p, fastOpts(WithMaxEvidenceBytes(8192))...)
		if err != nil || ev.EndReason != EndMaxEvidence {
			t.Fatalf("err %v end %s", err, ev.EndReason)
		}
		b, _ := json.Marshal(ev)
		if len(b) > 8192 {
			t.Fatalf("evidence of %d bytes over an 8192 bound", len(b))
		}
	})
}

func TestObserveSnapshotErrors(t *testing.T) {
	boom := errors.New("Execution context was destroyed")
	t.Run("transient", func(t *testing.T) {
		p := &fakePage{script: []fakeSnap{{raw: ledgerPage(1)}, {err: boom}, {err: boom}, {raw: ledgerPage(2)}}}
		ev, err := Observe(tctx(t, 5*time.Second), p, fastOpts(WithMaxSnapshots(4))...)
		if err != nil || ev.SnapshotErrors != 2 || len(ev.Observations) != 2 {
			t.Fatalf("err %v errors %d observations %d", err, ev.SnapshotErrors, len(ev.Observations))
		}
	})
	t.Run("busy page never ends the session", func(t *testing.T) {
		busy := fmt.Errorf("%w: native dialog open", ErrPageBusy)
		script := []fakeSnap{{raw: ledgerPage(1)}}
		for range 2 * MaxConsecutiveSnapshotErrors {
			script = append(script, fakeSnap{err: busy})
		}
		script = append(script, fakeSnap{raw: ledgerPage(2)})
		p := &fakePage{script: script}
		ev, err := Observe(tctx(t, 5*time.Second), p, fastOpts(WithMaxSnapshots(len(script)))...)
		if err != nil || ev.SnapshotErrors != 2*MaxConsecutiveSnapshotErrors || len(ev.Observations) != 2 {
			t.Fatalf("err %v errors %d observations %d", err, ev.SnapshotErrors, len(ev.Observations))
		}
	})
	t.Run("fatal", func(t *testing.T) {
		p := &fakePage{script: []fakeSnap{{raw: ledgerPage(1)}, {err: boom}}}
		ev, err := Observe(tctx(t, 5*time.Second), p, fastOpts()...)
		if !errors.Is(err, ErrSnapshot) || ev == nil || ev.EndReason != EndSnapshotFailed || len(ev.Observations) != 1 {
			t.Fatalf("err %v ev %+v", err, ev)
		}
	})
}

func TestObserveScope(t *testing.T) {
	outside := "https://mail.example.com"
	raws := []*RawSnapshot{
		ledgerPage(1),
		{Origin: outside, Path: "/inbox/mario.rossi@example.it", Frames: []RawFrame{topFrame(outside)},
			Controls: []RawControl{btn(0, "Compose")}, TotalControls: 1},
		{Origin: "http://10.0.0.5:8080", Path: "/", Frames: []RawFrame{topFrame("http://10.0.0.5:8080")}, Controls: []RawControl{btn(0, "x")}},
		ledgerPage(2),
	}
	// The ledger frame is on an origin outside the allowed ones: withheld.
	p := &fakePage{script: snaps(raws...)}
	ev, err := Observe(tctx(t, 5*time.Second), p, fastOpts(WithMaxSnapshots(4), WithAllowedOrigins(shell, outside))...)
	if err != nil {
		t.Fatal(err)
	}
	if err := ev.Validate(); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(ev)
	for _, leak := range []string{"mario", "10.0.0.5", work, "Export CSV"} {
		if strings.Contains(string(b), leak) {
			t.Errorf("evidence holds %q", leak)
		}
	}
	if !slices.Equal(ev.Site.Origins, []string{shell, outside}) {
		t.Errorf("origins = %v", ev.Site.Origins)
	}
	o := ev.Observations
	if len(o) != 4 || !o[1].PathChanged || o[1].URLPath != "/inbox/"+Marker || !o[2].OutOfScope || o[2].Origin != "" {
		t.Fatalf("observations = %+v", o)
	}
	if ev.Redactions.OutOfScope != 1 || ev.Redactions.FramesWithheld == 0 || ev.Redactions.ControlsWithheld == 0 {
		t.Errorf("counts = %+v", ev.Redactions)
	}
}

func TestObserveFrameSelectorWithIdentifier(t *testing.T) {
	raw := ledgerPage(1)
	raw.Frames[1].Path = []string{"iframe#session-550e8400-e29b-41d4-a716-446655440000"}
	raw.Frames[2].Path = []string{raw.Frames[1].Path[0], "iframe#ledger"}
	p := &fakePage{script: snaps(raw)}
	ev, err := Observe(tctx(t, 5*time.Second), p, fastOpts(WithMaxSnapshots(1))...)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(ev.Observations[0].Frames); n != 1 || ev.Redactions.FramesWithheld != 2 {
		t.Fatalf("frames %d withheld %d", n, ev.Redactions.FramesWithheld)
	}
}

func TestObserveOptions(t *testing.T) {
	p := &fakePage{script: snaps(ledgerPage(1))}
	bad := [][]Option{
		{WithMode("bogus")},
		{WithMinInterval(time.Millisecond)},
		{WithMaxSnapshots(0)},
		{WithMaxControls(MaxControlsCeiling + 1)},
		{WithMaxStringLen(5)},
		{WithMaxFrames(0)},
		{WithMaxDuration(0)},
		{WithMaxEvidenceBytes(10)},
		{WithMaxSteps(0)},
		{WithAllowedOrigins("http://example.com")},
		{WithAllowedOrigins(shell, shell)},
		{WithMode(ModeAutonomous), WithAllowedOrigins(shell)},
		{WithMode(ModeHybrid), WithExplorer(ExplorerFunc(doneExplorer))},
	}
	for i, opts := range bad {
		if _, err := Observe(context.Background(), p, opts...); !errors.Is(err, ErrInvalidOption) {
			t.Errorf("case %d: err = %v", i, err)
		}
	}
	if _, err := Observe(context.Background(), nil); !errors.Is(err, ErrInvalidOption) {
		t.Errorf("nil page: %v", err)
	}
}

func doneExplorer(context.Context, Observation) (Step, error) { return Step{Kind: StepDone}, nil }

func TestRunIDNeverLooksLikeAnIdentifier(t *testing.T) {
	for range 200000 {
		id := newRunID()
		if !validRunID(id) || ContainsIdentifierForTest(id) {
			t.Fatalf("run id %q", id)
		}
	}
}
