package runtime

import (
	"encoding/json"
	"testing"
)

// TestTemplateEncodingSubstitute: each encoding writes the value so the
// literal around it keeps its shape.
func TestTemplateEncodingSubstitute(t *testing.T) {
	vals := map[string]inputValue{
		"name":  {typed: `Evil", "tag": "x`, text: `Evil", "tag": "x`, supplied: true},
		"n":     {typed: int64(42), text: "42", supplied: true},
		"flag":  {typed: true, text: "true", supplied: true},
		"html":  {typed: `<a&b>`, text: `<a&b>`, supplied: true},
		"empty": {},
	}
	tests := []struct {
		tmpl string
		enc  func(string) string
		want string
	}{
		{`{"name": {{name|json}}, "tag": "ok"}`, nil, `{"name": "Evil\", \"tag\": \"x", "tag": "ok"}`},
		{`{"n": {{n|json}}, "f": {{flag|json}}, "e": {{empty|json}}}`, nil, `{"n": 42, "f": true, "e": null}`},
		{`{"h": {{html|json}}}`, nil, `{"h": "<a&b>"}`},
		{`q={{name|url}}`, nil, `q=Evil%22%2C%20%22tag%22%3A%20%22x`},
		{`{{name}}`, nil, `Evil", "tag": "x`},
		{`{{ name | url }}`, nil, `Evil%22%2C%20%22tag%22%3A%20%22x`},
		// A context that encodes: url is not encoded twice, json is.
		{`{{n|url}}/{{n}}/{{flag|json}}`, encodeURIComponent, `42/42/true`},
		{`{{html|url}}`, encodeURIComponent, `%3Ca%26b%3E`},
		{`{{html|json}}`, encodeURIComponent, `%22%3Ca%26b%3E%22`},
	}
	for _, tt := range tests {
		if got := substitute(tt.tmpl, vals, tt.enc); got != tt.want {
			t.Errorf("substitute(%q) = %q, want %q", tt.tmpl, got, tt.want)
		}
	}
	var body map[string]any
	if err := json.Unmarshal([]byte(substitute(`{"name": {{name|json}}, "tag": "ok"}`, vals, nil)), &body); err != nil {
		t.Fatal(err)
	}
	if len(body) != 2 || body["name"] != `Evil", "tag": "x` || body["tag"] != "ok" {
		t.Errorf("injection not inert: %v", body)
	}
	if names, ok := templateNames(`{{a|json}} {{b|url}} {{c}}`); !ok || len(names) != 3 || names[0] != "a" || names[1] != "b" {
		t.Errorf("templateNames = %v, %v", names, ok)
	}
	if _, ok := templateNames(`{{a|html}}`); ok {
		t.Error("templateNames accepts an unknown encoding")
	}
}
