package convert

import (
	"bytes"
	"errors"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/locator"
)

const testDiscoveryHash = "sha256:35aa15f9d52a5a72d4798c291247810decc043c359c23e3920fe21d8174504fe"

func TestSeed004Teller(t *testing.T) {
	raw := readFile(t, "get_member_balances.artifact.json")
	c, rep, err := FromSeed004(raw)
	if err != nil {
		t.Fatalf("FromSeed004: %v", err)
	}
	if c.State != capability.StateScaffold || c.Provenance != nil {
		t.Errorf("state %s provenance %+v: without a discovery record the import is a scaffold", c.State, c.Provenance)
	}
	if c.State.Executable() || len(c.ValidateForExecution()) == 0 {
		t.Error("an imported capability must not be executable before review")
	}
	if c.ID != "get_member_balances" || c.Version != "1.2.1" || c.Runtime.Start != "/login" ||
		!reflect.DeepEqual(c.Site.AllowedOrigins, []string{"http://127.0.0.1:4010"}) || c.Authority.MaxEffect != capability.EffectReadOnly {
		t.Errorf("identity: %s %s start %s origins %v effect %s", c.ID, c.Version, c.Runtime.Start, c.Site.AllowedOrigins, c.Authority.MaxEffect)
	}
	pw, ok := c.Input("teller_password")
	if !ok || !pw.Secret {
		t.Errorf("tellerPassword must become the secret input teller_password: %+v", pw)
	}
	if u, _ := c.Input("teller_username"); u == nil || u.Secret {
		t.Errorf("teller_username: %+v", u)
	}
	a, _, _, ok := c.Action("step-2")
	if !ok || a.Operation != capability.OpFill || a.Input != "teller_username" || a.Value != "" ||
		len(a.LocatorCandidates) != 2 || a.LocatorCandidates[0].Note == "" || a.LocatorCandidates[1].CSS != `input[name="username"]` {
		t.Errorf("step-2: %+v", a)
	}
	// The checkpoint is the final milestone; the click that has none of its
	// own is proven by the next step's element.
	last := c.Milestones[len(c.Milestones)-1]
	if last.ID != "checkpoint" || len(last.Actions) != 2 || last.Actions[1].Postcondition.Kind != capability.CondTextVisible || last.Actions[1].Postcondition.Text != "Accounts" {
		t.Errorf("final milestone: %s", mustJSON(t, last))
	}
	if s4, _, _, _ := c.Action("step-4"); s4 == nil || s4.Postcondition.Kind != capability.CondLocatorVisible || s4.Postcondition.LocatorCandidates[0].Name != "Member ID" {
		t.Errorf("step-4 postcondition: %+v", s4)
	}
	if len(c.BusinessOutcomes) != 2 || c.BusinessOutcomes[1].Detect.VisibleText != "Session expired" {
		t.Errorf("outcomes: %+v", c.BusinessOutcomes)
	}
	for _, src := range []string{"reviewed", "createdAt", "discoveryModel", "discoveryRunId"} {
		if es := rep.Find(src); len(es) != 1 || es[0].Disposition != Unmapped {
			t.Errorf("%s: %+v", src, es)
		}
	}
	if es := rep.Find("checkpoint.urlPattern"); len(es) != 1 || es[0].Disposition != Weakened {
		t.Errorf("checkpoint.urlPattern: %+v", es)
	}
	assertNothingDropped(t, raw, rep)

	// With the discovery record's hash the import is a draft with provenance.
	d, rep2, err := FromSeed004(raw, WithDiscoveryHash(testDiscoveryHash))
	if err != nil {
		t.Fatal(err)
	}
	if d.State != capability.StateDraft || d.Provenance == nil || d.Provenance.DiscoveryModel != "google/gemini-2.5-flash" ||
		d.Provenance.DiscoveryRunID != "disc-2026-03-28-teller-01" || d.Provenance.Review != nil {
		t.Errorf("draft: %s %+v", d.State, d.Provenance)
	}
	if es := rep2.Find("discoveryModel"); len(es) != 1 || es[0].Disposition != Mapped {
		t.Errorf("discoveryModel: %+v", es)
	}
	assertNothingDropped(t, raw, rep2)
	if _, _, err := FromSeed004(raw, WithDiscoveryHash("sha256:nope")); !errors.Is(err, capability.ErrInvalidArgument) {
		t.Errorf("bad digest: %v", err)
	}
}

