package runtimetest

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/runtime"
)

// Bounds on frames: nesting depth (a page that frames itself) and frame
// documents one driver call may load. Frames beyond them stay about:blank.
const (
	maxFrameDepth = 8
	maxFrameDocs  = 64
)

// document is a loaded page: the fake's [runtime.Scope] handle.
type document struct {
	driver  *Driver
	url     string // current URL, fragment included
	origin  string
	page    *Page // nil for blank, blocked and missing documents
	root    *elem // <html>
	live    bool
	blocked bool
	host    *elem // the iframe hosting it; nil for the top-level page
	depth   int
}

func (d *Driver) blankDocument() *document {
	html, _ := documentTree(nil, "")
	doc := &document{driver: d, url: "about:blank", origin: "null", root: html, live: true}
	doc.adopt(html)
	return doc
}

// load builds the document for u. A frame document whose origin is outside
// the scope is blocked: it stays empty and a frame violation is recorded.
func (d *Driver) load(u string, host *elem, depth int) *document {
	if host != nil {
		d.frameBudget--
	}
	if u == "about:blank" || depth > maxFrameDepth || d.frameBudget < 0 {
		doc := d.blankDocument()
		doc.host, doc.depth = host, depth
		return doc
	}
	key, _, _ := splitFragment(u)
	origin, err := originOf(u)
	if err != nil {
		origin = "null"
	}
	doc := &document{driver: d, url: u, origin: origin, live: true, host: host, depth: depth}
	if host != nil && !d.allowed[origin] {
		doc.blocked = true
		d.violate(runtime.ViolationFrame, origin)
	} else {
		doc.page = d.site.Pages[key]
	}
	doc.root, _ = documentTree(doc.page, key)
	doc.adopt(doc.root)
	return doc
}

// adopt makes e's subtree part of doc and loads its frames.
func (doc *document) adopt(e *elem) {
	e.walk(func(x *elem) bool {
		x.doc = doc
		if x.tag == "iframe" && x.frameURL != "" && x.frame == nil && doc.driver != nil {
			x.frame = doc.driver.load(x.frameURL, x, doc.depth+1)
		}
		return true
	})
}

// kill marks the document and its frames as gone: their handles are stale.
func (doc *document) kill() {
	doc.walkDocs(func(x *document) { x.live = false })
}

// walkDocs calls f for doc and every frame document inside it.
func (doc *document) walkDocs(f func(*document)) {
	f(doc)
	doc.root.walk(func(e *elem) bool {
		if e.frame != nil {
			e.frame.walkDocs(f)
		}
		return true
	})
}

func killFrames(e *elem) {
	e.walk(func(x *elem) bool {
		if x.frame != nil {
			x.frame.kill()
		}
		return true
	})
}

func (d *Driver) replaceTop(doc *document) {
	d.top.kill()
	d.top = doc
}

// byID is getElementById: the first attached element with the id.
func (doc *document) byID(id string) *elem {
	var out *elem
	doc.root.walk(func(e *elem) bool {
		if e.id() == id {
			out = e
			return false
		}
		return true
	})
	return out
}

// labelsFor returns the <label for=id> elements of the document.
func (doc *document) labelsFor(id string) []*elem {
	var out []*elem
	doc.root.walk(func(e *elem) bool {
		if e.tag == "label" && e.attrs["for"] == id {
			out = append(out, e)
		}
		return true
	})
	return out
}

