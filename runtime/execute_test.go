package runtime_test

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/runtimetest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// tellerSite is a synthetic teller console: sign in, search a member, read
// the member page; member 99 does not exist.
func tellerSite() *runtimetest.Site {
	main := &runtimetest.Node{ID: "main", Tag: "main", Children: []*runtimetest.Node{
		{ID: "acc", Tag: "h2", Text: "Accounts"},
		{ID: "name", Tag: "p", TestID: "member-name", Text: "Mario Rossi"},
		{ID: "sav", Tag: "p", TestID: "balance-savings", Text: "$12,480.55"},
		{ID: "chk", Tag: "p", TestID: "balance-checking", Text: "$1,204.10"},
	}}
	return site(map[string]*runtimetest.Page{
		"/login": {Body: []*runtimetest.Node{
			{ID: "username", Tag: "input", Label: "Username", Attributes: map[string]string{"name": "username"}},
			{ID: "password", Tag: "input", Label: "Password", Attributes: map[string]string{"type": "password"}},
			button("signin", "Sign in"),
		}, Rules: []runtimetest.Rule{onClick("signin", runtimetest.Effect{Navigate: "/members"})}},
		"/members": {Body: []*runtimetest.Node{
			textbox("member-id", "Member ID"),
			{ID: "search", Tag: "button", Text: "Search", TestID: "member-search-submit"},
		}, Rules: []runtimetest.Rule{onClick("search", runtimetest.Effect{Navigate: "/members/{{value:member-id}}"})}},
		"/members/42": page(main),
		"/members/99": page(para("nf", "No member found")),
	})
}

var tellerInputs = map[string]any{"username": "teller-7", "password": "hunter2-secret", "member_id": "42"}

func TestTellerCompleted(t *testing.T) {
	c := loadCap(t, "teller.json")
	mustValid(t, c)
	d := runtimetest.NewDriver(tellerSite())
	defer d.Close()
	res := exec(t, c, d, tellerInputs)
	if res.State != receipt.TerminalCompleted || !res.Clean || res.Failure != nil {
		t.Fatalf("result = %s", dump(res))
	}
	want := map[string]any{"member_name": "Mario Rossi", "savings": "$12,480.55", "checking": "$1,204.10"}
	if got := res.ModelOutputs["balances"]; !reflect.DeepEqual(got, want) {
		t.Errorf("balances = %#v", got)
	}
	var ids []string
	for _, a := range res.Actions {
		ids = append(ids, a.ID)
		if a.Status != receipt.ActionPassed || a.LocatorIndex != 0 || a.Postcondition != "verified" {
			t.Errorf("action %s = %+v", a.ID, a)
		}
	}
	if want := []string{"fill-username", "fill-password", "sign-in", "fill-member-id", "submit-search", "extract-balances"}; !slices.Equal(ids, want) {
		t.Errorf("actions = %v", ids)
	}
	if res.Mode != runtime.ModeSimulated || res.RunDir == "" || res.ReceiptHash == "" {
		t.Errorf("mode %q dir %q hash %q", res.Mode, res.RunDir, res.ReceiptHash)
	}
	if !slices.Equal(res.Origins, []string{origin}) {
		t.Errorf("origins = %v", res.Origins)
	}
	if len(res.Milestones) != 3 || res.Milestones[2].Next != "completed" {
		t.Errorf("milestones = %+v", res.Milestones)
	}
}

func TestTellerBusinessOutcome(t *testing.T) {
	c := loadCap(t, "teller.json")
	d := runtimetest.NewDriver(tellerSite())
	defer d.Close()
	in := map[string]any{"username": "teller-7", "password": "pw", "member_id": "99"}
	res := exec(t, c, d, in)
	if res.State != receipt.TerminalBusinessOutcome || res.Outcome != "member_not_found" || res.Clean {
		t.Fatalf("result = %s", dump(res))
	}
	if last := res.Actions[len(res.Actions)-1]; last.ID != "submit-search" || last.Status != receipt.ActionPassed {
		t.Errorf("last action = %+v", last)
	}
	if _, ok := res.ModelOutputs["balances"]; ok {
		t.Error("balances produced")
	}
}

// callsOf returns the methods the fake saw.
func callsOf(d *runtimetest.Driver) []runtimetest.Method {
	var out []runtimetest.Method
	for _, c := range d.Calls() {
		out = append(out, c.Method)
	}
	return out
}

