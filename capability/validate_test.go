package capability

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/vera-run/vera/internal/redact"
	"github.com/vera-run/vera/internal/strictjson"
	"github.com/vera-run/vera/locator"
)

// TestRules covers rules with valid variants, cascades the single-rule
// corpus avoids, and the JSON paths of reported problems.
func TestRules(t *testing.T) {
	nav := func(id, url string) Action {
		return Action{ID: id, Operation: OpNavigate, Intent: "Open " + url, Effect: EffectReadOnly,
			Confirmation: ConfirmNone, URL: url, Postcondition: &Condition{Kind: CondURLIncludes, Value: "/"}}
	}
	tests := []struct {
		name     string
		base     string
		edit     func(t *testing.T, c *Capability)
		want     []Code // distinct codes, sorted; nil means valid
		wantPath string // path of the first problem, when set
	}{
		// Valid variants.
		{name: "valid teller", base: "teller"},
		{name: "field with empty list reads the root", base: "teller", edit: func(t *testing.T, c *Capability) {
			act(t, c, "extract-balances").Extract.Fields[0].LocatorCandidates = []locator.Candidate{}
		}},
		{name: "remote https origin", base: "teller", edit: func(t *testing.T, c *Capability) {
			c.Site.AllowedOrigins = []string{"https://teller.example.com"}
		}},
		{name: "https origin with port", base: "teller", edit: func(t *testing.T, c *Capability) {
			c.Site.AllowedOrigins = []string{"https://teller.example.com:8443"}
		}},
		{name: "ipv6 loopback with port", base: "teller", edit: func(t *testing.T, c *Capability) {
			c.Site.AllowedOrigins = []string{"http://[::1]:4010"}
		}},
		{name: "localhost with port", base: "teller", edit: func(t *testing.T, c *Capability) {
			c.Site.AllowedOrigins = []string{"http://localhost:4010"}
		}},
		{name: "navigate with a fragment template", base: "mail", edit: func(t *testing.T, c *Capability) {
			m := ms(t, c, "search")
			m.Actions = append(m.Actions, nav("open-search", "/mail#search/{{query}}"))
		}},
		{name: "navigate to an absolute URL on an allowed origin", base: "invoice", edit: func(t *testing.T, c *Capability) {
			m := ms(t, c, "export")
			m.Actions = append([]Action{nav("open-ledger", "http://localhost:4031/ledger")}, m.Actions...)
		}},
		{name: "output_produced postcondition may omit the output", base: "teller", edit: func(t *testing.T, c *Capability) {
			act(t, c, "extract-balances").Postcondition.Output = ""
		}},
		{name: "declared native gap", base: "teller", edit: func(t *testing.T, c *Capability) {
			m := ms(t, c, "read_balances")
			m.Actions = append(m.Actions, Action{ID: "print", Operation: OpNative, Intent: "Print the statement",
				Effect: EffectReadOnly, Confirmation: ConfirmNone, NativeGap: "Print from the operating-system dialog"})
		}},
		{name: "list root with a semantic candidate", base: "mail", edit: func(t *testing.T, c *Capability) {
			act(t, c, "extract-messages").LocatorCandidates = []locator.Candidate{
				{Strategy: locator.TestID, TestID: "message-row"}, css("#search-list li:visible")}
		}},
		{name: "enum input with a default", base: "mail", edit: func(t *testing.T, c *Capability) {
			c.Inputs = append(c.Inputs, Input{Name: "folder", Type: InputEnum, Values: []string{"inbox", "archive"}, Default: json.RawMessage(`"inbox"`)})
			act(t, c, "fill-query").Postcondition.Value = ""
			act(t, c, "fill-query").Postcondition = &Condition{Kind: CondTextVisible, Text: "{{folder}}"}
		}},
		{name: "bounded self loop keeps the output guaranteed", base: "teller", edit: func(t *testing.T, c *Capability) {
			m := ms(t, c, "search")
			m.MaxVisits = 3
			m.Transitions = append(m.Transitions, Transition{When: Condition{Kind: CondTextVisible, Text: "Try again"}, To: "search"})
		}},
		{name: "both branches produce the required output", base: "teller", edit: func(t *testing.T, c *Capability) {
			alt := ms(t, c, "read_balances")
			copyM := *alt
			copyM.ID = "read_alt"
			copyM.Actions = []Action{alt.Actions[0]}
			copyM.Actions[0].ID = "extract-alt"
			copyM.Transitions = []Transition{{When: Condition{Kind: CondAlways}, To: TerminalCompleted}}
			m := ms(t, c, "search")
			m.Transitions = append(m.Transitions, Transition{When: Condition{Kind: CondTextVisible, Text: "Accounts (legacy)"}, To: "read_alt"})
			c.Milestones = append(c.Milestones, copyM)
		}},
		{name: "select reads a non-secret input", base: "mail", edit: func(t *testing.T, c *Capability) {
			a := act(t, c, "fill-query")
			a.Operation = OpSelect
		}},

		// Identity and schema.
		{name: "unsupported schema", base: "teller", want: []Code{CodeUnsupportedSchema}, wantPath: "schema",
			edit: func(t *testing.T, c *Capability) { c.Schema = "browser-capability/v0" }},
		{name: "id with double separator", base: "teller", want: []Code{CodeInvalidID}, wantPath: "id",
			edit: func(t *testing.T, c *Capability) { c.ID = "teller..balances" }},
		{name: "semver with build metadata is valid", base: "teller",
			edit: func(t *testing.T, c *Capability) { c.Version = "1.2.1-rc.1+build.5" }},
		{name: "risky scaffold is a valid document", base: "invoice",
			edit: func(t *testing.T, c *Capability) { c.State, c.Validation = StateScaffold, nil }},

		// Origins and URLs.
		{name: "non-canonical IPv4 host", base: "teller", want: []Code{CodeInvalidOrigin}, wantPath: "site.allowed_origins[0]",
			edit: func(t *testing.T, c *Capability) { c.Site.AllowedOrigins[0] = "http://127.000.0.1:4010" }},
		{name: "localhost without port", base: "teller", want: []Code{CodeInsecureOrigin},
			edit: func(t *testing.T, c *Capability) { c.Site.AllowedOrigins[0] = "http://localhost" }},
		{name: "port zero", base: "teller", want: []Code{CodeInvalidOrigin},
			edit: func(t *testing.T, c *Capability) { c.Site.AllowedOrigins[0] = "http://127.0.0.1:0" }},
		{name: "ftp origin", base: "teller", want: []Code{CodeInvalidOrigin},
			edit: func(t *testing.T, c *Capability) { c.Site.AllowedOrigins[0] = "ftp://127.0.0.1:21" }},
		{name: "navigate with a query", base: "mail", want: []Code{CodeURLQuery}, wantPath: "milestones[0].actions[2].url",
			edit: func(t *testing.T, c *Capability) {
				m := ms(t, c, "search")
				m.Actions = append(m.Actions, nav("open-search", "/mail?tab=all"))
			}},
		{name: "navigate to a foreign origin", base: "mail", want: []Code{CodeOriginNotAllowed},
			edit: func(t *testing.T, c *Capability) {
				m := ms(t, c, "search")
				m.Actions = append(m.Actions, nav("open-search", "https://mail.example.com/mail"))
			}},
		{name: "protocol-relative navigate", base: "mail", want: []Code{CodeInvalidURL},
			edit: func(t *testing.T, c *Capability) {
				m := ms(t, c, "search")
				m.Actions = append(m.Actions, nav("open-search", "//127.0.0.1:4020/mail"))
			}},
		{name: "template in the origin", base: "mail", want: []Code{CodeTemplateInPath},
			edit: func(t *testing.T, c *Capability) { c.Runtime.Start = "http://{{query}}:4020/mail" }},

		// Inputs.
		{name: "undeclared limit input also leaves its input unused", base: "mail",
			want: []Code{CodeUndeclaredInput, CodeUnusedInput}, wantPath: "inputs[1].name",
			edit: func(t *testing.T, c *Capability) { act(t, c, "extract-messages").Extract.LimitInput = "limit" }},
		{name: "secret input read by a select", base: "teller", want: []Code{CodeSecretInputExposed}, wantPath: "milestones[0].actions[1].input",
			edit: func(t *testing.T, c *Capability) { act(t, c, "fill-password").Operation = OpSelect }},
		{name: "secret input as a limit", base: "mail", want: []Code{CodeSecretInputExposed},
			edit: func(t *testing.T, c *Capability) {
				in(t, c, "max_results").Secret, in(t, c, "max_results").Default = true, nil
			}},
		{name: "integer bound that is not an integer", base: "mail", want: []Code{CodeInvalidBounds},
			edit: func(t *testing.T, c *Capability) { in(t, c, "max_results").Maximum = ptr(50.5) }},
		{name: "date default", base: "mail", want: []Code{CodeInvalidDefault},
			edit: func(t *testing.T, c *Capability) {
				c.Inputs = append(c.Inputs, Input{Name: "since", Type: InputDate, Default: json.RawMessage(`"2026-02-30"`)})
				act(t, c, "fill-query").Postcondition = &Condition{Kind: CondTextVisible, Text: "{{since}}"}
			}},
		{name: "template name with a space is malformed", base: "teller", want: []Code{CodeInvalidTemplate},
			edit: func(t *testing.T, c *Capability) {
				c.BusinessOutcomes[0].Detect.VisibleText = "No member {{ member_id }}"
			}},

		// Outputs and extraction.
		{name: "extract without output", base: "teller", want: []Code{CodeMissingField, CodeOutputNotProduced},
			edit: func(t *testing.T, c *Capability) { act(t, c, "extract-balances").Output = "" }},
		{name: "extract into an undeclared output", base: "teller", want: []Code{CodeOutputNotProduced, CodeUndeclaredOutput},
			edit: func(t *testing.T, c *Capability) {
				a := act(t, c, "extract-balances")
				a.Output, a.Postcondition.Output = "member", "member"
			}},
		{name: "required output skipped by a branch", base: "teller", want: []Code{CodeRequiredOutputNotGuaranteed}, wantPath: "outputs[0].required",
			edit: func(t *testing.T, c *Capability) {
				m := ms(t, c, "search")
				m.Transitions = append(m.Transitions, Transition{When: Condition{Kind: CondAlways}, To: TerminalCompleted})
			}},
		{name: "dedupe keys on a single extraction", base: "teller", want: []Code{CodeUnexpectedField},
			edit: func(t *testing.T, c *Capability) {
				act(t, c, "extract-balances").Extract.DedupeKeys = []string{"savings"}
			}},
		{name: "limit input on a single extraction", base: "teller", want: []Code{CodeUnexpectedField},
			edit: func(t *testing.T, c *Capability) {
				act(t, c, "extract-balances").Extract.LimitInput = "member_id"
			}},
		{name: "attribute set without attribute read", base: "teller", want: []Code{CodeUnexpectedField},
			edit: func(t *testing.T, c *Capability) { act(t, c, "extract-balances").Extract.Fields[0].Attribute = "title" }},
		{name: "attribute read", base: "teller",
			edit: func(t *testing.T, c *Capability) {
				f := &act(t, c, "extract-balances").Extract.Fields[0]
				f.Read, f.Attribute = ReadAttribute, "title"
			}},
		{name: "field repeating the root with a different note", base: "mail", want: []Code{CodeFieldRepeatsActionRoot},
			edit: func(t *testing.T, c *Capability) {
				a := act(t, c, "extract-messages")
				root := a.LocatorCandidates[0]
				root.Note = "same selector"
				a.Extract.Fields[0].LocatorCandidates = []locator.Candidate{root}
			}},

		// Locators.
		{name: "too many candidates", base: "teller", want: []Code{locator.CodeTooMany},
			edit: func(t *testing.T, c *Capability) {
				a := act(t, c, "sign-in")
				for i := range 8 {
					a.LocatorCandidates = append(a.LocatorCandidates, css(fmt.Sprintf("button.b%d", i)))
				}
			}},
		{name: "order problem path", base: "teller", want: []Code{locator.CodeOrder}, wantPath: "milestones[1].actions[1].locator_candidates[1].strategy",
			edit: func(t *testing.T, c *Capability) {
				cs := act(t, c, "submit-search").LocatorCandidates
				cs[0], cs[1] = cs[1], cs[0]
			}},
		{name: "css-only interactive locator path", base: "teller", want: []Code{locator.CodeNoSemantic}, wantPath: "milestones[0].actions[2].locator_candidates",
			edit: func(t *testing.T, c *Capability) {
				act(t, c, "sign-in").LocatorCandidates = []locator.Candidate{css("button")}
			}},
		{name: "outcome locator needs a semantic candidate", base: "teller", want: []Code{locator.CodeNoSemantic},
			edit: func(t *testing.T, c *Capability) {
				c.BusinessOutcomes[0].Detect.LocatorCandidates = []locator.Candidate{css("p.status:visible")}
			}},
		{name: "locator_hidden needs a semantic candidate", base: "teller", want: []Code{locator.CodeNoSemantic},
			edit: func(t *testing.T, c *Capability) {
				ms(t, c, "search").Transitions[0].When = Condition{Kind: CondLocatorHidden, LocatorCandidates: []locator.Candidate{css("form:visible")}}
			}},

		// Milestones.
		{name: "unbounded two-milestone cycle", base: "invoice", want: []Code{CodeUnboundedCycle}, wantPath: "milestones[0].max_visits",
			edit: func(t *testing.T, c *Capability) { ms(t, c, "read_page").MaxVisits = 0 }},
		{name: "self loop without max_visits", base: "teller", want: []Code{CodeUnboundedCycle},
			edit: func(t *testing.T, c *Capability) {
				m := ms(t, c, "search")
				m.Transitions = append(m.Transitions, Transition{When: Condition{Kind: CondTextVisible, Text: "Try again"}, To: "search"})
			}},
		{name: "first milestone completes at once", base: "teller", want: []Code{CodeRequiredOutputNotGuaranteed, CodeUnreachableMilestone},
			edit: func(t *testing.T, c *Capability) {
				ms(t, c, "login").Transitions = []Transition{{When: Condition{Kind: CondAlways}, To: TerminalCompleted}}
			}},
		{name: "no milestones", base: "teller", want: []Code{CodeRequired, CodeUnusedInput, CodeOutputNotProduced}, wantPath: "inputs[0].name",
			edit: func(t *testing.T, c *Capability) { c.Milestones = nil }},

		// Generic bounds.
		{name: "too many outcomes", base: "teller", want: []Code{CodeTooMany}, wantPath: "business_outcomes",
			edit: func(t *testing.T, c *Capability) {
				for i := range 100 {
					c.BusinessOutcomes = append(c.BusinessOutcomes, BusinessOutcome{Code: fmt.Sprintf("outcome_%d", i),
						Detect: OutcomeDetect{VisibleText: "x"}})
				}
			}},
		{name: "intent too long", base: "teller", want: []Code{CodeTooLong}, wantPath: "milestones[0].intent",
			edit: func(t *testing.T, c *Capability) { ms(t, c, "login").Intent = strings.Repeat("sign in ", 70) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := loadValid(t, tc.base)
			if tc.edit != nil {
				tc.edit(t, c)
			}
			errs := c.Validate()
			got := codeSet(errs)
			want := slices.Clone(tc.want)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Fatalf("codes = %v, want %v\n%v", got, want, errs)
			}
			if tc.wantPath != "" && errs[0].Path != tc.wantPath {
				t.Fatalf("first path = %q, want %q\n%v", errs[0].Path, tc.wantPath, errs)
			}
		})
	}
}

