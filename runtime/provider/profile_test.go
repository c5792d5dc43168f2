package provider

import (
	"context"
	"errors"
	"testing"

	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/runtimetest"
)

func TestProfileFromFake(t *testing.T) {
	p, rep, err := NewProfile(ctxT(t), func(context.Context) (runtime.Driver, error) {
		return runtimetest.NewDriver(&runtimetest.Site{Pages: map[string]*runtimetest.Page{}}), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if p.SchemaVersion != SchemaProfile || p.ProviderID != ProviderID || !p.Runtime.Ready || p.Runtime.ExecutionMode != string(runtime.ModeSimulated) {
		t.Errorf("profile %+v", p)
	}
	if p.Primitives.ExternalWrite != SupportGated || p.Primitives.PrivateSourceRead != SupportGated || p.Visibility != "replayable" {
		t.Errorf("primitives %+v visibility %s", p.Primitives, p.Visibility)
	}
	if p.Boundary != (Boundary{}) {
		t.Errorf("boundary %+v, want every flag false", p.Boundary)
	}
	if rep.Library != p.Runtime.Library {
		t.Error("library not from the preflight")
	}
}

func TestProfileUnavailable(t *testing.T) {
	p, _, err := NewProfile(ctxT(t), func(context.Context) (runtime.Driver, error) {
		return nil, runtime.ErrBrowserUnavailable
	})
	if !errors.Is(err, runtime.ErrPreflight) || p == nil || p.Runtime.Ready || p.Runtime.FailureCategory == "" || p.Primitives.BrowserSession != SupportUnavailable {
		t.Fatalf("profile %+v err %v", p, err)
	}
}

// TestStopReasonTable pins every row of the documented table.
func TestStopReasonTable(t *testing.T) {
	f := func(cat receipt.Category, reason runtime.Reason) *runtime.Failure {
		return &runtime.Failure{Category: cat, Reason: string(reason)}
	}
	for _, tc := range []struct {
		state      runtime.TerminalState
		failure    *runtime.Failure
		dispatched bool
		want       StopReason
	}{
		{runtime.StateCompleted, nil, false, StopCompleted},
		{runtime.StateCompleted, nil, true, StopCompleted},
		{runtime.StateBusinessOutcome, nil, false, StopCompleted},
		{runtime.StateStoppedAtGate, f(receipt.CategoryApprovalRefused, runtime.ReasonNoApprover), false, StopAtGate},
		{runtime.StateStoppedAtGate, f(receipt.CategoryApprovalRefused, runtime.ReasonDenied), false, StopAtGate},
		{runtime.StateStoppedAtGate, f(receipt.CategoryApprovalRefused, runtime.ReasonApproverError), false, StopAtGate},
		{runtime.StateNativeGap, nil, false, StopAtGate},
		{runtime.StateBlockedByUnknownModal, f(receipt.CategoryUIAssertionFailed, runtime.ReasonUnknownModal), false, StopBlockedByUnknownModal},
		{runtime.StateBlockedByUnknownModal, f(receipt.CategoryUIAssertionFailed, runtime.ReasonNativeDialog), false, StopBlockedByUnknownModal},
		{runtime.StateBlockedByUnknownModal, f(receipt.CategoryUIAssertionFailed, runtime.ReasonUnknownModal), true, StopFailed},
		{runtime.StateRecoveryRequested, f(receipt.CategoryLocatorNotFound, runtime.ReasonLocatorNotFound), false, StopFailed},
		{runtime.StateFailed, f(receipt.CategoryUIAssertionFailed, runtime.ReasonNativeDialog), false, StopBlockedByUnknownModal},
		{runtime.StateFailed, f(receipt.CategoryUIAssertionFailed, runtime.ReasonNativeDialog), true, StopFailed},
		{runtime.StateFailed, f(receipt.CategoryEffectUnconfirmed, runtime.ReasonOutcomeUnconfirmed), true, StopFailed},
		{runtime.StateFailed, f(receipt.CategoryApprovalRefused, runtime.ReasonApprovalMismatch), false, StopFailed},
		{runtime.StateFailed, f(receipt.CategoryRunTimeout, runtime.ReasonRunTimeout), false, StopFailed},
		{"something_new", nil, false, StopFailed},
	} {
		if got := StopReasonFor(tc.state, tc.failure, tc.dispatched); got != tc.want {
			t.Errorf("%s %+v dispatched=%v: %s, want %s", tc.state, tc.failure, tc.dispatched, got, tc.want)
		}
	}
}

// A dispatched-then-unconfirmed run: failed, with the fact recorded.
func TestReceiptDispatchedUnconfirmed(t *testing.T) {
	c := composeCap(t, placeholderOrigin)
	req := publishRequest(t, c, 5)
	res := &runtime.Result{
		RunID: "run_0123456789abcdef0123456789abcdef", State: runtime.StateFailed,
		Failure:          &runtime.Failure{Category: receipt.CategoryEffectUnconfirmed, Reason: string(runtime.ReasonOutcomeUnconfirmed)},
		EffectDispatched: true, Unconfirmed: true, StoppedAt: "publish-post",
		ReceiptHash: "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
		Mode:        runtime.ModeLiveLaunched,
	}
	r, err := NewReceipt(req, res)
	if err != nil {
		t.Fatal(err)
	}
	if r.StopReason != StopFailed || !r.ObservedFacts.FinalActionClicked || !r.ObservedFacts.EffectUnconfirmed {
		t.Fatalf("receipt %+v", r)
	}
	res.ReceiptHash = ""
	if _, err := NewReceipt(req, res); !errors.Is(err, ErrNoEvidence) {
		t.Errorf("no evidence: %v", err)
	}
}