// find evaluates one candidate below from (excluding from itself when
// scoped).
func find(doc *document, from *elem, scoped bool, c locator.Candidate) ([]*elem, error) {
	var match func(*elem) bool
	var guess *elem // a table part whose role the fake cannot tell
	semantic := true
	switch c.Strategy {
	case locator.Role:
		role := strings.ToLower(strings.TrimSpace(c.Role))
		if role == "" {
			return nil, fmt.Errorf("%w: a role candidate needs a role", runtime.ErrUnsupported)
		}
		match = func(e *elem) bool {
			r := roleOf(e)
			if r != role || r == "generic" || r == "none" || r == "presentation" {
				return false
			}
			if c.Name != "" && !textMatch(accessibleName(e), c.Name, c.Exact) {
				return false
			}
			// A match Chromium may not have: a part of a table it may
			// take for a layout table (no match then either way).
			if guess == nil && layoutGuess(e) {
				guess = e
			}
			return true
		}
	case locator.Label:
		match = func(e *elem) bool { return labelMatch(e, c.Label, c.Exact) }
	case locator.Placeholder:
		match = func(e *elem) bool {
			p, ok := e.attrs["placeholder"]
			return ok && textMatch(p, c.Placeholder, c.Exact)
		}
	case locator.TestID:
		match = func(e *elem) bool {
			v, ok := e.attrs["data-testid"]
			return ok && c.TestID != "" && v == c.TestID
		}
	case locator.Text:
		match = func(e *elem) bool { return textElementMatch(e, c.Text, c.Exact) }
	case locator.CSS:
		sel, err := ParseSelector(c.CSS)
		if err != nil {
			return nil, err
		}
		match, semantic = sel.matches, false
	default:
		return nil, fmt.Errorf("%w: locator strategy %q", runtime.ErrUnsupported, c.Strategy)
	}
	var out []*elem
	var rec func(e *elem)
	rec = func(e *elem) {
		if semantic && !selfRendered(e) {
			return // nothing below a hidden element is visible
		}
		if !(scoped && e == from) && match(e) {
			out = append(out, e)
		}
		for _, ch := range e.children {
			rec(ch)
		}
	}
	if semantic && !rendered(from) {
		return nil, nil
	}
	rec(from)
	if guess != nil {
		t := guess
		if t.tag != "table" {
			t = tableOf(guess)
		}
		which := "a <table> without id"
		if t.id() != "" {
			which = fmt.Sprintf("the <table id=%q>", t.id())
		}
		return nil, fmt.Errorf("%w: role %s: Chromium may take %s for a layout table, whose parts have no table roles "+
			"(it has no caption, thead, tfoot or th, so Chromium decides from its layout, which the fake does not model): "+
			"give the fixture's table a caption or a header row", runtime.ErrUnsupported, c.Role, which)
	}
	return out, nil
}

// textMatch compares whitespace-normalised strings: equal when exact,
// else case-insensitive substring. An empty wanted string never matches.
func textMatch(have, want string, exact bool) bool {
	h, w := collapse(have), collapse(want)
	if w == "" {
		return false
	}
	if exact {
		return h == w
	}
	return strings.Contains(strings.ToLower(h), strings.ToLower(w))
}

// labelMatch follows Playwright's getByLabel: a non-empty aria-label is the
// element's only label; otherwise the text of the <label>s of a labelable
// control.
func labelMatch(e *elem, want string, exact bool) bool {
	if v := e.attrs["aria-label"]; strings.TrimSpace(v) != "" {
		return textMatch(v, want, exact)
	}
	for _, l := range labelsOf(e) {
		if textMatch(innerText(l), want, exact) {
			return true
		}
	}
	return false
}

// textElementMatch follows Playwright's getByText: e's visible text
// matches and no child element's text matches too (the deepest element
// wins).
func textElementMatch(e *elem, want string, exact bool) bool {
	switch e.tag {
	case "html", "head", "title":
		return false
	}
	if !textMatch(innerText(e), want, exact) {
		return false
	}
	for _, c := range e.children {
		if selfRendered(c) && textMatch(innerText(c), want, exact) {
			return false
		}
	}
	return true
}

// outcome is what a rule or default action did to the document.
type outcome struct {
	navigated bool // some effect navigated (same-document or not)
	stopped   bool // the document is gone or blocked: nothing more runs
}

