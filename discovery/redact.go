package discovery

import (
	"maps"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/redact"
	"github.com/vera-run/vera/locator"
)

// Marker is the fixed text that replaces every identifier-shaped substring
// (redact.Marker). It is evidence that redaction happened and is never a
// valid locator value.
const Marker = redact.Marker

// RedactionCounts counts what redaction replaced or withheld. Counts are
// per snapshot processed: a label seen in twelve snapshots counts twelve
// times.
type RedactionCounts struct {
	// Identifiers counts replaced identifier-shaped substrings by kind
	// (the kinds of redact: email, iban, payment_card, phone, ...), in
	// names, labels, placeholders, live-region texts and URL paths.
	Identifiers map[string]int `json:"identifiers"`
	// TestIDsWithheld counts test ids withheld because they held an
	// identifier or a secret, or exceeded the string limit.
	TestIDsWithheld int `json:"test_ids_withheld"`
	// SecretsWithheld counts strings replaced whole by the marker because
	// they were secret-shaped after identifier redaction.
	SecretsWithheld int `json:"secrets_withheld"`
	// FramesWithheld counts frames not recorded: an origin outside the
	// allowed origins or breaking the origin rule, or a selector holding an
	// identifier, deeper than five frames, or too long.
	FramesWithheld int `json:"frames_withheld"`
	// OutOfScope counts snapshots whose top-level document was outside the
	// allowed origins: only that fact was recorded.
	OutOfScope int `json:"out_of_scope"`
	// ControlsWithheld counts controls dropped with their frame or their
	// out-of-scope page.
	ControlsWithheld int `json:"controls_withheld"`
	// ControlsDropped counts controls beyond the MaxControls budget or with
	// a role a snapshot does not record.
	ControlsDropped int `json:"controls_dropped"`
	// StringsTruncated counts strings cut to the string limit.
	StringsTruncated int `json:"strings_truncated"`
}

// Total is the number of identifier replacements of every kind.
func (c *RedactionCounts) Total() int {
	n := 0
	for _, v := range c.Identifiers {
		n += v
	}
	return n
}

func (c *RedactionCounts) clone() RedactionCounts {
	out := *c
	out.Identifiers = maps.Clone(c.Identifiers)
	if out.Identifiers == nil {
		out.Identifiers = map[string]int{}
	}
	return out
}

// rawTail is how many runes are dropped from a string the page truncated
// before it is redacted: an identifier cut in half at the page's limit
// might no longer be recognisable, so the end of a cut string is never
// kept.
const rawTail = 64

// rawStringLen is the string limit passed to the page for a recorded
// limit of n runes: generous enough that the recorded prefix comes from a
// string redacted whole.
func rawStringLen(n int) int { return 4*n + rawTail }

// sanitizer turns raw snapshots into recorded ones.
type sanitizer struct {
	maxString   int
	maxControls int
	allowed     map[string]bool // empty: every acceptable origin
	counts      *RedactionCounts
}

// RedactText applies the discovery redaction path to one string as
// Observe does to names, labels, placeholders and live-region texts:
// whitespace normalised, identifier-shaped substrings replaced by [Marker]
// (counted by kind into counts when it is not nil), a secret-shaped result
// replaced whole by the marker, and the result cut to maxRunes runes
// without splitting a marker (0 means [DefaultMaxStringLen]).
func RedactText(s string, maxRunes int, counts *RedactionCounts) string {
	if maxRunes <= 0 {
		maxRunes = DefaultMaxStringLen
	}
	if counts == nil {
		counts = &RedactionCounts{}
	}
	z := sanitizer{maxString: maxRunes, counts: counts}
	return z.text(s)
}

