package browser

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"
	"github.com/ysmood/gson"

	"github.com/vera-run/vera/locator"
)

// jsCorpusVerdicts runs the fast path's judge over every visible element
// of the role corpus (data-c, open shadow roots included), as findRole
// runs it over its visible candidates.
const jsCorpusVerdicts = `function() {
` + jsPrelude + jsDeep + jsRoleVerdicts + `
  const doc = this, base = doc;
  const { roots } = census(doc, false);
  const labels = labelsOf([doc, ...roots]);
  const els = inOrder(roots, deepQuery(doc, roots, '[data-c]')).filter(visible);
  return verdicts(doc, base, roots, labels, els);
}`

// TestRoleFastDifferential compares, in Chromium, the fast path's verdict
// on every visible element of the role corpus with the browser's own
// (Accessibility.getPartialAXTree): wherever the page claims a certain
// role and name (and no element of its chain is slotted), the node is not
// ignored and has that role and, whitespace-normalised, that name. In
// the document variants where a modal dialog (open, or inside a closed
// shadow root) or aria-owns is present the page must claim nothing.
func TestRoleFastDifferential(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	ctx := tctx(t, 5*time.Minute)
	for _, variant := range []string{"", "?modal=open", "?modal=closed", "?owns=1"} {
		t.Run("page"+variant, func(t *testing.T) {
			if err := d.Navigate(ctx, s.Stress.URL()+"/stress/roles"+variant); err != nil {
				t.Fatal(err)
			}
			doc, err := d.document(ctx, d.top)
			if err != nil {
				t.Fatal(err)
			}
			r, err := d.callOn(ctx, d.top.sid, doc, jsCorpusVerdicts, false, nil)
			if err != nil {
				t.Fatal(err)
			}
			items, err := d.arrayItems(ctx, d.top.sid, r)
			if err != nil {
				t.Fatal(err)
			}
			vs, err := parseVerdicts(items)
			if err != nil {
				t.Fatal(err)
			}
			if len(vs) < 500 {
				t.Fatalf("%d visible corpus elements, want at least 500", len(vs))
			}
			certain, slottedN := 0, 0
			for _, v := range vs {
				var res proto.AccessibilityGetPartialAXTreeResult
				if err := d.call(ctx, d.top.sid, getPartialAXTree{ObjectID: v.obj}, &res); err != nil {
					t.Fatal(err)
				}
				var n *proto.AccessibilityAXNode
				for _, x := range res.Nodes {
					if x != nil && x.BackendDOMNodeID != 0 {
						n = x
						break
					}
				}
				if !v.certain {
					continue
				}
				slot, _, err := d.slotted(ctx, d.top.sid, v.obj, v.check)
				if err != nil {
					t.Fatal(err)
				}
				if slot {
					slottedN++
					continue
				}
				certain++
				var html string
				if _, err := d.callOn(ctx, d.top.sid, v.obj, `function(){ return this.parentNode.outerHTML || String(this.parentNode) }`, true, &html); err != nil {
					t.Fatal(err)
				}
				if n == nil {
					t.Errorf("page says %s %q, browser has no node: %s", v.role, v.name, html)
					continue
				}
				role, name := "", ""
				if n.Role != nil {
					role = n.Role.Value.Str()
				}
				if n.Name != nil {
					name = normalizeSpace(n.Name.Value.Str())
				}
				if n.Ignored || role != v.role || name != v.name {
					t.Errorf("page says %s %q, browser says %s %q (ignored %v): %s", v.role, v.name, role, name, n.Ignored, html)
				}
			}
			t.Logf("%d visible elements: %d decided by the page, %d slotted (browser decides), %d by the browser", len(vs), certain, slottedN, len(vs)-certain-slottedN)
			if variant == "" {
				if certain < 100 {
					t.Errorf("the page decided %d elements, want at least 100 (the differential would prove little)", certain)
				}
				if slottedN == 0 {
					t.Error("no page verdict was overruled by a slotted chain: the corpus lost its closed shadow roots")
				}
			} else if certain+slottedN != 0 {
				t.Errorf("the page decided %d elements with %s, want none", certain+slottedN, variant)
			}
		})
	}
}

