package capability

import (
	"flag"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/vera-run/vera/locator"
)

// update rewrites the golden files: schema.json, the invalid corpus and
// its expected.json, and the execution hash golden.
var update = flag.Bool("update", false, "rewrite golden files (schema.json, testdata/invalid, testdata/*.execution_hash)")

// The valid corpus, by short name.
var validFiles = map[string]string{
	"teller":  "teller_member_balances.json",
	"mail":    "mail_search.json",
	"invoice": "invoice_export.json",
}

func readValid(t testing.TB, base string) []byte {
	t.Helper()
	name, ok := validFiles[base]
	if !ok {
		name = base
	}
	raw, err := os.ReadFile(filepath.Join("testdata", "valid", name))
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

func loadValid(t testing.TB, base string) *Capability {
	t.Helper()
	c, err := ParseBytes(readValid(t, base))
	if err != nil {
		t.Fatalf("%s: %v", base, err)
	}
	return c
}

// act returns the action with the given id; it fails the test when absent.
func act(t testing.TB, c *Capability, id string) *Action {
	t.Helper()
	a, _, _, ok := c.Action(id)
	if !ok {
		t.Fatalf("no action %q", id)
	}
	return a
}

// ms returns the milestone with the given id.
func ms(t testing.TB, c *Capability, id string) *Milestone {
	t.Helper()
	m, _, ok := c.Milestone(id)
	if !ok {
		t.Fatalf("no milestone %q", id)
	}
	return m
}

func out(t testing.TB, c *Capability, name string) *Output {
	t.Helper()
	o, ok := c.Output(name)
	if !ok {
		t.Fatalf("no output %q", name)
	}
	return o
}

func in(t testing.TB, c *Capability, name string) *Input {
	t.Helper()
	i, ok := c.Input(name)
	if !ok {
		t.Fatalf("no input %q", name)
	}
	return i
}

// codeSet returns the distinct codes of l, sorted.
func codeSet(l ErrorList) []Code {
	cs := l.Codes()
	slices.Sort(cs)
	return slices.Compact(cs)
}

func role(r, name string) locator.Candidate {
	return locator.Candidate{Strategy: locator.Role, Role: r, Name: name, Exact: name != ""}
}

func css(sel string) locator.Candidate { return locator.Candidate{Strategy: locator.CSS, CSS: sel} }

func ptr[T any](v T) *T { return &v }
