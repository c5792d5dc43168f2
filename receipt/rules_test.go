package receipt_test

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/vera-run/vera/internal/canonjson"
	"github.com/vera-run/vera/internal/runwrite"
	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
)

// TestReasonSetIsTheRuntimes: the verifier's closed set of failure
// reasons is exactly runtime.Reasons() (8.3 and 8.4).
func TestReasonSetIsTheRuntimes(t *testing.T) {
	got := slices.Sorted(maps.Keys(receipt.KnownReasons()))
	want := runtime.Reasons()
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("receipt's reason set differs from runtime.Reasons():\n got  %q\n want %q", got, want)
	}
}

func failedAt(state receipt.TerminalState, f *receipt.Failure) func(*runwrite.Run) {
	return func(run *runwrite.Run) {
		r := run.Receipt
		r.Terminal = receipt.Terminal{State: state, Failure: f, Action: "next-page"}
		r.Clean = false
	}
}

// TestVerifyRunStatedRules: each rule of FORMAT.md 10.2 added with issue
// 14 has a bad case, reported with its problem code on its file.
func TestVerifyRunStatedRules(t *testing.T) {
	c := testCapability()
	otherHash := func() string {
		a, _, _, _ := c.Action("submit")
		h, _ := canonjson.Digest(a)
		return h
	}()
	tests := []struct {
		name   string
		mutate func(*runwrite.Run)
		edit   func(t *testing.T, dir string)
		want   error
		file   string
	}{
		{name: "reason outside the closed set", mutate: failedAt(receipt.TerminalFailed,
			&receipt.Failure{Category: receipt.CategoryInternal, Reason: "made_up_reason"}),
			want: receipt.ErrSchema, file: receipt.FileReceipt},
		{name: "action reason outside the closed set", mutate: func(run *runwrite.Run) {
			failedAt(receipt.TerminalFailed, &receipt.Failure{Category: receipt.CategoryInternal, Reason: "unsupported"})(run)
			a := &run.Receipt.Actions[len(run.Receipt.Actions)-1]
			a.Status, a.Failure = receipt.ActionFailed, &receipt.Failure{Category: receipt.CategoryInternal, Reason: "unsupported_blocked"}
		}, want: receipt.ErrSchema, file: receipt.FileReceipt},
		{name: "download mechanism outside the closed set", mutate: func(run *runwrite.Run) {
			run.Receipt.Actions[5].Download.Mechanism = "carrier_pigeon"
		}, want: receipt.ErrSchema, file: receipt.FileReceipt},
		{name: "download evidence outside the closed set", mutate: func(run *runwrite.Run) {
			run.Receipt.Actions[5].Download.Evidence = "download-bytes-trusted"
		}, want: receipt.ErrSchema, file: receipt.FileReceipt},
		{name: "download evidence of the other mechanism", mutate: func(run *runwrite.Run) {
			run.Receipt.Actions[5].Download.Mechanism = "browser_path"
		}, want: receipt.ErrSchema, file: receipt.FileReceipt},
		{name: "stopped_at_gate without approval_refused", mutate: failedAt(receipt.TerminalStoppedAtGate,
			&receipt.Failure{Category: receipt.CategoryInternal, Reason: "unsupported"}),
			want: receipt.ErrInconsistent, file: receipt.FileReceipt},
		{name: "stopped_at_gate without failure", mutate: failedAt(receipt.TerminalStoppedAtGate, nil),
			want: receipt.ErrInconsistent, file: receipt.FileReceipt},
		{name: "blocked_by_unknown_modal with another reason", mutate: failedAt(receipt.TerminalBlockedByUnknownModal,
			&receipt.Failure{Category: receipt.CategoryUIAssertionFailed, Reason: "postcondition_failed"}),
			want: receipt.ErrInconsistent, file: receipt.FileReceipt},
		{name: "native_gap with a failure", mutate: failedAt(receipt.TerminalNativeGap,
			&receipt.Failure{Category: receipt.CategoryInternal}),
			want: receipt.ErrInconsistent, file: receipt.FileReceipt},
		{name: "business_outcome with a failure", mutate: func(run *runwrite.Run) {
			failedAt(receipt.TerminalBusinessOutcome, &receipt.Failure{Category: receipt.CategoryInternal})(run)
			run.Receipt.Terminal.Outcome = "member_not_found"
		}, want: receipt.ErrInconsistent, file: receipt.FileReceipt},
		{name: "recovery_requested without failure", mutate: failedAt(receipt.TerminalRecoveryRequested, nil),
			want: receipt.ErrInconsistent, file: receipt.FileReceipt},
		{name: "finished_at before started_at", mutate: func(run *runwrite.Run) {
			run.Receipt.FinishedAt = "2026-03-01T09:59:59.999Z"
		}, want: receipt.ErrInconsistent, file: receipt.FileReceipt},
		{name: "finished_at before started_at across zones", mutate: func(run *runwrite.Run) {
			run.Receipt.FinishedAt = "2026-03-01T10:30:00+01:00"
		}, want: receipt.ErrInconsistent, file: receipt.FileReceipt},
		{name: "null inputs", mutate: func(run *runwrite.Run) { run.Receipt.Inputs = nil },
			want: receipt.ErrSchema, file: receipt.FileReceipt},
		{name: "null origins", mutate: func(run *runwrite.Run) { run.Receipt.Origins = nil },
			want: receipt.ErrSchema, file: receipt.FileReceipt},
		{name: "null outputs in outputs.json", edit: func(t *testing.T, dir string) {
			editOutputs(t, dir, false, func(o *receipt.Outputs) { o.Outputs = nil })
		}, want: receipt.ErrSchema, file: receipt.FileOutputs},
		{name: "relative download path", edit: func(t *testing.T, dir string) {
			editOutputs(t, dir, false, func(o *receipt.Outputs) { o.Outputs[3].Files[0].Path = "Downloads/statement.pdf" })
		}, want: receipt.ErrSchema, file: receipt.FileOutputs},
		{name: "inputs out of the capability's order", mutate: func(run *runwrite.Run) {
			in := run.Receipt.Inputs
			in[0], in[2] = in[2], in[0]
		}, want: receipt.ErrInputs, file: receipt.FileReceipt},
		{name: "outputs out of the capability's order", mutate: func(run *runwrite.Run) {
			o := run.Outputs.Outputs
			o[0], o[2] = o[2], o[0]
		}, want: receipt.ErrOutputs, file: receipt.FileReceipt},
		{name: "record_set count against its extract actions", mutate: func(run *runwrite.Run) {
			run.Receipt.Actions[6].Records = intp(4)
		}, want: receipt.ErrOutputs, file: receipt.FileReceipt},
		{name: "single record extraction counting two", mutate: func(run *runwrite.Run) {
			run.Receipt.Actions[3].Records = intp(2)
		}, want: receipt.ErrOutputs, file: receipt.FileReceipt},
		{name: "proposal contract hash of another action", mutate: func(run *runwrite.Run) {
			makeRecovered(run)
			run.Proposals.Proposals[0].ContractHash = otherHash
		}, want: receipt.ErrHashMismatch, file: receipt.FileProposals},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeRun(t, cleanRun(t, c, tt.mutate))
			if tt.edit != nil {
				tt.edit(t, dir)
			}
			rep, err := receipt.VerifyRun(context.Background(), dir, c)
			if !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
			if !slices.ContainsFunc(rep.Problems, func(p receipt.Problem) bool { return errors.Is(p.Err, tt.want) && p.File == tt.file }) {
				t.Errorf("no %v problem for %s in %v", tt.want, tt.file, err)
			}
		})
	}
}

