package discovery

import (
	"slices"
	"strings"
	"unicode"

	"github.com/vera-run/vera/locator"
)

// ControlRef identifies an observed control: its frame path and the
// redacted semantic fields a locator may use. It never holds a form value.
type ControlRef struct {
	// Frame is the frame path (runtime.frame_selectors form); empty for the
	// top-level document.
	Frame []string `json:"frame,omitempty"`
	// Role is the ARIA role.
	Role string `json:"role"`
	// Name is the redacted accessible name.
	Name string `json:"name,omitempty"`
	// Label is the redacted label text.
	Label string `json:"label,omitempty"`
	// Placeholder is the redacted placeholder.
	Placeholder string `json:"placeholder,omitempty"`
	// TestID is the test id, empty when withheld.
	TestID string `json:"test_id,omitempty"`
	// TestIDWithheld reports that the control had a test id holding an
	// identifier (or a secret, or longer than the string limit), which
	// was withheld.
	TestIDWithheld bool `json:"test_id_withheld,omitempty"`
}

// ControlState is the observable state of a control. It never holds a form
// value.
type ControlState struct {
	Visible  bool `json:"visible"`
	Disabled bool `json:"disabled,omitempty"`
	// Checked is "true", "false" or "mixed" for checkable controls.
	Checked string `json:"checked,omitempty"`
	// Expanded is "true" or "false" when the control declares it.
	Expanded string `json:"expanded,omitempty"`
	// Text is the redacted, bounded visible text of a nameless live region
	// (role status or alert), such as "Page 2 of 3".
	Text string `json:"text,omitempty"`
}

// Control is one observed control or state marker with its state.
type Control struct {
	ControlRef
	State ControlState `json:"state"`
}

// FrameRecord is one observed document: its frame path and the origin of
// every document on the way (top-level first).
type FrameRecord struct {
	Path    []string `json:"path"`
	Origins []string `json:"origins"`
}

// Snapshot is one redacted, bounded snapshot: what an [Explorer] sees and
// what observations are computed from.
type Snapshot struct {
	// Origin is the top-level origin; empty when it breaks the origin rule
	// (see OutOfScope).
	Origin string `json:"origin,omitempty"`
	// URLPath is the top-level URL's percent-decoded path with identifiers
	// redacted; empty when OutOfScope.
	URLPath string `json:"url_path,omitempty"`
	// OutOfScope reports that the top-level document is outside the
	// allowed origins (or has no acceptable origin): nothing else of it was
	// recorded.
	OutOfScope bool `json:"out_of_scope,omitempty"`
	// Frames lists the recorded documents, the top-level one first.
	Frames []FrameRecord `json:"frames,omitempty"`
	// Controls are the recorded controls, in the page's order.
	Controls []Control `json:"controls,omitempty"`
	// TotalControls is how many controls the page reported before the
	// MaxControls budget.
	TotalControls int `json:"total_controls"`
	// Truncated reports that MaxControls dropped controls.
	Truncated bool `json:"truncated,omitempty"`
}

// Interactive roles and state-marker roles a snapshot records. Other roles
// are dropped: table rows and cells, list items, generic containers, text.
var (
	interactiveRoles = []string{
		"button", "checkbox", "combobox", "link", "listbox", "menuitem",
		"menuitemcheckbox", "menuitemradio", "radio", "searchbox", "slider",
		"spinbutton", "switch", "tab", "textbox",
	}
	markerRoles = []string{
		"alert", "alertdialog", "dialog", "grid", "heading", "progressbar",
		"status", "table", "tabpanel",
	}
)

// InteractiveRoles returns the roles recorded as interactive controls.
func InteractiveRoles() []string { return slices.Clone(interactiveRoles) }

// MarkerRoles returns the roles recorded as state markers.
func MarkerRoles() []string { return slices.Clone(markerRoles) }

// RecordedRole reports whether a snapshot records controls of this role.
func RecordedRole(role string) bool {
	return slices.Contains(interactiveRoles, role) || slices.Contains(markerRoles, role)
}

// textRole reports whether a role's visible text is recorded (nameless
// live regions).
func textRole(role string) bool { return role == "status" || role == "alert" }

// key is a control's identity for diffing: everything but the state.
func (r *ControlRef) key() string {
	var b strings.Builder
	for _, f := range r.Frame {
		b.WriteString(f)
		b.WriteByte(0x1f)
	}
	for _, s := range [...]string{r.Role, r.Name, r.Label, r.Placeholder, r.TestID} {
		b.WriteByte(0x1e)
		b.WriteString(s)
	}
	if r.TestIDWithheld {
		b.WriteByte(0x1d)
	}
	return b.String()
}

// Equal reports whether two references name the same control.
func (r ControlRef) Equal(o ControlRef) bool { return r.key() == o.key() }

