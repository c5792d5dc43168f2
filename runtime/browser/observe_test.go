package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"
	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/discovery"
	"github.com/vera-run/vera/internal/redact"
	"github.com/vera-run/vera/internal/testsite"
	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/runtime"
)

// obsRole is a role candidate with an exact name.
func obsRole(r, name string) locator.Candidate {
	return locator.Candidate{Strategy: locator.Role, Role: r, Name: name, Exact: true}
}

// obsAct finds exactly one element by c in the frame path and acts on it.
func obsAct(ctx context.Context, d *Driver, frame []string, c locator.Candidate, a runtime.Act) error {
	sc, _, err := d.Frame(ctx, frame)
	if err != nil {
		return err
	}
	els, err := d.Find(ctx, sc, nil, c)
	if err != nil {
		return err
	}
	if len(els) != 1 {
		return fmt.Errorf("%s matched %d elements", c, len(els))
	}
	return d.Act(ctx, els[0], a)
}

// obsEval evaluates a JSON-returning expression in the top-level page.
func obsEval(t testing.TB, ctx context.Context, d *Driver, expr string, out any) {
	t.Helper()
	var res struct {
		Result remoteObject `json:"result"`
	}
	if err := d.call(ctx, d.pageSID, proto.RuntimeEvaluate{Expression: expr, ReturnByValue: true}, &res); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(res.Result.Value, out); err != nil {
		t.Fatalf("%s: %v (%s)", expr, err, res.Result.Value)
	}
}

// pageState is what a read-only observer must never change.
type pageState struct {
	Mutations int    `json:"mutations"`
	Events    int    `json:"events"`
	Active    string `json:"active"`
	ScrollX   int    `json:"sx"`
	ScrollY   int    `json:"sy"`
	Selection string `json:"sel"`
	URL       string `json:"url"`
}

const pageStateJS = `({mutations: window.__veraProbe.mutations, events: window.__veraProbe.events,
  active: document.activeElement ? document.activeElement.id : '', sx: Math.round(scrollX), sy: Math.round(scrollY),
  sel: String(getSelection()), url: location.href})`

// TestSnapshotIsReadOnly proves in Chromium that snapshots never act on the
// page: the probe page's own MutationObserver and event counters (click,
// input, change, keydown, focusin), the focused element, the scroll
// position and the selection stay unchanged across many snapshots, and no
// typed value is ever returned.
func TestSnapshotIsReadOnly(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	ctx := tctx(t, 60*time.Second)
	if err := d.Navigate(ctx, s.Stress.URL()+"/stress/probe"); err != nil {
		t.Fatal(err)
	}
	var before pageState
	obsEval(t, ctx, d, pageStateJS, &before)
	if before.Mutations != 0 || before.Events != 0 {
		t.Fatalf("probe not at rest after load: %+v", before)
	}
	// The operator types a private value and ticks a box first.
	const typed = "Zelda Quartermain"
	if err := obsAct(ctx, d, nil, obsRole("textbox", "Full name"), runtime.Act{Kind: runtime.ActFill, Value: typed}); err != nil {
		t.Fatal(err)
	}
	if err := obsAct(ctx, d, nil, obsRole("checkbox", "Subscribe"), runtime.Act{Kind: runtime.ActCheck}); err != nil {
		t.Fatal(err)
	}
	obsEval(t, ctx, d, pageStateJS, &before)
	if before.Events == 0 {
		t.Fatal("the probe did not count the operator's actions")
	}
	obs := d.Observer()
	const n = 60
	var last *discovery.RawSnapshot
	for range n {
		snap, err := obs.Snapshot(ctx, discovery.SnapshotLimits{})
		if err != nil {
			t.Fatal(err)
		}
		last = snap
		b, _ := json.Marshal(snap)
		if strings.Contains(string(b), "Zelda") || strings.Contains(string(b), "Quartermain") {
			t.Fatalf("a snapshot holds the typed value: %s", b)
		}
	}
	var after pageState
	obsEval(t, ctx, d, pageStateJS, &after)
	if after != before {
		t.Fatalf("%d snapshots changed the page: before %+v, after %+v", n, before, after)
	}
	t.Logf("%d snapshots: mutations %d -> %d, events %d -> %d, focus %q", n, before.Mutations, after.Mutations, before.Events, after.Events, after.Active)

	want := map[string]discovery.RawControl{
		"textbox:Full name":  {Role: "textbox", Name: "Full name", Label: "Full name", Visible: true},
		"textbox:Email":      {Role: "textbox", Name: "Email", Label: "Email", Visible: true},
		"combobox:Country":   {Role: "combobox", Name: "Country", Label: "Country", Visible: true},
		"checkbox:Subscribe": {Role: "checkbox", Name: "Subscribe", Label: "Subscribe", Visible: true, Checked: "true"},
		"button:Save":        {Role: "button", Name: "Save", Visible: true},
	}
	if last.Origin != s.Stress.Origin() || last.Path != "/stress/probe" || len(last.Frames) != 1 {
		t.Fatalf("snapshot page = %s %s %d frames", last.Origin, last.Path, len(last.Frames))
	}
	for _, c := range last.Controls {
		if w, ok := want[c.Role+":"+c.Name]; ok {
			if c != w {
				t.Errorf("control %s = %+v, want %+v", c.Role+":"+c.Name, c, w)
			}
			delete(want, c.Role+":"+c.Name)
		}
	}
	if len(want) > 0 {
		t.Errorf("controls not observed: %v (got %+v)", want, last.Controls)
	}
}