// TestVerifyRunStatedRulesAccept: the closed sets and pairings admit
// what the runtime writes.
func TestVerifyRunStatedRulesAccept(t *testing.T) {
	c := testCapability()
	for name, mutate := range map[string]func(*runwrite.Run){
		"browser_path route": func(run *runwrite.Run) {
			d := run.Receipt.Actions[5].Download
			d.Mechanism, d.Evidence = "browser_path", "download-browser-path-bytes-verified"
		},
		"finished_at equal to started_at": func(run *runwrite.Run) { run.Receipt.FinishedAt = run.Receipt.StartedAt },
		"recovered run":                   makeRecovered,
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := receipt.VerifyRun(context.Background(), writeRun(t, cleanRun(t, c, mutate)), c); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestVerifyReceipt: the receipt-only capability checks a bundle applies
// find an origin, an input and a sequence outside the capability.
func TestVerifyReceipt(t *testing.T) {
	c := testCapability()
	dir := writeRun(t, cleanRun(t, c, nil))
	raw := readFile(t, dir, receipt.FileReceipt)
	if _, err := receipt.VerifyReceipt(raw, c); err != nil {
		t.Fatalf("clean receipt: %v", err)
	}
	for _, tt := range []struct {
		name string
		edit func(*receipt.Receipt)
		want error
	}{
		{"origin outside allowed_origins", func(r *receipt.Receipt) { r.Origins = []string{"https://evil.example", testOrigin} }, receipt.ErrOrigin},
		{"undeclared input", func(r *receipt.Receipt) { r.Inputs[2].Name = "limits" }, receipt.ErrInputs},
		{"sequence skipping a milestone", func(r *receipt.Receipt) { r.Milestones[0].Next = "movements" }, receipt.ErrSequence},
		{"undeclared action", func(r *receipt.Receipt) { r.Actions[1].ID = "read-secret" }, receipt.ErrSequence},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, err := receipt.LoadReceipt(raw)
			if err != nil {
				t.Fatal(err)
			}
			tt.edit(r)
			b, err := canonjson.Marshal(r)
			if err != nil {
				t.Fatal(err)
			}
			rep, err := receipt.VerifyReceipt(b, c)
			if !errors.Is(err, tt.want) || rep == nil || rep.ReceiptHash != canonjson.SumBytes(b) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
		})
	}
	if _, err := receipt.VerifyReceipt(raw, nil); !errors.Is(err, receipt.ErrCapability) {
		t.Errorf("nil capability: %v", err)
	}
	if _, err := receipt.VerifyReceipt([]byte("{"), c); !errors.Is(err, receipt.ErrMalformed) {
		t.Errorf("malformed: %v", err)
	}
}

// TestLoadNamesBOM: a receipt starting with a byte-order mark is
// malformed, and the problem says so with line and column.
func TestLoadNamesBOM(t *testing.T) {
	c := testCapability()
	raw := readFile(t, writeRun(t, cleanRun(t, c, nil)), receipt.FileReceipt)
	_, err := receipt.LoadReceipt(append([]byte("\xef\xbb\xbf"), raw...))
	if !errors.Is(err, receipt.ErrMalformed) || !strings.Contains(err.Error(), "line 1, column 1") || !strings.Contains(err.Error(), "byte-order mark") {
		t.Fatalf("err = %v", err)
	}
}
