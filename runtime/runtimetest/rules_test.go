package runtimetest_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/runtimetest"
)

const origin = "http://127.0.0.1:4010"

type fake struct {
	t   *testing.T
	ctx context.Context
	d   *runtimetest.Driver
}

// open starts a fake on site, allows origin and opens path.
func open(t *testing.T, site *runtimetest.Site, path string, opts ...runtimetest.Option) *fake {
	t.Helper()
	d := runtimetest.NewDriver(site, opts...)
	t.Cleanup(func() { _ = d.Close() })
	f := &fake{t: t, ctx: t.Context(), d: d}
	if err := d.RestrictOrigins(f.ctx, runtime.OriginScope{Allowed: []string{origin}}); err != nil {
		t.Fatal(err)
	}
	if err := d.Navigate(f.ctx, origin+path); err != nil {
		t.Fatalf("Navigate(%s): %v", path, err)
	}
	return f
}

// page builds a one-page site at origin+path.
func page(path string, body []*runtimetest.Node, rules ...runtimetest.Rule) *runtimetest.Site {
	return &runtimetest.Site{Pages: map[string]*runtimetest.Page{origin + path: {Body: body, Rules: rules}}}
}

func on(id string, act runtime.ActKind, effects ...runtimetest.Effect) runtimetest.Rule {
	return runtimetest.Rule{On: runtimetest.Trigger{Node: id, Act: act}, Effects: effects}
}

func setText(id, text string) runtimetest.Effect {
	return runtimetest.Effect{SetText: map[string]string{id: text}}
}

func attrs(kv ...string) map[string]string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return m
}

func (f *fake) el(id string) runtime.Element {
	f.t.Helper()
	els, err := f.d.Find(f.ctx, nil, nil, locator.Candidate{Strategy: locator.CSS, CSS: "#" + id})
	if err != nil || len(els) != 1 {
		f.t.Fatalf("Find(#%s) = %d, %v", id, len(els), err)
	}
	return els[0]
}

func (f *fake) act(id string, kind runtime.ActKind, value string) {
	f.t.Helper()
	if err := f.d.Act(f.ctx, f.el(id), runtime.Act{Kind: kind, Value: value}); err != nil {
		f.t.Fatalf("Act(%s #%s %q): %v", kind, id, value, err)
	}
}

func (f *fake) text(id string) string {
	f.t.Helper()
	v, err := f.d.Read(f.ctx, f.el(id), runtime.Read{Kind: runtime.ReadText})
	if err != nil {
		f.t.Fatal(err)
	}
	return v
}

func (f *fake) value(id string) string {
	f.t.Helper()
	v, err := f.d.Read(f.ctx, f.el(id), runtime.Read{Kind: runtime.ReadValue})
	if err != nil {
		f.t.Fatal(err)
	}
	return v
}

func (f *fake) attr(id, name string) (string, bool) {
	f.t.Helper()
	els, err := f.d.Find(f.ctx, nil, nil, locator.Candidate{Strategy: locator.CSS, CSS: "#" + id + "[" + name + "]"})
	if err != nil {
		f.t.Fatal(err)
	}
	if len(els) == 0 {
		return "", false
	}
	v, err := f.d.Read(f.ctx, els[0], runtime.Read{Kind: runtime.ReadAttribute, Name: name})
	if err != nil {
		f.t.Fatal(err)
	}
	return v, true
}

func (f *fake) visible(id string) bool {
	f.t.Helper()
	v, err := f.d.Visible(f.ctx, f.el(id))
	if err != nil {
		f.t.Fatal(err)
	}
	return v
}

func (f *fake) url() string {
	f.t.Helper()
	u, err := f.d.URL(f.ctx)
	if err != nil {
		f.t.Fatal(err)
	}
	return u
}

func TestRulesBubbleInnermostFirst(t *testing.T) {
	f := open(t, page("/", []*runtimetest.Node{
		{ID: "status", Text: "idle"},
		{ID: "log", Text: ""},
		{ID: "box", Children: []*runtimetest.Node{
			{Tag: "button", ID: "btn", Children: []*runtimetest.Node{{Tag: "span", ID: "inner", Text: "Go"}}},
		}},
	},
		on("box", runtime.ActClick, setText("status", "box")),
		on("btn", runtime.ActClick, setText("status", "button"), setText("log", "button ran")),
	), "/")
	f.act("inner", runtime.ActClick, "")
	if got := f.text("status"); got != "box" {
		t.Errorf("status = %q: the ancestor's rule must run after the button's", got)
	}
	if got := f.text("log"); got != "button ran" {
		t.Errorf("log = %q", got)
	}
	if got := f.d.Clicks(); !slices.Equal(got, []string{"inner"}) {
		t.Errorf("Clicks() = %q", got)
	}
}

