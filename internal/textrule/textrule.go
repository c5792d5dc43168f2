// Package textrule holds the character classes the format rules of
// docs/FORMAT.md name (1.4 "Text"), so that every package asks the same
// function: which characters a document string never holds, which make a
// value blank, and which reorder displayed text.
//
// Invariants:
//   - Blank, ForbiddenControl, Bidi and ZeroWidth are pure functions of
//     the runes; they never normalize or case-fold.
//   - The classes are closed lists of code points written out in
//     FORMAT.md, never a Unicode property that a newer Unicode version
//     could grow (White_Space is fixed in Unicode since 6.3 and Go's
//     unicode.IsSpace is that list).
package textrule

import "unicode"

// ForbiddenControl reports whether r is a character no document string
// holds: a C0 control other than TAB, LF and CR (so U+0000, however it
// was written), DEL, a C1 control (U+0080 to U+009F, such as NEL U+0085),
// or the separators U+2028 and U+2029.
func ForbiddenControl(r rune) bool {
	switch {
	case r == '\t' || r == '\n' || r == '\r':
		return false
	case r < 0x20 || r == 0x7f:
		return true
	case r >= 0x80 && r <= 0x9f:
		return true
	}
	return r == 0x2028 || r == 0x2029
}

// Bidi reports whether r is a bidirectional formatting control that
// reorders displayed text: the embeddings and overrides U+202A to U+202E
// and the isolates U+2066 to U+2069.
func Bidi(r rune) bool {
	return r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}

// ZeroWidth reports whether r is a zero-width character: U+200B to U+200D
// (zero width space, non-joiner, joiner), U+2060 (word joiner) and U+FEFF
// (zero width no-break space).
func ZeroWidth(r rune) bool {
	return r >= 0x200b && r <= 0x200d || r == 0x2060 || r == 0xfeff
}

// Space reports whether r is white space: U+0009 to U+000D, U+0020,
// U+0085, U+00A0, U+1680, U+2000 to U+200A, U+2028, U+2029, U+202F,
// U+205F and U+3000 (Unicode White_Space; Go's unicode.IsSpace).
func Space(r rune) bool { return unicode.IsSpace(r) }

// Blank reports whether s shows nothing to a person: it is empty or holds
// only white space and zero-width characters.
func Blank(s string) bool {
	for _, r := range s {
		if !Space(r) && !ZeroWidth(r) {
			return false
		}
	}
	return true
}

// FindForbiddenControl returns the first ForbiddenControl rune of s.
func FindForbiddenControl(s string) (rune, bool) { return find(s, ForbiddenControl) }

// FindBidi returns the first Bidi rune of s.
func FindBidi(s string) (rune, bool) { return find(s, Bidi) }

func find(s string, class func(rune) bool) (rune, bool) {
	for _, r := range s {
		if class(r) {
			return r, true
		}
	}
	return 0, false
}
