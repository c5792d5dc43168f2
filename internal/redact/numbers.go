package redact

// group is one run of digits in a sequence of digit groups.
type group struct {
	start, end int  // the digits are s[start:end]
	paren      bool // written as "(digits)"
	sep        byte // separator of the joint before this group: ' ', '-', '.', '/', or 0
}

func (g group) n() int { return g.end - g.start }

// spanStart and spanEnd include the parentheses of a parenthesised group.
func (g group) spanStart() int {
	if g.paren {
		return g.start - 1
	}
	return g.start
}

func (g group) spanEnd() int {
	if g.paren {
		return g.end + 1
	}
	return g.end
}

const maxGroups = 24

func isJointSep(c byte) bool { return c == ' ' || c == '-' || c == '.' || c == '/' }

// parseGroups reads the sequence of digit groups starting at the digit run
// at i. Groups are joined by one separator (space, '-', '.', '/'),
// optionally with parentheses around a group: "(555) 123-4567". It returns
// the number of groups and the index after the last one.
func parseGroups(s string, i int, gs *[maxGroups]group) (int, int) {
	e := i
	for e < len(s) && isDigit(s[e]) {
		e++
	}
	gs[0] = group{start: i, end: e, paren: i > 0 && s[i-1] == '(' && e < len(s) && s[e] == ')'}
	n := 1
	for n < maxGroups {
		last := gs[n-1]
		pos := last.end
		if last.paren {
			pos++
		}
		j := pos
		var sep byte
		if j < len(s) && isJointSep(s[j]) {
			sep = s[j]
			j++
		}
		open := false
		if j < len(s) && s[j] == '(' {
			open = true
			j++
		}
		if j == last.end || j >= len(s) || !isDigit(s[j]) {
			break
		}
		ge := j
		for ge < len(s) && isDigit(s[ge]) {
			ge++
		}
		if open && (ge >= len(s) || s[ge] != ')') {
			break
		}
		gs[n] = group{start: j, end: ge, paren: open, sep: sep}
		n++
	}
	return n, gs[n-1].end
}

// hardBefore reports whether a number may start at pos: the previous byte is
// neither alphanumeric nor a joining character ("-_./").
func hardBefore(s string, pos int) bool {
	if pos == 0 {
		return true
	}
	c := s[pos-1]
	return !isAlnum(c) && c != '-' && c != '_' && c != '.' && c != '/'
}

// hardAfter reports whether a number may end at pos: the next byte is
// neither alphanumeric nor a joining character, except a '.' that ends a
// sentence (not followed by an alphanumeric).
func hardAfter(s string, pos int) bool {
	if pos >= len(s) {
		return true
	}
	switch c := s[pos]; {
	case isAlnum(c), c == '-', c == '_', c == '/':
		return false
	case c == '.':
		return pos+1 >= len(s) || !isAlnum(s[pos+1])
	}
	return true
}

func luhn(s string, gs []group) bool {
	sum, double := 0, false
	for k := len(gs) - 1; k >= 0; k-- {
		for i := gs[k].end - 1; i >= gs[k].start; i-- {
			d := int(s[i] - '0')
			if double {
				d *= 2
				if d > 9 {
					d -= 9
				}
			}
			sum += d
			double = !double
		}
	}
	return sum%10 == 0
}

// partitaIVA reports whether the 11 digits d pass the Italian VAT check.
func partitaIVA(d string) bool {
	sum := 0
	for i := 0; i < 10; i++ {
		v := int(d[i] - '0')
		if i%2 == 1 {
			v *= 2
			if v > 9 {
				v -= 9
			}
		}
		sum += v
	}
	return (10-sum%10)%10 == int(d[10]-'0')
}

// findNumbers appends the candidates built from digit groups: digit runs
// (and their partita IVA / card refinements), grouped payment cards, US SSNs
// and phone numbers.
func findNumbers(s string, out []Match) []Match {
	var gs [maxGroups]group
	for i := 0; i < len(s); {
		if !isDigit(s[i]) {
			i++
			continue
		}
		n, next := parseGroups(s, i, &gs)
		plus := i > 0 && s[i-1] == '+' && (i == 1 || !isAlnum(s[i-2]))
		out = classifyGroups(s, gs[:n], plus, out)
		i = next
	}
	return out
}

