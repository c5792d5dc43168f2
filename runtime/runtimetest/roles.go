package runtimetest

import "strings"

// roleOf computes an element's role: the first token of an explicit role
// attribute, else the implicit role of its tag as Chromium exposes it in
// the accessibility tree (a documented subset; see the package doc).
func roleOf(e *elem) string {
	if r := strings.Fields(strings.ToLower(e.attrs["role"])); len(r) > 0 {
		return r[0]
	}
	switch e.tag {
	case "button":
		return "button"
	case "a":
		if e.has("href") {
			return "link"
		}
		return "generic"
	case "input":
		switch e.inputType() {
		case "text", "email", "tel", "url", "password":
			return "textbox"
		case "search":
			return "searchbox"
		case "checkbox":
			return "checkbox"
		case "radio":
			return "radio"
		case "number":
			return "spinbutton"
		case "range":
			return "slider"
		case "button", "submit", "reset", "image":
			return "button"
		}
		return ""
	case "textarea":
		return "textbox"
	case "select":
		if e.has("multiple") || sizeOver1(e.attrs["size"]) {
			return "listbox"
		}
		return "combobox"
	case "option":
		return "option"
	case "optgroup", "fieldset":
		return "group"
	case "h1", "h2", "h3", "h4", "h5", "h6":
		return "heading"
	case "table":
		return "table"
	case "caption":
		return "caption"
	case "thead", "tbody", "tfoot":
		return "rowgroup"
	case "tr":
		return "row"
	case "td":
		if inGrid(e) {
			return "gridcell"
		}
		return "cell"
	case "th":
		if strings.EqualFold(e.attrs["scope"], "row") {
			return "rowheader"
		}
		return "columnheader"
	case "ul", "ol":
		return "list"
	case "li":
		return "listitem"
	case "dialog":
		return "dialog"
	case "nav":
		return "navigation"
	case "main":
		return "main"
	case "aside":
		return "complementary"
	case "article":
		return "article"
	case "header", "footer":
		if e.closest(func(x *elem) bool {
			return x != e && (x.tag == "article" || x.tag == "aside" || x.tag == "main" || x.tag == "nav" || x.tag == "section")
		}) != nil {
			return "generic"
		}
		if e.tag == "header" {
			return "banner"
		}
		return "contentinfo"
	case "section":
		if e.attrs["aria-label"] != "" {
			return "region"
		}
		return "generic"
	case "form":
		if e.attrs["aria-label"] != "" {
			return "form"
		}
		return "generic"
	case "img":
		if alt, ok := e.attrs["alt"]; ok && alt == "" {
			return "presentation"
		}
		return "img"
	case "hr":
		return "separator"
	case "p":
		return "paragraph"
	case "progress":
		return "progressbar"
	case "meter":
		return "meter"
	case "output":
		return "status"
	case "blockquote":
		return "blockquote"
	case "figure":
		return "figure"
	case "strong":
		return "strong"
	case "em":
		return "emphasis"
	case "code":
		return "code"
	case "time":
		return "time"
	case "dt":
		return "term"
	case "dd":
		return "definition"
	case "div", "span", "b", "i", "small", "pre", "abbr":
		return "generic"
	}
	return ""
}

// inGrid reports whether e's nearest table-like ancestor is a grid or a
// treegrid: Chromium makes its cells gridcells and names its rows from
// their content; a row of a plain table has no name (Playwright's
// getByRole names it from its cells, Chromium does not).
func inGrid(e *elem) bool {
	for p := e.parent; p != nil; p = p.parent {
		switch roleOf(p) {
		case "grid", "treegrid":
			return true
		case "table":
			return false
		}
	}
	return false
}

