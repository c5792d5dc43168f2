package runtimetest

import (
	"maps"
	"slices"
	"strings"
	"unicode"
)

// elem is one element of the materialised document: the exact element
// tree the HTML renderer emits and a browser parses, so the fake driver and
// a real browser search the same structure. The fake's element handles are
// *elem.
type elem struct {
	tag      string
	attrs    map[string]string // HTML attributes, names lower-case
	text     string            // own text, rendered before the children
	value    string            // current value of a form control
	children []*elem
	parent   *elem

	doc      *document // the document it belongs to (driver only)
	frameURL string    // iframes: the resolved URL of the framed page
	frame    *document // iframes: the loaded frame document (driver only)
}

func (e *elem) id() string { return e.attrs["id"] }

func (e *elem) has(attr string) bool {
	_, ok := e.attrs[attr]
	return ok
}

func (e *elem) appendChild(c *elem) {
	c.parent = e
	e.children = append(e.children, c)
}

// detach removes e from its parent.
func (e *elem) detach() {
	if p := e.parent; p != nil {
		p.children = slices.DeleteFunc(p.children, func(c *elem) bool { return c == e })
		e.parent = nil
	}
}

// walk calls f for e and its descendants in document order until f returns
// false.
func (e *elem) walk(f func(*elem) bool) bool {
	if !f(e) {
		return false
	}
	for _, c := range e.children {
		if !c.walk(f) {
			return false
		}
	}
	return true
}

// closest returns the nearest inclusive ancestor matching pred.
func (e *elem) closest(pred func(*elem) bool) *elem {
	for x := e; x != nil; x = x.parent {
		if pred(x) {
			return x
		}
	}
	return nil
}

// isAncestorOf reports whether e is a proper ancestor of x.
func (e *elem) isAncestorOf(x *elem) bool {
	for p := x.parent; p != nil; p = p.parent {
		if p == e {
			return true
		}
	}
	return false
}

// inputType is an <input>'s type, lower-case, "text" by default.
func (e *elem) inputType() string {
	if t := strings.ToLower(e.attrs["type"]); t != "" {
		return t
	}
	return "text"
}

var voidTags = set("input", "img", "hr", "br")

// textInputTypes are the <input> types a fill writes into.
var textInputTypes = set("text", "search", "email", "tel", "url", "password", "number")

func set(xs ...string) map[string]bool {
	m := make(map[string]bool, len(xs))
	for _, x := range xs {
		m[x] = true
	}
	return m
}

// fillable reports whether a fill can write into e.
func (e *elem) fillable() bool {
	return e.tag == "textarea" || e.tag == "input" && textInputTypes[e.inputType()]
}

// checkable reports whether e is a checkbox or radio button.
func (e *elem) checkable() bool {
	if e.tag != "input" {
		return false
	}
	t := e.inputType()
	return t == "checkbox" || t == "radio"
}

// valued reports whether e has a value property a driver reads.
func (e *elem) valued() bool {
	switch e.tag {
	case "input", "textarea", "select", "option", "button":
		return true
	}
	return false
}

var formControlTags = set("button", "input", "select", "textarea", "fieldset", "option", "optgroup")

// disabled reports whether e is a disabled form control: its own disabled
// attribute, or a disabled <fieldset> ancestor.
func (e *elem) disabled() bool {
	if !formControlTags[e.tag] {
		return false
	}
	if e.has("disabled") {
		return true
	}
	for p := e.parent; p != nil; p = p.parent {
		if p.tag == "fieldset" && p.has("disabled") {
			return true
		}
	}
	return false
}

// labelable are the elements a <label> can label.
var labelableTags = set("button", "input", "meter", "output", "progress", "select", "textarea")

func (e *elem) labelable() bool {
	return labelableTags[e.tag] && !(e.tag == "input" && e.inputType() == "hidden")
}

// currentValue is what a driver reads as the element's value.
func (e *elem) currentValue() string {
	switch e.tag {
	case "select":
		return e.value
	case "option":
		return optionValue(e)
	case "button":
		return e.attrs["value"]
	case "input":
		if e.checkable() {
			if v, ok := e.attrs["value"]; ok {
				return v
			}
			return "on"
		}
		return e.value
	case "textarea":
		return e.value
	}
	return ""
}

// optionValue is an <option>'s value: its value attribute, else its text
// with whitespace collapsed.
func optionValue(o *elem) string {
	if v, ok := o.attrs["value"]; ok {
		return v
	}
	return collapse(textContent(o))
}

// options returns a <select>'s options in order, including those inside
// <optgroup>s.
func (e *elem) options() []*elem {
	var out []*elem
	for _, c := range e.children {
		switch c.tag {
		case "option":
			out = append(out, c)
		case "optgroup":
			for _, o := range c.children {
				if o.tag == "option" {
					out = append(out, o)
				}
			}
		}
	}
	return out
}

// setValue sets a control's value as the DOM value property does.
func (e *elem) setValue(v string) {
	switch e.tag {
	case "select":
		e.value = ""
		for _, o := range e.options() {
			if optionValue(o) == v {
				e.value = v
				break
			}
		}
	case "option", "button":
		e.attrs["value"] = v
	case "input":
		if e.checkable() {
			e.attrs["value"] = v
			return
		}
		e.value = sanitizeValue(e.inputType(), v)
	case "textarea":
		e.value = v
	}
}

// sanitizeValue applies the HTML value sanitisation the fake models: a
// number field drops a value that is not a number; line breaks are removed
// from single-line fields.
func sanitizeValue(typ, v string) string {
	if typ == "number" && !validFloat(v) {
		return ""
	}
	if typ != "textarea" {
		v = strings.NewReplacer("\r", "", "\n", "").Replace(v)
	}
	return v
}

