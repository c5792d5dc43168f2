package docs

import (
	"testing"

	"github.com/vera-run/vera/internal/canonjson"
	"github.com/vera-run/vera/receipt"
)

// The step-capture run cases (FORMAT.md 16): the worked run with a
// capture.json under a v3 lock, and tampered copies.
func init() { runCases = append(runCases, captureRunCases...) }

// withCaptureFile gives the run a capture: the initial state and one
// record per action, the URL and DOM captured, one console event in the
// first step, the other sections disabled by the policy.
func withCaptureFile(t *testing.T, b *confBase, rf *runFiles) {
	r := rf.r
	text := func(s string) receipt.CaptureSection {
		return receipt.CaptureSection{State: receipt.CaptureCaptured, Bytes: len(s), SHA256: canonjson.SumBytes([]byte(s)), Content: s}
	}
	off := receipt.CaptureSection{State: receipt.CaptureDisabled, Reason: receipt.CaptureReasonPolicy}
	url := r.Origins[0] + "/members"
	step := func(i int) receipt.CaptureStep {
		return receipt.CaptureStep{Index: i, ElapsedMS: int64(100 * i), URL: text(url), Screenshot: off,
			DOM: text("<html><head></head><body><h1>Member lookup</h1></body></html>"), Accessibility: off, History: off, Storage: off,
			Events: receipt.CaptureEvents{State: receipt.CaptureCaptured, Records: []receipt.CaptureEvent{}}}
	}
	c := &receipt.Capture{
		Schema: receipt.SchemaCapture, RunID: r.RunID,
		Context: receipt.CaptureContext{CapabilityID: r.Capability.ID, ExecutionHash: r.Capability.ExecutionHash,
			Mode: r.ExecutionMode, Browser: r.Environment.Browser, Origins: append([]string(nil), r.Origins...)},
		Policy: receipt.CapturePolicy{DOM: true, Events: true, MaxEvents: 200, MaxEventBytes: 65536,
			MaxSectionBytes: 1048576, MaxScreenshotBytes: 4194304, MaxTotalBytes: 33554432},
		RedactedInputs: []string{"passcode"},
		Initial:        step(0),
		Steps:          []receipt.CaptureStep{},
	}
	for i, a := range r.Actions {
		s := step(i + 1)
		s.ActionID, s.Milestone, s.Visit, s.Operation, s.Status = a.ID, a.Milestone, a.Visit, a.Operation, string(a.Status)
		c.Steps = append(c.Steps, s)
	}
	ev := receipt.CaptureEvent{Seq: 1, Kind: receipt.EventConsole, Level: "log", Text: "lookup started"}
	c.Steps[0].Events = receipt.CaptureEvents{State: receipt.CaptureCaptured, Total: 1, Bytes: ev.Size(), Records: []receipt.CaptureEvent{ev}}
	c.Summarize()
	rf.c = c
}

// withCaptureEdit adds the capture and then changes it (relocked).
func withCaptureEdit(edit func(c *receipt.Capture)) func(t *testing.T, b *confBase, rf *runFiles) {
	return func(t *testing.T, b *confBase, rf *runFiles) {
		withCaptureFile(t, b, rf)
		edit(rf.c)
	}
}

var captureRunCases = []runCase{
	{id: "valid-capture", edit: withCaptureFile, rules: []string{"run.file.capture", "run.links.capture", "run.links"},
		note: "the worked run with a step capture (16): capture.json linked by a v3 lock"},
	{id: "valid-capture-truncated", edit: withCaptureEdit(func(c *receipt.Capture) {
		d := &c.Steps[1].DOM
		kept := d.Content[:16]
		d.State, d.Reason, d.Content, d.SHA256 = receipt.CaptureTruncated, receipt.CaptureReasonSectionLimit, kept, canonjson.SumBytes([]byte(kept))
		c.Summarize()
	}), rules: []string{"run.file.capture"},
		note: "a DOM section truncated at its limit: the run verifies, the capture is not eligible (16.4)"},
	{id: "capture-hash-mismatch", edit: func(t *testing.T, b *confBase, rf *runFiles) {
		withCaptureFile(t, b, rf)
		rf.relock = false
		rf.edits = map[string]func([]byte) []byte{receipt.FileCapture: replaceOnce(`"elapsed_ms":100,`, `"elapsed_ms":101,`)}
	}, codes: []string{"hash_mismatch"}, rules: []string{"run.links.capture"}, note: "capture.json changed after the lock was written"},
	{id: "capture-missing", edit: func(t *testing.T, b *confBase, rf *runFiles) {
		withCaptureFile(t, b, rf)
		rf.drop = []string{receipt.FileCapture}
	}, codes: []string{"missing_file"}, rules: []string{"run.links.capture"}, note: "a v3 lock whose capture.json is gone"},
	{id: "capture-under-v1-lock", edit: func(t *testing.T, b *confBase, rf *runFiles) {
		withCaptureFile(t, b, rf)
		rf.lockSchema = receipt.SchemaLockV1
		rf.lockEdit = func(l *receipt.Lock) { l.Capture = "" }
	}, codes: []string{"link"}, rules: []string{"run.links.capture"}, note: "capture.json beside a v1 lock, which does not cover it"},
	{id: "capture-v1-lock-names-capture", edit: func(t *testing.T, b *confBase, rf *runFiles) {
		withCaptureFile(t, b, rf)
		rf.lockSchema = receipt.SchemaLockV1
	}, codes: []string{"link", "schema"}, rules: []string{"run.file.lock", "run.links.capture"}, note: "a v1 lock with a capture member"},
	{id: "capture-steps-mismatch", edit: withCaptureEdit(func(c *receipt.Capture) { c.Steps[1].ActionID = c.Steps[0].ActionID }),
		codes: []string{"link"}, rules: []string{"run.links.capture"}, note: "a capture step that does not describe its action record"},
	{id: "capture-section-digest", edit: withCaptureEdit(func(c *receipt.Capture) { c.Steps[0].DOM.SHA256 = c.Steps[0].URL.SHA256 }),
		codes: []string{"hash_mismatch"}, rules: []string{"run.file.capture"}, note: "a section whose sha256 is not its content's"},
	{id: "capture-unknown-state", edit: withCaptureEdit(func(c *receipt.Capture) { c.Steps[0].URL.State = "partial" }),
		codes: []string{"inconsistent", "schema"}, rules: []string{"run.file.capture"}, note: "a section state outside the closed set (the totals no longer add up either)"},
	{id: "capture-eligible-truncated", edit: withCaptureEdit(func(c *receipt.Capture) {
		d := &c.Steps[1].DOM
		kept := d.Content[:16]
		d.State, d.Reason, d.Content, d.SHA256 = receipt.CaptureTruncated, receipt.CaptureReasonSectionLimit, kept, canonjson.SumBytes([]byte(kept))
		c.Summarize()
		c.Eligible = true
	}), codes: []string{"inconsistent"}, rules: []string{"run.file.capture"}, note: "a capture with a truncated section claiming eligibility"},
	{id: "capture-events-total", edit: withCaptureEdit(func(c *receipt.Capture) { c.Steps[0].Events.Total = 3; c.Summarize() }),
		codes: []string{"inconsistent"}, rules: []string{"run.file.capture"}, note: "an event list whose total is not its records plus omitted"},
}