// TestValidateReportsEverything breaks several rules at once: every
// problem is reported, in document order, deterministically.
func TestValidateReportsEverything(t *testing.T) {
	c := loadValid(t, "teller")
	c.BusinessOutcomes[1].Detect = OutcomeDetect{}                 // business_outcomes[1].detect
	act(t, c, "sign-in").Effect = "harmless"                       // milestones[0].actions[2].effect
	c.Version = "one"                                              // version
	act(t, c, "extract-balances").Extract.Fields[2].Type = "money" // milestones[2]...
	c.Site.AllowedOrigins = append(c.Site.AllowedOrigins, "http://x.example.com")
	errs := c.Validate()
	var paths []string
	for _, e := range errs {
		paths = append(paths, e.Path)
	}
	want := []string{
		"version",
		"site.allowed_origins[1]",
		"milestones[0].actions[2].effect",
		"milestones[2].actions[0].extract.fields[2].type",
		"business_outcomes[1].detect",
	}
	if !slices.Equal(paths, want) {
		t.Fatalf("paths = %q, want %q\n%v", paths, want, errs)
	}
	again := c.Validate()
	if !reflect.DeepEqual(errs, again) {
		t.Fatal("Validate is not deterministic")
	}
	if !errors.Is(errs, ErrInvalid) || errs.Err() == nil {
		t.Fatal("a non-empty list must match ErrInvalid")
	}
	var one *Error
	if !errors.As(errs.Err(), &one) || !errors.Is(one, ErrInvalid) {
		t.Fatal("errors.As must find an *Error")
	}
	if s := errs.Error(); !strings.Contains(s, "5 problem(s)") || !strings.Contains(s, "[unknown_effect]") {
		t.Fatalf("Error() = %s", s)
	}
	if (ErrorList{}).Err() != nil {
		t.Fatal("an empty list is no error")
	}
}