// TestRoleFastFindSameAnswer compares, group by group of the role corpus,
// Find's answer (fast path where certain) with the accessibility tree's
// alone (queryRole) for every role the page may decide (buttons, links,
// headings and the labelled form fields), exact and substring names.
func TestRoleFastFindSameAnswer(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	ctx := tctx(t, 5*time.Minute)
	for _, variant := range []string{"", "?modal=closed"} {
		if err := d.Navigate(ctx, s.Stress.URL()+"/stress/roles"+variant); err != nil {
			t.Fatal(err)
		}
		doc, err := d.document(ctx, d.top)
		if err != nil {
			t.Fatal(err)
		}
		r, err := d.callOn(ctx, d.top.sid, doc, `function(){ return Array.from(this.querySelectorAll('.rc-group')) }`, false, nil)
		if err != nil {
			t.Fatal(err)
		}
		objs, err := d.arrayObjects(ctx, d.top.sid, r)
		if err != nil {
			t.Fatal(err)
		}
		groups, err := d.handles(ctx, d.top, objs)
		if err != nil {
			t.Fatal(err)
		}
		if len(groups) < 50 {
			t.Fatalf("%d groups", len(groups))
		}
		found := 0
		for _, g := range groups {
			var raw string
			if _, err := d.callOn(ctx, d.top.sid, g.obj, `function(){ return this.dataset.name }`, true, &raw); err != nil {
				t.Fatal(err)
			}
			name := normalizeSpace(raw)
			sub := strings.ToLower(name)
			if f := strings.Fields(sub); len(f) > 0 {
				sub = f[len(f)-1]
			}
			// The roles the group's elements may carry: buttons and links
			// always, headings and fields where the group has them (each
			// role and name costs one accessibility query of the corpus).
			roles := []string{"button", "link"}
			if variant == "" {
				// With the modal the page decides nothing: the buttons
				// and links show the fallback is whole.
				var more []string
				if _, err := d.callOn(ctx, d.top.sid, g.obj, jsGroupRoles, true, &more); err != nil {
					t.Fatal(err)
				}
				roles = append(roles, more...)
			}
			for _, role := range roles {
				for _, c := range []locator.Candidate{
					{Strategy: locator.Role, Role: role, Name: raw, Exact: true},
					{Strategy: locator.Role, Role: role, Name: sub},
					{Strategy: locator.Role, Role: role, Name: strings.ToUpper(sub)},
				} {
					got, err := d.Find(ctx, nil, g, c)
					if err != nil {
						t.Fatal(err)
					}
					want, err := d.queryRole(ctx, d.top, doc, g.obj, c)
					if err != nil {
						t.Fatal(err)
					}
					wantEls := make([]*element, len(want))
					copy(wantEls, want)
					gotEls := make([]*element, len(got))
					for i, e := range got {
						gotEls[i] = e.(*element)
					}
					if !sameElements(gotEls, wantEls) {
						var h string
						if len(wantEls) > 0 {
							_, _ = d.callOn(ctx, d.top.sid, wantEls[0].obj, `function(){ return this.parentNode.outerHTML }`, true, &h)
						}
						t.Errorf("%s: role %s name %q exact %v: Find %d elements, the accessibility tree %d %s", variant, role, c.Name, c.Exact, len(gotEls), len(wantEls), h)
					}
					found += len(gotEls)
				}
			}
		}
		if variant == "" && found < 100 {
			t.Errorf("%s: %d elements found over all queries, want at least 100", variant, found)
		}
	}
}

// jsGroupRoles names the roles, other than button and link, that a
// corpus group's headings and form fields may carry.
const jsGroupRoles = `function() {
  const k = new Set();
  const byType = {checkbox: 'checkbox', radio: 'radio', search: 'searchbox', number: 'spinbutton'};
  const aria = ['checkbox', 'radio', 'switch', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option', 'treeitem', 'heading'];
  for (const e of this.querySelectorAll('[data-c]')) {
    for (const r of (e.getAttribute('role') || '').trim().toLowerCase().split(/\s+/)) if (aria.includes(r)) k.add(r);
    if (/^h[1-6]$/.test(e.localName)) k.add('heading');
    if (e.localName === 'td') k.add('cell');
    if (e.localName === 'textarea') k.add('textbox');
    if (e.localName === 'select') k.add(e.multiple || e.size > 1 ? 'listbox' : 'combobox');
    if (e.localName === 'input' && !['button', 'submit', 'reset', 'image'].includes(e.type)) k.add(byType[e.type] || (e.list ? 'combobox' : 'textbox'));
  }
  return [...k];
}`

func sameElements(a, b []*element) bool {
	if len(a) != len(b) {
		return false
	}
	for _, e := range a {
		if !slices.Contains(b, e) {
			return false
		}
	}
	return true
}

