package canonjson

import (
	"bufio"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestRFC8785AppendixB checks the IEEE-754 to ECMAScript string table of
// RFC 8785 Appendix B through Marshal.
func TestRFC8785AppendixB(t *testing.T) {
	tests := []struct {
		bits uint64
		want string // "" means: rejected with ErrNonFinite
	}{
		{0x0000000000000000, "0"},
		{0x8000000000000000, "0"},
		{0x0000000000000001, "5e-324"},
		{0x8000000000000001, "-5e-324"},
		{0x7fefffffffffffff, "1.7976931348623157e+308"},
		{0xffefffffffffffff, "-1.7976931348623157e+308"},
		{0x4340000000000000, "9007199254740992"},
		{0xc340000000000000, "-9007199254740992"},
		{0x4430000000000000, "295147905179352830000"},
		{0x7fffffffffffffff, ""},
		{0x7ff0000000000000, ""},
		{0xfff0000000000000, ""},
		{0x44b52d02c7e14af5, "9.999999999999997e+22"},
		{0x44b52d02c7e14af6, "1e+23"},
		{0x44b52d02c7e14af7, "1.0000000000000001e+23"},
		{0x444b1ae4d6e2ef4e, "999999999999999700000"},
		{0x444b1ae4d6e2ef4f, "999999999999999900000"},
		{0x444b1ae4d6e2ef50, "1e+21"},
		{0x3eb0c6f7a0b5ed8c, "9.999999999999997e-7"},
		{0x3eb0c6f7a0b5ed8d, "0.000001"},
		{0x41b3de4355555553, "333333333.3333332"},
		{0x41b3de4355555554, "333333333.33333325"},
		{0x41b3de4355555555, "333333333.3333333"},
		{0x41b3de4355555556, "333333333.3333334"},
		{0x41b3de4355555557, "333333333.33333343"},
		{0xbecbf647612f3696, "-0.0000033333333333333333"}, // as V8 prints it
		{0x43143ff3c1cb0959, "1424953923781206.2"},
	}
	for _, tt := range tests {
		t.Run(strconv.FormatUint(tt.bits, 16), func(t *testing.T) {
			f := math.Float64frombits(tt.bits)
			got, err := Marshal(f)
			if tt.want == "" {
				if !errors.Is(err, ErrNonFinite) {
					t.Fatalf("Marshal(%v) = %q, %v; want ErrNonFinite", f, got, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Marshal(%v): %v", f, err)
			}
			if string(got) != tt.want {
				t.Fatalf("Marshal(%v) = %s, want %s", f, got, tt.want)
			}
			// The canonical text must also be a fixed point of Transform.
			again, err := Transform(got)
			if err != nil || string(again) != tt.want {
				t.Fatalf("Transform(%s) = %s, %v", got, again, err)
			}
		})
	}
}

// TestES6NumbersFromV8 compares against testdata/es6numbers.txt, produced by
// V8's Number.prototype.toString (testdata/gen_es6numbers.js): random bit
// patterns, values around every power of ten and large integers.
func TestES6NumbersFromV8(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "es6numbers.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || line == "" {
			continue
		}
		hex, want, ok := strings.Cut(line, " ")
		if !ok {
			t.Fatalf("bad line %q", line)
		}
		bits, err := strconv.ParseUint(hex, 16, 64)
		if err != nil {
			t.Fatal(err)
		}
		x := math.Float64frombits(bits)
		if got := string(appendES(nil, x)); got != want {
			t.Errorf("%s (%v): got %s, want %s", hex, x, got, want)
		}
		// Parsing the V8 text back must give the same canonical text,
		// unless it is an integer literal that float64 cannot hold exactly
		// (those are rejected by design).
		got, err := Transform([]byte(want))
		switch {
		case errors.Is(err, ErrUnsafeInteger):
		case err != nil:
			t.Errorf("Transform(%s): %v", want, err)
		case string(got) != want:
			t.Errorf("Transform(%s) = %s", want, got)
		}
		n++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n < 1000 {
		t.Fatalf("only %d vectors", n)
	}
}

// TestESNumberProperties checks random doubles: the output round-trips to
// the same float64, uses exponent notation exactly outside [1e-7, 1e21), and
// is stable under Transform.
func TestESNumberProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		var f float64
		if r.IntN(2) == 0 {
			f = math.Float64frombits(r.Uint64())
		} else {
			f = (r.Float64() - 0.5) * math.Pow(10, float64(r.IntN(60)-30))
		}
		if math.IsNaN(f) || math.IsInf(f, 0) {
			continue
		}
		s := string(appendES(nil, f))
		back, err := strconv.ParseFloat(s, 64)
		if err != nil || back != f && !(f == 0 && back == 0) {
			t.Fatalf("%v -> %s -> %v, %v", f, s, back, err)
		}
		a := math.Abs(f)
		hasExp := strings.ContainsRune(s, 'e')
		if wantExp := a != 0 && (a < 1e-6 || a >= 1e21); hasExp != wantExp {
			// ES switches to exponent form below 1e-6 (n <= -6).
			t.Fatalf("%v -> %s: exponent form %v", f, s, hasExp)
		}
		if strings.Contains(s, "e+0") || strings.Contains(s, "e-0") || strings.HasSuffix(s, ".0") {
			t.Fatalf("%v -> %s: padding", f, s)
		}
		got, err := Transform([]byte(s))
		if err != nil && !errors.Is(err, ErrUnsafeInteger) {
			t.Fatalf("Transform(%s): %v", s, err)
		}
		if err == nil && string(got) != s {
			t.Fatalf("Transform(%s) = %s", s, got)
		}
	}
}

func TestExactInteger(t *testing.T) {
	tests := []struct {
		lit  string
		want bool
	}{
		{"9007199254740991", true},
		{"9007199254740992", true},
		{"9007199254740993", false},
		{"-9007199254740993", false},
		{"9007199254740994", true},
		{"18014398509481984", true},
		{"18014398509481986", false},
		{"18014398509481988", true},
		{"1000000000000000000000", true},
		{"1000000000000000000001", false},
		{"99999999999999991611392", true},
		{"100000000000000000000000", false},
	}
	for _, tt := range tests {
		f, err := strconv.ParseFloat(tt.lit, 64)
		if err != nil {
			t.Fatal(err)
		}
		if got := exactInteger([]byte(tt.lit), f); got != tt.want {
			t.Errorf("exactInteger(%s) = %v, want %v", tt.lit, got, tt.want)
		}
	}
}