// Matches reports whether the locator candidate would select this control
// by its recorded fields: role and name, label (or the accessible name of
// a control without a label element), placeholder, test id, or text (the
// name or a live region's text). Matching follows the locator rules: exact
// compares whitespace-normalised strings, otherwise a case-insensitive
// substring; a {{template}} matches any text, so only its literal parts
// must appear, in order. CSS candidates never match: discovery cannot
// confirm them from the recorded fields.
func (c Control) Matches(cand locator.Candidate) bool {
	r := c.ControlRef
	switch cand.Strategy {
	case locator.Role:
		return r.Role == cand.Role && (cand.Name == "" || textMatch(cand.Name, r.Name, cand.Exact))
	case locator.Label:
		if r.Label != "" {
			return textMatch(cand.Label, r.Label, cand.Exact)
		}
		return textMatch(cand.Label, r.Name, cand.Exact)
	case locator.Placeholder:
		return textMatch(cand.Placeholder, r.Placeholder, cand.Exact)
	case locator.TestID:
		return cand.TestID != "" && r.TestID == cand.TestID
	case locator.Text:
		return textMatch(cand.Text, r.Name, cand.Exact) || textMatch(cand.Text, c.State.Text, cand.Exact)
	}
	return false
}

// normSpace collapses whitespace runs to one space and trims.
func normSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

// textMatch applies the locator matching rule with template wildcards.
func textMatch(want, have string, exact bool) bool {
	want, have = normSpace(want), normSpace(have)
	if want == "" || have == "" {
		return false
	}
	parts, templated := splitTemplate(want)
	if !templated {
		if exact {
			return want == have
		}
		return strings.Contains(strings.ToLower(have), strings.ToLower(want))
	}
	h := strings.ToLower(have)
	pos := 0
	for i, p := range parts {
		p = strings.ToLower(p)
		if p == "" {
			continue
		}
		j := strings.Index(h[pos:], p)
		if j < 0 {
			return false
		}
		if exact && i == 0 && j != 0 {
			return false
		}
		pos += j + len(p)
	}
	if exact && parts[len(parts)-1] != "" && pos != len(h) {
		return false
	}
	return true
}

// splitTemplate splits s around {{name}} templates; the parts between
// templates are returned (first and last may be empty).
func splitTemplate(s string) (parts []string, templated bool) {
	for {
		i := strings.Index(s, "{{")
		if i < 0 {
			return append(parts, s), templated
		}
		j := strings.Index(s[i:], "}}")
		if j < 0 {
			return append(parts, s), templated
		}
		parts = append(parts, s[:i])
		s = s[i+j+2:]
		templated = true
	}
}

// diff is the change between two consecutive snapshots.
type diff struct {
	appeared    []Control
	disappeared []Control
	changed     []ControlChange
}

func (d *diff) empty() bool {
	return len(d.appeared) == 0 && len(d.disappeared) == 0 && len(d.changed) == 0
}

// ControlChange is a control whose state changed between two snapshots.
type ControlChange struct {
	Control ControlRef `json:"control"`
	// Nth is the occurrence among controls with the same reference (0 for
	// the first), so that the change can be replayed exactly.
	Nth    int          `json:"nth,omitempty"`
	Before ControlState `json:"before"`
	After  ControlState `json:"after"`
}

// diffControls compares two control lists as multisets keyed by reference:
// the i-th occurrence of a reference before pairs with its i-th occurrence
// after; extra occurrences appeared or disappeared.
func diffControls(before, after []Control) diff {
	bi := indexByKey(before)
	ai := indexByKey(after)
	var d diff
	done := make(map[string]bool, len(ai))
	for _, c := range after {
		k := c.key()
		if done[k] {
			continue
		}
		done[k] = true
		bs, as := bi[k], ai[k]
		for n, idx := range as {
			if n < len(bs) {
				if before[bs[n]].State != after[idx].State {
					d.changed = append(d.changed, ControlChange{
						Control: cloneRef(after[idx].ControlRef), Nth: n,
						Before: before[bs[n]].State, After: after[idx].State,
					})
				}
				continue
			}
			d.appeared = append(d.appeared, cloneControl(after[idx]))
		}
	}
	gone := make(map[string]bool, len(bi))
	for _, c := range before {
		k := c.key()
		if gone[k] {
			continue
		}
		gone[k] = true
		bs, as := bi[k], ai[k]
		for _, idx := range bs[min(len(bs), len(as)):] {
			d.disappeared = append(d.disappeared, cloneControl(before[idx]))
		}
	}
	return d
}

func indexByKey(cs []Control) map[string][]int {
	m := make(map[string][]int, len(cs))
	for i := range cs {
		k := cs[i].key()
		m[k] = append(m[k], i)
	}
	return m
}

func cloneRef(r ControlRef) ControlRef {
	r.Frame = slices.Clone(r.Frame)
	return r
}

func cloneControl(c Control) Control {
	c.ControlRef = cloneRef(c.ControlRef)
	return c
}

// applyDiff replays an observation's changes onto a control list.
func applyDiff(cs []Control, appeared, disappeared []Control, changed []ControlChange) []Control {
	out := slices.Clone(cs)
	for _, ch := range changed {
		k := ch.Control.key()
		n := 0
		for i := range out {
			if out[i].key() == k {
				if n == ch.Nth {
					out[i].State = ch.After
					break
				}
				n++
			}
		}
	}
	for _, dc := range disappeared {
		k := dc.key()
		for i := len(out) - 1; i >= 0; i-- {
			if out[i].key() == k {
				out = slices.Delete(out, i, i+1)
				break
			}
		}
	}
	return append(out, appeared...)
}

// framesEqual reports whether two frame lists are the same.
func framesEqual(a, b []FrameRecord) bool {
	return slices.EqualFunc(a, b, func(x, y FrameRecord) bool {
		return slices.Equal(x.Path, y.Path) && slices.Equal(x.Origins, y.Origins)
	})
}

// words splits s into lower-case letter runs.
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) })
}