// text redacts and bounds one string.
func (z *sanitizer) text(s string) string {
	if s == "" {
		return ""
	}
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	truncated := false
	if n := utf8.RuneCountInString(s); n >= rawStringLen(z.maxString) {
		// The page may have cut this string: drop its end before
		// redaction so no half identifier survives.
		s = firstRunes(s, n-rawTail)
		truncated = true
	}
	s = normSpace(s)
	s = z.identifiers(s)
	for utf8.RuneCountInString(s) > z.maxString {
		s = cutRunes(s, z.maxString)
		truncated = true
		// Cutting can create a word boundary; redact to a fixed point.
		s = z.identifiers(s)
	}
	if _, secret := redact.FindSecret(s); secret {
		z.counts.SecretsWithheld++
		return Marker
	}
	if truncated {
		z.counts.StringsTruncated++
	}
	return s
}

// identifiers replaces identifier-shaped substrings until none is left,
// counting replacements by kind.
func (z *sanitizer) identifiers(s string) string {
	for {
		ms := redact.FindIdentifiers(s)
		if len(ms) == 0 {
			return s
		}
		if z.counts.Identifiers == nil {
			z.counts.Identifiers = map[string]int{}
		}
		var b strings.Builder
		b.Grow(len(s) + len(ms)*len(Marker))
		prev := 0
		for _, m := range ms {
			b.WriteString(s[prev:m.Start])
			b.WriteString(Marker)
			prev = m.End
			z.counts.Identifiers[m.Kind]++
		}
		b.WriteString(s[prev:])
		s = b.String()
	}
}

func firstRunes(s string, n int) string {
	if n <= 0 {
		return ""
	}
	i := 0
	for j := range s {
		if i == n {
			return s[:j]
		}
		i++
	}
	return s
}

// cutRunes cuts s to at most n runes without splitting a marker.
func cutRunes(s string, n int) string {
	s = firstRunes(s, n)
	// A marker cut in half leaves "⟦..." without "⟧": drop the fragment.
	if i := strings.LastIndex(s, "⟦"); i >= 0 && !strings.HasPrefix(s[i:], Marker) {
		s = s[:i]
	}
	return strings.TrimRightFunc(s, func(r rune) bool { return r == ' ' })
}

// testID returns the recorded test id and whether it was withheld.
func (z *sanitizer) testID(s string) (string, bool) {
	if s == "" {
		return "", false
	}
	_, secret := redact.FindSecret(s)
	if secret || !utf8.ValidString(s) || redact.ContainsIdentifier(s) ||
		utf8.RuneCountInString(s) > min(z.maxString, locator.MaxTestIDLen) || strings.TrimSpace(s) != s {
		z.counts.TestIDsWithheld++
		return "", true
	}
	return s, false
}

// path returns the recorded URL path: query and fragment removed,
// percent-decoded, identifiers redacted, bounded.
func (z *sanitizer) path(p string) string {
	if i := strings.IndexAny(p, "?#"); i >= 0 {
		p = p[:i]
	}
	if dec, err := url.PathUnescape(p); err == nil {
		p = dec
	}
	if !utf8.ValidString(p) {
		p = strings.ToValidUTF8(p, "\uFFFD")
	}
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	p = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return -1
		}
		return r
	}, p)
	p = z.pathIdentifiers(p)
	if _, secret := redact.FindSecret(p); secret {
		z.counts.SecretsWithheld++
		return "/" + Marker
	}
	if len(p) > capability.MaxURLLen {
		p = cutRunes(p, capability.MaxURLLen/4)
		z.counts.StringsTruncated++
		// A cut can leave a shorter segment that is identifier-shaped.
		p = z.pathIdentifiers(p)
	}
	return p
}

// pathIdentifiers redacts identifier-shaped substrings and whole
// identifier-shaped segments of a path (redact.PathIdentifiers: a client
// code such as /clients/C00103, a numeric id, a UUID), counting them by
// kind (path_segment for a segment redacted whole).
func (z *sanitizer) pathIdentifiers(p string) string {
	p, kinds := redact.PathIdentifiers(p)
	if len(kinds) > 0 && z.counts.Identifiers == nil {
		z.counts.Identifiers = map[string]int{}
	}
	for k, n := range kinds {
		z.counts.Identifiers[k] += n
	}
	return p
}

// originOK reports whether an origin may be recorded.
func (z *sanitizer) originOK(o string) bool {
	if capability.CheckOrigin(o) != nil {
		return false
	}
	return len(z.allowed) == 0 || z.allowed[o]
}

