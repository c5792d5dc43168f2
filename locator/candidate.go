package locator

import (
	"fmt"
	"github.com/vera-run/vera/internal/textrule"
	"regexp"
	"strings"
	"unicode/utf8"
)

// Strategy names how a [Candidate] finds an element. The set is closed.
type Strategy string

// The locator strategies, in the order of preference the contract requires:
// role and accessible name first, then label, placeholder, test id and bounded
// visible text, with CSS only as a later fallback.
const (
	Role        Strategy = "role"
	Label       Strategy = "label"
	Placeholder Strategy = "placeholder"
	TestID      Strategy = "test_id"
	Text        Strategy = "text"
	CSS         Strategy = "css"
)

// Strategies returns every strategy in preference order.
func Strategies() []Strategy {
	return []Strategy{Role, Label, Placeholder, TestID, Text, CSS}
}

// Rank is the strategy's position in the preference order (0 is best). An
// unknown strategy ranks -1.
func (s Strategy) Rank() int {
	for i, v := range Strategies() {
		if v == s {
			return i
		}
	}
	return -1
}

// Valid reports whether s is a known strategy.
func (s Strategy) Valid() bool { return s.Rank() >= 0 }

// Semantic reports whether s identifies an element by what a person perceives
// (everything but CSS).
func (s Strategy) Semantic() bool { return s.Valid() && s != CSS }

// Limits on candidate values. They bound what a capability may ask a driver to
// search for and keep reviewable locators short.
const (
	// MaxTextLen bounds a text candidate ("bounded visible text"), in runes.
	MaxTextLen = 80
	// MaxNameLen bounds accessible names, labels and placeholders, in runes.
	MaxNameLen = 200
	// MaxCSSLen bounds a CSS selector, in bytes.
	MaxCSSLen = 300
	// MaxTestIDLen bounds a test id, in bytes.
	MaxTestIDLen = 120
	// MaxCandidates bounds the candidates of one locator list.
	MaxCandidates = 8
)

// VisibleSuffix is the Playwright-style pseudo-class that restricts a CSS
// candidate to rendered elements. A structural locator_visible marker written
// only in CSS must end with it.
const VisibleSuffix = ":visible"

// Candidate is one way to find an element. Exactly the fields of its
// strategy are set: Role (and optionally Name) for [Role], Label for [Label],
// Placeholder for [Placeholder], TestID for [TestID], Text for [Text], CSS
// for [CSS]. Exact applies to Name, Label, Placeholder and Text: when false,
// matching is case-insensitive substring after whitespace normalisation; when
// true, the whole normalised string must be equal. Values may carry
// {{input}} templates that the runtime substitutes before searching.
type Candidate struct {
	Strategy    Strategy `json:"strategy" validate:"required"`
	Role        string   `json:"role,omitempty"`
	Name        string   `json:"name,omitempty"`
	Label       string   `json:"label,omitempty"`
	Placeholder string   `json:"placeholder,omitempty"`
	TestID      string   `json:"test_id,omitempty"`
	Text        string   `json:"text,omitempty"`
	CSS         string   `json:"css,omitempty"`
	Exact       bool     `json:"exact,omitempty"`
	// Note is a reviewer-facing robustness note; it never affects matching.
	Note string `json:"note,omitempty"`
	// Scope, when set, is the container the candidate is searched in: a
	// candidate of any strategy that must match exactly one element, below
	// which this candidate is searched. A scope has no scope of its own
	// (see scope.go and [FindScoped]).
	Scope *Candidate `json:"scope,omitempty"`
}

// Value returns the strategy's primary value: the role's accessible name,
// label, placeholder, test id, text or selector.
func (c Candidate) Value() string {
	switch c.Strategy {
	case Role:
		return c.Name
	case Label:
		return c.Label
	case Placeholder:
		return c.Placeholder
	case TestID:
		return c.TestID
	case Text:
		return c.Text
	case CSS:
		return c.CSS
	}
	return ""
}

