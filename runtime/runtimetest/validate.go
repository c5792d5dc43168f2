package runtimetest

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/runtime"
)

// Problem is one rule a fixture breaks. Path locates the offending value in
// JSON-ish notation (pages["http://…/"].body[0].children[1].id).
type Problem struct {
	Path   string
	Detail string
}

// ValidationError lists every problem of a fixture, not only the first. It
// wraps [ErrInvalidFixture].
type ValidationError struct {
	Problems []Problem
}

// Error lists the first problems with their paths.
func (e *ValidationError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d problem(s)", ErrInvalidFixture, len(e.Problems))
	for i, p := range e.Problems {
		if i == 10 {
			fmt.Fprintf(&b, "; …")
			break
		}
		fmt.Fprintf(&b, "; %s: %s", p.Path, p.Detail)
	}
	return b.String()
}

// Unwrap returns [ErrInvalidFixture].
func (e *ValidationError) Unwrap() error { return ErrInvalidFixture }

// MaxDownloadBytes bounds one download fixture's content.
const MaxDownloadBytes = 8 << 20

var (
	idPattern       = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]{0,63}$`)
	attrNamePattern = regexp.MustCompile(`^[a-z][a-z0-9_.:-]{0,63}$`)
	downloadName    = regexp.MustCompile(`^[A-Za-z0-9_()-][A-Za-z0-9 ._()-]{0,199}$`)
	templatePattern = regexp.MustCompile(`\{\{([^{}]*)\}\}`)
)

// allowedTags are the elements a fixture may use. Each behaves the same in
// the fake and in Chromium for everything a driver observes.
var allowedTags = set("div", "span", "p", "a", "button", "input", "textarea", "select",
	"option", "optgroup", "label", "form", "fieldset", "legend", "h1", "h2", "h3", "h4",
	"h5", "h6", "ul", "ol", "li", "dl", "dt", "dd", "table", "caption", "thead", "tbody",
	"tfoot", "tr", "td", "th", "nav", "main", "header", "footer", "aside", "section",
	"article", "dialog", "img", "hr", "br", "strong", "em", "b", "i", "small", "code",
	"pre", "iframe", "blockquote", "figure", "figcaption", "time", "abbr", "progress",
	"meter", "output")

// blockTags close an open <p> in the HTML parser, so they may not appear
// inside one.
var blockTags = set("div", "p", "ul", "ol", "li", "dl", "dt", "dd", "table", "h1", "h2",
	"h3", "h4", "h5", "h6", "section", "article", "nav", "main", "header", "footer",
	"aside", "form", "fieldset", "dialog", "pre", "blockquote", "hr", "figure", "figcaption")

// requiredParent lists the only parents some elements may have.
var requiredParent = map[string][]string{
	"li": {"ul", "ol"}, "dt": {"dl"}, "dd": {"dl"},
	"tr": {"table", "thead", "tbody", "tfoot"}, "td": {"tr"}, "th": {"tr"},
	"caption": {"table"}, "thead": {"table"}, "tbody": {"table"}, "tfoot": {"table"},
	"option": {"select", "optgroup"}, "optgroup": {"select"},
}

// allowedChildren lists the only children some elements may have.
var allowedChildren = map[string][]string{
	"table": {"caption", "thead", "tbody", "tfoot", "tr"},
	"thead": {"tr"}, "tbody": {"tr"}, "tfoot": {"tr"}, "tr": {"td", "th"},
	"select": {"option", "optgroup"}, "optgroup": {"option"},
	"option": {}, "textarea": {}, "iframe": {},
}

// noText are elements whose own text the HTML parser would move or drop.
var noText = set("table", "thead", "tbody", "tfoot", "tr", "select", "optgroup", "iframe", "textarea")

// reservedAttrs have a dedicated Node field or would change behaviour the
// fake does not model.
var reservedAttrs = map[string]string{
	"id": "use Node.ID", "role": "use Node.Role", "aria-label": "use Node.Name",
	"placeholder": "use Node.Placeholder", "data-testid": "use Node.TestID",
	"hidden": "use Node.Hidden", "disabled": "use Node.Disabled", "value": "use Node.Value",
	"style": "styles are not modelled; use Node.Hidden", "src": "use Node.Frame",
	"srcdoc": "not supported", "target": "popups are not modelled",
	"formtarget": "popups are not modelled", "contenteditable": "not modelled",
	"action": "form submission is not modelled", "formaction": "form submission is not modelled",
	"form": "form association is not modelled", "autofocus": "focus is not modelled",
	"sandbox": "opaque origins are not modelled", "download": "use an Effect.Download",
}

// allowedARIA are the aria-* attributes a fixture may set; the others change
// roles, names or visibility in ways the fake does not model.
var allowedARIA = set("aria-describedby", "aria-live", "aria-expanded", "aria-controls",
	"aria-current", "aria-haspopup", "aria-modal", "aria-level", "aria-selected",
	"aria-pressed", "aria-checked", "aria-invalid", "aria-required", "aria-busy",
	"aria-rowcount", "aria-rowindex", "aria-setsize", "aria-posinset")

var inputTypes = set("text", "search", "email", "tel", "url", "password", "number",
	"checkbox", "radio", "submit", "button", "reset", "hidden", "range")

var placeholderTags = set("input", "textarea")
var valueTags = set("input", "textarea", "select", "option", "button")

// Validate checks the whole site and returns a *[ValidationError] listing
// every problem, or nil. The rules keep the fake and a real browser in
// step: canonical page keys, known tags in the content models the HTML
// parser keeps as written, attributes that have no dedicated field, ids
// unique per page, rules that name existing nodes and downloads, effects
// with exactly one field, and navigation targets that are plain URL
// references.
func (s *Site) Validate() error {
	v := &validator{site: s}
	if s == nil {
		v.add("", "site is nil")
		return v.err()
	}
	if len(s.Pages) == 0 {
		v.add("pages", "a site needs at least one page")
	}
	for _, key := range slices.Sorted(maps.Keys(s.Pages)) {
		v.page(key, s.Pages[key])
	}
	for _, key := range slices.Sorted(maps.Keys(s.Downloads)) {
		v.download(key, s.Downloads[key])
	}
	return v.err()
}

type validator struct {
	site     *Site
	problems []Problem
	// per page
	key   string
	ids   map[string]string // id -> tag, body and added nodes
	body  map[string]bool   // ids in the initial body
	scope map[string]bool   // ids of the tree being checked (uniqueness)
}

func (v *validator) add(path, format string, a ...any) {
	v.problems = append(v.problems, Problem{Path: path, Detail: fmt.Sprintf(format, a...)})
}

func (v *validator) err() error {
	if len(v.problems) == 0 {
		return nil
	}
	return &ValidationError{Problems: v.problems}
}

func (v *validator) str(path, s string) {
	if !utf8.ValidString(s) {
		v.add(path, "not valid UTF-8")
		return
	}
	for _, r := range s {
		if r == '\t' || r == '\n' {
			continue
		}
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			v.add(path, "control character %U", r)
			return
		}
	}
}

func (v *validator) page(key string, p *Page) {
	path := fmt.Sprintf("pages[%q]", key)
	if err := checkPageKey(key); err != nil {
		v.add(path, "bad page key: %v", err)
	}
	if p == nil {
		v.add(path, "page is nil")
		return
	}
	if p.Origin != "" {
		if o, err := originOf(key); err == nil && o != p.Origin {
			v.add(path+".origin", "%q is not the origin of the page key (%q)", p.Origin, o)
		}
	}
	v.str(path+".title", p.Title)
	v.key = key
	v.ids = map[string]string{}
	v.body = map[string]bool{}
	v.scope = map[string]bool{}
	v.nodes(path+".body", p.Body, []string{"body"})
	for id := range v.scope {
		v.body[id] = true
	}
	// ids of nodes rules may add
	for _, r := range p.Rules {
		for _, e := range r.Effects {
			if e.Add == nil {
				continue
			}
			walkNodes(e.Add.Nodes, func(n *Node) {
				if n.ID != "" {
					if _, ok := v.ids[n.ID]; !ok {
						v.ids[n.ID] = nodeTag(n)
					}
				}
			})
		}
	}
	for i, r := range p.Rules {
		v.rule(fmt.Sprintf("%s.rules[%d]", path, i), r)
	}
}

func (v *validator) nodes(path string, ns []*Node, anc []string) {
	for i, n := range ns {
		v.node(fmt.Sprintf("%s[%d]", path, i), n, anc)
	}
}

func (v *validator) node(path string, n *Node, anc []string) {
	if n == nil {
		v.add(path, "node is nil")
		return
	}
	tag := nodeTag(n)
	parent := anc[len(anc)-1]
	if !allowedTags[tag] {
		v.add(path+".tag", "tag %q is not supported by fixtures", n.Tag)
	}
	if n.Tag != "" && n.Tag != strings.ToLower(n.Tag) {
		v.add(path+".tag", "tags are lower-case")
	}
	if n.ID != "" {
		switch {
		case !idPattern.MatchString(n.ID):
			v.add(path+".id", "id %q must match %s", n.ID, idPattern)
		case v.scope[n.ID]:
			v.add(path+".id", "duplicate id %q", n.ID)
		case anc[0] == "add" && len(anc) > 2 && v.body[n.ID]:
			v.add(path+".id", "id %q of an added descendant is already in the page body", n.ID)
		}
		v.scope[n.ID] = true
		if _, ok := v.ids[n.ID]; !ok {
			v.ids[n.ID] = tag
		}
	}
	if n.Role != "" && !locator.KnownRole(n.Role) {
		v.add(path+".role", "%q is not an ARIA role", n.Role)
	}
	for f, s := range map[string]string{"name": n.Name, "label": n.Label, "placeholder": n.Placeholder, "test_id": n.TestID, "text": n.Text, "value": n.Value} {
		v.str(path+"."+f, s)
	}
	if ps, ok := requiredParent[tag]; ok && !slices.Contains(ps, parent) {
		v.add(path+".tag", "<%s> must be a child of %s", tag, orList(ps))
	}
	if cs, ok := allowedChildren[parent]; ok && !slices.Contains(cs, tag) {
		if len(cs) == 0 {
			v.add(path, "<%s> cannot have children", parent)
		} else {
			v.add(path+".tag", "<%s> cannot contain <%s> (allowed: %s)", parent, tag, orList(cs))
		}
	}
	if blockTags[tag] && slices.Contains(anc, "p") {
		v.add(path+".tag", "<%s> inside <p> is rewritten by the HTML parser", tag)
	}
	for _, nest := range []string{"a", "button", "form", "select", "label", "h1", "h2", "h3", "h4", "h5", "h6"} {
		if tag == nest && slices.Contains(anc, nest) {
			v.add(path+".tag", "<%s> cannot be nested in <%s>", tag, nest)
		}
	}
	if voidTags[tag] && (n.Text != "" || len(n.Children) > 0) {
		v.add(path, "<%s> is a void element: no text or children", tag)
	}
	if noText[tag] && n.Text != "" {
		v.add(path+".text", "<%s> cannot have its own text", tag)
	}
	if n.Label != "" {
		switch {
		case !labelableTags[tag]:
			v.add(path+".label", "only %s can be labelled", orList(slices.Sorted(maps.Keys(labelableTags))))
		case n.ID == "":
			v.add(path+".label", "a labelled node needs an id (the label's for attribute)")
		case tag == "input" && strings.EqualFold(n.Attributes["type"], "hidden"):
			v.add(path+".label", "a hidden input cannot be labelled")
		}
	}
	if n.Placeholder != "" && !placeholderTags[tag] {
		v.add(path+".placeholder", "only <input> and <textarea> have placeholders")
	}
	if n.Value != "" && !valueTags[tag] {
		v.add(path+".value", "only form controls have values")
	}
	if n.Disabled && !formControlTags[tag] {
		v.add(path+".disabled", "only form controls can be disabled")
	}
	if n.Frame != nil {
		if n.Tag != "" && tag != "iframe" {
			v.add(path+".frame", "a frame node is an <iframe>")
		}
		v.ref(path+".frame.url", n.Frame.URL, false)
	} else if tag == "iframe" {
		v.add(path+".frame", "an <iframe> needs a frame fixture")
	}
	for _, name := range slices.Sorted(maps.Keys(n.Attributes)) {
		v.attr(fmt.Sprintf("%s.attributes[%q]", path, name), tag, name, n.Attributes[name])
	}
	v.nodes(path+".children", n.Children, append(slices.Clip(anc), tag))
}

func orList(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = "<" + x + ">"
	}
	return strings.Join(q, ", ")
}

func (v *validator) attr(path, tag, name, val string) {
	v.str(path, val)
	switch {
	case !attrNamePattern.MatchString(name):
		v.add(path, "attribute names are lower-case [a-z][a-z0-9_.:-]*")
		return
	case reservedAttrs[name] != "":
		v.add(path, "attribute %q is reserved: %s", name, reservedAttrs[name])
	case strings.HasPrefix(name, "on"):
		v.add(path, "event handler attributes are not allowed")
	case strings.HasPrefix(name, "data-vera"):
		v.add(path, "data-vera* attributes are reserved")
	case strings.HasPrefix(name, "aria-") && !allowedARIA[name]:
		v.add(path, "%s changes roles, names or visibility in ways fixtures do not model", name)
	case name == "href":
		v.ref(path, val, false)
	case name == "type" && tag == "input" && !inputTypes[strings.ToLower(val)]:
		v.add(path, "input type %q is not supported", val)
	case name == "type" && tag == "button" && !slices.Contains([]string{"button", "submit", "reset"}, strings.ToLower(val)):
		v.add(path, "button type %q is not valid", val)
	case name == "open" && tag != "dialog":
		v.add(path, "only <dialog> has open")
	case name == "checked" && !(tag == "input"):
		v.add(path, "only checkboxes and radio buttons have checked")
	}
}

// ref checks a URL reference: ASCII URL characters only, http(s) after
// resolution against the page key, templates only when allowed.
func (v *validator) ref(path, ref string, templates bool) {
	if ref == "" {
		v.add(path, "empty URL")
		return
	}
	plain := ref
	if templates {
		plain = templatePattern.ReplaceAllStringFunc(ref, func(m string) string {
			inner := templatePattern.FindStringSubmatch(m)[1]
			id, hasID := strings.CutPrefix(inner, "value:")
			switch {
			case inner == "value":
			case hasID:
				if _, ok := v.ids[id]; !ok {
					v.add(path, "template %s names no node of the page", m)
				}
			default:
				v.add(path, "unknown template %s (use {{value}} or {{value:ID}})", m)
			}
			return "x"
		})
	}
	for i := 0; i < len(plain); i++ {
		c := plain[i]
		if !(c > 0x20 && c < 0x7f) || strings.IndexByte("\"<>\\^`{|}", c) >= 0 {
			v.add(path, "URL reference %q has a character browsers would re-encode at byte %d; percent-encode it", ref, i)
			return
		}
	}
	if strings.HasPrefix(strings.ToLower(plain), "javascript:") || strings.HasPrefix(strings.ToLower(plain), "data:") {
		v.add(path, "script and data URLs are not allowed")
		return
	}
	if _, err := resolveRef(v.key, plain); err != nil {
		v.add(path, "bad URL reference %q: %v", ref, err)
	}
}

