package runtimetest

import (
	"errors"
	"fmt"
	"strings"

	"github.com/vera-run/vera/runtime"
)

// ErrInvalidSelector is wrapped by a [SelectorError] for a selector that is
// not valid CSS.
var ErrInvalidSelector = errors.New("invalid CSS selector")

// SelectorError reports why the fake cannot evaluate a CSS selector. It
// wraps [runtime.ErrUnsupported] when the selector uses CSS outside the
// fake's subset, and [ErrInvalidSelector] when it is malformed.
type SelectorError struct {
	Selector    string
	Offset      int // byte offset of the problem
	Detail      string
	Unsupported bool
}

// Error describes the selector, the offset and the problem.
func (e *SelectorError) Error() string {
	kind := "invalid CSS selector"
	if e.Unsupported {
		kind = "CSS outside the fake's subset"
	}
	return fmt.Sprintf("%s %q at offset %d: %s", kind, e.Selector, e.Offset, e.Detail)
}

// Unwrap returns the sentinel the error wraps.
func (e *SelectorError) Unwrap() error {
	if e.Unsupported {
		return runtime.ErrUnsupported
	}
	return ErrInvalidSelector
}

// Selector is a parsed selector of the fake's CSS subset:
//
//   - type selectors (div) and the universal selector (*);
//   - #id and .class;
//   - attribute selectors [a], [a=v], [a~=v], [a|=v], [a^=v], [a$=v], [a*=v]
//     with quoted or identifier values;
//   - the descendant (whitespace) and child (>) combinators;
//   - selector lists (a, b);
//   - the Playwright pseudo-class :visible on any compound selector.
//
// Everything else (other pseudo-classes, pseudo-elements, the + and ~
// combinators, escapes, namespaces, attribute flags) is rejected with a
// [SelectorError] wrapping [runtime.ErrUnsupported].
type Selector struct {
	source string
	list   []complexSel
}

// String returns the selector as written.
func (s *Selector) String() string { return s.source }

type complexSel struct {
	parts []compound // left to right
	combs []byte     // combs[i] joins parts[i] and parts[i+1]: ' ' or '>'
}

type compound struct {
	tag     string // "" or "*" for any
	id      string
	classes []string
	attrs   []attrSel
	visible bool
}

type attrSel struct {
	name, op, value string
}

// MaxSelectorLen bounds a selector the parser accepts, in bytes.
const MaxSelectorLen = 4096

// ParseSelector parses a selector of the fake's CSS subset.
func ParseSelector(s string) (*Selector, error) {
	p := &cssParser{src: s}
	if len(s) > MaxSelectorLen {
		return nil, p.fail(0, false, "selector longer than %d bytes", MaxSelectorLen)
	}
	sel := &Selector{source: s}
	for {
		cx, err := p.complex()
		if err != nil {
			return nil, err
		}
		sel.list = append(sel.list, cx)
		p.ws()
		if p.eof() {
			return sel, nil
		}
		if p.peek() != ',' {
			return nil, p.fail(p.pos, false, "unexpected %q", p.peek())
		}
		p.pos++
	}
}

type cssParser struct {
	src string
	pos int
}

func (p *cssParser) fail(at int, unsupported bool, format string, a ...any) error {
	return &SelectorError{Selector: p.src, Offset: at, Detail: fmt.Sprintf(format, a...), Unsupported: unsupported}
}

func (p *cssParser) eof() bool  { return p.pos >= len(p.src) }
func (p *cssParser) peek() byte { return p.src[p.pos] }

func isWS(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }

func (p *cssParser) ws() bool {
	start := p.pos
	for !p.eof() && isWS(p.peek()) {
		p.pos++
	}
	return p.pos > start
}

