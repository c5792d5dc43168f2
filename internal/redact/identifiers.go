package redact

import (
	"slices"
	"strings"
)

// Marker replaces every identifier-shaped substring. Its brackets (U+27E6,
// U+27E7) are outside ASCII, so no detector ever matches the marker or any
// part of it, and it is unlikely to occur in real interface text.
const Marker = "⟦redacted⟧"

// Identifier kinds, reported in [Match.Kind]. Each names one detector; the
// exact rules are in the package documentation.
const (
	KindToken         = "token"          // JWT, known API-key prefix, Bearer token, high-entropy string
	KindEmail         = "email"          // e-mail address
	KindIBAN          = "iban"           // IBAN with a valid mod-97 check
	KindUUID          = "uuid"           // 8-4-4-4-12 hex UUID
	KindCodiceFiscale = "codice_fiscale" // Italian tax code, omocodia included
	KindCard          = "payment_card"   // 13-19 digits, Luhn-valid
	KindSSN           = "us_ssn"         // ddd-dd-dddd
	KindPhone         = "phone"          // international, Italian or North American number
	KindPartitaIVA    = "partita_iva"    // 11 digits with a valid Italian VAT check digit
	KindDigits        = "digit_run"      // 6 or more consecutive digits
)

// Kinds lists the identifier kinds in precedence order (highest first).
func Kinds() []string {
	return []string{KindToken, KindEmail, KindIBAN, KindUUID, KindCodiceFiscale,
		KindCard, KindSSN, KindPhone, KindPartitaIVA, KindDigits}
}

// precedence ranks kinds for tie-breaking: lower is stronger.
func precedence(kind string) int {
	switch kind {
	case KindToken:
		return 0
	case KindEmail:
		return 1
	case KindIBAN:
		return 2
	case KindUUID:
		return 3
	case KindCodiceFiscale:
		return 4
	case KindCard:
		return 5
	case KindSSN:
		return 6
	case KindPhone:
		return 7
	case KindPartitaIVA:
		return 8
	default:
		return 9
	}
}

// Match is one identifier-shaped substring s[Start:End] of kind Kind.
type Match struct {
	Kind       string
	Start, End int
}

// worthScanning is the cheap pre-filter: every detector needs an ASCII digit,
// an '@', or (for tokens and fully omocodic tax codes) a run of at least 16
// ASCII letters and digits.
func worthScanning(s string) bool {
	run := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if isDigit(c) || c == '@' {
			return true
		}
		if class[c] != 0 {
			run++
			if run >= 16 {
				return true
			}
		} else {
			run = 0
		}
	}
	return false
}

// find returns the merged, non-overlapping identifier matches of s in order.
func find(s string, out []Match) []Match {
	if !worthScanning(s) {
		return out[:0]
	}
	// Direct calls (not a table of funcs) keep the caller's buffer on the
	// stack.
	cands := findTokens(s, out[:0])
	cands = findEmails(s, cands)
	cands = findIBANs(s, cands)
	cands = findUUIDs(s, cands)
	cands = findCodiciFiscali(s, cands)
	cands = findNumbers(s, cands) // cards, SSNs, phones, partita IVA, digit runs
	if len(cands) <= 1 {
		return cands
	}
	slices.SortFunc(cands, func(a, b Match) int {
		if a.Start != b.Start {
			return a.Start - b.Start
		}
		if a.End != b.End {
			return b.End - a.End
		}
		return precedence(a.Kind) - precedence(b.Kind)
	})
	merged := cands[:1]
	for _, m := range cands[1:] {
		last := &merged[len(merged)-1]
		if m.Start < last.End {
			last.End = max(last.End, m.End)
			continue
		}
		merged = append(merged, m)
	}
	return merged
}

// FindIdentifiers returns the identifier-shaped substrings of s, in order and
// non-overlapping: overlapping candidates are merged into one match whose
// kind is that of the candidate starting first (on a tie, the longest, then
// the one of highest precedence). [Identifiers] replaces exactly these spans
// and then repeats on its own output until nothing is found.
func FindIdentifiers(s string) []Match {
	return find(s, nil)
}

// ContainsIdentifier reports whether s contains an identifier-shaped
// substring, i.e. whether [Identifiers] would change s.
func ContainsIdentifier(s string) bool {
	var buf [8]Match
	return len(find(s, buf[:0])) > 0
}

// Identifiers replaces every identifier-shaped substring of s with [Marker]
// and returns the result and the number of replacements. Overlapping
// candidates become one replacement. It repeats on its own output until no
// identifier is found (a replacement can turn an adjacent fragment into a
// separate word), so the result is a fixed point:
// Identifiers(Identifiers(s)) == Identifiers(s), and ContainsIdentifier of
// the result is false. It never fails; invalid UTF-8 is passed through.
func Identifiers(s string) (out string, n int) {
	var buf [8]Match
	for {
		ms := find(s, buf[:0])
		if len(ms) == 0 {
			return s, n
		}
		var b strings.Builder
		b.Grow(len(s) + len(ms)*len(Marker))
		prev := 0
		for _, m := range ms {
			b.WriteString(s[prev:m.Start])
			b.WriteString(Marker)
			prev = m.End
		}
		b.WriteString(s[prev:])
		s = b.String()
		n += len(ms)
	}
}
