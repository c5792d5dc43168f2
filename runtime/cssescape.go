package runtime

import (
	"fmt"
	"strings"
)

// cssEscape serializes s as a CSS identifier, as CSSOM's CSS.escape does
// (https://drafts.csswg.org/cssom/#serialize-an-identifier): NUL becomes
// U+FFFD; controls, and a digit at the start (or after a leading '-'),
// become a hex escape followed by a space; a lone '-' becomes "\-";
// letters, digits, '-', '_' and every code point from U+0080 stay; every
// other character is escaped with a backslash.
//
// An input substituted into a css candidate goes through it, so the value
// is always data: in an identifier (#{{id}}) and inside a quoted string
// ([data-id="{{id}}"], where CSS decodes the same escapes) it can never
// close the string, add a selector or a combinator, and so it can never
// make the candidate match an element the author did not name.
func cssEscape(s string) string {
	var b strings.Builder
	rs := []rune(s)
	for i, r := range rs {
		switch {
		case r == 0:
			b.WriteRune('\uFFFD')
		case r <= 0x1f || r == 0x7f:
			fmt.Fprintf(&b, "\\%x ", r)
		case r >= '0' && r <= '9' && (i == 0 || (i == 1 && rs[0] == '-')):
			fmt.Fprintf(&b, "\\%x ", r)
		case i == 0 && r == '-' && len(rs) == 1:
			b.WriteString(`\-`)
		case r >= 0x80 || r == '-' || r == '_' || (r >= '0' && r <= '9') || (r >= 'A' && r <= 'Z') || (r >= 'a' && r <= 'z'):
			b.WriteRune(r)
		default:
			b.WriteByte('\\')
			b.WriteRune(r)
		}
	}
	return b.String()
}
