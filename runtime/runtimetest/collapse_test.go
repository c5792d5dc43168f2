package runtimetest

import (
	"strings"
	"testing"
)

// FuzzCollapse holds collapse's no-allocation fast path to the plain
// definition, strings.Join(strings.Fields(s), " ").
func FuzzCollapse(f *testing.F) {
	for _, s := range []string{"", " ", "a", "a b", " a", "a ", "a  b", "a\tb", "a\u00a0b", "a\u2003 b", "\xff \xfe", "Save draft", "  Save\n draft  "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := collapse(s), strings.Join(strings.Fields(s), " "); got != want {
			t.Fatalf("collapse(%q) = %q, want %q", s, got, want)
		}
	})
}
