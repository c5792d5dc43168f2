package redact

// Byte classes, looked up through a table so that the hand-written scanners
// stay branch-light. Only ASCII bytes have classes: every detector works on
// ASCII shapes and treats any other byte (including the UTF-8 bytes of
// [Marker]) as a separator.
const (
	cDigit = 1 << iota
	cUpper
	cLower
	cB64Sym // + / _ - : the extra characters of base64 and base64url
	cHexLetter
)

var class [256]uint8

func init() {
	for c := '0'; c <= '9'; c++ {
		class[c] |= cDigit
	}
	for c := 'A'; c <= 'Z'; c++ {
		class[c] |= cUpper
	}
	for c := 'a'; c <= 'z'; c++ {
		class[c] |= cLower
	}
	for _, c := range "+/_-" {
		class[c] |= cB64Sym
	}
	for _, c := range "abcdefABCDEF" {
		class[c] |= cHexLetter
	}
}

func isDigit(c byte) bool  { return '0' <= c && c <= '9' }
func isLetter(c byte) bool { return class[c]&(cUpper|cLower) != 0 }
func isAlnum(c byte) bool  { return class[c]&(cDigit|cUpper|cLower) != 0 }
func isHex(c byte) bool    { return class[c]&(cDigit|cHexLetter) != 0 }
func isB64(c byte) bool    { return class[c]&(cDigit|cUpper|cLower|cB64Sym) != 0 }

// isB64URL reports a base64url character (letters, digits, '-' and '_').
func isB64URL(c byte) bool { return isAlnum(c) || c == '-' || c == '_' }

func lowerByte(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func upperByte(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}

// asciiLower lowercases ASCII letters only, so byte offsets are preserved.
func asciiLower(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				b[j] = lowerByte(b[j])
			}
			return string(b)
		}
	}
	return s
}

// boundaryBefore reports whether position i starts a word: it is the start of
// s or the preceding byte is not an ASCII letter or digit.
func boundaryBefore(s string, i int) bool { return i == 0 || !isAlnum(s[i-1]) }

// boundaryAfter reports whether position i (exclusive end) ends a word.
func boundaryAfter(s string, i int) bool { return i >= len(s) || !isAlnum(s[i]) }

// hasPrefixFold reports whether s[i:] starts with the lower-case ASCII
// prefix p, ignoring ASCII case.
func hasPrefixFold(s string, i int, p string) bool {
	if len(s)-i < len(p) {
		return false
	}
	for j := 0; j < len(p); j++ {
		if lowerByte(s[i+j]) != p[j] {
			return false
		}
	}
	return true
}
