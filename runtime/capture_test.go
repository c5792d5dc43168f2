package runtime_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/runtimetest"
)

// captureFixture is a login form: a secret password is typed, then a
// button shows a greeting.
func captureFixture() (*runtimetest.Site, *capability.Capability) {
	s := site(map[string]*runtimetest.Page{
		"/login": {
			Body:  []*runtimetest.Node{textbox("pw", "Password"), button("go", "Sign in"), hidden(heading("hi", "Welcome"))},
			Rules: []runtimetest.Rule{onClick("go", runtimetest.Effect{Show: []string{"hi"}})},
		},
	})
	c := newCap("/login", milestone("login",
		fill("type_pw", "pw", visible(label("Password")), label("Password")),
		click("sign_in", textVisible("Welcome"), role("button", "Sign in")),
	))
	c.Inputs = []capability.Input{{Name: "pw", Type: capability.InputString, Required: true, Secret: true}}
	return s, c
}

func TestCaptureFakeDriver(t *testing.T) {
	s, c := captureFixture()
	mustValid(t, c)
	d := runtimetest.NewDriver(s)
	defer d.Close()
	const secret = "hunter2-Secret-Value"
	res := exec(t, c, d, map[string]any{"pw": secret}, runtime.WithCapture(runtime.DefaultCapturePolicy()))
	if res.State != receipt.TerminalCompleted {
		t.Fatalf("state %s: %s", res.State, dump(res.Failure))
	}
	if _, err := receipt.VerifyRun(context.Background(), res.RunDir, c); err != nil {
		t.Fatalf("VerifyRun: %v", err)
	}
	raw, err := os.ReadFile(filepath.Join(res.RunDir, receipt.FileCapture))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(raw), secret) {
		t.Fatal("capture.json holds the secret input value")
	}
	cp, err := receipt.LoadCapture(raw)
	if err != nil {
		t.Fatal(err)
	}
	if len(cp.Steps) != 2 || cp.Steps[0].ActionID != "type_pw" || cp.Steps[1].ActionID != "sign_in" {
		t.Fatalf("steps: %s", dump(cp.Steps))
	}
	if !strings.Contains(cp.Steps[0].DOM.Content, "[secret:pw]") {
		t.Errorf("the typed secret is not redacted in the DOM: %q", cp.Steps[0].DOM.Content)
	}
	if got := cp.Steps[1].Screenshot; got.State != receipt.CaptureDisabled || got.Reason != receipt.CaptureReasonSecretInput {
		t.Errorf("screenshot after the secret: %+v", got)
	}
	// The fake renders no pixels: the initial screenshot is missing, so
	// the capture is not eligible for an equality claim.
	if got := cp.Initial.Screenshot; got.State != receipt.CaptureMissing || got.Reason != receipt.CaptureReasonDriverError {
		t.Errorf("initial screenshot: %+v", got)
	}
	if cp.Eligible {
		t.Error("a capture with missing sections is eligible")
	}
	if cp.Initial.URL.Content != origin+"/login" || cp.Steps[1].URL.State != receipt.CaptureCaptured {
		t.Errorf("urls: %+v %+v", cp.Initial.URL, cp.Steps[1].URL)
	}
	if cp.PreAttachGap {
		t.Error("a simulated run declares a pre-attach gap")
	}
	lock, err := os.ReadFile(filepath.Join(res.RunDir, receipt.FileLock))
	if err != nil || !strings.Contains(string(lock), receipt.SchemaLockV3) {
		t.Fatalf("lock: %s %v", lock, err)
	}
}

func TestCaptureWithoutCapturer(t *testing.T) {
	s, c := captureFixture()
	d := &plainDriver{runtimetest.NewDriver(s)}
	defer d.Close()
	pol := runtime.CapturePolicy{DOM: true, Events: true}
	res := exec(t, c, d, map[string]any{"pw": "x-secret-x"}, runtime.WithCapture(pol))
	raw, err := os.ReadFile(filepath.Join(res.RunDir, receipt.FileCapture))
	if err != nil {
		t.Fatal(err)
	}
	cp, err := receipt.LoadCapture(raw)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range cp.AllSteps() {
		if st.DOM.State != receipt.CaptureMissing || st.DOM.Reason != receipt.CaptureReasonUnsupported {
			t.Errorf("step %d dom: %+v", st.Index, st.DOM)
		}
		if st.Screenshot.State != receipt.CaptureDisabled || st.Screenshot.Reason != receipt.CaptureReasonPolicy {
			t.Errorf("step %d screenshot: %+v", st.Index, st.Screenshot)
		}
		if st.URL.State != receipt.CaptureCaptured {
			t.Errorf("step %d url: %+v", st.Index, st.URL)
		}
	}
}

// plainDriver hides the fake's Capturer.
type plainDriver struct{ runtime.Driver }

func TestWithCaptureBadLimits(t *testing.T) {
	s, c := captureFixture()
	d := runtimetest.NewDriver(s)
	defer d.Close()
	for _, p := range []runtime.CapturePolicy{
		{MaxEvents: -1}, {MaxEvents: runtime.MaxCaptureEvents + 1}, {MaxTotalBytes: runtime.MaxCaptureTotalBytes + 1},
		{MaxSectionBytes: -5}, {MaxScreenshotBytes: -1}, {MaxEventBytes: -1},
	} {
		_, err := runtime.Execute(context.Background(), c, map[string]any{"pw": "x"},
			runtime.WithDriver(d), runtime.WithRunDir(t.TempDir()), runtime.WithCapture(p))
		if !errors.Is(err, runtime.ErrInvalidArgument) || !strings.Contains(err.Error(), "WithCapture") {
			t.Errorf("%+v: %v", p, err)
		}
	}
	if len(d.Calls()) != 0 {
		t.Errorf("driver called before the refusal: %v", d.Calls())
	}
}
