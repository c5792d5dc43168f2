package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/canonjson"
	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/runtimetest"
)

// approvalCap: a login milestone (username) and a payment milestone that
// fills payee, amount, a secret PIN and a memo template over a defaulted
// input, then sends (consequential).
func approvalCap() *capability.Capability {
	send := click("send", textVisible("Payment sent"), role("button", "Send payment"))
	send.Effect, send.Confirmation = capability.EffectConsequential, capability.ConfirmActionTime
	memo := capability.Action{ID: "fill-memo", Operation: capability.OpFill, Intent: "type the memo",
		Effect: capability.EffectReadOnly, Confirmation: capability.ConfirmNone, LocatorCandidates: cands(label("Memo")),
		Value: "Ref {{memo}}", Postcondition: visible(label("Memo"))}
	c := newCap("/pay",
		milestone("login", fill("fill-user", "username", visible(label("User")), label("User"))),
		milestone("pay",
			fill("fill-payee", "payee", visible(label("Payee")), label("Payee")),
			fill("fill-amount", "amount", visible(label("Amount")), label("Amount")),
			fill("fill-pin", "pin", visible(label("PIN")), label("PIN")),
			memo, send))
	c.Milestones[0].Transitions = []capability.Transition{{When: capability.Condition{Kind: capability.CondAlways}, To: "pay"}}
	c.Inputs = []capability.Input{
		{Name: "username", Type: capability.InputString, Required: true},
		{Name: "payee", Type: capability.InputString, Required: true},
		{Name: "amount", Type: capability.InputInteger, Required: true},
		{Name: "pin", Type: capability.InputString, Required: true, Secret: true},
		{Name: "memo", Type: capability.InputString, Default: json.RawMessage(`"invoice 7"`)},
	}
	return c
}

func approvalSite() *runtimetest.Site {
	return site(map[string]*runtimetest.Page{"/pay": {
		Body: []*runtimetest.Node{textbox("user", "User"), textbox("payee", "Payee"), textbox("amount", "Amount"),
			textbox("pin", "PIN"), textbox("memo", "Memo"), button("send", "Send payment"), para("st", "Draft")},
		Rules: []runtimetest.Rule{onClick("send", runtimetest.Effect{SetText: map[string]string{"st": "Payment sent"}})},
	}})
}

