package textrule

import (
	"testing"
	"unicode"
)

func TestClasses(t *testing.T) {
	for _, tt := range []struct {
		s                 string
		blank, ctrl, bidi bool
	}{
		{"", true, false, false},
		{" \t\n", true, false, false},
		{"\u200b\u200c\u200d\u2060\ufeff", true, false, false},
		{"\u00a0\u3000\u200b", true, false, false},
		{"a\u200db", false, false, false},
		{"Member\x00", false, true, false},
		{"\x7f", false, true, false},
		{"next\u0085line", false, true, false},
		{"a\u2028b", false, true, false},
		{"tab\tcr\rlf\n", false, false, false},
		{"Pay\u202eyap", false, false, true},
		{"\u2066x\u2069", false, false, true},
		{"\u202a", false, false, true},
		{"\u2029", true, true, false},
	} {
		if got := Blank(tt.s); got != tt.blank {
			t.Errorf("Blank(%q) = %v", tt.s, got)
		}
		if _, got := FindForbiddenControl(tt.s); got != tt.ctrl {
			t.Errorf("FindForbiddenControl(%q) = %v", tt.s, got)
		}
		if _, got := FindBidi(tt.s); got != tt.bidi {
			t.Errorf("FindBidi(%q) = %v", tt.s, got)
		}
	}
}

// TestSpaceList holds Space to the list FORMAT.md writes out.
func TestSpaceList(t *testing.T) {
	want := map[rune]bool{0x85: true, 0xa0: true, 0x1680: true, 0x2028: true, 0x2029: true, 0x202f: true, 0x205f: true, 0x3000: true, 0x20: true}
	for r := rune(0x9); r <= 0xd; r++ {
		want[r] = true
	}
	for r := rune(0x2000); r <= 0x200a; r++ {
		want[r] = true
	}
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if Space(r) != want[r] {
			t.Errorf("Space(U+%04X) = %v", r, Space(r))
		}
	}
}