func TestRefusalsTouchNothing(t *testing.T) {
	riskyDraft := func() *capability.Capability {
		c := loadCap(t, "teller.json")
		c.State = capability.StateDraft
		return c
	}
	tests := []struct {
		name   string
		cap    func() *capability.Capability
		inputs map[string]any
		opts   []runtime.Option
		is     error
		check  func(t *testing.T, err error)
	}{
		{name: "draft", cap: riskyDraft, inputs: tellerInputs, is: runtime.ErrNotExecutable},
		{name: "scaffold", cap: func() *capability.Capability {
			c := loadCap(t, "teller.json")
			c.State = capability.StateScaffold
			return c
		}, inputs: tellerInputs, is: runtime.ErrNotExecutable},
		{name: "risky below discovered", cap: func() *capability.Capability {
			c := paymentCap()
			c.State = capability.StateDraft
			return c
		}, inputs: map[string]any{}, is: runtime.ErrNotExecutable},
		{name: "unknown state", cap: func() *capability.Capability {
			c := loadCap(t, "teller.json")
			c.State = "approved"
			return c
		}, inputs: tellerInputs, is: runtime.ErrNotExecutable},
		{name: "invalid capability", cap: func() *capability.Capability {
			c := loadCap(t, "teller.json")
			c.Goal = ""
			c.Site.AllowedOrigins = []string{"http://example.com"}
			return c
		}, inputs: tellerInputs, is: runtime.ErrInvalidCapability, check: func(t *testing.T, err error) {
			var list capability.ErrorList
			if !errors.As(err, &list) || len(list) < 2 || !errors.Is(err, capability.ErrInvalid) {
				t.Errorf("want every problem: %v", err)
			}
		}},
		{name: "unknown effect", cap: func() *capability.Capability {
			c := loadCap(t, "teller.json")
			c.Milestones[0].Actions[0].Effect = "destructive"
			return c
		}, inputs: tellerInputs, is: runtime.ErrInvalidCapability,
			check: func(t *testing.T, err error) {
				var list capability.ErrorList
				if !errors.As(err, &list) || !list.Has(capability.CodeUnknownEffect) {
					t.Errorf("codes: %v", err)
				}
			}},
		{name: "wrong confirmation", cap: func() *capability.Capability {
			c := paymentCap()
			c.Milestones[0].Actions[0].Confirmation = capability.ConfirmNone
			return c
		}, inputs: map[string]any{}, is: runtime.ErrInvalidCapability,
			check: func(t *testing.T, err error) {
				var list capability.ErrorList
				if !errors.As(err, &list) || !list.Has(capability.CodeConfirmationMismatch) {
					t.Errorf("codes: %v", err)
				}
			}},
		{name: "navigate off origin", cap: func() *capability.Capability {
			c := loadCap(t, "teller.json")
			c.Runtime.Start = "https://evil.example/login"
			return c
		}, inputs: tellerInputs, is: runtime.ErrInvalidCapability},
		{name: "inputs missing extra mistyped", cap: func() *capability.Capability { return loadCap(t, "teller.json") },
			inputs: map[string]any{"username": 7, "member_id": "1234567890123", "bogus": true},
			is:     runtime.ErrInputs, check: func(t *testing.T, err error) {
				var ie *runtime.InputError
				if !errors.As(err, &ie) {
					t.Fatalf("err = %T", err)
				}
				for _, p := range [][2]string{{"bogus", runtime.InputUnknown}, {"member_id", runtime.InputLength}, {"password", runtime.InputMissing}, {"username", runtime.InputType}} {
					if !ie.Has(p[0], p[1]) {
						t.Errorf("missing %v in %v", p, ie.Problems)
					}
				}
				if len(ie.Problems) != 4 {
					t.Errorf("problems %v", ie.Problems)
				}
			}},
		{name: "typed inputs", cap: typedInputsCap, inputs: map[string]any{
			"count": 0, "when": "2026/01/02", "color": "green", "amount": "12",
		}, is: runtime.ErrInputs, check: func(t *testing.T, err error) {
			var ie *runtime.InputError
			errors.As(err, &ie)
			for _, p := range [][2]string{{"amount", runtime.InputType}, {"color", runtime.InputEnum}, {"count", runtime.InputRange}, {"when", runtime.InputFormat}} {
				if !ie.Has(p[0], p[1]) {
					t.Errorf("missing %v in %v", p, ie.Problems)
				}
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := runtimetest.NewDriver(tellerSite())
			defer d.Close()
			dir := t.TempDir()
			opts := append([]runtime.Option{runtime.WithDriver(d), runtime.WithRunDir(dir)}, tt.opts...)
			res, err := runtime.Execute(context.Background(), tt.cap(), tt.inputs, opts...)
			if !errors.Is(err, tt.is) || res != nil {
				t.Fatalf("Execute = %v, %v; want %v", res, err, tt.is)
			}
			if tt.check != nil {
				tt.check(t, err)
			}
			if calls := d.Calls(); len(calls) != 0 {
				t.Errorf("driver touched: %v", callsOf(d))
			}
			if entries, _ := os_ReadDir(dir); len(entries) != 0 {
				t.Errorf("evidence written for a refusal")
			}
		})
	}
	if _, err := runtime.Execute(context.Background(), loadCap(t, "teller.json"), tellerInputs); !errors.Is(err, runtime.ErrNoDriver) {
		t.Errorf("no driver: %v", err)
	}
	if _, err := runtime.Execute(context.Background(), nil, nil); !errors.Is(err, runtime.ErrInvalidCapability) {
		t.Errorf("nil capability: %v", err)
	}
}

// typedInputsCap declares one input of every type, used in a fill.
func typedInputsCap() *capability.Capability {
	c := newCap("/form", milestone("form",
		fill("f-count", "count", nil, label("Count")),
		fill("f-when", "when", nil, label("When")),
		fill("f-color", "color", nil, label("Color")),
		fill("f-amount", "amount", nil, label("Amount")),
	))
	for i := range c.Milestones[0].Actions {
		c.Milestones[0].Actions[i].Postcondition = visible(label("Count"))
	}
	c.Inputs = []capability.Input{
		{Name: "count", Type: capability.InputInteger, Required: true, Minimum: ptrF(1), Maximum: ptrF(9)},
		{Name: "when", Type: capability.InputDate, Required: true},
		{Name: "color", Type: capability.InputEnum, Required: true, Values: []string{"red", "blue"}},
		{Name: "amount", Type: capability.InputNumber, Required: true},
	}
	return c
}

func ptrF(f float64) *float64 { return &f }

func TestTypedInputsAccepted(t *testing.T) {
	c := typedInputsCap()
	mustValid(t, c)
	s := site(map[string]*runtimetest.Page{"/form": page(
		textbox("c", "Count"), textbox("w", "When"), textbox("k", "Color"), textbox("a", "Amount"))})
	d := runtimetest.NewDriver(s)
	defer d.Close()
	res := exec(t, c, d, map[string]any{"count": json_Number("3"), "when": "2026-01-02", "color": "blue", "amount": json_Number("1.50")})
	if res.State != receipt.TerminalCompleted {
		t.Fatalf("%s", dump(res))
	}
	var fills []string
	for _, call := range d.Calls() {
		if call.Method == runtimetest.MethodAct {
			fills = append(fills, call.Act.Value)
		}
	}
	if want := []string{"3", "2026-01-02", "blue", "1.5"}; !slices.Equal(fills, want) {
		t.Errorf("filled %v, want %v", fills, want)
	}
}

// twoButtons has an ambiguous "Go" name and unique test ids.
func fallbackSite() *runtimetest.Site {
	return site(map[string]*runtimetest.Page{"/": {Body: []*runtimetest.Node{
		{ID: "go1", Tag: "button", Text: "Go", TestID: "go-first"},
		{ID: "go2", Tag: "button", Text: "Go", TestID: "go-second"},
		para("status", "Ready"),
	}, Rules: []runtimetest.Rule{
		onClick("go1", runtimetest.Effect{SetText: map[string]string{"status": "first"}}),
		onClick("go2", runtimetest.Effect{SetText: map[string]string{"status": "second"}}),
	}}})
}

func TestLocatorFallbackOrder(t *testing.T) {
	tests := []struct {
		name      string
		cands     []locator.Candidate
		wantIndex int
		wantClick string
		wantTried []locator.Attempt
		wantState receipt.TerminalState
	}{
		{"first unique wins", cands(role("button", "Go"), testID("go-second")), 1, "go2",
			[]locator.Attempt{{Index: 0, Matches: 2, Reason: locator.ReasonAmbiguous}}, receipt.TerminalCompleted},
		{"recorded order beats DOM order", cands(testID("go-second"), testID("go-first")), 0, "go2", nil, receipt.TerminalCompleted},
		{"no match then unique", cands(role("button", "Stop"), label("Nope"), testID("go-first")), 2, "go1",
			[]locator.Attempt{{Index: 0, Reason: locator.ReasonNoMatch}, {Index: 1, Reason: locator.ReasonNoMatch}}, receipt.TerminalCompleted},
		{"ambiguous only", cands(role("button", "Go")), -1, "",
			[]locator.Attempt{{Index: 0, Matches: 2, Reason: locator.ReasonAmbiguous}}, receipt.TerminalRecoveryRequested},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newCap("/", milestone("m", click("go", visible(role("button", "Go")), tt.cands...)))
			d := runtimetest.NewDriver(fallbackSite())
			defer d.Close()
			res := exec(t, c, d, nil, runtime.WithPollInterval(time.Millisecond))
			if res.State != tt.wantState {
				t.Fatalf("state %s: %s", res.State, dump(res))
			}
			a := res.Actions[0]
			if a.LocatorIndex != tt.wantIndex || !reflect.DeepEqual(a.Tried, tt.wantTried) {
				t.Errorf("index %d tried %v", a.LocatorIndex, a.Tried)
			}
			clicks := d.Clicks()
			if tt.wantClick == "" && len(clicks) != 0 || tt.wantClick != "" && !slices.Equal(clicks, []string{tt.wantClick}) {
				t.Errorf("clicks = %v", clicks)
			}
			if tt.wantState == receipt.TerminalRecoveryRequested && res.Failure.Reason != "locator_ambiguous" {
				t.Errorf("failure %+v", res.Failure)
			}
		})
	}
}