func classifyGroups(s string, gs []group, plus bool, out []Match) []Match {
	// Digit runs of six or more, refined to partita IVA or a card.
	for _, g := range gs {
		l := g.n()
		if l < 6 {
			continue
		}
		kind := KindDigits
		switch {
		case l == 11 && partitaIVA(s[g.start:g.end]):
			kind = KindPartitaIVA
			// Include an "IT" VAT prefix written against the digits.
			if g.start >= 2 && hasPrefixFold(s, g.start-2, "it") && boundaryBefore(s, g.start-2) {
				out = append(out, Match{kind, g.start - 2, g.end})
				continue
			}
		case l >= 13 && l <= 19 && luhn(s, []group{g}):
			kind = KindCard
		}
		out = append(out, Match{kind, g.start, g.end})
	}
	if len(gs) == 1 && !plus && !gs[0].paren {
		return out
	}

	startOK := func(a int) bool {
		if a == 0 {
			return hardBefore(s, gs[0].spanStart())
		}
		return gs[a].sep == ' ' && !gs[a-1].paren
	}
	endOK := func(b int) bool {
		if b == len(gs)-1 {
			return hardAfter(s, gs[b].spanEnd())
		}
		return gs[b+1].sep == ' ' && !gs[b+1].paren && !gs[b].paren
	}
	lens := func(a int, want ...int) bool {
		if a+len(want) > len(gs) {
			return false
		}
		for k, w := range want {
			if gs[a+k].n() != w {
				return false
			}
		}
		return true
	}
	add := func(kind string, a, b int) {
		out = append(out, Match{kind, gs[a].spanStart(), gs[b].spanEnd()})
	}

	// International numbers: "+" or "00" then 9 to 15 digits in all.
	if plus || (gs[0].n() >= 3 && s[gs[0].start] == '0' && s[gs[0].start+1] == '0' &&
		s[gs[0].start+2] != '0' && startOK(0)) {
		skip := 0
		if !plus {
			skip = 2
		}
		total, best := -skip, -1
		for b := range gs {
			total += gs[b].n()
			if total > 15 {
				break
			}
			if total >= 9 && endOK(b) {
				best = b
			}
		}
		if best >= 0 {
			start := gs[0].spanStart()
			if plus {
				start = gs[0].start - 1
			}
			out = append(out, Match{KindPhone, start, gs[best].spanEnd()})
		}
	}

	for a := range gs {
		if !startOK(a) {
			continue
		}
		first := s[gs[a].start]
		noParen := func(b int) bool {
			for k := a; k <= b; k++ {
				if gs[k].paren {
					return false
				}
			}
			return true
		}
		sameSep := func(b int, seps string) bool {
			sep := byte(0)
			for k := a + 1; k <= b; k++ {
				if gs[k].paren || (sep != 0 && gs[k].sep != sep) {
					return false
				}
				sep = gs[k].sep
				if sep == 0 || indexByte(seps, sep) < 0 {
					return false
				}
			}
			return true
		}

		// US social security number: ddd-dd-dddd.
		if lens(a, 3, 2, 4) && gs[a+1].sep == '-' && gs[a+2].sep == '-' && noParen(a+2) && endOK(a+2) {
			add(KindSSN, a, a+2)
		}

		// Payment card in groups of 3 to 6 digits, one kind of separator
		// (space or dash), 13 to 19 digits, Luhn-valid. Longest wins.
		total, best := 0, -1
		for b := a; b < len(gs); b++ {
			if gs[b].n() < 3 || gs[b].n() > 6 || (b > a && !sameSep(b, " -")) {
				break
			}
			total += gs[b].n()
			if total > 19 {
				break
			}
			if b > a && total >= 13 && endOK(b) && luhn(s, gs[a:b+1]) {
				best = b
			}
		}
		if best >= 0 {
			add(KindCard, a, best)
		}

		// Italian mobile numbers 3xx: 3-3-4, 3-7, 3-4-3, 3-3-2-2.
		if first == '3' && !gs[a].paren {
			for _, shape := range [][]int{{3, 3, 4}, {3, 7}, {3, 4, 3}, {3, 3, 2, 2}} {
				b := a + len(shape) - 1
				if lens(a, shape...) && noParen(b) && endOK(b) {
					add(KindPhone, a, b)
					break
				}
			}
		}
		// North American numbers: (ddd) ddd-dddd, ddd-ddd-dddd, ddd ddd dddd.
		if first >= '2' && first <= '9' && lens(a, 3, 3, 4) && !gs[a+1].paren && !gs[a+2].paren && endOK(a+2) {
			add(KindPhone, a, a+2)
		}
		// Italian landlines: 0, a non-zero digit and up to 2 more, then 5-8 digits or two groups
		// of 3-4 digits, 9 to 11 digits in all.
		if first == '0' && gs[a].n() >= 2 && gs[a].n() <= 4 && s[gs[a].start+1] != '0' && !gs[a].paren {
			switch {
			case a+1 < len(gs) && gs[a+1].n() >= 5 && gs[a+1].n() <= 8 && noParen(a+1) && endOK(a+1):
				if t := gs[a].n() + gs[a+1].n(); t >= 9 && t <= 11 {
					add(KindPhone, a, a+1)
				}
			case a+2 < len(gs) && gs[a+1].n() >= 3 && gs[a+1].n() <= 4 && gs[a+2].n() >= 3 && gs[a+2].n() <= 4 &&
				noParen(a+2) && endOK(a+2):
				if t := gs[a].n() + gs[a+1].n() + gs[a+2].n(); t >= 9 && t <= 11 {
					add(KindPhone, a, a+2)
				}
			}
		}
	}
	return out
}

func indexByte(s string, c byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return i
		}
	}
	return -1
}
