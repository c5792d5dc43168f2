package browser

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"
	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/runtime"
)

// helperPages serves the pages of the installed-helper tests on
// loopback: /a has a field in the light DOM, one in an open shadow root
// and a same-origin iframe (/frame) with a field of its own; /b is
// another document with a dialog; /frame2 is the iframe's next document.
func helperPages(t *testing.T) string {
	t.Helper()
	pages := map[string]string{
		"/a": `<!doctype html><title>A</title>
<label>Account <input data-testid="acct" class="f"></label>
<label>Note <input data-testid="note" class="f"></label>
<b data-testid="extra">e</b>
<div id="host"></div>
<iframe id="fr" src="/frame"></iframe>
<script>
const r = document.getElementById('host').attachShadow({mode: 'open'});
r.innerHTML = '<button data-testid="deep">Deep</button><span data-testid="deep2">x</span><i data-testid="deep3">y</i>';
</script>`,
		"/b":      `<!doctype html><title>B</title><div role="dialog" aria-label="Hello"><button data-testid="acct">Close</button></div>`,
		"/frame":  `<!doctype html><title>F</title><input data-testid="inner" aria-label="Inner"><input data-testid="inner2"><b data-testid="inner3">z</b>`,
		"/frame2": `<!doctype html><title>F2</title><p>moved on</p>`,
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		fmt.Fprint(w, p)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func openHelperPage(t *testing.T, ctx context.Context, d *Driver, origin, path string) runtime.Scope {
	t.Helper()
	if err := d.RestrictOrigins(ctx, runtime.OriginScope{Allowed: []string{origin}}); err != nil {
		t.Fatal(err)
	}
	if err := d.Navigate(ctx, origin+path); err != nil {
		t.Fatal(err)
	}
	top, _, err := d.Frame(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	return top
}

// TestInstalledHelperSameHandles: Finds through the installed helpers
// (after the first) answer as the first, a one-element answer (sent as
// the element itself) gives the same handle as the same node in a longer
// answer and as the role path's, in the light DOM, an open shadow root
// and an iframe; a one-element Find is two sequential commands.
func TestInstalledHelperSameHandles(t *testing.T) {
	t.Parallel()
	d := shared(t)
	origin := helperPages(t)
	ctx := tctx(t, time.Minute)
	top := openHelperPage(t, ctx, d, origin, "/a")
	frame, _, err := d.Frame(ctx, []string{"#fr"})
	if err != nil {
		t.Fatal(err)
	}
	find := func(sc runtime.Scope, c locator.Candidate) []runtime.Element {
		t.Helper()
		els, err := d.Find(ctx, sc, nil, c)
		if err != nil {
			t.Fatalf("Find(%v): %v", c, err)
		}
		return els
	}
	tid := func(id string) locator.Candidate { return locator.Candidate{Strategy: locator.TestID, TestID: id} }
	for _, tc := range []struct {
		name  string
		sc    runtime.Scope
		one   locator.Candidate
		many  locator.Candidate // matches one's element and others
		index int               // of one's element in many's answer
		other locator.Candidate // another strategy for one's element
		fresh locator.Candidate // an element no Find returned yet
	}{
		{"light", top, tid("note"), locator.Candidate{Strategy: locator.CSS, CSS: "input.f"}, 1, locator.Candidate{Strategy: locator.Label, Label: "Note", Exact: true}, tid("extra")},
		{"shadow", top, tid("deep"), locator.Candidate{Strategy: locator.CSS, CSS: "button, [data-testid=deep2]"}, 0, role("button", "Deep"), tid("deep3")},
		{"iframe", frame, tid("inner"), locator.Candidate{Strategy: locator.CSS, CSS: "input"}, 0, locator.Candidate{Strategy: locator.Label, Label: "Inner", Exact: true}, tid("inner3")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			first := find(tc.sc, tc.one)
			if len(first) != 1 {
				t.Fatalf("Find(%v) = %d elements, want 1", tc.one, len(first))
			}
			for i := range 3 {
				again := find(tc.sc, tc.one)
				if len(again) != 1 || again[0] != first[0] {
					t.Fatalf("Find #%d = %v, want the first answer's handle %v", i+2, again, first)
				}
			}
			many := find(tc.sc, tc.many)
			if len(many) <= tc.index || many[tc.index] != first[0] {
				t.Fatalf("Find(%v) = %d elements, want %v at %d", tc.many, len(many), first[0], tc.index)
			}
			if other := find(tc.sc, tc.other); len(other) != 1 || other[0] != first[0] {
				t.Fatalf("Find(%v) = %v, want %v", tc.other, other, first[0])
			}
			// Commands: a node no Find returned yet is described once;
			// a known one is not.
			var rec cdpRecorder
			d.setCallTrace(rec.trace)
			fresh := find(tc.sc, tc.fresh)
			d.setCallTrace(nil)
			if len(fresh) != 1 || fresh[0] == first[0] {
				t.Fatalf("Find(%v) = %v, want one element other than %v", tc.fresh, fresh, first[0])
			}
			if got := rec.methods(); got != "callFunctionOn, DOM.describeNode" {
				t.Errorf("Find of a new element sent %s, want callFunctionOn, DOM.describeNode", got)
			}
			rec.reset()
			d.setCallTrace(rec.trace)
			again := find(tc.sc, tc.one)
			d.setCallTrace(nil)
			if len(again) != 1 || again[0] != first[0] {
				t.Fatalf("traced Find = %v, want %v", again, first)
			}
			if got := rec.methods(); got != "callFunctionOn" {
				t.Errorf("Find of a known element sent %s, want callFunctionOn", got)
			}
			if many := find(tc.sc, tc.many); len(many) <= tc.index || many[tc.index] != first[0] {
				t.Fatalf("Find(%v) after = %d elements, want %v at %d", tc.many, len(many), first[0], tc.index)
			}
		})
	}
}

// TestInstalledHelperNewDocument: helpers installed in one document are
// never used for the next. After a navigation of the top-level document,
// FindCounts and Find answer about the new document (a dialog it has, a
// field it lacks); after the iframe navigates, a scope of its old
// document is stale, never empty, and a new scope answers about the new
// one. A node replaced between two Finds gets a new handle.
func TestInstalledHelperNewDocument(t *testing.T) {
	t.Parallel()
	d := shared(t)
	origin := helperPages(t)
	ctx := tctx(t, time.Minute)
	top := openHelperPage(t, ctx, d, origin, "/a")
	dialogs := []locator.Candidate{{Strategy: locator.Role, Role: "dialog"}, {Strategy: locator.Role, Role: "alertdialog"}, {Strategy: locator.TestID, TestID: "note"}}
	for range 2 { // the second through the installed helper
		n, err := d.FindCounts(ctx, top, nil, dialogs)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(n, []int{0, 0, 1}) {
			t.Fatalf("FindCounts on /a = %v, want [0 0 1]", n)
		}
	}
	oldDoc, err := d.document(ctx, d.top)
	if err != nil {
		t.Fatal(err)
	}
	if d.helpersIn(d.top.sid, oldDoc) == "" {
		t.Fatal("FindCounts left no installed helper in the document")
	}
	acct := findOne(t, ctx, d, top, locator.Candidate{Strategy: locator.TestID, TestID: "acct"})

	// A re-render replaces the node: a new handle, not the old one.
	if err := d.Act(ctx, acct, runtime.Act{Kind: runtime.ActFill, Value: "x"}); err != nil {
		t.Fatal(err)
	}
	doc, err := d.document(ctx, d.top)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.callOn(ctx, d.top.sid, doc, `function(){ const o = this.querySelector('[data-testid=acct]'); o.outerHTML = o.outerHTML; }`, true, nil); err != nil {
		t.Fatal(err)
	}
	re := findOne(t, ctx, d, top, locator.Candidate{Strategy: locator.TestID, TestID: "acct"})
	if re == acct {
		t.Fatal("a replaced node kept the old node's handle")
	}
	if v, err := d.Read(ctx, re, runtime.Read{Kind: runtime.ReadValue}); err != nil || v != "" {
		t.Fatalf("the new node's value = %q, %v; want the new node's empty value", v, err)
	}

	// The iframe's document is replaced: its old scope is stale.
	frame, _, err := d.Frame(ctx, []string{"#fr"})
	if err != nil {
		t.Fatal(err)
	}
	findOne(t, ctx, d, frame, locator.Candidate{Strategy: locator.TestID, TestID: "inner"})
	if _, err := d.callOn(ctx, d.top.sid, doc, `function(){ this.getElementById('fr').src = '/frame2'; }`, true, nil); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		els, err := d.Find(ctx, frame, nil, locator.Candidate{Strategy: locator.TestID, TestID: "inner"})
		if errors.Is(err, runtime.ErrStaleElement) {
			break
		}
		if err != nil {
			t.Fatalf("Find in the old frame scope: %v", err)
		}
		if len(els) != 1 {
			t.Fatalf("Find in the old frame scope = %d elements, want its element or ErrStaleElement", len(els))
		}
		if time.Now().After(deadline) {
			t.Fatal("the old frame scope still answers after the frame navigated")
		}
		if err := d.Settle(ctx); err != nil {
			t.Fatal(err)
		}
	}
	frame2, _, err := d.Frame(ctx, []string{"#fr"})
	if err != nil {
		t.Fatal(err)
	}
	if els, err := d.Find(ctx, frame2, nil, locator.Candidate{Strategy: locator.Text, Text: "moved on"}); err != nil || len(els) != 1 {
		t.Fatalf("Find in the new frame document = %d, %v; want 1", len(els), err)
	}

	// The top-level document is replaced: the answers are the new one's.
	if err := d.Navigate(ctx, origin+"/b"); err != nil {
		t.Fatal(err)
	}
	if d.helpersIn(d.top.sid, oldDoc) != "" {
		t.Fatal("the replaced document's helper is still recorded")
	}
	// The new document's helpers are installed beside its lookup, so
	// its first look sends one call, no helper source twice.
	var rec cdpRecorder
	d.setCallTrace(rec.trace)
	n, err := d.FindCounts(ctx, top, nil, dialogs)
	d.setCallTrace(nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := rec.methods(); got != "evaluate, evaluate, callFunctionOn" {
		t.Errorf("the first FindCounts on /b sent %s, want evaluate, evaluate, callFunctionOn", got)
	}
	newDoc, err := d.document(ctx, d.top)
	if err != nil {
		t.Fatal(err)
	}
	if d.helpersIn(d.top.sid, newDoc) == "" {
		t.Error("no helpers installed beside the new document's lookup")
	}
	if !slices.Equal(n, []int{-1, 0, 0}) {
		t.Fatalf("FindCounts on /b = %v, want [-1 0 0]", n)
	}
	dlg, err := d.Find(ctx, top, nil, locator.Candidate{Strategy: locator.Role, Role: "dialog"})
	if err != nil || len(dlg) != 1 {
		t.Fatalf("Find dialog on /b = %d, %v; want 1", len(dlg), err)
	}
	b := findOne(t, ctx, d, top, locator.Candidate{Strategy: locator.TestID, TestID: "acct"})
	if b == re || b == acct {
		t.Fatal("an element of the new document has a handle of the old one")
	}
	if v, err := d.Read(ctx, b, runtime.Read{Kind: runtime.ReadText}); err != nil || v != "Close" {
		t.Fatalf("Read = %q, %v; want Close", v, err)
	}
}

// TestInstalledHelperPagePatches: a page that replaces the builtins a
// call through an installed helper could read (Reflect.apply,
// Array.isArray, Function.prototype.apply) after the helpers were
// installed changes no answer. (jsCounts itself calls Array.isArray and
// Function.prototype.call, as it did before helpers were installed, so
// FindCounts is checked before that patch.)
func TestInstalledHelperPagePatches(t *testing.T) {
	t.Parallel()
	d := shared(t)
	origin := helperPages(t)
	ctx := tctx(t, time.Minute)
	top := openHelperPage(t, ctx, d, origin, "/a")
	cands := []locator.Candidate{{Strategy: locator.Role, Role: "dialog"}, {Strategy: locator.TestID, TestID: "note"}, {Strategy: locator.CSS, CSS: "input.f"}}
	before, err := d.FindCounts(ctx, top, nil, cands)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(before, []int{0, 1, 2}) {
		t.Fatalf("FindCounts = %v, want [0 1 2]", before)
	}
	one := findOne(t, ctx, d, top, locator.Candidate{Strategy: locator.TestID, TestID: "note"})
	two, err := d.Find(ctx, top, nil, locator.Candidate{Strategy: locator.CSS, CSS: "input.f"})
	if err != nil || len(two) != 2 {
		t.Fatalf("Find css = %d, %v", len(two), err)
	}
	doc, err := d.document(ctx, d.top)
	if err != nil {
		t.Fatal(err)
	}
	for _, patch := range []string{
		`w.Reflect.apply = () => []; w.Function.prototype.apply = function() { return []; };`,
		`w.Array.isArray = () => false;`,
	} {
		if _, err := d.callOn(ctx, d.top.sid, doc, `function(){ const w = this.defaultView; `+patch+` }`, true, nil); err != nil {
			t.Fatal(err)
		}
		if patch[2] == 'R' {
			after, err := d.FindCounts(ctx, top, nil, cands)
			if err != nil || !slices.Equal(after, before) {
				t.Fatalf("FindCounts after %s = %v, %v; want %v", patch, after, err, before)
			}
		}
		if els, err := d.Find(ctx, top, nil, locator.Candidate{Strategy: locator.TestID, TestID: "note"}); err != nil || len(els) != 1 || els[0] != one {
			t.Fatalf("Find test_id after %s = %v, %v; want [%v]", patch, els, err, one)
		}
		if els, err := d.Find(ctx, top, nil, locator.Candidate{Strategy: locator.CSS, CSS: "input.f"}); err != nil || !slices.Equal(els, two) {
			t.Fatalf("Find css after %s = %v, %v; want %v", patch, els, err, two)
		}
	}
}

// helpersIn returns the helpers' dispatcher installed in document doc,
// or "".
func (d *Driver) helpersIn(sid proto.TargetSessionID, doc proto.RuntimeRemoteObjectID) proto.RuntimeRemoteObjectID {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.helpers[helperKey{sid, doc, helperDispatcher}]
}

// helpersKept returns the helpers the dispatcher of document doc keeps.
func (d *Driver) helpersKept(sid proto.TargetSessionID, doc proto.RuntimeRemoteObjectID) []docHelper {
	d.mu.Lock()
	defer d.mu.Unlock()
	fn := d.helpers[helperKey{sid, doc, helperDispatcher}]
	var out []docHelper
	for h := range numHelpers {
		if fn != "" && d.helpers[helperKey{sid, doc, h}] == fn {
			out = append(out, h)
		}
	}
	return out
}

// TestInstalledHelperOnlyWhatIsUsed: a document compiles only the helpers
// its looks use, each once. The first look on a fresh document installs
// the dispatcher beside the document's lookup (evaluate, evaluate) and
// sends the label helper through it; a later look of another strategy
// sends its helper's source in its one call (no install command); a
// second look of a strategy sends no source; the counts helper's first
// call gives the dispatcher the find, role and label helpers it is made
// of that it does not keep yet, and a later Find sends none of them; an
// iframe's document gets its own dispatcher before its first helper
// call.
func TestInstalledHelperOnlyWhatIsUsed(t *testing.T) {
	t.Parallel()
	d := shared(t)
	origin := helperPages(t)
	ctx := tctx(t, time.Minute)
	top := openHelperPage(t, ctx, d, origin, "/a")
	var rec cdpRecorder
	var mu sync.Mutex
	var decls []string
	d.setCallTrace(rec.trace)
	d.setDeclTrace(func(decl string) { mu.Lock(); decls = append(decls, decl); mu.Unlock() })
	t.Cleanup(func() { d.setCallTrace(nil); d.setDeclTrace(nil) })
	step := func(name, wantMethods string, wantSource docHelper, run func() error) {
		t.Helper()
		rec.reset()
		mu.Lock()
		decls = nil
		mu.Unlock()
		if err := run(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := rec.methods(); got != wantMethods {
			t.Errorf("%s sent %s, want %s", name, got, wantMethods)
		}
		mu.Lock()
		defer mu.Unlock()
		// A declaration carrying helper h's source is one of its three
		// forms; any other declaration or evaluated expression must be
		// small (no helper inside).
		sent := map[docHelper]int{}
		for _, s := range decls {
			h := slices.IndexFunc(helperSrc[:], func(src string) bool {
				i := slices.Index(helperSrc[:], src)
				return s == src || s == helperOne[i] || s == jsViaHelperFirst[i]
			})
			if h >= 0 {
				sent[docHelper(h)]++
			} else if len(s) > 2000 {
				t.Errorf("%s sent a declaration of %d bytes that is no helper's first call", name, len(s))
			}
		}
		for h := range numHelpers {
			if want := map[bool]int{true: 1, false: 0}[h == wantSource]; sent[h] != want {
				t.Errorf("%s sent helper %d's source %d times, want %d", name, h, sent[h], want)
			}
		}
	}
	const none = docHelper(-1)
	label := locator.Candidate{Strategy: locator.Label, Label: "Note", Exact: true}
	step("first Find label", "evaluate, evaluate, callFunctionOn, DOM.describeNode", helperLabel, func() error {
		_, err := d.Find(ctx, top, nil, label)
		return err
	})
	doc, err := d.document(ctx, d.top)
	if err != nil {
		t.Fatal(err)
	}
	if got := d.helpersKept(d.top.sid, doc); !slices.Equal(got, []docHelper{helperLabel}) {
		t.Errorf("after a label look the document keeps helpers %v, want [%d]", got, helperLabel)
	}
	step("second Find label", "callFunctionOn", none, func() error {
		_, err := d.Find(ctx, top, nil, label)
		return err
	})
	step("first Find test_id", "callFunctionOn, DOM.describeNode", helperFind, func() error {
		_, err := d.Find(ctx, top, nil, locator.Candidate{Strategy: locator.TestID, TestID: "extra"})
		return err
	})
	step("first FindCounts", "callFunctionOn", helperCounts, func() error {
		_, err := d.FindCounts(ctx, top, nil, []locator.Candidate{{Strategy: locator.Role, Role: "dialog"}, label})
		return err
	})
	step("second FindCounts", "callFunctionOn", none, func() error {
		_, err := d.FindCounts(ctx, top, nil, []locator.Candidate{label})
		return err
	})
	// The counts helper is made of the find, role and label helpers:
	// its first call gave the dispatcher the role helper, which it did
	// not keep yet, and reused the two it kept.
	if got := d.helpersKept(d.top.sid, doc); !slices.Equal(got, []docHelper{helperCounts, helperFind, helperRoleCandidates, helperLabel}) {
		t.Errorf("the document keeps helpers %v, want [%d %d %d %d]", got, helperCounts, helperFind, helperRoleCandidates, helperLabel)
	}
	step("first Find role after FindCounts", "callFunctionOn, getProperties, Accessibility.getPartialAXTree, Accessibility.getPartialAXTree", none, func() error {
		els, err := d.Find(ctx, top, nil, role("textbox", "Note"))
		if err == nil && len(els) != 1 {
			err = fmt.Errorf("%d elements, want 1", len(els))
		}
		return err
	})
	frame, _, err := d.Frame(ctx, []string{"#fr"})
	if err != nil {
		t.Fatal(err)
	}
	step("first Find label in the iframe", "callFunctionOn, callFunctionOn, DOM.describeNode", helperLabel, func() error {
		els, err := d.Find(ctx, frame, nil, locator.Candidate{Strategy: locator.Label, Label: "Inner", Exact: true})
		if err == nil && len(els) != 1 {
			err = fmt.Errorf("%d elements, want 1", len(els))
		}
		return err
	})
	step("second Find label in the iframe", "callFunctionOn", none, func() error {
		_, err := d.Find(ctx, frame, nil, locator.Candidate{Strategy: locator.Label, Label: "Inner", Exact: true})
		return err
	})
	step("first FindCounts in the iframe", "callFunctionOn", helperCounts, func() error {
		_, err := d.FindCounts(ctx, frame, nil, []locator.Candidate{{Strategy: locator.TestID, TestID: "inner2"}})
		return err
	})
	step("first Find test_id in the iframe after FindCounts", "callFunctionOn, DOM.describeNode", none, func() error {
		_, err := d.Find(ctx, frame, nil, locator.Candidate{Strategy: locator.TestID, TestID: "inner2"})
		return err
	})
}