// String renders the candidate for logs and error messages, e.g.
// role=button[name="Search" exact], or for a scoped candidate
// role=cell[name="200" exact] >> within role=region[name="Live response"].
func (c Candidate) String() string {
	if c.Scope != nil {
		return c.Unscoped().String() + " >> within " + c.Scope.Unscoped().String()
	}
	switch c.Strategy {
	case Role:
		if c.Name == "" {
			return "role=" + c.Role
		}
		return fmt.Sprintf("role=%s[name=%q%s]", c.Role, c.Name, exactSuffix(c.Exact))
	case CSS, TestID:
		return fmt.Sprintf("%s=%q", c.Strategy, c.Value())
	default:
		return fmt.Sprintf("%s=%q%s", c.Strategy, c.Value(), exactSuffix(c.Exact))
	}
}

func exactSuffix(exact bool) string {
	if exact {
		return " exact"
	}
	return ""
}

// VisibleScoped reports whether a CSS candidate ends with the :visible filter.
func (c Candidate) VisibleScoped() bool {
	return c.Strategy == CSS && strings.HasSuffix(strings.TrimSpace(c.CSS), VisibleSuffix)
}

// Problem is one static rule a candidate breaks. Code is stable and machine
// readable; Field names the offending field ("" for the candidate itself).
type Problem struct {
	Code   string
	Field  string
	Detail string
}

// Problem codes reported by [Candidate.Check].
const (
	CodeUnknownStrategy = "locator_unknown_strategy"
	CodeMissingValue    = "locator_missing_value"
	CodeForeignField    = "locator_foreign_field"
	CodeUnknownRole     = "locator_unknown_role"
	CodeTooLong         = "locator_too_long"
	CodeCoordinates     = "locator_coordinates"
	CodeInvalidUTF8     = "locator_invalid_utf8"
	CodeExactNotAllowed = "locator_exact_not_allowed"
	CodeBadCSS          = "locator_bad_css"
)

// Check returns every static rule the candidate breaks: a known strategy,
// the strategy's value present, no field of another strategy, a known ARIA
// role, bounded lengths, valid UTF-8, no coordinates and a plausible CSS
// selector. An empty result means the candidate is well formed. Order and
// context rules (CSS only as a fallback) are checked by [CheckList].
func (c Candidate) Check() []Problem {
	var ps []Problem
	add := func(code, field, format string, a ...any) {
		ps = append(ps, Problem{Code: code, Field: field, Detail: fmt.Sprintf(format, a...)})
	}
	if !c.Strategy.Valid() {
		add(CodeUnknownStrategy, "strategy", "unknown strategy %q", string(c.Strategy))
		return ps
	}
	fields := map[string]string{
		"role": c.Role, "name": c.Name, "label": c.Label, "placeholder": c.Placeholder,
		"test_id": c.TestID, "text": c.Text, "css": c.CSS,
	}
	own := map[Strategy][]string{
		Role: {"role", "name"}, Label: {"label"}, Placeholder: {"placeholder"},
		TestID: {"test_id"}, Text: {"text"}, CSS: {"css"},
	}[c.Strategy]
	for _, f := range []string{"role", "name", "label", "placeholder", "test_id", "text", "css"} {
		v := fields[f]
		if !utf8.ValidString(v) {
			add(CodeInvalidUTF8, f, "value is not valid UTF-8")
		}
		if v != "" && !contains(own, f) {
			add(CodeForeignField, f, "field %q does not belong to strategy %q", f, c.Strategy)
		}
	}
	primary := c.Value()
	if c.Strategy == Role {
		if c.Role == "" {
			add(CodeMissingValue, "role", "a role candidate needs a role")
		} else if !KnownRole(c.Role) {
			add(CodeUnknownRole, "role", "%q is not an ARIA role", c.Role)
		}
	} else if textrule.Blank(primary) {
		add(CodeMissingValue, own[0], "a %s candidate needs a non-empty %s", c.Strategy, own[0])
	}
	if c.Exact && (c.Strategy == TestID || c.Strategy == CSS) {
		add(CodeExactNotAllowed, "exact", "exact applies only to names, labels, placeholders and text")
	}
	if c.Exact && c.Strategy == Role && textrule.Blank(c.Name) {
		// exact compares the accessible name; without one it would
		// silently mean nothing.
		add(CodeExactNotAllowed, "exact", "exact on a role candidate compares its name; a role without a name has nothing to compare")
	}
	switch c.Strategy {
	case Text:
		if utf8.RuneCountInString(c.Text) > MaxTextLen {
			add(CodeTooLong, "text", "visible text longer than %d characters", MaxTextLen)
		}
	case Role, Label, Placeholder:
		if utf8.RuneCountInString(primary) > MaxNameLen {
			add(CodeTooLong, own[len(own)-1], "longer than %d characters", MaxNameLen)
		}
	case TestID:
		if len(c.TestID) > MaxTestIDLen {
			add(CodeTooLong, "test_id", "test id longer than %d bytes", MaxTestIDLen)
		}
	case CSS:
		if len(c.CSS) > MaxCSSLen {
			add(CodeTooLong, "css", "selector longer than %d bytes", MaxCSSLen)
		}
		if err := checkCSS(c.CSS); err != "" {
			add(CodeBadCSS, "css", "%s", err)
		}
	}
	if looksLikeCoordinates(primary) {
		add(CodeCoordinates, own[len(own)-1], "coordinates are never a locator")
	}
	return append(ps, c.checkScope()...)
}

