package locator

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// treeFinder is a [WithinFinder] over a tiny tree: elements are paths such
// as "docs/cell200"; Find searches everything, FindWithin the descendants
// of root. A candidate matches an element whose last segment equals its
// value.
type treeFinder struct {
	els   []string
	calls []string
}

func (f *treeFinder) match(root string, c Candidate) []string {
	var out []string
	for _, e := range f.els {
		if root != "" && !strings.HasPrefix(e, root+"/") {
			continue
		}
		if e[strings.LastIndex(e, "/")+1:] == c.Value() {
			out = append(out, e)
		}
	}
	return out
}

func (f *treeFinder) Find(_ context.Context, c Candidate) ([]string, error) {
	f.calls = append(f.calls, c.Value())
	return f.match("", c), nil
}

func (f *treeFinder) FindWithin(_ context.Context, root string, c Candidate) ([]string, error) {
	if c.Scope != nil {
		return nil, errors.New("FindWithin was given a scoped candidate")
	}
	f.calls = append(f.calls, root+">"+c.Value())
	return f.match(root, c), nil
}

func scoped(c, scope Candidate) Candidate {
	c.Scope = &scope
	return c
}

func TestScopedResolve(t *testing.T) {
	page := []string{"docs", "docs/200", "live", "live/200", "live/body", "panel", "panel/x", "panel2", "panel2/x"}
	tests := []struct {
		name      string
		cands     []Candidate
		wantIndex int
		wantEl    string
		wantTried []Attempt
	}{
		{"unscoped is ambiguous, scoped wins",
			[]Candidate{txt("200"), scoped(txt("200"), txt("live"))}, 1, "live/200",
			[]Attempt{{Index: 0, Matches: 2, Reason: ReasonAmbiguous}}},
		{"scope without match loses as no_match",
			[]Candidate{scoped(txt("200"), txt("nowhere")), scoped(txt("200"), txt("docs"))}, 1, "docs/200",
			[]Attempt{{Index: 0, Reason: ReasonNoMatch}}},
		{"ambiguous scope loses as ambiguous with the scope's count",
			[]Candidate{scoped(txt("x"), txt("panelX")), scoped(txt("body"), txt("live"))}, 1, "live/body",
			[]Attempt{{Index: 0, Matches: 2, Reason: ReasonAmbiguous}}},
		{"inner candidate outside its scope does not match",
			[]Candidate{scoped(txt("body"), txt("docs"))}, -1, "",
			[]Attempt{{Index: 0, Reason: ReasonNoMatch}}},
	}
	page = append(page, "a/panelX", "a/panelX/x", "b/panelX", "b/panelX/x")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &treeFinder{els: page}
			res, err := Resolve[string](context.Background(), f, tt.cands)
			if res.Index != tt.wantIndex || res.Element != tt.wantEl || !reflect.DeepEqual(res.Tried, tt.wantTried) {
				t.Fatalf("got index %d el %q tried %v (err %v); want %d %q %v", res.Index, res.Element, res.Tried, err, tt.wantIndex, tt.wantEl, tt.wantTried)
			}
			if (err == nil) != (tt.wantIndex >= 0) {
				t.Fatalf("err = %v", err)
			}
		})
	}
}

func TestScopedResolveAllStaysInScope(t *testing.T) {
	f := &treeFinder{els: []string{"docs", "docs/row", "docs/row", "live", "live/row"}}
	res, err := ResolveAll[string](context.Background(), f, []Candidate{scoped(txt("row"), txt("live"))})
	if err != nil || !slices.Equal(res.Elements, []string{"live/row"}) {
		t.Fatalf("got %v, %v", res.Elements, err)
	}
	if want := []string{"live", "live>row"}; !slices.Equal(f.calls, want) {
		t.Fatalf("calls %q, want %q", f.calls, want)
	}
}

func TestScopedNeedsWithinFinder(t *testing.T) {
	m := &mapFinder{matches: map[string][]string{"live": {"L"}}}
	_, err := Resolve[string](context.Background(), m, []Candidate{scoped(txt("200"), txt("live"))})
	if !errors.Is(err, ErrScopeUnsupported) {
		t.Fatalf("err = %v, want ErrScopeUnsupported", err)
	}
	if errors.Is(err, ErrNotFound) {
		t.Fatal("an unsupported scope must not read as not found")
	}
}

func TestScopedCheck(t *testing.T) {
	role := func(r, n string) Candidate { return Candidate{Strategy: Role, Role: r, Name: n} }
	css := func(s string) Candidate { return Candidate{Strategy: CSS, CSS: s} }
	nested := scoped(role("cell", "200"), scoped(role("region", "Live"), css("main")))
	noted := role("region", "Live")
	noted.Note = "why"
	tests := []struct {
		name  string
		cands []Candidate
		ctx   ListContext
		want  []string // "index:code:field"
	}{
		{"role in a CSS scope is semantic", []Candidate{scoped(role("cell", "200"), css("#live"))}, Interactive, nil},
		{"CSS in a role scope is not semantic", []Candidate{scoped(css("td"), role("region", "Live"))}, Interactive, []string{"-1:" + CodeNoSemantic + ":"}},
		{"nested scope", []Candidate{nested}, Interactive, []string{"0:" + CodeScopeNested + ":scope.scope"}},
		{"note on the scope", []Candidate{scoped(role("cell", "200"), noted)}, Interactive, []string{"0:" + CodeScopeNote + ":scope.note"}},
		{"bad scope", []Candidate{scoped(role("cell", "200"), role("nonsense", ""))}, Interactive, []string{"0:" + CodeUnknownRole + ":scope.role"}},
		{"bad CSS scope", []Candidate{scoped(role("cell", "200"), css("div {"))}, Interactive, []string{"0:" + CodeBadCSS + ":scope.css"}},
		{"same candidate, other scopes are not duplicates", []Candidate{scoped(role("cell", "200"), css("#a")), scoped(role("cell", "200"), css("#b"))}, Interactive, nil},
		{"same candidate and scope is a duplicate", []Candidate{scoped(role("cell", "200"), css("#a")), scoped(role("cell", "200"), css("#a"))}, Interactive, []string{"1:" + CodeDuplicate + ":"}},
		{"redaction marker in a scope", []Candidate{scoped(role("cell", "200"), txt("[REDACTED]"))}, Interactive, []string{"0:" + CodeRedactedMarker + ":scope.text"}},
		{"order uses the inner strategy", []Candidate{scoped(role("cell", "200"), css("#a")), scoped(txt("200"), role("region", "Live"))}, Interactive, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, p := range CheckList(tt.cands, tt.ctx, "[REDACTED]") {
				got = append(got, strings.Join([]string{itoa(p.Index), p.Code, p.Field}, ":"))
			}
			if !slices.Equal(got, tt.want) {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func itoa(i int) string {
	if i < 0 {
		return "-1"
	}
	return string(rune('0' + i))
}

func TestScopedString(t *testing.T) {
	c := scoped(Candidate{Strategy: Role, Role: "cell", Name: "200", Exact: true}, Candidate{Strategy: Role, Role: "region", Name: "Live response"})
	if got, want := c.String(), `role=cell[name="200" exact] >> within role=region[name="Live response"]`; got != want {
		t.Fatalf("String() = %s, want %s", got, want)
	}
	d := c
	d.Note = "n"
	if !c.Equal(d) {
		t.Fatal("notes must not affect Equal")
	}
	e := scoped(c.Unscoped(), Candidate{Strategy: CSS, CSS: "#x"})
	if c.Equal(e) {
		t.Fatal("other scopes must not be Equal")
	}
}
