package redact

// ibanMod97 reports whether the IBAN characters (upper-case letters and
// digits, country code first) pass the ISO 7064 mod-97 check.
func ibanMod97(chars []byte) bool {
	r := 0
	step := func(c byte) {
		if isDigit(c) {
			r = (r*10 + int(c-'0')) % 97
		} else {
			r = (r*100 + int(c-'A') + 10) % 97
		}
	}
	for _, c := range chars[4:] {
		step(c)
	}
	for _, c := range chars[:4] {
		step(c)
	}
	return r == 1
}

// findIBANs appends IBAN candidates: at a word start, two letters, two
// digits, then letters and digits, optionally in groups separated by single
// spaces, 15 to 34 characters in all, ending at a group end, and passing the
// mod-97 check. The longest valid prefix (in whole groups) wins.
func findIBANs(s string, out []Match) []Match {
	type cut struct{ n, end int }
	for i := 0; i+4 <= len(s); i++ {
		if !isLetter(s[i]) || !isLetter(s[i+1]) || !isDigit(s[i+2]) || !isDigit(s[i+3]) || !boundaryBefore(s, i) {
			continue
		}
		var (
			chars [34]byte
			cuts  [34]cut
			n, nc int
			j     = i
		)
		for j < len(s) {
			c := s[j]
			if isAlnum(c) {
				if n == len(chars) {
					break
				}
				chars[n] = upperByte(c)
				n++
				j++
				continue
			}
			if c == ' ' && j+1 < len(s) && isAlnum(s[j+1]) {
				cuts[nc] = cut{n, j}
				nc++
				j++
				continue
			}
			break
		}
		if boundaryAfter(s, j) && nc < len(cuts) {
			cuts[nc] = cut{n, j}
			nc++
		}
		for k := nc - 1; k >= 0; k-- {
			c := cuts[k]
			if c.n >= 15 && c.n <= 34 && ibanMod97(chars[:c.n]) {
				out = append(out, Match{KindIBAN, i, c.end})
				i = c.end - 1
				break
			}
		}
	}
	return out
}

// findUUIDs appends 8-4-4-4-12 hexadecimal UUIDs bounded by non-alphanumerics.
func findUUIDs(s string, out []Match) []Match {
	for i := 0; i+36 <= len(s); i++ {
		if s[i+8] != '-' || s[i+13] != '-' || s[i+18] != '-' || s[i+23] != '-' ||
			!boundaryBefore(s, i) || !boundaryAfter(s, i+36) {
			continue
		}
		ok := true
		for j := i; j < i+36 && ok; j++ {
			switch j - i {
			case 8, 13, 18, 23:
			default:
				ok = isHex(s[j])
			}
		}
		if ok {
			out = append(out, Match{KindUUID, i, i + 36})
			i += 35
		}
	}
	return out
}

// isCFDigit reports a digit position of a codice fiscale: a digit or one of
// the omocodia substitution letters LMNPQRSTUV (any case).
func isCFDigit(c byte) bool {
	if isDigit(c) {
		return true
	}
	switch upperByte(c) {
	case 'L', 'M', 'N', 'P', 'Q', 'R', 'S', 'T', 'U', 'V':
		return true
	}
	return false
}

// cfLayout marks the letter positions (true) of a codice fiscale:
// [A-Z]{6} D D [A-Z] D D [A-Z] D D D [A-Z].
var cfLayout = [16]bool{true, true, true, true, true, true, false, false, true, false, false, true, false, false, false, true}

// findCodiciFiscali appends Italian tax codes (16 characters, any case,
// omocodia letters accepted in digit positions) bounded by non-alphanumerics.
func findCodiciFiscali(s string, out []Match) []Match {
	for i := 0; i+16 <= len(s); i++ {
		if !isLetter(s[i]) || !boundaryBefore(s, i) {
			continue
		}
		ok := boundaryAfter(s, i+16)
		for j := 0; j < 16 && ok; j++ {
			if cfLayout[j] {
				ok = isLetter(s[i+j])
			} else {
				ok = isCFDigit(s[i+j])
			}
		}
		if ok {
			out = append(out, Match{KindCodiceFiscale, i, i + 16})
			i += 15
		}
	}
	return out
}
