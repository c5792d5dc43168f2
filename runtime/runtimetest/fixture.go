package runtimetest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"

	"github.com/vera-run/vera/runtime"
)

// Site is a set of page fixtures served under one or more origins, plus the
// files its rules can download. It describes UI state only: there is no
// field anywhere in a fixture that tells a driver or the runtime what to
// answer.
type Site struct {
	// Pages maps an absolute URL without fragment (scheme://host:port/path
	// with an optional query, e.g. "http://127.0.0.1:4010/login") to the
	// page served there.
	Pages map[string]*Page `json:"pages"`
	// Downloads maps a download key, named by a [Effect.Download], to the
	// file the site serves for it.
	Downloads map[string]DownloadFixture `json:"downloads,omitempty"`
}

// Page is one document. Its body is a tree of [Node] values; its rules say
// what actions on those nodes change.
type Page struct {
	// Origin, when set, must equal the origin of the page's key. It is
	// documentation for readers of the fixture; empty means "the key's".
	Origin string `json:"origin,omitempty"`
	// Title is the document title.
	Title string `json:"title,omitempty"`
	// Body is the content of the document's <body>, in document order.
	Body []*Node `json:"body"`
	// Rules say what actions on the page's nodes change, in order.
	Rules []Rule `json:"rules,omitempty"`
}

// Node is one element. The dedicated fields render as the HTML attributes a
// browser computes roles and names from, so the fake driver and a real
// browser see the same document:
//
//	ID          id="…" (also the handle rules use)
//	Role        role="…" (explicit role; otherwise the tag's implicit role)
//	Name        aria-label="…"
//	Label       a <label for=ID> sibling placed just before the node
//	Placeholder placeholder="…"
//	TestID      data-testid="…"
//	Text        the node's own text, before its children
//	Value       the initial value of a form control
//	Hidden      the hidden attribute (the node and its label are not rendered)
//	Disabled    the disabled attribute
//	Frame       an <iframe> whose document is another page of the site
type Node struct {
	ID          string            `json:"id,omitempty"`
	Tag         string            `json:"tag,omitempty"` // default "div" ("iframe" with Frame)
	Role        string            `json:"role,omitempty"`
	Name        string            `json:"name,omitempty"`
	Label       string            `json:"label,omitempty"`
	Placeholder string            `json:"placeholder,omitempty"`
	TestID      string            `json:"test_id,omitempty"`
	Text        string            `json:"text,omitempty"`
	Value       string            `json:"value,omitempty"`
	Attributes  map[string]string `json:"attributes,omitempty"`
	Hidden      bool              `json:"hidden,omitempty"`
	Disabled    bool              `json:"disabled,omitempty"`
	Children    []*Node           `json:"children,omitempty"`
	Frame       *FrameFixture     `json:"frame,omitempty"`
}

// FrameFixture makes a node an <iframe>. Frame selectors match the node's
// own id and attributes (title, name, class); the frame's document, and so
// its origin, is the page at URL.
type FrameFixture struct {
	// URL is the framed page: an absolute page key, or a reference resolved
	// against the containing page's URL ("/inner").
	URL string `json:"url"`
}

// DownloadFixture is one file the site serves as an attachment.
type DownloadFixture struct {
	// Name is the file name the site suggests (Content-Disposition).
	Name string `json:"name"`
	// ContentType defaults to application/octet-stream.
	ContentType string `json:"content_type,omitempty"`
	// Text is the content as UTF-8 text; Data is raw bytes (base64 in
	// JSON). At most one may be set.
	Text string `json:"text,omitempty"`
	Data []byte `json:"data,omitempty"`
}

// Bytes returns the file's content.
func (d DownloadFixture) Bytes() []byte {
	if d.Data != nil {
		return slices.Clone(d.Data)
	}
	return []byte(d.Text)
}

// Rule says what one kind of action on one node changes.
type Rule struct {
	On      Trigger  `json:"on"`
	Effects []Effect `json:"effects"`
}

