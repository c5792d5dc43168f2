package canonjson

import (
	"math"
	"strconv"
)

// appendES appends the ECMAScript Number.prototype.toString form of the
// finite float f to dst (RFC 8785 §3.2.2.3, ECMA-262 Number::toString).
//
// strconv's shortest round-trip digits are exactly the digits ECMAScript
// requires (the fewest digits that round-trip, nearest to the value on ties),
// so only the layout differs: plain notation for 1e-7 <= |f| < 1e21, otherwise
// exponent notation with an explicit sign and no padding.
func appendES(dst []byte, f float64) []byte {
	if f == 0 {
		// Covers -0, which ECMAScript prints as "0".
		return append(dst, '0')
	}
	if f < 0 {
		dst = append(dst, '-')
		f = -f
	}
	var buf [32]byte
	b := strconv.AppendFloat(buf[:0], f, 'e', -1, 64)
	// b is d[.ddd]e±XX[X].
	var digits [24]byte
	k := 0
	i := 0
	for ; i < len(b) && b[i] != 'e'; i++ {
		if b[i] != '.' {
			digits[k] = b[i]
			k++
		}
	}
	i++ // 'e'
	expNeg := b[i] == '-'
	i++
	exp := 0
	for ; i < len(b); i++ {
		exp = exp*10 + int(b[i]-'0')
	}
	if expNeg {
		exp = -exp
	}
	n := exp + 1 // position of the decimal point relative to the digits
	d := digits[:k]
	switch {
	case k <= n && n <= 21:
		dst = append(dst, d...)
		for j := k; j < n; j++ {
			dst = append(dst, '0')
		}
	case 0 < n && n <= 21:
		dst = append(dst, d[:n]...)
		dst = append(dst, '.')
		dst = append(dst, d[n:]...)
	case -6 < n && n <= 0:
		dst = append(dst, '0', '.')
		for j := n; j < 0; j++ {
			dst = append(dst, '0')
		}
		dst = append(dst, d...)
	default:
		dst = append(dst, d[0])
		if k > 1 {
			dst = append(dst, '.')
			dst = append(dst, d[1:]...)
		}
		dst = append(dst, 'e')
		e := n - 1
		if e >= 0 {
			dst = append(dst, '+')
		} else {
			dst = append(dst, '-')
			e = -e
		}
		dst = strconv.AppendInt(dst, int64(e), 10)
	}
	return dst
}

// exactInteger reports whether the integer literal lit (optional '-', then
// digits with no leading zero) denotes exactly the value f.
func exactInteger(lit []byte, f float64) bool {
	if len(lit) > 0 && lit[0] == '-' {
		lit = lit[1:]
	}
	a := math.Abs(f)
	if a < 1<<53 {
		// Rounding is monotonic, so the literal is below 2^53 too, and
		// every integer below 2^53 is a double.
		return true
	}
	var buf [330]byte
	exact := strconv.AppendFloat(buf[:0], a, 'f', 0, 64)
	return string(exact) == string(lit)
}