func TestValueEqualsAndTemplates(t *testing.T) {
	v := "go now"
	f := open(t, page("/app", []*runtimetest.Node{
		{Tag: "input", ID: "q", Label: "Query"},
		{Tag: "p", ID: "hint", Text: "exact", Hidden: true},
	},
		runtimetest.Rule{On: runtimetest.Trigger{Node: "q", Act: runtime.ActFill, ValueEquals: &v}, Effects: []runtimetest.Effect{{Show: []string{"hint"}}}},
		runtimetest.Rule{On: runtimetest.Trigger{Node: "q", Act: runtime.ActPress, Key: "Enter"}, Effects: []runtimetest.Effect{{Navigate: "?q={{value}}#r/{{value:q}}"}}},
	), "/app")
	f.act("q", runtime.ActFill, "go")
	if f.visible("hint") {
		t.Fatal("hint shown for a value that is not equal")
	}
	f.act("q", runtime.ActFill, "go now")
	if !f.visible("hint") {
		t.Fatal("hint not shown")
	}
	f.act("q", runtime.ActPress, "Enter")
	if got, want := f.url(), origin+"/app?q=go%20now#r/go%20now"; got != want {
		t.Errorf("URL = %q, want %q", got, want)
	}
}

func TestLabelAndCheckboxes(t *testing.T) {
	f := open(t, page("/", []*runtimetest.Node{
		{Tag: "input", ID: "agree", Label: "I agree", Attributes: attrs("type", "checkbox")},
		{ID: "status", Text: "no"},
		{Tag: "input", ID: "r1", Label: "One", Attributes: attrs("type", "radio", "name", "n", "checked", "")},
		{Tag: "input", ID: "r2", Label: "Two", Attributes: attrs("type", "radio", "name", "n")},
		{Tag: "input", ID: "ghost", Label: "Ghost", Hidden: true, Attributes: attrs("type", "checkbox")},
	},
		on("agree", runtime.ActCheck, setText("status", "yes")),
		on("agree", runtime.ActUncheck, setText("status", "no")),
	), "/")
	labels, err := f.d.Find(f.ctx, nil, nil, locator.Candidate{Strategy: locator.Text, Text: "I agree", Exact: true})
	if err != nil || len(labels) != 1 {
		t.Fatalf("label: %d, %v", len(labels), err)
	}
	if err := f.d.Act(f.ctx, labels[0], runtime.Act{Kind: runtime.ActClick}); err != nil {
		t.Fatal(err)
	}
	if _, ok := f.attr("agree", "checked"); !ok || f.text("status") != "yes" {
		t.Fatalf("clicking the label did not check the box (status %q)", f.text("status"))
	}
	f.act("agree", runtime.ActCheck, "") // already checked: nothing happens
	if got := f.d.Clicks(); !slices.Equal(got, []string{"<label>", "agree"}) {
		t.Errorf("Clicks() = %q", got)
	}
	f.act("agree", runtime.ActPress, " ")
	if _, ok := f.attr("agree", "checked"); ok || f.text("status") != "no" {
		t.Error("Space did not toggle the box off")
	}
	f.act("r2", runtime.ActCheck, "")
	if _, ok := f.attr("r1", "checked"); ok {
		t.Error("checking r2 left r1 checked")
	}
	if err := f.d.Act(f.ctx, f.el("r2"), runtime.Act{Kind: runtime.ActUncheck}); !errors.Is(err, runtime.ErrUnsupported) {
		t.Errorf("unchecking a radio = %v, want ErrUnsupported", err)
	}
	if got := f.value("agree"); got != "on" {
		t.Errorf("checkbox value = %q, want on", got)
	}
	if err := f.d.Act(f.ctx, f.el("ghost"), runtime.Act{Kind: runtime.ActCheck}); !errors.Is(err, runtime.ErrNotInteractable) {
		t.Errorf("checking a hidden box = %v, want ErrNotInteractable", err)
	}
}

