package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/runtime"
)

// openComponents opens /stress/components/<n> and waits for its custom
// elements to be defined (the status line inside two shadow roots).
func openComponents(t *testing.T, ctx context.Context, d *Driver, origin string, n int) runtime.Scope {
	t.Helper()
	if err := d.RestrictOrigins(ctx, runtime.OriginScope{Allowed: []string{origin}}); err != nil {
		t.Fatal(err)
	}
	if err := d.Navigate(ctx, fmt.Sprintf("%s/stress/components/%d", origin, n)); err != nil {
		t.Fatal(err)
	}
	top, _, err := d.Frame(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	findOne(t, ctx, d, top, locator.Candidate{Strategy: locator.TestID, TestID: "sync-status"})
	return top
}

// describe names an element by tag-less facts the test can compare: its
// id, name or class attribute and its text.
func describe(t *testing.T, ctx context.Context, d *Driver, el runtime.Element) string {
	t.Helper()
	var parts []string
	for _, a := range []string{"id", "name", "class"} {
		v, err := d.Read(ctx, el, runtime.Read{Kind: runtime.ReadAttribute, Name: a})
		if err != nil {
			t.Fatalf("read %s: %v", a, err)
		}
		if v != "" {
			parts = append(parts, a+"="+v)
		}
	}
	v, err := d.Read(ctx, el, runtime.Read{Kind: runtime.ReadText})
	if err != nil {
		t.Fatalf("read text: %v", err)
	}
	return strings.Join(append(parts, fmt.Sprintf("%q", v)), " ")
}

func describeAll(t *testing.T, ctx context.Context, d *Driver, els []runtime.Element) []string {
	t.Helper()
	out := make([]string, len(els))
	for i, el := range els {
		out[i] = describe(t, ctx, d, el)
	}
	return out
}

// TestShadowDOMLocators runs every locator strategy against open shadow
// roots (nested, slotted, declarative, a custom element button), on a
// small page and on the large-page path (more than maxRoleCandidates
// buttons), and checks that a closed shadow root stays invisible.
func TestShadowDOMLocators(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	cases := []struct {
		c    locator.Candidate
		want []string
	}{
		// Role and name from the accessibility tree, two shadow roots deep.
		{role("button", "Sincronizza"), []string{`id=sync class=primary "Sincronizza"`}},
		// A custom element that is a button (ElementInternals), named by
		// its shadow content.
		{role("button", "Aggiorna"), []string{`id=refresh "↻ Aggiorna"`}},
		// Slotted buttons are found once, at their light-DOM position.
		{role("button", "Conferma"), []string{`id=confirm "Conferma"`}},
		{role("toolbar", "Azioni"), []string{`class=bar "Annulla Conferma"`}},
		{role("heading", "Sincronizzazione"), []string{`id=sync-title "Sincronizzazione"`}},
		{role("textbox", "Codice cliente"), []string{`id=control name=customer ""`}},
		// The closed shadow root's button is in the accessibility tree but
		// no page script can reach it: not found.
		{role("button", "Segreto"), nil},
		// Labels: <label for> in the shadow root with slotted text, a
		// wrapping label, aria-labelledby within the root, a control
		// slotted into a shadow label.
		{locator.Candidate{Strategy: locator.Label, Label: "Codice cliente", Exact: true}, []string{`id=control name=customer ""`}},
		{locator.Candidate{Strategy: locator.Label, Label: "email di recapito"}, []string{`id=control name=email ""`}},
		{locator.Candidate{Strategy: locator.Label, Label: "Note", Exact: true}, []string{`name=note ""`}},
		{locator.Candidate{Strategy: locator.Label, Label: "Riferimento", Exact: true}, []string{`name=ref ""`}},
		{locator.Candidate{Strategy: locator.Label, Label: "Ricevi notifiche", Exact: true}, []string{`name=optin ""`}},
		{locator.Candidate{Strategy: locator.Placeholder, Placeholder: "nome@esempio.it", Exact: true}, []string{`id=control name=email ""`}},
		{locator.Candidate{Strategy: locator.TestID, TestID: "sync-status"}, []string{`class=status "Ultima sincronizzazione: mai"`}},
		// Text: shadow text, text composed from slotted nodes (found in the
		// shadow tree where it renders), a slotted element (once), and
		// closed content (never).
		{locator.Candidate{Strategy: locator.Text, Text: "Ultima sincronizzazione: mai", Exact: true}, []string{`class=status "Ultima sincronizzazione: mai"`}},
		{locator.Candidate{Strategy: locator.Text, Text: "Benvenuto, Mario!", Exact: true}, []string{`class=greet "Benvenuto, Mario!"`}},
		{locator.Candidate{Strategy: locator.Text, Text: "Mario", Exact: true}, []string{`"Mario"`}},
		{locator.Candidate{Strategy: locator.Text, Text: "Conferma", Exact: true}, []string{`id=confirm "Conferma"`}},
		{locator.Candidate{Strategy: locator.Text, Text: "Contenuto riservato"}, nil},
		// CSS crossing shadow boundaries, per compound, in document order.
		{locator.Candidate{Strategy: locator.CSS, CSS: "sync-panel button#sync"}, []string{`id=sync class=primary "Sincronizza"`}},
		{locator.Candidate{Strategy: locator.CSS, CSS: "sync-action > button.primary:visible"}, []string{`id=sync class=primary "Sincronizza"`}},
		{locator.Candidate{Strategy: locator.CSS, CSS: "#panel section > p + sync-action button"}, []string{`id=sync class=primary "Sincronizza"`}},
		{locator.Candidate{Strategy: locator.CSS, CSS: "form-field input"}, []string{`id=control name=customer ""`, `id=control name=email ""`}},
		{locator.Candidate{Strategy: locator.CSS, CSS: "#greeting textarea, #customer input, #greeting input"}, []string{`id=control name=customer ""`, `name=note ""`, `name=ref ""`}},
		{locator.Candidate{Strategy: locator.CSS, CSS: "action-bar button"}, []string{`id=cancel "Annulla"`, `id=confirm "Conferma"`}},
		{locator.Candidate{Strategy: locator.CSS, CSS: "#greeting > p.greet"}, []string{`class=greet "Benvenuto, Mario!"`}},
		{locator.Candidate{Strategy: locator.CSS, CSS: ":scope > body sync-panel h2"}, []string{`id=sync-title "Sincronizzazione"`}},
		{locator.Candidate{Strategy: locator.CSS, CSS: "#closed-host button"}, nil},
		{locator.Candidate{Strategy: locator.CSS, CSS: "closed-widget p"}, nil},
	}
	for _, n := range []int{0, 120} {
		t.Run(fmt.Sprintf("buttons=%d", n), func(t *testing.T) {
			ctx := tctx(t, 60*time.Second)
			top := openComponents(t, ctx, d, s.Stress.Origin(), n)
			for _, tc := range cases {
				els, err := d.Find(ctx, top, nil, tc.c)
				if err != nil {
					t.Errorf("Find(%v): %v", tc.c, err)
					continue
				}
				if got := describeAll(t, ctx, d, els); !slices.Equal(got, tc.want) {
					t.Errorf("Find(%v) = %q, want %q", tc.c, got, tc.want)
				}
			}
			// Every button by role alone: with many buttons this is one
			// Accessibility.queryAXTree over the page. Document order,
			// shadow trees where their hosts are, no closed content.
			els, err := d.Find(ctx, top, nil, locator.Candidate{Strategy: locator.Role, Role: "button"})
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for i := 1; i <= n; i++ {
				want = append(want, fmt.Sprintf("%q", fmt.Sprintf("Voce %d", i)))
			}
			want = append(want, `id=sync class=primary "Sincronizza"`, `id=refresh "↻ Aggiorna"`, `id=cancel "Annulla"`, `id=confirm "Conferma"`)
			if got := describeAll(t, ctx, d, els); !slices.Equal(got, want) {
				t.Errorf("all buttons = %q\nwant %q", got, want)
			}
			// Scoped to a root inside a shadow tree.
			panel := findOne(t, ctx, d, top, locator.Candidate{Strategy: locator.CSS, CSS: "sync-panel section"})
			in, err := d.Find(ctx, top, panel, locator.Candidate{Strategy: locator.Role, Role: "button"})
			if err != nil || len(in) != 1 || describe(t, ctx, d, in[0]) != `id=sync class=primary "Sincronizza"` {
				t.Errorf("buttons in the panel = %d, %v", len(in), err)
			}
			in, err = d.Find(ctx, top, panel, locator.Candidate{Strategy: locator.Text, Text: "Sincronizza", Exact: true})
			if err != nil || len(in) != 1 || describe(t, ctx, d, in[0]) != `id=sync class=primary "Sincronizza"` {
				t.Errorf("text in the panel = %d, %v", len(in), err)
			}
			in, err = d.Find(ctx, top, panel, locator.Candidate{Strategy: locator.CSS, CSS: "button"})
			if err != nil || len(in) != 1 {
				t.Errorf("css in the panel = %d, %v", len(in), err)
			}
			// Reading a host's text reads what renders, shadow content
			// included.
			host := findOne(t, ctx, d, top, locator.Candidate{Strategy: locator.CSS, CSS: "#greeting"})
			if v, err := d.Read(ctx, host, runtime.Read{Kind: runtime.ReadText}); err != nil || !strings.HasPrefix(v, "Benvenuto, Mario! Note") {
				t.Errorf("greeting text = %q, %v", v, err)
			}
		})
	}
}

// componentsCapability opens /stress/components/120 and clicks the web
// component's "Sincronizza" button (two open shadow roots deep, among
// more than a hundred buttons); each step's condition holds only through
// text and elements inside shadow roots.
func componentsCapability(t *testing.T, origin string) *capability.Capability {
	t.Helper()
	raw := fixtureBytes(t, "teller_member_balances.json", tellerPlaceholder, origin)
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	// Written by hand for this page: authored, with a hand_authored
	// provenance instead of the fixture's discovery record.
	doc["state"] = string(capability.StateAuthored)
	doc["provenance"] = map[string]any{"kind": string(capability.ProvenanceHandAuthored), "author": "vera maintainers",
		"reason": "written by hand against the synthetic components page; no discovery session was recorded",
		"review": map[string]any{"reviewer": "vera maintainers", "reviewed_at": "2026-04-01T09:00:00Z", "authoring_approved": true}}
	doc["id"] = "stress.components-sync"
	doc["name"] = "Synchronise the components page"
	doc["goal"] = "Start a synchronisation from the web component panel and see it complete."
	doc["runtime"].(map[string]any)["start"] = "/stress/components/120"
	doc["inputs"] = []any{}
	doc["outputs"] = []any{}
	delete(doc, "business_outcomes")
	doc["milestones"] = []any{map[string]any{
		"id": "sync", "intent": "Synchronise",
		"actions": []any{
			map[string]any{
				"id": "look", "operation": "wait", "intent": "See the panel", "effect": "read_only", "confirmation": "none",
				"postcondition": map[string]any{"kind": "text_visible", "text": "Ultima sincronizzazione: mai"},
			},
			map[string]any{
				"id": "sync", "operation": "click", "intent": "Start the synchronisation", "effect": "read_only", "confirmation": "none",
				"locator_candidates": []any{roleCand("button", "Sincronizza")},
				"postcondition":      map[string]any{"kind": "text_visible", "text": "Sincronizzazione completata"},
			},
		},
	}}
	return parseDoc(t, doc)
}

func TestShadowDOMExecute(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	ctx := tctx(t, 90*time.Second)
	res := execute(t, ctx, d, componentsCapability(t, s.Stress.Origin()), nil)
	wantState(t, res, runtime.StateCompleted, "")
	// The status changed only inside the panel's shadow root.
	top, _, err := d.Frame(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	st := findOne(t, ctx, d, top, locator.Candidate{Strategy: locator.TestID, TestID: "sync-status"})
	if v, err := d.Read(ctx, st, runtime.Read{Kind: runtime.ReadText}); err != nil || v != "Sincronizzazione completata" {
		t.Fatalf("status = %q, %v", v, err)
	}
}

// TestShadowCSSAgreesWithNative holds the shadow-piercing CSS engine to
// the browser's own selector matching: on the components page (which has
// open shadow roots, so the engine runs), its matches in the light DOM
// must be exactly document.querySelectorAll's, in the same order, for
// selectors with every combinator, :scope, escapes, strings holding
// separators and functional pseudo-classes.
func TestShadowCSSAgreesWithNative(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	ctx := tctx(t, 60*time.Second)
	openComponents(t, ctx, d, s.Stress.Origin(), 250)
	doc, err := d.document(ctx, d.top)
	if err != nil {
		t.Fatal(err)
	}
	const check = `function(sel) {
` + jsPrelude + jsDeep + `
  const doc = this;
  const { roots } = census(doc, false);
  if (!roots.length) return 'no shadow roots';
  const native = Array.from(doc.querySelectorAll(sel));
  const deep = deepCSS(doc, doc, roots, sel).filter(e => e.getRootNode() === doc);
  if (native.length !== deep.length || native.some((e, i) => e !== deep[i])) return 'native ' + native.length + ', engine ' + deep.length;
  return 'ok ' + native.length;
}`
	for _, sel := range []string{
		"main > h1", "div.chunk button", "div.chunk > button:nth-child(2n+1)", "button + button",
		"h1 ~ div button:first-child", ":is(h1, #items) button", ":scope > body > main h1", ":scope",
		`[id="items"] .chunk:not(:first-child) button`, "action-bar > button#confirm", "main *", "*",
		`#\69 tems   >   .chunk>button:last-child`, `button[type="button"], h1`, "div:has(> button) > button:last-child",
		`[class~="chunk"] ~ div`, "main form-field span[slot=label]", `a[title="x, y > z"], p b`, "body > * > sync-panel",
		"html body main#nope, main div.chunk:nth-of-type(2) button:nth-child(100)",
	} {
		var got string
		if _, err := d.callOn(ctx, d.pageSID, doc, check, true, &got, val(sel)); err != nil {
			t.Fatalf("%q: %v", sel, err)
		}
		if !strings.HasPrefix(got, "ok ") {
			t.Errorf("%q: %s", sel, got)
		}
		t.Logf("%q: %s", sel, got)
	}
	// An invalid selector is the browser's error, typed.
	_, err = d.Find(ctx, d.top, nil, locator.Candidate{Strategy: locator.CSS, CSS: "sync-panel >> button"})
	if !errors.Is(err, ErrInvalidSelector) {
		t.Errorf("invalid selector: %v", err)
	}
}
