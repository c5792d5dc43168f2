package capability

import "github.com/vera-run/vera/locator"

// Corpus cases of scoped candidates, output expectations, JSON pointers
// and outcome detection scopes (issue 22.3 and 22.4).
func init() {
	f64 := func(v float64) *float64 { return &v }
	field := func(c *Capability, name string) *OutputField {
		for i := range c.Outputs[0].Fields {
			if c.Outputs[0].Fields[i].Name == name {
				return &c.Outputs[0].Fields[i]
			}
		}
		panic("corpus case: no field " + name)
	}
	region := locator.Candidate{Strategy: locator.Role, Role: "region", Name: "Member"}
	corpusCases = append(corpusCases,
		corpusCase{name: "scope_nested", base: "teller", code: locator.CodeScopeNested, note: "the sign-in button's scope has a scope",
			edit: func(c *Capability) {
				inner := region
				inner.Scope = &locator.Candidate{Strategy: locator.CSS, CSS: "main"}
				action(c, "sign-in").LocatorCandidates[0].Scope = &inner
			}},
		corpusCase{name: "scope_note", base: "teller", code: locator.CodeScopeNote, note: "the sign-in button's scope carries a note",
			edit: func(c *Capability) {
				s := region
				s.Note = "reviewer text"
				action(c, "sign-in").LocatorCandidates[0].Scope = &s
			}},
		corpusCase{name: "scope_bad_css", base: "teller", code: locator.CodeBadCSS, note: "the sign-in button's CSS scope has a declaration block",
			edit: func(c *Capability) {
				action(c, "sign-in").LocatorCandidates[0].Scope = &locator.Candidate{Strategy: locator.CSS, CSS: "form { color: red }"}
			}},
		corpusCase{name: "expectation_empty", base: "teller", code: CodeInvalidExpectation, note: "an expectation without a rule",
			edit: func(c *Capability) { field(c, "savings").Expect = &Expectation{} }},
		corpusCase{name: "expectation_range_on_string", base: "teller", code: CodeInvalidExpectation, note: "minimum on a string field",
			edit: func(c *Capability) { field(c, "savings").Expect = &Expectation{Minimum: f64(0)} }},
		corpusCase{name: "expectation_pattern_invalid", base: "teller", code: CodeInvalidPattern, note: "a pattern that is not RE2 (backreference)",
			edit: func(c *Capability) { field(c, "savings").Expect = &Expectation{Pattern: `^(\$)\1$`} }},
		corpusCase{name: "expectation_secret_input", base: "teller", code: CodeSecretInputExposed, note: "equality with the secret password",
			edit: func(c *Capability) { field(c, "member_name").Expect = &Expectation{EqualsInput: "password"} }},
		corpusCase{name: "expectation_undeclared_input", base: "teller", code: CodeUndeclaredInput, note: "equality with an undeclared input",
			edit: func(c *Capability) { field(c, "member_name").Expect = &Expectation{EqualsInput: "nobody"} }},
		corpusCase{name: "expectation_unknown_outcome", base: "teller", code: CodeUnknownOutcome, note: "a violation mapped to an undeclared outcome",
			edit: func(c *Capability) {
				field(c, "savings").Expect = &Expectation{Pattern: `^\$`, Outcome: "no_such_outcome"}
			}},
		corpusCase{name: "expectation_on_record_output", base: "teller", code: CodeInvalidExpectation, note: "an expectation on a record output itself",
			edit: func(c *Capability) { c.Outputs[0].Expect = &Expectation{Enum: []string{"x"}} }},
		corpusCase{name: "json_pointer_invalid", base: "teller", code: CodeInvalidJSONPointer, note: "a pointer without the leading slash",
			edit: func(c *Capability) { action(c, "extract-balances").Extract.Fields[0].JSONPointer = "name" }},
		corpusCase{name: "detect_after_unknown_action", base: "teller", code: CodeUnknownAfterAction, note: "after_action names no action",
			edit: func(c *Capability) { c.BusinessOutcomes[0].Detect.AfterAction = "no-such-action" }},
		corpusCase{name: "detect_scope_unused", base: "teller", code: CodeDetectScopeUnused, note: "a detect scope with only a url_pattern",
			edit: func(c *Capability) {
				c.BusinessOutcomes[0].Detect = OutcomeDetect{URLPattern: "^/members$", Scope: &region}
			}},
	)
}
