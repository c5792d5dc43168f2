package browser

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/testsite"
	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
)

// evilName is the input that, inserted unescaped into a JSON request
// body, adds a member "tag" to it (issue 22.5).
const evilName = `Evil", "tag": "x`

// apiCap fills the API console's request body with body (a template over
// the input "name") and sends it, consequential.
func apiCap(origin, body string) *capability.Capability {
	c := barrierCap(origin, testsite.APIConsolePath,
		capability.Action{ID: "fill-body", Operation: capability.OpFill, Intent: "Type the request body",
			Effect: capability.EffectReversible, Confirmation: capability.ConfirmNone,
			LocatorCandidates: []locator.Candidate{{Strategy: locator.Label, Label: "Request body", Exact: true}},
			Value:             body,
			Postcondition: &capability.Condition{Kind: capability.CondLocatorVisible,
				LocatorCandidates: []locator.Candidate{role("button", "Send request")}}},
		barrierClick("send", capability.EffectConsequential, textCond("Request accepted"), role("button", "Send request")),
	)
	c.Inputs = []capability.Input{{Name: "name", Type: capability.InputString, Required: true, MaxLength: 200}}
	return c
}

// TestTemplateEncodingJSONInjection: with {{name|json}} the input that used
// to add a member to the request stays one string value; the server
// parses the body the page sent and records exactly the two members of
// the template. The same template without an encoding is refused before
// the browser is touched.
func TestTemplateEncodingJSONInjection(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	origin := s.Teller.Origin()

	t.Run("unencoded is refused", func(t *testing.T) {
		c := apiCap(origin, `{"name": "{{name}}", "tag": "ok"}`)
		_, err := runtime.Execute(tctx(t, 30*time.Second), c, map[string]any{"name": evilName},
			runtime.WithDriver(d), runtime.WithRunDir(t.TempDir()), approveAll())
		var ce *runtime.CapabilityError
		if !errors.As(err, &ce) || !reflect.DeepEqual(ce.Problems.Codes(), []capability.Code{capability.CodeTemplateEncodingRequired}) {
			t.Fatalf("Execute = %v, want a validation error %s", err, capability.CodeTemplateEncodingRequired)
		}
		if got := s.Teller.APIRequests(); len(got) != 0 {
			t.Fatalf("the server got %d requests", len(got))
		}
	})

	t.Run("json encoding is inert", func(t *testing.T) {
		c := apiCap(origin, `{"name": {{name|json}}, "tag": "ok"}`)
		for i, name := range []string{evilName, `back\slash "quoted" </script> ✓`, "line\nbreak\ttab"} {
			res := execute(t, tctx(t, 60*time.Second), d, c, map[string]any{"name": name}, approveAll())
			wantState(t, res, runtime.StateCompleted, "")
			got := s.Teller.APIRequests()
			if len(got) != i+1 {
				t.Fatalf("server recorded %d requests, want %d", len(got), i+1)
			}
			want := map[string]any{"name": name, "tag": "ok"}
			if !reflect.DeepEqual(got[i], want) {
				t.Fatalf("server parsed %#v, want %#v", got[i], want)
			}
		}
	})
}