// TestParseVerdicts checks the decoding of the page's flat verdicts, bad
// shapes included.
func TestParseVerdicts(t *testing.T) {
	o := func(id string) *proto.RuntimeRemoteObject {
		return &proto.RuntimeRemoteObject{Type: "object", Subtype: "node", ObjectID: proto.RuntimeRemoteObjectID(id)}
	}
	str := func(s string) *proto.RuntimeRemoteObject {
		return &proto.RuntimeRemoteObject{Type: "string", Value: gson.New(s)}
	}
	num := func(n int) *proto.RuntimeRemoteObject {
		return &proto.RuntimeRemoteObject{Type: "number", Value: gson.New(n)}
	}
	null := &proto.RuntimeRemoteObject{Type: "object", Subtype: "null"}
	good := []*proto.RuntimeRemoteObject{o("a"), null, null, num(0), o("b"), str("button"), str("Save"), num(2), o("c"), o("d")}
	vs, err := parseVerdicts(good)
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 2 || vs[0].certain || vs[0].obj != "a" || !vs[1].certain || vs[1].role != "button" || vs[1].name != "Save" ||
		!slices.Equal(vs[1].check, []proto.RuntimeRemoteObjectID{"c", "d"}) {
		t.Fatalf("parseVerdicts = %+v", vs)
	}
	if vs, err := parseVerdicts(nil); err != nil || len(vs) != 0 {
		t.Fatalf("empty: %v, %v", vs, err)
	}
	// A chain element already in the result is given by its position.
	shared := []*proto.RuntimeRemoteObject{o("a"), str("button"), str("Save"), num(1), o("p"), o("b"), str("link"), str("Go"), num(2), num(4), o("q")}
	vs, err = parseVerdicts(shared)
	if err != nil || len(vs) != 2 || !slices.Equal(vs[0].check, []proto.RuntimeRemoteObjectID{"p"}) ||
		!slices.Equal(vs[1].check, []proto.RuntimeRemoteObjectID{"p", "q"}) {
		t.Fatalf("parseVerdicts(shared) = %+v, %v", vs, err)
	}
	frac := &proto.RuntimeRemoteObject{Type: "number", Value: gson.New(4.5)}
	bad := map[string][]*proto.RuntimeRemoteObject{
		"short record":        {o("a"), null, null},
		"hole":                {nil, null, null, num(0)},
		"element not object":  {str("a"), null, null, num(0)},
		"role without name":   {o("a"), str("button"), null, num(0)},
		"name without role":   {o("a"), null, str("x"), num(0)},
		"count not number":    {o("a"), null, null, str("0")},
		"negative count":      {o("a"), str("button"), str("x"), num(-1)},
		"count past end":      {o("a"), str("button"), str("x"), num(3), o("b")},
		"chain on undecided":  {o("a"), null, null, num(1), o("b")},
		"chain not an object": {o("a"), str("button"), str("x"), num(1), str("b")},
		"role a number":       {o("a"), num(1), str("x"), num(0)},
		"trailing item":       {o("a"), null, null, num(0), o("b")},
		"forward position":    {o("a"), str("button"), str("x"), num(1), num(5), o("b"), null, null, num(0)},
		"own position":        {o("a"), str("button"), str("x"), num(1), num(4)},
		"position of a null":  {o("a"), str("button"), str("x"), num(1), num(1)},
		"position of a count": {o("a"), str("button"), str("x"), num(1), num(3)},
		"negative position":   {o("a"), str("button"), str("x"), num(1), num(-1)},
		"fractional position": {o("a"), str("button"), str("x"), num(1), frac},
	}
	for name, items := range bad {
		if _, err := parseVerdicts(items); !errors.Is(err, errVerdicts) {
			t.Errorf("%s: err = %v, want errVerdicts", name, err)
		}
	}
}

// FuzzParseVerdicts feeds parseVerdicts arbitrary flat arrays: it never
// panics, and an answer it accepts is consistent.
func FuzzParseVerdicts(f *testing.F) {
	f.Add([]byte{0, 3, 3, 4, 0})
	f.Add([]byte{0, 1, 1, 4, 2, 0, 0})
	f.Fuzz(func(t *testing.T, kinds []byte) {
		items := make([]*proto.RuntimeRemoteObject, len(kinds))
		for i, k := range kinds {
			switch k % 6 {
			case 0:
				items[i] = &proto.RuntimeRemoteObject{Type: "object", ObjectID: proto.RuntimeRemoteObjectID(fmt.Sprint("o", i))}
			case 1:
				items[i] = &proto.RuntimeRemoteObject{Type: "string", Value: gson.New(fmt.Sprint("s", k))}
			case 2:
				items[i] = &proto.RuntimeRemoteObject{Type: "number", Value: gson.New(int(k/6) - 2)}
			case 3:
				items[i] = &proto.RuntimeRemoteObject{Type: "object", Subtype: "null"}
			case 4:
				items[i] = &proto.RuntimeRemoteObject{Type: "number", Value: gson.New(0)}
			}
		}
		vs, err := parseVerdicts(items)
		if err != nil {
			return
		}
		ids := map[proto.RuntimeRemoteObjectID]bool{}
		for _, it := range items {
			if it != nil && it.ObjectID != "" {
				ids[it.ObjectID] = true
			}
		}
		n := 0
		for _, v := range vs {
			if v.obj == "" || (!v.certain && (v.role != "" || v.name != "" || len(v.check) > 0)) {
				t.Fatalf("inconsistent verdict %+v", v)
			}
			for _, c := range v.check {
				if !ids[c] {
					t.Fatalf("chain object %q is not an item", c)
				}
			}
			n += 4 + len(v.check)
		}
		if n != len(items) {
			t.Fatalf("verdicts cover %d of %d items", n, len(items))
		}
	})
}

