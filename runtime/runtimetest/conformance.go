package runtimetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/runtime"
)

// Timing bounds of the conformance suite.
const (
	// conformanceTimeout bounds each subtest's calls, from the moment
	// its driver is open (open itself is bounded by the test's context).
	conformanceTimeout = 15 * time.Second
	// settleTimeout bounds polling for an asynchronous effect (a navigation
	// committing, a violation arriving).
	settleTimeout = 3 * time.Second
	// shortTimeout is the deadline of calls expected to fail by timing out.
	shortTimeout = 300 * time.Millisecond
	// promptness is how soon a call must return after its ctx ends.
	promptness = time.Second
)

// TestDriver runs the conformance suite every [runtime.Driver] must pass,
// as testing/fstest.TestFS does for file systems. It serves
// [ConformanceSite] over loopback HTTP with [Serve] and, for each subtest,
// calls open with the served (rebased) site to get a fresh driver, which
// the suite closes. A fake ignores the servers; a browser driver navigates
// to them. open should call t.Skip when the driver cannot run (no
// browser).
//
// The suite checks the [runtime.Driver] contract: the reported mode; the
// origin scope for navigations, rule navigations and frames, with
// violations carrying the origin only; every locator strategy with exact
// and case-insensitive matching, visibility, root scoping, document order
// and comparable handles; every action kind with the page's rules observed
// through Read, Visible and URL; fragment navigation with percent-encoded
// input; frame paths across origins and their errors; interactability;
// downloads; native dialogs; cancellation; Close.
//
// Some outcomes are left open where browsers legitimately differ: a frame
// whose document the scope blocked must either fail with
// [runtime.ErrOriginBlocked] or resolve with an origin outside the scope;
// an Act that opens a native dialog may return nil or
// [runtime.ErrNativeDialog], but the next Find must fail with the latter.
func TestDriver(t *testing.T, open func(t *testing.T, site *Site) runtime.Driver) {
	t.Helper()
	if open == nil {
		t.Fatal("runtimetest: TestDriver: nil open func")
		return
	}
	site, m := serve(t, ConformanceSite())
	s := &suite{
		open: open, site: site,
		app: m[ConformanceApp], widget: m[ConformanceWidget], outside: m[ConformanceOutside],
	}
	for _, c := range []struct {
		name string
		run  func(*testing.T, *session)
	}{
		{"Info", s.testInfo},
		{"Navigate", s.testNavigate},
		{"NavigateBlocked", s.testNavigateBlocked},
		{"NavigateUnreachable", s.testNavigateUnreachable},
		{"FindRole", s.testFindRole},
		{"FindTableRoles", s.testFindTableRoles},
		{"FindLabel", s.testFindLabel},
		{"FindPlaceholder", s.testFindPlaceholder},
		{"FindTestID", s.testFindTestID},
		{"FindText", s.testFindText},
		{"FindCSS", s.testFindCSS},
		{"FindRootScope", s.testFindRoot},
		{"HandlesComparable", s.testHandles},
		{"Read", s.testRead},
		{"ActFill", s.testFill},
		{"ActClick", s.testClick},
		{"ActSelect", s.testSelect},
		{"ActCheck", s.testCheck},
		{"ActPressHashNavigation", s.testPressHash},
		{"ActClickHashNavigation", s.testClickHash},
		{"RemoveAndAdd", s.testRemoveAdd},
		{"LinkNavigation", s.testLink},
		{"RuleNavigation", s.testRuleNavigation},
		{"RuleNavigationBlocked", s.testRuleNavigationBlocked},
		{"SettleAttributesEffects", s.testSettle},
		{"Frames", s.testFrames},
		{"FrameErrors", s.testFrameErrors},
		{"FrameBlocked", s.testFrameBlocked},
		{"FrameURL", s.testFrameURL},
		{"NotInteractable", s.testNotInteractable},
		{"Download", s.testDownload},
		{"DownloadMissing", s.testDownloadMissing},
		{"NativeDialog", s.testDialog},
		{"Cancellation", s.testCancellation},
		{"NilArguments", s.testNilArguments},
		{"Close", s.testClose},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := s.open(t, s.site)
			if d == nil {
				t.Fatal("open returned a nil driver")
			}
			t.Cleanup(func() { _ = d.Close() })
			// The subtest's bound starts once the driver is open: a
			// browser launch on a saturated CPU took 11.6 s of a 15 s
			// bound, and the subtest's first call then ran out of time.
			ctx, cancel := context.WithTimeout(t.Context(), conformanceTimeout)
			defer cancel()
			c.run(t, &session{t: t, ctx: ctx, d: d, s: s})
		})
	}
}

type suite struct {
	open                 func(*testing.T, *Site) runtime.Driver
	site                 *Site
	app, widget, outside string
}

// session is one subtest's driver.
type session struct {
	t   *testing.T
	ctx context.Context
	d   runtime.Driver
	s   *suite
}

func (x *session) restrict() {
	x.t.Helper()
	if err := x.d.RestrictOrigins(x.ctx, runtime.OriginScope{Allowed: []string{x.s.app, x.s.widget}}); err != nil {
		x.t.Fatalf("RestrictOrigins: %v", err)
	}
}

// at restricts the scope and opens an application page.
func (x *session) at(path string) {
	x.t.Helper()
	x.restrict()
	if err := x.d.Navigate(x.ctx, x.s.app+path); err != nil {
		x.t.Fatalf("Navigate(%s): %v", path, err)
	}
}