// TestApprovalShowsInputsLive: in a real run the approver of the send
// click is shown the resolved input its request body uses, the receipt
// records its name and shown hash (never the value), and VerifyRun
// (inside execute) accepts it.
func TestApprovalShowsInputsLive(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	c := apiCap(s.Teller.Origin(), `{"name": {{name|json}}, "tag": "ok"}`)
	var shown []runtime.ApprovalInput
	approver := runtime.WithApprover(runtime.ApproverFunc(func(_ context.Context, req runtime.ApprovalRequest) (runtime.Approval, error) {
		shown = req.Inputs
		return runtime.Approval{ActionID: req.ActionID, Approved: true, Approver: "supervisor"}, nil
	}))
	res := execute(t, tctx(t, 60*time.Second), d, c, map[string]any{"name": evilName}, approver)
	wantState(t, res, runtime.StateCompleted, "")
	want := []runtime.ApprovalInput{{Name: "name", Source: receipt.ShownSupplied, Value: evilName, Text: evilName}}
	if !reflect.DeepEqual(shown, want) {
		t.Fatalf("approver shown %#v, want %#v", shown, want)
	}
	r := readReceipt(t, res)
	ap := r.Actions[len(r.Actions)-1].Approval
	if ap == nil || !reflect.DeepEqual(ap.ShownInputs, []string{"name"}) || ap.ShownHash == "" {
		t.Fatalf("approval proof %+v", ap)
	}
	raw, err := os.ReadFile(filepath.Join(res.RunDir, receipt.FileReceipt))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(raw, []byte("Evil")) {
		t.Error("the receipt holds the input value")
	}
}

// picksCap clicks button[data-pick="{{pick}}"] on the picks page and
// reads what the page says was picked.
func picksCap(origin string) *capability.Capability {
	c := barrierCap(origin, testsite.PicksPath,
		capability.Action{ID: "pick", Operation: capability.OpClick, Intent: "Pick the button the input names",
			Effect: capability.EffectReadOnly, Confirmation: capability.ConfirmNone,
			LocatorCandidates: []locator.Candidate{{Strategy: locator.CSS, CSS: `button[data-pick="{{pick}}"]`}},
			CSSOnlyReason:     "the buttons differ only by their data-pick attribute",
			Postcondition:     textCond("Picked:")},
		capability.Action{ID: "read", Operation: capability.OpExtract, Intent: "Read what was picked",
			Effect: capability.EffectReadOnly, Confirmation: capability.ConfirmNone, Output: "picked",
			LocatorCandidates: []locator.Candidate{{Strategy: locator.Role, Role: "status"}},
			Extract:           &capability.Extraction{Mode: capability.ExtractText},
			Postcondition:     &capability.Condition{Kind: capability.CondOutputProduced, Output: "picked"}},
	)
	c.Inputs = []capability.Input{{Name: "pick", Type: capability.InputString, Required: true, MaxLength: 100}}
	c.Outputs = []capability.Output{{Name: "picked", Kind: capability.OutputText, Exposure: capability.ExposureModelAndArtifact}}
	return c
}

// TestCSSTemplateIsData: an input substituted into a CSS candidate is
// escaped as a CSS identifier, so it is data in Chromium's selector
// engine. A value with a quote picks exactly the button whose attribute
// holds that quote, and the injection x"], button[data-pick="admin
// (which, pasted raw, widens the selector to the admin button: a wrong
// answer) matches nothing, so the run fails instead of clicking admin.
func TestCSSTemplateIsData(t *testing.T) {
	t.Parallel()
	d := shared(t)
	c := picksCap(sites(t).Teller.Origin())
	if errs := c.ValidateForExecution(); len(errs) > 0 {
		t.Fatalf("capability: %v", errs)
	}
	for _, tc := range []struct{ pick, want string }{
		{"plain", "Picked: plain"},
		{`a"b`, `Picked: a"b`},
	} {
		res := execute(t, tctx(t, 60*time.Second), d, c, map[string]any{"pick": tc.pick})
		wantState(t, res, runtime.StateCompleted, "")
		if got := res.ModelOutputs["picked"]; got != tc.want {
			t.Fatalf("pick %q: output %#v, want %q", tc.pick, got, tc.want)
		}
	}
	res := execute(t, tctx(t, 60*time.Second), d, c, map[string]any{"pick": `x"], button[data-pick="admin`})
	if res.State == runtime.StateCompleted {
		t.Fatalf("the injected selector completed with %#v", res.ModelOutputs["picked"])
	}
	if res.Failure == nil || res.Failure.Reason != string(runtime.ReasonLocatorNotFound) {
		t.Fatalf("want %s, got %+v", runtime.ReasonLocatorNotFound, res.Failure)
	}
}