func TestSeed004KitchenSink(t *testing.T) {
	raw := readFile(t, "kitchen_sink.artifact.json")
	c, rep, err := FromSeed004(raw)
	if err != nil {
		t.Fatalf("FromSeed004: %v", err)
	}
	assertNothingDropped(t, raw, rep)
	if c.Authority.MaxEffect != capability.EffectConsequential {
		t.Errorf("risky: max effect %s", c.Authority.MaxEffect)
	}
	cons := c.ConsequentialActions()
	if !reflect.DeepEqual(cons, []string{"step-2", "step-6", "step-11"}) {
		t.Errorf("consequential actions %v, want every select, press and click", cons)
	}
	for _, id := range cons {
		a, _, _, _ := c.Action(id)
		if a.Confirmation != capability.ConfirmActionTime {
			t.Errorf("%s: confirmation %s", id, a.Confirmation)
		}
	}
	if !reflect.DeepEqual(c.Site.AllowedOrigins, []string{"https://bank.example"}) || c.Runtime.Start != "/transfer#desk" {
		t.Errorf("site %v start %s", c.Site.AllowedOrigins, c.Runtime.Start)
	}
	if in, _ := c.Input("from_account"); in == nil || in.Type != capability.InputEnum || len(in.Values) != 2 {
		t.Errorf("enum input: %+v", in)
	}
	// ^/transfer/done$ is exactly a URL path; the press's checkpoint
	// continues as a wait.
	s6, _, _, _ := c.Action("step-6")
	if s6.Postcondition.Kind != capability.CondURLPath || s6.Postcondition.Value != "/transfer/done" {
		t.Errorf("step-6: %+v", s6.Postcondition)
	}
	if w, _, _, ok := c.Action("step-6-check-2"); !ok || w.Postcondition.Kind != capability.CondTextVisible {
		t.Errorf("step-6-check-2: %+v", w)
	}
	if a, _, _, _ := c.Action("step-4"); a.Value != "Transfer {{memo}}" {
		t.Errorf("template rename: %q", a.Value)
	}
	if es := rep.Find("checkpoint.urlPattern"); len(es) != 1 || es[0].Disposition != Unmapped {
		t.Errorf("alternation has no literal: %+v", es)
	}
	if es := rep.Find("outputs[1].type"); len(es) != 1 || es[0].Disposition != Unmapped {
		t.Errorf("number output: %+v", es)
	}
	if len(rep.Review) == 0 || !strings.Contains(strings.Join(rep.Review, "\n"), "consequential") {
		t.Errorf("review list: %v", rep.Review)
	}
}

// TestSeed004NothingDroppedSilently proves every member of the format is
// exercised by the fixtures and lands in the report; and that the check
// itself fails when an entry is missing.
func TestSeed004NothingDroppedSilently(t *testing.T) {
	a, b := readFile(t, "get_member_balances.artifact.json"), readFile(t, "kitchen_sink.artifact.json")
	// Targets are mapped by one function wherever they occur: the document
	// is checked down to its targets, and the target shape (with the
	// locator union) wherever targets occur.
	// A CSS primary before a semantic fallback is valid in the seed format
	// but never in a capability (a semantic candidate comes first): the
	// import refuses it, with the capability's own code, rather than
	// reorder the reviewer's locators.
	cssPrimary := bytes.Replace(a, []byte(`"primary": { "strategy": "a11y", "role": "textbox", "name": "Member ID", "exact": true },
        "fallbacks": [{ "strategy": "css", "css": "input#member-id" }]`), []byte(`"primary": { "strategy": "css", "css": "input#member-id" },
        "fallbacks": [{ "strategy": "a11y", "role": "textbox", "name": "Member ID", "exact": true }]`), 1)
	var de *DraftError
	if _, _, err := FromSeed004(cssPrimary); !errors.As(err, &de) || !de.Problems.Has(locator.CodeOrder) {
		t.Errorf("css primary: %v", err)
	}
	// A CSS-only target's robustness note is its css_only_reason (the
	// honest declaration, never a decoy role candidate).
	if d, _, err := FromSeed004(a); err != nil {
		t.Fatal(err)
	} else if act := findAction(d, "savings"); act == nil || act.CSSOnlyReason == "" || act.LocatorCandidates[0].Note != "" {
		t.Errorf("CSS-only savings target: %+v", act)
	}
	target := reflect.TypeFor[seedTarget]()
	assertAllMembersExercised(t, reflect.TypeFor[seedDoc](), map[reflect.Type]bool{target: true}, nil, a, b)
	targetRE := regexp.MustCompile(`^.*\.(target|requiredElement)(\.|$)`)
	assertAllMembersExercised(t, target, nil, func(p string) string {
		if !targetRE.MatchString(p) {
			return "-"
		}
		return targetRE.ReplaceAllString(p, "")
	}, a, b, cssPrimary)
	for _, strategy := range []string{`"a11y"`, `"css"`, `"text"`} {
		if !bytes.Contains(a, []byte(strategy)) && !bytes.Contains(b, []byte(strategy)) {
			t.Errorf("no fixture uses strategy %s", strategy)
		}
	}
	for _, action := range []string{"navigate", "click", "type", "select", "press", "wait", "extract"} {
		if !bytes.Contains(b, []byte(`"action": "`+action+`"`)) {
			t.Errorf("the kitchen sink lacks a %s step", action)
		}
	}
	_, rep, err := FromSeed004(b)
	if err != nil {
		t.Fatal(err)
	}
	// Negative control: drop the entries of one leaf and the check sees it.
	var cut Report
	for _, e := range rep.Entries {
		if e.Source != "steps[2].timeoutMs" {
			cut.Entries = append(cut.Entries, e)
		}
	}
	if u := cut.Uncovered(generic(t, b)); !reflect.DeepEqual(u, []string{"steps[2].timeoutMs"}) {
		t.Errorf("uncovered after removing an entry: %v", u)
	}
	cut.finish(generic(t, b))
	if es := cut.Find("steps[2].timeoutMs"); len(es) != 1 || es[0].Disposition != Unhandled {
		t.Errorf("finish must report an unhandled leaf, got %+v", es)
	}
}

