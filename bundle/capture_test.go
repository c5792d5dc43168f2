package bundle_test

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vera-run/vera/bundle"
	"github.com/vera-run/vera/internal/canonjson"
	"github.com/vera-run/vera/internal/runwrite"
	"github.com/vera-run/vera/receipt"
)

// withCapture gives a run a capture.json (the URL of each step captured,
// the other sections disabled by the policy) and so a v3 run lock.
func withCapture(run *runwrite.Run) {
	r := run.Receipt
	url := testOrigin + "/balance"
	sec := receipt.CaptureSection{State: receipt.CaptureCaptured, Bytes: len(url), SHA256: canonjson.SumBytes([]byte(url)), Content: url}
	off := receipt.CaptureSection{State: receipt.CaptureDisabled, Reason: receipt.CaptureReasonPolicy}
	step := func(i int) receipt.CaptureStep {
		return receipt.CaptureStep{Index: i, URL: sec, Screenshot: off, DOM: off, Accessibility: off, History: off, Storage: off,
			Events: receipt.CaptureEvents{State: receipt.CaptureDisabled, Reason: receipt.CaptureReasonPolicy, Records: []receipt.CaptureEvent{}}}
	}
	c := &receipt.Capture{
		Context:        receipt.CaptureContext{CapabilityID: r.Capability.ID, ExecutionHash: r.Capability.ExecutionHash, Mode: r.ExecutionMode, Browser: r.Environment.Browser, Origins: []string{testOrigin}},
		Policy:         receipt.CapturePolicy{MaxEvents: 1, MaxEventBytes: 1, MaxSectionBytes: 1024, MaxScreenshotBytes: 1, MaxTotalBytes: 4096},
		PreAttachGap:   true,
		RedactedInputs: []string{},
		Initial:        step(0),
		Steps:          []receipt.CaptureStep{},
	}
	for i, a := range r.Actions {
		s := step(i + 1)
		s.ActionID, s.Milestone, s.Visit, s.Operation, s.Status = a.ID, a.Milestone, a.Visit, a.Operation, string(a.Status)
		c.Steps = append(c.Steps, s)
	}
	c.Summarize()
	run.Capture = c
}

// TestSealExcludesCaptures: runs with step captures promote and seal like
// any others, and no capture enters the bundle; a capture slipped into a
// bundle is an unlisted file Verify rejects.
func TestSealExcludesCaptures(t *testing.T) {
	c := testCapability()
	parent := t.TempDir()
	runs := []string{writeRun(t, parent, cleanRun(t, c, withCapture)), writeRun(t, parent, cleanRun(t, c, withCapture))}
	for _, d := range runs {
		if _, err := os.Stat(filepath.Join(d, receipt.FileCapture)); err != nil {
			t.Fatalf("run without capture: %v", err)
		}
		if _, err := receipt.VerifyRun(context.Background(), d, c); err != nil {
			t.Fatalf("VerifyRun: %v", err)
		}
	}
	v, err := receipt.Finalize(context.Background(), c, runs, receipt.WithClock(fixedClock))
	if err != nil {
		t.Fatalf("Finalize: %v", err)
	}
	dst := filepath.Join(t.TempDir(), "bundle")
	if _, err := bundle.Seal(context.Background(), dst, v, runs); err != nil {
		t.Fatalf("Seal: %v", err)
	}
	capRaw := readFile(t, runs[0], receipt.FileCapture)
	filepath.WalkDir(dst, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, _ := os.ReadFile(p)
		if strings.Contains(d.Name(), "capture") || strings.Contains(string(b), receipt.SchemaCapture) || string(b) == string(capRaw) {
			t.Errorf("capture evidence in the bundle: %s", p)
		}
		return nil
	})
	if _, err := bundle.Verify(context.Background(), dst); err != nil {
		t.Fatalf("Verify: %v", err)
	}
	writeFile(t, dst, receipt.FileCapture, capRaw)
	rep, err := bundle.Verify(context.Background(), dst)
	if err == nil || len(rep.Unlisted) != 1 || rep.Unlisted[0] != receipt.FileCapture {
		t.Fatalf("Verify accepted a capture in the bundle: %v %+v", err, rep.Unlisted)
	}
}
