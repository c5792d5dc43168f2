package runtime

import (
	"encoding/json"
	"errors"
	"math"
	"net/url"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/vera-run/vera/capability"
)

func ptr[T any](v T) *T { return &v }

func inputsCap() *capability.Capability {
	return &capability.Capability{Inputs: []capability.Input{
		{Name: "query", Type: capability.InputString, Required: true, MaxLength: 5},
		{Name: "count", Type: capability.InputInteger, Minimum: ptr(1.0), Maximum: ptr(10.0)},
		{Name: "amount", Type: capability.InputNumber, Minimum: ptr(0.0)},
		{Name: "flag", Type: capability.InputBoolean},
		{Name: "day", Type: capability.InputDate},
		{Name: "color", Type: capability.InputEnum, Values: []string{"red", "blue"}},
		{Name: "pw", Type: capability.InputString, Secret: true},
		{Name: "page", Type: capability.InputInteger, Default: json.RawMessage(`3`)},
	}}
}

func TestCheckInputsAccepts(t *testing.T) {
	c := inputsCap()
	got, err := checkInputs(c, map[string]any{
		"query": "héllo", "count": json.Number("4"), "amount": json.Number("1.50"),
		"flag": true, "day": "2026-03-28", "color": "red", "pw": "s3cret",
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]struct {
		typed any
		text  string
	}{
		"query": {"héllo", "héllo"}, "count": {int64(4), "4"}, "amount": {1.5, "1.5"},
		"flag": {true, "true"}, "day": {"2026-03-28", "2026-03-28"}, "color": {"red", "red"},
		"pw": {"s3cret", "s3cret"}, "page": {int64(3), "3"},
	}
	for name, w := range want {
		v := got[name]
		if v.typed != w.typed || v.text != w.text {
			t.Errorf("%s = %#v %q, want %#v %q", name, v.typed, v.text, w.typed, w.text)
		}
	}
	if got["page"].supplied || !got["query"].supplied || !got["pw"].secret {
		t.Errorf("supplied/secret flags wrong: %+v", got)
	}
	// Go numeric types and integral floats are integers too.
	for _, v := range []any{int8(2), uint16(2), 2.0, float32(2), json.Number("2e0")} {
		got, err := checkInputs(c, map[string]any{"query": "q", "count": v})
		if err != nil || got["count"].typed != int64(2) {
			t.Errorf("count %T(%v): %v %v", v, v, got["count"], err)
		}
	}
	got, err = checkInputs(c, map[string]any{"query": "q", "day": time.Date(2026, 1, 2, 23, 0, 0, 0, time.UTC)})
	if err != nil || got["day"].text != "2026-01-02" {
		t.Errorf("time.Time date: %v %v", got["day"], err)
	}
}

func TestCheckInputsRejects(t *testing.T) {
	c := inputsCap()
	_, err := checkInputs(c, map[string]any{
		"count": 2.5, "amount": math.Inf(1), "flag": "yes", "day": "28/03/2026",
		"color": "green", "extra": 1, "pw": 7,
	})
	var ie *InputError
	if !errors.As(err, &ie) || !errors.Is(err, ErrInputs) {
		t.Fatalf("err = %v", err)
	}
	want := [][2]string{
		{"amount", InputNotFinite}, {"color", InputEnum}, {"count", InputType}, {"day", InputFormat},
		{"extra", InputUnknown}, {"flag", InputType}, {"pw", InputType}, {"query", InputMissing},
	}
	if len(ie.Problems) != len(want) {
		t.Fatalf("problems = %+v", ie.Problems)
	}
	for i, w := range want {
		if p := ie.Problems[i]; p.Name != w[0] || p.Code != w[1] {
			t.Errorf("problem %d = %+v, want %v", i, p, w)
		}
	}
	for _, tc := range []struct {
		v    map[string]any
		name string
		code string
	}{
		{map[string]any{"query": "toolong"}, "query", InputLength},
		{map[string]any{"query": "q", "count": 11}, "count", InputRange},
		{map[string]any{"query": "q", "count": 0}, "count", InputRange},
		{map[string]any{"query": "q", "count": json.Number("1e20")}, "count", InputRange},
		{map[string]any{"query": "q", "count": int64(1) << 60}, "count", InputRange},
		{map[string]any{"query": "q", "amount": -1}, "amount", InputRange},
		{map[string]any{"query": "q", "amount": json.Number("x")}, "amount", InputType},
		{map[string]any{"query": "\xff"}, "query", InputFormat},
		{map[string]any{"query": "q", "day": "2026-02-30"}, "day", InputFormat},
		{map[string]any{"query": nil}, "query", InputMissing},
	} {
		_, err := checkInputs(c, tc.v)
		if !errors.As(err, &ie) || !ie.Has(tc.name, tc.code) {
			t.Errorf("%v: err = %v, want %s %s", tc.v, err, tc.name, tc.code)
		}
	}
}

func TestInputErrorNeverEchoesValues(t *testing.T) {
	c := inputsCap()
	_, err := checkInputs(c, map[string]any{"query": "SECRETVALUE", "color": "SECRETCOLOR", "pw": 12345})
	if err == nil {
		t.Fatal("want error")
	}
	for _, s := range []string{"SECRETVALUE", "SECRETCOLOR", "12345"} {
		if contains := len(err.Error()) > 0 && containsStr(err.Error(), s); contains {
			t.Errorf("error %q echoes %q", err, s)
		}
	}
}

func containsStr(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

func TestEncodeURIComponent(t *testing.T) {
	for in, want := range map[string]string{
		"abc":           "abc",
		"a b":           "a%20b",
		"a/b?c=d&e#f":   "a%2Fb%3Fc%3Dd%26e%23f",
		"-_.!~*'()":     "-_.!~*'()",
		"50%":           "50%25",
		"caffè":         "caff%C3%A8",
		"from:x@y.it 🙂": "from%3Ax%40y.it%20%F0%9F%99%82",
		"+":             "%2B",
	} {
		if got := encodeURIComponent(in); got != want {
			t.Errorf("encodeURIComponent(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTemplates(t *testing.T) {
	vals := map[string]inputValue{"q": {text: "a b"}, "n": {text: "7"}}
	if got := substitute("#search/{{q}}/{{ n }}", vals, encodeURIComponent); got != "#search/a%20b/7" {
		t.Errorf("got %q", got)
	}
	if got := substitute("Member {{q}} {{missing}}!", vals, nil); got != "Member a b !" {
		t.Errorf("got %q", got)
	}
	if got := substitute("{{q", vals, nil); got != "{{q" {
		t.Errorf("got %q", got)
	}
	names, ok := templateNames("x{{a}}y{{ b }}")
	if !ok || len(names) != 2 || names[0] != "a" || names[1] != "b" {
		t.Errorf("names %v %v", names, ok)
	}
	for _, bad := range []string{"{{a", "{{}}", "{{ }}"} {
		if _, ok := templateNames(bad); ok {
			t.Errorf("templateNames(%q) ok", bad)
		}
	}
}

func TestDecodeOnce(t *testing.T) {
	for in, want := range map[string]string{
		"http://h/#search/a%20b": "http://h/#search/a b",
		"http://h/x%2541":        "http://h/x%41",
		"http://h/plain":         "http://h/plain",
	} {
		if got, ok := decodeOnce(in); !ok || got != want {
			t.Errorf("decodeOnce(%q) = %q %v", in, got, ok)
		}
	}
	for _, bad := range []string{"http://h/%zz", "http://h/%ff", "http://h/%"} {
		if _, ok := decodeOnce(bad); ok {
			t.Errorf("decodeOnce(%q) ok", bad)
		}
	}
}

func FuzzDecodeOnce(f *testing.F) {
	f.Add("http://h/#search/a%20b")
	f.Add("%")
	f.Fuzz(func(t *testing.T, s string) {
		d, ok := decodeOnce(s)
		if ok && len(d) > len(s) {
			t.Fatalf("decoded %q longer than %q", d, s)
		}
	})
}

// FuzzResolveURL checks that a resolved capability URL always stays on an
// allowed origin (the origin it resolved against), carries exactly the
// query built from the entries, with the templated value inert (decoding
// the query gives back the two entries, the second equal to the value),
// and substitutes fragment templates percent-encoded.
func FuzzResolveURL(f *testing.F) {
	for _, s := range []string{"/login", "/mail#search/{{q}}", "https://127.0.0.1:4010/x", "//evil.example/x", "/a?b=c",
		"http://[::1]:80/", "/{{q}}/x", "%2f@evil.example/login", "/%2f@evil.example/login", "https://app.example"} {
		f.Add(s, "a b/#?&")
	}
	allowed := []string{"http://127.0.0.1:4010", "https://app.example"}
	f.Fuzz(func(t *testing.T, raw, q string) {
		vals := map[string]inputValue{"q": {text: q}}
		query := []capability.QueryEntry{{Name: "view", Value: "all"}, {Name: "q", Value: "{{q}}"}}
		got, err := resolveURL(raw, query, allowed, vals)
		if err != nil {
			return
		}
		base, frag, _ := strings.Cut(got, "#")
		u, perr := parseAbs(base)
		if perr != nil {
			t.Fatalf("%q -> %q: not absolute", raw, got)
		}
		want := allowed[0]
		if ru, err := url.Parse(raw); err == nil && ru.IsAbs() {
			want = originOf(ru)
		}
		if originOf(u) != want || u.User != nil {
			t.Fatalf("%q -> %q: origin %s, want %s", raw, got, originOf(u), want)
		}
		if u.RawQuery != "view=all&q="+encodeQueryComponent(q) {
			t.Fatalf("%q -> %q: query %q", raw, got, u.RawQuery)
		}
		if utf8.ValidString(q) {
			vs, err := url.ParseQuery(u.RawQuery)
			if err != nil || len(vs) != 2 || len(vs["q"]) != 1 || vs["q"][0] != q || vs["view"][0] != "all" {
				t.Fatalf("%q: value %q is not inert: %v %v", got, q, vs, err)
			}
		}
		if strings.Contains(raw, "{{q}}") && strings.Contains(frag, q) && encodeURIComponent(q) != q && !strings.Contains(frag, encodeURIComponent(q)) {
			t.Fatalf("%q -> %q: unencoded value", raw, got)
		}
	})
}