func TestSeed004BadInput(t *testing.T) {
	base := string(readFile(t, "get_member_balances.artifact.json"))
	edit := func(old, new string) []byte {
		if !strings.Contains(base, old) {
			t.Fatalf("fixture lacks %q", old)
		}
		return []byte(strings.Replace(base, old, new, 1))
	}
	cases := []struct {
		name string
		raw  []byte
		code string // "" for a DraftError
	}{
		{"empty", nil, CodeSyntax},
		{"not an object", []byte(`[]`), CodeWrongType},
		{"trailing data", append([]byte(base), '{', '}'), CodeSyntax},
		{"duplicate key", edit(`"risk": "safe",`, `"risk": "safe", "risk": "risky",`), CodeSyntax},
		{"unknown member", edit(`"risk": "safe",`, `"risk": "safe", "owner": "x",`), CodeUnknownMember},
		{"case-folded member", edit(`"targetApp"`, `"targetapp"`), CodeUnknownMember},
		{"missing goal", edit(`"goal": "Sign in to the teller console, look up one member by member ID and read the member's name and the savings and checking balances.",`, ``), CodeMissingMember},
		{"missing discoveryRunId", edit(`"discoveryRunId": "disc-2026-03-28-teller-01",`, ``), CodeMissingMember},
		{"wrong type", edit(`"reviewed": true`, `"reviewed": "yes"`), CodeWrongType},
		{"bad semver", edit(`"version": "1.2.1"`, `"version": "1.2"`), CodeBadValue},
		{"bad id", edit(`"id": "get_member_balances"`, `"id": "Get Member"`), CodeBadValue},
		{"bad risk", edit(`"risk": "safe"`, `"risk": "low"`), CodeBadValue},
		{"bad createdAt", edit(`"createdAt": "2026-03-28T09:40:00Z"`, `"createdAt": "yesterday"`), CodeBadValue},
		{"bad input type", edit(`"name": "memberId", "type": "string"`, `"name": "memberId", "type": "integer"`), CodeBadValue},
		{"values on a string", edit(`"name": "memberId", "type": "string"`, `"name": "memberId", "type": "string", "values": ["1"]`), CodeBadValue},
		{"enum without values", edit(`"name": "memberId", "type": "string"`, `"name": "memberId", "type": "enum"`), CodeMissingMember},
		{"duplicate input after snake_case", edit(`"name": "memberId"`, `"name": "tellerUsername"`), CodeBadValue},
		{"unknown action", edit(`"action": "click"`, `"action": "hover"`), CodeBadValue},
		{"foreign locator member", edit(`"strategy": "css", "css": "input#member-id"`, `"strategy": "css", "css": "input#member-id", "role": "textbox"`), CodeUnknownMember},
		{"a11y without role", edit(`"strategy": "a11y", "role": "button", "name": "Sign in"`, `"strategy": "a11y", "name": "Sign in"`), CodeMissingMember},
		{"unknown strategy", edit(`"strategy": "text", "text": "Sign in"`, `"strategy": "xpath", "text": "Sign in"`), CodeBadValue},
		{"unknown role", edit(`"role": "button", "name": "Sign in"`, `"role": "buttn", "name": "Sign in"`), CodeBadValue},
		{"pixel coordinates", edit(`"css": "input#member-id"`, `"css": "x", "x": 10`), CodeUnknownMember},
		{"click without target", edit(`"intent": "Sign in",
      "action": "click",`, `"intent": "Sign in", "action": "click", "url": "/x", "ignored": {`), CodeSyntax},
		{"url on a click", edit(`"action": "click",`, `"action": "click", "url": "/login",`), CodeUnknownMember},
		{"undeclared input", edit(`"input": "memberId", "value": "{{memberId}}"`, `"input": "memberNo", "value": "{{memberNo}}"`), CodeBadValue},
		{"placeholder of another input", edit(`"input": "memberId", "value": "{{memberId}}"`, `"input": "memberId", "value": "{{tellerUsername}}"`), CodeBadValue},
		{"literal password", edit(`"input": "tellerPassword", "value": "{{tellerPassword}}"`, `"value": "hunter2"`), CodeUnsupported},
		{"undeclared output", edit(`"output": "memberName"`, `"output": "member"`), CodeBadValue},
		{"first step not navigate", edit(`"action": "navigate", "url": "http://127.0.0.1:4010/login"`, `"action": "wait", "target": { "primary": { "strategy": "a11y", "role": "main" } }`), CodeUnsupported},
		{"query in url", edit(`"url": "http://127.0.0.1:4010/login"`, `"url": "http://127.0.0.1:4010/login?next=/members"`), CodeUnsupported},
		{"relative first url", edit(`"url": "http://127.0.0.1:4010/login"`, `"url": "/login"`), CodeUnsupported},
		{"credential in url", edit(`"url": "http://127.0.0.1:4010/login"`, `"url": "http://a:b@127.0.0.1:4010/login"`), CodeUnsupported},
		{"empty checkpoint", edit(`"checkpoint": { "urlPattern": "/members/\\d+$", "visibleText": "Accounts" }`, `"checkpoint": {}`), CodeMissingMember},
		{"bad regex", edit(`"checkpoint": { "urlPattern": "/members/\\d+$"`, `"checkpoint": { "urlPattern": "/members/(\\d+"`), CodeBadValue},
		{"bad outcome regex", edit(`"detect": { "visibleText": "No member found" }`, `"detect": { "urlPattern": "(?<=x)" }`), CodeBadValue},
		{"wait is a sleep", edit(`"action": "click",
      "target": {
        "primary": { "strategy": "a11y", "role": "button", "name": "Sign in", "exact": true },
        "fallbacks": [{ "strategy": "text", "text": "Sign in", "exact": true }],
        "robustness": "The button's visible name is its accessible name."
      } },`, `"action": "wait" },`), CodeUnsupported},
		{"output never filled", edit(`{ "name": "memberName", "type": "string",`, `{ "name": "memberAddress", "type": "string" }, { "name": "memberName", "type": "string",`), CodeUnsupported},
		{"too large", append(append([]byte(base[:len(base)-2]), bytes.Repeat([]byte(" "), MaxSourceBytes)...), '}'), CodeTooLarge},
		{"draft invalid: template in path", edit(`"url": "http://127.0.0.1:4010/login"`, `"url": "http://127.0.0.1:4010/login/{{memberId}}"`), ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, _, err := FromSeed004(tc.raw)
			if err == nil {
				t.Fatalf("accepted: %s", mustJSON(t, c))
			}
			if c != nil {
				t.Error("a capability returned with an error")
			}
			if tc.code == "" {
				var de *DraftError
				if !errors.As(err, &de) || !errors.Is(err, ErrInvalidDraft) || !errors.Is(err, capability.ErrInvalid) {
					t.Fatalf("want a DraftError, got %v", err)
				}
				return
			}
			var se SourceErrors
			if !errors.Is(err, ErrInvalidSource) || !errors.As(err, &se) || !se.HasCode(tc.code) {
				t.Fatalf("want %s, got %v", tc.code, err)
			}
			if strings.Contains(err.Error(), "hunter2") {
				t.Error("the error echoes a typed password")
			}
		})
	}
}

// findAction returns the first action whose intent mentions word.
func findAction(c *capability.Capability, word string) *capability.Action {
	for mi := range c.Milestones {
		for ai := range c.Milestones[mi].Actions {
			if a := &c.Milestones[mi].Actions[ai]; strings.Contains(strings.ToLower(a.Intent), word) {
				return a
			}
		}
	}
	return nil
}