// TestCredentialNeverEchoed: credential-shaped values appear in no message
// and no bad value, wherever they are.
func TestCredentialNeverEchoed(t *testing.T) {
	const token = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
	c := loadValid(t, "teller")
	c.ID = token                                           // invalid_id + credential
	c.Site.AllowedOrigins[0] = "https://" + token          // insecure? no: invalid? It is a host.
	act(t, c, "sign-in").LocatorCandidates[0].Name = token // locator value
	c.BusinessOutcomes[0].Code = token
	errs := c.Validate()
	if !errs.Has(CodeCredentialLiteral) {
		t.Fatalf("no credential_literal: %v", errs)
	}
	for _, e := range errs {
		if strings.Contains(e.Error(), "ghp_") {
			t.Errorf("credential echoed: %v", e)
		}
	}
}

func TestRedactionMarkerAnywhere(t *testing.T) {
	c := loadValid(t, "mail")
	c.Goal = "Search mail for " + redact.Marker
	act(t, c, "fill-query").LocatorCandidates[1].Placeholder = redact.Marker
	errs := c.Validate()
	want := []Code{locator.CodeRedactedMarker, CodeRedactionMarker}
	slices.Sort(want)
	if got := codeSet(errs); !slices.Equal(got, want) {
		t.Fatalf("codes = %v, want %v", got, want)
	}
	for _, e := range errs {
		if e.BadValue != "" {
			t.Errorf("marker echoed: %v", e)
		}
	}
}

