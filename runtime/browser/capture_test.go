package browser

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"
	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/testsite"
	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
)

// activityCapability runs the checks of the activity console, then opens
// its report.
const activityCapability = `{
  "schema": "browser-capability/v1",
  "id": "activity.checks",
  "version": "1.0.0",
  "name": "Run the activity checks",
  "goal": "Run the console's checks and open the report.",
  "state": "discovered",
  "provenance": {"discovery_hash": "sha256:35aa15f9d52a5a72d4798c291247810decc043c359c23e3920fe21d8174504fe", "discovery_model": "test-model", "discovery_run_id": "disc-activity-01", "discovery_mode": "guided",
    "review": {"reviewer": "ops lead", "reviewed_at": "2026-03-28T10:15:00Z", "record_hash": "sha256:35aa15f9d52a5a72d4798c291247810decc043c359c23e3920fe21d8174504fe", "authoring_approved": true}},
  "site": {"name": "Activity console (synthetic)", "allowed_origins": ["ORIGIN"]},
  "runtime": {"start": "/activity", "action_timeout_ms": 10000, "transition_timeout_ms": 10000, "run_timeout_ms": 60000},
  "authority": {"max_effect": "read_only", "operator_authenticates": false},
  "privacy": {"data_classes": []},
  "milestones": [
    {"id": "checks", "intent": "Run the checks and open the report", "actions": [
      {"id": "run_checks", "operation": "click", "intent": "Run the checks", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "button", "name": "Run checks", "exact": true}],
       "postcondition": {"kind": "text_visible", "text": "Checks done"}},
      {"id": "open_report", "operation": "click", "intent": "Open the report", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "link", "name": "Show report", "exact": true}],
       "postcondition": {"kind": "locator_visible", "locator_candidates": [{"strategy": "role", "role": "heading", "name": "Report", "exact": true}]}}
    ]}
  ]
}`

// loginCapability types a secret access code and signs in.
const loginCapability = `{
  "schema": "browser-capability/v1",
  "id": "activity.sign-in",
  "version": "1.0.0",
  "name": "Sign in to the activity console",
  "goal": "Type the access code and sign in.",
  "state": "discovered",
  "provenance": {"discovery_hash": "sha256:35aa15f9d52a5a72d4798c291247810decc043c359c23e3920fe21d8174504fe", "discovery_model": "test-model", "discovery_run_id": "disc-activity-02", "discovery_mode": "guided",
    "review": {"reviewer": "ops lead", "reviewed_at": "2026-03-28T10:15:00Z", "record_hash": "sha256:35aa15f9d52a5a72d4798c291247810decc043c359c23e3920fe21d8174504fe", "authoring_approved": true}},
  "site": {"name": "Activity console (synthetic)", "allowed_origins": ["ORIGIN"]},
  "runtime": {"start": "/activity/login", "action_timeout_ms": 10000, "transition_timeout_ms": 10000, "run_timeout_ms": 60000},
  "authority": {"max_effect": "read_only", "operator_authenticates": false},
  "privacy": {"data_classes": []},
  "inputs": [{"name": "code", "type": "string", "required": true, "secret": true, "max_length": 64}],
  "milestones": [
    {"id": "sign_in", "intent": "Sign in", "actions": [
      {"id": "type_code", "operation": "fill", "intent": "Type the access code", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "label", "label": "Access code", "exact": true}], "input": "code",
       "postcondition": {"kind": "locator_visible", "locator_candidates": [{"strategy": "label", "label": "Access code", "exact": true}]}},
      {"id": "submit", "operation": "click", "intent": "Sign in", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "button", "name": "Sign in", "exact": true}],
       "postcondition": {"kind": "text_visible", "text": "Signed in"}}
    ]}
  ]
}`

func startActivity(t *testing.T) *testsite.Activity {
	t.Helper()
	a, err := testsite.StartActivity()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Close)
	return a
}