func TestKeyboardDefaults(t *testing.T) {
	f := open(t, &runtimetest.Site{Pages: map[string]*runtimetest.Page{
		origin + "/": {Body: []*runtimetest.Node{
			{Tag: "form", ID: "form", Children: []*runtimetest.Node{
				{Tag: "input", ID: "user", Label: "User"},
				{Tag: "button", ID: "reset", Text: "Reset", Attributes: attrs("type", "button")},
				{Tag: "button", ID: "submit", Text: "Sign in"},
			}},
			{Tag: "textarea", ID: "notes", Label: "Notes"},
			{ID: "status", Text: "idle"},
			{Tag: "a", ID: "next", Attributes: attrs("href", "/next"), Text: "Next"},
		}, Rules: []runtimetest.Rule{on("submit", runtime.ActClick, setText("status", "submitted"))}},
		origin + "/next": {Body: []*runtimetest.Node{{Tag: "h1", Text: "Next"}}},
	}}, "/")
	f.act("user", runtime.ActPress, "a")
	f.act("user", runtime.ActPress, "é")
	f.act("user", runtime.ActPress, "x")
	f.act("user", runtime.ActPress, "Backspace")
	if got := f.value("user"); got != "aé" {
		t.Errorf("typed value = %q", got)
	}
	f.act("user", runtime.ActPress, "Enter")
	if got := f.text("status"); got != "submitted" {
		t.Errorf("Enter in a form field: status %q, want the default button clicked", got)
	}
	f.act("notes", runtime.ActFill, "line")
	f.act("notes", runtime.ActPress, "Enter")
	if got := f.value("notes"); got != "line\n" {
		t.Errorf("textarea after Enter = %q", got)
	}
	f.act("next", runtime.ActPress, "Enter")
	if got := f.url(); got != origin+"/next" {
		t.Errorf("Enter on a link: URL %q", got)
	}
}

func TestEffects(t *testing.T) {
	f := open(t, page("/", []*runtimetest.Node{
		{ID: "box", Text: "old", Children: []*runtimetest.Node{{Tag: "span", ID: "child", Text: "child"}}},
		{Tag: "ul", ID: "list"},
		{Tag: "button", ID: "add", Text: "Add"},
		{Tag: "button", ID: "rm", Text: "Remove"},
		{Tag: "button", ID: "set", Text: "Set"},
		{Tag: "input", ID: "amount", Label: "Amount", Attributes: attrs("type", "number")},
		{Tag: "select", ID: "sel", Children: []*runtimetest.Node{
			{Tag: "optgroup", Attributes: attrs("label", "G"), Children: []*runtimetest.Node{
				{Tag: "option", Value: "1", Text: "One"},
				{Tag: "option", Value: "2", Text: "Two", Attributes: attrs("label", "Deux")},
			}},
		}},
		{Tag: "button", ID: "off", Text: "Disable"},
		{Tag: "button", ID: "target", Text: "Target"},
	},
		on("add", runtime.ActClick, runtimetest.Effect{Add: &runtimetest.AddEffect{Parent: "list", Nodes: []*runtimetest.Node{
			{Tag: "li", ID: "item", Text: "Item"},
		}}}),
		on("rm", runtime.ActClick, runtimetest.Effect{Remove: []string{"item", "amount"}}),
		on("set", runtime.ActClick, setText("box", "new"), runtimetest.Effect{SetValue: map[string]string{"amount": "12.5", "sel": "2"}}),
		on("off", runtime.ActClick, runtimetest.Effect{Disable: []string{"target"}}),
	), "/")
	child := f.el("child")
	f.act("set", runtime.ActClick, "")
	if f.text("box") != "new" || f.value("amount") != "12.5" || f.value("sel") != "2" {
		t.Errorf("after set: box %q amount %q sel %q", f.text("box"), f.value("amount"), f.value("sel"))
	}
	if _, err := f.d.Read(f.ctx, child, runtime.Read{Kind: runtime.ReadText}); !errors.Is(err, runtime.ErrStaleElement) {
		t.Errorf("SetText kept the child: %v", err)
	}
	f.act("add", runtime.ActClick, "")
	f.act("add", runtime.ActClick, "")
	if n, _ := f.d.Find(f.ctx, nil, nil, locator.Candidate{Strategy: locator.Role, Role: "listitem"}); len(n) != 1 {
		t.Errorf("Add is not idempotent: %d items", len(n))
	}
	item := f.el("item")
	f.act("rm", runtime.ActClick, "")
	if v, err := f.d.Visible(f.ctx, item); err != nil || v {
		t.Errorf("Visible(removed) = %v, %v", v, err)
	}
	if els, _ := f.d.Find(f.ctx, nil, nil, locator.Candidate{Strategy: locator.Label, Label: "Amount"}); len(els) != 0 {
		t.Error("removed field still found by label")
	}
	if els, _ := f.d.Find(f.ctx, nil, nil, locator.Candidate{Strategy: locator.Text, Text: "Amount"}); len(els) != 0 {
		t.Error("the removed field's label is still there")
	}
	f.act("add", runtime.ActClick, "")
	if n, _ := f.d.Find(f.ctx, nil, nil, locator.Candidate{Strategy: locator.Role, Role: "listitem"}); len(n) != 1 {
		t.Errorf("re-adding after remove: %d items", len(n))
	}
	f.act("sel", runtime.ActSelect, "Deux")
	if f.value("sel") != "2" {
		t.Errorf("select by label attribute: %q", f.value("sel"))
	}
	f.act("sel", runtime.ActSelect, "One")
	if f.value("sel") != "1" {
		t.Errorf("select by text: %q", f.value("sel"))
	}
	if err := f.d.Act(f.ctx, f.el("sel"), runtime.Act{Kind: runtime.ActSelect, Value: "3"}); !errors.Is(err, runtime.ErrNotInteractable) {
		t.Errorf("select of a missing option = %v", err)
	}
	f.act("off", runtime.ActClick, "")
	if err := f.d.Act(f.ctx, f.el("target"), runtime.Act{Kind: runtime.ActClick}); !errors.Is(err, runtime.ErrNotInteractable) {
		t.Errorf("click of a disabled button = %v", err)
	}
}

