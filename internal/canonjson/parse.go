package canonjson

import (
	"bytes"
	"math"
	"slices"
	"strconv"
	"sync"
	"unicode/utf8"
)

// The canonicalizer works in one parse plus, only when needed, one copy:
//
//  1. The recursive-descent parser validates the input and writes canonical
//     tokens (strings re-escaped, numbers re-formatted, whitespace dropped)
//     to p.out in document order. For every object it collects the members'
//     sort keys and their byte spans in p.out; an object whose members are
//     already in order (the common case) needs nothing more. For an object
//     that is out of order it sorts the members with slices.SortFunc and
//     records the sorted spans.
//  2. If any object was out of order, p.out is copied once into p.fin,
//     visiting the members of each recorded object in sorted order. Each
//     output byte is copied exactly once however deep the unsorted objects
//     nest, so the cost is O(n + m log m) for n bytes and m members, with no
//     depth amplification.

// keyRef locates a member's sort key (its decoded name, remapped by
// sortKeyByte): p.in[at:at+n] when at >= 0, else p.arena[-at-1:][:n]. Offsets
// rather than slices keep member free of pointers, so large objects cost the
// garbage collector nothing to scan.
type keyRef struct{ at, n int }

// member is one object member being parsed.
type member struct {
	key        keyRef
	start, end int // span of `"name":value` in p.out
	off        int // input offset of the name, for errors
}

// span is a byte range in p.out.
type span struct{ start, end int }

// unsorted records an object whose members must be permuted in pass 2.
type unsorted struct {
	start, end int // span of `{...}` in p.out
	lo, hi     int // its members in sorted order: p.spans[lo:hi]
}

type parser struct {
	in    []byte
	pos   int
	depth int
	out   []byte     // pass 1 output
	fin   []byte     // pass 2 output
	stack []member   // members of the objects currently open
	arena []byte     // decoded names that are not slices of the input
	objs  []unsorted // out-of-order objects, in completion order
	spans []span
}

var parserPool = sync.Pool{New: func() any { return new(parser) }}

// maxPooled bounds the buffer capacity kept in the pool so one huge document
// does not pin its memory for the life of the process.
const maxPooled = 4 << 20

func getParser() *parser { return parserPool.Get().(*parser) }

func putParser(p *parser) {
	p.in = nil
	if cap(p.out) > maxPooled || cap(p.fin) > maxPooled || cap(p.arena) > maxPooled ||
		cap(p.stack) > maxPooled/40 || cap(p.spans) > maxPooled/16 || cap(p.objs) > maxPooled/32 {
		return
	}
	parserPool.Put(p)
}

// run canonicalizes in. The result aliases p's buffers and is valid until p
// is reused.
func (p *parser) run(in []byte) ([]byte, error) {
	p.in = in
	p.pos = 0
	p.depth = 0
	if want := len(in) + len(in)/8 + 64; cap(p.out) < want {
		// Canonical output is rarely longer than its input: one
		// allocation instead of repeated growth.
		p.out = make([]byte, 0, want)
	}
	p.out = p.out[:0]
	p.stack = p.stack[:0]
	p.arena = p.arena[:0]
	p.objs = p.objs[:0]
	p.spans = p.spans[:0]
	p.skipWS()
	if err := p.value(); err != nil {
		return nil, err
	}
	p.skipWS()
	if p.pos < len(p.in) {
		return nil, p.fail(p.pos, ErrTrailingData, "trailing data after top-level value")
	}
	if len(p.objs) == 0 {
		return p.out, nil
	}
	// Completion order is post-order; emit wants document (start) order.
	slices.SortFunc(p.objs, func(a, b unsorted) int { return a.start - b.start })
	if cap(p.fin) < len(p.out) {
		p.fin = make([]byte, 0, len(p.out))
	}
	p.fin = p.emit(p.fin[:0], 0, len(p.out), 0)
	return p.fin, nil
}