func (x *session) find(scope runtime.Scope, root runtime.Element, c locator.Candidate) []runtime.Element {
	x.t.Helper()
	els, err := x.d.Find(x.ctx, scope, root, c)
	if err != nil {
		x.t.Fatalf("Find(%s): %v", c, err)
	}
	return els
}

// one finds exactly one element.
func (x *session) one(c locator.Candidate) runtime.Element {
	x.t.Helper()
	els := x.find(nil, nil, c)
	if len(els) != 1 {
		x.t.Fatalf("Find(%s) = %d elements, want 1 (%v)", c, len(els), x.ids(els))
	}
	return els[0]
}

// ids reads the id attribute of each element.
func (x *session) ids(els []runtime.Element) []string {
	x.t.Helper()
	out := make([]string, len(els))
	for i, e := range els {
		v, err := x.d.Read(x.ctx, e, runtime.Read{Kind: runtime.ReadAttribute, Name: "id"})
		if err != nil {
			x.t.Fatalf("Read(id): %v", err)
		}
		out[i] = v
	}
	return out
}

// expect checks that a candidate finds exactly the elements with ids, in
// that order.
func (x *session) expect(scope runtime.Scope, root runtime.Element, c locator.Candidate, ids ...string) {
	x.t.Helper()
	count := x.count(scope, root, c)
	els := x.find(scope, root, c)
	x.checkCount(c, count, len(els))
	got := x.ids(els)
	if ids == nil {
		ids = []string{}
	}
	if !slices.Equal(got, ids) {
		x.t.Errorf("Find(%s) = %q, want %q", c, got, ids)
	}
}

func (x *session) byID(id string) runtime.Element {
	x.t.Helper()
	return x.one(locator.Candidate{Strategy: locator.CSS, CSS: "#" + id})
}

func (x *session) act(el runtime.Element, kind runtime.ActKind, value string) {
	x.t.Helper()
	if err := x.d.Act(x.ctx, el, runtime.Act{Kind: kind, Value: value}); err != nil {
		x.t.Fatalf("Act(%s %q): %v", kind, value, err)
	}
}

func (x *session) text(el runtime.Element) string {
	x.t.Helper()
	v, err := x.d.Read(x.ctx, el, runtime.Read{Kind: runtime.ReadText})
	if err != nil {
		x.t.Fatalf("Read(text): %v", err)
	}
	return v
}

func (x *session) value(el runtime.Element) string {
	x.t.Helper()
	v, err := x.d.Read(x.ctx, el, runtime.Read{Kind: runtime.ReadValue})
	if err != nil {
		x.t.Fatalf("Read(value): %v", err)
	}
	return v
}

func (x *session) visible(el runtime.Element) bool {
	x.t.Helper()
	v, err := x.d.Visible(x.ctx, el)
	if err != nil {
		x.t.Fatalf("Visible: %v", err)
	}
	return v
}

func (x *session) url() string {
	x.t.Helper()
	u, err := x.d.URL(x.ctx)
	if err != nil {
		x.t.Fatalf("URL: %v", err)
	}
	return u
}

