package browser

import (
	"slices"
	"testing"

	"github.com/vera-run/vera/locator"
)

// TestUserAgentShadowParts: on a page with date, time, number, range and
// colour inputs, whose inner parts (the date picker's button, the
// spin fields) Chromium's accessibility tree lists from the user agent's
// shadow roots, the accessibility-tree paths (the role query findRole
// falls back to, the role names an explanation lists) answer with the
// page's own elements only, and the renderer lives: the page-side
// filter once read ShadowRoot.mode on such a part, which kills
// Chromium's renderer, so any role query that fell back to the tree on a
// page with a date input crashed the run.
func TestUserAgentShadowParts(t *testing.T) {
	t.Parallel()
	p := openFields(t)
	ctx, d := p.ctx, p.d
	doc, err := d.document(ctx, d.top)
	if err != nil {
		t.Fatal(err)
	}
	for _, role := range []string{"button", "spinbutton", "slider", "textbox", "combobox"} {
		// The whole tree's answer (what findRole asks when the page
		// cannot narrow the candidates).
		els, err := d.queryRole(ctx, d.top, doc, "", locator.Candidate{Strategy: locator.Role, Role: role})
		if err != nil {
			t.Fatalf("role %s, accessibility tree: %v", role, err)
		}
		for _, e := range els {
			var inPage bool
			if _, err := d.callOn(ctx, d.top.sid, e.obj, `function(){ return this.getRootNode() === document }`, true, &inPage); err != nil {
				t.Fatal(err)
			}
			if !inPage {
				t.Errorf("role %s: the accessibility tree's answer kept an element outside the document's tree", role)
			}
		}
		names, err := d.NearestNames(ctx, p.top, nil, locator.Candidate{Strategy: locator.Role, Role: role, Name: "Show date picker"}, 50)
		if err != nil {
			t.Fatalf("role %s, nearest names: %v", role, err)
		}
		for _, n := range names {
			if n.Name == "Show date picker" || n.Name == "Show time picker" || n.Name == "Month" || n.Name == "Hours" {
				t.Errorf("role %s: nearest names list a user-agent part %q", role, n.Name)
			}
		}
		if role == "button" && !slices.ContainsFunc(names, func(n locator.NearName) bool { return n.Name == "Done" }) {
			t.Errorf("role button: nearest names %v lack the page's button Done", names)
		}
	}
	// The spin fields are not the page's: Find answers with the number
	// input only.
	els, err := d.Find(ctx, p.top, nil, locator.Candidate{Strategy: locator.Role, Role: "spinbutton"})
	if err != nil {
		t.Fatal(err)
	}
	if len(els) != 1 {
		t.Errorf("Find spinbutton = %d elements, want 1 (Guests)", len(els))
	}
	if _, err := d.callOn(ctx, d.top.sid, doc, `function(){ return 1 }`, true, nil); err != nil {
		t.Fatalf("page after the lookups: %v", err)
	}
}