func TestNavigationState(t *testing.T) {
	f := open(t, &runtimetest.Site{Pages: map[string]*runtimetest.Page{
		origin + "/": {Body: []*runtimetest.Node{
			{Tag: "button", ID: "show", Text: "Show"},
			{ID: "panel", Text: "Panel", Hidden: true},
			{Tag: "a", ID: "hash", Attributes: attrs("href", "#top"), Text: "Top"},
			{Tag: "a", ID: "ruled", Attributes: attrs("href", "/elsewhere"), Text: "Ruled"},
		}, Rules: []runtimetest.Rule{
			on("show", runtime.ActClick, runtimetest.Effect{Show: []string{"panel"}}),
			on("ruled", runtime.ActClick, runtimetest.Effect{Navigate: "#ruled"}),
		}},
	}}, "/")
	f.act("show", runtime.ActClick, "")
	f.act("hash", runtime.ActClick, "")
	if f.url() != origin+"/#top" || !f.visible("panel") {
		t.Fatalf("hash link: URL %q, panel visible %v", f.url(), f.visible("panel"))
	}
	f.act("ruled", runtime.ActClick, "")
	if f.url() != origin+"/#ruled" {
		t.Errorf("a rule navigation must suppress the link: URL %q", f.url())
	}
	if err := f.d.Navigate(f.ctx, origin+"/#again"); err != nil || !f.visible("panel") {
		t.Errorf("same-document Navigate reset the page (%v)", err)
	}
	old := f.el("panel")
	if err := f.d.Navigate(f.ctx, origin+"/"); err != nil {
		t.Fatal(err)
	}
	if f.visible("panel") {
		t.Error("a full navigation kept the page state")
	}
	if _, err := f.d.Read(f.ctx, old, runtime.Read{Kind: runtime.ReadText}); !errors.Is(err, runtime.ErrStaleElement) {
		t.Errorf("old handle after reload: %v", err)
	}
	if err := f.d.Navigate(f.ctx, "about:blank"); err != nil || f.url() != "about:blank" {
		t.Errorf("about:blank: %v %q", err, f.url())
	}
	if err := f.d.Navigate(f.ctx, "file:///etc/passwd"); !errors.Is(err, runtime.ErrTargetUnreachable) {
		t.Errorf("file URL: %v", err)
	}
}

