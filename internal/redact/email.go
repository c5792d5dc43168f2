package redact

import "strings"

func isEmailLocal(c byte) bool {
	return isAlnum(c) || c == '.' || c == '_' || c == '%' || c == '+' || c == '-'
}

func isDomainChar(c byte) bool { return isAlnum(c) || c == '.' || c == '-' }

// emailAround returns the span of an e-mail address whose '@' is at at, or
// -1. The local part is ASCII letters, digits and ._%+-; the domain has at
// least two labels and ends in a top-level label of two or more letters.
func emailAround(s string, at int) (start, end int) {
	a := at
	for a > 0 && isEmailLocal(s[a-1]) {
		a--
	}
	for a < at && s[a] == '.' {
		a++
	}
	if a == at {
		return -1, -1
	}
	e := at + 1
	for e < len(s) && isDomainChar(s[e]) {
		e++
	}
	for e > at+1 && (s[e-1] == '.' || s[e-1] == '-') {
		e--
	}
	domain := s[at+1 : e]
	dot := strings.LastIndexByte(domain, '.')
	if dot <= 0 || strings.Contains(domain, "..") || domain[0] == '.' || domain[0] == '-' {
		return -1, -1
	}
	tld := domain[dot+1:]
	if len(tld) < 2 {
		return -1, -1
	}
	for i := 0; i < len(tld); i++ {
		if !isLetter(tld[i]) {
			return -1, -1
		}
	}
	return a, e
}

// findEmails appends e-mail address candidates.
func findEmails(s string, out []Match) []Match {
	from := 0
	for {
		k := strings.IndexByte(s[from:], '@')
		if k < 0 {
			return out
		}
		at := from + k
		if a, e := emailAround(s, at); a >= 0 {
			out = append(out, Match{KindEmail, a, e})
			from = e
		} else {
			from = at + 1
		}
		if from >= len(s) {
			return out
		}
	}
}
