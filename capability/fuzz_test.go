package capability

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// FuzzParseValidate: Parse never panics; when it accepts a document,
// Validate is deterministic and never panics, and Marshal -> Parse keeps
// the execution hash.
func FuzzParseValidate(f *testing.F) {
	for _, dir := range []string{"testdata/valid", "testdata/invalid"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
		for _, file := range files {
			if raw, err := os.ReadFile(file); err == nil {
				f.Add(raw)
			}
		}
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		c, err := ParseBytes(raw)
		if err != nil {
			if c != nil {
				t.Fatal("Parse returned a capability with an error")
			}
			return
		}
		first := c.Validate()
		second := c.Validate()
		if !reflect.DeepEqual(first, second) {
			t.Fatalf("Validate is not deterministic:\n%v\n%v", first, second)
		}
		_ = c.ValidateForExecution()
		h1, err := c.ExecutionHash()
		if err != nil {
			t.Fatalf("ExecutionHash of a parsed document: %v", err)
		}
		out, err := c.Marshal()
		if err != nil {
			t.Fatalf("Marshal: %v", err)
		}
		back, err := ParseBytes(out)
		if err != nil {
			t.Fatalf("Marshal output does not parse: %v\n%s", err, out)
		}
		h2, err := back.ExecutionHash()
		if err != nil || h1 != h2 {
			t.Fatalf("round trip changed the execution hash: %s != %s (%v)", h1, h2, err)
		}
		if !reflect.DeepEqual(first, back.Validate()) {
			t.Fatal("round trip changed the validation result")
		}
	})
}