func TestFramesNavigateAndBlock(t *testing.T) {
	other := "http://localhost:4020"
	f := open(t, &runtimetest.Site{Pages: map[string]*runtimetest.Page{
		origin + "/": {Body: []*runtimetest.Node{
			{ID: "f", Frame: &runtimetest.FrameFixture{URL: "/frame"}},
			{ID: "x", Frame: &runtimetest.FrameFixture{URL: other + "/"}},
			{ID: "hidden-host", Hidden: true, Children: []*runtimetest.Node{
				{ID: "h", Frame: &runtimetest.FrameFixture{URL: "/frame"}},
			}},
		}},
		origin + "/frame": {Body: []*runtimetest.Node{
			{Tag: "button", ID: "go", Text: "Go"},
			{Tag: "button", ID: "away", Text: "Away"},
		}, Rules: []runtimetest.Rule{
			on("go", runtime.ActClick, runtimetest.Effect{Navigate: "/frame2"}),
			on("away", runtime.ActClick, runtimetest.Effect{Navigate: other + "/"}),
		}},
		origin + "/frame2": {Body: []*runtimetest.Node{{Tag: "h1", Text: "Second"}}},
		other + "/":        {Body: []*runtimetest.Node{{Tag: "h1", Text: "Other"}}},
	}}, "/")
	vs, _ := f.d.Violations(f.ctx)
	if want := []runtime.Violation{{Kind: runtime.ViolationFrame, Origin: other}}; !slices.Equal(vs, want) {
		t.Errorf("violations = %v, want %v", vs, want)
	}
	scope, infos, err := f.d.Frame(f.ctx, []string{"#x"})
	if err != nil || infos[0].Origin != other {
		t.Fatalf("blocked frame: %v %v", infos, err)
	}
	if els, _ := f.d.Find(f.ctx, scope, nil, locator.Candidate{Strategy: locator.CSS, CSS: "*"}); len(els) != 3 {
		t.Errorf("blocked frame document has %d elements, want an empty html/head/body", len(els))
	}
	hs, _, _ := f.d.Frame(f.ctx, []string{"#h"})
	if els, _ := f.d.Find(f.ctx, hs, nil, locator.Candidate{Strategy: locator.Role, Role: "button", Name: "Go"}); len(els) != 0 {
		t.Error("content of a frame inside a hidden element is visible")
	}
	fs, _, err := f.d.Frame(f.ctx, []string{"#f"})
	if err != nil {
		t.Fatal(err)
	}
	find := func(s runtime.Scope, name string) []runtime.Element {
		els, err := f.d.Find(f.ctx, s, nil, locator.Candidate{Strategy: locator.Role, Role: "button", Name: name})
		if err != nil {
			t.Fatal(err)
		}
		return els
	}
	if err := f.d.Act(f.ctx, find(fs, "Away")[0], runtime.Act{Kind: runtime.ActClick}); err != nil {
		t.Fatal(err)
	}
	vs, _ = f.d.Violations(f.ctx)
	if want := []runtime.Violation{{Kind: runtime.ViolationFrame, Origin: other}}; !slices.Equal(vs, want) {
		t.Errorf("frame navigation violations = %v, want %v", vs, want)
	}
	if err := f.d.Act(f.ctx, find(fs, "Go")[0], runtime.Act{Kind: runtime.ActClick}); err != nil {
		t.Fatal(err)
	}
	if f.url() != origin+"/" {
		t.Errorf("a frame navigation changed the top URL: %q", f.url())
	}
	if _, err := f.d.Find(f.ctx, fs, nil, locator.Candidate{Strategy: locator.CSS, CSS: "h1"}); !errors.Is(err, runtime.ErrStaleElement) {
		t.Errorf("old frame scope: %v, want ErrStaleElement", err)
	}
	fs2, _, _ := f.d.Frame(f.ctx, []string{"#f"})
	if els, _ := f.d.Find(f.ctx, fs2, nil, locator.Candidate{Strategy: locator.Role, Role: "heading", Name: "Second"}); len(els) != 1 {
		t.Error("the frame did not navigate")
	}
}

func TestNativeDialog(t *testing.T) {
	f := open(t, page("/", []*runtimetest.Node{{Tag: "button", ID: "del", Text: "Delete"}},
		on("del", runtime.ActClick, runtimetest.Effect{Dialog: &runtimetest.DialogEffect{Kind: runtimetest.DialogConfirm, Message: "Sure?"}}),
	), "/")
	del := f.el("del")
	if err := f.d.Act(f.ctx, del, runtime.Act{Kind: runtime.ActClick}); !errors.Is(err, runtime.ErrNativeDialog) {
		t.Fatalf("Act = %v, want ErrNativeDialog", err)
	}
	if kind, msg, open := f.d.Dialog(); !open || kind != runtimetest.DialogConfirm || msg != "Sure?" {
		t.Errorf("Dialog() = %v %q %v", kind, msg, open)
	}
	if _, err := f.d.URL(f.ctx); err != nil {
		t.Errorf("URL with a dialog open: %v", err)
	}
	for name, call := range map[string]func() error{
		"Find": func() error {
			_, err := f.d.Find(f.ctx, nil, nil, locator.Candidate{Strategy: locator.CSS, CSS: "*"})
			return err
		},
		"Read":     func() error { _, err := f.d.Read(f.ctx, del, runtime.Read{Kind: runtime.ReadText}); return err },
		"Visible":  func() error { _, err := f.d.Visible(f.ctx, del); return err },
		"Frame":    func() error { _, _, err := f.d.Frame(f.ctx, nil); return err },
		"Navigate": func() error { return f.d.Navigate(f.ctx, origin+"/") },
	} {
		if err := call(); !errors.Is(err, runtime.ErrNativeDialog) {
			t.Errorf("%s with a dialog open = %v", name, err)
		}
	}
	if !f.d.DismissDialog() || f.d.DismissDialog() {
		t.Error("DismissDialog did not report the open dialog once")
	}
	if !f.visible("del") {
		t.Error("page unusable after the dialog was dismissed")
	}
}

