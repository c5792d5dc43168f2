package capability

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func TestParseErrors(t *testing.T) {
	teller := string(readValid(t, "teller"))
	tests := []struct {
		name string
		doc  string
		code Code
		path string
		is   error
	}{
		{name: "unknown top-level field", doc: strings.Replace(teller, `"goal":`, `"goals": "x", "goal":`, 1),
			code: ParseCodeUnknownField, path: "goals"},
		{name: "unknown nested field", doc: strings.Replace(teller, `"strategy": "role",`, `"strategy": "role", "xpath": "//button",`, 1),
			code: ParseCodeUnknownField, path: "milestones[0].actions[0].locator_candidates[0].xpath"},
		{name: "member name in another case", doc: strings.Replace(teller, `"max_effect"`, `"Max_Effect"`, 1),
			code: ParseCodeUnknownField, path: "authority.Max_Effect"},
		{name: "duplicate nested key", doc: strings.Replace(teller, `"test_id": "member-name"`, `"test_id": "member-name", "test_id": "x"`, 1),
			code: ParseCodeDuplicateKey},
		{name: "trailing data", doc: teller + "\n[]", code: ParseCodeTrailingData},
		{name: "two documents", doc: teller + teller, code: ParseCodeTrailingData},
		{name: "wrong schema", doc: strings.Replace(teller, SchemaV1, "browser-capability/v2", 1),
			code: ParseCodeUnsupportedSchema, path: "schema", is: ErrSchema},
		{name: "schema not a string", doc: strings.Replace(teller, `"`+SchemaV1+`"`, `1`, 1),
			code: ParseCodeUnsupportedSchema, is: ErrSchema},
		{name: "missing schema", doc: strings.Replace(teller, `"schema": "`+SchemaV1+`",`, ``, 1),
			code: ParseCodeUnsupportedSchema, is: ErrSchema},
		{name: "top-level array", doc: `[]`, code: ParseCodeWrongType},
		{name: "string for a number", doc: strings.Replace(teller, `"max_actions": 50`, `"max_actions": "50"`, 1),
			code: ParseCodeWrongType, path: "runtime.max_actions"},
		{name: "fraction for an integer", doc: strings.Replace(teller, `"max_actions": 50`, `"max_actions": 50.5`, 1),
			code: ParseCodeWrongType, path: "runtime.max_actions"},
		{name: "integer written 50.0", doc: strings.Replace(teller, `"max_actions": 50`, `"max_actions": 50.0`, 1),
			code: ParseCodeWrongType, path: "runtime.max_actions"},
		{name: "integer written 5e1", doc: strings.Replace(teller, `"max_actions": 50`, `"max_actions": 5e1`, 1),
			code: ParseCodeWrongType, path: "runtime.max_actions"},
		{name: "object for a number", doc: strings.Replace(teller, `"max_length": 64`, `"max_length": {}`, 1),
			code: ParseCodeWrongType, path: "inputs[0].max_length"},
		{name: "object for an array", doc: strings.Replace(teller, `"data_classes": [`+"\n      \"member_identity\",\n      \"member_balances\"\n    ]", `"data_classes": {}`, 1),
			code: ParseCodeWrongType, path: "privacy.data_classes"},
		{name: "invalid UTF-8", doc: strings.Replace(teller, "Username", "User\xffname", 1), code: ParseCodeSyntax},
		{name: "lone surrogate", doc: strings.Replace(teller, "Username", `User\ud800name`, 1), code: ParseCodeSyntax},
		{name: "empty", doc: ``, code: ParseCodeSyntax},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Parse(strings.NewReader(tc.doc))
			if c != nil || err == nil {
				t.Fatalf("Parse succeeded")
			}
			var pe *ParseError
			if !errors.As(err, &pe) || !errors.Is(err, ErrParse) {
				t.Fatalf("error %v is not a *ParseError wrapping ErrParse", err)
			}
			if pe.Code != tc.code {
				t.Fatalf("code = %q, want %q (%v)", pe.Code, tc.code, err)
			}
			if tc.path != "" && pe.Path != tc.path {
				t.Fatalf("path = %q, want %q", pe.Path, tc.path)
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Fatalf("error %v does not wrap %v", err, tc.is)
			}
			if errors.Is(err, ErrInvalid) {
				t.Fatal("a parse error is not a validation error")
			}
		})
	}
}

func TestParseTooLarge(t *testing.T) {
	big := io.MultiReader(strings.NewReader(`{"schema":"`+SchemaV1+`","name":"`), bytes.NewReader(bytes.Repeat([]byte("a"), MaxDocumentBytes)), strings.NewReader(`"}`))
	_, err := Parse(big)
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Code != ParseCodeTooLarge || !errors.Is(err, ErrTooLarge) {
		t.Fatalf("err = %v", err)
	}
	if _, err := ParseBytes(make([]byte, MaxDocumentBytes+1)); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("ParseBytes: %v", err)
	}
}

func TestParseReadError(t *testing.T) {
	_, err := Parse(iotest.ErrReader(errors.New("disk gone")))
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Code != ParseCodeRead || !strings.Contains(err.Error(), "disk gone") {
		t.Fatalf("err = %v", err)
	}
}

func TestParseAcceptsNullForOptionalMembers(t *testing.T) {
	doc := strings.Replace(string(readValid(t, "mail")), `"inputs": [`, `"business_outcomes": null, "inputs": [`, 1)
	c, err := ParseBytes([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if errs := c.Validate(); len(errs) != 0 {
		t.Fatal(errs)
	}
}
