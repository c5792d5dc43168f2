package receipt_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/download"
	"github.com/vera-run/vera/internal/canonjson"
	"github.com/vera-run/vera/internal/runwrite"
	"github.com/vera-run/vera/receipt"
)

// flipIn replaces the first occurrence of old by new in a run file (same
// length keeps everything else in place).
func flipIn(t *testing.T, dir, name, old, new string) {
	t.Helper()
	b := readFile(t, dir, name)
	if !bytes.Contains(b, []byte(old)) {
		t.Fatalf("%s does not contain %q", name, old)
	}
	rewrite(t, dir, name, bytes.Replace(b, []byte(old), []byte(new), 1))
}

// editOutputs decodes outputs.json, lets edit change it, writes it back
// canonically, recomputes the receipt's output records when fix is true,
// and relocks.
func editOutputs(t *testing.T, dir string, fix bool, edit func(*receipt.Outputs)) {
	t.Helper()
	o, err := receipt.LoadOutputs(readFile(t, dir, receipt.FileOutputs))
	if err != nil {
		t.Fatal(err)
	}
	edit(o)
	b, err := canonjson.Marshal(o)
	if err != nil {
		t.Fatal(err)
	}
	rewrite(t, dir, receipt.FileOutputs, b)
	if fix {
		editReceipt(t, dir, func(r *receipt.Receipt) {
			run := &runwrite.Run{Receipt: r, Outputs: o}
			fillOutputRecords(t, run)
		})
	}
	relock(t, dir)
}

