package redact

import "strings"

// jwtAt returns the end of a JSON Web Token starting at i, or -1. A JWT here
// is "eyJ" + base64url (at least 10 characters in all), ".", at least 4
// base64url characters, ".", and an optional signature segment.
func jwtAt(s string, i int) int {
	if !strings.HasPrefix(s[i:], "eyJ") || (i > 0 && isB64URL(s[i-1])) {
		return -1
	}
	j := i + 3
	for j < len(s) && isB64URL(s[j]) {
		j++
	}
	if j-i < 10 || j >= len(s) || s[j] != '.' {
		return -1
	}
	k := j + 1
	for k < len(s) && isB64URL(s[k]) {
		k++
	}
	if k-(j+1) < 4 || k >= len(s) || s[k] != '.' {
		return -1
	}
	m := k + 1
	for m < len(s) && isB64URL(s[m]) {
		m++
	}
	return m
}

// prefixRule describes a credential with a well-known literal prefix.
type prefixRule struct {
	prefix string
	kind   string // secret kind
	min    int    // minimum number of body characters after the prefix
	exact  bool   // the body is exactly min characters, then a word boundary
	body   func(byte) bool
}

func isUpperDigit(c byte) bool { return class[c]&(cUpper|cDigit) != 0 }
func isAlnumUnderscore(c byte) bool {
	return isAlnum(c) || c == '_'
}
func isAlnumDash(c byte) bool { return isAlnum(c) || c == '-' }

// prefixRules is the table of known API-key shapes (case-sensitive).
var prefixRules = []prefixRule{
	{prefix: "sk-", kind: SecretAPIKey, min: 20, body: isB64URL},
	{prefix: "sk_live_", kind: SecretAPIKey, min: 16, body: isAlnum},
	{prefix: "sk_test_", kind: SecretAPIKey, min: 16, body: isAlnum},
	{prefix: "rk_live_", kind: SecretAPIKey, min: 16, body: isAlnum},
	{prefix: "rk_test_", kind: SecretAPIKey, min: 16, body: isAlnum},
	{prefix: "ghp_", kind: SecretAPIKey, min: 20, body: isAlnum},
	{prefix: "gho_", kind: SecretAPIKey, min: 20, body: isAlnum},
	{prefix: "ghu_", kind: SecretAPIKey, min: 20, body: isAlnum},
	{prefix: "ghs_", kind: SecretAPIKey, min: 20, body: isAlnum},
	{prefix: "ghr_", kind: SecretAPIKey, min: 20, body: isAlnum},
	{prefix: "github_pat_", kind: SecretAPIKey, min: 20, body: isAlnumUnderscore},
	{prefix: "glpat-", kind: SecretAPIKey, min: 20, body: isB64URL},
	{prefix: "xoxb-", kind: SecretAPIKey, min: 10, body: isAlnumDash},
	{prefix: "xoxp-", kind: SecretAPIKey, min: 10, body: isAlnumDash},
	{prefix: "xoxa-", kind: SecretAPIKey, min: 10, body: isAlnumDash},
	{prefix: "xoxr-", kind: SecretAPIKey, min: 10, body: isAlnumDash},
	{prefix: "xoxs-", kind: SecretAPIKey, min: 10, body: isAlnumDash},
	{prefix: "AIza", kind: SecretAPIKey, min: 35, exact: true, body: isB64URL},
	{prefix: "AKIA", kind: SecretAWSKey, min: 16, exact: true, body: isUpperDigit},
	{prefix: "ASIA", kind: SecretAWSKey, min: 16, exact: true, body: isUpperDigit},
}

// prefixTokenAt returns the end and kind of a known-prefix credential at i,
// or -1. The prefix must start a word.
func prefixTokenAt(s string, i int) (int, string) {
	switch s[i] {
	case 's', 'r', 'g', 'x', 'A':
	default:
		return -1, ""
	}
	if !boundaryBefore(s, i) {
		return -1, ""
	}
	for _, r := range prefixRules {
		if !strings.HasPrefix(s[i:], r.prefix) {
			continue
		}
		j := i + len(r.prefix)
		for j < len(s) && r.body(s[j]) {
			j++
		}
		n := j - i - len(r.prefix)
		if n < r.min || (r.exact && n != r.min) {
			continue
		}
		return j, r.kind
	}
	return -1, ""
}

// isToken68 reports a character of an HTTP token68 credential.
func isToken68(c byte) bool {
	return isAlnum(c) || c == '-' || c == '.' || c == '_' || c == '~' || c == '+' || c == '/'
}

