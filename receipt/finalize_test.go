package receipt_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/runwrite"
	"github.com/vera-run/vera/receipt"
)

func TestFinalize(t *testing.T) {
	c := testCapability()
	before, err := c.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	a := writeRun(t, cleanRun(t, c, nil))
	b := writeRun(t, cleanRun(t, c, nil))
	v, err := receipt.Finalize(context.Background(), c, []string{a, b}, fixedClock)
	if err != nil {
		t.Fatal(err)
	}
	after, _ := c.Marshal()
	if !bytes.Equal(before, after) {
		t.Error("Finalize modified its input capability")
	}
	if v == c || v.State != capability.StateValidatedLocal || c.State != capability.StateDiscovered {
		t.Fatalf("state: input %s, result %s", c.State, v.State)
	}
	if execHash(t, v) != execHash(t, c) {
		t.Error("promotion changed the execution hash")
	}
	val := v.Validation
	ha := readFile(t, a, receipt.FileReceipt)
	hb := readFile(t, b, receipt.FileReceipt)
	want := []string{sum(ha), sum(hb)}
	slices.Sort(want)
	if !slices.Equal(val.Receipts, want) {
		t.Errorf("receipts = %v, want %v", val.Receipts, want)
	}
	if val.ExecutionMode != "live_connected_chrome" || val.FinalizedAt != "2026-03-02T08:00:00Z" || val.Claim != receipt.ClaimText {
		t.Errorf("validation = %+v", val)
	}
	if err := v.Validate().Err(); err != nil {
		t.Errorf("the promoted capability is invalid: %v", err)
	}
	// The promoted capability round-trips and its claim checks.
	raw, _ := v.Marshal()
	back, err := capability.ParseBytes(raw)
	if err != nil {
		t.Fatal(err)
	}
	if err := receipt.CheckClaim(context.Background(), back, map[string][]byte{sum(ha): ha, sum(hb): hb}); err != nil {
		t.Errorf("CheckClaim of the promoted capability: %v", err)
	}
	// Order of the run directories does not matter.
	v2, err := receipt.Finalize(context.Background(), c, []string{b, a}, fixedClock)
	if err != nil || !slices.Equal(v2.Validation.Receipts, val.Receipts) {
		t.Errorf("reversed order: %v %v", err, v2)
	}
}

func TestFinalizeLaunchedPolicy(t *testing.T) {
	c := testCapability()
	launched := func(r *runwrite.Run) { r.Receipt.ExecutionMode = receipt.ModeLiveLaunched }
	a := writeRun(t, cleanRun(t, c, launched))
	b := writeRun(t, cleanRun(t, c, launched))
	_, err := receipt.Finalize(context.Background(), c, []string{a, b})
	var fe receipt.FinalizeErrors
	if !errors.As(err, &fe) || !fe.Has(a, receipt.CheckMode) || !fe.Has(b, receipt.CheckMode) {
		t.Fatalf("launched without policy: %v", err)
	}
	v, err := receipt.Finalize(context.Background(), c, []string{a, b}, receipt.WithAllowLaunchedBrowser(), fixedClock)
	if err != nil {
		t.Fatalf("launched with policy: %v", err)
	}
	if v.Validation.ExecutionMode != "live_launched_browser" {
		t.Errorf("mode = %s", v.Validation.ExecutionMode)
	}
	m := map[string][]byte{sum(readFile(t, a, receipt.FileReceipt)): readFile(t, a, receipt.FileReceipt), sum(readFile(t, b, receipt.FileReceipt)): readFile(t, b, receipt.FileReceipt)}
	if err := receipt.CheckClaim(context.Background(), v, m); !errors.Is(err, receipt.ErrClaim) {
		t.Errorf("CheckClaim of a launched claim without policy: %v", err)
	}
	if err := receipt.CheckClaim(context.Background(), v, m, receipt.WithAllowLaunchedBrowser()); err != nil {
		t.Errorf("CheckClaim of a launched claim with policy: %v", err)
	}
	// Mixed modes never finalize, even under the policy.
	m1 := writeRun(t, cleanRun(t, c, nil))
	_, err = receipt.Finalize(context.Background(), c, []string{m1, a}, receipt.WithAllowLaunchedBrowser())
	if !errors.As(err, &fe) || !fe.Has(a, receipt.CheckMode) {
		t.Errorf("mixed modes: %v", err)
	}
}

