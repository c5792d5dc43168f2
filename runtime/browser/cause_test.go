package browser

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/testsite"
	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
)

// apidoc starts the API docs app and opens it in the shared driver, with
// the operation list rendered.
func apidoc(t *testing.T) (*Driver, *testsite.APIDoc, context.Context) {
	t.Helper()
	d := shared(t)
	app, err := testsite.StartAPIDoc()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(app.Close)
	ctx := tctx(t, 30*time.Second)
	if err := d.RestrictOrigins(ctx, runtime.OriginScope{Allowed: []string{app.Origin()}}); err != nil {
		t.Fatal(err)
	}
	if err := d.Navigate(ctx, app.Origin()+testsite.APIDocPath); err != nil {
		t.Fatal(err)
	}
	waitFound(t, ctx, d, nil, roleC("heading", "Swagger Petstore 1.0.0", false))
	return d, app, ctx
}

func roleC(role, name string, exact bool) locator.Candidate {
	return locator.Candidate{Strategy: locator.Role, Role: role, Name: name, Exact: exact}
}

// waitFound polls Find until the candidate matches (the page renders
// after a fetch), bounded by ctx.
func waitFound(t *testing.T, ctx context.Context, d *Driver, sc runtime.Scope, c locator.Candidate) []runtime.Element {
	t.Helper()
	for {
		els, err := d.Find(ctx, sc, nil, c)
		if err != nil {
			t.Fatalf("Find %s: %v", c, err)
		}
		if len(els) > 0 {
			return els
		}
		select {
		case <-ctx.Done():
			t.Fatalf("%s never matched: %v", c, ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// TestExplainLocator: Chromium's accessible names of the Swagger-like
// operation buttons (<wbr> in the path, a description after it) against
// what an author would type, and the differences ExplainLocator names.
func TestExplainLocator(t *testing.T) {
	d, _, ctx := apidoc(t)
	tests := []struct {
		name      string
		c         locator.Candidate
		matches   int
		nearest   string
		diffs     []locator.NameDiff
		roleCount int
	}{
		{"wbr and description", roleC("button", "GET /api/pets/{petId}", true), 0,
			"GET /api /pets /{petId} Info for a specific pet", []locator.NameDiff{locator.DiffWhitespace, locator.DiffExtraText}, 7},
		{"wbr only", roleC("button", "DELETE /api/pets/{petId}", true), 0,
			"DELETE /api /pets /{petId}", []locator.NameDiff{locator.DiffWhitespace}, 7},
		{"case", roleC("button", "Pets", true), 0, "pets", []locator.NameDiff{locator.DiffCase}, 7},
		{"extra text", roleC("button", "GET /api /pets /{petId}", true), 0,
			"GET /api /pets /{petId} Info for a specific pet", []locator.NameDiff{locator.DiffExtraText}, 7},
		{"missing text", roleC("button", "DELETE /api /pets /{petId} Remove a pet", true), 0,
			"DELETE /api /pets /{petId}", []locator.NameDiff{locator.DiffMissingText}, 7},
		{"changed word", roleC("button", "GET /api /store /inventory Returns all pet inventories", true), 0,
			"GET /api /store /inventory Returns pet inventories", []locator.NameDiff{locator.DiffOther}, 7},
		{"exact name matches", roleC("button", "GET /api /pets /{petId} Info for a specific pet", true), 1,
			"GET /api /pets /{petId} Info for a specific pet", nil, 7},
		{"substring matches", roleC("button", "get /api /pets", false), 2, "", nil, 7},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ex, err := d.ExplainLocator(ctx, nil, tt.c)
			if err != nil {
				t.Fatal(err)
			}
			if ex.Matches != tt.matches || ex.RoleCount != tt.roleCount || ex.Candidate != tt.c.String() {
				t.Fatalf("explanation %+v", ex)
			}
			if tt.nearest == "" {
				return
			}
			if len(ex.Nearest) == 0 || ex.Nearest[0].Name != tt.nearest || !slices.Equal(ex.Nearest[0].Diffs, tt.diffs) {
				t.Fatalf("nearest %v, want %q %v", ex.Nearest, tt.nearest, tt.diffs)
			}
			if len(ex.Nearest) > DefaultExplainNames {
				t.Errorf("%d names listed", len(ex.Nearest))
			}
		})
	}
}

// TestExplainAfterRerender: names follow the page's state; the expanded
// operation has unnamed textboxes, which count but are no hint.
func TestExplainAfterRerender(t *testing.T) {
	d, _, ctx := apidoc(t)
	op := waitFound(t, ctx, d, nil, roleC("button", "GET /api /pets /{petId} Info for a specific pet", true))
	if err := d.Act(ctx, op[0], runtime.Act{Kind: runtime.ActClick}); err != nil {
		t.Fatal(err)
	}
	try := waitFound(t, ctx, d, nil, roleC("button", "Try it out", true))
	if err := d.Act(ctx, try[0], runtime.Act{Kind: runtime.ActClick}); err != nil {
		t.Fatal(err)
	}
	waitFound(t, ctx, d, nil, roleC("button", "Execute", true))
	ex, err := d.ExplainLocator(ctx, nil, roleC("textbox", "Pet id", true))
	if err != nil {
		t.Fatal(err)
	}
	// Swagger's parameter input has no label: Chromium names it by its
	// placeholder, "petId".
	if ex.Matches != 0 || ex.RoleCount != 1 || len(ex.Nearest) != 1 || ex.Nearest[0].Name != "petId" ||
		!slices.Equal(ex.Nearest[0].Diffs, []locator.NameDiff{locator.DiffWhitespace, locator.DiffCase}) {
		t.Errorf("placeholder-named textbox: %+v", ex)
	}
	ex, err = d.ExplainLocator(ctx, nil, roleC("button", "Try it", true))
	if err != nil {
		t.Fatal(err)
	}
	// "Try it out" became "Cancel" in the new render.
	if ex.RoleCount != 9 || len(ex.Nearest) == 0 || ex.Nearest[0].Name == "Try it out" {
		t.Errorf("after the re-render: %+v", ex)
	}
	// The page works like the real one: fill the unnamed input (by its
	// placeholder name), execute, read the JSON response block.
	box := waitFound(t, ctx, d, nil, roleC("textbox", "petId", true))
	if err := d.Act(ctx, box[0], runtime.Act{Kind: runtime.ActFill, Value: "2"}); err != nil {
		t.Fatal(err)
	}
	exe := waitFound(t, ctx, d, nil, roleC("button", "Execute", true))
	if err := d.Act(ctx, exe[0], runtime.Act{Kind: runtime.ActClick}); err != nil {
		t.Fatal(err)
	}
	body := waitFound(t, ctx, d, nil, locator.Candidate{Strategy: locator.TestID, TestID: "response-body"})
	txt, err := d.Read(ctx, body[0], runtime.Read{Kind: runtime.ReadText})
	if err != nil || !strings.Contains(txt, `"name": "Tom"`) {
		t.Errorf("response %q: %v", txt, err)
	}
	// The re-render replaced the Execute button: the old handle is stale.
	if ok, err := d.Visible(ctx, exe[0]); err == nil && ok {
		t.Errorf("the Execute button of the previous render is still visible")
	}
}

func TestExplainLocatorErrors(t *testing.T) {
	d, _, ctx := apidoc(t)
	if _, err := d.ExplainLocator(ctx, nil, locator.Candidate{Strategy: locator.Role}); !errors.Is(err, runtime.ErrInvalidArgument) {
		t.Errorf("no role: %v", err)
	}
	if _, err := d.NearestNames(ctx, nil, nil, locator.Candidate{Strategy: locator.CSS, CSS: "button"}, 3); !errors.Is(err, runtime.ErrInvalidArgument) {
		t.Errorf("css: %v", err)
	}
	ex, err := d.ExplainLocator(ctx, nil, locator.Candidate{Strategy: locator.CSS, CSS: "button.opblock-summary"})
	if err != nil || ex.Matches != 5 || ex.Nearest != nil {
		t.Errorf("css: %+v %v", ex, err)
	}
	//nolint:staticcheck // a nil ctx is the misuse under test
	if _, err := d.ExplainLocator(nil, nil, roleC("button", "x", true)); !errors.Is(err, runtime.ErrInvalidArgument) {
		t.Errorf("nil ctx: %v", err)
	}
}

// TestCauseMissInChromium: a run whose exact candidate misses the <wbr>
// name gets a local cause with the counts and the nearest names, and
// none of it reaches the evidence.
func TestCauseMissInChromium(t *testing.T) {
	d, app, ctx := apidoc(t)
	a := barrierClick("open_pet", capability.EffectReadOnly, textCond("Parameters"), roleC("button", "GET /api/pets/{petId}", true))
	a.LocatorCandidates = append(a.LocatorCandidates, roleC("button", "get /api /pets", false))
	a.TimeoutMS = 1500
	c := barrierCap(app.Origin(), testsite.APIDocPath, a)
	res := execute(t, ctx, d, c, nil)
	if res.State != receipt.TerminalRecoveryRequested || res.Cause == nil {
		t.Fatalf("%s cause %+v", describeResult(res), res.Cause)
	}
	cs := res.Cause.Candidates
	if len(cs) != 2 || cs[0].Reason != locator.ReasonNoMatch || cs[1].Reason != locator.ReasonAmbiguous || cs[1].Matches != 2 {
		t.Fatalf("candidates %+v", cs)
	}
	if len(cs[0].Nearest) == 0 || cs[0].Nearest[0].Name != "GET /api /pets /{petId} Info for a specific pet" {
		t.Fatalf("nearest %+v (%s)", cs[0].Nearest, cs[0].NearestNote)
	}
	t.Log(res.Cause)
	assertNoCauseInFiles(t, res.RunDir, "Info for a specific pet", "whitespace", "extra_text")
}

// TestCauseMissInFrame: the cause names the frame path, and the nearest
// names come from the framed document (the top document has no buttons
// of that name).
func TestCauseMissInFrame(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	ctx := tctx(t, 60*time.Second)
	a := barrierClick("export", capability.EffectReadOnly, textCond("Invoices"), roleC("button", "export csv", true))
	a.TimeoutMS = 1500
	c := barrierCap(s.Invoicing.Origin(), "/billing", a)
	c.Site.AllowedOrigins = []string{s.Invoicing.Origin(), s.Invoicing.WorkspaceOrigin()}
	c.Runtime.FrameSelectors = ledgerPath
	res := execute(t, ctx, d, c, nil)
	if res.Cause == nil || !slices.Equal(res.Cause.Frame, ledgerPath) || len(res.Cause.Candidates) != 1 {
		t.Fatalf("%s cause %+v", describeResult(res), res.Cause)
	}
	n := res.Cause.Candidates[0].Nearest
	if len(n) == 0 || n[0].Name != "Export CSV" || !slices.Equal(n[0].Diffs, []locator.NameDiff{locator.DiffCase}) {
		t.Fatalf("nearest %+v", n)
	}
	if !strings.Contains(res.Cause.String(), "in frame iframe#workspace > iframe#ledger") {
		t.Errorf("String() = %s", res.Cause)
	}
	assertNoCauseInFiles(t, res.RunDir, "Export CSV", "iframe#workspace > iframe#ledger")
}

// TestCauseNotInteractableInChromium: a button under a backdrop that
// never lifts fails with the actionability check, the box and the
// viewport in the local cause.
func TestCauseNotInteractableInChromium(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	ctx := tctx(t, 60*time.Second)
	a := barrierClick("below", capability.EffectReadOnly, textCond("never"), roleC("button", "Right action", true))
	a.TimeoutMS = 1500
	c := barrierCap(s.Stress.Origin(), "/stress/fold/busy", a)
	res := execute(t, ctx, d, c, nil)
	if res.State != receipt.TerminalFailed || res.Cause == nil || res.Cause.Actionability == nil {
		t.Fatalf("%s cause %+v", describeResult(res), res.Cause)
	}
	ac := res.Cause.Actionability
	if ac.Check == "" || ac.W <= 0 || ac.H <= 0 || ac.ViewportW != 1280 || ac.ViewportH <= 0 {
		t.Errorf("actionability %+v", ac)
	}
	if len(res.Cause.Candidates) != 1 || res.Cause.Candidates[0].Matches != 1 {
		t.Errorf("candidates %+v", res.Cause.Candidates)
	}
	t.Log(res.Cause)
	assertNoCauseInFiles(t, res.RunDir, "viewport 1280", ac.Check+" check")
}

// assertNoCauseInFiles fails when a file of the run directory holds one
// of the texts.
func assertNoCauseInFiles(t *testing.T, dir string, texts ...string) {
	t.Helper()
	files := 0
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		files++
		for _, s := range texts {
			if strings.Contains(string(b), s) {
				t.Errorf("%s holds %q", filepath.Base(p), s)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 3 {
		t.Fatalf("only %d evidence files in %s", files, dir)
	}
}