func TestCrash(t *testing.T) {
	site := runtimetest.ConformanceSite()
	d := runtimetest.NewDriver(site)
	ctx := t.Context()
	_ = d.RestrictOrigins(ctx, runtime.OriginScope{Allowed: []string{runtimetest.ConformanceApp}})
	if err := d.Navigate(ctx, runtimetest.ConformanceApp+"/act"); err != nil {
		t.Fatal(err)
	}
	pd, err := d.ArmDownload(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var waitErr error
	wg.Add(1)
	go func() {
		defer wg.Done()
		_, waitErr = pd.Wait(ctx)
	}()
	time.Sleep(10 * time.Millisecond)
	d.Crash()
	wg.Wait()
	if !errors.Is(waitErr, runtime.ErrBrowserCrashed) {
		t.Errorf("Wait during a crash = %v", waitErr)
	}
	if _, err := d.URL(ctx); !errors.Is(err, runtime.ErrBrowserCrashed) {
		t.Errorf("URL after Crash = %v", err)
	}
	if err := d.Close(); err != nil {
		t.Errorf("Close after Crash = %v", err)
	}
	if _, err := d.URL(ctx); !errors.Is(err, runtime.ErrClosed) {
		t.Errorf("URL after Close = %v", err)
	}
	if d.Info().Mode != runtime.ModeSimulated {
		t.Error("Info changed")
	}
}

func TestCallsLog(t *testing.T) {
	f := open(t, page("/", []*runtimetest.Node{{Tag: "button", ID: "b", Text: "B"}}), "/")
	f.act("b", runtime.ActClick, "")
	_, _ = f.d.Read(f.ctx, f.el("b"), runtime.Read{Kind: runtime.ReadText})
	var got []string
	for _, c := range f.d.Calls() {
		s := string(c.Method)
		switch c.Method {
		case runtimetest.MethodNavigate:
			s += " " + c.URL
		case runtimetest.MethodFind:
			s += " " + c.Candidate.String()
		case runtimetest.MethodAct:
			s += " " + string(c.Act.Kind) + " " + c.Element
		case runtimetest.MethodRead:
			s += " " + string(c.Read.Kind) + " " + c.Element
		}
		if c.Err != nil {
			s += " error"
		}
		got = append(got, s)
	}
	want := []string{
		"RestrictOrigins", "Navigate " + origin + "/",
		`Find css="#b"`, "Act click b", `Find css="#b"`, "Read text b",
	}
	if !slices.Equal(got, want) {
		t.Errorf("Calls() =\n%q\nwant\n%q", got, want)
	}
}

func TestRename(t *testing.T) {
	site := page("/", []*runtimetest.Node{{Tag: "button", ID: "search", Text: "Search"}})
	f := open(t, site, "/")
	find := func(name string) int {
		els, err := f.d.Find(f.ctx, nil, nil, locator.Candidate{Strategy: locator.Role, Role: "button", Name: name, Exact: true})
		if err != nil {
			t.Fatal(err)
		}
		return len(els)
	}
	if find("Search") != 1 {
		t.Fatal("button not found")
	}
	if err := f.d.Rename("search", "Find members"); err != nil {
		t.Fatal(err)
	}
	if find("Search") != 0 || find("Find members") != 1 {
		t.Error("Rename did not change the live page")
	}
	if err := f.d.Navigate(f.ctx, origin+"/?again"); !errors.Is(err, runtime.ErrTargetUnreachable) {
		t.Fatal(err)
	}
	if err := f.d.Navigate(f.ctx, origin+"/"); err != nil {
		t.Fatal(err)
	}
	if find("Find members") != 1 {
		t.Error("Rename did not change the fixture for later loads")
	}
	if site.Pages[origin+"/"].Body[0].Name != "" {
		t.Error("Rename mutated the caller's site")
	}
	if err := f.d.Rename("nope", "x"); !errors.Is(err, runtimetest.ErrUnknownNode) {
		t.Errorf("Rename(unknown) = %v", err)
	}
}

func TestLatencyAndActDelay(t *testing.T) {
	site := page("/", []*runtimetest.Node{{Tag: "button", ID: "b", Text: "B", Disabled: true}})
	d := runtimetest.NewDriver(site, runtimetest.WithLatency(time.Hour))
	defer d.Close()
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Millisecond)
	defer cancel()
	if err := d.RestrictOrigins(ctx, runtime.OriginScope{}); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("call slower than its ctx = %v", err)
	}

	f := open(t, site, "/", runtimetest.WithActDelay(time.Millisecond))
	if err := f.d.Act(f.ctx, f.el("b"), runtime.Act{Kind: runtime.ActClick}); !errors.Is(err, runtime.ErrNotInteractable) {
		t.Errorf("Act with delay = %v", err)
	}
	f2 := open(t, site, "/", runtimetest.WithActDelay(time.Hour))
	ctx2, cancel2 := context.WithTimeout(t.Context(), 20*time.Millisecond)
	defer cancel2()
	if err := f2.d.Act(ctx2, f2.el("b"), runtime.Act{Kind: runtime.ActClick}); !errors.Is(err, runtime.ErrNotInteractable) {
		t.Errorf("Act waiting past its ctx = %v", err)
	}
}

