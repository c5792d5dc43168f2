package discovery

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/vera-run/vera/capability"
)

const (
	shell = "http://127.0.0.1:41001"
	work  = "http://localhost:41002"
)

var ledger = []string{"iframe#workspace", "iframe#ledger"}

// fakePage replays scripted snapshots: snapshot i is script[min(i, len-1)].
// An entry with err set fails. It records every limit it was given.
type fakePage struct {
	mu     sync.Mutex
	script []fakeSnap
	calls  int
	limits []SnapshotLimits
}

type fakeSnap struct {
	raw *RawSnapshot
	err error
}

func (p *fakePage) Snapshot(ctx context.Context, l SnapshotLimits) (*RawSnapshot, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.limits = append(p.limits, l)
	s := p.script[min(p.calls, len(p.script)-1)]
	p.calls++
	if s.err != nil {
		return nil, s.err
	}
	cp := *s.raw
	cp.Controls = slices.Clone(s.raw.Controls)
	cp.Frames = slices.Clone(s.raw.Frames)
	if l.MaxControls > 0 && len(cp.Controls) > l.MaxControls {
		cp.TotalControls = len(cp.Controls)
		cp.Controls = cp.Controls[:l.MaxControls]
	}
	return &cp, nil
}

// actorPage is a fakePage whose state moves on with every action: act i
// switches the script to state i+1.
type actorPage struct {
	fakePage
	states []*RawSnapshot
	acts   []Action
	fail   bool
}

func (p *actorPage) Snapshot(ctx context.Context, l SnapshotLimits) (*RawSnapshot, error) {
	p.mu.Lock()
	st := p.states[min(len(p.acts), len(p.states)-1)]
	p.mu.Unlock()
	cp := *st
	cp.Controls = slices.Clone(st.Controls)
	return &cp, nil
}

func (p *actorPage) Act(ctx context.Context, a Action) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.fail {
		return errors.New("element not interactable: value was 'secret typed text'")
	}
	p.acts = append(p.acts, a)
	return nil
}

// Builders.

func topFrame(origin string) RawFrame { return RawFrame{Origins: []string{origin}} }

func ledgerFrames() []RawFrame {
	return []RawFrame{
		topFrame(shell),
		{Path: ledger[:1], Origins: []string{shell, work}},
		{Path: ledger, Origins: []string{shell, work, work}},
	}
}

func btn(frame int, name string) RawControl {
	return RawControl{Frame: frame, Role: "button", Name: name, Visible: true}
}

// ledgerPage is an invoicing ledger snapshot on page n of 3.
func ledgerPage(n int) *RawSnapshot {
	cs := []RawControl{
		{Frame: 0, Role: "heading", Name: "Billing", Visible: true},
		{Frame: 1, Role: "heading", Name: "Workspace", Visible: true},
		{Frame: 2, Role: "heading", Name: "Invoices", Visible: true},
		btn(2, "Export CSV"),
		btn(2, "Issue invoice"),
		{Frame: 2, Role: "table", Name: "Invoices", Visible: true},
		{Frame: 2, Role: "status", Text: "Page " + string(rune('0'+n)) + " of 3", Visible: true},
	}
	if n > 1 {
		cs = append(cs, btn(2, "Previous page"))
	}
	if n < 3 {
		cs = append(cs, btn(2, "Next page"))
	}
	return &RawSnapshot{Origin: shell, Path: "/billing", Frames: ledgerFrames(), Controls: cs, TotalControls: len(cs)}
}

func snaps(raws ...*RawSnapshot) []fakeSnap {
	out := make([]fakeSnap, len(raws))
	for i, r := range raws {
		out[i] = fakeSnap{raw: r}
	}
	return out
}

// fastOpts are options for quick tests.
func fastOpts(extra ...Option) []Option {
	return append([]Option{WithMinInterval(MinIntervalFloor)}, extra...)
}

func tctx(t testing.TB, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// observeLedger records a guided session over the ledger: page 1, page 2,
// page 3, back to page 2.
func observeLedger(t testing.TB, extra ...Option) *Evidence {
	t.Helper()
	p := &fakePage{script: snaps(ledgerPage(1), ledgerPage(1), ledgerPage(2), ledgerPage(3), ledgerPage(2))}
	ev, err := Observe(tctx(t, 10*time.Second), p, fastOpts(append([]Option{WithMaxSnapshots(6)}, extra...)...)...)
	if err != nil {
		t.Fatalf("Observe: %v", err)
	}
	return ev
}

// ledgerSpec is a record spec over observeLedger's evidence.
func ledgerSpec() RecordSpec {
	return RecordSpec{
		Site:      RecordSite{Name: "Invoicing", AllowedOrigins: []string{work, shell}},
		Process:   Process{Name: "Export invoices", Goal: "Export this month's invoices as CSV."},
		Model:     "host-model-1",
		Runtime:   RecordRuntime{Start: "/billing", FrameSelectors: ledger},
		Authority: RecordAuthority{MaxEffect: capability.EffectReadOnly, OperatorAuthenticates: true},
		Privacy:   RecordPrivacy{DataClasses: []string{"invoices"}},
		Milestones: []MilestoneSpec{
			{ID: "open-ledger", Intent: "Open the invoice ledger", Observations: []string{"obs-1"}},
			{ID: "paginate", Intent: "Read every page", Observations: []string{"obs-1", "obs-2", "obs-3"}},
		},
	}
}

// reviewedLedger returns evidence, a reviewed record and its draft.
func reviewedLedger(t testing.TB) (*Evidence, *Record, *capability.Capability) {
	t.Helper()
	ev := observeLedger(t)
	rec, err := NewRecord(ev, ledgerSpec())
	if err != nil {
		t.Fatalf("NewRecord: %v", err)
	}
	rec, err = rec.Reviewed("Operator One", time.Date(2026, 3, 30, 9, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatalf("Reviewed: %v", err)
	}
	draft, err := DraftFromRecord(rec)
	if err != nil {
		t.Fatalf("DraftFromRecord: %v", err)
	}
	return ev, rec, draft
}