func TestValidateForExecution(t *testing.T) {
	tests := []struct {
		name  string
		base  string
		state State
		drop  bool // drop validation metadata
		want  []Code
	}{
		{name: "discovered safe", base: "teller", state: StateDiscovered},
		{name: "scaffold safe", base: "mail", state: StateScaffold, want: []Code{CodeStateNotExecutable}},
		{name: "validated risky", base: "invoice", state: StateValidatedLocal},
		{name: "discovered risky", base: "invoice", state: StateDiscovered, drop: true},
		{name: "draft safe", base: "teller", state: StateDraft, want: []Code{CodeStateNotExecutable}},
		{name: "scaffold risky", base: "invoice", state: StateScaffold, drop: true, want: []Code{CodeRiskyBelowDiscovered}},
		{name: "draft risky", base: "invoice", state: StateDraft, drop: true, want: []Code{CodeRiskyBelowDiscovered}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := loadValid(t, tc.base)
			c.State = tc.state
			if tc.drop {
				c.Validation = nil
			}
			if errs := c.Validate(); len(errs) != 0 {
				t.Fatalf("Validate: %v", errs)
			}
			errs := c.ValidateForExecution()
			if got := codeSet(errs); !slices.Equal(got, tc.want) {
				t.Fatalf("codes = %v, want %v", got, tc.want)
			}
			for _, e := range errs {
				if e.Path != "state" {
					t.Errorf("path = %q, want state", e.Path)
				}
			}
		})
	}
	var nilCap *Capability
	if errs := nilCap.ValidateForExecution(); !errs.Has(CodeRequired) {
		t.Fatalf("nil capability: %v", errs)
	}
}