// Trigger selects the actions a rule reacts to. Actions bubble like DOM
// events: an action on an element triggers the rules of the element and of
// every ancestor with an id, innermost first, each node's rules in fixture
// order.
//
// The action kinds map to DOM events so the same rules run in a browser:
// click (click), fill (input on a text field), select (change on a
// <select>), press (keydown, with Key equal to KeyboardEvent.key), check and
// uncheck (change on a checkbox or radio button).
type Trigger struct {
	// Node is the id of the node the rule listens on.
	Node string `json:"node"`
	// Act is the action kind.
	Act runtime.ActKind `json:"act"`
	// Key is the pressed key for press triggers ("Enter", "a").
	Key string `json:"key,omitempty"`
	// ValueEquals, when set, restricts the rule to actions after which the
	// acted-on element's value equals it exactly.
	ValueEquals *string `json:"value_equals,omitempty"`
}

// Effect is one change. Exactly one field is set. Effects of a rule apply in
// order; a Navigate that loads another document and a Dialog end the rule
// and every later rule of the same action, because the document that ran
// them is gone or blocked.
type Effect struct {
	// Show and Hide clear or set the hidden attribute of the nodes (and of
	// the <label for> elements that label them).
	Show []string `json:"show,omitempty"`
	Hide []string `json:"hide,omitempty"`
	// Enable and Disable clear or set the disabled attribute.
	Enable  []string `json:"enable,omitempty"`
	Disable []string `json:"disable,omitempty"`
	// SetText replaces each node's content with text (textContent: the
	// node's children are removed).
	SetText map[string]string `json:"set_text,omitempty"`
	// SetValue sets each form control's current value.
	SetValue map[string]string `json:"set_value,omitempty"`
	// Remove detaches the nodes (and their labels).
	Remove []string `json:"remove,omitempty"`
	// Add appends nodes to a parent. It is idempotent: a top-level node
	// whose id is already in the document is not added again.
	Add *AddEffect `json:"add,omitempty"`
	// Navigate goes to a URL reference resolved against the document's URL:
	// absolute, a path, or a fragment ("#search/{{value:q}}"). The template
	// {{value:ID}} is replaced by the current value of node ID and {{value}}
	// by the acted-on element's value, both percent-encoded exactly as
	// JavaScript's encodeURIComponent. A reference that differs from the
	// current URL only by a fragment is a same-document navigation.
	Navigate string `json:"navigate,omitempty"`
	// Download starts the download of Site.Downloads[key].
	Download string `json:"download,omitempty"`
	// Dialog opens a native JavaScript dialog. It must be a rule's last
	// effect.
	Dialog *DialogEffect `json:"dialog,omitempty"`
}

// AddEffect appends nodes under the node with id Parent.
type AddEffect struct {
	Parent string  `json:"parent"`
	Nodes  []*Node `json:"nodes"`
}

// DialogKind is the kind of native dialog an effect opens.
type DialogKind string

// The native dialog kinds (window.alert, window.confirm, window.prompt).
const (
	DialogAlert   DialogKind = "alert"
	DialogConfirm DialogKind = "confirm"
	DialogPrompt  DialogKind = "prompt"
)

// DialogEffect opens a native dialog with a message.
type DialogEffect struct {
	Kind    DialogKind `json:"kind"`
	Message string     `json:"message"`
}

// MaxSiteBytes bounds a JSON site fixture read by [LoadSite].
const MaxSiteBytes = 8 << 20

// ErrInvalidFixture is wrapped by every fixture parse and validation error.
var ErrInvalidFixture = errors.New("invalid fixture")

