package provider

import (
	"errors"
	"testing"
)

// FuzzValidateReceipt feeds arbitrary bytes to the validator: it never
// panics, never accepts a receipt with a problem, always rejects with a
// ProblemError of known codes, and accepts a key at most once.
func FuzzValidateReceipt(f *testing.F) {
	c := composeCap(f, placeholderOrigin)
	req := draftRequest(f, c)
	f.Add(mustJSON(f, baseReceipt(req)))
	for _, tc := range badReceipts() {
		if tc.raw != "" {
			f.Add([]byte(tc.raw))
			continue
		}
		r := baseReceipt(req)
		if tc.mutate != nil {
			tc.mutate(r)
		}
		f.Add(mustJSON(f, r))
	}
	known := map[Code]bool{}
	for _, tc := range badReceipts() {
		known[tc.want] = true
	}
	gate := &GateState{GateID: "gate_example_draft_review", Revision: 4, Status: GatePending}
	f.Fuzz(func(t *testing.T, data []byte) {
		store := &MemoryStore{}
		rep, err := ValidateReceipt(ctxT(t), data, req, gate, store)
		if rep == nil {
			t.Fatalf("nil report: %v", err)
		}
		if err == nil {
			if !rep.Accepted || len(rep.Problems) > 0 {
				t.Fatalf("accepted with problems %v", rep.Problems)
			}
			if _, err := ValidateReceipt(ctxT(t), data, req, gate, store); !errors.Is(err, CodeReplayed) {
				t.Fatalf("second acceptance: %v", err)
			}
			return
		}
		var pe *ProblemError
		if !errors.As(err, &pe) || rep.Accepted {
			t.Fatalf("err %v accepted %v", err, rep.Accepted)
		}
		for _, c := range pe.Codes() {
			if !known[c] && c != CodeBadIdentifier {
				t.Errorf("unexpected code %s", c)
			}
		}
	})
}