func TestFinalizeRejects(t *testing.T) {
	c := testCapability()
	type setup func(t *testing.T) (cap *capability.Capability, dirs []string)
	clean := func(t *testing.T) string { return writeRun(t, cleanRun(t, c, nil)) }
	with := func(mutate func(*runwrite.Run)) setup {
		return func(t *testing.T) (*capability.Capability, []string) {
			return c, []string{clean(t), writeRun(t, cleanRun(t, c, mutate))}
		}
	}
	tests := []struct {
		name  string
		setup setup
		check receipt.Check
		want  error // optional sentinel the error must also match
	}{
		{"same directory twice", func(t *testing.T) (*capability.Capability, []string) {
			d := clean(t)
			return c, []string{d, d}
		}, receipt.CheckUnique, nil},
		{"same receipt in two directories", func(t *testing.T) (*capability.Capability, []string) {
			d := clean(t)
			d2 := filepath.Join(t.TempDir(), "copy")
			if err := os.Mkdir(d2, 0o700); err != nil {
				t.Fatal(err)
			}
			for _, f := range []string{receipt.FileReceipt, receipt.FileOutputs, receipt.FileLock} {
				rewrite(t, d2, f, readFile(t, d, f))
			}
			return c, []string{d, d2}
		}, receipt.CheckUnique, nil},
		{"simulated run", with(func(r *runwrite.Run) { r.Receipt.ExecutionMode = receipt.ModeSimulated }), receipt.CheckMode, nil},
		{"receipt without mode", with(func(r *runwrite.Run) { r.Receipt.ExecutionMode = "" }), receipt.CheckMode, nil},
		{"launched without policy", with(func(r *runwrite.Run) { r.Receipt.ExecutionMode = receipt.ModeLiveLaunched }), receipt.CheckMode, nil},
		{"recovered run", with(makeRecovered), receipt.CheckRecovered, nil},
		{"recovery attempted but failed", with(func(r *runwrite.Run) {
			makeRecovered(r)
			r.Proposals.Proposals[0].Outcome = "failed"
			r.Receipt.Recovered = false
			r.Receipt.Actions[0].Recovered = false
		}), receipt.CheckRecovered, nil},
		{"handed off", with(func(r *runwrite.Run) { r.Receipt.HandedOff = true; r.Receipt.Clean = false }), receipt.CheckHandedOff, nil},
		{"mismatched environment", with(func(r *runwrite.Run) { r.Receipt.Environment.Browser = "Chrome/157.0.1.2" }), receipt.CheckEnvironment, nil},
		{"different outputs", with(func(r *runwrite.Run) { r.Outputs.Outputs[2].Value = "regular member" }), receipt.CheckOutputs, nil},
		{"different download evidence", with(func(r *runwrite.Run) {
			f := &r.Outputs.Outputs[3].Files[0]
			f.Bytes, f.SHA256 = 99, fileA
			d := r.Receipt.Actions[5].Download
			d.Bytes, d.SHA256 = 99, fileA
		}), receipt.CheckOutputs, nil},
		{"failed run", with(func(r *runwrite.Run) {
			rc := r.Receipt
			rc.Actions = rc.Actions[:9]
			rc.Actions[8].Status = receipt.ActionFailed
			rc.Actions[8].Failure = &receipt.Failure{Category: receipt.CategoryLocatorNotFound}
			rc.Milestones[3] = receipt.MilestoneRecord{ID: "movements", Visit: 2, Status: "failed"}
			rc.Terminal = receipt.Terminal{State: receipt.TerminalFailed, Failure: rc.Actions[8].Failure, Action: "read-movements"}
			rc.Clean = false
		}), receipt.CheckTerminal, nil},
		{"not clean", with(func(r *runwrite.Run) { r.Receipt.Clean = false }), receipt.CheckClean, nil},
		{"other version", with(func(r *runwrite.Run) { r.Receipt.Capability.Version = "1.2.1" }), receipt.CheckVersion, nil},
		{"other discovery", with(func(r *runwrite.Run) { r.Receipt.Capability.DiscoveryHash = fileA }), receipt.CheckDiscoveryHash, nil},
		{"other execution hash", with(func(r *runwrite.Run) { r.Receipt.Capability.ExecutionHash = fileA }), receipt.CheckExecutionHash, nil},
		{"flipped byte", func(t *testing.T) (*capability.Capability, []string) {
			d := clean(t)
			flipIn(t, d, receipt.FileReceipt, `"arch":"amd64"`, `"arch":"amd65"`)
			return c, []string{clean(t), d}
		}, receipt.CheckVerify, receipt.ErrHashMismatch},
		{"outputs swapped between the runs", func(t *testing.T) (*capability.Capability, []string) {
			d1, d2 := clean(t), clean(t)
			o1, o2 := readFile(t, d1, receipt.FileOutputs), readFile(t, d2, receipt.FileOutputs)
			rewrite(t, d1, receipt.FileOutputs, o2)
			rewrite(t, d2, receipt.FileOutputs, o1)
			return c, []string{d1, d2}
		}, receipt.CheckVerify, receipt.ErrHashMismatch},
		{"incomplete run", func(t *testing.T) (*capability.Capability, []string) {
			d := clean(t)
			if err := os.Remove(filepath.Join(d, receipt.FileLock)); err != nil {
				t.Fatal(err)
			}
			return c, []string{clean(t), d}
		}, receipt.CheckVerify, receipt.ErrIncomplete},
		{"one run", func(t *testing.T) (*capability.Capability, []string) { return c, []string{clean(t)} }, receipt.CheckRuns, nil},
		{"three runs", func(t *testing.T) (*capability.Capability, []string) {
			return c, []string{clean(t), clean(t), clean(t)}
		}, receipt.CheckRuns, nil},
		{"already validated", func(t *testing.T) (*capability.Capability, []string) {
			v, _ := finalized(t)
			return v, []string{clean(t), clean(t)}
		}, receipt.CheckState, nil},
		{"draft", func(t *testing.T) (*capability.Capability, []string) {
			d := testCapability()
			d.State = capability.StateDraft
			return d, []string{clean(t), clean(t)}
		}, receipt.CheckState, nil},
		{"invalid capability", func(t *testing.T) (*capability.Capability, []string) {
			d := testCapability()
			d.Site.AllowedOrigins = []string{"http://teller.example"}
			return d, nil
		}, receipt.CheckCapability, nil},
		{"nil capability", func(t *testing.T) (*capability.Capability, []string) { return nil, nil }, receipt.CheckCapability, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cp, dirs := tt.setup(t)
			v, err := receipt.Finalize(context.Background(), cp, dirs, fixedClock)
			t.Log(err)
			if v != nil || !errors.Is(err, receipt.ErrFinalize) {
				t.Fatalf("Finalize = %v, %v; want refusal", v, err)
			}
			var fe receipt.FinalizeErrors
			if !errors.As(err, &fe) || !fe.Has("", tt.check) {
				t.Fatalf("want check %s, got %v", tt.check, err)
			}
			var one *receipt.FinalizeError
			if !errors.As(err, &one) || one.Check == "" {
				t.Fatalf("errors.As *FinalizeError failed")
			}
			if tt.want != nil && !errors.Is(err, tt.want) {
				t.Fatalf("err does not match %v: %v", tt.want, err)
			}
			// Errors name the run directory that failed.
			if len(dirs) == 2 && tt.check != receipt.CheckState && tt.check != receipt.CheckCapability {
				for _, e := range fe {
					if e.Check == tt.check && !slices.Contains(dirs, e.Run) {
						t.Errorf("check %s names run %q, not a run directory", e.Check, e.Run)
					}
				}
			}
		})
	}
}