func frameSite(frameURL string) *runtimetest.Site {
	return site(map[string]*runtimetest.Page{
		"/":                           page(heading("h", "Outer"), &runtimetest.Node{ID: "f", Tag: "iframe", Frame: &runtimetest.FrameFixture{URL: frameURL}}),
		"/inner":                      {Body: []*runtimetest.Node{button("b", "Inside"), para("s", "idle")}, Rules: []runtimetest.Rule{onClick("b", runtimetest.Effect{SetText: map[string]string{"s": "clicked"}})}},
		"http://127.0.0.1:4011/inner": page(button("b", "Inside")),
	})
}

func TestFrames(t *testing.T) {
	frameCap := func() *capability.Capability {
		c := newCap("/", milestone("m", click("inside", textVisible("clicked"), role("button", "Inside"))))
		c.Runtime.FrameSelectors = []string{"#f"}
		return c
	}
	t.Run("allowed frame", func(t *testing.T) {
		c := frameCap()
		mustValid(t, c)
		d := runtimetest.NewDriver(frameSite("/inner"))
		defer d.Close()
		res := exec(t, c, d, nil)
		if res.State != receipt.TerminalCompleted {
			t.Fatalf("%s", dump(res))
		}
	})
	t.Run("frame on another origin", func(t *testing.T) {
		c := frameCap()
		d := runtimetest.NewDriver(frameSite("http://127.0.0.1:4011/inner"))
		defer d.Close()
		res := exec(t, c, d, nil)
		// The browser blocks the frame document (a frame violation) and the
		// frame's actual origin is not allowed: either check may fire first.
		if res.State != receipt.TerminalFailed ||
			!(res.Failure.Category == receipt.CategoryFrameNotAllowed || res.Failure.Category == receipt.CategoryOriginNotAllowed) {
			t.Fatalf("%s", dump(res))
		}
		t.Logf("failure %+v", res.Failure)
		if len(d.Clicks()) != 0 {
			t.Errorf("clicked %v", d.Clicks())
		}
	})
	t.Run("frame origin checked even without a violation report", func(t *testing.T) {
		c := frameCap()
		d := runtimetest.NewDriver(frameSite("http://127.0.0.1:4011/inner"))
		defer d.Close()
		res := exec(t, c, quietDriver{d}, nil)
		if res.State != receipt.TerminalFailed || res.Failure.Category != receipt.CategoryFrameNotAllowed || res.Failure.Reason != "frame_origin_not_allowed" {
			t.Fatalf("%s", dump(res))
		}
		if len(d.Clicks()) != 0 {
			t.Errorf("clicked %v", d.Clicks())
		}
	})
	t.Run("missing frame fails the locator", func(t *testing.T) {
		c := frameCap()
		c.Runtime.FrameSelectors = []string{"#nope"}
		d := runtimetest.NewDriver(frameSite("/inner"))
		defer d.Close()
		res := exec(t, c, d, nil, runtime.WithPollInterval(time.Millisecond))
		if res.State != receipt.TerminalFailed || res.Failure.Category != receipt.CategoryFrameNotAllowed || res.Failure.Reason != "frame_not_found" {
			t.Fatalf("%s", dump(res))
		}
	})
	t.Run("missing frame never satisfies locator_hidden", func(t *testing.T) {
		c := newCap("/", capability.Milestone{ID: "m", Intent: "wait", Transitions: []capability.Transition{
			{When: capability.Condition{Kind: capability.CondLocatorHidden, LocatorCandidates: cands(role("button", "Inside"))}, To: "completed"},
		}})
		c.Runtime.FrameSelectors = []string{"#nope"}
		mustValid(t, c)
		d := runtimetest.NewDriver(frameSite("/inner"))
		defer d.Close()
		res := exec(t, c, d, nil, runtime.WithPollInterval(time.Millisecond))
		if res.State != receipt.TerminalFailed || res.Failure.Reason != "no_transition" {
			t.Fatalf("%s", dump(res))
		}
		// The same condition in the real frame holds once the button is absent.
		c.Runtime.FrameSelectors = []string{"#f"}
		c.Milestones[0].Transitions[0].When.LocatorCandidates = cands(role("button", "Absent"))
		res = exec(t, c, d, nil)
		if res.State != receipt.TerminalCompleted {
			t.Fatalf("%s", dump(res))
		}
	})
}

