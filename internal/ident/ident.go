// Package ident holds the id and name rules of capabilities, in one place
// for package capability (which documents them as IDPattern and
// NamePattern) and for the packages that build or check capability
// members (discovery, capability/convert, receipt). It was
// capability.ValidID and capability.ValidName; those are plumbing, not API
// a user calls, so they live here.
package ident

import "strings"

// MaxLen bounds an id or a name, in bytes (capability.MaxIDLen).
const MaxLen = 64

// ValidID reports whether s is a capability, milestone or action id:
// ^[a-z][a-z0-9]*([._-][a-z0-9]+)*$ within [MaxLen] bytes.
func ValidID(s string) bool { return matchWords(s, "._-") }

// ValidName reports whether s is an input, output, field, outcome or
// data-class name: ^[a-z][a-z0-9]*(_[a-z0-9]+)*$ within [MaxLen] bytes.
func ValidName(s string) bool { return matchWords(s, "_") }

// matchWords matches ^[a-z][a-z0-9]*([seps][a-z0-9]+)*$ up to MaxLen.
func matchWords(s, seps string) bool {
	if len(s) == 0 || len(s) > MaxLen || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	prevSep := false
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
			prevSep = false
		case strings.IndexByte(seps, c) >= 0:
			if prevSep {
				return false
			}
			prevSep = true
		default:
			return false
		}
	}
	return !prevSep
}