// act performs an action on an interactable element.
func (d *Driver) act(e *elem, a runtime.Act) error {
	switch a.Kind {
	case runtime.ActClick:
		d.click(e)
	case runtime.ActFill:
		if !e.fillable() {
			return fmt.Errorf("%w: cannot fill %s", runtime.ErrUnsupported, tagOf(e))
		}
		e.setValue(a.Value)
		d.fire(e, runtime.ActFill, "")
	case runtime.ActSelect:
		if e.tag != "select" {
			return fmt.Errorf("%w: cannot select an option of %s", runtime.ErrUnsupported, tagOf(e))
		}
		opt := matchOption(e, a.Value)
		if opt == nil {
			return fmt.Errorf("%w: %s has no option %q", runtime.ErrNotInteractable, describe(e), a.Value)
		}
		e.value = optionValue(opt)
		d.fire(e, runtime.ActSelect, "")
	case runtime.ActPress:
		if a.Value == "" {
			return fmt.Errorf("%w: press needs a key", runtime.ErrUnsupported)
		}
		d.press(e, a.Value)
	case runtime.ActCheck, runtime.ActUncheck:
		if !e.checkable() {
			return fmt.Errorf("%w: cannot %s %s", runtime.ErrUnsupported, a.Kind, tagOf(e))
		}
		want := a.Kind == runtime.ActCheck
		if !want && e.inputType() == "radio" {
			return fmt.Errorf("%w: a radio button cannot be unchecked", runtime.ErrUnsupported)
		}
		if e.has("checked") != want {
			d.click(e)
		}
	}
	return nil
}

func tagOf(e *elem) string {
	if e.tag == "input" {
		return fmt.Sprintf("<input type=%s>", e.inputType())
	}
	return "<" + e.tag + ">"
}

// matchOption finds the option with value v, else the option labelled v.
func matchOption(s *elem, v string) *elem {
	opts := s.options()
	for _, o := range opts {
		if optionValue(o) == v {
			return o
		}
	}
	for _, o := range opts {
		label, ok := o.attrs["label"]
		if !ok {
			label = textContent(o)
		}
		if collapse(label) == collapse(v) {
			return o
		}
	}
	return nil
}

func isLink(e *elem) bool { return e.tag == "a" && e.has("href") }

func isButtonLike(e *elem) bool {
	if e.tag == "button" {
		return true
	}
	if e.tag == "input" {
		switch e.inputType() {
		case "submit", "button", "reset", "image":
			return true
		}
	}
	return false
}

// interactiveContent is HTML's interactive content, as far as fixtures go.
func interactiveContent(e *elem) bool {
	switch e.tag {
	case "button", "select", "textarea", "iframe":
		return true
	case "a":
		return e.has("href")
	case "input":
		return e.inputType() != "hidden"
	}
	return false
}

// click dispatches a click with the browser's activation behaviour.
func (d *Driver) click(e *elem) {
	d.clicks = append(d.clicks, describe(e))
	toggled := false
	if e.checkable() {
		switch {
		case e.inputType() == "checkbox":
			if e.has("checked") {
				delete(e.attrs, "checked")
			} else {
				e.attrs["checked"] = ""
			}
			toggled = true
		case !e.has("checked"):
			checkRadio(e)
			toggled = true
		}
	}
	res := d.fire(e, runtime.ActClick, "")
	if res.stopped {
		return
	}
	if a := e.closest(isLink); a != nil {
		if !res.navigated {
			if u, err := resolveRef(e.doc.url, a.attrs["href"]); err == nil {
				d.navigateDoc(e.doc, u)
			}
		}
		return
	}
	if l := labelActivation(e); l != nil {
		d.click(l)
	}
	if toggled && attached(e) {
		kind := runtime.ActUncheck
		if e.has("checked") {
			kind = runtime.ActCheck
		}
		d.fire(e, kind, "")
	}
}

// labelActivation returns the control a click on e activates through an
// enclosing <label>, or nil.
func labelActivation(e *elem) *elem {
	for x := e; x != nil; x = x.parent {
		if x.tag == "label" {
			c := labelTarget(x)
			if c == nil || c == e || c.disabled() {
				return nil
			}
			return c
		}
		if interactiveContent(x) {
			return nil
		}
	}
	return nil
}

