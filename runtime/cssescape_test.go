package runtime

import "testing"

// TestCSSEscape pins cssEscape against what CSS.escape returns in
// Chromium for the same strings (checked in the browser console).
func TestCSSEscape(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"plain", "plain"},
		{"a-b_c9", "a-b_c9"},
		{`a"b`, `a\"b`},
		{`x"], button[data-pick="admin`, `x\"\]\,\ button\[data-pick\=\"admin`},
		{"1a", `\31 a`},
		{"-1a", `-\31 a`},
		{"-", `\-`},
		{"--x", "--x"},
		{"a\x00b", "a\uFFFDb"},
		{"a\nb\x7f", `a\a b\7f `},
		{"é✓", "é✓"},
		{`back\slash`, `back\\slash`},
		{"#id.cls", `\#id\.cls`},
	} {
		if got := cssEscape(tc.in); got != tc.want {
			t.Errorf("cssEscape(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