func parseCap(t *testing.T, doc, origin string) *capability.Capability {
	t.Helper()
	c, err := capability.ParseBytes([]byte(strings.ReplaceAll(doc, "ORIGIN", origin)))
	if err != nil {
		t.Fatal(err)
	}
	if errs := c.ValidateForExecution(); len(errs) > 0 {
		t.Fatalf("capability: %v", errs)
	}
	return c
}

// loadRunCapture reads and strictly decodes a run's capture.json.
func loadRunCapture(t *testing.T, res *runtime.Result) *receipt.Capture {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(res.RunDir, receipt.FileCapture))
	if err != nil {
		t.Fatal(err)
	}
	c, err := receipt.LoadCapture(raw)
	if err != nil {
		t.Fatalf("LoadCapture: %v", err)
	}
	return c
}

func hasEvent(evs []receipt.CaptureEvent, kind receipt.CaptureEventKind, match func(e receipt.CaptureEvent) bool) bool {
	for _, e := range evs {
		if e.Kind == kind && (match == nil || match(e)) {
			return true
		}
	}
	return false
}

func eventKinds(evs []receipt.CaptureEvent) []string {
	var out []string
	for _, e := range evs {
		out = append(out, string(e.Kind)+":"+e.Level+":"+e.URL+":"+e.Text)
	}
	return out
}

// TestCaptureEventAttribution runs the checks (a console log, a fetch, a
// WebSocket exchange, a console info and an uncaught error) and finds
// each event in the step that caused it, and none in the others.
func TestCaptureEventAttribution(t *testing.T) {
	t.Parallel()
	d := shared(t)
	a := startActivity(t)
	ctx := tctx(t, 90*time.Second)
	res := execute(t, ctx, d, parseCap(t, activityCapability, a.Origin()), nil, runtime.WithCapture(runtime.DefaultCapturePolicy()))
	wantState(t, res, runtime.StateCompleted, "")
	c := loadRunCapture(t, res)
	if !c.Eligible {
		t.Fatalf("capture not eligible: %+v", c.Totals)
	}
	if len(c.Steps) != 2 || c.Steps[0].ActionID != "run_checks" || c.Steps[1].ActionID != "open_report" {
		t.Fatalf("steps: %+v", c.Steps)
	}
	origin := a.Origin()
	init, run, report := c.Initial.Events.Records, c.Steps[0].Events.Records, c.Steps[1].Events.Records
	if !hasEvent(init, receipt.EventRequest, func(e receipt.CaptureEvent) bool { return e.URL == origin+"/activity" && e.Level == "Document" }) {
		t.Errorf("initial: no document request: %q", eventKinds(init))
	}
	checks := []struct {
		kind  receipt.CaptureEventKind
		match func(e receipt.CaptureEvent) bool
	}{
		{receipt.EventConsole, func(e receipt.CaptureEvent) bool { return e.Level == "log" && e.Text == "checks started" }},
		{receipt.EventConsole, func(e receipt.CaptureEvent) bool { return e.Level == "info" && e.Text == "checks done: ok pong:ping" }},
		{receipt.EventPageError, func(e receipt.CaptureEvent) bool { return strings.Contains(e.Text, "widget check failed") }},
		{receipt.EventRequest, func(e receipt.CaptureEvent) bool { return e.Method == "GET" && e.URL == origin+"/activity/api/status" }},
		{receipt.EventWebSocket, func(e receipt.CaptureEvent) bool { return strings.HasSuffix(e.URL, "/activity/socket") }},
		{receipt.EventWebSocketSent, func(e receipt.CaptureEvent) bool { return e.Length == 4 }},
		{receipt.EventWebSocketRecv, func(e receipt.CaptureEvent) bool { return e.Length == 9 }},
	}
	for _, ch := range checks {
		if !hasEvent(run, ch.kind, ch.match) {
			t.Errorf("run_checks: no %s event: %q", ch.kind, eventKinds(run))
		}
		if hasEvent(init, ch.kind, ch.match) || hasEvent(report, ch.kind, ch.match) {
			t.Errorf("%s event attributed to another step", ch.kind)
		}
	}
	if !hasEvent(report, receipt.EventRequest, func(e receipt.CaptureEvent) bool { return e.URL == origin+"/activity/report" }) {
		t.Errorf("open_report: no document request: %q", eventKinds(report))
	}
	for _, s := range c.AllSteps() {
		for _, ns := range s.Sections() {
			if ns.Section.State != receipt.CaptureCaptured {
				t.Errorf("step %d %s: %+v", s.Index, ns.Name, ns.Section.State)
			}
		}
	}
	if !strings.Contains(c.Steps[1].DOM.Content, "Plan: Basic") || !strings.Contains(c.Steps[1].Accessibility.Content, `heading "Report"`) {
		t.Errorf("report step DOM/AX: %q\n%q", c.Steps[1].DOM.Content, c.Steps[1].Accessibility.Content)
	}
	if !strings.Contains(c.Steps[1].History.Content, "* "+origin+"/activity/report") {
		t.Errorf("history: %q", c.Steps[1].History.Content)
	}
	if c.PreAttachGap || c.Context.Mode != runtime.ModeLiveLaunched {
		t.Errorf("context: %+v gap %v", c.Context, c.PreAttachGap)
	}
}