// quietDriver hides the fake's violation reports, like a driver that
// reports only the frame's actual origin.
type quietDriver struct{ *runtimetest.Driver }

func (quietDriver) Violations(context.Context) ([]runtime.Violation, error) { return nil, nil }

// paymentCap has one consequential click.
func paymentCap() *capability.Capability {
	pay := click("pay", textVisible("Payment sent"), role("button", "Send payment"))
	pay.Effect, pay.Confirmation = capability.EffectConsequential, capability.ConfirmActionTime
	return newCap("/pay", milestone("pay", pay))
}

func paymentSite() *runtimetest.Site {
	return site(map[string]*runtimetest.Page{"/pay": {
		Body:  []*runtimetest.Node{button("send", "Send payment"), para("st", "Draft")},
		Rules: []runtimetest.Rule{onClick("send", runtimetest.Effect{SetText: map[string]string{"st": "Payment sent"}})},
	}})
}

func TestGates(t *testing.T) {
	approve := func(who string, ok bool, id string) runtime.Approver {
		return runtime.ApproverFunc(func(_ context.Context, req runtime.ApprovalRequest) (runtime.Approval, error) {
			if id == "" {
				id = req.ActionID
			}
			return runtime.Approval{ActionID: id, Approved: ok, Approver: who}, nil
		})
	}
	tests := []struct {
		name      string
		opts      []runtime.Option
		state     receipt.TerminalState
		reason    string
		clicked   bool
		approval  *receipt.ApprovalProof
		wantClean bool
	}{
		{"no approver", nil, receipt.TerminalStoppedAtGate, "no_approver", false, nil, false},
		{"denied", []runtime.Option{runtime.WithApprover(approve("checker", false, "")), runtime.WithRequester("maker")},
			receipt.TerminalStoppedAtGate, "denied", false,
			&receipt.ApprovalProof{Approved: false, Requester: "maker", Approver: "checker"}, false},
		{"approval names another action", []runtime.Option{runtime.WithApprover(approve("checker", true, "other-action"))},
			receipt.TerminalFailed, "approval_mismatch", false, nil, false},
		{"approver error", []runtime.Option{runtime.WithApprover(runtime.ApproverFunc(func(context.Context, runtime.ApprovalRequest) (runtime.Approval, error) {
			return runtime.Approval{}, errors.New("inbox offline")
		}))}, receipt.TerminalStoppedAtGate, "approver_error", false, nil, false},
		{"approved by checker", []runtime.Option{runtime.WithApprover(approve("checker", true, "")), runtime.WithRequester("maker")},
			receipt.TerminalCompleted, "", true,
			&receipt.ApprovalProof{Approved: true, Requester: "maker", Approver: "checker"}, true},
		{"self approval flagged not blocked", []runtime.Option{runtime.WithApprover(approve("maker", true, "")), runtime.WithRequester("maker")},
			receipt.TerminalCompleted, "", true,
			&receipt.ApprovalProof{Approved: true, Requester: "maker", Approver: "maker", SelfApproved: true}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := paymentCap()
			mustValid(t, c)
			d := runtimetest.NewDriver(paymentSite())
			defer d.Close()
			res := exec(t, c, d, nil, tt.opts...)
			if res.State != tt.state || res.Clean != tt.wantClean {
				t.Fatalf("%s", dump(res))
			}
			if tt.reason != "" && (res.Failure == nil || res.Failure.Reason != tt.reason || res.Failure.Category != receipt.CategoryApprovalRefused) {
				t.Errorf("failure %+v", res.Failure)
			}
			if got := len(d.Clicks()) > 0; got != tt.clicked {
				t.Errorf("clicked = %v", d.Clicks())
			}
			want := tt.approval
			if got := res.Actions[0].Approval; got != nil && want != nil {
				// The approver was shown no inputs; the hash binds that.
				w := *want
				eh, err := c.ExecutionHash()
				if err != nil {
					t.Fatal(err)
				}
				w.ShownHash, _ = receipt.ApprovalShownHash(eh, "pay", nil)
				want = &w
			}
			if !reflect.DeepEqual(res.Actions[0].Approval, want) {
				t.Errorf("approval %+v, want %+v", res.Actions[0].Approval, want)
			}
			if res.StoppedAt != "" && res.StoppedAt != "pay" {
				t.Errorf("stopped at %q", res.StoppedAt)
			}
		})
	}
}

