// Package timestamp is the one timestamp grammar of every Vera document
// (FORMAT.md 1.4, "timestamp"), so that no reader inherits the leniencies
// of a library parser (Go's time.Parse alone accepts a one-digit hour,
// a comma before the fraction, any number of fraction digits and an
// offset of +24:00 or +01:60).
//
// Invariants:
//   - The grammar is exactly
//     YYYY-MM-DD "T" hh:mm:ss [ "." 1 to 9 digits ] ( "Z" | ("+"|"-") hh:mm ),
//     ASCII digits only, "T" and "Z" uppercase, no leap second (ss 00 to
//     59), hh 00 to 23 and mm 00 to 59 in the time and in the offset, a
//     valid proleptic Gregorian date with year 0000 to 9999. "-00:00" is
//     accepted (RFC 3339: an unknown local offset) and means UTC.
//   - Parse never panics and accepts nothing the grammar rejects.
package timestamp

import (
	"errors"
	"time"
)

// ErrSyntax is returned for a string outside the grammar.
var ErrSyntax = errors.New("timestamp: not an RFC 3339 timestamp of the documented grammar")

// Parse returns the instant s denotes, or ErrSyntax.
func Parse(s string) (time.Time, error) {
	if !shape(s) {
		return time.Time{}, ErrSyntax
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, ErrSyntax
	}
	return t, nil
}

// Valid reports whether s is a timestamp of the grammar.
func Valid(s string) bool {
	_, err := Parse(s)
	return err == nil
}

// UTCSecond reports whether s is a timestamp of the grammar in UTC to the
// second: YYYY-MM-DDThh:mm:ssZ, no fraction, "Z" (the form of
// validation.finalized_at).
func UTCSecond(s string) bool {
	return len(s) == len("2006-01-02T15:04:05Z") && s[len(s)-1] == 'Z' && Valid(s)
}

// shape checks the character layout and the ranges time.Parse leaves
// open (the offset's hour and minute); time.Parse then checks the date
// and the time of day.
func shape(s string) bool {
	const head = "dddd-dd-ddTdd:dd:dd"
	if len(s) < len(head)+1 {
		return false
	}
	for i := 0; i < len(head); i++ {
		if head[i] == 'd' {
			if !digit(s[i]) {
				return false
			}
		} else if s[i] != head[i] {
			return false
		}
	}
	rest := s[len(head):]
	if rest[0] == '.' {
		n := 1
		for n < len(rest) && digit(rest[n]) {
			n++
		}
		if n == 1 || n > 10 {
			return false
		}
		rest = rest[n:]
	}
	switch {
	case rest == "Z":
		return true
	case len(rest) == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':' &&
		digit(rest[1]) && digit(rest[2]) && digit(rest[4]) && digit(rest[5]):
		return (rest[1]-'0')*10+(rest[2]-'0') <= 23 && (rest[4]-'0')*10+(rest[5]-'0') <= 59
	}
	return false
}

func digit(b byte) bool { return b >= '0' && b <= '9' }
