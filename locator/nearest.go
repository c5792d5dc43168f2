package locator

import (
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// NameDiff names one way an accessible name on the page differs from the
// name a candidate asked for.
type NameDiff string

// The name differences [CompareName] reports.
const (
	// DiffWhitespace: the names differ in where whitespace falls, beyond
	// runs of spaces (which matching already collapses). Chromium puts a
	// space at every <wbr> and between block children, so
	// "GET /api/pets/{petId}" is named "GET /api /pets /{petId}".
	DiffWhitespace NameDiff = "whitespace"
	// DiffCase: the names differ in letter case.
	DiffCase NameDiff = "case"
	// DiffExtraText: the name on the page has text the candidate does not
	// ("GET /api/pets/{petId} Info for a specific pet"). It explains a miss
	// of an exact candidate only.
	DiffExtraText NameDiff = "extra_text"
	// DiffMissingText: the candidate has text the name on the page lacks.
	DiffMissingText NameDiff = "missing_text"
	// DiffOther: the names differ otherwise (a changed word, a typo).
	DiffOther NameDiff = "different"
)

// MaxCompareRunes bounds the length of the strings [CompareName] and
// [NearestNames] compare: longer names are cut to this many runes first,
// so one huge accessible name cannot make the distance quadratic in it.
const MaxCompareRunes = 256

// NearName is one accessible name on the page and how it differs from the
// wanted name.
type NearName struct {
	// Name is the page's accessible name, whitespace runs collapsed.
	Name string `json:"name"`
	// Distance is the edit distance (Levenshtein, in runes) between the
	// two whitespace-normalised names; smaller is nearer.
	Distance int `json:"distance"`
	// Diffs say why the name differs, in the order whitespace, case, then
	// extra, missing or other text; empty when the names are equal.
	Diffs []NameDiff `json:"diffs,omitempty"`
}

// String renders the name and its differences, e.g.
// `"GET /api /pets /{petId} Info for a specific pet" (whitespace, extra_text)`.
func (n NearName) String() string {
	var b strings.Builder
	b.WriteString(quote(n.Name))
	if len(n.Diffs) > 0 {
		b.WriteString(" (")
		for i, d := range n.Diffs {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(string(d))
		}
		b.WriteString(")")
	}
	return b.String()
}

func quote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }

// CompareName says how the accessible name got differs from the wanted
// name want. Both are compared with whitespace runs collapsed, as locator
// matching does. The differences are found by relaxing the comparison one
// step at a time: with all whitespace removed, then also case folded; the
// steps that were needed for the two to be equal, or for one to contain
// the other, are the differences. When even the most relaxed comparison
// finds neither equal nor contained, the difference is [DiffOther].
func CompareName(want, got string) NearName {
	w, g := clip(normalize(want)), clip(normalize(got))
	n := NearName{Name: g, Distance: levenshtein(w, g)}
	if w == g {
		return n
	}
	type form struct{ w, g string }
	exact := form{w, g}
	noSpace := form{stripSpace(w), stripSpace(g)}
	folded := form{strings.ToLower(noSpace.w), strings.ToLower(noSpace.g)}
	rel := relation(folded.w, folded.g)
	if rel == relNone {
		n.Diffs = []NameDiff{DiffOther}
		return n
	}
	// Whitespace matters when the relation needs the spaces removed: the
	// case-folded forms with spaces do not stand in the same relation.
	if relation(strings.ToLower(exact.w), strings.ToLower(exact.g)) != rel {
		n.Diffs = append(n.Diffs, DiffWhitespace)
	}
	if relation(noSpace.w, noSpace.g) != rel {
		n.Diffs = append(n.Diffs, DiffCase)
	}
	switch rel {
	case relGotContains:
		n.Diffs = append(n.Diffs, DiffExtraText)
	case relWantContains:
		n.Diffs = append(n.Diffs, DiffMissingText)
	}
	return n
}

// NearestNames compares want with every distinct name in names
// ([CompareName]) and returns at most n of them, nearest first: names
// that are equal to or contain the wanted name once whitespace and case
// are relaxed, or are contained in it and hold at least half of its text,
// come before names that differ otherwise; then by edit distance relative to the longer of the two
// names; then by name. Empty names are skipped
// (an unnamed control is no hint). n <= 0 returns nil.
func NearestNames(want string, names []string, n int) []NearName {
	if n <= 0 {
		return nil
	}
	seen := make(map[string]bool, len(names))
	var out []NearName
	for _, name := range names {
		g := normalize(name)
		if g == "" || seen[g] {
			continue
		}
		seen[g] = true
		out = append(out, CompareName(want, g))
	}
	w := utf8.RuneCountInString(clip(normalize(want)))
	wf := len(strings.ToLower(stripSpace(clip(normalize(want)))))
	// A name that the wanted one contains is a hint only when it holds
	// at least half of the wanted text: "pets" is not a near miss of
	// "GET /api/pets/{petId}".
	other := func(x NearName) bool {
		if slices.Contains(x.Diffs, DiffOther) {
			return true
		}
		return slices.Contains(x.Diffs, DiffMissingText) && 2*len(strings.ToLower(stripSpace(x.Name))) < wf
	}
	// The distance relative to the longer name: a short name that shares
	// a word ("pets") is far from "GET /api/pets/{petId}" although few
	// edits separate them.
	rel := func(x NearName) float64 {
		l := max(w, utf8.RuneCountInString(x.Name), 1)
		return float64(x.Distance) / float64(l)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if oi, oj := other(out[i]), other(out[j]); oi != oj {
			return oj
		}
		if ri, rj := rel(out[i]), rel(out[j]); ri != rj {
			return ri < rj
		}
		return out[i].Name < out[j].Name
	})
	if len(out) > n {
		out = out[:n]
	}
	return out
}

type rel int

const (
	relNone rel = iota
	relEqual
	relGotContains
	relWantContains
)

func relation(w, g string) rel {
	switch {
	case w == g:
		return relEqual
	case strings.Contains(g, w):
		return relGotContains
	case strings.Contains(w, g):
		return relWantContains
	}
	return relNone
}

// normalize collapses whitespace runs to one space and trims, as
// matching does.
func normalize(s string) string { return strings.Join(strings.Fields(s), " ") }

func stripSpace(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}

// clip cuts s to MaxCompareRunes runes.
func clip(s string) string {
	if utf8.RuneCountInString(s) <= MaxCompareRunes {
		return s
	}
	return string([]rune(s)[:MaxCompareRunes])
}

// levenshtein is the edit distance in runes, in O(len(b)) memory.
func levenshtein(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
