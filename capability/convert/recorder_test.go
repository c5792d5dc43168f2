package convert

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/locator"
)

func TestRecorderMail(t *testing.T) {
	raw := readFile(t, "mail_search.recording.json")
	c, rep, err := FromRecorder(raw)
	if err != nil {
		t.Fatalf("FromRecorder: %v", err)
	}
	assertNothingDropped(t, raw, rep)
	if c.State != capability.StateScaffold || c.State.Executable() {
		t.Errorf("state %s", c.State)
	}
	if c.ID != "search-mail-for-invoices" || c.Runtime.Start != "/mail" || c.Runtime.ActionTimeoutMS != 5000 {
		t.Errorf("identity %s start %s timeout %d", c.ID, c.Runtime.Start, c.Runtime.ActionTimeoutMS)
	}
	in, ok := c.Input("search_mail")
	if !ok || in.Secret || !in.Required {
		t.Errorf("typed value input: %+v", in)
	}
	press, _, _, ok := c.Action("step-5")
	if !ok || press.Operation != capability.OpPress || press.Key != "Enter" ||
		press.Postcondition.Kind != capability.CondURLIncludes || press.Postcondition.Value != "/mail#search/{{search_mail}}" {
		t.Errorf("press: %s", mustJSON(t, press))
	}
	fill, _, _, _ := c.Action("step-4")
	if fill.Input != "search_mail" || fill.Value != "" || fill.LocatorCandidates[0].Strategy != locator.Label || fill.LocatorCandidates[1].CSS != "#search-input" || len(fill.LocatorCandidates) != 2 {
		t.Errorf("fill: %s", mustJSON(t, fill))
	}
	for _, src := range []string{"steps[2].selectors[2]", "steps[2].selectors[3]", "steps[0]", "steps[2].offsetX"} {
		if es := rep.Find(src); len(es) != 1 || es[0].Disposition != Unmapped {
			t.Errorf("%s: %+v", src, es)
		}
	}
	if es := rep.Find("steps[3].value"); len(es) != 1 || es[0].Value != "invoice" || es[0].Target != "inputs[0]" {
		t.Errorf("typed value: %+v", es)
	}
}

func TestRecorderKitchenSink(t *testing.T) {
	raw := readFile(t, "kitchen_sink.recording.json")
	c, rep, err := FromRecorder(raw)
	if err != nil {
		t.Fatalf("FromRecorder: %v", err)
	}
	assertNothingDropped(t, raw, rep)
	pw, ok := c.Input("password")
	if !ok || !pw.Secret {
		t.Errorf("a value typed into a password field must be a secret input: %+v", pw)
	}
	// The password is nowhere: not in the capability, not in the report.
	doc, _ := c.Marshal()
	rj := []byte(mustJSON(t, rep))
	for _, b := range [][]byte{doc, rj} {
		if bytes.Contains(b, []byte("correct horse")) {
			t.Error("the typed password leaked")
		}
	}
	if !reflect.DeepEqual(c.Runtime.FrameSelectors, []string{"iframe:nth-of-type(1)"}) {
		t.Errorf("frames: %v", c.Runtime.FrameSelectors)
	}
	dbl, _, _, _ := c.Action("step-7")
	if dbl.Operation != capability.OpClick || len(dbl.LocatorCandidates) != 3 || dbl.LocatorCandidates[1].Strategy != locator.Text {
		t.Errorf("doubleClick: %s", mustJSON(t, dbl))
	}
	if es := rep.Find("steps[6].type"); len(es) != 2 || es[1].Disposition != Weakened && es[0].Disposition != Weakened {
		t.Errorf("doubleClick report: %+v", es)
	}
	if dbl.Postcondition == nil || dbl.Postcondition.Kind != capability.CondLocatorVisible || dbl.Postcondition.LocatorCandidates[0].Name != "Accounts" {
		t.Errorf("the doubleClick is proven by the next wait: %+v", dbl.Postcondition)
	}
	hidden, _, _, _ := c.Action("step-14")
	if hidden.Postcondition.Kind != capability.CondLocatorHidden {
		t.Errorf("count 0: %+v", hidden.Postcondition)
	}
	esc, _, _, _ := c.Action("step-12")
	if esc.Key != "Escape" || esc.TimeoutMS != 1000 || esc.LocatorCandidates[0].Name != "Statement" {
		t.Errorf("press: %s", mustJSON(t, esc))
	}
	if es := rep.Find("steps[4].selectors[2]"); len(es) != 1 || es[0].Disposition != Unmapped {
		t.Errorf("shadow path: %+v", es)
	}
	if es := rep.Find("steps[3].selectors[2]"); len(es) != 1 || es[0].Disposition != Unmapped || !strings.Contains(es[0].Note, "duplicate") {
		t.Errorf("duplicate: %+v", es)
	}
	if d, _, err := FromRecorder(raw, WithDiscoveryHash(testDiscoveryHash)); err != nil || d.State != capability.StateDraft || d.Provenance.DiscoveryHash != testDiscoveryHash {
		t.Errorf("draft: %v", err)
	}
}