func contains(xs []string, x string) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

// checkCSS applies cheap structural checks; the browser is the final judge.
func checkCSS(s string) string {
	depth := 0
	var quote rune
	for _, r := range s {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '"' || r == '\'':
			quote = r
		case r == '(' || r == '[':
			depth++
		case r == ')' || r == ']':
			depth--
			if depth < 0 {
				return "unbalanced brackets"
			}
		case r == '{' || r == '}' || r == ';':
			return "selector contains a declaration block"
		}
	}
	if quote != 0 || depth != 0 {
		return "unbalanced quotes or brackets"
	}
	if strings.Contains(s, ":visible") && !strings.HasSuffix(strings.TrimSpace(s), VisibleSuffix) {
		return ":visible must be the last part of the selector"
	}
	if t := strings.TrimSpace(s); strings.HasSuffix(t, VisibleSuffix) {
		// ":visible" filters what a selector matched; alone (every
		// visible element) or after a dangling combinator it selects
		// nothing the author named.
		rest := strings.TrimSpace(strings.TrimSuffix(t, VisibleSuffix))
		if rest == "" || strings.HasSuffix(rest, ">") || strings.HasSuffix(rest, "+") || strings.HasSuffix(rest, "~") || strings.HasSuffix(rest, ",") {
			return ":visible filters a selector; it is never a selector on its own"
		}
	}
	return ""
}

// looksLikeCoordinates flags values such as "120,340", "x=12 y=40" or
// "@(10, 20)" that encode a screen position rather than an element.
func looksLikeCoordinates(s string) bool {
	t := strings.ToLower(strings.TrimSpace(s))
	if t == "" {
		return false
	}
	if strings.Contains(t, "x=") && strings.Contains(t, "y=") {
		return true
	}
	return coordAxesRE.MatchString(t) && coordAxisYRE.MatchString(t) || coordPairRE.MatchString(t)
}

// Coordinate spellings (FORMAT.md 3.2, locator candidates): an x and a y
// axis each given a signed number ("x: 10 y: -4", "X=10;Y=20"), or a
// lone pair of signed numbers, optionally with px, separated by a comma
// or white space and optionally wrapped in @, () or [] ("(-10, 20)",
// "@10 20", "10px 20px", "+1.5,2").
var (
	coordNumber  = `[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:px)?`
	coordAxesRE  = regexp.MustCompile(`(?:^|[^a-z0-9_-])x\s*[:=]\s*` + coordNumber)
	coordAxisYRE = regexp.MustCompile(`(?:^|[^a-z0-9_-])y\s*[:=]\s*` + coordNumber)
	coordPairRE  = regexp.MustCompile(`^@?[(\[]?\s*` + coordNumber + `\s*(?:,\s*|\s+)` + coordNumber + `\s*[)\]]?$`)
)

// ListContext tells [CheckList] where a candidate list is used; the CSS
// rules depend on it.
type ListContext int

const (
	// Interactive is an action's locator: it needs a semantic candidate and
	// CSS may only follow one.
	Interactive ListContext = iota
	// VisibleMarker is a locator_visible transition marker: CSS alone is
	// allowed when every CSS candidate is scoped with :visible.
	VisibleMarker
	// RecordField is an extraction field inside an already resolved record
	// container: bounded CSS alone is allowed.
	RecordField
	// StateMarker is any other condition or outcome locator: it follows the
	// interactive rules.
	StateMarker = Interactive
)

