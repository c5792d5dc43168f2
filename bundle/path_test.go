package bundle_test

import (
	"errors"
	"io/fs"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/vera-run/vera/bundle"
)

func TestCheckPath(t *testing.T) {
	long := strings.Repeat("a", bundle.MaxPathLen)
	tests := []struct {
		path string
		ok   bool
	}{
		{"capability.json", true},
		{"README.md", true},
		{"receipts/" + strings.Repeat("ab", 32) + ".json", true},
		{"a/b/c", true},
		{".hidden", true},
		{"-dash", true},
		{"a_b-c.d", true},
		{long, true},
		{long + "a", false},
		{"", false},
		{".", false},
		{"..", false},
		{"../x", false},
		{"a/../b", false},
		{"a/./b", false},
		{"./a", false},
		{"/abs", false},
		{"a//b", false},
		{"a/", false},
		{"a\\b", false},
		{"C:x", false},
		{"a b", false},
		{"a\x00b", false},
		{"a\nb", false},
		{"caf\u00e9", false},
		{"\u212a.txt", false}, // Kelvin sign
		{"\xff", false},
		{"name.", false},
		{"name..", false},
		{"dir./x", false},
		{"...", false},
		{"CON", false},
		{"con", false},
		{"Con.txt", false},
		{"nul.tar.gz", false},
		{"a/aux.md", false},
		{"PRN.json", false},
		{"COM1", false},
		{"com9.log", false},
		{"LPT1.txt", false},
		{"lpt0", false},
		{"COM", true},
		{"COM10", true},
		{"console", true},
		{"auxiliary.md", true},
		{"nul-x", true},
		{"x.con", true},
	}
	for _, tc := range tests {
		err := bundle.CheckPath(tc.path)
		if (err == nil) != tc.ok {
			t.Errorf("CheckPath(%q) = %v, want ok=%v", tc.path, err, tc.ok)
		}
		if err != nil && (!errors.Is(err, bundle.ErrUnsafePath) || !errors.Is(err, bundle.ErrVerify)) {
			t.Errorf("CheckPath(%q) error %v does not wrap ErrUnsafePath", tc.path, err)
		}
		if err != nil && len(tc.path) < 64 && !strings.Contains(err.Error(), strconv.Quote(tc.path)) {
			t.Errorf("CheckPath(%q) error does not name the path: %v", tc.path, err)
		}
	}
}

func TestCheckPaths(t *testing.T) {
	tests := []struct {
		name  string
		paths []string
		want  string // substring of the error; "" for none
	}{
		{"distinct", []string{"README.md", "capability.json", "receipts/a.json", "receipts/b.json"}, ""},
		{"duplicate", []string{"a.json", "a.json"}, "listed twice"},
		{"ASCII case", []string{"README.md", "readme.md"}, "differ only in case"},
		{"Kelvin sign", []string{"K.txt", "\u212a.txt"}, "differ only in case"},
		{"Kelvin sign lower", []string{"k.txt", "\u212a.txt"}, "differ only in case"},
		{"long s", []string{"s.txt", "\u017f.txt"}, "differ only in case"},
		{"directory case", []string{"Receipts/a.json", "receipts/b.json"}, "directories"},
		{"file and directory", []string{"a", "a/b"}, "is a file and"},
		{"file and directory in another case", []string{"A", "a/b"}, "is a file and"},
		{"nested file and directory", []string{"x/y/z", "x/y"}, "is a file and"},
		{"prefix is not a directory", []string{"ab", "a/b"}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := bundle.CheckPaths(tc.paths)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("CheckPaths(%q) = %v", tc.paths, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("CheckPaths(%q) = %v, want %q", tc.paths, err, tc.want)
			}
			if !errors.Is(err, bundle.ErrUnsafePath) {
				t.Fatalf("error does not wrap ErrUnsafePath: %v", err)
			}
		})
	}
}

// TestFoldKeyMatchesEqualFold checks the collision key against
// strings.EqualFold for every rune and every member of its folding orbit:
// equal keys exactly when EqualFold holds.
func TestFoldKeyMatchesEqualFold(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if r >= 0xD800 && r <= 0xDFFF {
			continue
		}
		s := string(r)
		k := bundle.FoldKey(s)
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			if bundle.FoldKey(string(f)) != k {
				t.Fatalf("%U and %U fold together but keys differ", r, f)
			}
		}
		// A neighbour outside the orbit must not collide.
		n := r + 1
		if n <= unicode.MaxRune && !strings.EqualFold(s, string(n)) && bundle.FoldKey(string(n)) == k {
			t.Fatalf("%U and %U do not fold together but keys are equal", r, n)
		}
	}
}

// checkPathInvariants is what CheckPath promises for every accepted path.
func checkPathInvariants(t *testing.T, p string) {
	if err := bundle.CheckPath(p); err != nil {
		return
	}
	switch {
	case path.Clean(p) != p:
		t.Fatalf("%q accepted but not clean", p)
	case !fs.ValidPath(p):
		t.Fatalf("%q accepted but not fs.ValidPath", p)
	case !filepath.IsLocal(filepath.FromSlash(p)):
		t.Fatalf("%q accepted but not local", p)
	case len(p) > bundle.MaxPathLen:
		t.Fatalf("%q accepted but too long", p)
	}
	for _, e := range strings.Split(p, "/") {
		base, _, _ := strings.Cut(strings.ToUpper(e), ".")
		if base == "CON" || base == "PRN" || base == "AUX" || base == "NUL" ||
			len(base) == 4 && (strings.HasPrefix(base, "COM") || strings.HasPrefix(base, "LPT")) && base[3] >= '0' && base[3] <= '9' {
			t.Fatalf("%q accepted with a reserved element", p)
		}
		if strings.HasSuffix(e, ".") || e == "" {
			t.Fatalf("%q accepted with element %q", p, e)
		}
	}
	for _, r := range p {
		if r > unicode.MaxASCII || !(unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("._-/", r)) {
			t.Fatalf("%q accepted with %U", p, r)
		}
	}
	if err := bundle.CheckPaths([]string{p, p}); err == nil {
		t.Fatalf("duplicate %q accepted", p)
	}
	if up := strings.ToUpper(p); up != p {
		if err := bundle.CheckPaths([]string{p, up}); err == nil {
			t.Fatalf("case twins %q and %q accepted", p, up)
		}
	}
}

func FuzzCheckPath(f *testing.F) {
	for _, s := range []string{"capability.json", "receipts/x.json", "../x", "/a", "a//b", "CON.txt", "a.", "\u212a", "a/b/c", "nul"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		checkPathInvariants(t, p)
	})
}

// FuzzFoldKey checks that two strings collide exactly when
// strings.EqualFold holds.
func FuzzFoldKey(f *testing.F) {
	f.Add("K.txt", "\u212a.txt")
	f.Add("README.md", "readme.md")
	f.Add("s", "\u017f")
	f.Add("a", "b")
	f.Add("\xff", "\xfe")
	f.Fuzz(func(t *testing.T, a, b string) {
		if (bundle.FoldKey(a) == bundle.FoldKey(b)) != strings.EqualFold(a, b) {
			t.Fatalf("FoldKey(%q)==FoldKey(%q) is %v, EqualFold is %v", a, b, bundle.FoldKey(a) == bundle.FoldKey(b), strings.EqualFold(a, b))
		}
	})
}
