package canonjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestRFC8785Vectors(t *testing.T) {
	inputs, err := filepath.Glob(filepath.Join("testdata", "jcs", "input", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(inputs) != 6 {
		t.Fatalf("found %d RFC 8785 vectors, want 6", len(inputs))
	}
	for _, in := range inputs {
		name := filepath.Base(in)
		t.Run(name, func(t *testing.T) {
			raw, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(filepath.Join("testdata", "jcs", "output", name))
			if err != nil {
				t.Fatal(err)
			}
			got, err := Transform(raw)
			if err != nil {
				t.Fatalf("Transform: %v", err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("Transform mismatch\n got: %q\nwant: %q", got, want)
			}
			again, err := Transform(got)
			if err != nil || !bytes.Equal(again, want) {
				t.Fatalf("not idempotent: %q, %v", again, err)
			}
			d, err := DigestBytes(raw)
			if err != nil || d != SumBytes(want) {
				t.Fatalf("DigestBytes = %q, %v; want %q", d, err, SumBytes(want))
			}
		})
	}
}

func TestTransform(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		// Structure and whitespace.
		{"scalar true", ` true `, `true`},
		{"scalar null", "\t\r\nnull\n", `null`},
		{"scalar string", `"x"`, `"x"`},
		{"scalar number", `1.50`, `1.5`},
		{"empty object", `{ }`, `{}`},
		{"empty array", `[ ]`, `[]`},
		{"nested empty", `[{},[],{"a":[]}]`, `[{},[],{"a":[]}]`},
		{"sorts keys", `{"b":1,"a":2,"c":{"z":1,"y":[{"q":1,"p":2}]}}`, `{"a":2,"b":1,"c":{"y":[{"p":2,"q":1}],"z":1}}`},
		{"array order kept", `[3,1,2]`, `[3,1,2]`},
		{"key order is bytewise", `{"a":1,"B":2,"_":3,"aa":4,"":5}`, `{"":5,"B":2,"_":3,"a":1,"aa":4}`},
		{"prefix sorts first", `{"ab":1,"a":2}`, `{"a":2,"ab":1}`},
		{"deep unsorted", `{"b":{"b":{"b":1,"a":2},"a":3},"a":4}`, `{"a":4,"b":{"a":3,"b":{"a":2,"b":1}}}`},
		{"sorted outer unsorted inner", `{"a":{"d":1,"c":2},"b":[{"f":1,"e":2}]}`, `{"a":{"c":2,"d":1},"b":[{"e":2,"f":1}]}`},
		{"unsorted outer sorted inner", `{"b":{"c":1,"d":2},"a":[{"e":1,"f":2}]}`, `{"a":[{"e":1,"f":2}],"b":{"c":1,"d":2}}`},

		// UTF-16 code unit order: supplementary characters (surrogates
		// D800-DFFF) sort before U+E000-U+FFFF, unlike in UTF-8 byte order.
		{"utf16 order", "{\"\uE000\":1,\"\U00010000\":2}", "{\"\U00010000\":2,\"\uE000\":1}"},
		{"utf16 order sorted input", "{\"\U00010000\":2,\"\uE000\":1}", "{\"\U00010000\":2,\"\uE000\":1}"},
		{"utf16 order FFFF", "{\"\uFFFF\":1,\"\U0010FFFF\":2,\"\uD7FF\":3}", "{\"\uD7FF\":3,\"\U0010FFFF\":2,\"\uFFFF\":1}"},
		{"utf16 order escapes", `{"\ue000":1,"\ud800\udc00":2,"\ud7ff":3}`, "{\"\uD7FF\":3,\"\U00010000\":2,\"\uE000\":1}"},
		{"utf16 order in prefix", "{\"a\uFB33b\":1,\"a\U0001F602\":2}", "{\"a\U0001F602\":2,\"a\uFB33b\":1}"},
		{"utf16 supplementary among themselves", "{\"\U0010FFFF\":1,\"\U00010000\":2,\"\U0001F602\":3}", "{\"\U00010000\":2,\"\U0001F602\":3,\"\U0010FFFF\":1}"},
		{"sort on decoded names", `{"\u0062":1,"a":2,"\n":3,"\u0009":4}`, `{"\t":4,"\n":3,"a":2,"b":1}`},

		// Strings.
		{"escapes decoded", `"\u00e9\u0041\/\u20ac"`, `"éA/€"`},
		{"short escapes", `"\b\f\n\r\t\"\\"`, `"\b\f\n\r\t\"\\"`},
		{"controls lowercase hex", `"\u0000\u001F\u000b\u001e"`, `"\u0000\u001f\u000b\u001e"`},
		{"control as short escape", `"\u0008\u000C\u000A\u000D\u0009"`, `"\b\f\n\r\t"`},
		{"del raw", `"\u007f"`, "\"\x7f\""},
		{"line separators raw", `"\u2028\u2029"`, "\"\u2028\u2029\""},
		{"html raw", `"\u003c/script\u003e \u0026"`, `"</script> &"`},
		{"raw utf8 kept", `"péché 😂"`, `"péché 😂"`},
		{"surrogate pair", `"\ud83d\ude02"`, `"😂"`},
		{"surrogate pair upper hex", `"\uD83D\uDE02x"`, `"😂x"`},
		{"noncharacters kept", `"\uFFFF\uFFFE"`, "\"\uFFFF\uFFFE\""},
		{"nul", `"a\u0000b"`, `"a\u0000b"`},
		{"escape then raw", `"\"a\u00e9b"`, `"\"aéb"`},

		// Numbers.
		{"1E30", `1E30`, `1e+30`},
		{"rounding", `333333333.33333329`, `333333333.3333333`},
		{"4.50", `4.50`, `4.5`},
		{"2e-3", `2e-3`, `0.002`},
		{"0.000001", `0.000001`, `0.000001`},
		{"1e-7", `1e-7`, `1e-7`},
		{"-0", `-0`, `0`},
		{"-0.0", `-0.0`, `0`},
		{"-0e5", `-0e5`, `0`},
		{"1e21", `1e21`, `1e+21`},
		{"1e21 written out", `1000000000000000000000`, `1e+21`},
		{"below 1e21", `123456789012345680000`, `123456789012345680000`},
		{"1e20", `1e20`, `100000000000000000000`},
		{"1e-27", `0.000000000000000000000000001`, `1e-27`},
		{"56.0", `56.0`, `56`},
		{"negative exponent sign", `-1.5E-10`, `-1.5e-10`},
		{"exponent plus", `1.5e+3`, `1500`},
		{"max safe", `9007199254740991`, `9007199254740991`},
		{"2^53", `9007199254740992`, `9007199254740992`},
		{"-2^53", `-9007199254740992`, `-9007199254740992`},
		{"2^54", `18014398509481984`, `18014398509481984`},
		{"2^68 exact", `295147905179352825856`, `295147905179352830000`},
		{"canonical inexact integer", `295147905179352830000`, `295147905179352830000`},
		{"canonical inexact negative", `-123456789012345680000`, `-123456789012345680000`},
		{"1<<60", `1152921504606846976`, `1152921504606847000`},
		{"fraction rounds", `9007199254740993.0`, `9007199254740992`},
		{"exponent rounds", `9007199254740993e0`, `9007199254740992`},
		{"many digits", `1.00000000000000000000000000001`, `1`},
		{"underflow", `1e-400`, `0`},
		{"negative underflow", `-1e-400`, `0`},
		{"min subnormal", `5e-324`, `5e-324`},
		{"max double", `1.7976931348623157e308`, `1.7976931348623157e+308`},
		{"15 digit integer", `999999999999999`, `999999999999999`},
		{"16 digit integer", `1234567890123456`, `1234567890123456`},
		{"zero", `0`, `0`},
		{"numbers in array", `[1,-1,0.5,-0.5,100]`, `[1,-1,0.5,-0.5,100]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Transform([]byte(tt.in))
			if err != nil {
				t.Fatalf("Transform(%q): %v", tt.in, err)
			}
			if string(got) != tt.want {
				t.Fatalf("Transform(%q)\n got: %q\nwant: %q", tt.in, got, tt.want)
			}
			again, err := Transform(got)
			if err != nil || !bytes.Equal(again, got) {
				t.Fatalf("not idempotent: %q -> %q, %v", got, again, err)
			}
		})
	}
}

func TestTransformErrors(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		sentinel error // nil: plain grammar error
		offset   int64
	}{
		{"empty", ``, nil, 0},
		{"only space", `  `, nil, 2},
		{"bom", "\uFEFF{}", nil, 0},
		{"trailing data", `{} x`, ErrTrailingData, 3},
		{"two values", `1 2`, ErrTrailingData, 2},
		{"trailing nul", "1\x00", ErrTrailingData, 1},
		{"trailing comma array", `[1,]`, nil, 3},
		{"trailing comma object", `{"a":1,}`, nil, 7},
		{"missing colon", `{"a" 1}`, nil, 5},
		{"missing value", `{"a":}`, nil, 5},
		{"unquoted key", `{a:1}`, nil, 1},
		{"single quotes", `'a'`, nil, 0},
		{"comment", `[1 /* x */]`, nil, 3},
		{"line comment", "// x\n1", nil, 0},
		{"leading zero", `01`, nil, 1},
		{"leading zero negative", `-01`, nil, 2},
		{"leading plus", `+1`, nil, 0},
		{"bare minus", `-`, nil, 1},
		{"minus then letter", `-a`, nil, 1},
		{"dot without digits", `1.`, nil, 2},
		{"leading dot", `.5`, nil, 0},
		{"exponent without digits", `1e`, nil, 2},
		{"exponent sign only", `1e+`, nil, 3},
		{"NaN", `NaN`, nil, 0},
		{"Infinity", `Infinity`, nil, 0},
		{"negative Infinity", `-Infinity`, nil, 1},
		{"hex number", `0x10`, ErrTrailingData, 1},
		{"truncated true", `tru`, nil, 3},
		{"wrong literal", `trUe`, nil, 2},
		{"capital literal", `True`, nil, 0},
		{"unterminated string", `"abc`, nil, 4},
		{"unterminated array", `[1`, nil, 2},
		{"unterminated object", `{"a":1`, nil, 6},
		{"raw newline in string", "\"a\nb\"", nil, 2},
		{"raw tab in string", "\"a\tb\"", nil, 2},
		{"bad escape", `"\x"`, nil, 2},
		{"short unicode escape", `"\u12"`, nil, 5},
		{"bad hex", `"\u12g4"`, nil, 5},
		{"unterminated escape", `"\`, nil, 2},
		{"mismatched bracket", `[1}`, nil, 2},
		{"close without open", `]`, nil, 0},

		{"duplicate key", `{"a":1,"a":2}`, ErrDuplicateKey, 7},
		{"duplicate key unsorted", `{"b":1,"a":2,"b":3}`, ErrDuplicateKey, 13},
		{"duplicate via escape", `{"a":1,"\u0061":2}`, ErrDuplicateKey, 7},
		{"duplicate via escape first", `{"\u0061":1,"a":2}`, ErrDuplicateKey, 12},
		{"duplicate deep", `[{"x":{"y":[{"k":1,"k":1}]}}]`, ErrDuplicateKey, 19},
		{"duplicate supplementary", "{\"\U0001F602\":1,\"\\ud83d\\ude02\":2}", ErrDuplicateKey, 10},
		{"duplicate high bmp", "{\"\uE000\":1,\"\\ue000\":2}", ErrDuplicateKey, 9},
		{"duplicate empty", `{"":1,"":2}`, ErrDuplicateKey, 6},

		{"invalid utf8 byte", "\"a\xffb\"", ErrInvalidUTF8, 2},
		{"invalid utf8 after escape", "\"\\n\xc3\"", ErrInvalidUTF8, 3},
		{"truncated utf8", "\"\xe2\x82\"", ErrInvalidUTF8, 1},
		{"overlong utf8", "\"\xc0\xaf\"", ErrInvalidUTF8, 1},
		{"utf8 encoded surrogate", "\"\xed\xa0\x80\"", ErrInvalidUTF8, 1},
		{"invalid utf8 in key", "{\"\xff\":1}", ErrInvalidUTF8, 2},
		{"above U+10FFFF", "\"\xf4\x90\x80\x80\"", ErrInvalidUTF8, 1},

		{"lone high surrogate", `"\ud800"`, ErrLoneSurrogate, 1},
		{"lone high then char", `"\ud800x"`, ErrLoneSurrogate, 1},
		{"high then high", `"\ud800\ud800"`, ErrLoneSurrogate, 1},
		{"high then bmp escape", `"\ud800\u0041"`, ErrLoneSurrogate, 1},
		{"high then short escape", `"\ud800\n"`, ErrLoneSurrogate, 1},
		{"lone low surrogate", `"\udc00"`, ErrLoneSurrogate, 1},
		{"reversed pair", `"\ude02\ud83d"`, ErrLoneSurrogate, 1},
		{"lone surrogate in key", `{"\udfff":1}`, ErrLoneSurrogate, 2},
		{"high then bad hex", `"\ud800\uzzzz"`, nil, 9},

		{"overflow", `1e400`, ErrNonFinite, 0},
		{"negative overflow", `[-1e400]`, ErrNonFinite, 1},
		{"overflow integer", `1` + strings.Repeat("0", 400), ErrNonFinite, 0},
		{"just above max", `1.7976931348623159e308`, ErrNonFinite, 0},

		{"unsafe integer", `9007199254740993`, ErrUnsafeInteger, 0},
		{"unsafe negative integer", `[-9007199254740993]`, ErrUnsafeInteger, 1},
		{"unsafe large integer", `18014398509481985`, ErrUnsafeInteger, 0},
		{"unsafe int64 max", `9223372036854775807`, ErrUnsafeInteger, 0},
		{"unsafe 1e21 plus one", `1000000000000000000001`, ErrUnsafeInteger, 0},
		{"unsafe non-canonical spelling", `123456789012345678000`, ErrUnsafeInteger, 0},
		{"unsafe trailing zeros past shortest", `295147905179352830001`, ErrUnsafeInteger, 0},

		{"too deep arrays", strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1), ErrDepth, MaxDepth},
		{"too deep objects", strings.Repeat(`{"a":`, MaxDepth+1) + "1" + strings.Repeat("}", MaxDepth+1), ErrDepth, 5 * MaxDepth},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Transform([]byte(tt.in))
			if err == nil {
				t.Fatalf("Transform(%q) = %q, want error", tt.in, got)
			}
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error %T %v is not a *SyntaxError", err, err)
			}
			if tt.sentinel != nil && !errors.Is(err, tt.sentinel) {
				t.Fatalf("error %v does not wrap %v", err, tt.sentinel)
			}
			if tt.sentinel == nil && se.Err != nil {
				t.Fatalf("error %v wraps %v, want a plain grammar error", err, se.Err)
			}
			if se.Offset != tt.offset {
				t.Fatalf("error %v: offset %d, want %d", err, se.Offset, tt.offset)
			}
			if !strings.HasPrefix(err.Error(), "canonjson: ") || se.Reason == "" {
				t.Fatalf("bad message %q", err.Error())
			}
			if _, derr := DigestBytes([]byte(tt.in)); derr == nil {
				t.Fatal("DigestBytes accepted what Transform rejected")
			}
		})
	}
}

func TestDepthLimit(t *testing.T) {
	arrays := strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth)
	if got, err := Transform([]byte(arrays)); err != nil || string(got) != arrays {
		t.Fatalf("MaxDepth arrays: %v", err)
	}
	// MaxDepth/2 unsorted objects, each holding an array: every level must
	// be permuted in the output.
	in := strings.Repeat(`{"b":0,"a":[`, MaxDepth/2) + "1" + strings.Repeat("]}", MaxDepth/2)
	want := strings.Repeat(`{"a":[`, MaxDepth/2) + "1" + strings.Repeat(`],"b":0}`, MaxDepth/2)
	got, err := Transform([]byte(in))
	if err != nil {
		t.Fatalf("MaxDepth mixed: %v", err)
	}
	if string(got) != want {
		t.Fatalf("deep permutation wrong:\n got %.80s...\nwant %.80s...", got, want)
	}
}

func TestDuplicateKeyMessage(t *testing.T) {
	_, err := Transform([]byte("{\"\U0001F602x\":1,\"\\ud83d\\ude02x\":2}"))
	if err == nil || !strings.Contains(err.Error(), "\"\U0001F602x\"") {
		t.Fatalf("error %v does not name the key", err)
	}
}

// TestSortLarge checks that big objects in every order come out sorted, and
// that member values stay attached to their names.
func TestSortLarge(t *testing.T) {
	const n = 3000
	keys := make([]string, n)
	for i := range keys {
		// Mix ASCII, BMP high and supplementary names.
		switch i % 3 {
		case 0:
			keys[i] = string(rune('a'+i%26)) + string(rune(0x100+i))
		case 1:
			keys[i] = string(rune(0xE000 + i))
		default:
			keys[i] = string(rune(0x10000 + i))
		}
	}
	var want map[string]int
	for _, order := range []string{"forward", "reverse", "shuffled"} {
		var b bytes.Buffer
		b.WriteByte('{')
		for j := range n {
			i := j
			switch order {
			case "reverse":
				i = n - 1 - j
			case "shuffled":
				i = (j * 7919) % n
			}
			if j > 0 {
				b.WriteByte(',')
			}
			kb, _ := json.Marshal(keys[i])
			b.Write(kb)
			b.WriteString(`:{"v":`)
			b.WriteString(strings.Repeat(" ", i%3))
			b.WriteString(itoa(i))
			b.WriteString(`,"u":[` + itoa(i) + `]}`)
		}
		b.WriteByte('}')
		got, err := Transform(b.Bytes())
		if err != nil {
			t.Fatalf("%s: %v", order, err)
		}
		var m map[string]struct{ V int }
		if err := json.Unmarshal(got, &m); err != nil || len(m) != n {
			t.Fatalf("%s: unmarshal: %v (%d members)", order, err, len(m))
		}
		if want == nil {
			want = map[string]int{}
			for i, k := range keys {
				want[k] = i
			}
		}
		for k, v := range m {
			if want[k] != v.V {
				t.Fatalf("%s: member %q has value %d, want %d", order, k, v.V, want[k])
			}
		}
		if order == "forward" {
			continue
		}
		first, _ := Transform(b.Bytes())
		if !bytes.Equal(first, got) {
			t.Fatal("nondeterministic")
		}
	}
	// The order of the output is checked against a reference UTF-16 sort.
	var b bytes.Buffer
	b.WriteByte('{')
	for i := n - 1; i >= 0; i-- {
		kb, _ := json.Marshal(keys[i])
		b.Write(kb)
		b.WriteString(":0")
		if i > 0 {
			b.WriteByte(',')
		}
	}
	b.WriteByte('}')
	got, err := Transform(b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(got))
	if _, err := dec.Token(); err != nil {
		t.Fatal(err)
	}
	var prev string
	for i := 0; dec.More(); i++ {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		k := tok.(string)
		if i > 0 && utf16Less(k, prev) {
			t.Fatalf("%q sorted after %q", k, prev)
		}
		prev = k
		if _, err := dec.Token(); err != nil {
			t.Fatal(err)
		}
	}
}

// utf16Less is an independent reference: compare the UTF-16 encodings.
func utf16Less(a, b string) bool {
	ua, ub := toUTF16(a), toUTF16(b)
	for i := 0; i < len(ua) && i < len(ub); i++ {
		if ua[i] != ub[i] {
			return ua[i] < ub[i]
		}
	}
	return len(ua) < len(ub)
}

func toUTF16(s string) []uint16 {
	var u []uint16
	for _, r := range s {
		if r >= 0x10000 {
			r -= 0x10000
			u = append(u, uint16(0xD800+(r>>10)), uint16(0xDC00+(r&0x3FF)))
		} else {
			u = append(u, uint16(r))
		}
	}
	return u
}

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}

func TestSortKeyByte(t *testing.T) {
	for c := range 256 {
		if got := unsortKeyByte(sortKeyByte(byte(c))); c < 0xF5 && got != byte(c) {
			t.Fatalf("0x%x does not round-trip: 0x%x", c, got)
		}
	}
	// Check the mapping against the UTF-16 reference on boundary runes.
	runes := []rune{0, 'A', 0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xEFFF, 0xF000, 0xFFFF, 0x10000, 0x3FFFF, 0x40000, 0xFFFFF, 0x100000, 0x10FFFF}
	for _, a := range runes {
		for _, b := range runes {
			sa, sb := string(a), string(b)
			ka, kb := mapKey(sa), mapKey(sb)
			if got, want := bytes.Compare(ka, kb) < 0, utf16Less(sa, sb); got != want {
				t.Errorf("U+%04X < U+%04X: got %v, want %v", a, b, got, want)
			}
		}
	}
}

func mapKey(s string) []byte {
	b := []byte(s)
	for i, c := range b {
		b[i] = sortKeyByte(c)
	}
	return b
}

func TestMarshal(t *testing.T) {
	type inner struct {
		Z string `json:"z"`
		A int    `json:"a"`
	}
	type doc struct {
		Schema  string            `json:"schema"`
		Name    string            `json:"name,omitempty"`
		Skip    string            `json:"-"`
		Inner   inner             `json:"inner"`
		Ptr     *inner            `json:"ptr"`
		Raw     json.RawMessage   `json:"raw"`
		Num     json.Number       `json:"num"`
		Map     map[string]string `json:"map"`
		HTML    string            `json:"html"`
		Float   float64           `json:"float"`
		Big     int64             `json:"big"`
		Empty   []int             `json:"empty"`
		Nothing []int             `json:"nothing"`
	}
	point1, point2 := 0.1, 0.2
	v := doc{
		Schema: "x/v1",
		Skip:   "never",
		Inner:  inner{Z: "z", A: 1},
		Raw:    json.RawMessage(`{ "y" : 1e3 , "x" : "\u00e9" }`),
		Num:    json.Number("1.50"),
		Map:    map[string]string{"\uE000": "bmp", "\U00010000": "supp", "a": "<&>"},
		HTML:   "<script>&</script>\u2028",
		Float:  point1 + point2,
		Big:    1 << 60,
		Empty:  []int{},
	}
	got, err := Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"big":1152921504606847000,"empty":[],"float":0.30000000000000004,` +
		`"html":"<script>&</script>` + "\u2028" + `","inner":{"a":1,"z":"z"},` +
		`"map":{"a":"<&>","` + "\U00010000" + `":"supp","` + "\uE000" + `":"bmp"},` +
		`"nothing":null,"num":1.5,"ptr":null,"raw":{"x":"é","y":1000},"schema":"x/v1"}`
	if string(got) != want {
		t.Fatalf("Marshal\n got: %s\nwant: %s", got, want)
	}
	d, err := Digest(v)
	if err != nil || d != SumBytes(got) {
		t.Fatalf("Digest = %q, %v; want %q", d, err, SumBytes(got))
	}
}

type textKey struct{ s string }

func (k textKey) MarshalText() ([]byte, error) { return []byte(k.s), nil }

type customJSON struct{}

func (customJSON) MarshalJSON() ([]byte, error) { return []byte(`{"b":[1.0, 2e0],"a":null}`), nil }

type failingJSON struct{}

var errCustom = errors.New("custom failure")

func (failingJSON) MarshalJSON() ([]byte, error) { return nil, errCustom }

func TestMarshalValues(t *testing.T) {
	tests := []struct {
		name string
		v    any
		want string
	}{
		{"nil", nil, `null`},
		{"string", "a\"b\\c\x01", `"a\"b\\c\u0001"`},
		{"invalid utf8 replaced", "a\xffb", "\"a\uFFFDb\""},
		{"bytes", []byte("hi"), `"aGk="`},
		{"marshaler", customJSON{}, `{"a":null,"b":[1,2]}`},
		{"text marshaler keys", map[textKey]int{{"b"}: 1, {"a"}: 2}, `{"a":2,"b":1}`},
		{"int keys", map[int]bool{10: true, 9: false, 1: true}, `{"1":true,"10":true,"9":false}`},
		{"negative zero", math.Copysign(0, -1), `0`},
		{"float32", float32(0.1), `0.1`},
		{"max safe int64", int64(1<<53 - 1), `9007199254740991`},
		{"2^53", int64(1 << 53), `9007199254740992`},
		{"min int64 exact", int64(math.MinInt64), `-9223372036854776000`},
		{"big float", 1e300, `1e+300`},
		{"any slice", []any{1, "x", true, nil, map[string]any{"b": 1, "a": 2}}, `[1,"x",true,null,{"a":2,"b":1}]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Marshal(tt.v)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Fatalf("got %s, want %s", got, tt.want)
			}
		})
	}
}

func TestMarshalErrors(t *testing.T) {
	tests := []struct {
		name     string
		v        any
		sentinel error
	}{
		{"NaN", math.NaN(), ErrNonFinite},
		{"+Inf", math.Inf(1), ErrNonFinite},
		{"-Inf in struct", struct{ F float64 }{math.Inf(-1)}, ErrNonFinite},
		{"float32 inf", float32(math.Inf(1)), ErrNonFinite},
		{"unsafe int64", int64(1<<53 + 1), ErrUnsafeInteger},
		{"unsafe uint64", uint64(math.MaxUint64), ErrUnsafeInteger},
		{"duplicate in raw", json.RawMessage(`{"a":1,"a":2}`), ErrDuplicateKey},
		{"lone surrogate in raw", json.RawMessage(`"\ud800"`), ErrLoneSurrogate},
		{"huge number", json.Number("1e999"), ErrNonFinite},
		{"marshaler error", failingJSON{}, errCustom},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Marshal(tt.v)
			if !errors.Is(err, tt.sentinel) {
				t.Fatalf("Marshal = %q, %v; want %v", got, err, tt.sentinel)
			}
			if _, err := Digest(tt.v); !errors.Is(err, tt.sentinel) {
				t.Fatalf("Digest error %v; want %v", err, tt.sentinel)
			}
		})
	}
	_, err := Marshal(make(chan int))
	var ute *json.UnsupportedTypeError
	if !errors.As(err, &ute) {
		t.Fatalf("Marshal(chan) error %v, want *json.UnsupportedTypeError", err)
	}
	_, err = Marshal(math.NaN())
	var uve *json.UnsupportedValueError
	if !errors.As(err, &uve) {
		t.Fatalf("Marshal(NaN) error %v does not keep *json.UnsupportedValueError", err)
	}
}

func TestDigests(t *testing.T) {
	// sha256 of the empty string and of "{}".
	const empty = "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
	if got := SumBytes(nil); got != empty {
		t.Fatalf("SumBytes(nil) = %s", got)
	}
	d1, err := DigestBytes([]byte(` { "b" : 2 , "a" : 1 } `))
	if err != nil {
		t.Fatal(err)
	}
	d2, err := Digest(map[string]int{"a": 1, "b": 2})
	if err != nil {
		t.Fatal(err)
	}
	if d1 != d2 || d1 != SumBytes([]byte(`{"a":1,"b":2}`)) {
		t.Fatalf("digests differ: %s %s", d1, d2)
	}
	if _, err := DigestBytes([]byte(`{`)); err == nil {
		t.Fatal("DigestBytes accepted bad JSON")
	}
	h, err := ParseDigest(empty)
	if err != nil || h[0] != 0xe3 || h[31] != 0x55 {
		t.Fatalf("ParseDigest = %x, %v", h, err)
	}
	if !ValidDigest(d1) || !ValidDigest(empty) {
		t.Fatal("ValidDigest rejected a digest")
	}
	hex64 := strings.Repeat("0", 64)
	bad := []string{
		"",
		"sha256:",
		"sha256:" + hex64[:63],
		"sha256:" + hex64 + "0",
		"SHA256:" + hex64,
		"sha512:" + hex64,
		"sha256:" + strings.ToUpper("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
		"sha256:" + hex64[:63] + "g",
		" sha256:" + hex64,
		"sha256:" + hex64 + "\n",
		"sha256-" + hex64,
		hex64,
	}
	for _, s := range bad {
		if ValidDigest(s) {
			t.Errorf("ValidDigest(%q) = true", s)
		}
		if _, err := ParseDigest(s); !errors.Is(err, ErrInvalidDigest) {
			t.Errorf("ParseDigest(%q) error %v, want ErrInvalidDigest", s, err)
		}
	}
}

// TestInputNotModified checks Transform neither modifies nor retains input.
func TestInputNotModified(t *testing.T) {
	in := []byte(`{"b":"\u00e9","\ue000":1,"a":[{"d":1,"c":2}]}`)
	orig := bytes.Clone(in)
	out, err := Transform(in)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(in, orig) {
		t.Fatal("input modified")
	}
	want := bytes.Clone(out)
	for i := range in {
		in[i] = 'x'
	}
	if !bytes.Equal(out, want) {
		t.Fatal("output aliases input")
	}
	out2, _ := Transform(orig)
	if !bytes.Equal(out2, want) {
		t.Fatal("pooled state leaked between calls")
	}
}

// TestEquivalentToEncodingJSON checks, on a varied corpus, that the output
// decodes to the same value as the input.
func TestEquivalentToEncodingJSON(t *testing.T) {
	corpus := []string{
		`{"z":[1,2,{"y":null,"x":"\u0000\u001f"}],"a":{"c":true,"b":false}}`,
		`[0.1,1e-7,1e21,-5e-324,123e-20,1.7976931348623157e308]`,
		`{"\u00e9":1,"e\u0301":2,"\ud83d\ude00":3,"\uffff":4}`,
	}
	for _, in := range corpus {
		out, err := Transform([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		var a, b any
		if err := json.Unmarshal([]byte(in), &a); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(out, &b); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("%s: %v != %v", in, a, b)
		}
	}
}