func TestApprovalRequestContents(t *testing.T) {
	c := paymentCap()
	d := runtimetest.NewDriver(paymentSite())
	defer d.Close()
	var got runtime.ApprovalRequest
	res := exec(t, c, d, nil, runtime.WithRequester("maker"), runtime.WithApprover(runtime.ApproverFunc(
		func(_ context.Context, req runtime.ApprovalRequest) (runtime.Approval, error) {
			got = req
			if len(d.Clicks()) != 0 {
				t.Error("clicked before approval")
			}
			return runtime.Approval{ActionID: req.ActionID, Approved: true, Approver: "checker"}, nil
		})))
	h, _ := c.ExecutionHash()
	if res.State != receipt.TerminalCompleted || got.ActionID != "pay" || got.Effect != capability.EffectConsequential ||
		got.Confirmation != capability.ConfirmActionTime || got.Intent != "click pay" || got.ExecutionHash != h ||
		got.Requester != "maker" || got.RunID != res.RunID || got.Milestone != "pay" {
		t.Errorf("request %+v", got)
	}
}

func TestNativeGap(t *testing.T) {
	native := capability.Action{ID: "sign-token", Operation: capability.OpNative, Intent: "Sign with the USB token",
		Effect: capability.EffectReadOnly, Confirmation: capability.ConfirmNone, NativeGap: "Insert the USB token and approve in the desktop signer"}
	c := newCap("/", milestone("m", click("go", textVisible("first"), testID("go-first")), native, click("after", textVisible("second"), testID("go-second"))))
	c.Runtime.MaxActions = 10
	mustValid(t, c)
	d := runtimetest.NewDriver(fallbackSite())
	defer d.Close()
	res := exec(t, c, d, nil)
	if res.State != receipt.TerminalNativeGap || res.NativeGap != native.NativeGap || res.StoppedAt != "sign-token" || res.Clean {
		t.Fatalf("%s", dump(res))
	}
	if !slices.Equal(d.Clicks(), []string{"go1"}) {
		t.Errorf("clicks %v", d.Clicks())
	}
	if st := res.Actions[1].Status; st != receipt.ActionNativeGap {
		t.Errorf("status %s", st)
	}
}

