package runtime_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/runtimetest"
)

// namingDriver is the fake with the optional NearestNamer extension: it
// lists the button names a real page would, so the runtime's handling of
// the answer (ranking kept, sanitizing, bounds) is tested without a
// browser. What the browser itself names is tested in runtime/browser.
type namingDriver struct {
	*runtimetest.Driver
	names []string
	calls int
}

func (d *namingDriver) NearestNames(ctx context.Context, _ runtime.Scope, _ runtime.Element, c locator.Candidate, n int) ([]locator.NearName, error) {
	d.calls++
	return locator.NearestNames(c.Name, d.names, n), nil
}

// stuckDriver fails every act with an actionability error.
type stuckDriver struct{ *runtimetest.Driver }

type stuckErr struct{ a runtime.Actionability }

func (e stuckErr) Error() string                        { return "element not interactable: covered" }
func (e stuckErr) Unwrap() error                        { return runtime.ErrNotInteractable }
func (e stuckErr) Actionability() runtime.Actionability { return e.a }

func (d stuckDriver) Act(ctx context.Context, el runtime.Element, a runtime.Act) error {
	return stuckErr{runtime.Actionability{Check: "receives_events", Detail: "covered by <div class=backdrop> for member alice.smith@example.com",
		HasPoint: true, AtX: 640, AtY: 30, X: 600, Y: 10, W: 80, H: 40, ViewportW: 1280, ViewportH: 720}}
}

func causeSite() *runtimetest.Site {
	return site(map[string]*runtimetest.Page{"/": page(button("b1", "GET /api /pets /{petId} Info for a specific pet"), button("b2", "Go"), button("b3", "Go"), textbox("q", "Query"))})
}

func TestCauseMissCountsAndNearestNames(t *testing.T) {
	c := newCap("/", milestone("m", click("open", textVisible("Pet details"),
		role("button", "GET /api/pets/{petId}"), role("button", "Go"), testID("nope"))))
	mustValid(t, c)
	d := &namingDriver{Driver: runtimetest.NewDriver(causeSite()),
		names: []string{"GET /api /pets /{petId} Info for a specific pet", "Go", "Go", "Wire to DE89370400440532013000"}}
	defer d.Close()
	dir := t.TempDir()
	res := exec(t, c, d, nil, runtime.WithPollInterval(time.Millisecond), runtime.WithRunDir(dir))
	if res.State != receipt.TerminalRecoveryRequested || res.Failure.Category != receipt.CategoryLocatorNotFound {
		t.Fatalf("state %s failure %+v", res.State, res.Failure)
	}
	cause := res.Cause
	if cause == nil || res.Actions[0].Cause != cause {
		t.Fatalf("cause %+v, action cause %+v", cause, res.Actions[0].Cause)
	}
	if cause.Action != "open" || len(cause.Frame) != 0 || len(cause.Candidates) != 3 {
		t.Fatalf("cause = %+v", cause)
	}
	c0, c1, c2 := cause.Candidates[0], cause.Candidates[1], cause.Candidates[2]
	if c0.Reason != locator.ReasonNoMatch || c0.Locator != `role=button[name="GET /api/pets/{petId}" exact]` {
		t.Errorf("candidate 0 = %+v", c0)
	}
	if len(c0.Nearest) == 0 || c0.Nearest[0].Name != "GET /api /pets /{petId} Info for a specific pet" ||
		!slicesEqual(c0.Nearest[0].Diffs, []locator.NameDiff{locator.DiffWhitespace, locator.DiffExtraText}) {
		t.Errorf("nearest = %+v", c0.Nearest)
	}
	for _, n := range c0.Nearest {
		if strings.Contains(n.Name, "DE89370400440532013000") {
			t.Errorf("an identifier-shaped name was not redacted: %q", n.Name)
		}
	}
	if c1.Reason != locator.ReasonAmbiguous || c1.Matches != 2 {
		t.Errorf("candidate 1 = %+v", c1)
	}
	if c2.Reason != locator.ReasonNoMatch || c2.NearestNote == "" || len(c2.Nearest) != 0 {
		t.Errorf("candidate 2 = %+v", c2)
	}
	s := cause.String()
	for _, want := range []string{"action open in the top document", "candidate 1 role=button[name=\"Go\" exact]: ambiguous (2)", "(whitespace, extra_text)"} {
		if !strings.Contains(s, want) {
			t.Errorf("String() lacks %q:\n%s", want, s)
		}
	}
	if len(s) > runtime.MaxCauseLen {
		t.Errorf("String() is %d bytes", len(s))
	}
	assertNotInFiles(t, dir, "Info for a specific pet", "nearest", "ambiguous (2)")
}