// TestCaptureNoSecret types a secret access code the page echoes to the
// console, to session storage, to an attribute and (a text field) to the
// accessibility tree: no file of the run folder holds it.
func TestCaptureNoSecret(t *testing.T) {
	t.Parallel()
	d := shared(t)
	a := startActivity(t)
	ctx := tctx(t, 90*time.Second)
	const secret = "Zq9-SECRET-code-4471"
	res := execute(t, ctx, d, parseCap(t, loginCapability, a.Origin()), map[string]any{"code": secret},
		runtime.WithCapture(runtime.DefaultCapturePolicy()))
	wantState(t, res, runtime.StateCompleted, "")
	entries, err := os.ReadDir(res.RunDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(res.RunDir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), secret) {
			t.Errorf("%s holds the secret", e.Name())
		}
	}
	c := loadRunCapture(t, res)
	submit := c.Steps[1]
	if !hasEvent(submit.Events.Records, receipt.EventConsole, func(e receipt.CaptureEvent) bool { return e.Text == "signing in with [secret:code]" }) {
		t.Errorf("console not redacted: %q", eventKinds(submit.Events.Records))
	}
	if !strings.Contains(submit.Storage.Content, "session\tdraft_code\t[secret:code]") {
		t.Errorf("storage: %q", submit.Storage.Content)
	}
	if !strings.Contains(submit.DOM.Content, `data-last="[secret:code]"`) {
		t.Errorf("dom: %q", submit.DOM.Content)
	}
	for _, s := range c.Steps {
		if s.Screenshot.State != receipt.CaptureDisabled || s.Screenshot.Reason != receipt.CaptureReasonSecretInput {
			t.Errorf("step %s screenshot: %+v", s.ActionID, s.Screenshot.State)
		}
	}
	if c.Initial.Screenshot.State != receipt.CaptureCaptured {
		t.Errorf("initial screenshot: %+v", c.Initial.Screenshot.State)
	}
	if len(c.RedactedInputs) != 1 || c.RedactedInputs[0] != "code" {
		t.Errorf("redacted inputs: %v", c.RedactedInputs)
	}
}

// captureRun executes the activity flow with a capture policy and returns
// the run's receipt and capture.
func captureRun(t *testing.T, d *Driver, a *testsite.Activity, pol runtime.CapturePolicy) (*receipt.Receipt, *receipt.Capture) {
	t.Helper()
	ctx := tctx(t, 90*time.Second)
	c := parseCap(t, activityCapability, a.Origin())
	res := execute(t, ctx, d, c, nil, runtime.WithCapture(pol))
	wantState(t, res, runtime.StateCompleted, "")
	rf := runFiles(t, res)
	if rf.Capture == nil {
		t.Fatal("no capture in the run folder")
	}
	return rf.Receipt, rf.Capture
}