func TestVerifyRunTamper(t *testing.T) {
	c := testCapability()
	tests := []struct {
		name   string
		tamper func(t *testing.T, dir string) *capability.Capability // returns the capability to verify against (nil: c)
		want   error
		file   string
	}{
		{"flipped byte in receipt", func(t *testing.T, dir string) *capability.Capability {
			flipIn(t, dir, receipt.FileReceipt, `"os":"linux"`, `"os":"linuy"`)
			return nil
		}, receipt.ErrHashMismatch, receipt.FileReceipt},
		{"flipped byte in outputs", func(t *testing.T, dir string) *capability.Capability {
			flipIn(t, dir, receipt.FileOutputs, "Mario", "Maria")
			return nil
		}, receipt.ErrHashMismatch, receipt.FileOutputs},
		{"flipped byte in lock", func(t *testing.T, dir string) *capability.Capability {
			b := readFile(t, dir, receipt.FileLock)
			i := bytes.Index(b, []byte(`"receipt":"sha256:`)) + len(`"receipt":"sha256:`)
			b[i] ^= 1 // '0'..'9' and 'a'..'f' stay hex-shaped for most digits
			if !strings.ContainsRune("0123456789abcdef", rune(b[i])) {
				b[i] = '0'
			}
			rewrite(t, dir, receipt.FileLock, b)
			return nil
		}, receipt.ErrHashMismatch, receipt.FileReceipt},
		{"outputs value edited and re-locked", func(t *testing.T, dir string) *capability.Capability {
			editOutputs(t, dir, false, func(o *receipt.Outputs) { o.Outputs[2].Value = "edited note" })
			return nil
		}, receipt.ErrHashMismatch, receipt.FileReceipt},
		{"record field of the wrong type", func(t *testing.T, dir string) *capability.Capability {
			editOutputs(t, dir, true, func(o *receipt.Outputs) {
				o.Outputs[0].Value.(map[string]any)["balance"] = "a lot"
			})
			return nil
		}, receipt.ErrOutputs, receipt.FileOutputs},
		{"undeclared record field", func(t *testing.T, dir string) *capability.Capability {
			editOutputs(t, dir, true, func(o *receipt.Outputs) {
				o.Outputs[1].Value.([]any)[0].(map[string]any)["iban"] = "x"
			})
			return nil
		}, receipt.ErrOutputs, receipt.FileOutputs},
		{"record field missing", func(t *testing.T, dir string) *capability.Capability {
			editOutputs(t, dir, true, func(o *receipt.Outputs) { delete(o.Outputs[0].Value.(map[string]any), "since") })
			return nil
		}, receipt.ErrOutputs, receipt.FileOutputs},
		{"bad date", func(t *testing.T, dir string) *capability.Capability {
			editOutputs(t, dir, true, func(o *receipt.Outputs) { o.Outputs[0].Value.(map[string]any)["since"] = "2019-02-30" })
			return nil
		}, receipt.ErrOutputs, receipt.FileOutputs},
		{"download bytes negative", func(t *testing.T, dir string) *capability.Capability {
			editOutputs(t, dir, false, // no hash to recompute (download.SetHash refuses it)
				func(o *receipt.Outputs) { o.Outputs[3].Files[0].Bytes = -1 })
			return nil
		}, receipt.ErrSchema, receipt.FileOutputs},
		{"download digest malformed", func(t *testing.T, dir string) *capability.Capability {
			editOutputs(t, dir, false, // no hash to recompute (download.SetHash refuses it)
				func(o *receipt.Outputs) { o.Outputs[3].Files[0].SHA256 = "sha256:XYZ" })
			return nil
		}, receipt.ErrSchema, receipt.FileOutputs},
		{"download evidence of the action differs", func(t *testing.T, dir string) *capability.Capability {
			editReceipt(t, dir, func(r *receipt.Receipt) { r.Actions[5].Download.Bytes++ })
			return nil
		}, receipt.ErrHashMismatch, receipt.FileReceipt},
		{"outputs swapped in from another run", func(t *testing.T, dir string) *capability.Capability {
			other := writeRun(t, cleanRun(t, c, nil))
			rewrite(t, dir, receipt.FileOutputs, readFile(t, other, receipt.FileOutputs))
			return nil
		}, receipt.ErrLink, receipt.FileOutputs},
		{"operation changed", func(t *testing.T, dir string) *capability.Capability {
			editReceipt(t, dir, func(r *receipt.Receipt) { r.Actions[2].Operation = "press" })
			return nil
		}, receipt.ErrSequence, receipt.FileReceipt},
		{"effect changed", func(t *testing.T, dir string) *capability.Capability {
			editReceipt(t, dir, func(r *receipt.Receipt) { r.Actions[2].Effect = "reversible" })
			return nil
		}, receipt.ErrSequence, receipt.FileReceipt},
		{"locator index out of range", func(t *testing.T, dir string) *capability.Capability {
			editReceipt(t, dir, func(r *receipt.Receipt) { r.Actions[0].LocatorIndex = intp(2) })
			return nil
		}, receipt.ErrSequence, receipt.FileReceipt},
		{"actions reordered", func(t *testing.T, dir string) *capability.Capability {
			editReceipt(t, dir, func(r *receipt.Receipt) { r.Actions[0], r.Actions[1] = r.Actions[1], r.Actions[0] })
			return nil
		}, receipt.ErrSequence, receipt.FileReceipt},
		{"action in another milestone", func(t *testing.T, dir string) *capability.Capability {
			editReceipt(t, dir, func(r *receipt.Receipt) { r.Actions[3].Milestone = "search" })
			return nil
		}, receipt.ErrSequence, receipt.FileReceipt},
		{"milestone skipped", func(t *testing.T, dir string) *capability.Capability {
			editReceipt(t, dir, func(r *receipt.Receipt) {
				r.Milestones = append(r.Milestones[:1:1], r.Milestones[2:]...)
				r.Milestones[0].Next = "movements"
			})
			return nil
		}, receipt.ErrSequence, receipt.FileReceipt},
		{"visits beyond max_visits", func(t *testing.T, dir string) *capability.Capability {
			editReceipt(t, dir, func(r *receipt.Receipt) {
				n := len(r.Milestones)
				r.Milestones[n-1].Next = "movements"
				r.Milestones = append(r.Milestones,
					receipt.MilestoneRecord{ID: "movements", Visit: 3, Status: "completed", Next: "movements"},
					receipt.MilestoneRecord{ID: "movements", Visit: 4, Status: "completed", Next: "completed"})
			})
			return nil
		}, receipt.ErrSequence, receipt.FileReceipt},
		{"completed without reaching completed", func(t *testing.T, dir string) *capability.Capability {
			editReceipt(t, dir, func(r *receipt.Receipt) { r.Milestones = r.Milestones[:3] })
			return nil
		}, receipt.ErrSequence, receipt.FileReceipt},
		{"undeclared input", func(t *testing.T, dir string) *capability.Capability {
			editReceipt(t, dir, func(r *receipt.Receipt) {
				r.Inputs = append(r.Inputs, receipt.InputRecord{Name: "iban", Present: true, Hash: fileA})
			})
			return nil
		}, receipt.ErrInputs, receipt.FileReceipt},
		{"required input not supplied", func(t *testing.T, dir string) *capability.Capability {
			editReceipt(t, dir, func(r *receipt.Receipt) { r.Inputs[0].Present, r.Inputs[0].Hash = false, "" })
			return nil
		}, receipt.ErrInputs, receipt.FileReceipt},
		{"input record removed", func(t *testing.T, dir string) *capability.Capability {
			editReceipt(t, dir, func(r *receipt.Receipt) { r.Inputs = r.Inputs[:2] })
			return nil
		}, receipt.ErrInputs, receipt.FileReceipt},
		{"secret input hashed", func(t *testing.T, dir string) *capability.Capability {
			editReceipt(t, dir, func(r *receipt.Receipt) { r.Inputs[1].Hash = fileA })
			return nil
		}, receipt.ErrSchema, receipt.FileReceipt},
		{"secret input recorded as public", func(t *testing.T, dir string) *capability.Capability {
			editReceipt(t, dir, func(r *receipt.Receipt) { r.Inputs[1].Secret, r.Inputs[1].Hash = false, fileA })
			return nil
		}, receipt.ErrInputs, receipt.FileReceipt},
		{"origin not allowed", func(t *testing.T, dir string) *capability.Capability {
			editReceipt(t, dir, func(r *receipt.Receipt) { r.Origins = append(r.Origins, "https://tracker.example") })
			return nil
		}, receipt.ErrOrigin, receipt.FileReceipt},
		{"output kind changed", func(t *testing.T, dir string) *capability.Capability {
			editOutputs(t, dir, true, func(o *receipt.Outputs) { o.Outputs[2].Exposure = "model_and_artifact" })
			return nil
		}, receipt.ErrOutputs, receipt.FileReceipt},
		{"capability changed", func(t *testing.T, dir string) *capability.Capability {
			c2 := testCapability()
			c2.Runtime.Start = "/members/search"
			return c2
		}, receipt.ErrCapability, receipt.FileReceipt},
		{"no capability", func(t *testing.T, dir string) *capability.Capability {
			return &capability.Capability{} // replaced below by nil
		}, receipt.ErrCapability, ""},
		{"clean but handed off", func(t *testing.T, dir string) *capability.Capability {
			editReceipt(t, dir, func(r *receipt.Receipt) { r.HandedOff = true })
			return nil
		}, receipt.ErrInconsistent, receipt.FileReceipt},
		{"clean with a blocked request", func(t *testing.T, dir string) *capability.Capability {
			editReceipt(t, dir, func(r *receipt.Receipt) { r.BlockedRequests = 1 })
			return nil
		}, receipt.ErrInconsistent, receipt.FileReceipt},
		{"read-only action dispatched", func(t *testing.T, dir string) *capability.Capability {
			editReceipt(t, dir, func(r *receipt.Receipt) { r.Actions[2].Dispatched = true })
			return nil
		}, receipt.ErrInconsistent, receipt.FileReceipt},
		{"effect unconfirmed without a dispatched action", func(t *testing.T, dir string) *capability.Capability {
			editReceipt(t, dir, func(r *receipt.Receipt) {
				r.Clean = false
				r.Terminal = receipt.Terminal{State: receipt.TerminalFailed, Action: r.Actions[len(r.Actions)-1].ID,
					Failure: &receipt.Failure{Category: receipt.CategoryEffectUnconfirmed, Reason: receipt.ReasonOutcomeUnconfirmed}}
			})
			return nil
		}, receipt.ErrInconsistent, receipt.FileReceipt},
		{"effect unconfirmed with another reason", func(t *testing.T, dir string) *capability.Capability {
			editReceipt(t, dir, func(r *receipt.Receipt) {
				r.Clean = false
				r.Terminal = receipt.Terminal{State: receipt.TerminalFailed,
					Failure: &receipt.Failure{Category: receipt.CategoryEffectUnconfirmed, Reason: "act_failed"}}
			})
			return nil
		}, receipt.ErrInconsistent, receipt.FileReceipt},
		{"recovered action in an unrecovered run", func(t *testing.T, dir string) *capability.Capability {
			editReceipt(t, dir, func(r *receipt.Receipt) { r.Actions[0].Recovered = true; r.Clean = false })
			return nil
		}, receipt.ErrInconsistent, receipt.FileReceipt},
		{"not canonical (indented)", func(t *testing.T, dir string) *capability.Capability {
			var buf bytes.Buffer
			if err := json.Indent(&buf, readFile(t, dir, receipt.FileReceipt), "", " "); err != nil {
				t.Fatal(err)
			}
			rewrite(t, dir, receipt.FileReceipt, buf.Bytes())
			relock(t, dir)
			return nil
		}, receipt.ErrNotCanonical, receipt.FileReceipt},
		{"duplicate key", func(t *testing.T, dir string) *capability.Capability {
			flipIn(t, dir, receipt.FileReceipt, `"blocked_requests":0,`, `"blocked_requests":0,"blocked_requests":0,`)
			relock(t, dir)
			return nil
		}, receipt.ErrMalformed, receipt.FileReceipt},
		{"unknown member", func(t *testing.T, dir string) *capability.Capability {
			flipIn(t, dir, receipt.FileReceipt, `"blocked_requests":0,`, `"blocked_requests":0,"bonus":1,`)
			relock(t, dir)
			return nil
		}, receipt.ErrSchema, receipt.FileReceipt},
		{"explicit default", func(t *testing.T, dir string) *capability.Capability {
			flipIn(t, dir, receipt.FileReceipt, `"postcondition":"verified","status"`, `"postcondition":"verified","recovered":false,"status"`)
			relock(t, dir)
			return nil
		}, receipt.ErrSchema, receipt.FileReceipt},
		{"member missing", func(t *testing.T, dir string) *capability.Capability {
			flipIn(t, dir, receipt.FileReceipt, `"blocked_requests":0,`, ``)
			relock(t, dir)
			return nil
		}, receipt.ErrSchema, receipt.FileReceipt},
		{"case-folded member", func(t *testing.T, dir string) *capability.Capability {
			flipIn(t, dir, receipt.FileReceipt, `"arch":`, `"ARCH":`)
			relock(t, dir) // still sorted: "ARCH" < "browser"
			return nil
		}, receipt.ErrSchema, receipt.FileReceipt},
		{"wrong schema", func(t *testing.T, dir string) *capability.Capability {
			flipIn(t, dir, receipt.FileReceipt, receipt.SchemaReceipt, "browser-run-receipt/v2")
			relock(t, dir)
			return nil
		}, receipt.ErrSchema, receipt.FileReceipt},
		{"token in receipt", func(t *testing.T, dir string) *capability.Capability {
			editReceipt(t, dir, func(r *receipt.Receipt) { r.Environment.Browser = "ghp_" + strings.Repeat("aB3dE5", 6) })
			return nil
		}, receipt.ErrSecret, receipt.FileReceipt},
		{"run id of another run", func(t *testing.T, dir string) *capability.Capability {
			editReceipt(t, dir, func(r *receipt.Receipt) { r.RunID = runwrite.NewRunID() })
			return nil
		}, receipt.ErrLink, receipt.FileReceipt},
		{"proposals added to a v1 run", func(t *testing.T, dir string) *capability.Capability {
			rec := cleanRun(t, c, nil)
			makeRecovered(rec)
			other := writeRun(t, rec)
			rewrite(t, dir, receipt.FileProposals, readFile(t, other, receipt.FileProposals))
			return nil
		}, receipt.ErrLink, receipt.FileProposals},
		{"proposals removed from a v2 run", func(t *testing.T, dir string) *capability.Capability {
			if err := os.Remove(filepath.Join(dir, receipt.FileProposals)); err != nil {
				t.Fatal(err)
			}
			return nil
		}, receipt.ErrMissingFile, receipt.FileProposals},
		{"outputs removed", func(t *testing.T, dir string) *capability.Capability {
			if err := os.Remove(filepath.Join(dir, receipt.FileOutputs)); err != nil {
				t.Fatal(err)
			}
			return nil
		}, receipt.ErrMissingFile, receipt.FileOutputs},
		{"symlinked receipt", func(t *testing.T, dir string) *capability.Capability {
			other := writeRun(t, cleanRun(t, c, nil))
			p := filepath.Join(dir, receipt.FileReceipt)
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(filepath.Join(other, receipt.FileReceipt), p); err != nil {
				t.Fatal(err)
			}
			return nil
		}, receipt.ErrUnreadable, receipt.FileReceipt},
		{"oversized lock", func(t *testing.T, dir string) *capability.Capability {
			rewrite(t, dir, receipt.FileLock, bytes.Repeat([]byte(" "), receipt.MaxLockBytes+1))
			return nil
		}, receipt.ErrTooLarge, receipt.FileLock},
		{"extra file", func(t *testing.T, dir string) *capability.Capability {
			rewrite(t, dir, "notes.txt", []byte("hello"))
			return nil
		}, receipt.ErrUnexpectedFile, "notes.txt"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := cleanRun(t, c, nil)
			if strings.HasPrefix(tt.name, "proposals removed") {
				makeRecovered(run)
			}
			dir := writeRun(t, run)
			verifyAgainst := tt.tamper(t, dir)
			if verifyAgainst == nil {
				verifyAgainst = c
			}
			if tt.name == "no capability" {
				verifyAgainst = nil
			}
			rep, err := receipt.VerifyRun(context.Background(), dir, verifyAgainst)
			t.Log(err)
			if !errors.Is(err, tt.want) || !errors.Is(err, receipt.ErrVerify) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
			if !rep.Complete {
				t.Errorf("a tampered run is reported incomplete")
			}
			found := false
			for _, p := range rep.Problems {
				if errors.Is(p.Err, tt.want) && p.File == tt.file {
					found = true
				}
				if p.Code == "" || p.Message == "" {
					t.Errorf("problem without code or message: %+v", p)
				}
			}
			if !found {
				t.Errorf("no %v problem for file %q in %v", tt.want, tt.file, err)
			}
		})
	}
}