// lockedPage serializes the observer's snapshots with the scripted
// operator's actions: a Driver is not safe for concurrent use.
type lockedPage struct {
	mu *sync.Mutex
	p  discovery.Page
}

func (l lockedPage) Snapshot(ctx context.Context, lim discovery.SnapshotLimits) (*discovery.RawSnapshot, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.p.Snapshot(ctx, lim)
}

// operator runs scripted steps in its own goroutine once the baseline is
// recorded; after each step it waits until two more snapshots were taken
// (however slow the machine), so that every state is observed, then
// closes stop.
func operator(ctx context.Context, mu *sync.Mutex, snapshots *atomic.Int64, baseline <-chan struct{}, stop chan<- struct{}, steps []func(context.Context) error) <-chan error {
	errc := make(chan error, 1)
	settle := func() error {
		want := snapshots.Load() + 2
		for snapshots.Load() < want {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(10 * time.Millisecond):
			}
		}
		return nil
	}
	go func() {
		defer close(stop)
		select {
		case <-baseline:
		case <-ctx.Done():
			errc <- ctx.Err()
			return
		}
		for i, step := range steps {
			mu.Lock()
			err := step(ctx)
			mu.Unlock()
			if err == nil {
				err = settle()
			}
			if err != nil {
				errc <- fmt.Errorf("operator step %d: %w", i, err)
				return
			}
		}
		errc <- nil
	}()
	return errc
}

// waitPath waits until the top-level page's URL path is path.
func waitPath(ctx context.Context, d *Driver, path string) error {
	t := time.NewTicker(10 * time.Millisecond)
	defer t.Stop()
	for {
		raw, err := d.URL(ctx)
		if err == nil {
			if u, perr := url.Parse(raw); perr == nil && u.Path == path {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for %s (at %s, %v): %w", path, raw, err, ctx.Err())
		case <-t.C:
		}
	}
}

// strs returns every string (member names and values) of a JSON document.
func strs(t testing.TB, b []byte) []string {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	var out []string
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			out = append(out, x)
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			for k, e := range x {
				out = append(out, k)
				walk(e)
			}
		}
	}
	walk(v)
	return out
}

// assertNoIdentifiers fails on any identifier-shaped string outside the
// shapes discovery exempts (digests, origins, timestamps).
func assertNoIdentifiers(t *testing.T, b []byte) {
	t.Helper()
	for _, s := range strs(t, b) {
		if strings.HasPrefix(s, "sha256:") || capability.CheckOrigin(s) == nil {
			continue
		}
		if _, err := time.Parse(time.RFC3339Nano, s); err == nil {
			continue
		}
		if redact.ContainsIdentifier(s) {
			t.Errorf("identifier-shaped string in the evidence: %q", s)
		}
	}
	if f := redact.ScanJSON(b); len(f) > 0 {
		t.Errorf("secret-shaped strings in the evidence: %v", f)
	}
}

