package receipt_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/vera-run/vera/internal/canonjson"
	"github.com/vera-run/vera/internal/runwrite"
	"github.com/vera-run/vera/receipt"
)

// seedRun returns the files of a recovered run (all four documents).
func seedRun(f *testing.F) map[string][]byte {
	run := cleanRun(f, testCapability(), nil)
	makeRecovered(run)
	dir, _, err := runwrite.WriteRun(f.TempDir(), run)
	if err != nil {
		f.Fatal(err)
	}
	out := map[string][]byte{}
	for _, n := range []string{receipt.FileReceipt, receipt.FileOutputs, receipt.FileLock, receipt.FileProposals} {
		out[n] = readFile(f, dir, n)
	}
	return out
}

// fuzzLoad checks a loader's contract on arbitrary input: no panic, errors
// wrap ErrVerify, and an accepted document is exactly its writer's
// canonical encoding.
func fuzzLoad[T any](t *testing.T, raw []byte, load func([]byte) (*T, error)) {
	v, err := load(raw)
	if err != nil {
		if v != nil {
			t.Fatal("value returned with an error")
		}
		if !errors.Is(err, receipt.ErrVerify) {
			t.Fatalf("error does not wrap ErrVerify: %v", err)
		}
		var ve *receipt.VerifyError
		if !errors.As(err, &ve) || len(ve.Problems) == 0 {
			t.Fatalf("error is not a VerifyError with problems: %v", err)
		}
		return
	}
	again, err := canonjson.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, raw) {
		t.Fatalf("accepted document is not its writer's encoding:\n%s\n%s", raw, again)
	}
}

func FuzzLoadReceipt(f *testing.F) {
	files := seedRun(f)
	r := files[receipt.FileReceipt]
	f.Add(r)
	f.Add(bytes.Replace(r, []byte(`"clean":false`), []byte(`"clean":true`), 1))
	f.Add(bytes.Replace(r, []byte(`"blocked_requests":0,`), []byte(`"blocked_requests":0,"blocked_requests":1,`), 1))
	f.Add([]byte(`{"schema":"browser-run-receipt/v3"}`))
	f.Add([]byte(`{"schema":"browser-run-receipt/v3","run_id":"x","actions":null}`))
	f.Add([]byte(`[]`))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, raw []byte) { fuzzLoad(t, raw, receipt.LoadReceipt) })
}

func FuzzLoadLock(f *testing.F) {
	files := seedRun(f)
	l := files[receipt.FileLock]
	f.Add(l)
	f.Add(bytes.Replace(l, []byte("/v2"), []byte("/v1"), 1))
	f.Add(bytes.Replace(l, []byte(`"sha256",`), []byte(`"md5",`), 1))
	f.Add([]byte(`{"algorithm":"sha256","outputs":"sha256:","receipt":"","run_id":"r","schema":"browser-run-lock/v1"}`))
	f.Add([]byte(`{"schema":"browser-run-lock/v1","schema":"browser-run-lock/v2"}`))
	f.Add([]byte(`{"schema":"browser-run-lock/v3"}`))
	f.Fuzz(func(t *testing.T, raw []byte) { fuzzLoad(t, raw, receipt.LoadLock) })
}

func FuzzLoadOutputs(f *testing.F) {
	files := seedRun(f)
	f.Add(files[receipt.FileOutputs])
	f.Add([]byte(`{"outputs":[{"exposure":"artifact_only","kind":"download_set","name":"x","produced":true}],"run_id":"r","schema":"browser-run-outputs/v1"}`))
	f.Fuzz(func(t *testing.T, raw []byte) { fuzzLoad(t, raw, receipt.LoadOutputs) })
}

func FuzzLoadProposals(f *testing.F) {
	files := seedRun(f)
	f.Add(files[receipt.FileProposals])
	f.Fuzz(func(t *testing.T, raw []byte) { fuzzLoad(t, raw, receipt.LoadProposals) })
}

// FuzzCompare compares a receipt with fuzzed variants: no panic, totals
// consistent, and a receipt compared with itself is never "changed".
func FuzzCompare(f *testing.F) {
	files := seedRun(f)
	f.Add(files[receipt.FileReceipt], "environment", "linux", "LINUX")
	f.Add(bytes.Replace(files[receipt.FileReceipt], []byte(`"visit":1`), []byte(`"visit":2`), 1), "action", "a", "")
	f.Fuzz(func(t *testing.T, raw []byte, kind, find, replace string) {
		b, err := receipt.LoadReceipt(raw)
		if err != nil {
			return
		}
		a, _ := receipt.LoadReceipt(files[receipt.FileReceipt])
		opts := []receipt.CompareOption{receipt.WithRule(receipt.Rule{Kind: receipt.ArtifactKind(kind), Find: find, Replace: replace})}
		c, err := receipt.Compare(a, b, opts...)
		if err != nil {
			if !errors.Is(err, receipt.ErrCompare) {
				t.Fatal(err)
			}
			return
		}
		tot := c.Totals
		if tot.Changed+tot.Unchanged+tot.Unknown != tot.Artifacts || tot.Retained+tot.Omitted != tot.Changed+tot.Unknown {
			t.Fatalf("inconsistent totals %+v", tot)
		}
		self, err := receipt.Compare(b, b, opts...)
		if err != nil || self.Verdict == receipt.StatusChanged {
			t.Fatalf("self comparison: %v %v", err, self)
		}
	})
}
