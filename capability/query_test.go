package capability

import (
	"encoding/json"
	"testing"
)

// TestQueryEntriesValid: a start query and a navigate query with literals
// and non-secret templates, and a frame-scoped URL condition, validate
// clean; the execution hash covers the entries in order.
func TestQueryEntriesValid(t *testing.T) {
	c := loadValid(t, "mail")
	c.Runtime.StartQuery = []QueryEntry{{Name: "view", Value: "inbox"}, {Name: "q", Value: "{{query}}"}, {Name: "empty", Value: ""}}
	if errs := c.Validate(); len(errs) != 0 {
		t.Fatalf("unexpected problems: %v", errs)
	}
	h1, err := c.ExecutionHash()
	if err != nil {
		t.Fatal(err)
	}
	c.Runtime.StartQuery[0], c.Runtime.StartQuery[1] = c.Runtime.StartQuery[1], c.Runtime.StartQuery[0]
	h2, _ := c.ExecutionHash()
	if h1 == h2 {
		t.Fatal("reordering query entries left the execution hash unchanged")
	}
	raw, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseBytes(raw)
	if err != nil {
		t.Fatal(err)
	}
	if h3, _ := back.ExecutionHash(); h3 != h2 {
		t.Fatal("the execution hash changed through a JSON round trip")
	}

	inv := loadValid(t, "invoice")
	a, _, _, _ := inv.Action("click-next-page")
	a.Postcondition = &Condition{Kind: CondURLIncludes, Value: "page=2", Scope: ScopeFrame}
	if errs := inv.Validate(); len(errs) != 0 {
		t.Fatalf("frame-scoped url_includes: %v", errs)
	}
	before, _ := inv.ExecutionHash()
	a.Postcondition.Scope = ""
	after, _ := inv.ExecutionHash()
	if before == after {
		t.Fatal("the condition scope is not covered by the execution hash")
	}
}

// TestQueryEntriesInvalid: bad entries on a navigate action, each with its
// code and path.
func TestQueryEntriesInvalid(t *testing.T) {
	tests := []struct {
		name  string
		query []QueryEntry
		code  Code
		path  string
	}{
		{"secret", []QueryEntry{{Name: "u", Value: "x{{password}}"}}, CodeSecretInputExposed, "milestones[0].actions[0].query[0].value"},
		{"undeclared", []QueryEntry{{Name: "u", Value: "{{nope}}"}}, CodeUndeclaredInput, "milestones[0].actions[0].query[0].value"},
		{"malformed template", []QueryEntry{{Name: "u", Value: "{{member_id"}}, CodeInvalidTemplate, "milestones[0].actions[0].query[0].value"},
		{"empty name", []QueryEntry{{Name: "", Value: "x"}}, CodeRequired, "milestones[0].actions[0].query[0].name"},
		{"control name", []QueryEntry{{Name: "a\tb", Value: "x"}}, CodeInvalidQueryEntry, "milestones[0].actions[0].query[0].name"},
		{"duplicate", []QueryEntry{{Name: "u", Value: "1"}, {Name: "u", Value: "2"}}, CodeDuplicateQueryName, "milestones[0].actions[0].query[1].name"},
		{"session name", []QueryEntry{{Name: "SessionID", Value: "{{member_id}}"}}, CodeCredentialQueryName, "milestones[0].actions[0].query[0].name"},
		{"sig name", []QueryEntry{{Name: "sig", Value: "x"}}, CodeCredentialQueryName, "milestones[0].actions[0].query[0].name"},
		{"value too long", []QueryEntry{{Name: "u", Value: string(make([]byte, MaxQueryValueLen+1))}}, CodeTooLong, "milestones[0].actions[0].query[0].value"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := loadValid(t, "teller")
			m := &c.Milestones[0]
			nav := Action{ID: "open-search", Operation: OpNavigate, Intent: "open the member search", Effect: EffectReadOnly,
				Confirmation: ConfirmNone, URL: "/members", Query: tc.query,
				Postcondition: &Condition{Kind: CondURLPath, Value: "/members"}}
			m.Actions = append([]Action{nav}, m.Actions...)
			errs := c.Validate()
			found := false
			for _, e := range errs {
				if e.Code == tc.code && e.Path == tc.path {
					found = true
				}
			}
			if !found {
				t.Fatalf("want %s at %s, got %v", tc.code, tc.path, errs)
			}
		})
	}
}