func TestStateExecutable(t *testing.T) {
	for s, want := range map[State]bool{StateScaffold: false, StateDraft: false, StateDiscovered: true,
		StateValidatedLocal: true, StateAuthored: true, "approved": false, "": false} {
		if got := s.Executable(); got != want {
			t.Errorf("%q.Executable() = %v, want %v", s, got, want)
		}
	}
}

func TestCheckOrigin(t *testing.T) {
	tests := []struct {
		origin string
		code   Code // "" = acceptable
	}{
		{"https://example.com", ""},
		{"https://sub.example.co.uk:8443", ""},
		{"http://127.0.0.1:4010", ""},
		{"http://localhost:1", ""},
		{"http://[::1]:65535", ""},
		{"https://[2001:db8::1]", ""},
		{"https://127.0.0.1", ""},
		{"http://127.0.0.1", CodeInsecureOrigin},
		{"http://[::1]", CodeInsecureOrigin},
		{"http://example.com:8080", CodeInsecureOrigin},
		{"http://10.0.0.1:80", CodeInvalidOrigin}, // default port
		{"http://10.0.0.1:81", CodeInsecureOrigin},
		{"https://example.com/", CodeInvalidOrigin},
		{"https://example.com/app", CodeInvalidOrigin},
		{"https://example.com?x=1", CodeInvalidOrigin},
		{"https://example.com#x", CodeInvalidOrigin},
		{"https://user@example.com", CodeInvalidOrigin},
		{"https://Example.com", CodeInvalidOrigin},
		{"https://example.com:443", CodeInvalidOrigin},
		{"https://example.com:65536", CodeInvalidOrigin},
		{"https://example.com:080", CodeInvalidOrigin},
		{"https://example.com:", CodeInvalidOrigin},
		{"https://-example.com", CodeInvalidOrigin},
		{"https://example..com", CodeInvalidOrigin},
		{"https://exa_mple.com", CodeInvalidOrigin},
		{"https://[::1%eth0]", CodeInvalidOrigin},
		{"https://[0:0:0:0:0:0:0:1]", CodeInvalidOrigin},
		{"https://1.2.3", CodeInvalidOrigin},
		{"https://", CodeInvalidOrigin},
		{"ws://example.com", CodeInvalidOrigin},
		{"example.com", CodeInvalidOrigin},
		{"", CodeInvalidOrigin},
	}
	for _, tc := range tests {
		err := CheckOrigin(tc.origin)
		if tc.code == "" {
			if err != nil {
				t.Errorf("CheckOrigin(%q) = %v, want nil", tc.origin, err)
			}
			continue
		}
		var e *Error
		if !errors.As(err, &e) || e.Code != tc.code {
			t.Errorf("CheckOrigin(%q) = %v, want code %s", tc.origin, err, tc.code)
		}
	}
}