// layoutGuess reports whether e is a part of a table whose role Chromium
// decides from the table's layout: an element with an implicit table
// role (table, row group, row, cell) of a table with no sign of data.
// With a caption, thead, tfoot or th, a summary or rules attribute, a
// role, or an editable ancestor Chromium always exposes a data table;
// without one it guesses from the layout (a one-cell table is a layout
// table, exposed as LayoutTable, LayoutTableRow and LayoutTableCell; a
// bare two-row table was a data table on one page and a layout table on
// another), which the fake cannot.
func layoutGuess(e *elem) bool {
	if e.has("role") {
		return false // an explicit role is kept in a layout table too
	}
	var t *elem
	switch e.tag {
	case "table":
		t = e
	case "tbody", "tr", "td":
		t = tableOf(e)
	default:
		return false
	}
	if t == nil || t.has("role") || t.has("summary") || t.has("rules") {
		return false
	}
	if t.closest(func(x *elem) bool { return x.has("contenteditable") }) != nil {
		return false
	}
	for _, c := range t.children {
		switch c.tag {
		case "caption", "thead", "tfoot":
			return false
		}
	}
	return t.walk(func(x *elem) bool {
		// Stop at a th of t's own (not of a nested table).
		return !(x.tag == "th" && tableOf(x) == t)
	})
}

// tableOf returns the nearest <table> ancestor of e.
func tableOf(e *elem) *elem {
	if e == nil || e.parent == nil {
		return nil
	}
	return e.parent.closest(func(x *elem) bool { return x.tag == "table" })
}

func sizeOver1(s string) bool {
	s = strings.TrimSpace(s)
	return s != "" && s != "0" && s != "1" && strings.Trim(s, "0123456789") == ""
}

// nameFromContent lists the roles whose accessible name comes from their
// content when nothing else names them.
var nameFromContent = set("button", "link", "heading", "cell", "gridcell", "columnheader", "rowheader",
	"row", "option", "tab", "menuitem", "menuitemcheckbox", "menuitemradio", "treeitem",
	"tooltip", "switch", "checkbox", "radio", "caption", "term")

// accessibleName computes a simplified accessible name (accname 1.2 as far
// as fixtures need it): aria-label; then the text of the <label>s of a
// labelable control; then, for an <input type=submit|reset|button>, its
// value; for an <img>, its alt; for a role named from content, the visible
// content; then the title attribute; then a text field's placeholder.
func accessibleName(e *elem) string {
	if v := collapse(e.attrs["aria-label"]); v != "" {
		return v
	}
	if e.labelable() {
		var parts []string
		for _, l := range labelsOf(e) {
			if t := contentName(l, e); t != "" {
				parts = append(parts, t)
			}
		}
		if len(parts) > 0 {
			return collapse(strings.Join(parts, " "))
		}
	}
	role := roleOf(e)
	switch {
	case e.tag == "input" && (e.inputType() == "submit" || e.inputType() == "reset" || e.inputType() == "button"):
		if v, ok := e.attrs["value"]; ok {
			return collapse(v)
		}
		switch e.inputType() {
		case "submit":
			return "Submit"
		case "reset":
			return "Reset"
		}
	case e.tag == "img":
		if v := collapse(e.attrs["alt"]); v != "" {
			return v
		}
	case e.tag == "table":
		for _, c := range e.children {
			if c.tag == "caption" {
				if v := contentName(c, nil); v != "" {
					return v
				}
			}
		}
	case e.tag == "fieldset":
		for _, c := range e.children {
			if c.tag == "legend" {
				if v := contentName(c, nil); v != "" {
					return v
				}
			}
		}
	case nameFromContent[role] && !(e.tag == "input") && (role != "row" || inGrid(e)):
		if v := contentName(e, nil); v != "" {
			return v
		}
	}
	if v := collapse(e.attrs["title"]); v != "" {
		return v
	}
	if e.tag == "textarea" || e.tag == "input" && textInputTypes[e.inputType()] {
		return collapse(e.attrs["placeholder"])
	}
	return ""
}

