package convert

import (
	"errors"
	"testing"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/strictjson"
)

// checkImport holds for every input: no panic; an error matches
// ErrInvalidSource or ErrInvalidDraft and comes without a capability; a
// success validates, is not executable, and its report covers every leaf
// of the source with no unhandled entry.
func checkImport(t *testing.T, raw []byte, imp func([]byte, ...Option) (*capabilityT, *Report, error)) {
	c, rep, err := imp(raw)
	if err != nil {
		if !errors.Is(err, ErrInvalidSource) && !errors.Is(err, ErrInvalidDraft) {
			t.Fatalf("untyped error: %v", err)
		}
		if c != nil {
			t.Fatal("capability with an error")
		}
		return
	}
	if p := c.Validate(); len(p) > 0 {
		t.Fatalf("returned an invalid capability: %v", p)
	}
	if c.State.Executable() {
		t.Fatalf("import claims executable state %s", c.State)
	}
	d, perr := strictjson.Parse(raw)
	if perr != nil {
		t.Fatalf("accepted a document strictjson refuses: %v", perr)
	}
	if u := rep.Uncovered(d.Value()); len(u) > 0 {
		t.Fatalf("uncovered leaves: %v", u)
	}
}

func FuzzSeed004(f *testing.F) {
	f.Add(readFile(f, "get_member_balances.artifact.json"))
	f.Add(readFile(f, "kitchen_sink.artifact.json"))
	f.Add([]byte(`{"id":"a","version":"1.0.0","goal":"g","targetApp":"t","risk":"safe","reviewed":false,"createdAt":"2026-01-01T00:00:00Z","discoveryModel":"m","discoveryRunId":"r","inputs":[],"outputs":[],"steps":[{"intent":"i","action":"navigate","url":"https://a.example/"}]}`))
	f.Fuzz(func(t *testing.T, raw []byte) { checkImport(t, raw, FromSeed004) })
}

type capabilityT = capability.Capability

func FuzzRecorder(f *testing.F) {
	f.Add(readFile(f, "mail_search.recording.json"))
	f.Add(readFile(f, "kitchen_sink.recording.json"))
	f.Add([]byte(`{"title":"t","steps":[{"type":"navigate","url":"https://a.example/"}]}`))
	f.Fuzz(func(t *testing.T, raw []byte) { checkImport(t, raw, FromRecorder) })
}
