package runtimetest

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// runtimeJS applies a page's rules in a browser. See runtime.js.
//
//go:embed runtime.js
var runtimeJS string

// DownloadPath is the path prefix under which [Site.Handler] serves the
// site's downloads as attachments: DownloadPath + url.PathEscape(key).
const DownloadPath = reservedPrefix + "download/"

type jsConfig struct {
	Rules    []jsRule `json:"rules"`
	Download string   `json:"download"`
}

type jsRule struct {
	On      Trigger    `json:"on"`
	Effects []jsEffect `json:"effects"`
}

type jsEffect struct {
	Show     []string          `json:"show,omitempty"`
	Hide     []string          `json:"hide,omitempty"`
	Enable   []string          `json:"enable,omitempty"`
	Disable  []string          `json:"disable,omitempty"`
	SetText  map[string]string `json:"set_text,omitempty"`
	SetValue map[string]string `json:"set_value,omitempty"`
	Remove   []string          `json:"remove,omitempty"`
	Add      *jsAdd            `json:"add,omitempty"`
	Navigate string            `json:"navigate,omitempty"`
	Download string            `json:"download,omitempty"`
	Dialog   *DialogEffect     `json:"dialog,omitempty"`
}

type jsAdd struct {
	Parent string      `json:"parent"`
	Items  []jsAddItem `json:"items"`
}

type jsAddItem struct {
	ID   string `json:"id"`
	HTML string `json:"html"`
}

// RenderHTML renders the page with the given key as a complete HTML
// document: the same element tree the fake driver builds, with roles,
// names, labels, placeholders, test ids, hidden and disabled as real
// attributes, iframes pointing at their frame pages, and a small inline
// script that applies the page's rules on real DOM events (click, keydown,
// input, change). It reports false when the site has no such page.
func (s *Site) RenderHTML(key string) (string, bool) {
	if s == nil {
		return "", false
	}
	p, ok := s.Pages[key]
	if !ok || p == nil {
		return "", false
	}
	cfg := jsConfig{Rules: []jsRule{}, Download: DownloadPath}
	m := materialiser{base: key}
	for _, r := range p.Rules {
		jr := jsRule{On: r.On, Effects: []jsEffect{}}
		for _, e := range r.Effects {
			je := jsEffect{
				Show: e.Show, Hide: e.Hide, Enable: e.Enable, Disable: e.Disable,
				SetText: e.SetText, SetValue: e.SetValue, Remove: e.Remove,
				Navigate: e.Navigate, Download: e.Download, Dialog: e.Dialog,
			}
			if e.Add != nil {
				je.Add = &jsAdd{Parent: e.Add.Parent, Items: []jsAddItem{}}
				for _, n := range e.Add.Nodes {
					if n == nil {
						continue
					}
					var b strings.Builder
					for i, el := range m.node(n) {
						if i > 0 {
							b.WriteByte('\n')
						}
						renderElem(&b, el)
					}
					je.Add.Items = append(je.Add.Items, jsAddItem{ID: n.ID, HTML: b.String()})
				}
			}
			jr.Effects = append(jr.Effects, je)
		}
		cfg.Rules = append(cfg.Rules, jr)
	}
	raw, err := json.Marshal(cfg) // escapes <, > and & for a script context
	if err != nil {
		return "", false
	}
	root, _ := documentTree(p, key)
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n")
	for _, c := range root.children[0].children { // <title>
		renderElem(&b, c)
		b.WriteByte('\n')
	}
	b.WriteString("<script>\n")
	b.WriteString(runtimeJS)
	b.WriteString("(")
	b.Write(raw)
	b.WriteString(");\n</script>\n</head>\n")
	renderElem(&b, root.children[1])
	b.WriteString("\n</html>\n")
	return b.String(), true
}

// renderElem writes e and its subtree. Siblings are separated by line
// breaks, so the browser's text has whitespace between elements as the
// fake's has.
func renderElem(b *strings.Builder, e *elem) {
	b.WriteByte('<')
	b.WriteString(e.tag)
	for _, k := range sortedKeys(e.attrs) {
		fmt.Fprintf(b, " %s=\"%s\"", k, html.EscapeString(e.attrs[k]))
	}
	b.WriteByte('>')
	if voidTags[e.tag] {
		return
	}
	if e.tag == "textarea" || e.tag == "pre" {
		b.WriteByte('\n') // the parser drops one leading line break here
	}
	b.WriteString(html.EscapeString(e.text))
	for _, c := range e.children {
		b.WriteByte('\n')
		renderElem(b, c)
	}
	if len(e.children) > 0 {
		b.WriteByte('\n')
	}
	b.WriteString("</")
	b.WriteString(e.tag)
	b.WriteByte('>')
}

// Handler serves the site's pages for one origin as real HTML (see
// [Site.RenderHTML]): a request for path?query is answered with the page
// whose key is origin+path?query, 404 otherwise. Every origin also serves
// the site's downloads under [DownloadPath] with Content-Disposition:
// attachment. The handler serves a snapshot of the site taken when it is
// created. Only GET and HEAD are allowed.
func (s *Site) Handler(origin string) http.Handler {
	site := s.Clone()
	if site == nil {
		site = &Site{}
	}
	origin = normOrigin(origin)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		h := w.Header()
		h.Set("Cache-Control", "no-store")
		h.Set("X-Content-Type-Options", "nosniff")
		if rest, ok := strings.CutPrefix(r.URL.EscapedPath(), DownloadPath); ok {
			key, err := url.PathUnescape(rest)
			d, found := site.Downloads[key]
			if err != nil || !found {
				http.NotFound(w, r)
				return
			}
			ct := d.ContentType
			if ct == "" {
				ct = "application/octet-stream"
			}
			body := d.Bytes()
			h.Set("Content-Type", ct)
			h.Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", d.Name))
			h.Set("Content-Length", strconv.Itoa(len(body)))
			if r.Method == http.MethodGet {
				_, _ = w.Write(body)
			}
			return
		}
		page, ok := site.RenderHTML(origin + r.URL.RequestURI())
		if !ok {
			h.Set("Content-Type", "text/html; charset=utf-8")
			w.WriteHeader(http.StatusNotFound)
			_, _ = fmt.Fprint(w, "<!DOCTYPE html>\n<html><head><title>Not found</title></head><body></body></html>\n")
			return
		}
		h.Set("Content-Type", "text/html; charset=utf-8")
		h.Set("Content-Length", strconv.Itoa(len(page)))
		if r.Method == http.MethodGet {
			_, _ = fmt.Fprint(w, page)
		}
	})
}
