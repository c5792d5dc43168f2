package receipt_test

import (
	"errors"
	"testing"

	"github.com/vera-run/vera/internal/canonjson"
	"github.com/vera-run/vera/receipt"
)

// capturedPair is two runs of testCapability with equal captures.
func capturedPair(t *testing.T) (ra, rb *receipt.Receipt, ca, cb *receipt.Capture) {
	t.Helper()
	x, y := cleanRun(t, testCapability(), nil), cleanRun(t, testCapability(), nil)
	ca, cb = captureFor(x), captureFor(y)
	cb.Steps[0].ElapsedMS += 500 // never compared
	cb.Steps[0].Events.Records[0].Seq = 7
	return x.Receipt, y.Receipt, ca, cb
}

func TestCompareCapturesRules(t *testing.T) {
	ra, rb, ca, cb := capturedPair(t)
	same, err := receipt.Compare(ra, rb, receipt.WithCaptures(ca, cb))
	if err != nil {
		t.Fatal(err)
	}
	if same.Verdict != receipt.StatusUnchanged || same.Policy.Capture == nil {
		b, _ := same.JSON()
		t.Fatalf("equal captures: %s", b)
	}
	plain, _ := receipt.Compare(ra, rb)
	if plain.Policy.Capture != nil || plain.PolicyDigest == same.PolicyDigest {
		t.Error("the capture normalization must be committed only when captures are compared")
	}
	// Whitespace runs in the DOM are collapsed before comparing.
	ca.Steps[1].DOM = textSection("<p>a  b\n\t c</p>")
	cb.Steps[1].DOM = textSection(" <p>a b c</p>\n")
	ca.Summarize()
	cb.Summarize()
	if r, _ := receipt.Compare(ra, rb, receipt.WithCaptures(ca, cb)); r.Verdict != receipt.StatusUnchanged {
		b, _ := r.JSON()
		t.Errorf("whitespace: %s", b)
	}

	tests := map[string]struct {
		edit  func(ca, cb *receipt.Capture)
		want  receipt.ChangeStatus
		align receipt.AlignCode
	}{
		"text changed": {func(_, cb *receipt.Capture) {
			cb.Steps[2].Accessibility = textSection("RootWebArea \"Other\"\n")
		}, receipt.StatusChanged, ""},
		"screenshot changed": {func(_, cb *receipt.Capture) {
			b := []byte("other-png")
			cb.Steps[2].Screenshot.SHA256 = canonjson.SumBytes(b)
		}, receipt.StatusChanged, ""},
		"event changed": {func(_, cb *receipt.Capture) { cb.Steps[0].Events.Records[0].Text = "bye" }, receipt.StatusChanged, ""},
		"truncated": {func(_, cb *receipt.Capture) {
			cb.Steps[3].DOM.State, cb.Steps[3].DOM.Reason = receipt.CaptureTruncated, receipt.CaptureReasonSectionLimit
		}, receipt.StatusUnknown, ""},
		"missing": {func(_, cb *receipt.Capture) {
			cb.Steps[3].History = receipt.CaptureSection{State: receipt.CaptureMissing, Reason: receipt.CaptureReasonDriverError}
		}, receipt.StatusUnknown, ""},
		"disabled on one side": {func(_, cb *receipt.Capture) {
			cb.Steps[3].Storage = receipt.CaptureSection{State: receipt.CaptureDisabled, Reason: receipt.CaptureReasonPolicy}
		}, receipt.StatusUnknown, ""},
		"disabled on both sides": {func(ca, cb *receipt.Capture) {
			off := receipt.CaptureSection{State: receipt.CaptureDisabled, Reason: receipt.CaptureReasonPolicy}
			ca.Steps[3].Storage, cb.Steps[3].Storage = off, off
		}, receipt.StatusUnchanged, ""},
		"context differs":     {func(_, cb *receipt.Capture) { cb.Context.Viewport = "800x600" }, receipt.StatusUnknown, receipt.AlignCaptureContext},
		"step record missing": {func(_, cb *receipt.Capture) { cb.Steps[4].ActionID = "renamed" }, receipt.StatusUnknown, receipt.AlignCaptureMissing},
		"duplicate record": {func(_, cb *receipt.Capture) {
			cb.Steps[4].ActionID, cb.Steps[4].Visit = cb.Steps[3].ActionID, cb.Steps[3].Visit
		}, receipt.StatusUnknown, receipt.AlignDuplicate},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			ra, rb, ca, cb := capturedPair(t)
			tc.edit(ca, cb)
			r, err := receipt.Compare(ra, rb, receipt.WithCaptures(ca, cb))
			if err != nil {
				t.Fatal(err)
			}
			if r.Verdict != tc.want {
				b, _ := r.JSON()
				t.Fatalf("verdict %s, want %s\n%s", r.Verdict, tc.want, b)
			}
			found := tc.align == ""
			for _, f := range r.AlignmentFailures {
				if f.Code == tc.align {
					found = true
				}
			}
			if !found {
				t.Errorf("no alignment failure %s: %+v", tc.align, r.AlignmentFailures)
			}
		})
	}
	ra, rb, ca, _ = capturedPair(t)
	r, err := receipt.Compare(ra, rb, receipt.WithCaptures(ca, nil))
	if err != nil || r.Verdict != receipt.StatusUnknown || len(r.AlignmentFailures) != 1 || r.AlignmentFailures[0].Code != receipt.AlignCaptureMissing {
		t.Errorf("one capture: %v %+v", err, r)
	}
}

