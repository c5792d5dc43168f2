package discovery

import (
	"testing"

	"github.com/vera-run/vera/locator"
)

func TestControlMatches(t *testing.T) {
	box := Control{ControlRef: ControlRef{Role: "textbox", Name: "Member ID", Label: "Member ID", Placeholder: "e.g. " + Marker, TestID: "member-id"}}
	btn := Control{ControlRef: ControlRef{Role: "button", Name: "Search  members"}}
	status := Control{ControlRef: ControlRef{Role: "status"}, State: ControlState{Text: "Page 2 of 3"}}
	aria := Control{ControlRef: ControlRef{Role: "searchbox", Name: "Search mail"}}
	tests := []struct {
		c    Control
		cand locator.Candidate
		want bool
	}{
		{btn, locator.Candidate{Strategy: locator.Role, Role: "button", Name: "Search members", Exact: true}, true},
		{btn, locator.Candidate{Strategy: locator.Role, Role: "button", Name: "search", Exact: false}, true},
		{btn, locator.Candidate{Strategy: locator.Role, Role: "button", Name: "search", Exact: true}, false},
		{btn, locator.Candidate{Strategy: locator.Role, Role: "link", Name: "Search members"}, false},
		{btn, locator.Candidate{Strategy: locator.Role, Role: "button"}, true},
		{box, locator.Candidate{Strategy: locator.Label, Label: "member id"}, true},
		{aria, locator.Candidate{Strategy: locator.Label, Label: "Search mail", Exact: true}, true},
		{box, locator.Candidate{Strategy: locator.Placeholder, Placeholder: "e.g."}, true},
		{box, locator.Candidate{Strategy: locator.TestID, TestID: "member-id"}, true},
		{box, locator.Candidate{Strategy: locator.TestID, TestID: "member"}, false},
		{status, locator.Candidate{Strategy: locator.Text, Text: "Page 2 of 3", Exact: true}, true},
		{btn, locator.Candidate{Strategy: locator.Text, Text: "Search"}, true},
		{btn, locator.Candidate{Strategy: locator.CSS, CSS: "button"}, false},
		// Templates match any text; their literal parts must appear in order.
		{status, locator.Candidate{Strategy: locator.Text, Text: "Page {{n}} of 3", Exact: true}, true},
		{status, locator.Candidate{Strategy: locator.Text, Text: "of 3 {{n}} Page", Exact: true}, false},
		{status, locator.Candidate{Strategy: locator.Text, Text: "age {{n}} of", Exact: true}, false},
		{status, locator.Candidate{Strategy: locator.Text, Text: "age {{n}} of"}, true},
		{btn, locator.Candidate{Strategy: locator.Role, Role: "button", Name: "{{action}} members", Exact: true}, true},
		{btn, locator.Candidate{Strategy: locator.Role, Role: "button", Name: "{{action}} member", Exact: true}, false},
		{btn, locator.Candidate{Strategy: locator.Role, Role: "button", Name: "Search {{x", Exact: true}, false},
	}
	for i, tt := range tests {
		if got := tt.c.Matches(tt.cand); got != tt.want {
			t.Errorf("%d: %s matches %+v = %v, want %v", i, tt.cand, tt.c.ControlRef, got, tt.want)
		}
	}
	if len(InteractiveRoles()) == 0 || len(MarkerRoles()) == 0 || !RecordedRole("status") || RecordedRole("row") {
		t.Error("role sets")
	}
}
