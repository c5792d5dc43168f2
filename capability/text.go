package capability

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/vera-run/vera/internal/redact"
	"github.com/vera-run/vera/internal/strictjson"
	"github.com/vera-run/vera/internal/textrule"
)

// markerBrackets are the first and last characters of the redaction
// marker (U+27E6, U+27E7). Either one anywhere in a string is a part of
// the marker (FORMAT.md 8.11, redaction_marker): the brackets are
// reserved for it, so a verifier needs no guess about how much of the
// marker makes "a partial marker".
var markerBrackets = func() string {
	first, _ := utf8.DecodeRuneInString(redact.Marker)
	last, _ := utf8.DecodeLastRuneInString(redact.Marker)
	return string(first) + string(last)
}()

// hasMarkerPart reports whether s holds the redaction marker or a part of
// it (either bracket), alone or with other text around it.
func hasMarkerPart(s string) bool { return strings.ContainsAny(s, markerBrackets) }

// characters applies the character rules every string of a capability
// obeys, whatever its member (FORMAT.md 1.4): no forbidden control
// (control_character) and no bidirectional formatting control
// (bidi_control). The character is named by code point, never echoed.
func (v *validation) characters(segs []strictjson.PathSeg, s string) {
	if r, ok := textrule.FindForbiddenControl(s); ok {
		v.add(at(strictjson.Path(segs)), CodeControlCharacter,
			fmt.Sprintf("holds the control character U+%04X; no string of a capability holds C0 controls other than tab, LF and CR, DEL, C1 controls, U+2028 or U+2029", r), "")
	}
	if r, ok := textrule.FindBidi(s); ok {
		v.add(at(strictjson.Path(segs)), CodeBidiControl,
			fmt.Sprintf("holds the bidirectional formatting control U+%04X, which reorders what a reviewer sees", r), "")
	}
}