func TestCompareCapturesMisuse(t *testing.T) {
	ra, rb, ca, cb := capturedPair(t)
	for name, opts := range map[string][]receipt.CompareOption{
		"no capture":         {receipt.WithCaptures(nil, nil)},
		"capture of another": {receipt.WithCaptures(cb, ca)},
		"screenshot rule":    {receipt.WithCaptures(ca, cb), receipt.WithRule(receipt.Rule{Kind: receipt.ArtifactScreenshot, Find: "a"})},
	} {
		if _, err := receipt.Compare(ra, rb, opts...); !errors.Is(err, receipt.ErrCompare) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestCompareCapturesAlignmentSides pins the side of a capture alignment
// failure: the capture at fault, none when both are (FORMAT.md 7.1).
func TestCompareCapturesAlignmentSides(t *testing.T) {
	for name, tc := range map[string]struct {
		edit func(ca, cb *receipt.Capture)
		code receipt.AlignCode
		side string
	}{
		"missing in a":    {func(ca, _ *receipt.Capture) { ca.Steps[4].ActionID = "renamed" }, receipt.AlignCaptureMissing, "a"},
		"missing in b":    {func(_, cb *receipt.Capture) { cb.Steps[4].ActionID = "renamed" }, receipt.AlignCaptureMissing, "b"},
		"missing in both": {func(ca, cb *receipt.Capture) { ca.Steps[4].ActionID, cb.Steps[4].ActionID = "renamed", "renamed" }, receipt.AlignCaptureMissing, ""},
		"duplicate in a": {func(ca, _ *receipt.Capture) {
			ca.Steps[4].ActionID, ca.Steps[4].Visit = ca.Steps[3].ActionID, ca.Steps[3].Visit
		}, receipt.AlignDuplicate, "a"},
		"duplicate in both": {func(ca, cb *receipt.Capture) {
			ca.Steps[4].ActionID, ca.Steps[4].Visit = ca.Steps[3].ActionID, ca.Steps[3].Visit
			cb.Steps[4].ActionID, cb.Steps[4].Visit = cb.Steps[3].ActionID, cb.Steps[3].Visit
		}, receipt.AlignDuplicate, ""},
	} {
		t.Run(name, func(t *testing.T) {
			ra, rb, ca, cb := capturedPair(t)
			tc.edit(ca, cb)
			r, err := receipt.Compare(ra, rb, receipt.WithCaptures(ca, cb))
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, f := range r.AlignmentFailures {
				if f.Code == tc.code {
					found = true
					if f.Side != tc.side {
						t.Errorf("%s side %q, want %q", f.Code, f.Side, tc.side)
					}
				}
			}
			if !found {
				t.Errorf("no %s: %+v", tc.code, r.AlignmentFailures)
			}
		})
	}
}