// contentName is the name computed from e's rendered content: own text,
// then each visible child's aria-label, alt, or content. skip is left out
// (the control a wrapping label labels).
func contentName(e *elem, skip *elem) string {
	var parts []string
	var rec func(x *elem)
	rec = func(x *elem) {
		if x.text != "" && textRendered(x) {
			parts = append(parts, x.text)
		}
		for _, c := range x.children {
			if c == skip || !selfRendered(c) {
				continue
			}
			if v := collapse(c.attrs["aria-label"]); v != "" {
				parts = append(parts, v)
				continue
			}
			if c.tag == "img" {
				parts = append(parts, c.attrs["alt"])
				continue
			}
			rec(c)
		}
	}
	rec(e)
	return collapse(strings.Join(parts, " "))
}

// labelsOf returns the <label> elements labelling e: those whose for
// attribute names e's id, and a wrapping label, in document order.
func labelsOf(e *elem) []*elem {
	if !e.labelable() {
		return nil
	}
	root := e
	for root.parent != nil {
		root = root.parent
	}
	id := e.id()
	var out []*elem
	root.walk(func(x *elem) bool {
		if x.tag != "label" {
			return true
		}
		if f, ok := x.attrs["for"]; ok {
			if f != "" && f == id && labelTarget(x) == e {
				out = append(out, x)
			}
		} else if x.isAncestorOf(e) && labelTarget(x) == e {
			out = append(out, x)
		}
		return true
	})
	return out
}

// labelTarget is the control a <label> labels: the first element with the
// id in its for attribute (when labelable), else its first labelable
// descendant.
func labelTarget(l *elem) *elem {
	root := l
	for root.parent != nil {
		root = root.parent
	}
	if f, ok := l.attrs["for"]; ok {
		var t *elem
		root.walk(func(x *elem) bool {
			if f != "" && x.id() == f {
				t = x
				return false
			}
			return true
		})
		if t != nil && t.labelable() {
			return t
		}
		return nil
	}
	var t *elem
	for _, c := range l.children {
		c.walk(func(x *elem) bool {
			if x.labelable() {
				t = x
				return false
			}
			return true
		})
		if t != nil {
			break
		}
	}
	return t
}

// selfRendered reports whether e itself generates a box, ignoring its
// ancestors: not hidden, not in <head>, not an <input type=hidden>, a
// <dialog> only when open, an <option> never (it has no box of its own in
// a drop-down).
func selfRendered(e *elem) bool {
	if e.has("hidden") {
		return false
	}
	switch e.tag {
	case "head", "title", "option", "optgroup":
		return false
	case "dialog":
		return e.has("open")
	case "input":
		return e.inputType() != "hidden"
	}
	return true
}

// rendered reports whether e and all its ancestors generate boxes, up
// through the iframes hosting its document.
func rendered(e *elem) bool {
	for x := e; x != nil; {
		if !selfRendered(x) {
			return false
		}
		if x.parent == nil && x.doc != nil && x.doc.host != nil && x == x.doc.root {
			x = x.doc.host
			continue
		}
		x = x.parent
	}
	return true
}

// textRendered reports whether e's own text is rendered as text (form
// controls and frames show no text content).
func textRendered(e *elem) bool {
	switch e.tag {
	case "textarea", "select", "iframe", "title":
		return false
	}
	return true
}

// innerText approximates HTMLElement.innerText after whitespace collapsing:
// the text of rendered descendants, or textContent when e itself is not
// rendered, as browsers do.
func innerText(e *elem) string {
	if !rendered(e) {
		return collapse(textContent(e))
	}
	var parts []string
	var rec func(x *elem)
	rec = func(x *elem) {
		if x.tag == "select" || x.tag == "textarea" || x.tag == "iframe" {
			return
		}
		if x.text != "" && textRendered(x) {
			parts = append(parts, x.text)
		}
		for _, c := range x.children {
			if selfRendered(c) {
				rec(c)
			}
		}
	}
	rec(e)
	return collapse(strings.Join(parts, " "))
}
