package capability

import (
	"fmt"
	"github.com/vera-run/vera/internal/textrule"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/vera-run/vera/locator"
)

// MaxCSSOnlyReasonRunes bounds [Action.CSSOnlyReason], in runes.
const MaxCSSOnlyReasonRunes = 500

// cssOnlyReason checks an action's css_only_reason and reports whether it
// declares an honest CSS-only target: a non-blank reason of at most
// [MaxCSSOnlyReasonRunes] runes without control characters, on a
// non-consequential action whose every locator candidate is CSS. Only
// then is the semantic-candidate rule waived (the caller checks the list
// as bounded CSS). A reason anywhere else is reported and waives nothing.
func (v *validation) cssOnlyReason(p pth, a *Action) bool {
	r := a.CSSOnlyReason
	if r == "" {
		return false
	}
	pp := p.f("css_only_reason")
	ok := true
	switch {
	case textrule.Blank(r):
		v.add(pp, CodeCSSOnlyReasonInvalid, "css_only_reason must not be blank", "")
		ok = false
	case !utf8.ValidString(r) || utf8.RuneCountInString(r) > MaxCSSOnlyReasonRunes:
		v.add(pp, CodeCSSOnlyReasonInvalid, fmt.Sprintf("css_only_reason is at most %d characters", MaxCSSOnlyReasonRunes), "")
		ok = false
	case strings.ContainsFunc(r, unicode.IsControl):
		v.add(pp, CodeCSSOnlyReasonInvalid, "css_only_reason is one line of text without control characters", "")
		ok = false
	}
	if len(a.LocatorCandidates) == 0 {
		v.add(pp, CodeCSSOnlyReasonMisplaced, "css_only_reason explains a CSS-only locator; this action has no locator_candidates", "")
		return false
	}
	for _, c := range a.LocatorCandidates {
		if c.Strategy != locator.CSS {
			v.add(pp, CodeCSSOnlyReasonMisplaced, "css_only_reason is allowed only when every locator candidate is css; with a semantic candidate, drop the reason", "")
			return false
		}
	}
	if a.Effect == EffectConsequential {
		v.add(pp, CodeCSSOnlyReasonMisplaced, "a consequential action needs a semantic candidate the approver can recognise; css_only_reason does not waive it", "")
		return false
	}
	return ok
}