// TestWidgetRoleLookups compares, on the ARIA widget page (200 widgets of
// each kind, so the page narrows candidates by name before judging), Find
// with the accessibility tree alone for explicit roles named by text and
// by aria-label, with two added buttons whose content is another
// button's name: one named by its aria-label instead, one with a blank
// aria-label (so named by its content after all), and many matches,
// decided by the page alone or, with one it cannot decide, by the tree.
func TestWidgetRoleLookups(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	ctx := tctx(t, 3*time.Minute)
	if err := d.Navigate(ctx, s.Stress.URL()+"/stress/widgets/1000"); err != nil {
		t.Fatal(err)
	}
	doc, err := d.document(ctx, d.top)
	if err != nil {
		t.Fatal(err)
	}
	const add = `function() {
  const w = this.getElementById('widgets');
  w.insertAdjacentHTML('beforeend', '<div role="button" tabindex="0" aria-label="Dismiss">Remove row 77</div>' +
    '<div role="button" tabindex="0" aria-label="  ">Remove row 78</div>' +
    '<div role="button" tabindex="0" title="Tip" aria-label="Emove row extra">x</div>');
}`
	if _, err := d.callOn(ctx, d.top.sid, doc, add, true, nil); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		c    locator.Candidate
		want int // -1: whatever the tree says, at least one
	}{
		{locator.Candidate{Strategy: locator.Role, Role: "option", Name: "Choice 199", Exact: true}, 1},
		{locator.Candidate{Strategy: locator.Role, Role: "tab", Name: "tab 5"}, -1},
		{locator.Candidate{Strategy: locator.Role, Role: "menuitem", Name: "Command 42", Exact: true}, 1},
		{locator.Candidate{Strategy: locator.Role, Role: "switch", Name: "Setting 200", Exact: true}, 1},
		{locator.Candidate{Strategy: locator.Role, Role: "button", Name: "Remove row 77", Exact: true}, 1},
		{locator.Candidate{Strategy: locator.Role, Role: "button", Name: "Remove row 78", Exact: true}, 2},
		{locator.Candidate{Strategy: locator.Role, Role: "button", Name: "Dismiss", Exact: true}, 1},
		// 111 candidates, every one decided by the page: no tree.
		{locator.Candidate{Strategy: locator.Role, Role: "button", Name: "remove row 1"}, 111},
		// 202 matches, one with a title the page leaves to the tree.
		{locator.Candidate{Strategy: locator.Role, Role: "button", Name: "emove row"}, 202},
		{locator.Candidate{Strategy: locator.Role, Role: "option", Name: "Command 42", Exact: true}, 0},
	} {
		got, err := d.Find(ctx, nil, nil, tc.c)
		if err != nil {
			t.Fatal(err)
		}
		want, err := d.queryRole(ctx, d.top, doc, "", tc.c)
		if err != nil {
			t.Fatal(err)
		}
		gotEls := make([]*element, len(got))
		for i, e := range got {
			gotEls[i] = e.(*element)
		}
		if !sameElements(gotEls, want) {
			t.Errorf("role %s name %q exact %v: Find %d elements, the accessibility tree %d", tc.c.Role, tc.c.Name, tc.c.Exact, len(gotEls), len(want))
		}
		if tc.want >= 0 && len(want) != tc.want || tc.want < 0 && len(want) == 0 {
			t.Errorf("role %s name %q: the tree has %d, want %d", tc.c.Role, tc.c.Name, len(want), tc.want)
		}
	}
}

// slotted (for the differential test) reports whether any of the objects is assigned to a slot (of an
// open or closed shadow root): DOM.describeNode sees closed ones. Its
// second result is the backend id of first, described too.
func (d *Driver) slotted(ctx context.Context, sid proto.TargetSessionID, first proto.RuntimeRemoteObjectID, chain []proto.RuntimeRemoteObjectID) (bool, proto.DOMBackendNodeID, error) {
	nodes, err := d.describeAll(ctx, sid, append([]proto.RuntimeRemoteObjectID{first}, chain...))
	if err != nil {
		return false, 0, err
	}
	slot, b := slottedIn(nodes, first, chain)
	return slot, b, nil
}