// frameOK reports whether a frame may be recorded.
func (z *sanitizer) frameOK(f RawFrame) bool {
	if len(f.Path) > capability.MaxFrameSelectors || len(f.Origins) != len(f.Path)+1 {
		return false
	}
	for _, sel := range f.Path {
		_, secret := redact.FindSecret(sel)
		if sel == "" || secret || len(sel) > capability.MaxFrameSelectorLen || !utf8.ValidString(sel) ||
			redact.ContainsIdentifier(sel) || strings.TrimSpace(sel) != sel {
			return false
		}
	}
	for _, o := range f.Origins {
		if !z.originOK(o) {
			return false
		}
	}
	return true
}

// snapshot redacts and bounds a raw snapshot.
func (z *sanitizer) snapshot(raw *RawSnapshot) *Snapshot {
	s := &Snapshot{TotalControls: max(raw.TotalControls, len(raw.Controls))}
	z.counts.FramesWithheld += max(raw.FramesSkipped, 0)
	if !z.originOK(raw.Origin) || len(raw.Frames) == 0 || !z.frameOK(raw.Frames[0]) ||
		len(raw.Frames[0].Path) != 0 || raw.Frames[0].Origins[0] != raw.Origin {
		z.counts.OutOfScope++
		z.counts.ControlsWithheld += len(raw.Controls)
		z.counts.FramesWithheld += max(len(raw.Frames)-1, 0)
		s.OutOfScope = true
		s.TotalControls = 0
		if z.originOK(raw.Origin) {
			s.Origin = raw.Origin
		}
		return s
	}
	s.Origin = raw.Origin
	s.URLPath = z.path(raw.Path)
	frameIndex := make([]int, len(raw.Frames)) // raw index -> recorded index, -1 withheld
	seen := map[string]bool{}
	for i, f := range raw.Frames {
		frameIndex[i] = -1
		key := strings.Join(f.Path, "\x1f")
		if i > 0 && (len(f.Path) == 0 || !z.frameOK(f) || seen[key]) {
			z.counts.FramesWithheld++
			continue
		}
		seen[key] = true
		frameIndex[i] = len(s.Frames)
		s.Frames = append(s.Frames, FrameRecord{Path: slices.Clone(f.Path), Origins: slices.Clone(f.Origins)})
	}
	for _, rc := range raw.Controls {
		if rc.Frame < 0 || rc.Frame >= len(raw.Frames) || frameIndex[rc.Frame] < 0 {
			z.counts.ControlsWithheld++
			continue
		}
		role := strings.ToLower(strings.TrimSpace(rc.Role))
		if !RecordedRole(role) || !locator.KnownRole(role) {
			z.counts.ControlsDropped++
			continue
		}
		if len(s.Controls) >= z.maxControls {
			z.counts.ControlsDropped++
			s.Truncated = true
			continue
		}
		c := Control{ControlRef: ControlRef{
			Frame:       slices.Clone(s.Frames[frameIndex[rc.Frame]].Path),
			Role:        role,
			Name:        z.text(rc.Name),
			Label:       z.text(rc.Label),
			Placeholder: z.text(rc.Placeholder),
		}}
		c.TestID, c.TestIDWithheld = z.testID(rc.TestID)
		c.State = ControlState{
			Visible:  rc.Visible,
			Disabled: rc.Disabled,
			Checked:  oneOf(rc.Checked, "true", "false", "mixed"),
			Expanded: oneOf(rc.Expanded, "true", "false"),
		}
		if textRole(role) {
			c.State.Text = z.text(firstRunes(rc.Text, rawStringLen(z.maxString)))
		}
		if len(c.Frame) == 0 {
			c.Frame = nil
		}
		s.Controls = append(s.Controls, c)
	}
	if raw.TotalControls > len(raw.Controls) {
		s.Truncated = true
		z.counts.ControlsDropped += raw.TotalControls - len(raw.Controls)
	}
	return s
}

func oneOf(s string, allowed ...string) string {
	if slices.Contains(allowed, s) {
		return s
	}
	return ""
}
