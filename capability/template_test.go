package capability

import (
	"encoding/json"
	"net/url"
	"slices"
	"strings"
	"testing"
)

// TestTemplateEncodingParse covers the template syntax with encodings.
func TestTemplateEncodingParse(t *testing.T) {
	tests := []struct {
		in   string
		want []TemplateRef
		ok   bool
	}{
		{"plain", nil, true},
		{"{{a}}", []TemplateRef{{Name: "a"}}, true},
		{"{{a|json}} and {{b|url}}", []TemplateRef{{"a", EncodingJSON}, {"b", EncodingURL}}, true},
		{"{{a|html}}", nil, false},
		{"{{a|}}", nil, false},
		{"{{|json}}", nil, false},
		{"{{a|json|url}}", nil, false},
		{"{{A}}", nil, false},
		{"{{a", nil, false},
	}
	for _, tt := range tests {
		got, ok := ParseTemplates(tt.in)
		if ok != tt.ok || !slices.Equal(got, tt.want) {
			t.Errorf("ParseTemplates(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

// TestTemplateEncodingValidation is the table of fill values and the code
// validation reports for each: structured literals need encodings.
func TestTemplateEncodingValidation(t *testing.T) {
	tests := []struct {
		value string
		want  Code // "" means valid
	}{
		// Plain text: any encoding.
		{"Member {{member_id}}", ""},
		{"Member {{member_id|json}}", ""},
		{"{{member_id}}", ""},
		// JSON literals.
		{`{"member": "{{member_id}}"}`, CodeTemplateEncodingRequired},
		{`{"member": {{member_id}}}`, CodeTemplateEncodingRequired},
		{`  [{{member_id}}]`, CodeTemplateEncodingRequired},
		{`{"member": {{member_id|json}}, "tag": "ok"}`, ""},
		{`[{{member_id|json}}, {{member_id|json}}]`, ""},
		{`{"next": "https://x.example/?m={{member_id|url}}"}`, ""},
		{`{"member": "{{member_id|json}}"}`, CodeTemplateEncodingContext},
		{`{"member": "id {{member_id|json}}"}`, CodeTemplateEncodingContext},
		{`{"a": {"b": [1, {{member_id|json}}]}}`, ""},
		{`{"a": {"{{member_id|url}}": 1}}`, ""},
		{`{"member": {{member_id|url}}}`, CodeTemplateEncodingContext},
		{`{"member": {{member_id|json}}`, CodeTemplateEncodingContext},
		// URL literals.
		{"https://teller.example/members?id={{member_id}}", CodeTemplateEncodingRequired},
		{"/members/{{member_id}}", CodeTemplateEncodingRequired},
		{"?id={{member_id}}", CodeTemplateEncodingRequired},
		{"id=1&member={{member_id}}", CodeTemplateEncodingRequired},
		{"https://teller.example/members?id={{member_id|json}}", CodeTemplateEncodingRequired},
		{"https://teller.example/members?id={{member_id|url}}", ""},
		{"id=1&member={{member_id|url}}", ""},
	}
	for _, tt := range tests {
		c := loadValid(t, "teller")
		a := act(t, c, "fill-member-id")
		a.Input, a.Value = "", tt.value
		l := c.Validate()
		var got []Code
		for _, e := range l {
			if e.Code == CodeTemplateEncodingRequired || e.Code == CodeTemplateEncodingContext {
				got = append(got, e.Code)
			}
		}
		switch {
		case tt.want == "" && len(l) > 0:
			t.Errorf("%s: want valid, got %v", tt.value, l)
		case tt.want != "" && !slices.Equal(got, []Code{tt.want}):
			t.Errorf("%s: codes %v, want [%s] (all: %v)", tt.value, got, tt.want, l)
		case tt.want != "" && len(l) != 1:
			t.Errorf("%s: want exactly one problem, got %v", tt.value, l)
		}
	}
}

// TestTemplateEncodingHash: the encoding is part of the hashed text, so
// two capabilities that differ only in a template's encoding have
// different execution hashes.
func TestTemplateEncodingHash(t *testing.T) {
	hash := func(v string) string {
		c := loadValid(t, "teller")
		a := act(t, c, "fill-member-id")
		a.Input, a.Value = "", v
		if l := c.Validate(); len(l) > 0 {
			t.Fatalf("%s: %v", v, l)
		}
		h, err := c.ExecutionHash()
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	plain, js, url := hash("Member {{member_id}}"), hash("Member {{member_id|json}}"), hash("Member {{member_id|url}}")
	if plain == js || plain == url || js == url {
		t.Errorf("hashes do not cover the encoding: %s %s %s", plain, js, url)
	}
}

// FuzzTemplateEncoding: parsing never panics, and a JSON literal that
// validation accepts stays valid JSON of the same shape whatever string
// its json templates receive (the injection of issue 22.5 cannot work).
func FuzzTemplateEncoding(f *testing.F) {
	f.Add(`{"name": {{name|json}}, "tag": "ok"}`, `Evil", "tag": "x`)
	f.Add(`[{{a|json}}, "x={{b|url}}"]`, `\u0000"}`)
	f.Add(`{"a": "{{a}}"}`, "x")
	f.Add(`https://x.example/?q={{q|url}}`, "&a=b#c")
	f.Fuzz(func(t *testing.T, lit, val string) {
		refs, ok := ParseTemplates(lit)
		code, _ := templateContext(lit)
		if !ok || code != "" || literalKind(lit) != "json" || len(refs) == 0 {
			return
		}
		sub := func(v string) string {
			var b strings.Builder
			rest := lit
			for {
				i := strings.Index(rest, "{{")
				if i < 0 {
					b.WriteString(rest)
					return b.String()
				}
				j := strings.Index(rest[i:], "}}")
				r, _ := parseTemplateBody(rest[i+2 : i+j])
				b.WriteString(rest[:i])
				if r.Encoding == EncodingJSON {
					q, _ := json.Marshal(v)
					b.Write(q)
				} else {
					b.WriteString(url.QueryEscape(v))
				}
				rest = rest[i+j+2:]
			}
		}
		var x, y any
		if err := json.Unmarshal([]byte(sub(val)), &x); err != nil {
			t.Fatalf("%q with %q is not JSON: %v", lit, val, err)
		}
		if err := json.Unmarshal([]byte(sub("plain")), &y); err != nil {
			t.Fatalf("%q with plain is not JSON: %v", lit, err)
		}
		if shape(x) != shape(y) {
			t.Fatalf("%q: the value %q changed the shape: %s vs %s", lit, val, shape(x), shape(y))
		}
	})
}

// shape is a JSON value's structure without its string contents.
func shape(v any) string {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		s := "{"
		for _, k := range keys {
			s += k + ":" + shape(x[k]) + ","
		}
		return s + "}"
	case []any:
		s := "["
		for _, e := range x {
			s += shape(e) + ","
		}
		return s + "]"
	case string:
		return "s"
	}
	return "v"
}