func TestTemplateRefs(t *testing.T) {
	tests := []struct {
		in    string
		names []string
		ok    bool
	}{
		{"#search/{{query}}", []string{"query"}, true},
		{"{{a}} and {{b_2}} and {{a}}", []string{"a", "b_2", "a"}, true},
		{"no templates }}", nil, true},
		{"{{ query }}", nil, false},
		{"{{Query}}", nil, false},
		{"{{query", nil, false},
		{"{{}}", nil, false},
		{"{{{query}}}", nil, false},
	}
	for _, tc := range tests {
		names, ok := TemplateRefs(tc.in)
		if ok != tc.ok || !slices.Equal(names, tc.names) {
			t.Errorf("TemplateRefs(%q) = %v, %v; want %v, %v", tc.in, names, ok, tc.names, tc.ok)
		}
	}
}

func TestPatterns(t *testing.T) {
	for _, tc := range []struct {
		s        string
		id, name bool
	}{
		{"teller.member-balances", true, false},
		{"member_id", true, true},
		{"a", true, true},
		{"a1", true, true},
		{"1a", false, false},
		{"a_", false, false},
		{"a__b", false, false},
		{"a-b", true, false},
		{"A", false, false},
		{"", false, false},
		{strings.Repeat("a", 64), true, true},
		{strings.Repeat("a", 65), false, false},
	} {
		if got := validID(tc.s); got != tc.id {
			t.Errorf("validID(%q) = %v", tc.s, got)
		}
		if got := validName(tc.s); got != tc.name {
			t.Errorf("validName(%q) = %v", tc.s, got)
		}
	}
}