// TestVerifyRunFlipEveryByte flips bytes across every file of a recovered
// run and requires each flip to be detected, as tampering, never as an
// incomplete run.
func TestVerifyRunFlipEveryByte(t *testing.T) {
	c := testCapability()
	run := cleanRun(t, c, nil)
	makeRecovered(run)
	dir := writeRun(t, run)
	if rep, err := receipt.VerifyRun(context.Background(), dir, c); err != nil {
		t.Fatalf("recovered run does not verify: %v %+v", err, rep)
	}
	stride := 3
	if testing.Short() {
		stride = 17
	}
	for _, name := range []string{receipt.FileReceipt, receipt.FileOutputs, receipt.FileLock, receipt.FileProposals} {
		orig := readFile(t, dir, name)
		for i := 0; i < len(orig); i += stride {
			b := bytes.Clone(orig)
			b[i] ^= 0x01
			rewrite(t, dir, name, b)
			rep, err := receipt.VerifyRun(context.Background(), dir, c)
			if err == nil {
				t.Fatalf("%s: flip at byte %d not detected", name, i)
			}
			if !rep.Complete || errors.Is(err, receipt.ErrIncomplete) {
				t.Fatalf("%s: flip at byte %d reported as incomplete", name, i)
			}
		}
		rewrite(t, dir, name, orig)
	}
}

