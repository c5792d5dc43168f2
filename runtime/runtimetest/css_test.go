package runtimetest

import (
	"errors"
	"slices"
	"testing"

	"github.com/vera-run/vera/runtime"
)

func TestParseSelector(t *testing.T) {
	tests := []struct {
		sel         string
		unsupported bool
		invalid     bool
	}{
		{sel: "div"},
		{sel: "*"},
		{sel: "#save"},
		{sel: ".a.b"},
		{sel: "button#save.primary[type=submit]"},
		{sel: `[data-testid="summary-card"]`},
		{sel: "[data-testid='x y']"},
		{sel: "[ hidden ]"},
		{sel: "[class~=note]"},
		{sel: "[lang|=en]"},
		{sel: "[href^='/a'][href$=x][href*=\"b\"]"},
		{sel: "main > section p"},
		{sel: "main>section>p"},
		{sel: "  ul   li  "},
		{sel: "a, button"},
		{sel: ".note:visible"},
		{sel: "main :visible"},
		{sel: "div:VISIBLE"},
		{sel: "-custom-tag"},
		{sel: "p:first-child", unsupported: true},
		{sel: "p:nth-child(2)", unsupported: true},
		{sel: "p:not(.x)", unsupported: true},
		{sel: "p::before", unsupported: true},
		{sel: "a + b", unsupported: true},
		{sel: "a ~ b", unsupported: true},
		{sel: `#a\:b`, unsupported: true},
		{sel: "ns|div", unsupported: true},
		{sel: "[type=a i]", unsupported: true},
		{sel: `[title="a\"b"]`, unsupported: true},
		{sel: "", invalid: true},
		{sel: "   ", invalid: true},
		{sel: "a,", invalid: true},
		{sel: ",a", invalid: true},
		{sel: "a >", invalid: true},
		{sel: "> a", invalid: true},
		{sel: "#1", invalid: true},
		{sel: ".", invalid: true},
		{sel: "[", invalid: true},
		{sel: "[x", invalid: true},
		{sel: "[x=", invalid: true},
		{sel: "[x='y", invalid: true},
		{sel: "[x=y z]", unsupported: true},
		{sel: "[x!=y]", invalid: true},
		{sel: "a)", invalid: true},
		{sel: ":visible(1)", invalid: true},
		{sel: "div{color:red}", invalid: true},
	}
	for _, tt := range tests {
		t.Run(tt.sel, func(t *testing.T) {
			s, err := ParseSelector(tt.sel)
			switch {
			case tt.unsupported:
				if !errors.Is(err, runtime.ErrUnsupported) {
					t.Fatalf("ParseSelector(%q) = %v, want ErrUnsupported", tt.sel, err)
				}
			case tt.invalid:
				if !errors.Is(err, ErrInvalidSelector) {
					t.Fatalf("ParseSelector(%q) = %v, want ErrInvalidSelector", tt.sel, err)
				}
			default:
				if err != nil {
					t.Fatalf("ParseSelector(%q): %v", tt.sel, err)
				}
				if s.String() != tt.sel {
					t.Errorf("String() = %q", s.String())
				}
			}
			if err != nil {
				var se *SelectorError
				if !errors.As(err, &se) || se.Selector != tt.sel || se.Offset < 0 || se.Offset > len(tt.sel) {
					t.Errorf("error %v is not a well-formed *SelectorError", err)
				}
			}
		})
	}
}

func TestParseSelectorTooLong(t *testing.T) {
	long := make([]byte, MaxSelectorLen+1)
	for i := range long {
		long[i] = 'a'
	}
	if _, err := ParseSelector(string(long)); err == nil {
		t.Fatal("accepted an over-long selector")
	}
}

// cssPage is a small document for matching tests.
func cssPage() *elem {
	root, _ := documentTree(&Page{Body: []*Node{
		{Tag: "main", ID: "main", Children: []*Node{
			{Tag: "section", ID: "s1", Attributes: map[string]string{"class": "panel wide", "lang": "en-GB"}, Children: []*Node{
				{Tag: "p", ID: "p1", Text: "one"},
				{Tag: "p", ID: "p2", Attributes: map[string]string{"class": "note"}, Text: "two", Hidden: true},
				{Tag: "div", ID: "d1", Children: []*Node{
					{Tag: "p", ID: "p3", Attributes: map[string]string{"class": "note"}, Text: "three"},
				}},
			}},
			{Tag: "a", ID: "a1", Attributes: map[string]string{"href": "/docs/x.pdf"}, Text: "Docs"},
			{Tag: "input", ID: "i1", Label: "Email", TestID: "email-field", Attributes: map[string]string{"type": "email"}},
		}},
	}}, "http://127.0.0.1:1/")
	return root
}

func TestSelectorMatching(t *testing.T) {
	root := cssPage()
	tests := []struct {
		sel  string
		want []string
	}{
		{"p", []string{"p1", "p2", "p3"}},
		{"section > p", []string{"p1", "p2"}},
		{"section p", []string{"p1", "p2", "p3"}},
		{"main > p", nil},
		{"main p.note", []string{"p2", "p3"}},
		{".note:visible", []string{"p3"}},
		{"section:visible > p:visible", []string{"p1"}},
		{".panel.wide > div > .note", []string{"p3"}},
		{".panel.narrow p", nil},
		{"#s1 #p3", []string{"p3"}},
		{"#p1#p2", nil},
		{"[class~=wide]", []string{"s1"}},
		{"[lang|=en]", []string{"s1"}},
		{"[href^='/docs'][href$='.pdf'][href*=x]", []string{"a1"}},
		{"[href=x]", nil},
		{"[data-testid=email-field]", []string{"i1"}},
		{"label[for=i1]", []string{""}},
		{"[hidden]", []string{"p2"}},
		{"a, input", []string{"a1", "i1"}},
		{"input, a", []string{"a1", "i1"}},
		{"MAIN > A", []string{"a1"}},
		{"body > main", []string{"main"}},
		{"html > body > main > section > div > p", []string{"p3"}},
	}
	for _, tt := range tests {
		t.Run(tt.sel, func(t *testing.T) {
			s, err := ParseSelector(tt.sel)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			root.walk(func(e *elem) bool {
				if s.matches(e) {
					got = append(got, e.id())
				}
				return true
			})
			if !slices.Equal(got, tt.want) {
				t.Errorf("%q matched %q, want %q", tt.sel, got, tt.want)
			}
		})
	}
}