func TestRecorderNothingDroppedSilently(t *testing.T) {
	a, b := readFile(t, "mail_search.recording.json"), readFile(t, "kitchen_sink.recording.json")
	// customStep is refused, never mapped: its members are exercised by a
	// fixture that must fail.
	custom := bytes.Replace(b, []byte(`{ "type": "close" }`), []byte(`{ "type": "customStep", "name": "login", "parameters": {"user": "x"} }`), 1)
	if _, _, err := FromRecorder(custom); !errors.Is(err, ErrInvalidSource) {
		t.Errorf("customStep: %v", err)
	}
	assertAllMembersExercised(t, reflect.TypeFor[recFlow](), map[reflect.Type]bool{reflect.TypeFor[json.RawMessage](): true}, nil, a, b, custom)
	for typ := range recAllowed {
		if !bytes.Contains(a, []byte(`"type": "`+typ+`"`)) && !bytes.Contains(b, []byte(`"type": "`+typ+`"`)) {
			if typ != "customStep" { // refused: tested in TestRecorderBadInput
				t.Errorf("no fixture has a %s step", typ)
			}
		}
	}
	for _, prefix := range []string{`"aria/`, `"text/`, `"xpath/`, `"pierce/`, `["#app", `} {
		if !bytes.Contains(a, []byte(prefix)) && !bytes.Contains(b, []byte(prefix)) {
			t.Errorf("no fixture has a %s selector", prefix)
		}
	}
}

func TestRecorderBadInput(t *testing.T) {
	base := string(readFile(t, "mail_search.recording.json"))
	edit := func(old, new string) []byte {
		if !strings.Contains(base, old) {
			t.Fatalf("fixture lacks %q", old)
		}
		return []byte(strings.Replace(base, old, new, 1))
	}
	cases := []struct {
		name string
		raw  []byte
		code string
	}{
		{"empty", []byte(``), CodeSyntax},
		{"unknown top member", edit(`"timeout": 5000,`, `"timeout": 5000, "version": 1,`), CodeUnknownMember},
		{"missing title", edit(`"title": "Search mail for invoices",`, ``), CodeMissingMember},
		{"blank title", edit(`"title": "Search mail for invoices"`, `"title": " "`), CodeBadValue},
		{"unknown step type", edit(`"type": "setViewport"`, `"type": "tap"`), CodeBadValue},
		{"member of another step type", edit(`"type": "keyDown",`, `"type": "keyDown", "url": "x",`), CodeUnknownMember},
		{"missing required member", edit(`"offsetX": 42,`, ``), CodeMissingMember},
		{"wrong type", edit(`"offsetX": 42`, `"offsetX": "42"`), CodeWrongType},
		{"bad selector", edit(`["#search-view > h1"]`, `[]`), CodeWrongType},
		{"selector number", edit(`["#search-view > h1"]`, `7`), CodeWrongType},
		{"popup target", edit(`"type": "click",
      "target": "main",`, `"type": "click",
      "target": "http://127.0.0.1:4010/popup",`), CodeUnsupported},
		{"custom step", edit(`"type": "setViewport",`, `"type": "customStep", "name": "x", "parameters": {}, "ignored_width":`), CodeSyntax},
		{"custom step refused", []byte(strings.Replace(base, `{
      "type": "setViewport",
      "width": 1280,
      "height": 800,
      "deviceScaleFactor": 1,
      "isMobile": false,
      "hasTouch": false,
      "isLandscape": false
    },`, `{ "type": "customStep", "name": "login", "parameters": {"user": "x"} },`, 1)), CodeUnsupported},
		{"secondary click", edit(`"offsetX": 42,`, `"offsetX": 42, "button": "secondary",`), CodeUnsupported},
		{"held key", edit(`"type": "keyUp",
      "key": "Enter",`, `"type": "keyUp",
      "key": "Shift",`), CodeUnsupported},
		{"relative url", edit(`"url": "http://127.0.0.1:4010/mail",
      "assertedEvents"`, `"url": "/mail",
      "assertedEvents"`), CodeUnsupported},
		{"bad asserted event", edit(`{ "type": "navigation", "url": "http://127.0.0.1:4010/mail", "title": "Mail" }`, `{ "type": "load" }`), CodeBadValue},
		{"bad operator", edit(`["#search-view > h1"]
      ]`, `["#search-view > h1"]
      ], "operator": "!="`), CodeBadValue},
		{"count 3 exactly", edit(`["#search-view > h1"]
      ]`, `["#search-view > h1"]
      ], "count": 3`), CodeUnsupported},
		{"only xpath", edit(`["aria/Search results[role=\"heading\"]"],
        ["#search-view > h1"]`, `["xpath//h1"]`), CodeUnsupported},
		{"mixed frames", edit(`"value": "invoice",`, `"value": "invoice", "frame": [1],`), ""},
		{"press never proven", []byte(strings.Replace(strings.Replace(base, `,
    {
      "type": "waitForElement",
      "selectors": [
        ["aria/Search results[role=\"heading\"]"],
        ["#search-view > h1"]
      ]
    }`, ``, 1), `"target": "main",
      "assertedEvents": [
        { "type": "navigation", "url": "http://127.0.0.1:4010/mail#search/invoice", "title": "" }
      ]`, `"target": "main"`, 1)), CodeUnsupported},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, _, err := FromRecorder(tc.raw)
			if err == nil {
				t.Fatalf("accepted: %s", mustJSON(t, c))
			}
			if c != nil {
				t.Error("a capability returned with an error")
			}
			if !errors.Is(err, ErrInvalidSource) && !errors.Is(err, ErrInvalidDraft) {
				t.Fatalf("untyped: %v", err)
			}
			var se SourceErrors
			if tc.code != "" && (!errors.As(err, &se) || !se.HasCode(tc.code)) {
				t.Fatalf("want %s, got %v", tc.code, err)
			}
			t.Log(err)
		})
	}
}