// validFloat reports whether s is an HTML "valid floating-point number".
func validFloat(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	digits := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		frac := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			frac++
		}
		if frac == 0 {
			return false
		}
		digits += frac
	}
	if digits == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		exp := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			exp++
		}
		if exp == 0 {
			return false
		}
	}
	return i == len(s)
}

// collapse replaces every whitespace run with one space and trims.
func collapse(s string) string {
	// Most texts are already collapsed: answer them without allocating.
	if collapsed(s) {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// collapsed reports whether s equals strings.Join(strings.Fields(s), " "):
// no leading, trailing or doubled space and no whitespace but ' '.
func collapsed(s string) bool {
	prevSpace := true // at the start a space would be leading
	for _, r := range s {
		switch {
		case r == ' ':
			if prevSpace {
				return false
			}
			prevSpace = true
		case unicode.IsSpace(r):
			return false
		default:
			prevSpace = false
		}
	}
	return s == "" || !prevSpace
}

// textContent is the DOM textContent: every descendant's text, hidden or
// not. The renderer separates elements with line breaks, so pieces are
// joined with a space.
func textContent(e *elem) string {
	var parts []string
	e.walk(func(x *elem) bool {
		if x.text != "" {
			parts = append(parts, x.text)
		}
		return true
	})
	return strings.Join(parts, " ")
}

// materialiser turns fixture nodes into the element tree.
type materialiser struct {
	base string // URL frames are resolved against
}

// nodes materialises a node list: each labelled node is preceded by its
// <label for> element.
func (m materialiser) nodes(ns []*Node) []*elem {
	var out []*elem
	for _, n := range ns {
		if n == nil {
			continue
		}
		out = append(out, m.node(n)...)
	}
	return out
}

// node materialises one fixture node into its label (when it has one) and
// its element.
func (m materialiser) node(n *Node) []*elem {
	e := &elem{tag: nodeTag(n), attrs: maps.Clone(n.Attributes), text: n.Text}
	if e.attrs == nil {
		e.attrs = map[string]string{}
	}
	setIf := func(k, v string) {
		if v != "" {
			e.attrs[k] = v
		}
	}
	setIf("id", n.ID)
	setIf("role", n.Role)
	setIf("aria-label", n.Name)
	setIf("placeholder", n.Placeholder)
	setIf("data-testid", n.TestID)
	if n.Hidden {
		e.attrs["hidden"] = ""
	}
	if n.Disabled {
		e.attrs["disabled"] = ""
	}
	if n.Frame != nil {
		u, err := resolveRef(m.base, n.Frame.URL)
		if err != nil {
			u = "about:blank"
		}
		e.frameURL = u
		e.attrs["src"] = u
	}
	for _, c := range m.nodes(n.Children) {
		e.appendChild(c)
	}
	switch e.tag {
	case "input":
		if n.Value != "" {
			e.attrs["value"] = n.Value
		}
		e.value = sanitizeValue(e.inputType(), n.Value)
	case "textarea":
		e.text, e.value = n.Value, n.Value
	case "button", "option":
		if n.Value != "" {
			e.attrs["value"] = n.Value
		}
	case "table":
		wrapRows(e)
	case "select":
		initSelect(e, n.Value)
	}
	if n.Label == "" {
		return []*elem{e}
	}
	l := &elem{tag: "label", attrs: map[string]string{"for": n.ID}, text: n.Label}
	if n.Hidden {
		l.attrs["hidden"] = ""
	}
	return []*elem{l, e}
}

func nodeTag(n *Node) string {
	switch {
	case n.Tag != "":
		return strings.ToLower(n.Tag)
	case n.Frame != nil:
		return "iframe"
	}
	return "div"
}

// wrapRows puts each run of <tr> children of a table into a <tbody>, as the
// HTML parser does.
func wrapRows(t *elem) {
	var out []*elem
	var body *elem
	for _, c := range t.children {
		if c.tag != "tr" {
			body = nil
			out = append(out, c)
			continue
		}
		if body == nil {
			body = &elem{tag: "tbody", attrs: map[string]string{}, parent: t}
			out = append(out, body)
		}
		body.appendChild(c)
	}
	t.children = out
}

// initSelect picks the selected option: the one whose value equals want,
// else the first with a selected attribute, else the first option.
func initSelect(s *elem, want string) {
	opts := s.options()
	if len(opts) == 0 {
		return
	}
	if want != "" {
		for _, o := range opts {
			if optionValue(o) == want {
				o.attrs["selected"] = ""
				s.value = want
				return
			}
		}
	}
	for _, o := range opts {
		if o.has("selected") {
			s.value = optionValue(o)
			return
		}
	}
	s.value = optionValue(opts[0])
}

// documentTree materialises a page into <html><head><title/></head><body/></html>.
func documentTree(p *Page, pageURL string) (html, body *elem) {
	html = &elem{tag: "html", attrs: map[string]string{}}
	head := &elem{tag: "head", attrs: map[string]string{}}
	body = &elem{tag: "body", attrs: map[string]string{}}
	html.appendChild(head)
	html.appendChild(body)
	if p == nil {
		return html, body
	}
	if p.Title != "" {
		head.appendChild(&elem{tag: "title", attrs: map[string]string{}, text: p.Title})
	}
	for _, e := range (materialiser{base: pageURL}).nodes(p.Body) {
		body.appendChild(e)
	}
	return html, body
}
