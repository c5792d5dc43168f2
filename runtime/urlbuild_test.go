package runtime

import (
	"strings"
	"testing"

	"github.com/vera-run/vera/capability"
)

// TestResolveURLTable: targets and query entries resolve to exactly these
// URLs, or are refused; the fuzz finding "%2f@evil.example/login" (string
// concatenation of the origin and the escaped path gave a URL whose host
// was evil.example) is a regression case.
func TestResolveURLTable(t *testing.T) {
	allowed := []string{"http://127.0.0.1:4010", "https://app.example"}
	vals := map[string]inputValue{
		"q":    {text: "A&b=c #1 +é/?"},
		"name": {text: "Ö'Brien & Co"},
		"zero": {text: ""},
	}
	q := func(kv ...string) []capability.QueryEntry {
		var out []capability.QueryEntry
		for i := 0; i+1 < len(kv); i += 2 {
			out = append(out, capability.QueryEntry{Name: kv[i], Value: kv[i+1]})
		}
		return out
	}
	tests := []struct {
		raw   string
		query []capability.QueryEntry
		want  string // "" means refused
	}{
		{"/login", nil, "http://127.0.0.1:4010/login"},
		{"https://app.example", nil, "https://app.example/"},
		{"https://APP.example:443/x", nil, "https://app.example/x"},
		{"/a%20b/c", nil, "http://127.0.0.1:4010/a%20b/c"},
		{"/mail#search/{{q}}", nil, "http://127.0.0.1:4010/mail#search/A%26b%3Dc%20%231%20%2B%C3%A9%2F%3F"},
		{"/clients", q("q", "{{q}}"), "http://127.0.0.1:4010/clients?q=A%26b%3Dc%20%231%20%2B%C3%A9%2F%3F"},
		{"/clients", q("view", "all", "q", "{{name}}", "page", "2"), "http://127.0.0.1:4010/clients?view=all&q=%C3%96%27Brien%20%26%20Co&page=2"},
		{"/clients", q("page", "2", "view", "all"), "http://127.0.0.1:4010/clients?page=2&view=all"},
		{"/clients", q("filter[status]", "open", "empty", "{{zero}}"), "http://127.0.0.1:4010/clients?filter%5Bstatus%5D=open&empty="},
		{"https://app.example/c#x", q("a b", "c~d"), "https://app.example/c?a%20b=c~d#x"},
		// Refused.
		{"%2f@evil.example/login", nil, ""},
		{"%2F@evil.example/login", nil, ""},
		{"/%2f@evil.example/login", nil, "http://127.0.0.1:4010/%2f@evil.example/login"},
		{"//evil.example/x", nil, ""},
		{"/\\evil.example", nil, ""},
		{"https://evil.example/x", nil, ""},
		{"https://user@app.example/x", nil, ""},
		{"/a?b=c", nil, ""},
		{"/a?", nil, ""},
		{"/{{q}}/x", nil, ""},
		{"login", nil, ""},
		{"javascript:alert(1)", nil, ""},
		{"", nil, ""},
		{"/clients", q("", "x"), ""},
		{"/clients", q("{{q}}", "x"), ""},
	}
	for _, tc := range tests {
		got, err := resolveURL(tc.raw, tc.query, allowed, vals)
		if tc.want == "" {
			if err == nil {
				t.Errorf("%q %v: resolved to %q, want refused", tc.raw, tc.query, got)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%q %v: got %q, %v; want %q", tc.raw, tc.query, got, err, tc.want)
		}
		u, err := parseAbs(got)
		if err != nil || !containsString(allowed, originOf(u)) || u.User != nil {
			t.Errorf("%q: %q left the allowed origins", tc.raw, got)
		}
	}
	// An error never carries an input value (errors become hashed details).
	_, err := resolveURL("/x?y", nil, allowed, vals)
	if err == nil || strings.Contains(err.Error(), "A&b") {
		t.Errorf("error %v", err)
	}
}

// TestEncodeQueryComponent: only the RFC 3986 unreserved bytes stay.
func TestEncodeQueryComponent(t *testing.T) {
	for in, want := range map[string]string{
		"abcXYZ019-._~": "abcXYZ019-._~",
		" ":             "%20",
		"+&=#%?/;,":     "%2B%26%3D%23%25%3F%2F%3B%2C",
		"é":             "%C3%A9",
		"!'()*":         "%21%27%28%29%2A",
	} {
		if got := encodeQueryComponent(in); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}