func TestCodesDocumentedAndCovered(t *testing.T) {
	covered := map[Code]bool{}
	for _, e := range readExpected(t) {
		if e.Stage != stageParse {
			covered[e.Code] = true
		}
	}
	// Codes only reachable through cascades or bounds covered by TestRules.
	for _, c := range []Code{CodeTooMany, CodeUnsupportedSchema, locator.CodeTooMany} {
		covered[c] = true
	}
	var missing []Code
	for _, c := range Codes() {
		if !covered[c] {
			missing = append(missing, c)
		}
	}
	// Locator codes of malformed candidates are covered by package locator.
	missing = slices.DeleteFunc(missing, func(c Code) bool {
		switch c {
		case locator.CodeUnknownStrategy, locator.CodeMissingValue, locator.CodeForeignField,
			locator.CodeUnknownRole, locator.CodeTooLong, locator.CodeInvalidUTF8,
			locator.CodeExactNotAllowed, locator.CodeBadCSS, locator.CodeDuplicate:
			return true
		}
		return false
	})
	if len(missing) > 0 {
		t.Errorf("codes without a corpus case: %v", missing)
	}
	if !slices.IsSorted(Codes()) || len(slices.Compact(Codes())) != len(Codes()) {
		t.Error("Codes() must be sorted and unique")
	}
}

func TestPathKeyOrder(t *testing.T) {
	ordered := []string{
		"",
		"schema",
		"id",
		"provenance.review.record_hash",
		"site.allowed_origins[0]",
		"site.allowed_origins[10]",
		"inputs[1].name",
		"milestones",
		"milestones[0].actions[2].locator_candidates",
		"milestones[0].actions[2].locator_candidates[1].css",
		"milestones[0].transitions[0].when",
		"milestones[10].id",
		"business_outcomes[0].detect",
		"validation.receipts[1]",
		"unknown.member",
	}
	for i := 1; i < len(ordered); i++ {
		if slices.Compare(pathKey(ordered[i-1]), pathKey(ordered[i])) >= 0 {
			t.Errorf("%q does not sort before %q", ordered[i-1], ordered[i])
		}
	}
}

// populate fills every member of v: each string with s, each slice with
// one element, each pointer with a value. It returns the JSON paths of the
// string slots it filled.
func populate(v reflect.Value, s string, segs []strictjson.PathSeg) []string {
	return populateIn(v, s, segs, nil)
}

// populateIn is populate with the struct types being filled: a pointer to
// one of them (a scoped candidate's scope) is filled one level deep only.
func populateIn(v reflect.Value, s string, segs []strictjson.PathSeg, open []reflect.Type) []string {
	switch v.Kind() {
	case reflect.Pointer:
		n := 0
		for _, t := range open {
			if t == v.Type().Elem() {
				n++
			}
		}
		if n > 1 {
			return nil
		}
		v.Set(reflect.New(v.Type().Elem()))
		return populateIn(v.Elem(), s, segs, open)
	case reflect.Struct:
		var out []string
		open = append(open, v.Type())
		for _, f := range infoOf(v.Type()).fields {
			out = append(out, populateIn(v.Field(f.index), s, append(segs, strictjson.PathSeg{Name: f.name}), open)...)
		}
		return out
	case reflect.Slice:
		if v.Type() == rawMessageType {
			v.SetBytes([]byte(`"` + s + `"`))
			return []string{strictjson.Path(segs)}
		}
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		return populateIn(v.Index(0), s, append(segs, strictjson.PathSeg{Index: 0}), open)
	case reflect.String:
		v.SetString(s)
		return []string{strictjson.Path(segs)}
	}
	return nil
}

// TestLiteralScanCoversEveryString puts a credential into every string
// slot of a fully populated capability and expects credential_literal at
// every one of them.
func TestLiteralScanCoversEveryString(t *testing.T) {
	const token = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
	var c Capability
	want := populate(reflect.ValueOf(&c).Elem(), token, nil)
	if len(want) < 50 {
		t.Fatalf("only %d string slots", len(want))
	}
	got := map[string]bool{}
	for _, e := range c.Validate() {
		if e.Code == CodeCredentialLiteral {
			got[e.Path] = true
		}
		if strings.Contains(e.Error(), "ghp_") {
			t.Errorf("credential echoed: %v", e)
		}
	}
	for _, p := range want {
		if !got[p] {
			t.Errorf("no credential_literal at %s", p)
		}
	}
}
