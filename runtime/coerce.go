package runtime

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/vera-run/vera/capability"
)

// errCoerce is wrapped by every coercion failure.
var errCoerce = errors.New("value does not fit the field type")

// Coerce converts a text read from the page to a field type, by the rules
// in the package documentation. The empty string (after trimming) is nil
// for every type but string, where it stays "". The result is a string,
// int64, float64, bool or nil.
func Coerce(t capability.FieldType, raw string) (any, error) {
	s := strings.TrimSpace(raw)
	switch t {
	case capability.FieldString, "":
		return s, nil
	}
	if s == "" {
		return nil, nil
	}
	switch t {
	case capability.FieldInteger:
		f, err := parseNumber(s)
		if err != nil {
			return nil, err
		}
		if f != math.Trunc(f) || math.Abs(f) > maxSafeInteger {
			return nil, errCoerce
		}
		return int64(f), nil
	case capability.FieldNumber:
		f, err := parseNumber(s)
		if err != nil {
			return nil, err
		}
		return f, nil
	case capability.FieldBoolean:
		switch strings.ToLower(s) {
		case "yes", "true", "sì", "si":
			return true, nil
		case "no", "false":
			return false, nil
		}
		return nil, errCoerce
	case capability.FieldDate:
		for _, layout := range []string{time.DateOnly, "2/1/2006"} {
			if d, err := time.Parse(layout, s); err == nil {
				return d.Format(time.DateOnly), nil
			}
		}
		return nil, errCoerce
	}
	return nil, errCoerce
}

// parseNumber implements the number rule: strip currency symbols, ISO
// currency codes and spaces, read the sign, then decide which of "." and ","
// is the decimal separator.
func parseNumber(s string) (float64, error) {
	// Drop currency symbols (Unicode Sc), every kind of space and a
	// leading or trailing three-letter upper-case currency code.
	var b strings.Builder
	for _, r := range s {
		if unicode.Is(unicode.Sc, r) || unicode.IsSpace(r) || r == '\u202f' || r == '\u2009' {
			continue
		}
		b.WriteRune(r)
	}
	t := b.String()
	if len(t) > 3 && isCode(t[:3]) {
		t = t[3:]
	} else if len(t) > 3 && isCode(t[len(t)-3:]) {
		t = t[:len(t)-3]
	}
	neg := false
	switch {
	case strings.HasPrefix(t, "(") && strings.HasSuffix(t, ")"):
		neg, t = true, t[1:len(t)-1]
	case strings.HasPrefix(t, "-"), strings.HasPrefix(t, "\u2212"):
		neg = true
		t = strings.TrimPrefix(strings.TrimPrefix(t, "-"), "\u2212")
	case strings.HasPrefix(t, "+"):
		t = t[1:]
	case strings.HasSuffix(t, "-"):
		neg, t = true, t[:len(t)-1]
	}
	if t == "" {
		return 0, errCoerce
	}
	for i := 0; i < len(t); i++ {
		c := t[i]
		if (c < '0' || c > '9') && c != '.' && c != ',' {
			return 0, errCoerce
		}
	}
	dots, commas := strings.Count(t, "."), strings.Count(t, ",")
	var intPart, frac string
	var group byte
	switch {
	case dots == 0 && commas == 0:
		intPart = t
	case dots > 0 && commas > 0:
		// The separator that comes last is the decimal one and appears once.
		dec := byte('.')
		if strings.LastIndexByte(t, ',') > strings.LastIndexByte(t, '.') {
			dec = ','
		}
		group = '.' + ',' - dec
		if strings.Count(t, string(dec)) != 1 {
			return 0, errCoerce
		}
		k := strings.IndexByte(t, dec)
		intPart, frac = t[:k], t[k+1:]
	default:
		sep := byte('.')
		if commas > 0 {
			sep = ','
		}
		k := strings.IndexByte(t, sep)
		switch {
		case dots+commas > 1:
			// Repeated: a grouping separator.
			group, intPart = sep, t
		case len(t)-k-1 == 3 && k >= 1 && k <= 3 && t[:k] != "0":
			// One separator followed by exactly three digits after a
			// one-to-three-digit, non-zero lead: grouping ("1,234",
			// "1.234" are both 1234).
			group, intPart = sep, t
		default:
			intPart, frac = t[:k], t[k+1:]
		}
	}
	if group != 0 {
		parts := strings.Split(intPart, string(group))
		for i, p := range parts {
			if (i == 0 && (len(p) < 1 || len(p) > 3)) || (i > 0 && len(p) != 3) {
				return 0, errCoerce
			}
		}
		intPart = strings.Join(parts, "")
	}
	if intPart == "" && frac == "" {
		return 0, errCoerce
	}
	if strings.ContainsAny(intPart+frac, ".,") {
		return 0, errCoerce
	}
	num := intPart
	if num == "" {
		num = "0"
	}
	if frac != "" {
		num += "." + frac
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || math.IsInf(f, 0) {
		return 0, errCoerce
	}
	if neg {
		f = -f
	}
	return f, nil
}

func isCode(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'A' || s[i] > 'Z' {
			return false
		}
	}
	return true
}