func TestDownloads(t *testing.T) {
	dir := t.TempDir()
	site := page("/", []*runtimetest.Node{{Tag: "button", ID: "dl", Text: "Download"}},
		on("dl", runtime.ActClick, runtimetest.Effect{Download: "r"}))
	site.Downloads = map[string]runtimetest.DownloadFixture{"r": {Name: "report.csv", Data: []byte{0, 1, 2}}}
	f := open(t, site, "/", runtimetest.WithDownloadDirectory(dir))
	if f.d.Info().DownloadRoute != runtime.DownloadDirectory {
		t.Fatal("route")
	}
	a, _ := f.d.ArmDownload(f.ctx)
	b, _ := f.d.ArmDownload(f.ctx)
	c, _ := f.d.ArmDownload(f.ctx)
	_ = c.Close()
	f.act("dl", runtime.ActClick, "")
	f.act("dl", runtime.ActClick, "") // unarmed: still saved
	ea, err1 := a.Wait(f.ctx)
	eb, err2 := b.Wait(f.ctx)
	if err1 != nil || err2 != nil || ea.GUID != eb.GUID || ea.Path != "" || ea.State != runtime.DownloadCompleted {
		t.Errorf("events %+v %v / %+v %v", ea, err1, eb, err2)
	}
	if _, err := c.Wait(f.ctx); !errors.Is(err, runtime.ErrDownloadEventMissing) {
		t.Errorf("closed listener Wait = %v", err)
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if !slices.Equal(names, []string{"report (1).csv", "report.csv"}) {
		t.Errorf("download folder = %q", names)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "report.csv")); string(got) != "\x00\x01\x02" {
		t.Errorf("bytes = %q", got)
	}

	g := open(t, site, "/")
	p, _ := g.d.ArmDownload(g.ctx)
	g.act("dl", runtime.ActClick, "")
	ev, err := p.Wait(g.ctx)
	if err != nil || ev.Path == "" || filepath.Base(ev.Path) != ev.GUID {
		t.Fatalf("browser_path event %+v %v", ev, err)
	}
	if err := g.d.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(ev.Path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Close left the owned download behind: %v", err)
	}
}