// emit appends p.out[a:b] to dst, permuting the members of every recorded
// object inside it. i is an index into p.objs at or before the first object
// starting at or after a.
func (p *parser) emit(dst []byte, a, b, i int) []byte {
	objs := p.objs
	i = p.firstObj(i, a)
	pos := a
	for i < len(objs) && objs[i].start < b {
		o := objs[i]
		dst = append(dst, p.out[pos:o.start]...)
		dst = append(dst, '{')
		for j, s := range p.spans[o.lo:o.hi] {
			if j > 0 {
				dst = append(dst, ',')
			}
			dst = p.emit(dst, s.start, s.end, i+1)
		}
		dst = append(dst, '}')
		pos = o.end
		i = p.firstObj(i+1, o.end)
	}
	return append(dst, p.out[pos:b]...)
}

// firstObj returns the index of the first recorded object at or after index
// i that starts at or after offset a.
func (p *parser) firstObj(i, a int) int {
	objs := p.objs
	lo, hi := i, len(objs)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if objs[m].start < a {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

func (p *parser) fail(off int, sentinel error, reason string) error {
	return &SyntaxError{Offset: int64(off), Reason: reason, Err: sentinel}
}

func (p *parser) unexpected(context string) error {
	if p.pos >= len(p.in) {
		return p.fail(p.pos, nil, "unexpected end of input "+context)
	}
	return p.fail(p.pos, nil, "invalid character "+quoteByte(p.in[p.pos])+" "+context)
}

func quoteByte(c byte) string {
	if c < utf8.RuneSelf {
		return strconv.QuoteRune(rune(c))
	}
	return "byte 0x" + strconv.FormatUint(uint64(c), 16)
}

func (p *parser) skipWS() {
	for p.pos < len(p.in) {
		switch p.in[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *parser) value() error {
	if p.pos >= len(p.in) {
		return p.unexpected("looking for beginning of value")
	}
	switch c := p.in[p.pos]; c {
	case '{':
		return p.object()
	case '[':
		return p.array()
	case '"':
		_, err := p.str(false)
		return err
	case 't':
		return p.literal("true")
	case 'f':
		return p.literal("false")
	case 'n':
		return p.literal("null")
	default:
		if c == '-' || (c >= '0' && c <= '9') {
			return p.number()
		}
		return p.unexpected("looking for beginning of value")
	}
}

func (p *parser) literal(lit string) error {
	if len(p.in)-p.pos >= len(lit) && string(p.in[p.pos:p.pos+len(lit)]) == lit {
		p.pos += len(lit)
		p.out = append(p.out, lit...)
		return nil
	}
	// Point at the first byte that differs.
	for i := 0; i < len(lit); i++ {
		if p.pos >= len(p.in) || p.in[p.pos] != lit[i] {
			return p.unexpected("in literal " + lit)
		}
		p.pos++
	}
	return nil // unreachable
}

func (p *parser) enter() error {
	p.depth++
	if p.depth > MaxDepth {
		return p.fail(p.pos, ErrDepth, "nesting deeper than "+strconv.Itoa(MaxDepth))
	}
	return nil
}

func (p *parser) array() error {
	if err := p.enter(); err != nil {
		return err
	}
	p.pos++ // '['
	p.out = append(p.out, '[')
	p.skipWS()
	if p.pos < len(p.in) && p.in[p.pos] == ']' {
		p.pos++
		p.out = append(p.out, ']')
		p.depth--
		return nil
	}
	for {
		if err := p.value(); err != nil {
			return err
		}
		p.skipWS()
		if p.pos < len(p.in) {
			switch p.in[p.pos] {
			case ',':
				p.pos++
				p.out = append(p.out, ',')
				p.skipWS()
				continue
			case ']':
				p.pos++
				p.out = append(p.out, ']')
				p.depth--
				return nil
			}
		}
		return p.unexpected("after array element")
	}
}

func (p *parser) object() error {
	if err := p.enter(); err != nil {
		return err
	}
	start := len(p.out)
	p.pos++ // '{'
	p.out = append(p.out, '{')
	p.skipWS()
	if p.pos < len(p.in) && p.in[p.pos] == '}' {
		p.pos++
		p.out = append(p.out, '}')
		p.depth--
		return nil
	}
	base, abase := len(p.stack), len(p.arena)
	for {
		if p.pos >= len(p.in) || p.in[p.pos] != '"' {
			return p.unexpected("looking for beginning of object key string")
		}
		off, mstart := p.pos, len(p.out)
		key, err := p.str(true)
		if err != nil {
			return err
		}
		p.skipWS()
		if p.pos >= len(p.in) || p.in[p.pos] != ':' {
			return p.unexpected("after object key")
		}
		p.pos++
		p.out = append(p.out, ':')
		p.skipWS()
		if err := p.value(); err != nil {
			return err
		}
		if len(p.stack) == cap(p.stack) {
			// Double, rather than the runtime's 1.25x for large slices.
			p.stack = slices.Grow(p.stack, max(len(p.stack), 16))
		}
		p.stack = append(p.stack, member{key: key, start: mstart, end: len(p.out), off: off})
		p.skipWS()
		if p.pos < len(p.in) {
			c := p.in[p.pos]
			if c == ',' {
				p.pos++
				p.out = append(p.out, ',')
				p.skipWS()
				continue
			}
			if c == '}' {
				p.pos++
				p.out = append(p.out, '}')
				break
			}
		}
		return p.unexpected("after object key:value pair")
	}
	ms := p.stack[base:]
	sorted := true
	for i := 1; i < len(ms); i++ {
		c := bytes.Compare(p.keyOf(ms[i-1].key), p.keyOf(ms[i].key))
		if c == 0 {
			return p.duplicate(ms[i-1], ms[i])
		}
		if c > 0 {
			sorted = false
			break
		}
	}
	if !sorted {
		slices.SortFunc(ms, func(a, b member) int { return bytes.Compare(p.keyOf(a.key), p.keyOf(b.key)) })
		for i := 1; i < len(ms); i++ {
			if bytes.Equal(p.keyOf(ms[i-1].key), p.keyOf(ms[i].key)) {
				return p.duplicate(ms[i-1], ms[i])
			}
		}
		lo := len(p.spans)
		p.spans = slices.Grow(p.spans, max(len(ms), len(p.spans)))
		for _, m := range ms {
			p.spans = append(p.spans, span{m.start, m.end})
		}
		p.objs = append(p.objs, unsorted{start: start, end: len(p.out), lo: lo, hi: len(p.spans)})
	}
	p.stack = p.stack[:base]
	p.arena = p.arena[:abase]
	p.depth--
	return nil
}

func (p *parser) keyOf(k keyRef) []byte {
	if k.at >= 0 {
		return p.in[k.at : k.at+k.n]
	}
	a := -k.at - 1
	return p.arena[a : a+k.n]
}

func (p *parser) duplicate(a, b member) error {
	off := max(a.off, b.off)
	key := p.keyOf(b.key)
	name := make([]byte, len(key))
	for i, c := range key {
		name[i] = unsortKeyByte(c)
	}
	return p.fail(off, ErrDuplicateKey, "duplicate object key "+strconv.Quote(string(name)))
}

// sortKeyByte maps UTF-8 bytes so that bytewise order of the mapped string
// equals the order of the original string's UTF-16 code units, as RFC 8785
// §3.2.3 requires. UTF-8 byte order equals code point order; UTF-16 order
// differs only in that supplementary characters (surrogate pairs, UTF-8 lead
// bytes F0-F4) sort before U+E000-U+FFFF (lead bytes EE-EF). Swapping those
// lead-byte ranges fixes it: two strings first differ either at lead bytes
// or at continuation bytes (80-BF) of the same-length sequence, and the map
// leaves continuation bytes alone. The map is a bijection, so equal keys stay
// equal for duplicate detection.
func sortKeyByte(c byte) byte {
	switch {
	case c < 0xEE:
		return c
	case c <= 0xEF: // U+E000-U+FFFF after all supplementary characters
		return c + 5
	default: // F0-F4 (F5-FF never occur in valid UTF-8)
		return c - 2
	}
}

func unsortKeyByte(c byte) byte {
	switch {
	case c < 0xEE:
		return c
	case c <= 0xF2:
		return c + 2
	default:
		return c - 5
	}
}

// str parses the string at p.pos (which is '"') and writes its canonical
// form to p.out. For object names (isKey) it returns the sort key.
func (p *parser) str(isKey bool) (keyRef, error) {
	in := p.in
	start := p.pos + 1
	i := start
	high := false
	for i < len(in) {
		c := in[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == '"' || c == '\\' {
				break
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(in[i:])
		if r == utf8.RuneError && size == 1 {
			return keyRef{}, p.fail(i, ErrInvalidUTF8, "invalid UTF-8 in string")
		}
		if c >= 0xEE {
			high = true
		}
		i += size
	}
	if i >= len(in) {
		return keyRef{}, p.fail(i, nil, "unexpected end of input in string")
	}
	if in[i] != '"' {
		return p.strSlow(start, i, isKey)
	}
	// No escapes: the raw text is both the decoded and the canonical form.
	seg := in[start:i]
	p.out = append(p.out, in[start-1:i+1]...)
	p.pos = i + 1
	if !isKey || !high {
		return keyRef{start, len(seg)}, nil
	}
	a := len(p.arena)
	for _, c := range seg {
		p.arena = append(p.arena, sortKeyByte(c))
	}
	return keyRef{-a - 1, len(seg)}, nil
}

// strSlow continues str from in[i], the first escape or control character;
// in[start:i] is validated text that needs no escaping.
func (p *parser) strSlow(start, i int, isKey bool) (keyRef, error) {
	in := p.in
	p.out = append(p.out, in[start-1:i]...)
	a := len(p.arena)
	if isKey {
		p.arena = append(p.arena, in[start:i]...)
	}
	for {
		if i >= len(in) {
			return keyRef{}, p.fail(i, nil, "unexpected end of input in string")
		}
		c := in[i]
		switch {
		case c == '"':
			p.out = append(p.out, '"')
			p.pos = i + 1
			if !isKey {
				return keyRef{}, nil
			}
			key := p.arena[a:]
			for j, b := range key {
				key[j] = sortKeyByte(b)
			}
			return keyRef{-a - 1, len(key)}, nil
		case c == '\\':
			r, n, err := p.escape(i)
			if err != nil {
				return keyRef{}, err
			}
			i += n
			p.out = appendEscapedRune(p.out, r)
			if isKey {
				p.arena = utf8.AppendRune(p.arena, r)
			}
		case c < 0x20:
			return keyRef{}, p.fail(i, nil, "invalid control character "+quoteByte(c)+" in string")
		case c < utf8.RuneSelf:
			j := i + 1
			for j < len(in) && in[j] >= 0x20 && in[j] < utf8.RuneSelf && in[j] != '"' && in[j] != '\\' {
				j++
			}
			p.out = append(p.out, in[i:j]...)
			if isKey {
				p.arena = append(p.arena, in[i:j]...)
			}
			i = j
		default:
			r, size := utf8.DecodeRune(in[i:])
			if r == utf8.RuneError && size == 1 {
				return keyRef{}, p.fail(i, ErrInvalidUTF8, "invalid UTF-8 in string")
			}
			p.out = append(p.out, in[i:i+size]...)
			if isKey {
				p.arena = append(p.arena, in[i:i+size]...)
			}
			i += size
		}
	}
}

// escape decodes the escape sequence at in[i] (a backslash), combining a
// surrogate pair, and returns the rune and the number of bytes consumed.
func (p *parser) escape(i int) (rune, int, error) {
	in := p.in
	if i+1 >= len(in) {
		return 0, 0, p.fail(i+1, nil, "unexpected end of input in string escape")
	}
	switch in[i+1] {
	case '"':
		return '"', 2, nil
	case '\\':
		return '\\', 2, nil
	case '/':
		return '/', 2, nil
	case 'b':
		return '\b', 2, nil
	case 'f':
		return '\f', 2, nil
	case 'n':
		return '\n', 2, nil
	case 'r':
		return '\r', 2, nil
	case 't':
		return '\t', 2, nil
	case 'u':
		r, err := p.hex4(i + 2)
		if err != nil {
			return 0, 0, err
		}
		switch {
		case r >= 0xDC00 && r <= 0xDFFF:
			return 0, 0, p.fail(i, ErrLoneSurrogate, "lone low surrogate escape")
		case r >= 0xD800 && r <= 0xDBFF:
			if i+7 < len(in) && in[i+6] == '\\' && in[i+7] == 'u' {
				lo, err := p.hex4(i + 8)
				if err != nil {
					return 0, 0, err
				}
				if lo >= 0xDC00 && lo <= 0xDFFF {
					return 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00), 12, nil
				}
			}
			return 0, 0, p.fail(i, ErrLoneSurrogate, "high surrogate escape not followed by a low surrogate escape")
		}
		return r, 6, nil
	default:
		return 0, 0, p.fail(i+1, nil, "invalid escape character "+quoteByte(in[i+1])+" in string")
	}
}

func (p *parser) hex4(i int) (rune, error) {
	var r rune
	for j := i; j < i+4; j++ {
		if j >= len(p.in) {
			return 0, p.fail(j, nil, "unexpected end of input in \\u escape")
		}
		c := p.in[j]
		var v byte
		switch {
		case c >= '0' && c <= '9':
			v = c - '0'
		case c >= 'a' && c <= 'f':
			v = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			v = c - 'A' + 10
		default:
			return 0, p.fail(j, nil, "invalid character "+quoteByte(c)+" in \\u escape")
		}
		r = r<<4 | rune(v)
	}
	return r, nil
}

const hexDigits = "0123456789abcdef"

// appendEscapedRune appends r as RFC 8785 §3.2.2.2 serializes it.
func appendEscapedRune(dst []byte, r rune) []byte {
	switch r {
	case '"':
		return append(dst, '\\', '"')
	case '\\':
		return append(dst, '\\', '\\')
	case '\b':
		return append(dst, '\\', 'b')
	case '\t':
		return append(dst, '\\', 't')
	case '\n':
		return append(dst, '\\', 'n')
	case '\f':
		return append(dst, '\\', 'f')
	case '\r':
		return append(dst, '\\', 'r')
	}
	if r < 0x20 {
		return append(dst, '\\', 'u', '0', '0', hexDigits[r>>4], hexDigits[r&0xF])
	}
	return utf8.AppendRune(dst, r)
}

func (p *parser) number() error {
	in := p.in
	start := p.pos
	i := start
	neg := in[i] == '-'
	if neg {
		i++
	}
	switch {
	case i >= len(in):
		p.pos = i
		return p.unexpected("in numeric literal")
	case in[i] == '0':
		i++
		if i < len(in) && in[i] >= '0' && in[i] <= '9' {
			return p.fail(i, nil, "leading zero in numeric literal")
		}
	case in[i] >= '1' && in[i] <= '9':
		for i++; i < len(in) && in[i] >= '0' && in[i] <= '9'; i++ {
		}
	default:
		p.pos = i
		return p.unexpected("in numeric literal")
	}
	intDigits := i - start
	if neg {
		intDigits--
	}
	isInt := true
	if i < len(in) && in[i] == '.' {
		isInt = false
		i++
		if i >= len(in) || in[i] < '0' || in[i] > '9' {
			p.pos = i
			return p.unexpected("after decimal point in numeric literal")
		}
		for ; i < len(in) && in[i] >= '0' && in[i] <= '9'; i++ {
		}
	}
	if i < len(in) && (in[i] == 'e' || in[i] == 'E') {
		isInt = false
		i++
		if i < len(in) && (in[i] == '+' || in[i] == '-') {
			i++
		}
		if i >= len(in) || in[i] < '0' || in[i] > '9' {
			p.pos = i
			return p.unexpected("in exponent of numeric literal")
		}
		for ; i < len(in) && in[i] >= '0' && in[i] <= '9'; i++ {
		}
	}
	p.pos = i
	lit := in[start:i]
	if isInt && intDigits <= 15 {
		// Exactly representable, below 1e21: the literal is canonical,
		// except that -0 prints as 0.
		if neg && in[start+1] == '0' {
			p.out = append(p.out, '0')
		} else {
			p.out = append(p.out, lit...)
		}
		return nil
	}
	f, _ := strconv.ParseFloat(string(lit), 64) // grammar checked: only range errors remain
	if math.IsInf(f, 0) {
		return p.fail(start, ErrNonFinite, "number "+clip(lit)+" overflows float64")
	}
	at := len(p.out)
	p.out = appendES(p.out, f)
	// An integer literal that float64 cannot hold exactly is rejected,
	// unless it is already the canonical spelling of its float64 (as
	// 123456789012345680000 is): canonical output must be accepted again.
	if isInt && string(p.out[at:]) != string(lit) && !exactInteger(lit, f) {
		p.out = p.out[:at]
		return p.fail(start, ErrUnsafeInteger, "integer "+clip(lit)+" is not exactly representable as float64")
	}
	return nil
}

// clip shortens a literal for an error message.
func clip(b []byte) string {
	if len(b) > 40 {
		return string(b[:37]) + "..."
	}
	return string(b)
}
