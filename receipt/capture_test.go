package receipt_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/vera-run/vera/internal/canonjson"
	"github.com/vera-run/vera/internal/runwrite"
	"github.com/vera-run/vera/receipt"
)

// textSection is a captured text section.
func textSection(s string) receipt.CaptureSection {
	return receipt.CaptureSection{State: receipt.CaptureCaptured, Bytes: len(s), SHA256: canonjson.SumBytes([]byte(s)), Content: s}
}

var pngBytes = []byte("\x89PNG\r\n\x1a\nnot-really-pixels")

// captureFor builds a valid capture of run: every section captured, one
// console event in the first step.
func captureFor(run *runwrite.Run) *receipt.Capture {
	r := run.Receipt
	step := func(i int) receipt.CaptureStep {
		return receipt.CaptureStep{
			Index: i, ElapsedMS: int64(10 * i),
			URL:           textSection(testOrigin + "/members"),
			Screenshot:    receipt.CaptureSection{State: receipt.CaptureCaptured, Bytes: len(pngBytes), SHA256: canonjson.SumBytes(pngBytes), Content: base64.StdEncoding.EncodeToString(pngBytes)},
			DOM:           textSection("<html><body><h1>Members</h1></body></html>"),
			Accessibility: textSection("RootWebArea \"Members\"\n  heading \"Members\"\n"),
			History:       textSection("* " + testOrigin + "/members\n"),
			Storage:       textSection(""),
			Events:        receipt.CaptureEvents{State: receipt.CaptureCaptured, Records: []receipt.CaptureEvent{}},
		}
	}
	c := &receipt.Capture{
		Schema: receipt.SchemaCapture, RunID: r.RunID,
		Context: receipt.CaptureContext{CapabilityID: r.Capability.ID, ExecutionHash: r.Capability.ExecutionHash,
			Mode: r.ExecutionMode, Browser: r.Environment.Browser, Origins: []string{testOrigin}, Viewport: "1280x720"},
		Policy: receipt.CapturePolicy{Screenshot: true, DOM: true, Accessibility: true, History: true, Storage: true, Events: true,
			MaxEvents: 10, MaxEventBytes: 1000, MaxSectionBytes: 1 << 20, MaxScreenshotBytes: 1 << 20, MaxTotalBytes: 8 << 20},
		PreAttachGap:   r.ExecutionMode == receipt.ModeLiveConnected,
		RedactedInputs: []string{"pin"},
		Initial:        step(0),
		Steps:          []receipt.CaptureStep{},
	}
	for i, a := range r.Actions {
		s := step(i + 1)
		s.ActionID, s.Milestone, s.Visit, s.Operation, s.Status = a.ID, a.Milestone, a.Visit, a.Operation, string(a.Status)
		c.Steps = append(c.Steps, s)
	}
	ev := receipt.CaptureEvent{Seq: 1, Kind: receipt.EventConsole, Level: "log", Text: "hello"}
	c.Steps[0].Events = receipt.CaptureEvents{State: receipt.CaptureCaptured, Total: 1, Bytes: ev.Size(), Records: []receipt.CaptureEvent{ev}}
	c.Summarize()
	return c
}

func capturedRun(t testing.TB) (*runwrite.Run, string) {
	run := cleanRun(t, testCapability(), nil)
	run.Capture = captureFor(run)
	return run, writeRun(t, run)
}

func TestCaptureRunVerifies(t *testing.T) {
	_, dir := capturedRun(t)
	if _, err := receipt.VerifyRun(context.Background(), dir, testCapability()); err != nil {
		t.Fatal(err)
	}
	l, err := receipt.LoadLock(readFile(t, dir, receipt.FileLock))
	if err != nil || l.Schema != receipt.SchemaLockV3 || l.Capture != sum(readFile(t, dir, receipt.FileCapture)) {
		t.Fatalf("lock %+v %v", l, err)
	}
	rf, err := receipt.Load(context.Background(), dir)
	if err != nil || rf.Capture == nil || len(rf.Capture.Steps) != 10 {
		t.Fatalf("Load: %v", err)
	}
}