// List problem codes reported by [CheckList].
const (
	CodeNoCandidates   = "locator_no_candidates"
	CodeTooMany        = "locator_too_many_candidates"
	CodeNoSemantic     = "locator_no_semantic_candidate"
	CodeOrder          = "locator_order"
	CodeCSSNotVisible  = "locator_css_not_visible_scoped"
	CodeDuplicate      = "locator_duplicate_candidate"
	CodeRedactedMarker = "locator_redaction_marker"
)

// ListProblem is a [Problem] of one candidate (Index >= 0) or of the whole
// list (Index == -1).
type ListProblem struct {
	Index int
	Problem
}

// CheckList checks each candidate and the list rules: at least one
// candidate, at most [MaxCandidates], no duplicates, strategies in
// preference order (role, label, placeholder, test id, text, css), a
// semantic candidate first unless the context allows CSS alone, and the
// discovery redaction marker never used literally. marker is that marker
// (pass "" to skip the check).
func CheckList(cs []Candidate, ctx ListContext, marker string) []ListProblem {
	var ps []ListProblem
	if len(cs) == 0 {
		return []ListProblem{{Index: -1, Problem: Problem{Code: CodeNoCandidates, Detail: "at least one locator candidate is required"}}}
	}
	if len(cs) > MaxCandidates {
		ps = append(ps, ListProblem{Index: -1, Problem: Problem{Code: CodeTooMany, Detail: fmt.Sprintf("at most %d candidates", MaxCandidates)}})
	}
	seen := map[key]int{}
	prev := -1
	semantic := false
	for i, c := range cs {
		for _, p := range c.Check() {
			ps = append(ps, ListProblem{Index: i, Problem: p})
		}
		if markerPart(c.Value(), marker) {
			ps = append(ps, ListProblem{Index: i, Problem: Problem{Code: CodeRedactedMarker, Field: string(c.Strategy), Detail: "the discovery redaction marker is never a literal locator"}})
		}
		if c.Scope != nil && markerPart(c.Scope.Value(), marker) {
			ps = append(ps, ListProblem{Index: i, Problem: Problem{Code: CodeRedactedMarker, Field: "scope." + string(c.Scope.Strategy), Detail: "the discovery redaction marker is never a literal locator"}})
		}
		key := c.key()
		if j, dup := seen[key]; dup {
			ps = append(ps, ListProblem{Index: i, Problem: Problem{Code: CodeDuplicate, Detail: fmt.Sprintf("same as candidate %d", j)}})
		}
		seen[key] = i
		r := c.Strategy.Rank()
		if r >= 0 {
			if r < prev {
				ps = append(ps, ListProblem{Index: i, Problem: Problem{Code: CodeOrder, Field: "strategy", Detail: fmt.Sprintf("%s must not follow a less preferred strategy (order: role, label, placeholder, test_id, text, css)", c.Strategy)}})
			}
			prev = max(prev, r)
		}
		if c.Strategy.Semantic() {
			semantic = true
		}
	}
	if !semantic {
		switch ctx {
		case RecordField:
			// bounded CSS inside a resolved record container is allowed
		case VisibleMarker:
			for i, c := range cs {
				if c.Strategy == CSS && !c.VisibleScoped() {
					ps = append(ps, ListProblem{Index: i, Problem: Problem{Code: CodeCSSNotVisible, Field: "css", Detail: "a CSS-only state marker must be scoped with :visible"}})
				}
			}
		default:
			ps = append(ps, ListProblem{Index: -1, Problem: Problem{Code: CodeNoSemantic, Detail: "a semantic candidate (role, label, placeholder, test_id or text) is required before any CSS fallback"}})
		}
	}
	return ps
}

// markerPart reports whether s holds the redaction marker or a part of
// it: the marker's first or its last character (its brackets) anywhere in
// s, alone or with other text around it (FORMAT.md 8.11,
// locator_redaction_marker). An empty marker matches nothing.
func markerPart(s, marker string) bool {
	if marker == "" {
		return false
	}
	first, _ := utf8.DecodeRuneInString(marker)
	last, _ := utf8.DecodeLastRuneInString(marker)
	return strings.ContainsRune(s, first) || strings.ContainsRune(s, last)
}