func compareCaptures(t *testing.T, ra *receipt.Receipt, ca *receipt.Capture, rb *receipt.Receipt, cb *receipt.Capture, opts ...receipt.CompareOption) *receipt.Comparison {
	t.Helper()
	cmp, err := receipt.Compare(ra, rb, append([]receipt.CompareOption{receipt.WithCaptures(ca, cb)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return cmp
}

func stepStatus(cmp *receipt.Comparison, id string) receipt.ChangeStatus {
	for _, s := range cmp.Steps {
		if s.Action == id {
			return s.Status
		}
	}
	return ""
}

// TestCaptureCompare: two captures of the same flow compare unchanged; a
// changed report page compares changed on the report step only; a capture
// truncated by a tiny byte limit compares unknown.
func TestCaptureCompare(t *testing.T) {
	t.Parallel()
	d := shared(t)
	a := startActivity(t)
	pol := runtime.DefaultCapturePolicy()
	r1, c1 := captureRun(t, d, a, pol)
	r2, c2 := captureRun(t, d, a, pol)
	same := compareCaptures(t, r1, c1, r2, c2)
	if same.Verdict != receipt.StatusUnchanged {
		b, _ := same.JSON()
		t.Fatalf("same flow: verdict %s\n%s", same.Verdict, b)
	}
	if same.Policy.Capture == nil {
		t.Error("the policy does not commit to the capture normalization")
	}

	a.SetPlan("Premium")
	r3, c3 := captureRun(t, d, a, pol)
	changed := compareCaptures(t, r1, c1, r3, c3)
	if changed.Verdict != receipt.StatusChanged || stepStatus(changed, "open_report") != receipt.StatusChanged || stepStatus(changed, "run_checks") != receipt.StatusUnchanged {
		b, _ := changed.JSON()
		t.Fatalf("changed page: %s", b)
	}
	kinds := map[receipt.ArtifactKind]bool{}
	for _, ch := range changed.Changes {
		if ch.Action != "open_report" {
			t.Errorf("change outside the report step: %+v", ch)
		}
		kinds[ch.Kind] = true
	}
	if !kinds[receipt.ArtifactDOM] || !kinds[receipt.ArtifactAccessibility] || !kinds[receipt.ArtifactScreenshot] {
		t.Errorf("changed kinds: %v", kinds)
	}
	// A caller rule naming the changed literal over the text kinds makes
	// the DOM and accessibility equal again; the screenshot still differs.
	ruled := compareCaptures(t, r1, c1, r3, c3,
		receipt.WithRule(receipt.Rule{Kind: receipt.ArtifactDOM, Find: "Premium", Replace: "Basic"}),
		receipt.WithRule(receipt.Rule{Kind: receipt.ArtifactAccessibility, Find: "Premium", Replace: "Basic"}))
	for _, ch := range ruled.Changes {
		if ch.Kind == receipt.ArtifactDOM || ch.Kind == receipt.ArtifactAccessibility {
			t.Errorf("rule not applied: %+v", ch)
		}
	}
	// max_changes bounds the records, the totals stay.
	bounded := compareCaptures(t, r1, c1, r3, c3, receipt.WithMaxChanges(1))
	if len(bounded.Changes) != 1 || bounded.Totals.Omitted != changed.Totals.Changed+changed.Totals.Unknown-1 {
		t.Errorf("bounded: %d changes, totals %+v", len(bounded.Changes), bounded.Totals)
	}

	a.SetPlan("Basic")
	tiny := pol
	tiny.MaxSectionBytes = 64
	r4, c4 := captureRun(t, d, a, tiny)
	if c4.Eligible {
		t.Fatal("a truncated capture is eligible")
	}
	unk := compareCaptures(t, r1, c1, r4, c4)
	if unk.Verdict != receipt.StatusUnknown {
		b, _ := unk.JSON()
		t.Fatalf("truncated: verdict %s\n%s", unk.Verdict, b)
	}
	for _, ch := range unk.Changes {
		if ch.Status == receipt.StatusChanged {
			t.Errorf("a truncated section compares changed: %+v", ch)
		}
	}
}

// TestCaptureConnectDeclaresGap: a capture in an externally owned browser
// declares the pre-attach gap and still attributes the page's events.
func TestCaptureConnectDeclaresGap(t *testing.T) {
	ext := startExternal(t)
	a := startActivity(t)
	ctx := tctx(t, 90*time.Second)
	d, err := Connect(ctx, ext.endpoint)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	res := execute(t, ctx, d, parseCap(t, activityCapability, a.Origin()), nil, runtime.WithCapture(runtime.DefaultCapturePolicy()))
	wantState(t, res, runtime.StateCompleted, "")
	c := loadRunCapture(t, res)
	if !c.PreAttachGap || c.Context.Mode != runtime.ModeLiveConnected {
		t.Fatalf("connect capture: gap %v mode %s", c.PreAttachGap, c.Context.Mode)
	}
	if !hasEvent(c.Steps[0].Events.Records, receipt.EventConsole, func(e receipt.CaptureEvent) bool { return e.Text == "checks started" }) {
		t.Errorf("run_checks events: %q", eventKinds(c.Steps[0].Events.Records))
	}
}

// TestCaptureTargetEvents: a frame, a popup and a worker the page opens
// in a known step are that step's events.
func TestCaptureTargetEvents(t *testing.T) {
	t.Parallel()
	d := shared(t)
	a := startActivity(t)
	ctx := tctx(t, 90*time.Second)
	doc := strings.NewReplacer(`"start": "/activity"`, `"start": "/activity/tools"`,
		`"name": "Run checks"`, `"name": "Open tools"`, `"text": "Checks done"`, `"text": "Tools open"`).Replace(activityCapability)
	c := parseCap(t, doc, a.Origin())
	c.Milestones[0].Actions = c.Milestones[0].Actions[:1]
	t.Cleanup(func() { closePopups(d) })
	res := execute(t, ctx, d, c, nil, runtime.WithCapture(runtime.DefaultCapturePolicy()))
	wantState(t, res, runtime.StateCompleted, "")
	cp := loadRunCapture(t, res)
	evs := cp.Steps[0].Events.Records
	report := a.Origin() + "/activity/report"
	if !hasEvent(evs, receipt.EventFrame, func(e receipt.CaptureEvent) bool { return e.URL == report }) {
		t.Errorf("no frame event: %q", eventKinds(evs))
	}
	if !hasEvent(evs, receipt.EventPopup, nil) {
		t.Errorf("no popup event: %q", eventKinds(evs))
	}
	if !hasEvent(evs, receipt.EventWorker, func(e receipt.CaptureEvent) bool { return e.URL == a.Origin()+"/activity/worker.js" }) {
		t.Errorf("no worker event: %q", eventKinds(evs))
	}
	if hasEvent(cp.Initial.Events.Records, receipt.EventWorker, nil) || hasEvent(cp.Initial.Events.Records, receipt.EventPopup, nil) {
		t.Errorf("target events in the initial state: %q", eventKinds(cp.Initial.Events.Records))
	}
}

// closePopups closes the popups a test opened on the shared driver: a
// page hidden behind one cannot be screenshot.
func closePopups(d *Driver) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	d.mu.Lock()
	var ids []proto.TargetTargetID
	for _, t := range d.targets {
		if t.kind == kindPopup {
			ids = append(ids, t.id)
		}
	}
	d.mu.Unlock()
	for _, id := range ids {
		_ = d.call(ctx, "", proto.TargetCloseTarget{TargetID: id}, nil)
	}
}