func (p *cssParser) complex() (complexSel, error) {
	var cx complexSel
	p.ws()
	for {
		c, err := p.compound()
		if err != nil {
			return cx, err
		}
		cx.parts = append(cx.parts, c)
		hadWS := p.ws()
		if p.eof() || p.peek() == ',' {
			return cx, nil
		}
		switch ch := p.peek(); ch {
		case '>':
			p.pos++
			p.ws()
			cx.combs = append(cx.combs, '>')
		case '+', '~':
			return cx, p.fail(p.pos, true, "the %q combinator is not supported", ch)
		default:
			if !hadWS {
				return cx, p.fail(p.pos, false, "unexpected %q", ch)
			}
			cx.combs = append(cx.combs, ' ')
		}
		if p.eof() || p.peek() == ',' {
			return cx, p.fail(p.pos, false, "selector ends with a combinator")
		}
	}
}

func (p *cssParser) compound() (compound, error) {
	var c compound
	start := p.pos
	if !p.eof() && p.peek() == '*' {
		c.tag = "*"
		p.pos++
	} else if !p.eof() && identStart(p.src, p.pos) {
		id, err := p.ident()
		if err != nil {
			return c, err
		}
		c.tag = strings.ToLower(id)
	}
	for !p.eof() {
		switch ch := p.peek(); ch {
		case '#':
			p.pos++
			id, err := p.ident()
			if err != nil {
				return c, err
			}
			if c.id != "" && c.id != id {
				c.id = "\x00" // two different ids never match
			} else {
				c.id = id
			}
		case '.':
			p.pos++
			cl, err := p.ident()
			if err != nil {
				return c, err
			}
			c.classes = append(c.classes, cl)
		case '[':
			a, err := p.attr()
			if err != nil {
				return c, err
			}
			c.attrs = append(c.attrs, a)
		case ':':
			at := p.pos
			p.pos++
			if !p.eof() && p.peek() == ':' {
				return c, p.fail(at, true, "pseudo-elements are not supported")
			}
			name, err := p.ident()
			if err != nil {
				return c, err
			}
			if strings.ToLower(name) != "visible" {
				return c, p.fail(at, true, "the pseudo-class :%s is not supported (only :visible)", name)
			}
			if !p.eof() && p.peek() == '(' {
				return c, p.fail(p.pos, false, ":visible takes no argument")
			}
			c.visible = true
		case '\\':
			return c, p.fail(p.pos, true, "escapes are not supported")
		case '|':
			return c, p.fail(p.pos, true, "namespaces are not supported")
		default:
			if p.pos == start {
				return c, p.fail(p.pos, false, "expected a selector, found %q", ch)
			}
			return c, nil
		}
	}
	if p.pos == start {
		return c, p.fail(p.pos, false, "empty selector")
	}
	return c, nil
}