// TestObserveInvoicingGuided observes the invoicing site in Chromium while
// a scripted operator pages through the ledger and exports the CSV in the
// same page, then checks that no table cell, test id holding one or
// identifier is in the evidence, that the controls the process needs were
// observed, and that the evidence flows into a reviewed record, a draft
// and a verified developer pack.
func TestObserveInvoicingGuided(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	ctx := tctx(t, 90*time.Second)
	a, b := s.Invoicing.Origin(), s.Invoicing.WorkspaceOrigin()
	if err := d.RestrictOrigins(ctx, runtime.OriginScope{Allowed: []string{a, b}}); err != nil {
		t.Fatal(err)
	}
	if err := d.Navigate(ctx, a+"/billing"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := d.Frame(ctx, ledgerPath); err != nil { // wait for the nested frames
		t.Fatal(err)
	}
	var mu sync.Mutex
	stop := make(chan struct{})
	baseline := make(chan struct{})
	var once sync.Once
	var snapshots atomic.Int64
	hooks := discovery.Hooks{
		SnapshotTaken: func(n int, _ error) { snapshots.Store(int64(n)) },
		ObservationRecorded: func(o discovery.ObservationStep) {
			if o.Kind == discovery.KindBaseline && len(o.Frames) == 3 {
				once.Do(func() { close(baseline) })
			}
		},
	}
	click := func(name string) func(context.Context) error {
		return func(ctx context.Context) error {
			return obsAct(ctx, d, ledgerPath, obsRole("button", name), runtime.Act{Kind: runtime.ActClick})
		}
	}
	errc := operator(ctx, &mu, &snapshots, baseline, stop, []func(context.Context) error{
		click("Next page"), click("Next page"), click("Previous page"), click("Export CSV"),
	})
	ev, err := discovery.Observe(ctx, lockedPage{mu: &mu, p: d.Observer()},
		discovery.WithStop(stop), discovery.WithMinInterval(50*time.Millisecond),
		discovery.WithAllowedOrigins(a, b), discovery.WithHooks(hooks))
	if err != nil {
		t.Fatal(err)
	}
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	if err := ev.Validate(); err != nil {
		t.Fatal(err)
	}
	raw, _ := ev.Marshal()
	t.Logf("evidence: %d snapshots, %d observations, %d bytes, end %s, redactions %+v",
		ev.Snapshots, len(ev.Observations), len(raw), ev.EndReason, ev.Redactions)
	if ev.EndReason != discovery.EndStopped || !slices.Equal(ev.Site.Origins, []string{a, b}) {
		t.Fatalf("end %s origins %v", ev.EndReason, ev.Site.Origins)
	}

	// No table cell, no row test id, no identifier.
	text := string(raw)
	for _, inv := range testsite.Invoices {
		for _, v := range []string{inv.Number, inv.Customer, inv.Amount} {
			if strings.Contains(text, v) {
				t.Errorf("the evidence holds the table cell %q", v)
			}
		}
	}
	if strings.Contains(text, "invoice-row-") {
		t.Error("the evidence holds a row test id")
	}
	assertNoIdentifiers(t, raw)

	// The controls the process needs, in the ledger frame; the pagination
	// states before and after.
	seen := map[string]bool{}
	var statuses []string
	ev.Replay(func(o *discovery.ObservationStep, cs []discovery.Control, _ []discovery.FrameRecord) bool {
		for _, c := range cs {
			if slices.Equal(c.Frame, ledgerPath) && c.State.Visible {
				seen[c.Role+":"+c.Name] = true
				if c.Role == "status" && c.State.Text != "" && !slices.Contains(statuses, c.State.Text) {
					statuses = append(statuses, c.State.Text)
				}
			}
		}
		return true
	})
	for _, want := range []string{"button:Next page", "button:Export CSV", "button:Issue invoice", "button:Previous page", "table:Invoices", "heading:Invoices"} {
		if !seen[want] {
			t.Errorf("control %s was not observed", want)
		}
	}
	if !slices.Contains(statuses, "Page 1 of 3") || !slices.Contains(statuses, "Page 2 of 3") || !slices.Contains(statuses, "Page 3 of 3") {
		t.Errorf("pagination states = %v", statuses)
	}
	changed := false
	for _, o := range ev.Observations {
		for _, ch := range o.Changed {
			if ch.Control.Role == "status" && ch.Before.Text == "Page 1 of 3" && ch.After.Text == "Page 2 of 3" {
				changed = true
			}
		}
	}
	if !changed {
		t.Error("no before/after record of the first page change")
	}
	if s.Invoicing.IssuedCount() != 0 {
		t.Error("an invoice was issued")
	}

	// Record, review, draft, pack.
	var all []string
	for _, o := range ev.Observations {
		all = append(all, o.ID)
	}
	rec, err := discovery.NewRecord(ev, discovery.RecordSpec{
		Site:      discovery.RecordSite{Name: "Invoicing", AllowedOrigins: []string{a, b}},
		Process:   discovery.Process{Name: "Export invoices", Goal: "Page through the ledger and export it as CSV."},
		Model:     "scripted-operator",
		Runtime:   discovery.RecordRuntime{Start: "/billing", FrameSelectors: ledgerPath},
		Authority: discovery.RecordAuthority{MaxEffect: capability.EffectReadOnly, OperatorAuthenticates: true},
		Privacy:   discovery.RecordPrivacy{DataClasses: []string{"invoices"}},
		Milestones: []discovery.MilestoneSpec{
			{ID: "open-ledger", Intent: "Open the invoice ledger", Observations: all[:1]},
			{ID: "paginate", Intent: "Read every page", Observations: all},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	rec, err = rec.Reviewed("Operator One", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	draft, err := discovery.DraftFromRecord(rec)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "pack")
	if _, err := discovery.SealPack(ctx, dir, ev, rec, draft); err != nil {
		t.Fatal(err)
	}
	if rep, err := discovery.VerifyPack(ctx, dir); err != nil || !rep.OK() {
		t.Fatalf("VerifyPack: %v", err)
	}
}

// TestObserveTellerGuided observes a sign-in and a member search: the typed
// credentials and member id, the balances and the member id in the URL
// path never reach the evidence.
func TestObserveTellerGuided(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	ctx := tctx(t, 90*time.Second)
	origin := s.Teller.Origin()
	if err := d.Navigate(ctx, origin+"/login"); err != nil {
		t.Fatal(err)
	}
	member := testsite.TellerMembers[0]
	var mu sync.Mutex
	stop := make(chan struct{})
	baseline := make(chan struct{})
	var once sync.Once
	var snapshots atomic.Int64
	hooks := discovery.Hooks{
		SnapshotTaken:       func(n int, _ error) { snapshots.Store(int64(n)) },
		ObservationRecorded: func(discovery.ObservationStep) { once.Do(func() { close(baseline) }) },
	}
	fill := func(label, v string) func(context.Context) error {
		return func(ctx context.Context) error {
			return obsAct(ctx, d, nil, locator.Candidate{Strategy: locator.Label, Label: label, Exact: true}, runtime.Act{Kind: runtime.ActFill, Value: v})
		}
	}
	// clickTo clicks and then waits until the top-level page shows path:
	// the operator's two-snapshot settle counts from there, so the
	// observer has seen the new page however slowly it commits under load.
	clickTo := func(name, path string) func(context.Context) error {
		return func(ctx context.Context) error {
			if err := obsAct(ctx, d, nil, obsRole("button", name), runtime.Act{Kind: runtime.ActClick}); err != nil {
				return err
			}
			return waitPath(ctx, d, path)
		}
	}
	errc := operator(ctx, &mu, &snapshots, baseline, stop, []func(context.Context) error{
		fill("Username", "teller.kowalski"), fill("Password", "Hunter2Hunter2!"), clickTo("Sign in", "/members"),
		fill("Member ID", member.ID), clickTo("Search", "/members/"+member.ID),
	})
	ev, err := discovery.Observe(ctx, lockedPage{mu: &mu, p: d.Observer()},
		discovery.WithStop(stop), discovery.WithMinInterval(50*time.Millisecond),
		discovery.WithAllowedOrigins(origin), discovery.WithHooks(hooks))
	if err != nil {
		t.Fatal(err)
	}
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	raw, _ := ev.Marshal()
	t.Logf("evidence: %d snapshots, %d observations, %d bytes, redactions %+v", ev.Snapshots, len(ev.Observations), len(raw), ev.Redactions)
	for _, leak := range []string{"kowalski", "Hunter2", member.ID, member.Savings, member.Checking} {
		if strings.Contains(string(raw), leak) {
			t.Errorf("the evidence holds %q", leak)
		}
	}
	assertNoIdentifiers(t, raw)
	paths := map[string]bool{}
	placeholder := ""
	ev.Replay(func(o *discovery.ObservationStep, cs []discovery.Control, _ []discovery.FrameRecord) bool {
		paths[o.URLPath] = true
		for _, c := range cs {
			if c.Role == "textbox" && c.Name == "Member ID" {
				placeholder = c.Placeholder
			}
		}
		return true
	})
	if !paths["/login"] || !paths["/members"] || !paths["/members/"+discovery.Marker] {
		t.Errorf("paths = %v", paths)
	}
	if placeholder != "e.g. "+discovery.Marker {
		t.Errorf("Member ID placeholder = %q", placeholder)
	}
	if ev.Redactions.Identifiers["digit_run"] == 0 {
		t.Errorf("redactions = %+v", ev.Redactions)
	}
}

// TestObserverExploresSafely runs the autonomous mode in Chromium: the
// explorer's read-only step runs through the Observer's Act, the
// consequential one is refused and never reaches the page.
func TestObserverExploresSafely(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	ctx := tctx(t, 90*time.Second)
	a, b := s.Invoicing.Origin(), s.Invoicing.WorkspaceOrigin()
	if err := d.Navigate(ctx, a+"/billing"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := d.Frame(ctx, ledgerPath); err != nil {
		t.Fatal(err)
	}
	steps := []discovery.Step{
		{Kind: discovery.StepAct, Act: discovery.ActClick, Effect: capability.EffectReadOnly, Frame: ledgerPath, Locator: obsRole("button", "Next page"), Intent: "See page 2"},
		{Kind: discovery.StepAct, Act: discovery.ActClick, Effect: capability.EffectReversible, Frame: ledgerPath, Locator: obsRole("button", "Issue invoice")},
		{Kind: discovery.StepAct, Act: discovery.ActClick, Effect: capability.EffectConsequential, Frame: ledgerPath, Locator: obsRole("button", "Issue invoice")},
	}
	i := 0
	ex := discovery.ExplorerFunc(func(_ context.Context, o discovery.Observation) (discovery.Step, error) {
		if i >= len(steps) {
			return discovery.Step{Kind: discovery.StepDone}, nil
		}
		i++
		return steps[i-1], nil
	})
	ev, err := discovery.Observe(ctx, d.Observer(), discovery.WithMode(discovery.ModeAutonomous),
		discovery.WithExplorer(ex), discovery.WithAllowedOrigins(a, b), discovery.WithMinInterval(100*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	if len(ev.Refusals) != 2 || ev.Refusals[0].Reason != discovery.ReasonConsequentialControl || ev.Refusals[1].Reason != discovery.ReasonConsequential {
		t.Fatalf("refusals = %+v", ev.Refusals)
	}
	if s.Invoicing.IssuedCount() != 0 {
		t.Fatal("an invoice was issued")
	}
	last := ev.Observations[1]
	if last.Kind != discovery.KindExplore || last.Step == nil {
		t.Fatalf("observation after the step = %+v", last)
	}
	found := false
	for _, ch := range last.Changed {
		if ch.After.Text == "Page 2 of 3" {
			found = true
		}
	}
	if !found {
		t.Fatalf("the step's effect was not observed: %+v", last)
	}
	// A locator that matches nothing: the Observer refuses to act.
	err = d.Observer().Act(ctx, discovery.Action{Kind: discovery.ActClick, Frame: ledgerPath, Locator: obsRole("button", "Nope")})
	if !errors.Is(err, discovery.ErrActTarget) {
		t.Fatalf("Act on nothing: %v", err)
	}
}

// TestSnapshotStressControls checks a 5,000-control snapshot: every control
// is returned, in document order, with its identifier-shaped labels intact
// in the raw snapshot (redaction is discovery's job) and withheld after
// Observe.
func TestSnapshotStressControls(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	ctx := tctx(t, 90*time.Second)
	if err := d.Navigate(ctx, s.Stress.URL()+"/stress/controls/5000"); err != nil {
		t.Fatal(err)
	}
	snap, err := d.Observer().Snapshot(ctx, discovery.SnapshotLimits{MaxControls: 5000})
	if err != nil {
		t.Fatal(err)
	}
	// 5000 controls plus the h1 heading.
	if snap.TotalControls != 5001 || len(snap.Controls) != 5000 {
		t.Fatalf("total %d, returned %d", snap.TotalControls, len(snap.Controls))
	}
	ident := 0
	for _, c := range snap.Controls {
		if redact.ContainsIdentifier(c.Name) {
			ident++
		}
	}
	if ident == 0 {
		t.Fatal("no identifier-shaped label on the stress page")
	}
	ev, err := discovery.Observe(ctx, d.Observer(), discovery.WithMaxSnapshots(1), discovery.WithMaxControls(5000))
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := ev.Marshal()
	assertNoIdentifiers(t, raw)
	t.Logf("raw identifier-shaped names %d; redactions %v; evidence %d bytes", ident, ev.Redactions.Identifiers, len(raw))
}

// BenchmarkSnapshot5000 measures one Snapshot of /stress/controls/5000
// (5,000 labelled controls: textboxes, buttons, links, selects,
// checkboxes) with all of them returned.
func BenchmarkSnapshot5000(b *testing.B) {
	d := shared(b)
	s := sites(b)
	ctx := tctx(b, 10*time.Minute)
	if err := d.Navigate(ctx, s.Stress.URL()+"/stress/controls/5000"); err != nil {
		b.Fatal(err)
	}
	obs := d.Observer()
	lim := discovery.SnapshotLimits{MaxControls: 5000}
	if snap, err := obs.Snapshot(ctx, lim); err != nil || len(snap.Controls) != 5000 {
		b.Fatalf("warm-up: %v", err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := obs.Snapshot(ctx, lim); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkObserve5000 is the whole per-snapshot cost of discovery on the
// same page: the snapshot, redaction and bounds, and the evidence's own
// validation (one-snapshot sessions).
func BenchmarkObserve5000(b *testing.B) {
	d := shared(b)
	s := sites(b)
	ctx := tctx(b, 10*time.Minute)
	if err := d.Navigate(ctx, s.Stress.URL()+"/stress/controls/5000"); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := discovery.Observe(ctx, d.Observer(), discovery.WithMaxSnapshots(1), discovery.WithMaxControls(5000)); err != nil {
			b.Fatal(err)
		}
	}
}

// Observe an operator's demonstration in a launched Chromium until the
// operator says done (compile-only: it needs a browser).
func ExampleDriver_Observer() {
	ctx := context.Background()
	d, err := Launch(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer d.Close()
	if err := d.Navigate(ctx, "https://bank.example/members"); err != nil {
		fmt.Println(err)
		return
	}
	done := make(chan struct{}) // closed by the operator's "Done" button
	ev, err := discovery.Observe(ctx, d.Observer(),
		discovery.WithStop(done), discovery.WithAllowedOrigins("https://bank.example"))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(ev.Observations), ev.Redactions.Total())
}