// checkRadio checks a radio button and unchecks the others of its group
// (same name, same form or document).
func checkRadio(e *elem) {
	e.attrs["checked"] = ""
	name := e.attrs["name"]
	if name == "" {
		return
	}
	scope := e.closest(func(x *elem) bool { return x.tag == "form" })
	if scope == nil {
		scope = e.doc.root
	}
	scope.walk(func(x *elem) bool {
		if x != e && x.tag == "input" && x.inputType() == "radio" && x.attrs["name"] == name {
			delete(x.attrs, "checked")
		}
		return true
	})
}

// press dispatches a key press with the browser's default actions.
func (d *Driver) press(e *elem, key string) {
	res := d.fire(e, runtime.ActPress, key)
	if res.stopped || !attached(e) {
		return
	}
	switch {
	case key == "Enter" && (isButtonLike(e) || isLink(e)):
		d.click(e)
	case key == "Enter" && e.tag == "textarea":
		d.typeInto(e, e.value+"\n")
	case key == "Enter" && e.fillable():
		if f := e.closest(func(x *elem) bool { return x.tag == "form" }); f != nil {
			if b := defaultButton(f); b != nil && !b.disabled() {
				d.click(b)
			}
		}
	case key == " " && (isButtonLike(e) || e.checkable()):
		d.click(e)
	case key == "Backspace" && e.fillable():
		v := e.value
		if v != "" {
			_, n := utf8.DecodeLastRuneInString(v)
			d.typeInto(e, v[:len(v)-n])
		}
	case utf8.RuneCountInString(key) == 1 && e.fillable() && !e.has("readonly"):
		d.typeInto(e, e.value+key)
	}
}

func (d *Driver) typeInto(e *elem, v string) {
	e.setValue(v)
	d.fire(e, runtime.ActFill, "")
}

// defaultButton is a form's first submit button.
func defaultButton(f *elem) *elem {
	var out *elem
	f.walk(func(x *elem) bool {
		if x.tag == "button" && (x.attrs["type"] == "" || strings.EqualFold(x.attrs["type"], "submit")) ||
			x.tag == "input" && (x.inputType() == "submit" || x.inputType() == "image") {
			out = x
			return false
		}
		return true
	})
	return out
}

// fire runs the rules an action on target triggers: the target's and every
// ancestor's, innermost first (the event path is fixed before any effect).
func (d *Driver) fire(target *elem, kind runtime.ActKind, key string) outcome {
	doc := target.doc
	var res outcome
	if doc == nil || doc.page == nil || !doc.live {
		return res
	}
	var path []*elem
	for x := target; x != nil; x = x.parent {
		path = append(path, x)
	}
	for _, n := range path {
		id := n.id()
		if id == "" {
			continue
		}
		for i, r := range doc.page.Rules {
			if r.On.Node != id || r.On.Act != kind || (kind == runtime.ActPress && r.On.Key != key) {
				continue
			}
			if r.On.ValueEquals != nil && *r.On.ValueEquals != target.currentValue() {
				continue
			}
			d.opts.logger.Debug("runtimetest: rule", "page", doc.url, "rule", i, "node", id, "act", kind)
			for _, eff := range r.Effects {
				o := d.apply(doc, target, eff)
				res.navigated = res.navigated || o.navigated
				if o.stopped {
					res.stopped = true
					return res
				}
			}
		}
	}
	return res
}

