package redact_test

import (
	"bufio"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/vera-run/vera/internal/redact"
)

type tsvCase struct {
	line      int
	input     string
	expected  string
	rawSource string
}

// readTSV reads input<TAB>expected lines, skipping blanks and # comments.
// In inputs the two characters \n stand for a newline.
func readTSV(t testing.TB, path string) []tsvCase {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []tsvCase
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		l := sc.Text()
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		in, want, ok := strings.Cut(l, "\t")
		if !ok || strings.Contains(want, "\t") {
			t.Fatalf("%s:%d: want exactly two tab-separated fields", path, n)
		}
		cases = append(cases, tsvCase{line: n, input: strings.ReplaceAll(in, `\n`, "\n"), expected: want, rawSource: in})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cases
}

func TestIdentifiersCorpus(t *testing.T) {
	cases := readTSV(t, "testdata/identifiers.tsv")
	if len(cases) < 40 {
		t.Fatalf("corpus has %d cases, want at least 40", len(cases))
	}
	kinds := map[string]bool{}
	for _, c := range cases {
		got, n := redact.Identifiers(c.input)
		if got != c.expected {
			t.Errorf("line %d: Identifiers(%q)\n got %q\nwant %q", c.line, c.input, got, c.expected)
		}
		if want := strings.Count(c.expected, redact.Marker) - strings.Count(c.input, redact.Marker); n != want {
			t.Errorf("line %d: count %d, want %d", c.line, n, want)
		}
		if redact.ContainsIdentifier(c.input) != (got != c.input) {
			t.Errorf("line %d: ContainsIdentifier disagrees with Identifiers", c.line)
		}
		for _, m := range redact.FindIdentifiers(c.input) {
			kinds[m.Kind] = true
		}
	}
	for _, k := range redact.Kinds() {
		if !kinds[k] {
			t.Errorf("corpus has no example of kind %s", k)
		}
	}
}

