package capability

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// TemplateEncoding is how a template's input value is written into its
// text: "{{name}}" inserts the value's text unchanged, "{{name|json}}"
// inserts it as one complete JSON value and "{{name|url}}" as one
// percent-encoded URL component. The encoding is part of the template text,
// so the execution hash covers it.
type TemplateEncoding string

// The template encodings.
const (
	// EncodingText inserts the value's text as is ("{{name}}"). It is safe
	// only in plain text; validation refuses it inside a JSON or URL
	// literal (see [CodeTemplateEncodingRequired]).
	EncodingText TemplateEncoding = ""
	// EncodingJSON inserts one complete JSON value: a string, date or enum
	// input as a quoted JSON string with every quote, backslash and
	// control escaped, a number or integer as a JSON number, a boolean as
	// true or false, and an absent optional input as null. The template
	// stands for a whole value, so it is written without quotes:
	// {"name": {{name|json}}}.
	EncodingJSON TemplateEncoding = "json"
	// EncodingURL inserts the value's text percent-encoded as JavaScript's
	// encodeURIComponent does: every byte except A-Z a-z 0-9 - _ . ! ~ * '
	// ( ) becomes %XX. Its output holds no quote, backslash, &, = or #, so it
	// is also safe inside a JSON string.
	EncodingURL TemplateEncoding = "url"
)

// TemplateRef is one template reference of a text: the input it names
// and the encoding it asks for.
type TemplateRef struct {
	Name     string
	Encoding TemplateEncoding
}

// ParseTemplates returns the template references of s in order (with
// repeats) and whether every "{{" opened a well-formed template: a
// declared-input name matching [NamePattern], optionally followed by "|"
// and a known encoding ("json" or "url"), closed by "}}".
func ParseTemplates(s string) (refs []TemplateRef, ok bool) {
	ok = scanTemplateRefs(s, func(r TemplateRef) { refs = append(refs, r) })
	return refs, ok
}

// scanTemplateRefs calls fn for each well-formed template of s and
// reports whether every "{{" opened one.
func scanTemplateRefs(s string, fn func(TemplateRef)) bool {
	ok := true
	for {
		i := strings.Index(s, "{{")
		if i < 0 {
			return ok
		}
		s = s[i+2:]
		end := strings.Index(s, "}}")
		if end < 0 {
			return false
		}
		if r, good := parseTemplateBody(s[:end]); good {
			fn(r)
		} else {
			ok = false
		}
		s = s[end+2:]
	}
}

// parseTemplateBody parses what stands between "{{" and "}}".
func parseTemplateBody(body string) (TemplateRef, bool) {
	name, enc, hasEnc := strings.Cut(body, "|")
	if !validName(name) {
		return TemplateRef{}, false
	}
	r := TemplateRef{Name: name}
	if hasEnc {
		switch TemplateEncoding(enc) {
		case EncodingJSON, EncodingURL:
			r.Encoding = TemplateEncoding(enc)
		default:
			return TemplateRef{}, false
		}
	}
	return r, true
}

// Structured literals. A fill or select value that holds a template is
// checked for the context the template lands in:
//
//   - a JSON literal (the text without its templates, trimmed, starts
//     with "{" or "["): every
//     template is json (a whole JSON value, never an object key, never
//     inside a string) or url (anywhere inside a string); with each json
//     template replaced by a string and each url template by a letter, the
//     text must parse as JSON;
//   - a URL literal (the text, trimmed, starts with a scheme and "//", or
//     with "/", "?" or "#", or holds a query such as "a=1&b={{x}}"): every
//     template is url;
//   - anything else is plain text, where every encoding is allowed.

// urlLiteral matches the start of URL-ish text: "scheme://", "/", "?", "#".
var urlLiteral = regexp.MustCompile(`^(?:[A-Za-z][A-Za-z0-9+.-]*://|[/?#])`)

// queryLiteral matches a query-like key=value pair joined by "&".
var queryLiteral = regexp.MustCompile(`[A-Za-z0-9_.-]+=[^&\s]*&|&[A-Za-z0-9_.-]+=`)

// templateRe matches one template, for literalKind.
var templateRe = regexp.MustCompile(`\{\{[^}]*\}\}`)

// literalKind classifies a template-bearing text by what is left with its
// templates removed (so "{{name}}" alone is plain text).
func literalKind(s string) string {
	t := strings.TrimSpace(templateRe.ReplaceAllString(s, ""))
	switch {
	case strings.HasPrefix(t, "{") || strings.HasPrefix(t, "["):
		return "json"
	case urlLiteral.MatchString(t), queryLiteral.MatchString(t):
		return "url"
	}
	return "text"
}

// jsonPlaceholder stands for the i-th json template while checking a JSON
// literal; it cannot occur in a capability's own text (it holds a NUL).
func jsonPlaceholder(i int) string { return fmt.Sprintf("\x00vera-template-%d\x00", i) }

// templateContext checks the templates of a fill or select value against
// the literal they sit in and returns a problem code and message, or "".
func templateContext(s string) (code Code, msg string) {
	refs, ok := ParseTemplates(s)
	if !ok || len(refs) == 0 {
		return "", ""
	}
	switch literalKind(s) {
	case "json":
		for _, r := range refs {
			if r.Encoding == EncodingText {
				return CodeTemplateEncodingRequired, fmt.Sprintf("template {{%s}} sits in a JSON literal: write {{%s|json}} for a whole value or {{%s|url}} inside a string", r.Name, r.Name, r.Name)
			}
		}
		// Replace each template with a stand-in and parse.
		var b strings.Builder
		rest, n := s, 0
		for {
			i := strings.Index(rest, "{{")
			if i < 0 {
				b.WriteString(rest)
				break
			}
			j := strings.Index(rest[i:], "}}")
			b.WriteString(rest[:i])
			r, _ := parseTemplateBody(rest[i+2 : i+j])
			if r.Encoding == EncodingJSON {
				q, _ := json.Marshal(jsonPlaceholder(n))
				b.Write(q)
				n++
			} else {
				b.WriteString("x")
			}
			rest = rest[i+j+2:]
		}
		var v any
		if err := json.Unmarshal([]byte(b.String()), &v); err != nil {
			return CodeTemplateEncodingContext, "with its templates standing for values the JSON literal does not parse: a json template is a whole value (no quotes around it), a url template sits inside a string"
		}
		if bad := misplacedJSON(v); bad {
			return CodeTemplateEncodingContext, "a json template stands for a whole JSON value, never an object key or part of a string"
		}
	case "url":
		for _, r := range refs {
			if r.Encoding != EncodingURL {
				return CodeTemplateEncodingRequired, fmt.Sprintf("template {{%s}} sits in a URL literal: write {{%s|url}}", r.Name, r.Name)
			}
		}
	}
	return "", ""
}

// misplacedJSON reports whether a json placeholder is an object key or
// part of a longer string.
func misplacedJSON(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if strings.Contains(k, "\x00vera-template-") || misplacedJSON(e) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if misplacedJSON(e) {
				return true
			}
		}
	case string:
		if strings.Contains(x, "\x00vera-template-") {
			return !(strings.HasPrefix(x, "\x00vera-template-") && strings.HasSuffix(x, "\x00") && strings.Count(x, "\x00") == 2)
		}
	}
	return false
}