func modalSite() *runtimetest.Site {
	return site(map[string]*runtimetest.Page{
		"/": {Body: []*runtimetest.Node{
			button("open", "Open"), para("st", "closed"),
			hidden(dialog("cookie", "Cookie consent", button("accept", "Accept all"))),
		}, Rules: []runtimetest.Rule{
			onClick("open", runtimetest.Effect{Show: []string{"cookie"}}),
			onClick("accept", runtimetest.Effect{Hide: []string{"cookie"}}, runtimetest.Effect{SetText: map[string]string{"st": "accepted"}}),
		}},
		"/modal-at-start": page(button("open", "Open"), dialog("promo", "Special offer", button("x", "Close"))),
		"/native": {Body: []*runtimetest.Node{button("open", "Open")},
			Rules: []runtimetest.Rule{onClick("open", runtimetest.Effect{Dialog: &runtimetest.DialogEffect{Kind: runtimetest.DialogConfirm, Message: "Leave?"}})}},
	})
}

func TestUnknownModal(t *testing.T) {
	t.Run("in-page dialog after an action", func(t *testing.T) {
		c := newCap("/", milestone("m", click("open", textVisible("closed"), role("button", "Open"))))
		mustValid(t, c)
		d := runtimetest.NewDriver(modalSite())
		defer d.Close()
		res := exec(t, c, d, nil)
		if res.State != receipt.TerminalBlockedByUnknownModal || res.Failure.Reason != "unknown_modal" {
			t.Fatalf("%s", dump(res))
		}
		if !slices.Equal(d.Clicks(), []string{"open"}) {
			t.Errorf("clicks %v", d.Clicks())
		}
	})
	t.Run("dialog present before any action", func(t *testing.T) {
		c := newCap("/modal-at-start", milestone("m", click("open", textVisible("x"), role("button", "Open"))))
		d := runtimetest.NewDriver(modalSite())
		defer d.Close()
		res := exec(t, c, d, nil)
		if res.State != receipt.TerminalBlockedByUnknownModal || len(d.Clicks()) != 0 {
			t.Fatalf("%s clicks %v", dump(res), d.Clicks())
		}
		if res.Actions[0].Status != receipt.ActionBlocked {
			t.Errorf("status %s", res.Actions[0].Status)
		}
	})
	t.Run("known dialog: the next action targets it", func(t *testing.T) {
		c := newCap("/", milestone("m",
			click("open", visible(role("dialog", "Cookie consent")), role("button", "Open")),
			click("accept", textVisible("accepted"), role("button", "Accept all")),
		))
		mustValid(t, c)
		d := runtimetest.NewDriver(modalSite())
		defer d.Close()
		res := exec(t, c, d, nil)
		if res.State != receipt.TerminalCompleted {
			t.Fatalf("%s", dump(res))
		}
		if !slices.Equal(d.Clicks(), []string{"open", "accept"}) {
			t.Errorf("clicks %v", d.Clicks())
		}
	})
	t.Run("native dialog", func(t *testing.T) {
		c := newCap("/native", milestone("m", click("open", textVisible("x"), role("button", "Open"))))
		d := runtimetest.NewDriver(modalSite())
		defer d.Close()
		res := exec(t, c, d, nil)
		if res.State != receipt.TerminalBlockedByUnknownModal || res.Failure.Reason != "native_dialog" {
			t.Fatalf("%s", dump(res))
		}
		if _, _, open := d.Dialog(); !open {
			t.Error("the runtime dismissed the native dialog")
		}
	})
}

func mailSite(route string) *runtimetest.Site {
	return site(map[string]*runtimetest.Page{"/mail": {
		Body: []*runtimetest.Node{{ID: "q", Tag: "input", Role: "searchbox", Name: "Search mail"}},
		Rules: []runtimetest.Rule{{On: runtimetest.Trigger{Node: "q", Act: runtime.ActPress, Key: "Enter"},
			Effects: []runtimetest.Effect{{Navigate: route}}}},
	}})
}

func mailCap() *capability.Capability {
	press := capability.Action{ID: "submit", Operation: capability.OpPress, Intent: "Submit the search", Key: "Enter",
		Effect: capability.EffectReadOnly, Confirmation: capability.ConfirmNone,
		LocatorCandidates: cands(role("searchbox", "Search mail")),
		Postcondition:     &capability.Condition{Kind: capability.CondURLIncludes, Value: "#search/{{query}}"}}
	c := newCap("/mail", milestone("search", fill("fill", "query", visible(role("searchbox", "Search mail")), role("searchbox", "Search mail")), press))
	c.Inputs = []capability.Input{{Name: "query", Type: capability.InputString, Required: true}}
	return c
}

func TestURLIncludesPercentEncoded(t *testing.T) {
	for _, q := range []string{"plain", "a b/c&d", "50% off", "caffè #1", "from:x@y.it"} {
		t.Run(q, func(t *testing.T) {
			c := mailCap()
			mustValid(t, c)
			d := runtimetest.NewDriver(mailSite("#search/{{value:q}}"))
			defer d.Close()
			res := exec(t, c, d, map[string]any{"query": q})
			if res.State != receipt.TerminalCompleted {
				t.Fatalf("%s", dump(res))
			}
		})
	}
	t.Run("staying on the inbox fails", func(t *testing.T) {
		d := runtimetest.NewDriver(mailSite("#inbox"))
		defer d.Close()
		res := exec(t, mailCap(), d, map[string]any{"query": "invoices"}, runtime.WithPollInterval(time.Millisecond))
		if res.State != receipt.TerminalFailed || res.Failure.Category != receipt.CategoryUIAssertionFailed || res.Failure.Reason != "postcondition_failed" {
			t.Fatalf("%s", dump(res))
		}
		if res.Actions[1].Postcondition != "failed" {
			t.Errorf("postcondition %q", res.Actions[1].Postcondition)
		}
	})
}