func TestFindIdentifiers(t *testing.T) {
	tests := []struct {
		in   string
		want []redact.Match
	}{
		{"", nil},
		{"Page 1 of 3", nil},
		{"Cliente RSSMRA85T10A562S", []redact.Match{{redact.KindCodiceFiscale, 8, 24}}},
		{"a@b.it 123-45-6789", []redact.Match{{redact.KindEmail, 0, 6}, {redact.KindSSN, 7, 18}}},
		{"n. 01234567", []redact.Match{{redact.KindDigits, 3, 11}}},
		// The card candidate and its digit-run sub-candidates merge into one.
		{"4111111111111111", []redact.Match{{redact.KindCard, 0, 16}}},
		// The IBAN (longer) swallows the digit runs inside it.
		{"IT60X0542811101000000123456", []redact.Match{{redact.KindIBAN, 0, 27}}},
		{"+39 347 123 4567", []redact.Match{{redact.KindPhone, 0, 16}}},
		{"Bearer abcdefgh12345678", []redact.Match{{redact.KindToken, 7, 23}}},
		{"P.IVA IT12345678903", []redact.Match{{redact.KindPartitaIVA, 6, 19}}},
		{"Invalid IBAN IT61X0542811101000000123456", []redact.Match{{redact.KindDigits, 18, 40}}},
	}
	for _, tt := range tests {
		got := redact.FindIdentifiers(tt.in)
		if !slices.Equal(got, tt.want) {
			t.Errorf("FindIdentifiers(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestIdentifiersTable(t *testing.T) {
	tests := []struct {
		name, in, want string
		n              int
	}{
		{"empty", "", "", 0},
		{"marker passes through", redact.Marker, redact.Marker, 0},
		{"two in one", "mario@example.it, +39 347 123 4567", redact.Marker + ", " + redact.Marker, 2},
		{"digits inside a test id", "member-row-1234567-edit", "member-row-" + redact.Marker + "-edit", 1},
		{"adjacent after redaction", "1234567RSSMRA85T10A562S", redact.Marker + redact.Marker, 2},
		{"five digits stay", "Ordine 12345", "Ordine 12345", 0},
		{"six digits go", "Ordine 123456", "Ordine " + redact.Marker, 1},
		{"sentence dot after phone", "Chiama 347 123 4567.", "Chiama " + redact.Marker + ".", 1},
		{"date then time", "30/11/2026 14:05", "30/11/2026 14:05", 0},
		{"dotted date then number", "30.11.2026 12 rate", "30.11.2026 12 rate", 0},
		{"price with thousands", "€ 1.234.567,89", "€ 1.234.567,89", 0},
		{"invalid utf8", "\xff\xfe 123456 \xff", "\xff\xfe " + redact.Marker + " \xff", 1},
		{"lower-case iban", "it60x0542811101000000123456", redact.Marker, 1},
		{"uuid upper", "ID 550E8400-E29B-41D4-A716-446655440000", "ID " + redact.Marker, 1},
		{"us phone dashes", "555-123-4567", redact.Marker, 1},
		{"ssn inside code", "INV-123-45-6789", "INV-123-45-6789", 0},
		{"email trailing dot", "Write to a.b@example.com.", "Write to " + redact.Marker + ".", 1},
		{"not an email", "user@localhost and @handle", "user@localhost and @handle", 0},
		{"hex digest", "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", "sha256:" + redact.Marker, 1},
		{"jwt", "x eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln y", "x " + redact.Marker + " y", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, n := redact.Identifiers(tt.in)
			if got != tt.want || n != tt.n {
				t.Errorf("Identifiers(%q) = %q, %d; want %q, %d", tt.in, got, n, tt.want, tt.n)
			}
		})
	}
}

// TestHighEntropyRandomTokens checks, with a fixed seed, that random
// base64url tokens are redacted at the documented rate.
func TestHighEntropyRandomTokens(t *testing.T) {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	r := rand.New(rand.NewPCG(7, 11))
	for _, tc := range []struct {
		n       int
		minRate float64
	}{{24, 0.90}, {40, 0.97}} {
		hit := 0
		const total = 2000
		for range total {
			b := make([]byte, tc.n)
			for i := range b {
				b[i] = alphabet[r.IntN(len(alphabet))]
			}
			if redact.ContainsIdentifier("code " + string(b)) {
				hit++
			}
		}
		if rate := float64(hit) / total; rate < tc.minRate {
			t.Errorf("%d-character tokens: %.1f%% redacted, want at least %.0f%%", tc.n, 100*rate, 100*tc.minRate)
		}
	}
}

func TestSecretsCorpus(t *testing.T) {
	cases := readTSV(t, "testdata/secrets.tsv")
	pos, neg := 0, 0
	kinds := map[string]bool{}
	for _, c := range cases {
		kind, ok := redact.FindSecret(c.input)
		got := "-"
		if ok {
			got = kind
			if kind == "" {
				t.Errorf("line %d: ok with empty kind", c.line)
			}
		}
		if got != c.expected {
			t.Errorf("line %d: FindSecret(%q) = %s, want %s", c.line, c.input, got, c.expected)
		}
		if c.expected == "-" {
			neg++
		} else {
			pos++
			kinds[c.expected] = true
		}
	}
	if pos < 20 || neg < 20 {
		t.Errorf("corpus has %d positives and %d negatives, want at least 20 of each", pos, neg)
	}
	for _, k := range redact.SecretKinds() {
		if !kinds[k] && k != redact.SecretCredentialField {
			t.Errorf("corpus has no example of kind %s", k)
		}
	}
}

func TestFindSecretMarker(t *testing.T) {
	red, _ := redact.Identifiers("Authorization: Bearer 8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c")
	for _, s := range []string{redact.Marker, strings.Repeat(redact.Marker, 10), "token=" + redact.Marker, red} {
		if kind, ok := redact.FindSecret(s); ok && s != red {
			t.Errorf("FindSecret(%q) = %s", s, kind)
		}
	}
}

func TestScanJSON(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		want []redact.Finding
	}{
		{name: "clean capability", doc: `{"schema":"browser-capability/v1","id":"member-balance","version":"1.2.0",
			"provenance":{"discovery_hash":"sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
			"site":{"allowed_origins":["https://bank.example"]},"runtime":{"start":"/members"},
			"inputs":[{"name":"password","type":"secret","secret":true}],
			"milestones":[{"id":"m1","actions":[{"id":"a1","locator":{"role":"button","name":"Cerca"}}]}],
			"finished_at":"2026-11-30T14:05:00Z"}`},
		{name: "nested value", doc: `{"milestones":[{"actions":[]},{"actions":[{"value":"Bearer abcdef123456"}]}]}`,
			want: []redact.Finding{{Path: "milestones[1].actions[0].value", Kind: redact.SecretBearer}}},
		{name: "credential member", doc: `{"login":{"password":"hunter2","user":"mario"}}`,
			want: []redact.Finding{{Path: "login.password", Kind: redact.SecretCredentialField}}},
		{name: "credential member placeholder", doc: `{"login":{"password":"⟦redacted⟧","Token":"${TOKEN}","cookie":""}}`},
		{name: "header names", doc: `{"headers":{"Set-Cookie":"a=b","X-API-Key":"k1"}}`,
			want: []redact.Finding{
				{Path: "headers.Set-Cookie", Kind: redact.SecretCredentialField},
				{Path: "headers.X-API-Key", Kind: redact.SecretCredentialField},
			}},
		{name: "secret key", doc: `{"a":{"AKIAIOSFODNN7EXAMPLE":{"b":"sk-abcdefghijklmnopqrstuvwxyz"}}}`,
			want: []redact.Finding{
				{Path: "a", Kind: redact.SecretAWSKey, InKey: true},
				{Path: "a[" + redact.Marker + "].b", Kind: redact.SecretAPIKey},
			}},
		{name: "root string", doc: `"password=abcdef"`, want: []redact.Finding{{Path: "", Kind: redact.SecretAssignment}}},
		{name: "root array", doc: `["ok", 1, null, true, {"u":"https://x.example/cb?access_token=abc"}]`,
			want: []redact.Finding{{Path: "[4].u", Kind: redact.SecretURLQuery}}},
		{name: "duplicate keys both scanned", doc: `{"k":"ok","k":"Cookie: sid=abcdef"}`,
			want: []redact.Finding{{Path: "k", Kind: redact.SecretCookie}}},
		{name: "numbers ignored", doc: `{"card":4111111111111111,"n":1e3}`},
		{name: "invalid json falls back", doc: `{"h": "Cookie: sid=abcdef", oops`,
			want: []redact.Finding{{Path: "", Kind: redact.SecretCookie}}},
		{name: "odd member names", doc: `{"a b":{"0x":{"":"password=abcdef"}}}`,
			want: []redact.Finding{{Path: `["a b"]["0x"][""]`, Kind: redact.SecretAssignment}}},
		{name: "trailing data falls back", doc: `{} {"a":"b"}`},
		{name: "empty", doc: ``},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := redact.ScanJSON([]byte(tt.doc))
			if !slices.Equal(got, tt.want) {
				t.Errorf("ScanJSON = %+v\nwant %+v", got, tt.want)
			}
			for _, f := range got {
				if strings.Contains(f.Path, "sk-") || strings.Contains(f.Path, "AKIA") {
					t.Errorf("path %q leaks a secret", f.Path)
				}
			}
		})
	}
}