// LoadSite reads a JSON site fixture strictly: at most [MaxSiteBytes], no
// unknown fields, no duplicate object keys, no trailing data, and a site
// that passes [Site.Validate]. Errors wrap [ErrInvalidFixture]; a nil r
// wraps [runtime.ErrInvalidArgument] as well.
func LoadSite(r io.Reader) (*Site, error) {
	if r == nil {
		return nil, fmt.Errorf("%w: %w: nil reader", ErrInvalidFixture, runtime.ErrInvalidArgument)
	}
	raw, err := io.ReadAll(io.LimitReader(r, MaxSiteBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%w: read: %w", ErrInvalidFixture, err)
	}
	if len(raw) > MaxSiteBytes {
		return nil, fmt.Errorf("%w: larger than %d bytes", ErrInvalidFixture, MaxSiteBytes)
	}
	if err := checkDuplicateKeys(raw); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidFixture, err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var s Site
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidFixture, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("%w: trailing data after the site object", ErrInvalidFixture)
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return &s, nil
}

// checkDuplicateKeys walks the token stream and rejects an object that
// repeats a key (encoding/json silently keeps the last one).
func checkDuplicateKeys(raw []byte) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	type frame struct {
		object bool
		keys   map[string]bool
		expect bool // next string token in an object is a key
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && top.object && top.expect {
			if k, ok := tok.(string); ok {
				if top.keys[k] {
					return fmt.Errorf("duplicate key %q", k)
				}
				top.keys[k] = true
				top.expect = false
				continue
			}
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{object: true, keys: map[string]bool{}, expect: true})
			continue
		case json.Delim('['):
			stack = append(stack, &frame{})
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
		// a value just ended: the parent object expects a key next
		if len(stack) > 0 && stack[len(stack)-1].object {
			stack[len(stack)-1].expect = true
		}
		if len(stack) > 64 {
			return errors.New("nesting deeper than 64 levels")
		}
	}
}

// Clone returns a deep copy of the site.
func (s *Site) Clone() *Site {
	if s == nil {
		return nil
	}
	c := &Site{Pages: make(map[string]*Page, len(s.Pages))}
	for k, p := range s.Pages {
		c.Pages[k] = p.Clone()
	}
	if s.Downloads != nil {
		c.Downloads = make(map[string]DownloadFixture, len(s.Downloads))
		for k, d := range s.Downloads {
			d.Data = slices.Clone(d.Data)
			c.Downloads[k] = d
		}
	}
	return c
}

// Clone returns a deep copy of the page.
func (p *Page) Clone() *Page {
	if p == nil {
		return nil
	}
	c := *p
	c.Body = cloneNodes(p.Body)
	c.Rules = make([]Rule, len(p.Rules))
	for i, r := range p.Rules {
		c.Rules[i] = r.clone()
	}
	if p.Rules == nil {
		c.Rules = nil
	}
	return &c
}

func (r Rule) clone() Rule {
	c := r
	if r.On.ValueEquals != nil {
		v := *r.On.ValueEquals
		c.On.ValueEquals = &v
	}
	c.Effects = make([]Effect, len(r.Effects))
	for i, e := range r.Effects {
		c.Effects[i] = e.clone()
	}
	if r.Effects == nil {
		c.Effects = nil
	}
	return c
}

func (e Effect) clone() Effect {
	c := e
	c.Show, c.Hide = slices.Clone(e.Show), slices.Clone(e.Hide)
	c.Enable, c.Disable = slices.Clone(e.Enable), slices.Clone(e.Disable)
	c.Remove = slices.Clone(e.Remove)
	c.SetText, c.SetValue = maps.Clone(e.SetText), maps.Clone(e.SetValue)
	if e.Add != nil {
		c.Add = &AddEffect{Parent: e.Add.Parent, Nodes: cloneNodes(e.Add.Nodes)}
	}
	if e.Dialog != nil {
		d := *e.Dialog
		c.Dialog = &d
	}
	return c
}

// Clone returns a deep copy of the node and its subtree.
func (n *Node) Clone() *Node {
	if n == nil {
		return nil
	}
	c := *n
	c.Attributes = maps.Clone(n.Attributes)
	c.Children = cloneNodes(n.Children)
	if n.Frame != nil {
		f := *n.Frame
		c.Frame = &f
	}
	return &c
}

func cloneNodes(ns []*Node) []*Node {
	if ns == nil {
		return nil
	}
	out := make([]*Node, len(ns))
	for i, n := range ns {
		out[i] = n.Clone()
	}
	return out
}

// walkNodes calls f for every node of the trees in pre-order.
func walkNodes(ns []*Node, f func(*Node)) {
	for _, n := range ns {
		if n == nil {
			continue
		}
		f(n)
		walkNodes(n.Children, f)
	}
}