func TestHooksOrder(t *testing.T) {
	c := newCap("/", milestone("first", click("go", textVisible("first"), testID("go-first"))),
		milestone("second", click("again", textVisible("second"), testID("go-second"))))
	c.Milestones[0].Transitions = []capability.Transition{{When: *textVisible("first"), To: "second"}}
	mustValid(t, c)
	d := runtimetest.NewDriver(fallbackSite())
	defer d.Close()
	var events []string
	hooks := &runtime.Hooks{
		MilestoneStart: func(i runtime.MilestoneStartInfo) { events = append(events, "ms:"+i.ID) },
		MilestoneDone:  func(i runtime.MilestoneDoneInfo) { events = append(events, "md:"+i.ID+">"+i.Next) },
		ActionStart:    func(i runtime.ActionStartInfo) { events = append(events, "as:"+i.ID) },
		ActionDone: func(i runtime.ActionDoneInfo) {
			events = append(events, "ad:"+i.Outcome.ID+":"+string(i.Outcome.Status))
		},
		WaitStart: func(i runtime.WaitStartInfo) { events = append(events, "ws:"+string(i.Kind)) },
		WaitDone: func(i runtime.WaitDoneInfo) {
			events = append(events, "wd:"+string(i.Kind)+":"+map[bool]string{true: "ok", false: "no"}[i.Satisfied])
		},
	}
	res := exec(t, c, d, nil, runtime.WithHooks(hooks))
	if res.State != receipt.TerminalCompleted {
		t.Fatalf("%s", dump(res))
	}
	want := []string{
		"ms:first", "as:go", "ws:locator", "wd:locator:ok", "ws:postcondition", "wd:postcondition:ok", "ad:go:passed",
		"ws:transition", "wd:transition:ok", "md:first>second",
		"ms:second", "as:again", "ws:locator", "wd:locator:ok", "ws:postcondition", "wd:postcondition:ok", "ad:again:passed",
		"md:second>completed",
	}
	if !slices.Equal(events, want) {
		t.Errorf("events:\n got %v\nwant %v", events, want)
	}
	// Partially set hooks are fine.
	d2 := runtimetest.NewDriver(fallbackSite())
	defer d2.Close()
	exec(t, c, d2, nil, runtime.WithHooks(&runtime.Hooks{ActionDone: func(runtime.ActionDoneInfo) {}}))
}

func loopSite() *runtimetest.Site {
	return site(map[string]*runtimetest.Page{"/": {
		Body:  []*runtimetest.Node{button("more", "More"), para("st", "ready")},
		Rules: []runtimetest.Rule{onClick("more", runtimetest.Effect{SetText: map[string]string{"st": "ready"}})},
	}})
}

func TestLimits(t *testing.T) {
	loop := func(maxVisits, maxActions int) *capability.Capability {
		m := milestone("loop", click("more", textVisible("ready"), role("button", "More")))
		m.MaxVisits = maxVisits
		// The loop has an exit that never opens, so the capability is
		// valid and only the runtime limit ends it.
		m.Transitions = []capability.Transition{{When: *textVisible("ready"), To: "loop"}, {When: *textVisible("never shown"), To: "completed"}}
		c := newCap("/", m)
		c.Runtime.MaxActions = maxActions
		return c
	}
	t.Run("max visits", func(t *testing.T) {
		d := runtimetest.NewDriver(loopSite())
		defer d.Close()
		res := exec(t, loop(3, 50), d, nil)
		if res.State != receipt.TerminalFailed || res.Failure.Category != receipt.CategoryLimitExceeded || res.Failure.Reason != "max_visits_exceeded" {
			t.Fatalf("%s", dump(res))
		}
		if len(d.Clicks()) != 3 {
			t.Errorf("clicks %d", len(d.Clicks()))
		}
	})
	t.Run("max actions", func(t *testing.T) {
		d := runtimetest.NewDriver(loopSite())
		defer d.Close()
		res := exec(t, loop(10, 4), d, nil)
		if res.State != receipt.TerminalFailed || res.Failure.Reason != "max_actions_exceeded" || len(d.Clicks()) != 4 {
			t.Fatalf("%s clicks %d", dump(res), len(d.Clicks()))
		}
	})
	t.Run("run timeout", func(t *testing.T) {
		c := newCap("/", capability.Milestone{ID: "m", Intent: "wait", Transitions: []capability.Transition{{When: *textVisible("never"), To: "completed"}}})
		c.Runtime.RunTimeoutMS, c.Runtime.TransitionTimeoutMS = 1000, 5000
		mustValid(t, c)
		d := runtimetest.NewDriver(loopSite())
		defer d.Close()
		start := time.Now()
		res := exec(t, c, d, nil)
		if res.State != receipt.TerminalFailed || res.Failure.Category != receipt.CategoryRunTimeout {
			t.Fatalf("%s", dump(res))
		}
		if el := time.Since(start); el > 3*time.Second {
			t.Errorf("took %s", el)
		}
	})
	t.Run("action timeout bounds a missing locator", func(t *testing.T) {
		c := newCap("/", milestone("m", click("x", textVisible("ready"), role("button", "Absent"))))
		c.Milestones[0].Actions[0].Effect = capability.EffectReversible
		c.Milestones[0].Actions[0].TimeoutMS = 150
		d := runtimetest.NewDriver(loopSite())
		defer d.Close()
		res := exec(t, c, d, nil)
		if res.State != receipt.TerminalRecoveryRequested || res.Actions[0].Duration < 150*time.Millisecond {
			t.Fatalf("%s", dump(res))
		}
	})
}