// apply applies one effect to doc.
func (d *Driver) apply(doc *document, target *elem, eff Effect) outcome {
	withLabels := func(ids []string, f func(*elem)) {
		for _, id := range ids {
			for _, l := range doc.labelsFor(id) {
				f(l)
			}
			if e := doc.byID(id); e != nil {
				f(e)
			}
		}
	}
	each := func(ids []string, f func(*elem)) {
		for _, id := range ids {
			if e := doc.byID(id); e != nil {
				f(e)
			}
		}
	}
	switch {
	case eff.Show != nil:
		withLabels(eff.Show, func(e *elem) { delete(e.attrs, "hidden") })
	case eff.Hide != nil:
		withLabels(eff.Hide, func(e *elem) { e.attrs["hidden"] = "" })
	case eff.Enable != nil:
		each(eff.Enable, func(e *elem) { delete(e.attrs, "disabled") })
	case eff.Disable != nil:
		each(eff.Disable, func(e *elem) { e.attrs["disabled"] = "" })
	case eff.SetText != nil:
		for _, id := range sortedKeys(eff.SetText) {
			if e := doc.byID(id); e != nil {
				for _, c := range slices.Clone(e.children) {
					killFrames(c)
					c.detach()
				}
				e.text = eff.SetText[id]
			}
		}
	case eff.SetValue != nil:
		for _, id := range sortedKeys(eff.SetValue) {
			if e := doc.byID(id); e != nil {
				e.setValue(eff.SetValue[id])
			}
		}
	case eff.Remove != nil:
		withLabels(eff.Remove, func(e *elem) {
			killFrames(e)
			e.detach()
		})
	case eff.Add != nil:
		parent := doc.byID(eff.Add.Parent)
		if parent == nil {
			break
		}
		m := materialiser{base: doc.url}
		for _, n := range eff.Add.Nodes {
			if n == nil || n.ID != "" && doc.byID(n.ID) != nil {
				continue
			}
			for _, e := range m.node(n) {
				parent.appendChild(e)
				doc.adopt(e)
			}
		}
	case eff.Navigate != "":
		u, err := resolveRef(doc.url, expandTemplates(doc, target, eff.Navigate))
		if err != nil {
			break
		}
		return d.navigateDoc(doc, u)
	case eff.Download != "":
		d.download(eff.Download)
	case eff.Dialog != nil:
		dlg := *eff.Dialog
		d.dialog = &dlg
		return outcome{stopped: true}
	}
	return outcome{}
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// expandTemplates replaces {{value}} and {{value:ID}} with the
// encodeURIComponent-encoded current values.
func expandTemplates(doc *document, target *elem, s string) string {
	return templatePattern.ReplaceAllStringFunc(s, func(m string) string {
		inner := templatePattern.FindStringSubmatch(m)[1]
		if inner == "value" {
			return encodeURIComponent(target.currentValue())
		}
		if id, ok := strings.CutPrefix(inner, "value:"); ok {
			if e := doc.byID(id); e != nil {
				return encodeURIComponent(e.currentValue())
			}
			return ""
		}
		return m
	})
}

// navigateDoc navigates doc (the top-level page or a frame) to u.
func (d *Driver) navigateDoc(doc *document, u string) outcome {
	if sameDocument(doc.url, u) {
		doc.url = u
		return outcome{navigated: true}
	}
	origin, err := originOf(u)
	if err != nil {
		return outcome{}
	}
	if !d.allowed[origin] {
		kind := runtime.ViolationNavigation
		if doc.host != nil {
			kind = runtime.ViolationFrame
		}
		d.violate(kind, origin)
		return outcome{navigated: true, stopped: true}
	}
	nd := d.load(u, doc.host, doc.depth)
	if doc.host == nil {
		d.replaceTop(nd)
	} else {
		doc.kill()
		doc.host.frame = nd
	}
	return outcome{navigated: true, stopped: true}
}

// download saves a download fixture and hands the event to every armed
// listener.
func (d *Driver) download(key string) {
	fx, ok := d.site.Downloads[key]
	if !ok {
		return
	}
	ev := runtime.DownloadEvent{GUID: newGUID(), SuggestedName: fx.Name, State: runtime.DownloadCompleted}
	dir := d.opts.downloadDir
	if dir == "" {
		if d.tmpDir == "" {
			tmp, err := os.MkdirTemp("", "vera-fake-downloads-")
			if err != nil {
				d.opts.logger.Debug("runtimetest: download dir", "err", err)
			}
			d.tmpDir = tmp
		}
		dir = d.tmpDir
	}
	// On the browser-path route the file is named by its GUID, as Chrome's
	// allowAndName behaviour does; on the directory route it keeps the
	// suggested name, as a browser saving into Downloads does.
	name := fx.Name
	if d.opts.downloadDir == "" {
		name = ev.GUID
	}
	path, err := saveDownload(dir, name, fx.Bytes())
	switch {
	case err != nil:
		d.opts.logger.Debug("runtimetest: download failed", "err", err)
		ev.State = runtime.DownloadCanceled
	case d.opts.downloadDir == "":
		ev.Path = path
	}
	for _, p := range d.pending {
		p.deliver(ev)
	}
	d.pending = nil
}

// saveDownload writes data as a browser does: a ".crdownload" partial,
// then a rename to name, or "stem (n).ext" when name exists. It never
// overwrites a file.
func saveDownload(dir, name string, data []byte) (string, error) {
	if dir == "" {
		return "", errors.New("no download directory")
	}
	f, err := os.CreateTemp(dir, "Unconfirmed *.crdownload")
	if err != nil {
		return "", err
	}
	tmp := f.Name()
	_, werr := f.Write(data)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		os.Remove(tmp)
		return "", werr
	}
	ext := filepath.Ext(name)
	stem := strings.TrimSuffix(name, ext)
	for i := 0; i < 1000; i++ {
		final := name
		if i > 0 {
			final = fmt.Sprintf("%s (%d)%s", stem, i, ext)
		}
		p := filepath.Join(dir, final)
		err := os.Link(tmp, p)
		if err == nil {
			os.Remove(tmp)
			return p, nil
		}
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		// no hard links here: rename when the name is free
		if _, serr := os.Lstat(p); errors.Is(serr, fs.ErrNotExist) {
			if err := os.Rename(tmp, p); err != nil {
				os.Remove(tmp)
				return "", err
			}
			return p, nil
		}
	}
	os.Remove(tmp)
	return "", fmt.Errorf("no free file name for %q", name)
}

func newGUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// pendingDownload is the fake's [runtime.PendingDownload].
type pendingDownload struct {
	d         *Driver
	mu        sync.Mutex
	ev        runtime.DownloadEvent
	got       bool
	arrived   chan struct{}
	closedCh  chan struct{}
	closeOnce sync.Once
}

func (p *pendingDownload) deliver(ev runtime.DownloadEvent) {
	p.mu.Lock()
	defer p.mu.Unlock()
	select {
	case <-p.closedCh:
		return
	default:
	}
	if !p.got {
		p.ev, p.got = ev, true
		close(p.arrived)
	}
}

// Wait returns the attributed download's event. It fails with
// [runtime.ErrDownloadEventMissing] (also wrapping ctx.Err()) when ctx ends
// first or at once when the listener was closed, and with the driver's
// error when the driver is closed or crashes.
func (p *pendingDownload) Wait(ctx context.Context) (runtime.DownloadEvent, error) {
	if ctx == nil {
		return runtime.DownloadEvent{}, fmt.Errorf("runtimetest: %w: nil context", runtime.ErrInvalidArgument)
	}
	select {
	case <-p.arrived:
		return p.event(), nil
	default:
	}
	select {
	case <-p.arrived:
		return p.event(), nil
	case <-p.closedCh:
		return runtime.DownloadEvent{}, fmt.Errorf("%w: the listener was closed", runtime.ErrDownloadEventMissing)
	case <-p.d.done:
		p.d.mu.Lock()
		err := p.d.stateErr()
		p.d.mu.Unlock()
		return runtime.DownloadEvent{}, err
	case <-ctx.Done():
		return runtime.DownloadEvent{}, fmt.Errorf("%w: %w", runtime.ErrDownloadEventMissing, ctx.Err())
	}
}

func (p *pendingDownload) event() runtime.DownloadEvent {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.ev
}

// Close disarms the listener; it is idempotent.
func (p *pendingDownload) Close() error {
	p.closeOnce.Do(func() {
		p.mu.Lock()
		close(p.closedCh)
		p.mu.Unlock()
		p.d.mu.Lock()
		p.d.pending = slices.DeleteFunc(p.d.pending, func(x *pendingDownload) bool { return x == p })
		p.d.mu.Unlock()
	})
	return nil
}