var actKinds = []runtime.ActKind{runtime.ActClick, runtime.ActFill, runtime.ActSelect, runtime.ActPress, runtime.ActCheck, runtime.ActUncheck}

func (v *validator) rule(path string, r Rule) {
	if _, ok := v.ids[r.On.Node]; !ok {
		v.add(path+".on.node", "no node with id %q on the page", r.On.Node)
	}
	if !slices.Contains(actKinds, r.On.Act) {
		v.add(path+".on.act", "unknown action %q", r.On.Act)
	}
	if (r.On.Act == runtime.ActPress) != (r.On.Key != "") {
		v.add(path+".on.key", "a key is required for press triggers and only for them")
	}
	if r.On.ValueEquals != nil {
		v.str(path+".on.value_equals", *r.On.ValueEquals)
	}
	if len(r.Effects) == 0 {
		v.add(path+".effects", "a rule needs at least one effect")
	}
	for i, e := range r.Effects {
		ep := fmt.Sprintf("%s.effects[%d]", path, i)
		v.effect(ep, e)
		if e.Dialog != nil && i != len(r.Effects)-1 {
			v.add(ep+".dialog", "a dialog blocks the page: it must be the rule's last effect")
		}
	}
}

func (v *validator) effect(path string, e Effect) {
	n := 0
	count := func(set bool) {
		if set {
			n++
		}
	}
	count(e.Show != nil)
	count(e.Hide != nil)
	count(e.Enable != nil)
	count(e.Disable != nil)
	count(e.SetText != nil)
	count(e.SetValue != nil)
	count(e.Remove != nil)
	count(e.Add != nil)
	count(e.Navigate != "")
	count(e.Download != "")
	count(e.Dialog != nil)
	if n != 1 {
		v.add(path, "an effect sets exactly one field (it sets %d)", n)
	}
	ids := func(field string, xs []string) {
		for i, id := range xs {
			if _, ok := v.ids[id]; !ok {
				v.add(fmt.Sprintf("%s.%s[%d]", path, field, i), "no node with id %q on the page", id)
			}
		}
	}
	ids("show", e.Show)
	ids("hide", e.Hide)
	ids("enable", e.Enable)
	ids("disable", e.Disable)
	ids("remove", e.Remove)
	for field, m := range map[string]map[string]string{"set_text": e.SetText, "set_value": e.SetValue} {
		for _, id := range slices.Sorted(maps.Keys(m)) {
			if _, ok := v.ids[id]; !ok {
				v.add(fmt.Sprintf("%s.%s[%q]", path, field, id), "no node with id %q on the page", id)
			}
			v.str(fmt.Sprintf("%s.%s[%q]", path, field, id), m[id])
		}
	}
	if e.Navigate != "" {
		v.ref(path+".navigate", e.Navigate, true)
	}
	if e.Download != "" {
		if _, ok := v.site.Downloads[e.Download]; !ok {
			v.add(path+".download", "no download %q in the site", e.Download)
		}
	}
	if d := e.Dialog; d != nil {
		if d.Kind != DialogAlert && d.Kind != DialogConfirm && d.Kind != DialogPrompt {
			v.add(path+".dialog.kind", "unknown dialog kind %q", d.Kind)
		}
		v.str(path+".dialog.message", d.Message)
	}
	if a := e.Add; a != nil {
		ptag, ok := v.ids[a.Parent]
		if !ok {
			v.add(path+".add.parent", "no node with id %q on the page", a.Parent)
			ptag = "div"
		}
		if len(a.Nodes) == 0 {
			v.add(path+".add.nodes", "nothing to add")
		}
		saved := v.scope
		v.scope = map[string]bool{}
		for i, n := range a.Nodes {
			np := fmt.Sprintf("%s.add.nodes[%d]", path, i)
			if n != nil && n.ID == "" {
				v.add(np+".id", "an added node needs an id (adding is idempotent by id)")
			}
			v.node(np, n, []string{"add", ptag})
		}
		v.scope = saved
	}
}

func (v *validator) download(key string, d DownloadFixture) {
	path := fmt.Sprintf("downloads[%q]", key)
	if key == "" || len(key) > 200 {
		v.add(path, "a download key has 1 to 200 bytes")
	}
	v.str(path, key)
	if !downloadName.MatchString(d.Name) || strings.HasSuffix(d.Name, ".") || strings.HasSuffix(d.Name, " ") {
		v.add(path+".name", "file name %q must match %s and not end with a dot or space", d.Name, downloadName)
	}
	if d.Text != "" && d.Data != nil {
		v.add(path, "set text or data, not both")
	}
	if len(d.Text) > MaxDownloadBytes || len(d.Data) > MaxDownloadBytes {
		v.add(path, "content larger than %d bytes", MaxDownloadBytes)
	}
	v.str(path+".content_type", d.ContentType)
}