func TestDriverFailures(t *testing.T) {
	t.Run("start page unreachable", func(t *testing.T) {
		c := newCap("/missing", milestone("m", click("more", textVisible("ready"), role("button", "More"))))
		d := runtimetest.NewDriver(loopSite())
		defer d.Close()
		res := exec(t, c, d, nil)
		if res.State != receipt.TerminalFailed || res.Failure.Category != receipt.CategoryTargetUnreachable {
			t.Fatalf("%s", dump(res))
		}
	})
	t.Run("browser crash", func(t *testing.T) {
		c := newCap("/", milestone("m", click("more", textVisible("ready"), role("button", "More")),
			click("again", textVisible("ready"), role("button", "More"))))
		d := runtimetest.NewDriver(loopSite())
		defer d.Close()
		hooks := &runtime.Hooks{ActionDone: func(runtime.ActionDoneInfo) { d.Crash() }}
		res := exec(t, c, d, nil, runtime.WithHooks(hooks))
		if res.State != receipt.TerminalFailed || res.Failure.Category != receipt.CategoryBrowserCrashed {
			t.Fatalf("%s", dump(res))
		}
	})
	t.Run("navigation outside the origin scope", func(t *testing.T) {
		s := site(map[string]*runtimetest.Page{"/": {Body: []*runtimetest.Node{button("out", "Leave")},
			Rules: []runtimetest.Rule{onClick("out", runtimetest.Effect{Navigate: "https://outside.example/"})}}})
		s.Pages["https://outside.example/"] = page(para("x", "outside"))
		c := newCap("/", milestone("m", click("leave", textVisible("outside"), role("button", "Leave"))))
		d := runtimetest.NewDriver(s)
		defer d.Close()
		res := exec(t, c, d, nil)
		if res.State != receipt.TerminalFailed || res.Failure.Category != receipt.CategoryOriginNotAllowed || res.BlockedRequests != 1 {
			t.Fatalf("%s", dump(res))
		}
	})
	t.Run("failure carries no raw text", func(t *testing.T) {
		c := newCap("/missing", milestone("m", click("more", textVisible("ready"), role("button", "More"))))
		d := runtimetest.NewDriver(loopSite())
		defer d.Close()
		res := exec(t, c, d, nil)
		f := res.Failure
		if f.DetailHash == "" || !strings.HasPrefix(f.DetailHash, "sha256:") || strings.ContainsAny(f.Reason, " :/") {
			t.Errorf("failure %+v", f)
		}
	})
}

func TestCancellation(t *testing.T) {
	for _, where := range []string{"transition", "locator", "approval"} {
		t.Run(where, func(t *testing.T) {
			var c *capability.Capability
			var opts []runtime.Option
			switch where {
			case "transition":
				c = newCap("/", capability.Milestone{ID: "m", Intent: "wait", Transitions: []capability.Transition{{When: *textVisible("never"), To: "completed"}}})
				c.Runtime.TransitionTimeoutMS = 60000
			case "locator":
				c = newCap("/", milestone("m", click("x", textVisible("ready"), role("button", "Absent"))))
				c.Runtime.ActionTimeoutMS = 60000
			case "approval":
				c = paymentCap()
				opts = append(opts, runtime.WithApprover(runtime.ApproverFunc(func(ctx context.Context, _ runtime.ApprovalRequest) (runtime.Approval, error) {
					<-ctx.Done()
					return runtime.Approval{}, ctx.Err()
				})))
			}
			s := loopSite()
			if where == "approval" {
				s = paymentSite()
			}
			d := runtimetest.NewDriver(s, runtimetest.WithLatency(5*time.Millisecond))
			defer d.Close()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			canceledAt := make(chan time.Time, 1)
			time.AfterFunc(150*time.Millisecond, func() { canceledAt <- time.Now(); cancel() })
			opts = append(opts, runtime.WithDriver(d), runtime.WithRunDir(t.TempDir()))
			res, err := runtime.Execute(ctx, c, nil, opts...)
			returned := time.Now()
			if !errors.Is(err, runtime.ErrCanceled) || !errors.Is(err, context.Canceled) {
				t.Fatalf("err = %v", err)
			}
			if res == nil || res.State != receipt.TerminalFailed || res.Failure.Category != receipt.CategoryCanceled || res.RunDir == "" {
				t.Fatalf("%s", dump(res))
			}
			// The waits are 60 s long: returning within 10 s shows the
			// cancellation ended them, with room for a loaded machine.
			if lag := returned.Sub(<-canceledAt); lag > 10*time.Second {
				t.Errorf("returned %s after cancellation", lag)
			}
		})
	}
}
