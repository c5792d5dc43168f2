package capability

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vera-run/vera/internal/canonjson"
)

const tellerHashGolden = "testdata/teller_member_balances.execution_hash"

func mustHash(t *testing.T, c *Capability) string {
	t.Helper()
	h, err := c.ExecutionHash()
	if err != nil {
		t.Fatal(err)
	}
	if !canonjson.ValidDigest(h) {
		t.Fatalf("hash %q is not a sha256 digest", h)
	}
	return h
}

// TestExecutionHashGolden pins the execution hash of the teller
// capability: an accidental change of the model, its JSON names or the
// canonicalisation shows up here. Update with -update after an intended
// change (and say so in the change log: receipts pin this hash).
func TestExecutionHashGolden(t *testing.T) {
	h := mustHash(t, loadValid(t, "teller"))
	if *update {
		if err := os.WriteFile(tellerHashGolden, []byte(h+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(tellerHashGolden)
	if err != nil {
		t.Fatal(err)
	}
	if got := h; got != strings.TrimSpace(string(want)) {
		t.Fatalf("execution hash = %s, golden %s", got, want)
	}
}

func TestExecutionHashExcludesStateAndValidation(t *testing.T) {
	validated := loadValid(t, "invoice")
	discovered := loadValid(t, "invoice")
	discovered.State, discovered.Validation = StateDiscovered, nil
	if errs := discovered.Validate(); len(errs) != 0 {
		t.Fatal(errs)
	}
	if mustHash(t, validated) != mustHash(t, discovered) {
		t.Fatal("promotion changed the execution hash")
	}
	b, err := validated.ExecutionBytes()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), `"state"`) || strings.Contains(string(b), `"validation"`) {
		t.Fatal("execution bytes contain state or validation")
	}
	if canonjson.SumBytes(b) != mustHash(t, validated) {
		t.Fatal("ExecutionHash is not the digest of ExecutionBytes")
	}
}

func TestExecutionHashChangesWithTheContract(t *testing.T) {
	base := mustHash(t, loadValid(t, "teller"))
	edits := map[string]func(c *Capability){
		"locator":       func(c *Capability) { act(t, c, "sign-in").LocatorCandidates[0].Name = "Log in" },
		"locator note":  func(c *Capability) { act(t, c, "sign-in").LocatorCandidates[0].Note = "reviewed" },
		"origin":        func(c *Capability) { c.Site.AllowedOrigins[0] = "http://127.0.0.1:4011" },
		"frame path":    func(c *Capability) { c.Runtime.FrameSelectors = []string{"iframe#main"} },
		"timeout":       func(c *Capability) { c.Runtime.ActionTimeoutMS++ },
		"version":       func(c *Capability) { c.Version = "1.2.2" },
		"outcome":       func(c *Capability) { c.BusinessOutcomes = c.BusinessOutcomes[:1] },
		"empty vs null": func(c *Capability) { act(t, c, "extract-balances").Extract.Fields[0].LocatorCandidates = nil },
	}
	for name, edit := range edits {
		c := loadValid(t, "teller")
		edit(c)
		if mustHash(t, c) == base {
			t.Errorf("%s: the execution hash did not change", name)
		}
	}
}

func TestExecutionHashRoundTrip(t *testing.T) {
	files, _ := filepath.Glob("testdata/valid/*.json")
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		c, err := ParseBytes(raw)
		if err != nil {
			t.Fatal(err)
		}
		h := mustHash(t, c)
		clone, err := c.Clone()
		if err != nil {
			t.Fatal(err)
		}
		out, err := c.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		back, err := ParseBytes(out)
		if err != nil {
			t.Fatal(err)
		}
		if mustHash(t, back) != h || mustHash(t, clone) != h {
			t.Errorf("%s: hash changed across Marshal/Parse or Clone", f)
		}
		// Layout and member order never matter: the hash is over RFC 8785.
		canon, err := canonjson.Transform(raw)
		if err != nil {
			t.Fatal(err)
		}
		fromCanon, err := ParseBytes(canon)
		if err != nil {
			t.Fatal(err)
		}
		if mustHash(t, fromCanon) != h {
			t.Errorf("%s: hash depends on layout", f)
		}
	}
}