// TestCaptureRunTampered: the lock links capture.json like the other
// files, and the capture must describe its receipt's run.
func TestCaptureRunTampered(t *testing.T) {
	tests := map[string]struct {
		edit func(t *testing.T, dir string)
		want error
	}{
		"capture changed, not relocked": {func(t *testing.T, dir string) {
			b := readFile(t, dir, receipt.FileCapture)
			rewrite(t, dir, receipt.FileCapture, bytes.Replace(b, []byte(`"elapsed_ms":10`), []byte(`"elapsed_ms":11`), 1))
		}, receipt.ErrHashMismatch},
		"capture removed": {func(t *testing.T, dir string) {
			if err := os.Remove(filepath.Join(dir, receipt.FileCapture)); err != nil {
				t.Fatal(err)
			}
		}, receipt.ErrMissingFile},
		"capture under a v1 lock": {func(t *testing.T, dir string) {
			l, _ := receipt.LoadLock(readFile(t, dir, receipt.FileLock))
			l.Schema, l.Capture = receipt.SchemaLockV1, ""
			b, _ := canonjson.Marshal(l)
			rewrite(t, dir, receipt.FileLock, b)
		}, receipt.ErrLink},
		"v1 lock naming a capture": {func(t *testing.T, dir string) {
			l, _ := receipt.LoadLock(readFile(t, dir, receipt.FileLock))
			l.Schema = receipt.SchemaLockV1
			b, _ := canonjson.Marshal(l)
			rewrite(t, dir, receipt.FileLock, b)
		}, receipt.ErrSchema},
		"steps do not describe the receipt": {func(t *testing.T, dir string) {
			editCapture(t, dir, func(c *receipt.Capture) { c.Steps[2].ActionID = "read-member"; c.Summarize() })
		}, receipt.ErrLink},
		"a step dropped": {func(t *testing.T, dir string) {
			editCapture(t, dir, func(c *receipt.Capture) { c.Steps = c.Steps[:9]; c.Summarize() })
		}, receipt.ErrLink},
		"another capability": {func(t *testing.T, dir string) {
			editCapture(t, dir, func(c *receipt.Capture) { c.Context.CapabilityID = "other.cap" })
		}, receipt.ErrLink},
		"another run id": {func(t *testing.T, dir string) {
			editCapture(t, dir, func(c *receipt.Capture) { c.RunID = "run_other" })
		}, receipt.ErrLink},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, dir := capturedRun(t)
			tc.edit(t, dir)
			_, err := receipt.VerifyRun(context.Background(), dir, testCapability())
			if !errors.Is(err, tc.want) {
				t.Fatalf("VerifyRun: %v, want %v", err, tc.want)
			}
		})
	}
}

// editCapture rewrites capture.json canonically after edit and relocks it.
func editCapture(t *testing.T, dir string, edit func(*receipt.Capture)) {
	t.Helper()
	c, err := receipt.LoadCapture(readFile(t, dir, receipt.FileCapture))
	if err != nil {
		t.Fatal(err)
	}
	edit(c)
	b, err := canonjson.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	rewrite(t, dir, receipt.FileCapture, b)
	l, _ := receipt.LoadLock(readFile(t, dir, receipt.FileLock))
	l.Capture = sum(b)
	lb, _ := canonjson.Marshal(l)
	rewrite(t, dir, receipt.FileLock, lb)
}