func TestLoad(t *testing.T) {
	c := testCapability()
	run := cleanRun(t, c, nil)
	makeRecovered(run)
	dir := writeRun(t, run)
	rf, err := receipt.Load(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if rf.Lock == nil || rf.Receipt == nil || rf.Outputs == nil || rf.Proposals == nil || rf.Lock.Schema != receipt.SchemaLockV2 {
		t.Fatalf("Load = %+v", rf)
	}
	for _, name := range []string{receipt.FileReceipt, receipt.FileOutputs, receipt.FileLock, receipt.FileProposals} {
		if rf.Hashes[name] != canonjson.SumBytes(rf.Raw[name]) {
			t.Errorf("%s: hash does not cover the raw bytes", name)
		}
	}
	if rf.Lock.Receipt != rf.Hashes[receipt.FileReceipt] {
		t.Error("lock does not hash the receipt")
	}
	if _, err := receipt.Load(context.Background(), filepath.Join(t.TempDir(), "absent")); !errors.Is(err, receipt.ErrMissingFile) {
		t.Errorf("absent dir: %v", err)
	}
}

// TestLoadRejectsCaseFoldedNames: member names match exactly in every run
// document (internal/strictjson), so a case-folded name is an unknown
// member and the document does not decode at all.
func TestLoadRejectsCaseFoldedNames(t *testing.T) {
	dir := writeRun(t, cleanRun(t, testCapability(), nil))
	tests := []struct {
		file, from, to string
		load           func([]byte) error
	}{
		{receipt.FileReceipt, `"arch":`, `"ARCH":`, func(b []byte) error { _, err := receipt.LoadReceipt(b); return err }},
		{receipt.FileReceipt, `"blocked_requests":`, `"Blocked_Requests":`, func(b []byte) error { _, err := receipt.LoadReceipt(b); return err }},
		{receipt.FileLock, `"receipt":`, `"Receipt":`, func(b []byte) error { _, err := receipt.LoadLock(b); return err }},
		{receipt.FileOutputs, `"run_id":`, `"Run_ID":`, func(b []byte) error { _, err := receipt.LoadOutputs(b); return err }},
	}
	for _, tt := range tests {
		raw := readFile(t, dir, tt.file)
		if !bytes.Contains(raw, []byte(tt.from)) {
			t.Fatalf("%s has no %s", tt.file, tt.from)
		}
		err := tt.load(bytes.Replace(raw, []byte(tt.from), []byte(tt.to), 1))
		if !errors.Is(err, receipt.ErrSchema) || !strings.Contains(err.Error(), "unknown member") {
			t.Errorf("%s with %s: %v, want an unknown member", tt.file, tt.to, err)
		}
	}
}

// TestRecoveredLocatorIndex: the runtime uses a recovery proposal alone
// (index 0), so a recovered action's index stays within the declared
// candidates like any other.
func TestRecoveredLocatorIndex(t *testing.T) {
	c := testCapability()
	for idx, ok := range map[int]bool{0: true, 1: true, 2: false} {
		rec := cleanRun(t, c, nil)
		makeRecovered(rec)
		rec.Receipt.Actions[0].LocatorIndex = intp(idx)
		_, err := receipt.VerifyRun(context.Background(), writeRun(t, rec), c)
		if ok && err != nil {
			t.Errorf("index %d: %v", idx, err)
		}
		if !ok && !errors.Is(err, receipt.ErrSequence) {
			t.Errorf("index %d (as many as the declared candidates): %v, want ErrSequence", idx, err)
		}
	}
}

// TestDownloadBytesBeyondSafeRange: a byte length above 2^53-1 (exact in a
// double, so canonical JSON accepts it) is a schema problem in outputs.json
// and in the receipt, as download.SetHash refuses it.
func TestDownloadBytesBeyondSafeRange(t *testing.T) {
	c := testCapability()
	dir := writeRun(t, cleanRun(t, c, nil))
	editOutputs(t, dir, false, func(o *receipt.Outputs) {
		for i := range o.Outputs {
			for j := range o.Outputs[i].Files {
				o.Outputs[i].Files[j].Bytes = download.MaxSafeBytes + 1
			}
		}
	})
	editReceipt(t, dir, func(r *receipt.Receipt) {
		for i := range r.Actions {
			if r.Actions[i].Download != nil {
				r.Actions[i].Download.Bytes = download.MaxSafeBytes + 1
			}
		}
	})
	rep, err := receipt.VerifyRun(context.Background(), dir, c)
	if !errors.Is(err, receipt.ErrSchema) {
		t.Fatalf("VerifyRun = %v, want ErrSchema", err)
	}
	var outputs, rec bool
	for _, p := range rep.Problems {
		outputs = outputs || (p.File == receipt.FileOutputs && strings.Contains(p.Message, "outside [0, 2^53-1]"))
		rec = rec || (p.File == receipt.FileReceipt && strings.Contains(p.Message, "outside [0, 2^53-1]"))
	}
	if !outputs || !rec {
		t.Fatalf("problems %v: want the byte length out of range in both files", rep.Problems)
	}
}
