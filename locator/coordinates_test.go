package locator

import "testing"

// TestLooksLikeCoordinates: coordinates are rejected in every spelling
// (issue 14), and ordinary names, CSS and text are not coordinates.
func TestLooksLikeCoordinates(t *testing.T) {
	for s, want := range map[string]bool{
		"x=10,y=20":      true,
		"10,20":          true,
		"(10, 20)":       true,
		"@10,20":         true,
		"-10,20":         true,
		"+1.5, -2":       true,
		"10 20":          true,
		"10px 20px":      true,
		"[ -3 , .5 ]":    true,
		"x: 10 y: 20":    true,
		"X:10; Y:-4":     true,
		"x = 3, y = 4":   true,
		"Submit":         false,
		"Page 2 of 10":   false,
		"10":             false,
		"10, 20, 30":     false,
		"box: 10 day: 2": false,
		"td.amount":      false,
		"#x-10 .y-20":    false,
		"Balance: 10":    false,
		"2026-03-01":     false,
		"1,204.10 EUR":   false,
	} {
		if got := looksLikeCoordinates(s); got != want {
			t.Errorf("looksLikeCoordinates(%q) = %t, want %t", s, got, want)
		}
	}
}

// TestVisibleAloneIsNoSelector: ":visible" as a whole CSS candidate, or
// after a dangling combinator, is locator_bad_css (issue 14).
func TestVisibleAloneIsNoSelector(t *testing.T) {
	for s, bad := range map[string]bool{
		":visible":          true,
		"  :visible ":       true,
		"div > :visible":    true,
		"div >:visible":     true,
		"ul ~ :visible":     true,
		"button:visible":    false,
		"#panel tr:visible": false,
		"a, :visible":       true,
		"a,:visible":        true,
	} {
		if got := checkCSS(s) != ""; got != bad {
			t.Errorf("checkCSS(%q) = %q, want bad %t", s, checkCSS(s), bad)
		}
	}
}

// TestExactRoleNeedsName: exact on a role candidate without a name is
// locator_exact_not_allowed (issue 14).
func TestExactRoleNeedsName(t *testing.T) {
	has := func(c Candidate) bool {
		for _, p := range c.Check() {
			if p.Code == CodeExactNotAllowed {
				return true
			}
		}
		return false
	}
	if !has(Candidate{Strategy: Role, Role: "button", Exact: true}) {
		t.Error("exact role without a name accepted")
	}
	if !has(Candidate{Strategy: Role, Role: "button", Name: "  ", Exact: true}) {
		t.Error("exact role with a blank name accepted")
	}
	if has(Candidate{Strategy: Role, Role: "button", Name: "Save", Exact: true}) || has(Candidate{Strategy: Role, Role: "button"}) {
		t.Error("a valid role candidate is refused")
	}
}