func TestMisuse(t *testing.T) {
	bad := page("/", []*runtimetest.Node{{Tag: "script"}})
	d := runtimetest.NewDriver(bad)
	defer d.Close()
	if err := d.Navigate(t.Context(), origin+"/"); !errors.Is(err, runtimetest.ErrInvalidFixture) {
		t.Errorf("invalid site: %v", err)
	}
	if d.Info().Browser != runtimetest.FakeBrowser {
		t.Error("Info of an invalid site")
	}
	if err := runtimetest.NewDriver(nil).Navigate(t.Context(), origin+"/"); !errors.Is(err, runtimetest.ErrInvalidFixture) {
		t.Errorf("nil site: %v", err)
	}

	site := page("/", []*runtimetest.Node{{ID: "div", Text: "plain"}, {Tag: "select", ID: "sel", Children: []*runtimetest.Node{{Tag: "option", Text: "A"}}}})
	d2 := runtimetest.NewDriver(site)
	defer d2.Close()
	if err := d2.Navigate(t.Context(), origin+"/"); !errors.Is(err, runtime.ErrOriginBlocked) {
		t.Errorf("Navigate before RestrictOrigins = %v, want ErrOriginBlocked (fail closed)", err)
	}
	f := open(t, site, "/")
	div := f.el("div")
	for name, err := range map[string]error{
		"act kind":      f.d.Act(f.ctx, div, runtime.Act{Kind: "hover"}),
		"fill a div":    f.d.Act(f.ctx, div, runtime.Act{Kind: runtime.ActFill, Value: "x"}),
		"select a div":  f.d.Act(f.ctx, div, runtime.Act{Kind: runtime.ActSelect, Value: "x"}),
		"check a div":   f.d.Act(f.ctx, div, runtime.Act{Kind: runtime.ActCheck}),
		"press no key":  f.d.Act(f.ctx, div, runtime.Act{Kind: runtime.ActPress}),
		"fill a select": f.d.Act(f.ctx, f.el("sel"), runtime.Act{Kind: runtime.ActFill, Value: "x"}),
		"read kind":     func() error { _, err := f.d.Read(f.ctx, div, runtime.Read{Kind: "html"}); return err }(),
		"strategy":      func() error { _, err := f.d.Find(f.ctx, nil, nil, locator.Candidate{Strategy: "xpath"}); return err }(),
		"css": func() error {
			_, err := f.d.Find(f.ctx, nil, nil, locator.Candidate{Strategy: locator.CSS, CSS: "div:has(p)"})
			return err
		}(),
		"role without it": func() error {
			_, err := f.d.Find(f.ctx, nil, nil, locator.Candidate{Strategy: locator.Role})
			return err
		}(),
		"frame css": func() error { _, _, err := f.d.Frame(f.ctx, []string{"iframe:nth-child(1)"}); return err }(),
	} {
		if !errors.Is(err, runtime.ErrUnsupported) {
			t.Errorf("%s: %v, want ErrUnsupported", name, err)
		}
	}
	for name, err := range map[string]error{
		"foreign element": f.d.Act(f.ctx, "not an element", runtime.Act{Kind: runtime.ActClick}),
		"foreign scope": func() error {
			_, err := f.d.Find(f.ctx, 42, nil, locator.Candidate{Strategy: locator.CSS, CSS: "*"})
			return err
		}(),
		"foreign root": func() error {
			_, err := f.d.Find(f.ctx, nil, "x", locator.Candidate{Strategy: locator.CSS, CSS: "*"})
			return err
		}(),
		"other driver": func() error { _, err := d2.Read(f.ctx, div, runtime.Read{Kind: runtime.ReadText}); return err }(),
	} {
		if !errors.Is(err, runtime.ErrStaleElement) {
			t.Errorf("%s: %v, want ErrStaleElement", name, err)
		}
	}
	top, _, _ := f.d.Frame(f.ctx, nil)
	if err := f.d.Navigate(f.ctx, origin+"/"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.d.Find(f.ctx, top, nil, locator.Candidate{Strategy: locator.CSS, CSS: "*"}); !errors.Is(err, runtime.ErrStaleElement) {
		t.Errorf("scope of a replaced document: %v", err)
	}
	if _, err := f.d.Find(f.ctx, nil, div, locator.Candidate{Strategy: locator.CSS, CSS: "*"}); !errors.Is(err, runtime.ErrStaleElement) {
		t.Errorf("root of a replaced document: %v", err)
	}
}

func TestSelfFramingIsBounded(t *testing.T) {
	var body []*runtimetest.Node
	for _, id := range []string{"a", "b", "c", "d"} {
		body = append(body, &runtimetest.Node{ID: id, Frame: &runtimetest.FrameFixture{URL: "/"}})
	}
	f := open(t, page("/", body), "/")
	els, err := f.d.Find(f.ctx, nil, nil, locator.Candidate{Strategy: locator.CSS, CSS: "iframe"})
	if err != nil || len(els) != 4 {
		t.Fatalf("%d frames, %v", len(els), err)
	}
	if _, infos, err := f.d.Frame(f.ctx, []string{"#a", "#a", "#a"}); err != nil || len(infos) != 3 {
		t.Errorf("nested self frames: %v %v", infos, err)
	}
	deep := slices.Repeat([]string{"#a"}, 12)
	if _, _, err := f.d.Frame(f.ctx, deep); !errors.Is(err, runtime.ErrFrameNotFound) {
		t.Errorf("frames nested beyond the bound: %v, want ErrFrameNotFound (about:blank)", err)
	}
}