// TestLoadCaptureBad: table of bad capture files, each refused with the
// named problem and never a panic.
func TestLoadCaptureBad(t *testing.T) {
	run := cleanRun(t, testCapability(), nil)
	enc := func(edit func(c *receipt.Capture)) []byte {
		c := captureFor(run)
		edit(c)
		b, err := canonjson.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	good := enc(func(*receipt.Capture) {})
	if _, err := receipt.LoadCapture(good); err != nil {
		t.Fatalf("good capture: %v", err)
	}
	tests := map[string]struct {
		raw  []byte
		want error
	}{
		"not json":        {[]byte("{"), receipt.ErrMalformed},
		"not canonical":   {append([]byte(" "), good...), receipt.ErrNotCanonical},
		"wrong schema":    {bytes.Replace(good, []byte(receipt.SchemaCapture), []byte("browser-run-capture/v9"), 1), receipt.ErrSchema},
		"unknown member":  {bytes.Replace(good, []byte(`{"accessibility"`), []byte(`{"a":1,"accessibility"`), 1), receipt.ErrSchema},
		"too large":       {bytes.Repeat([]byte(" "), receipt.MaxCaptureBytes+1), receipt.ErrTooLarge},
		"unknown state":   {enc(func(c *receipt.Capture) { c.Steps[0].DOM.State = "partial" }), receipt.ErrSchema},
		"captured reason": {enc(func(c *receipt.Capture) { c.Steps[0].DOM.Reason = "policy" }), receipt.ErrSchema},
		"unknown reason": {enc(func(c *receipt.Capture) {
			c.Steps[0].DOM = receipt.CaptureSection{State: receipt.CaptureMissing, Reason: "bored"}
			c.Summarize()
		}), receipt.ErrSchema},
		"digest mismatch":   {enc(func(c *receipt.Capture) { c.Steps[1].DOM.Content += "x"; c.Steps[1].DOM.Bytes++ }), receipt.ErrHashMismatch},
		"bytes mismatch":    {enc(func(c *receipt.Capture) { c.Initial.URL.Bytes = 3 }), receipt.ErrInconsistent},
		"screenshot base64": {enc(func(c *receipt.Capture) { c.Initial.Screenshot.Content = "@@@" }), receipt.ErrSchema},
		"missing with data": {enc(func(c *receipt.Capture) {
			c.Steps[0].History.State, c.Steps[0].History.Reason = receipt.CaptureMissing, "driver_error"
			c.Summarize()
		}), receipt.ErrSchema},
		"truncated keeps all": {enc(func(c *receipt.Capture) {
			c.Steps[0].DOM.State, c.Steps[0].DOM.Reason = receipt.CaptureTruncated, receipt.CaptureReasonSectionLimit
			c.Summarize()
		}), receipt.ErrInconsistent},
		"eligible although truncated": {enc(func(c *receipt.Capture) {
			s := &c.Steps[0].DOM
			s.State, s.Reason, s.Bytes = receipt.CaptureTruncated, receipt.CaptureReasonSectionLimit, s.Bytes+10
			c.Summarize()
			c.Eligible = true
		}), receipt.ErrInconsistent},
		"totals":                  {enc(func(c *receipt.Capture) { c.Totals.Events = 99 }), receipt.ErrInconsistent},
		"index out of order":      {enc(func(c *receipt.Capture) { c.Steps[3].Index = 9 }), receipt.ErrSchema},
		"initial names an action": {enc(func(c *receipt.Capture) { c.Initial.ActionID = "submit" }), receipt.ErrSchema},
		"bad action id":           {enc(func(c *receipt.Capture) { c.Steps[0].ActionID = "no spaces allowed" }), receipt.ErrSchema},
		"event total":             {enc(func(c *receipt.Capture) { c.Steps[0].Events.Total = 5; c.Summarize() }), receipt.ErrInconsistent},
		"omitted but captured": {enc(func(c *receipt.Capture) {
			c.Steps[0].Events.Total, c.Steps[0].Events.Omitted = 2, 1
			c.Summarize()
		}), receipt.ErrInconsistent},
		"unknown event kind":   {enc(func(c *receipt.Capture) { c.Steps[0].Events.Records[0].Kind = "telepathy" }), receipt.ErrSchema},
		"event bytes":          {enc(func(c *receipt.Capture) { c.Steps[0].Events.Bytes = 1 }), receipt.ErrInconsistent},
		"over the event limit": {enc(func(c *receipt.Capture) { c.Policy.MaxEvents = 0 }), receipt.ErrInconsistent},
		"origins unsorted":     {enc(func(c *receipt.Capture) { c.Context.Origins = []string{"https://b.example", "https://a.example"} }), receipt.ErrSchema},
		"negative limit":       {enc(func(c *receipt.Capture) { c.Policy.MaxTotalBytes = -1 }), receipt.ErrSchema},
		"bad run id":           {enc(func(c *receipt.Capture) { c.RunID = "" }), receipt.ErrSchema},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			c, err := receipt.LoadCapture(tc.raw)
			if c != nil || !errors.Is(err, tc.want) {
				t.Fatalf("LoadCapture: %v, want %v", err, tc.want)
			}
		})
	}
}

func FuzzLoadCapture(f *testing.F) {
	run := cleanRun(f, testCapability(), nil)
	good, err := canonjson.Marshal(captureFor(run))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(bytes.Replace(good, []byte(`"state":"captured"`), []byte(`"state":"truncated"`), 1))
	f.Add(bytes.Replace(good, []byte(`"total":1`), []byte(`"total":2`), 1))
	f.Add([]byte(`{"schema":"browser-run-capture/v1"}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		fuzzLoad(t, raw, receipt.LoadCapture)
	})
}