func FuzzIdentifiers(f *testing.F) {
	for _, c := range readTSV(f, "testdata/identifiers.tsv") {
		f.Add(c.input)
	}
	f.Add("1234567RSSMRA85T10A562S")
	f.Add("+39 (347) 123 4567 / 06 1234 5678")
	f.Add("\xff@\xfe.it 000000")
	f.Fuzz(func(t *testing.T, s string) {
		once, n := redact.Identifiers(s)
		twice, n2 := redact.Identifiers(once)
		if twice != once || n2 != 0 {
			t.Fatalf("not idempotent: %q -> %q -> %q", s, once, twice)
		}
		if redact.ContainsIdentifier(once) {
			t.Fatalf("output %q still contains %v", once, redact.FindIdentifiers(once))
		}
		if (n == 0) != (once == s) {
			t.Fatalf("count %d but changed=%v", n, once != s)
		}
		if got := strings.Count(once, redact.Marker) - strings.Count(s, redact.Marker); got != n {
			t.Fatalf("count %d, markers added %d", n, got)
		}
		if utf8.ValidString(s) && !utf8.ValidString(once) {
			t.Fatalf("valid UTF-8 %q became invalid %q", s, once)
		}
		prev := 0
		for _, m := range redact.FindIdentifiers(s) {
			if m.Start < prev || m.End <= m.Start || m.End > len(s) || m.Kind == "" {
				t.Fatalf("bad match %+v in %q", m, s)
			}
			prev = m.End
		}
	})
}

func FuzzFindSecret(f *testing.F) {
	for _, c := range readTSV(f, "testdata/secrets.tsv") {
		f.Add(c.input)
	}
	f.Add("https://a:@b/?=&=#")
	f.Add("Authorization:")
	f.Add("-----BEGIN ")
	known := map[string]bool{}
	for _, k := range redact.SecretKinds() {
		known[k] = true
	}
	f.Fuzz(func(t *testing.T, s string) {
		kind, ok := redact.FindSecret(s)
		if ok != (kind != "") || (ok && !known[kind]) {
			t.Fatalf("FindSecret(%q) = %q, %v", s, kind, ok)
		}
		if k2, ok2 := redact.FindSecret(s); k2 != kind || ok2 != ok {
			t.Fatalf("not deterministic")
		}
		if _, ok := redact.FindSecret(redact.Marker); ok {
			t.Fatal("marker flagged")
		}
		_ = redact.ScanJSON([]byte(s))
	})
}

func FuzzScanJSON(f *testing.F) {
	f.Add(`{"a":[1,"b",{"password":"x"}]}`)
	f.Add(`[{"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln":1}]`)
	f.Add(`{"a":`)
	f.Fuzz(func(t *testing.T, doc string) {
		for _, fd := range redact.ScanJSON([]byte(doc)) {
			if fd.Kind == "" {
				t.Fatalf("finding without kind: %+v", fd)
			}
		}
	})
}
