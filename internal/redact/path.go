package redact

import "strings"

// KindPathSegment is the kind [PathIdentifiers] reports for a URL path
// segment that is identifier-shaped as a whole (see [PathSegmentIdentifier]).
const KindPathSegment = "path_segment"

// PathSegmentIdentifier reports whether one URL path segment (no "/") is
// identifier-shaped as a segment. Counting ASCII letters and digits
// outside [Marker], it is when it holds two or more digits ("C00103",
// "C12", "INV-2024-0042", "a1b2c3d4", "42") or digits and no letter at
// all ("7", "2024-11"). A single digit among letters ("v2", "oauth2",
// "2fa", "utf-8", "page-3") is a version or a name, not a record key, and
// stays; [Marker] alone never matches. A path segment is the one place
// where an application puts the key of the record it shows, so this rule
// is broader than [Identifiers] (which needs six digits for a bare
// number): in free text "Room 12" is not an identifier, in "/rooms/12" it
// is.
func PathSegmentIdentifier(seg string) bool {
	seg = strings.ReplaceAll(seg, Marker, "")
	digits, letters := 0, 0
	for i := 0; i < len(seg); i++ {
		switch c := class[seg[i]]; {
		case c&cDigit != 0:
			digits++
		case c&(cUpper|cLower) != 0:
			letters++
		}
	}
	return digits >= 2 || digits == 1 && letters == 0
}

// PathIdentifiers redacts a slash-separated URL path: first every
// identifier-shaped substring ([Identifiers]), then every segment that is
// identifier-shaped as a segment ([PathSegmentIdentifier]) is replaced
// whole by [Marker]. It returns the result and the number of replacements
// by kind (nil when none). Slashes, and so the path's shape, are kept:
// "/clients/C00103/edit" becomes "/clients/⟦redacted⟧/edit". The result is
// a fixed point and [ContainsPathIdentifier] of it is false.
func PathIdentifiers(p string) (string, map[string]int) {
	var counts map[string]int
	add := func(kind string) {
		if counts == nil {
			counts = map[string]int{}
		}
		counts[kind]++
	}
	for {
		ms := FindIdentifiers(p)
		if len(ms) == 0 {
			break
		}
		var b strings.Builder
		prev := 0
		for _, m := range ms {
			b.WriteString(p[prev:m.Start])
			b.WriteString(Marker)
			prev = m.End
			add(m.Kind)
		}
		b.WriteString(p[prev:])
		p = b.String()
	}
	segs := strings.Split(p, "/")
	changed := false
	for i, s := range segs {
		if PathSegmentIdentifier(s) {
			segs[i] = Marker
			add(KindPathSegment)
			changed = true
		}
	}
	if changed {
		p = strings.Join(segs, "/")
	}
	return p, counts
}

// ContainsPathIdentifier reports whether [PathIdentifiers] would change p.
func ContainsPathIdentifier(p string) bool {
	if ContainsIdentifier(p) {
		return true
	}
	for s := range strings.SplitSeq(p, "/") {
		if PathSegmentIdentifier(s) {
			return true
		}
	}
	return false
}