// identStart reports whether an identifier starts at s[i]: a letter, '_',
// a non-ASCII byte, or '-' followed by one of those or another '-'.
func identStart(s string, i int) bool {
	c := s[i]
	if c == '-' {
		if i+1 >= len(s) {
			return false
		}
		c = s[i+1]
		if c == '-' {
			return true
		}
	}
	return c == '_' || c >= 0x80 || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func identChar(c byte) bool {
	return c == '_' || c == '-' || c >= 0x80 || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

func (p *cssParser) ident() (string, error) {
	if p.eof() || !identStart(p.src, p.pos) {
		if !p.eof() && p.peek() == '\\' {
			return "", p.fail(p.pos, true, "escapes are not supported")
		}
		return "", p.fail(p.pos, false, "expected an identifier")
	}
	return p.name()
}

// name reads identifier characters (a CSS "name", used after '#').
func (p *cssParser) name() (string, error) {
	start := p.pos
	for !p.eof() && identChar(p.peek()) {
		p.pos++
	}
	if !p.eof() && p.peek() == '\\' {
		return "", p.fail(p.pos, true, "escapes are not supported")
	}
	if p.pos == start {
		return "", p.fail(p.pos, false, "expected a name")
	}
	return p.src[start:p.pos], nil
}

func (p *cssParser) attr() (attrSel, error) {
	var a attrSel
	open := p.pos
	p.pos++ // [
	p.ws()
	n, err := p.ident()
	if err != nil {
		return a, err
	}
	if !p.eof() && p.peek() == '|' && !(p.pos+1 < len(p.src) && p.src[p.pos+1] == '=') {
		return a, p.fail(p.pos, true, "namespaces are not supported")
	}
	a.name = strings.ToLower(n)
	p.ws()
	if p.eof() {
		return a, p.fail(open, false, "unterminated attribute selector")
	}
	if p.peek() == ']' {
		p.pos++
		return a, nil
	}
	switch {
	case p.peek() == '=':
		a.op = "="
		p.pos++
	case strings.IndexByte("~|^$*", p.peek()) >= 0 && p.pos+1 < len(p.src) && p.src[p.pos+1] == '=':
		a.op = p.src[p.pos : p.pos+2]
		p.pos += 2
	default:
		return a, p.fail(p.pos, false, "unexpected %q in attribute selector", p.peek())
	}
	p.ws()
	if p.eof() {
		return a, p.fail(open, false, "unterminated attribute selector")
	}
	switch q := p.peek(); q {
	case '"', '\'':
		p.pos++
		start := p.pos
		for !p.eof() && p.peek() != q {
			if p.peek() == '\\' {
				return a, p.fail(p.pos, true, "escapes are not supported")
			}
			if p.peek() == '\n' {
				return a, p.fail(p.pos, false, "newline in string")
			}
			p.pos++
		}
		if p.eof() {
			return a, p.fail(start-1, false, "unterminated string")
		}
		a.value = p.src[start:p.pos]
		p.pos++
	default:
		v, err := p.ident()
		if err != nil {
			return a, err
		}
		a.value = v
	}
	p.ws()
	if p.eof() {
		return a, p.fail(open, false, "unterminated attribute selector")
	}
	if p.peek() != ']' {
		if identStart(p.src, p.pos) {
			return a, p.fail(p.pos, true, "attribute selector flags are not supported")
		}
		return a, p.fail(p.pos, false, "expected ']'")
	}
	p.pos++
	return a, nil
}

// matches reports whether e matches any selector of the list.
func (s *Selector) matches(e *elem) bool {
	for _, cx := range s.list {
		if cx.matchAt(e, len(cx.parts)-1) {
			return true
		}
	}
	return false
}

func (cx complexSel) matchAt(e *elem, i int) bool {
	if !cx.parts[i].matches(e) {
		return false
	}
	if i == 0 {
		return true
	}
	if cx.combs[i-1] == '>' {
		return e.parent != nil && cx.matchAt(e.parent, i-1)
	}
	for p := e.parent; p != nil; p = p.parent {
		if cx.matchAt(p, i-1) {
			return true
		}
	}
	return false
}

func (c compound) matches(e *elem) bool {
	if c.tag != "" && c.tag != "*" && c.tag != e.tag {
		return false
	}
	if c.id != "" && e.attrs["id"] != c.id {
		return false
	}
	if len(c.classes) > 0 {
		have := strings.Fields(e.attrs["class"])
		for _, want := range c.classes {
			if !contains(have, want) {
				return false
			}
		}
	}
	for _, a := range c.attrs {
		v, ok := e.attrs[a.name]
		if !ok || !a.test(v) {
			return false
		}
	}
	if c.visible && !rendered(e) {
		return false
	}
	return true
}

func (a attrSel) test(v string) bool {
	switch a.op {
	case "":
		return true
	case "=":
		return v == a.value
	case "~=":
		return a.value != "" && contains(strings.Fields(v), a.value)
	case "|=":
		return v == a.value || strings.HasPrefix(v, a.value+"-")
	case "^=":
		return a.value != "" && strings.HasPrefix(v, a.value)
	case "$=":
		return a.value != "" && strings.HasSuffix(v, a.value)
	case "*=":
		return a.value != "" && strings.Contains(v, a.value)
	}
	return false
}

func contains(xs []string, x string) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}