// bearerAt returns the span of the credential after "Bearer " at i (the word
// "bearer" in any case, at a word start, then spaces or tabs), or -1. The
// credential must be at least minLen token68 characters (plus '=' padding)
// and, when needDigit, contain a digit.
func bearerAt(s string, i, minLen int, needDigit bool) (start, end int) {
	if !hasPrefixFold(s, i, "bearer") || !boundaryBefore(s, i) {
		return -1, -1
	}
	j := i + len("bearer")
	k := j
	for k < len(s) && (s[k] == ' ' || s[k] == '\t') {
		k++
	}
	if k == j {
		return -1, -1
	}
	e := k
	digit := false
	for e < len(s) && isToken68(s[e]) {
		digit = digit || isDigit(s[e])
		e++
	}
	for e < len(s) && s[e] == '=' {
		e++
	}
	if e-k < minLen || (needDigit && !digit) || !boundaryAfter(s, e) {
		return -1, -1
	}
	return k, e
}

// entropyPolicy parameterises highEntropy.
type entropyPolicy struct {
	minLen   int
	allowHex bool // accept hexadecimal strings (letters and digits)
	minTrans int  // minimum percentage of adjacent pairs that change class
}

var (
	identifierEntropy = entropyPolicy{minLen: 24, allowHex: true, minTrans: 40}
	secretEntropy     = entropyPolicy{minLen: 32, allowHex: false, minTrans: 40}
)

// maxVowelPct is the share of vowels among the letters at or above which a
// run reads as words (about 40% in English or Italian text) rather than
// random characters (10 of 52 letters, about 19%).
const maxVowelPct = 40

// highEntropy reports whether run (a maximal run of base64 characters,
// padding excluded) looks like a random token rather than words or a path.
// See the package documentation for the rule.
func highEntropy(run string, p entropyPolicy) bool {
	n := len(run)
	if n < p.minLen {
		return false
	}
	var (
		digits, upper, lower, sym, trans int
		vowels                           int
		hexOnly                          = true
		seen                             [2]uint64
		distinct                         int
		prev                             uint8 = 0xff
	)
	for i := 0; i < n; i++ {
		c := run[i]
		var k uint8
		switch cl := class[c]; {
		case cl&cDigit != 0:
			digits++
			k = 0
		case cl&cUpper != 0:
			upper++
			k = 1
		case cl&cLower != 0:
			lower++
			k = 2
		default:
			sym++
			k = 3
		}
		if cl := class[c]; cl&(cDigit|cHexLetter) == 0 {
			hexOnly = false
		}
		switch c | 0x20 {
		case 'a', 'e', 'i', 'o', 'u':
			vowels++
		}
		if prev != 0xff && k != prev {
			trans++
		}
		prev = k
		if bit := uint64(1) << (c & 63); seen[c>>6&1]&bit == 0 {
			seen[c>>6&1] |= bit
			distinct++
		}
	}
	if digits == 0 || upper+lower == 0 {
		return false
	}
	if hexOnly {
		return p.allowHex && distinct >= 8
	}
	if upper == 0 || lower == 0 {
		return false
	}
	if sym > max(2, n/10) {
		return false
	}
	if 100*trans < p.minTrans*(n-1) { // too few class changes: words, not noise
		return false
	}
	if 100*vowels >= maxVowelPct*(upper+lower) { // pronounceable: words
		return false
	}
	return distinct >= min(n/2, 20)
}

// b64RunEnd returns the end of the run of base64 characters starting at i.
func b64RunEnd(s string, i int) int {
	for i < len(s) && isB64(s[i]) {
		i++
	}
	return i
}

// findTokens appends token candidates: JWTs, known prefixes, Bearer
// credentials and high-entropy strings.
func findTokens(s string, out []Match) []Match {
	runStart := -1
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !isB64(c) {
			if runStart >= 0 {
				out = appendEntropy(s, runStart, i, out)
				runStart = -1
			}
			continue
		}
		if runStart < 0 {
			runStart = i
		}
		if !isAlnum(c) || !boundaryBefore(s, i) {
			continue
		}
		start, end := -1, -1
		switch {
		case c == 'e':
			if e := jwtAt(s, i); e > 0 {
				start, end = i, e
			}
		case c == 'b' || c == 'B':
			start, end = bearerAt(s, i, 16, true)
		}
		if start < 0 {
			if e, _ := prefixTokenAt(s, i); e > 0 {
				start, end = i, e
			}
		}
		if start < 0 {
			continue
		}
		out = append(out, Match{KindToken, start, end})
		i = end - 1
		runStart = -1
	}
	if runStart >= 0 {
		out = appendEntropy(s, runStart, len(s), out)
	}
	return out
}

// appendEntropy appends s[a:b] (plus up to two '=' of padding) when it is a
// high-entropy token.
func appendEntropy(s string, a, b int, out []Match) []Match {
	if b-a < identifierEntropy.minLen || !highEntropy(s[a:b], identifierEntropy) {
		return out
	}
	e := b
	for e < len(s) && e-b < 2 && s[e] == '=' {
		e++
	}
	return append(out, Match{KindToken, a, e})
}