// TestApprovalShowsInputs: the approver of the send click sees the
// resolved inputs the payment milestone fills up to it (payee, amount,
// the memo's default, the PIN only as a marker; not the login's
// username); the receipt records their names and a hash, never a value;
// VerifyRun accepts it and refuses every tampered variant.
func TestApprovalShowsInputs(t *testing.T) {
	c := approvalCap()
	mustValid(t, c)
	d := runtimetest.NewDriver(approvalSite())
	defer d.Close()
	var got []runtime.ApprovalRequest
	approver := runtime.WithApprover(runtime.ApproverFunc(func(_ context.Context, req runtime.ApprovalRequest) (runtime.Approval, error) {
		got = append(got, req)
		return runtime.Approval{ActionID: req.ActionID, Approved: true, Approver: "checker"}, nil
	}))
	const pin = "4711-secret"
	res := exec(t, c, d, map[string]any{"username": "maker1", "payee": "ACME S.p.A.", "amount": 120, "pin": pin}, approver)
	if res.State != receipt.TerminalCompleted {
		t.Fatalf("%s", dump(res))
	}
	if len(got) != 1 {
		t.Fatalf("approver asked %d times", len(got))
	}
	want := []runtime.ApprovalInput{
		{Name: "payee", Source: receipt.ShownSupplied, Value: "ACME S.p.A.", Text: "ACME S.p.A."},
		{Name: "amount", Source: receipt.ShownSupplied, Value: int64(120), Text: "120"},
		{Name: "pin", Source: receipt.ShownSecret, Text: runtime.SecretShown},
		{Name: "memo", Source: receipt.ShownDefault, Value: "invoice 7", Text: "invoice 7"},
	}
	if !reflect.DeepEqual(got[0].Inputs, want) {
		t.Fatalf("approver shown %#v, want %#v", got[0].Inputs, want)
	}
	raw, err := os.ReadFile(filepath.Join(res.RunDir, receipt.FileReceipt))
	if err != nil {
		t.Fatal(err)
	}
	for _, private := range []string{pin, "ACME S.p.A.", "invoice 7", "maker1"} {
		if strings.Contains(string(raw), private) {
			t.Errorf("the receipt contains %q", private)
		}
	}
	r, err := receipt.LoadReceipt(raw)
	if err != nil {
		t.Fatal(err)
	}
	ap := r.Actions[len(r.Actions)-1].Approval
	if ap == nil || !slices.Equal(ap.ShownInputs, []string{"payee", "amount", "pin", "memo"}) || !canonjson.ValidDigest(ap.ShownHash) {
		t.Fatalf("approval proof %+v", ap)
	}
	if _, err := receipt.VerifyRun(context.Background(), res.RunDir, c); err != nil {
		t.Fatalf("VerifyRun: %v", err)
	}

	// Tampering: each edit is relocked, so only the shown check can catch it.
	for _, tc := range []struct {
		name string
		edit func(*receipt.ApprovalProof)
	}{
		{"name dropped", func(p *receipt.ApprovalProof) { p.ShownInputs = p.ShownInputs[:2] }},
		{"names reordered", func(p *receipt.ApprovalProof) {
			p.ShownInputs[0], p.ShownInputs[1] = p.ShownInputs[1], p.ShownInputs[0]
		}},
		{"nothing shown", func(p *receipt.ApprovalProof) { p.ShownInputs = nil }},
		{"hash of something else", func(p *receipt.ApprovalProof) {
			p.ShownHash, _ = receipt.ApprovalShownHash(r.Capability.ExecutionHash, "send", nil)
		}},
		{"hash removed", func(p *receipt.ApprovalProof) { p.ShownHash = "" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := copyRun(t, res.RunDir)
			editRun(t, dir, func(r *receipt.Receipt) { tc.edit(r.Actions[len(r.Actions)-1].Approval) })
			_, err := receipt.VerifyRun(context.Background(), dir, c)
			if !errors.Is(err, receipt.ErrInputs) && !errors.Is(err, receipt.ErrSchema) {
				t.Fatalf("VerifyRun = %v, want ErrInputs or ErrSchema", err)
			}
		})
	}
	// An input the approver saw changed after the fact: the input record's
	// hash no longer matches what shown_hash bound.
	t.Run("input record changed", func(t *testing.T) {
		dir := copyRun(t, res.RunDir)
		editRun(t, dir, func(r *receipt.Receipt) {
			for i := range r.Inputs {
				if r.Inputs[i].Name == "payee" {
					r.Inputs[i].Hash, _ = receipt.HashInput(r.Capability.ExecutionHash, "payee", "Other Ltd")
				}
			}
		})
		if _, err := receipt.VerifyRun(context.Background(), dir, c); !errors.Is(err, receipt.ErrInputs) {
			t.Fatalf("VerifyRun = %v, want ErrInputs", err)
		}
	})
}

// copyRun copies a run directory's files into a fresh one.
func copyRun(t *testing.T, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "run")
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	return dst
}

// editRun rewrites the receipt canonically after edit and relocks it.
func editRun(t *testing.T, dir string, edit func(*receipt.Receipt)) {
	t.Helper()
	rp := filepath.Join(dir, receipt.FileReceipt)
	raw, err := os.ReadFile(rp)
	if err != nil {
		t.Fatal(err)
	}
	r, err := receipt.LoadReceipt(raw)
	if err != nil {
		t.Fatal(err)
	}
	edit(r)
	b, err := canonjson.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(rp, b, 0o600); err != nil {
		t.Fatal(err)
	}
	lp := filepath.Join(dir, receipt.FileLock)
	lraw, err := os.ReadFile(lp)
	if err != nil {
		t.Fatal(err)
	}
	var l receipt.Lock
	if err := json.Unmarshal(lraw, &l); err != nil {
		t.Fatal(err)
	}
	l.Receipt = canonjson.SumBytes(b)
	lb, err := canonjson.Marshal(&l)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(lp, lb, 0o600); err != nil {
		t.Fatal(err)
	}
}