func TestCauseTemplatedNameListsNoNames(t *testing.T) {
	c := newCap("/", milestone("m", click("open", textVisible("Pet details"), role("button", "Member {{member}}"))))
	c.Inputs = []capability.Input{{Name: "member", Type: capability.InputString, Required: true}}
	mustValid(t, c)
	d := &namingDriver{Driver: runtimetest.NewDriver(causeSite()), names: []string{"Member Alice Smith (closed)"}}
	defer d.Close()
	res := exec(t, c, d, map[string]any{"member": "Alice Smith"}, runtime.WithPollInterval(time.Millisecond))
	if res.Cause == nil || len(res.Cause.Candidates) != 1 {
		t.Fatalf("cause %+v", res.Cause)
	}
	cc := res.Cause.Candidates[0]
	if d.calls != 0 || len(cc.Nearest) != 0 || cc.NearestNote == "" || strings.Contains(res.Cause.String(), "Alice") {
		t.Errorf("templated candidate: calls %d, %+v, %s", d.calls, cc, res.Cause)
	}
	if cc.Locator != `role=button[name="Member {{member}}" exact]` {
		t.Errorf("locator %q, want the unsubstituted template", cc.Locator)
	}
}

func TestCauseNotInteractable(t *testing.T) {
	c := newCap("/", milestone("m", fill("type", "member", textVisible("Pet details"), label("Query"))))
	c.Inputs = []capability.Input{{Name: "member", Type: capability.InputString, Required: true}}
	mustValid(t, c)
	d := stuckDriver{runtimetest.NewDriver(causeSite())}
	defer d.Close()
	dir := t.TempDir()
	res := exec(t, c, d, map[string]any{"member": "alice.smith"}, runtime.WithPollInterval(time.Millisecond), runtime.WithRunDir(dir))
	if res.State != receipt.TerminalFailed || res.Cause == nil || res.Cause.Actionability == nil {
		t.Fatalf("state %s cause %+v", res.State, res.Cause)
	}
	a := res.Cause.Actionability
	if a.Check != "receives_events" || a.W != 80 || a.ViewportW != 1280 || !a.HasPoint {
		t.Errorf("actionability %+v", a)
	}
	if strings.Contains(a.Detail, "alice.smith") {
		t.Errorf("an input value reached the cause: %q", a.Detail)
	}
	if len(res.Cause.Candidates) != 1 || res.Cause.Candidates[0].Matches != 1 || res.Cause.Candidates[0].Reason != "" {
		t.Errorf("candidates %+v", res.Cause.Candidates)
	}
	s := res.Cause.String()
	if !strings.Contains(s, "not interactable: receives_events check") || !strings.Contains(s, "box {x:600 y:10 w:80 h:40}; viewport 1280x720") {
		t.Errorf("String() = %s", s)
	}
	assertNotInFiles(t, dir, "receives_events", "backdrop")
}

func TestCauseAbsentOnSuccess(t *testing.T) {
	c := newCap("/", milestone("m", click("go", visible(role("button", "Go")), role("button", "GET /api /pets /{petId} Info for a specific pet"))))
	d := runtimetest.NewDriver(causeSite())
	defer d.Close()
	res := exec(t, c, d, nil)
	if res.State != receipt.TerminalCompleted || res.Cause != nil || res.Actions[0].Cause != nil {
		t.Fatalf("state %s cause %+v", res.State, res.Cause)
	}
}

func TestCauseStringBounded(t *testing.T) {
	c := &runtime.Cause{Action: "a"}
	for i := range 200 {
		c.Candidates = append(c.Candidates, runtime.CandidateCause{Index: i, Locator: strings.Repeat("é", 100), Reason: locator.ReasonNoMatch})
	}
	if s := c.String(); len(s) > runtime.MaxCauseLen || !strings.HasSuffix(s, "…") {
		t.Errorf("len %d", len(s))
	}
	var nilCause *runtime.Cause
	if nilCause.String() != "" {
		t.Error("nil cause renders")
	}
}

// assertNotInFiles fails when any file under dir holds one of the texts:
// the cause is local only.
func assertNotInFiles(t *testing.T, dir string, texts ...string) {
	t.Helper()
	n := 0
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		n++
		for _, s := range texts {
			if strings.Contains(string(b), s) {
				t.Errorf("%s holds %q", p, s)
			}
		}
		return nil
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatalf("no evidence files under %s", dir)
	}
}

func slicesEqual[T comparable](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestCauseFakeDriverNames: the fake driver lists its fixture's names
// too, so host unit tests see the same kind of cause as a live run.
func TestCauseFakeDriverNames(t *testing.T) {
	c := newCap("/", milestone("m", click("open", textVisible("Pet details"), role("button", "get /api/pets/{petId} info for a specific pet"))))
	d := runtimetest.NewDriver(causeSite())
	defer d.Close()
	res := exec(t, c, d, nil, runtime.WithPollInterval(time.Millisecond))
	if res.Cause == nil || len(res.Cause.Candidates) != 1 {
		t.Fatalf("cause %+v", res.Cause)
	}
	n := res.Cause.Candidates[0].Nearest
	if len(n) == 0 || n[0].Name != "GET /api /pets /{petId} Info for a specific pet" ||
		!slicesEqual(n[0].Diffs, []locator.NameDiff{locator.DiffWhitespace, locator.DiffCase}) {
		t.Errorf("nearest %+v", n)
	}
}
