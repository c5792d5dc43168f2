package convert

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"
)

// Disposition says what became of one source value.
type Disposition string

// The dispositions. Every leaf value of the source document is covered by
// exactly the entries whose Source is the leaf's path or one of its
// ancestors; [Report.Uncovered] lists leaves no entry covers (always empty
// for a document the importer returned: it adds [Unhandled] entries itself).
const (
	// Mapped: carried faithfully to Target (perhaps renamed, as a
	// camelCase name to snake_case; the note says how).
	Mapped Disposition = "mapped"
	// Derived: not a value of the capability itself, but used to derive one
	// (an origin from a navigate URL, a postcondition from the next step's
	// target); the note says what was derived.
	Derived Disposition = "derived"
	// Weakened: mapped to a strictly weaker condition that the source
	// condition implies (the literal prefix of a URL regular expression);
	// a reviewer should strengthen it.
	Weakened Disposition = "weakened"
	// Unmapped: the capability has no faithful place for the value; it is
	// not in the draft. The note says why and what a reviewer should do.
	Unmapped Disposition = "unmapped"
	// Unhandled: the importer has no rule for the value. It is a bug in the
	// importer, reported rather than dropped; the tests prove none occurs
	// for every member of both formats.
	Unhandled Disposition = "unhandled"
)

// Entry is the fate of one source value (and everything below it).
type Entry struct {
	// Source is the JSON path in the source document.
	Source string `json:"source"`
	// Disposition is what became of it.
	Disposition Disposition `json:"disposition"`
	// Target is the JSON path in the draft capability ("" when unmapped).
	Target string `json:"target,omitempty"`
	// Note explains the mapping or its absence for a reviewer.
	Note string `json:"note,omitempty"`
	// Value keeps a source scalar the reviewer still needs: an Unmapped
	// value the capability has no place for (createdAt, discoveryRunId), or
	// the recorded example of a typed input. It is never set for a value
	// typed into a password field.
	Value string `json:"value,omitempty"`
}

// Report is the import report: what became of every source value, and
// what a reviewer must still decide. It never holds a value typed into a
// password field.
type Report struct {
	// Format is the source format.
	Format string `json:"format"`
	// Entries in the order the importer made them.
	Entries []Entry `json:"entries"`
	// Review lists the decisions the import could not make and a reviewer
	// must (exposure of outputs, data classes, effects of risky steps).
	Review []string `json:"review"`
}

// Unmapped returns the entries whose value is not in the draft (Unmapped
// and Unhandled).
func (r *Report) Unmapped() []Entry {
	var out []Entry
	for _, e := range r.Entries {
		if e.Disposition == Unmapped || e.Disposition == Unhandled {
			out = append(out, e)
		}
	}
	return out
}

// Find returns the entries about exactly the source path.
func (r *Report) Find(source string) []Entry {
	var out []Entry
	for _, e := range r.Entries {
		if e.Source == source {
			out = append(out, e)
		}
	}
	return out
}

// Covers reports whether some entry is about the path or an ancestor of it.
func (r *Report) Covers(path string) bool {
	for _, e := range r.Entries {
		if covers(e.Source, path) {
			return true
		}
	}
	return false
}

// covers reports whether anc is path or an ancestor of path.
func covers(anc, path string) bool {
	if anc == "" || anc == path {
		return true
	}
	if !strings.HasPrefix(path, anc) {
		return false
	}
	c := path[len(anc)]
	return c == '.' || c == '['
}

// Uncovered returns the leaf paths of the source value (as decoded
// generically) that no entry covers, sorted.
func (r *Report) Uncovered(source any) []string {
	var out []string
	Leaves(source, func(p string) {
		if !r.Covers(p) {
			out = append(out, p)
		}
	})
	sort.Strings(out)
	return out
}

func (r *Report) add(d Disposition, source, target, note string) {
	r.Entries = append(r.Entries, Entry{Source: source, Disposition: d, Target: target, Note: note})
}

// keep adds an Unmapped entry that keeps the source value.
func (r *Report) keep(source, value, note string) {
	r.Entries = append(r.Entries, Entry{Source: source, Disposition: Unmapped, Note: note, Value: value})
}

func (r *Report) review(s string) { r.Review = append(r.Review, s) }

// finish adds an Unhandled entry for every leaf no entry covers.
func (r *Report) finish(source any) {
	for _, p := range r.Uncovered(source) {
		r.add(Unhandled, p, "", "the importer has no rule for this value; it is not in the draft")
	}
}

// Leaves calls fn with the path of every leaf of a generically decoded JSON
// value (map[string]any, []any, scalars): every scalar, null, empty object
// and empty array, in sorted member order. Paths use Vera's syntax
// (steps[1].target.primary.role).
func Leaves(v any, fn func(path string)) { leaves(v, "", fn) }

func leaves(v any, p string, fn func(string)) {
	switch t := v.(type) {
	case map[string]any:
		if len(t) == 0 {
			fn(p)
			return
		}
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			leaves(t[k], join(p, k), fn)
		}
	case []any:
		if len(t) == 0 {
			fn(p)
			return
		}
		for i, e := range t {
			leaves(e, idx(p, i), fn)
		}
	default:
		fn(p)
	}
}

func join(p, name string) string {
	if p == "" {
		return name
	}
	return p + "." + name
}

func idx(p string, i int) string { return p + "[" + strconv.Itoa(i) + "]" }

// MarshalJSON is the report's stable JSON form (Entries and Review never
// null).
func (r *Report) MarshalJSON() ([]byte, error) {
	type plain Report
	c := plain(*r)
	if c.Entries == nil {
		c.Entries = []Entry{}
	}
	if c.Review == nil {
		c.Review = []string{}
	}
	return json.Marshal(c)
}