// eventually polls cond until it holds or settleTimeout passes: browsers
// commit navigations and report blocked requests asynchronously.
func (x *session) eventually(what string, cond func() (bool, string)) {
	x.t.Helper()
	deadline := time.Now().Add(settleTimeout)
	for {
		ok, detail := cond()
		if ok {
			return
		}
		if time.Now().After(deadline) || x.ctx.Err() != nil {
			x.t.Fatalf("%s: still %s after %v", what, detail, settleTimeout)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// violation waits for a violation of kind and origin.
func (x *session) violation(kind runtime.ViolationKind, origin string) {
	x.t.Helper()
	var seen []runtime.Violation
	x.eventually("violation "+string(kind)+" "+origin, func() (bool, string) {
		vs, err := x.d.Violations(x.ctx)
		if err != nil {
			x.t.Fatalf("Violations: %v", err)
		}
		seen = append(seen, vs...)
		for _, v := range seen {
			if v.Kind == kind && v.Origin == origin {
				return true, ""
			}
		}
		return false, "missing (seen " + formatViolations(seen) + ")"
	})
	for _, v := range seen {
		if strings.Count(v.Origin, "/") != 2 || strings.ContainsAny(v.Origin, "?#") {
			x.t.Errorf("violation origin %q carries more than scheme://host:port", v.Origin)
		}
	}
}

func formatViolations(vs []runtime.Violation) string {
	var parts []string
	for _, v := range vs {
		parts = append(parts, string(v.Kind)+" "+v.Origin)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func role(r, name string, exact bool) locator.Candidate {
	return locator.Candidate{Strategy: locator.Role, Role: r, Name: name, Exact: exact}
}

func css(sel string) locator.Candidate {
	return locator.Candidate{Strategy: locator.CSS, CSS: sel}
}

func (s *suite) testInfo(t *testing.T, x *session) {
	info := x.d.Info()
	switch info.Mode {
	case runtime.ModeLiveConnected, runtime.ModeLiveLaunched, runtime.ModeSimulated:
	default:
		t.Errorf("Info().Mode = %q, want a live mode or simulated", info.Mode)
	}
	if info.Browser == "" {
		t.Error("Info().Browser is empty")
	}
	if info.DownloadRoute != runtime.DownloadDirectory && info.DownloadRoute != runtime.DownloadBrowserPath {
		t.Errorf("Info().DownloadRoute = %q", info.DownloadRoute)
	}
	if again := x.d.Info(); again != info {
		t.Errorf("Info() changed: %+v then %+v", info, again)
	}
}

func (s *suite) testNavigate(t *testing.T, x *session) {
	x.at("/")
	if u := x.url(); u != s.app+"/" {
		t.Errorf("URL() = %q, want %q", u, s.app+"/")
	}
	if err := x.d.Navigate(x.ctx, s.widget+"/outer"); err != nil {
		t.Fatalf("Navigate to the second allowed origin: %v", err)
	}
	if u := x.url(); u != s.widget+"/outer" {
		t.Errorf("URL() = %q, want %q", u, s.widget+"/outer")
	}
	vs, err := x.d.Violations(x.ctx)
	if err != nil || len(vs) != 0 {
		t.Errorf("Violations() = %v, %v; want none", vs, err)
	}
}

func (s *suite) testNavigateBlocked(t *testing.T, x *session) {
	x.at("/")
	err := x.d.Navigate(x.ctx, s.outside+"/?secret=1")
	if !errors.Is(err, runtime.ErrOriginBlocked) {
		t.Fatalf("Navigate outside the scope: %v, want ErrOriginBlocked", err)
	}
	x.violation(runtime.ViolationNavigation, s.outside)
	if vs, err := x.d.Violations(x.ctx); err != nil || len(vs) != 0 {
		t.Errorf("Violations() after draining = %v, %v; want none", vs, err)
	}
}

func (s *suite) testNavigateUnreachable(t *testing.T, x *session) {
	x.restrict()
	err := x.d.Navigate(x.ctx, s.app+"/no-such-page")
	if !errors.Is(err, runtime.ErrTargetUnreachable) {
		t.Fatalf("Navigate to a 404: %v, want ErrTargetUnreachable", err)
	}
}

func (s *suite) testFindRole(t *testing.T, x *session) {
	x.at("/")
	x.expect(nil, nil, role("button", "Save", true), "save")
	x.expect(nil, nil, role("button", "save", false), "save", "save-draft")
	x.expect(nil, nil, role("button", "  Save   draft ", true), "save-draft")
	x.expect(nil, nil, role("button", "Close dialog", true), "close")
	x.expect(nil, nil, role("button", "x", true))
	x.expect(nil, nil, role("heading", "Members", true), "")
	x.expect(nil, nil, role("textbox", "Email address", true), "email")
	x.expect(nil, nil, role("textbox", "Phone number", true), "phone")
	x.expect(nil, nil, role("link", "frames", false), "to-frames")
	x.expect(nil, nil, role("button", "Nonexistent", false))
}

// testFindTableRoles: table roles and names as Chromium exposes them. A
// plain table's rows have no name (Playwright's getByRole names a row
// from its cells; a row is found by a cell instead), a grid's rows are
// named from their cells and its cells are gridcells.
func (s *suite) testFindTableRoles(t *testing.T, x *session) {
	x.at("/table")
	x.expect(nil, nil, role("table", "Invoices", true), "invoices")
	x.expect(nil, nil, role("columnheader", "Invoice", true), "h-invoice")
	x.expect(nil, nil, role("cell", "INV-1", true), "inv-1")
	x.expect(nil, nil, role("cell", "inv-", false), "inv-1", "inv-2")
	x.expect(nil, nil, role("row", "", false), "head-row", "row-1", "row-2", "grid-row")
	x.expect(nil, nil, role("row", "INV-1", false))
	x.expect(nil, nil, role("grid", "", false), "queue")
	x.expect(nil, nil, role("row", "JOB-1 queued", true), "grid-row")
	x.expect(nil, nil, role("gridcell", "JOB-1", true), "job-1")
	x.expect(nil, nil, role("cell", "JOB-1", true))
}

func (s *suite) testFindLabel(t *testing.T, x *session) {
	x.at("/")
	lbl := func(v string, exact bool) locator.Candidate {
		return locator.Candidate{Strategy: locator.Label, Label: v, Exact: exact}
	}
	x.expect(nil, nil, lbl("Email address", true), "email")
	x.expect(nil, nil, lbl("EMAIL", false), "email")
	x.expect(nil, nil, lbl("Email", true))
	x.expect(nil, nil, lbl("Close dialog", true), "close")
}

func (s *suite) testFindPlaceholder(t *testing.T, x *session) {
	x.at("/")
	ph := func(v string, exact bool) locator.Candidate {
		return locator.Candidate{Strategy: locator.Placeholder, Placeholder: v, Exact: exact}
	}
	x.expect(nil, nil, ph("phone", false), "phone")
	x.expect(nil, nil, ph("Phone number", true), "phone")
	x.expect(nil, nil, ph("Phone backup", true))
}

func (s *suite) testFindTestID(t *testing.T, x *session) {
	x.at("/")
	tid := func(v string) locator.Candidate { return locator.Candidate{Strategy: locator.TestID, TestID: v} }
	x.expect(nil, nil, tid("summary-card"), "summary")
	x.expect(nil, nil, tid("summary"))
}

func (s *suite) testFindText(t *testing.T, x *session) {
	x.at("/")
	txt := func(v string, exact bool) locator.Candidate {
		return locator.Candidate{Strategy: locator.Text, Text: v, Exact: exact}
	}
	x.expect(nil, nil, txt("Balance 12.50 EUR", true), "summary")
	x.expect(nil, nil, txt("balance", false), "summary")
	x.expect(nil, nil, txt("Balance", true))
	x.expect(nil, nil, txt("note", false), "note-1", "note-2", "note-4")
	x.expect(nil, nil, txt("Hidden note", false))
	x.expect(nil, nil, txt("Save later", false))
}

func (s *suite) testFindCSS(t *testing.T, x *session) {
	x.at("/")
	x.expect(nil, nil, css(".note"), "note-2", "note-3", "note-4")
	x.expect(nil, nil, css(".note:visible"), "note-2", "note-4")
	x.expect(nil, nil, css("#panel .note"), "note-2")
	x.expect(nil, nil, css("section.panel > p"), "note-1", "note-2")
	x.expect(nil, nil, css("[data-testid=summary-card]"), "summary")
	x.expect(nil, nil, css("button[disabled]"), "locked")
	x.expect(nil, nil, css("main > button:visible"), "save", "save-draft", "close", "locked")
	x.expect(nil, nil, css("#does-not-exist"))
}

func (s *suite) testFindRoot(t *testing.T, x *session) {
	x.at("/")
	nav := x.byID("nav")
	panel := x.byID("panel")
	x.expect(nil, nav, role("link", "", false), "to-act", "to-frames")
	x.expect(nil, nav, role("button", "", false))
	x.expect(nil, panel, css("p"), "note-1", "note-2")
	x.expect(nil, panel, css("section"))
	x.expect(nil, panel, css("#save"))
	x.expect(nil, panel, locator.Candidate{Strategy: locator.Text, Text: "note"}, "note-1", "note-2")
}

func (s *suite) testHandles(t *testing.T, x *session) {
	x.at("/")
	a := x.one(role("button", "Save", true))
	b := x.one(css("#save"))
	if a != b {
		t.Error("two finds of the same node returned handles that are not ==")
	}
	if c := x.one(css("#save-draft")); c == a {
		t.Error("handles of different nodes compare equal")
	}
}

func (s *suite) testRead(t *testing.T, x *session) {
	x.at("/")
	if got := x.text(x.byID("panel")); got != "First note Second note" {
		t.Errorf("Read(text) of #panel = %q", got)
	}
	sum := x.byID("summary")
	if got, _ := x.d.Read(x.ctx, sum, runtime.Read{Kind: runtime.ReadAttribute, Name: "data-testid"}); got != "summary-card" {
		t.Errorf("Read(attribute data-testid) = %q", got)
	}
	if got, err := x.d.Read(x.ctx, sum, runtime.Read{Kind: runtime.ReadAttribute, Name: "data-absent"}); err != nil || got != "" {
		t.Errorf("Read(absent attribute) = %q, %v; want \"\", nil", got, err)
	}
	if got := x.value(x.byID("email")); got != "" {
		t.Errorf("Read(value) of an empty field = %q", got)
	}
	if !x.visible(x.byID("save")) {
		t.Error("Visible(#save) = false")
	}
	if x.visible(x.byID("note-3")) {
		t.Error("Visible(hidden #note-3) = true")
	}
}

func (s *suite) testFill(t *testing.T, x *session) {
	x.at("/act")
	name := x.one(locator.Candidate{Strategy: locator.Label, Label: "Name", Exact: true})
	greeting := x.byID("greeting")
	x.act(name, runtime.ActFill, "Bob")
	if x.visible(greeting) {
		t.Error("a fill that does not match value_equals showed the greeting")
	}
	x.act(name, runtime.ActFill, "Ada")
	if got := x.value(name); got != "Ada" {
		t.Errorf("Read(value) after fill = %q, want Ada", got)
	}
	x.eventually("greeting shown", func() (bool, string) { return x.visible(greeting), "hidden" })
}

func (s *suite) testClick(t *testing.T, x *session) {
	x.at("/act")
	details := x.byID("details")
	if x.visible(details) {
		t.Fatal("details visible before the click")
	}
	x.act(x.one(role("button", "Show more", true)), runtime.ActClick, "")
	x.eventually("details shown", func() (bool, string) { return x.visible(details), "hidden" })
	if got := x.text(x.byID("status")); got != "expanded" {
		t.Errorf("status = %q, want expanded", got)
	}
	x.expect(nil, nil, role("region", "Details", true), "details")
	x.expect(nil, nil, locator.Candidate{Strategy: locator.Text, Text: "Details here", Exact: true}, "")
}

func (s *suite) testSelect(t *testing.T, x *session) {
	x.at("/act")
	sel := x.one(role("combobox", "Colour", true))
	note := x.byID("green-note")
	if got := x.value(sel); got != "r" {
		t.Errorf("initial select value = %q, want r", got)
	}
	x.act(sel, runtime.ActSelect, "g")
	if got := x.value(sel); got != "g" {
		t.Errorf("select by value: value = %q, want g", got)
	}
	x.eventually("green note shown", func() (bool, string) { return x.visible(note), "hidden" })
	x.act(sel, runtime.ActSelect, "Red")
	if got := x.value(sel); got != "r" {
		t.Errorf("select by label: value = %q, want r", got)
	}
	x.eventually("green note hidden", func() (bool, string) { return !x.visible(note), "visible" })
}

func (s *suite) testCheck(t *testing.T, x *session) {
	x.at("/act")
	box := x.one(role("checkbox", "Newsletter", true))
	status := x.byID("status")
	x.act(box, runtime.ActCheck, "")
	x.eventually("subscribed", func() (bool, string) { s := x.text(status); return s == "subscribed", s })
	x.act(box, runtime.ActUncheck, "")
	x.eventually("unsubscribed", func() (bool, string) { s := x.text(status); return s == "unsubscribed", s })
}

func (s *suite) testPressHash(t *testing.T, x *session) {
	x.at("/act")
	q := x.one(role("searchbox", "Search", true))
	x.act(q, runtime.ActFill, "café")
	x.act(q, runtime.ActPress, "Enter")
	want := s.app + "/act#search/caf%C3%A9"
	x.eventually("hash route", func() (bool, string) { u := x.url(); return u == want, u })
	// a same-document navigation keeps handles valid
	if got := x.value(q); got != "café" {
		t.Errorf("value after hash navigation = %q", got)
	}
}

func (s *suite) testClickHash(t *testing.T, x *session) {
	x.at("/act")
	x.act(x.byID("q"), runtime.ActFill, "tea & cake")
	x.act(x.one(role("button", "Go", true)), runtime.ActClick, "")
	want := s.app + "/act#search/tea%20%26%20cake"
	x.eventually("hash route", func() (bool, string) { u := x.url(); return u == want, u })
}

func (s *suite) testRemoveAdd(t *testing.T, x *session) {
	x.at("/act")
	banner := x.byID("banner")
	x.act(x.one(role("button", "Dismiss banner", true)), runtime.ActClick, "")
	x.eventually("banner removed", func() (bool, string) {
		v, err := x.d.Visible(x.ctx, banner)
		return err == nil && !v, "visible or failing"
	})
	x.expect(nil, nil, locator.Candidate{Strategy: locator.Text, Text: "Welcome banner"})
	x.act(x.one(role("button", "Add row", true)), runtime.ActClick, "")
	rows := x.byID("rows")
	x.expect(nil, rows, role("listitem", "", false), "row-1", "row-2")
	x.expect(nil, nil, locator.Candidate{Strategy: locator.Text, Text: "Row 2", Exact: true}, "row-2")
}

func (s *suite) testLink(t *testing.T, x *session) {
	x.at("/act")
	x.act(x.one(role("link", "Home", true)), runtime.ActClick, "")
	x.eventually("home loaded", func() (bool, string) { u := x.url(); return u == s.app+"/", u })
	x.eventually("home rendered", func() (bool, string) {
		els, err := x.d.Find(x.ctx, nil, nil, role("heading", "Members", true))
		return err == nil && len(els) == 1, "no heading"
	})
}

func (s *suite) testRuleNavigation(t *testing.T, x *session) {
	x.at("/act")
	next := x.one(role("button", "Next page", true))
	x.act(next, runtime.ActClick, "")
	x.eventually("done loaded", func() (bool, string) { u := x.url(); return u == s.app+"/done", u })
	x.eventually("done rendered", func() (bool, string) {
		els, err := x.d.Find(x.ctx, nil, nil, role("heading", "Done", true))
		return err == nil && len(els) == 1, "no heading"
	})
	if _, err := x.d.Read(x.ctx, next, runtime.Read{Kind: runtime.ReadText}); !errors.Is(err, runtime.ErrStaleElement) {
		t.Errorf("Read of an element of the previous document: %v, want ErrStaleElement", err)
	}
}

func (s *suite) testRuleNavigationBlocked(t *testing.T, x *session) {
	x.at("/act")
	if err := x.d.Act(x.ctx, x.one(role("button", "Leave site", true)), runtime.Act{Kind: runtime.ActClick}); err != nil &&
		!errors.Is(err, runtime.ErrOriginBlocked) {
		t.Fatalf("click that navigates outside: %v", err)
	}
	x.violation(runtime.ViolationNavigation, s.outside)
	if u := x.url(); strings.HasPrefix(u, s.outside) {
		t.Errorf("URL() = %q after a blocked navigation", u)
	}
}

// testSettle: Settle is the causal barrier. On a quiet page it returns
// nil promptly; after a click whose navigation the scope blocks, the
// violation is reported by the very next Violations, with no waiting; a
// dialog the act opened makes it fail with ErrNativeDialog; after Close it
// fails with ErrClosed.
func (s *suite) testSettle(t *testing.T, x *session) {
	x.at("/act")
	start := time.Now()
	if err := x.d.Settle(x.ctx); err != nil {
		t.Fatalf("Settle on a quiet page: %v", err)
	}
	if d := time.Since(start); d > settleTimeout {
		t.Errorf("Settle on a quiet page took %v", d)
	}
	if vs, err := x.d.Violations(x.ctx); err != nil || len(vs) != 0 {
		t.Errorf("Violations() on a quiet page = %v, %v; want none", vs, err)
	}
	if err := x.d.Act(x.ctx, x.one(role("button", "Leave site", true)), runtime.Act{Kind: runtime.ActClick}); err != nil &&
		!errors.Is(err, runtime.ErrOriginBlocked) && !errors.Is(err, runtime.ErrStaleElement) {
		t.Fatalf("click that navigates outside: %v", err)
	}
	if err := x.d.Settle(x.ctx); err != nil {
		t.Fatalf("Settle after a blocked navigation: %v", err)
	}
	vs, err := x.d.Violations(x.ctx)
	if err != nil {
		t.Fatalf("Violations: %v", err)
	}
	found := false
	for _, v := range vs {
		found = found || (v.Kind == runtime.ViolationNavigation && v.Origin == s.outside)
	}
	if !found {
		t.Errorf("Violations() right after Settle = %s; want the blocked navigation to %s", formatViolations(vs), s.outside)
	}

	x.at("/act")
	err = x.d.Act(x.ctx, x.one(role("button", "Delete everything", true)), runtime.Act{Kind: runtime.ActClick})
	if err != nil && !errors.Is(err, runtime.ErrNativeDialog) {
		t.Fatalf("click that opens a dialog: %v", err)
	}
	if err := x.d.Settle(x.ctx); !errors.Is(err, runtime.ErrNativeDialog) {
		t.Errorf("Settle with a native dialog open = %v, want ErrNativeDialog", err)
	}
	if err := x.d.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := x.d.Settle(x.ctx); !errors.Is(err, runtime.ErrClosed) {
		t.Errorf("Settle after Close = %v, want ErrClosed", err)
	}
}

func (s *suite) testFrames(t *testing.T, x *session) {
	x.at("/frames")
	top, infos, err := x.d.Frame(x.ctx, nil)
	if err != nil || len(infos) != 0 || top == nil {
		t.Fatalf("Frame(nil) = %v, %v, %v", top, infos, err)
	}
	x.expect(top, nil, role("heading", "Frames", true), "")
	x.expect(top, nil, role("button", "Inner action", true))

	scope, infos, err := x.d.Frame(x.ctx, []string{"#outer"})
	if err != nil {
		t.Fatalf("Frame(#outer): %v", err)
	}
	if len(infos) != 1 || infos[0].Origin != s.widget || infos[0].Selector != "#outer" {
		t.Errorf("Frame(#outer) infos = %+v, want origin %s", infos, s.widget)
	}
	x.expect(scope, nil, role("heading", "Outer frame", true), "")

	scope, infos, err = x.d.Frame(x.ctx, []string{"iframe[title=Outer]", "#inner"})
	if err != nil {
		t.Fatalf("Frame(outer, inner): %v", err)
	}
	wantInfos := []runtime.FrameInfo{{Selector: "iframe[title=Outer]", Origin: s.widget}, {Selector: "#inner", Origin: s.app}}
	if !slices.Equal(infos, wantInfos) {
		t.Errorf("Frame(outer, inner) infos = %+v, want %+v", infos, wantInfos)
	}
	btn := x.find(scope, nil, role("button", "Inner action", true))
	if len(btn) != 1 {
		t.Fatalf("inner button: %d matches", len(btn))
	}
	x.act(btn[0], runtime.ActClick, "")
	st := x.find(scope, nil, css("#inner-status"))
	if len(st) != 1 {
		t.Fatalf("inner status: %d matches", len(st))
	}
	x.eventually("inner rule", func() (bool, string) { v := x.text(st[0]); return v == "clicked", v })
}

// testFrameURL: FrameURL reads each frame's own URL (a cross-origin frame
// included), nil is the top-level page, and a scope whose document was
// navigated away is stale.
func (s *suite) testFrameURL(t *testing.T, x *session) {
	x.at("/frames")
	if u, err := x.d.FrameURL(x.ctx, nil); err != nil || u != s.app+"/frames" {
		t.Errorf("FrameURL(nil) = %q, %v; want %q", u, err, s.app+"/frames")
	}
	outer, _, err := x.d.Frame(x.ctx, []string{"#outer"})
	if err != nil {
		t.Fatalf("Frame(#outer): %v", err)
	}
	if u, err := x.d.FrameURL(x.ctx, outer); err != nil || u != s.widget+"/outer" {
		t.Errorf("FrameURL(#outer) = %q, %v; want %q", u, err, s.widget+"/outer")
	}
	inner, _, err := x.d.Frame(x.ctx, []string{"#outer", "#inner"})
	if err != nil {
		t.Fatalf("Frame(#outer, #inner): %v", err)
	}
	if u, err := x.d.FrameURL(x.ctx, inner); err != nil || u != s.app+"/inner" {
		t.Errorf("FrameURL(#outer #inner) = %q, %v; want %q", u, err, s.app+"/inner")
	}
	if u := x.url(); u != s.app+"/frames" {
		t.Errorf("URL() = %q after reading frame URLs, want the top-level page", u)
	}
	x.at("/act")
	x.eventually("FrameURL of a frame navigated away is stale", func() (bool, string) {
		u, err := x.d.FrameURL(x.ctx, outer)
		return errors.Is(err, runtime.ErrStaleElement), fmt.Sprintf("%q, %v", u, err)
	})
}

func (s *suite) testFrameErrors(t *testing.T, x *session) {
	x.at("/frames")
	for _, c := range []struct {
		sel  []string
		want error
	}{
		{[]string{"#missing"}, runtime.ErrFrameNotFound},
		{[]string{"h1"}, runtime.ErrFrameNotFound},
		{[]string{".twin"}, runtime.ErrFrameAmbiguous},
		{[]string{"#outer", "#nope"}, runtime.ErrFrameNotFound},
	} {
		if _, _, err := x.d.Frame(x.ctx, c.sel); !errors.Is(err, c.want) {
			t.Errorf("Frame(%q) = %v, want %v", c.sel, err, c.want)
		}
	}
}

func (s *suite) testFrameBlocked(t *testing.T, x *session) {
	x.at("/frames")
	x.violation(runtime.ViolationFrame, s.outside)
	scope, infos, err := x.d.Frame(x.ctx, []string{"#ad"})
	if err != nil {
		if !errors.Is(err, runtime.ErrOriginBlocked) {
			t.Fatalf("Frame(#ad) = %v, want ErrOriginBlocked or an origin outside the scope", err)
		}
		return
	}
	if len(infos) != 1 || infos[0].Origin == s.app || infos[0].Origin == s.widget {
		t.Fatalf("Frame(#ad) infos = %+v: a blocked frame must not report an allowed origin", infos)
	}
	if els, err := x.d.Find(x.ctx, scope, nil, locator.Candidate{Strategy: locator.Text, Text: "Advert"}); err == nil && len(els) > 0 {
		t.Error("content of a blocked frame was found")
	}
}

func (s *suite) testNotInteractable(t *testing.T, x *session) {
	x.at("/")
	for _, id := range []string{"locked", "save-hidden"} {
		el := x.byID(id)
		ctx, cancel := context.WithTimeout(x.ctx, shortTimeout)
		start := time.Now()
		err := x.d.Act(ctx, el, runtime.Act{Kind: runtime.ActClick})
		took := time.Since(start)
		cancel()
		if !errors.Is(err, runtime.ErrNotInteractable) {
			t.Errorf("Act(click #%s) = %v, want ErrNotInteractable", id, err)
		}
		if took > shortTimeout+promptness {
			t.Errorf("Act(click #%s) took %v with a %v deadline", id, took, shortTimeout)
		}
	}
}

func (s *suite) testDownload(t *testing.T, x *session) {
	x.at("/act")
	pd, err := x.d.ArmDownload(x.ctx)
	if err != nil {
		t.Fatalf("ArmDownload: %v", err)
	}
	defer pd.Close()
	x.act(x.one(role("button", "Export CSV", true)), runtime.ActClick, "")
	ev, err := pd.Wait(x.ctx)
	if err != nil {
		t.Fatalf("Wait: %v", err)
	}
	if ev.GUID == "" || ev.State != runtime.DownloadCompleted {
		t.Errorf("event = %+v, want a GUID and state completed", ev)
	}
	if ev.SuggestedName != "report.csv" {
		t.Errorf("SuggestedName = %q, want report.csv", ev.SuggestedName)
	}
	want := s.site.Downloads["report"].Bytes()
	switch x.d.Info().DownloadRoute {
	case runtime.DownloadBrowserPath:
		got, err := os.ReadFile(ev.Path)
		if err != nil {
			t.Fatalf("browser_path route: read %q: %v", ev.Path, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("downloaded bytes = %q, want %q", got, want)
		}
	case runtime.DownloadDirectory:
		if ev.Path != "" {
			t.Errorf("directory route reported Path %q", ev.Path)
		}
	}
	if err := pd.Close(); err != nil {
		t.Errorf("PendingDownload.Close: %v", err)
	}
	if err := pd.Close(); err != nil {
		t.Errorf("second PendingDownload.Close: %v", err)
	}
}

func (s *suite) testDownloadMissing(t *testing.T, x *session) {
	x.at("/act")
	pd, err := x.d.ArmDownload(x.ctx)
	if err != nil {
		t.Fatalf("ArmDownload: %v", err)
	}
	defer pd.Close()
	x.act(x.one(role("button", "Do nothing", true)), runtime.ActClick, "")
	ctx, cancel := context.WithTimeout(x.ctx, shortTimeout)
	defer cancel()
	start := time.Now()
	_, err = pd.Wait(ctx)
	if !errors.Is(err, runtime.ErrDownloadEventMissing) {
		t.Errorf("Wait with no download = %v, want ErrDownloadEventMissing", err)
	}
	if took := time.Since(start); took > shortTimeout+promptness {
		t.Errorf("Wait took %v with a %v deadline", took, shortTimeout)
	}
}

func (s *suite) testDialog(t *testing.T, x *session) {
	x.at("/act")
	wipe := x.one(role("button", "Delete everything", true))
	if err := x.d.Act(x.ctx, wipe, runtime.Act{Kind: runtime.ActClick}); err != nil && !errors.Is(err, runtime.ErrNativeDialog) {
		t.Fatalf("click that opens a native dialog: %v, want nil or ErrNativeDialog", err)
	}
	x.eventually("dialog reported", func() (bool, string) {
		_, err := x.d.Find(x.ctx, nil, nil, role("button", "Save", true))
		if errors.Is(err, runtime.ErrNativeDialog) {
			return true, ""
		}
		return false, "Find error " + errString(err)
	})
}

func errString(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

func (s *suite) testCancellation(t *testing.T, x *session) {
	x.at("/")
	// a call with an already cancelled ctx fails at once
	done, cancel := context.WithCancel(x.ctx)
	cancel()
	start := time.Now()
	if err := x.d.Navigate(done, s.app+"/act"); err == nil {
		t.Error("Navigate with a cancelled ctx succeeded")
	}
	if took := time.Since(start); took > promptness {
		t.Errorf("Navigate with a cancelled ctx took %v", took)
	}
	// a blocking wait returns promptly when its ctx is cancelled
	pd, err := x.d.ArmDownload(x.ctx)
	if err != nil {
		t.Fatalf("ArmDownload: %v", err)
	}
	defer pd.Close()
	ctx, cancel2 := context.WithCancel(x.ctx)
	timer := time.AfterFunc(100*time.Millisecond, cancel2)
	defer timer.Stop()
	start = time.Now()
	_, err = pd.Wait(ctx)
	if !errors.Is(err, runtime.ErrDownloadEventMissing) {
		t.Errorf("Wait after cancel = %v, want ErrDownloadEventMissing", err)
	}
	if took := time.Since(start); took > 100*time.Millisecond+promptness {
		t.Errorf("Wait returned %v after start; cancellation must be honoured within %v", took, promptness)
	}
	// so does an Act waiting for a disabled element (found before the
	// clock starts: the Find is not the wait under test, and on a
	// saturated CPU it alone took longer than the cancellation)
	locked := x.byID("locked")
	ctx3, cancel3 := context.WithCancel(x.ctx)
	timer3 := time.AfterFunc(100*time.Millisecond, cancel3)
	defer timer3.Stop()
	start = time.Now()
	if err := x.d.Act(ctx3, locked, runtime.Act{Kind: runtime.ActClick}); err == nil {
		t.Error("Act on a disabled element succeeded")
	}
	if took := time.Since(start); took > 100*time.Millisecond+promptness {
		t.Errorf("Act returned %v after start; cancellation must be honoured within %v", took, promptness)
	}
}

// testNilArguments: a nil ctx on every call and a nil element on every
// element call fail with runtime.ErrInvalidArgument, never a panic, and
// leave the driver usable.
func (s *suite) testNilArguments(t *testing.T, x *session) {
	x.at("/")
	var nilCtx context.Context
	want := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, runtime.ErrInvalidArgument) {
			t.Errorf("%s = %v, want ErrInvalidArgument", what, err)
		}
	}
	want("RestrictOrigins(nil ctx)", x.d.RestrictOrigins(nilCtx, runtime.OriginScope{Allowed: []string{s.app}}))
	_, err := x.d.Violations(nilCtx)
	want("Violations(nil ctx)", err)
	want("Navigate(nil ctx)", x.d.Navigate(nilCtx, s.app+"/act"))
	_, err = x.d.URL(nilCtx)
	want("URL(nil ctx)", err)
	_, _, err = x.d.Frame(nilCtx, nil)
	want("Frame(nil ctx)", err)
	_, err = x.d.FrameURL(nilCtx, nil)
	want("FrameURL(nil ctx)", err)
	_, err = x.d.Find(nilCtx, nil, nil, css("#save"))
	want("Find(nil ctx)", err)
	el := x.byID("save")
	want("Act(nil ctx)", x.d.Act(nilCtx, el, runtime.Act{Kind: runtime.ActClick}))
	_, err = x.d.Read(nilCtx, el, runtime.Read{Kind: runtime.ReadText})
	want("Read(nil ctx)", err)
	_, err = x.d.Visible(nilCtx, el)
	want("Visible(nil ctx)", err)
	_, err = x.d.ArmDownload(nilCtx)
	want("ArmDownload(nil ctx)", err)
	want("Act(nil element)", x.d.Act(x.ctx, nil, runtime.Act{Kind: runtime.ActClick}))
	_, err = x.d.Read(x.ctx, nil, runtime.Read{Kind: runtime.ReadText})
	want("Read(nil element)", err)
	_, err = x.d.Visible(x.ctx, nil)
	want("Visible(nil element)", err)
	pd, err := x.d.ArmDownload(x.ctx)
	if err != nil {
		t.Fatalf("ArmDownload: %v", err)
	}
	_, err = pd.Wait(nilCtx)
	want("PendingDownload.Wait(nil ctx)", err)
	_ = pd.Close()
	// Still usable.
	if u, err := x.d.URL(x.ctx); err != nil || u != s.app+"/" {
		t.Errorf("URL after the nil calls = %q, %v", u, err)
	}
}

func (s *suite) testClose(t *testing.T, x *session) {
	x.at("/")
	el := x.byID("save")
	if err := x.d.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := x.d.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if _, err := x.d.URL(x.ctx); !errors.Is(err, runtime.ErrClosed) {
		t.Errorf("URL after Close = %v, want ErrClosed", err)
	}
	if err := x.d.Navigate(x.ctx, s.app+"/"); !errors.Is(err, runtime.ErrClosed) {
		t.Errorf("Navigate after Close = %v, want ErrClosed", err)
	}
	if _, err := x.d.Find(x.ctx, nil, nil, css("#save")); !errors.Is(err, runtime.ErrClosed) {
		t.Errorf("Find after Close = %v, want ErrClosed", err)
	}
	if err := x.d.Act(x.ctx, el, runtime.Act{Kind: runtime.ActClick}); !errors.Is(err, runtime.ErrClosed) {
		t.Errorf("Act after Close = %v, want ErrClosed", err)
	}
	if _, err := x.d.ArmDownload(x.ctx); !errors.Is(err, runtime.ErrClosed) {
		t.Errorf("ArmDownload after Close = %v, want ErrClosed", err)
	}
}
