package bundle_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/vera-run/vera/bundle"
)

// TestParseLockExactNames: lock member names match exactly, case included
// (internal/strictjson, shared with capability, receipt and discovery); a
// case-folded name is an unknown member and leaves its member missing.
func TestParseLockExactNames(t *testing.T) {
	raw := readFile(t, discoveredFixture(t).dir, bundle.FileLock)
	if _, err := bundle.ParseLock(raw); err != nil {
		t.Fatalf("sealed lock: %v", err)
	}
	tests := []struct {
		from, to string
		want     []string // substrings of the error
	}{
		{`"schema":`, `"SCHEMA":`, []string{"no schema member"}},
		{`"algorithm":`, `"Algorithm":`, []string{`unknown member "Algorithm" at Algorithm`, "missing member algorithm"}},
		{`"capability":`, `"Capability":`, []string{`unknown member "Capability"`, "missing member capability"}},
		{`"execution_hash":`, `"Execution_Hash":`, []string{`at capability.Execution_Hash`, "missing member capability.execution_hash"}},
		{`"sha256":`, `"SHA256":`, []string{`at files[0].SHA256`, "missing member files[0].sha256"}},
		{`"size":`, `"Size":`, []string{`at files[0].Size`, "missing member files[0].size"}},
	}
	for _, tt := range tests {
		bad := bytes.Replace(raw, []byte(tt.from), []byte(tt.to), 1)
		_, err := bundle.ParseLock(bad)
		if !errors.Is(err, bundle.ErrLock) {
			t.Errorf("%s: err = %v, want ErrLock", tt.to, err)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: err = %v, want it to say %q", tt.to, err, w)
			}
		}
	}
}
