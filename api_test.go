package vera_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/vera-run/vera/internal/apiscan"
)

var updateAPI = flag.Bool("update", false, "rewrite api/*.txt from the code")

// TestAPI fails when the exported API of a public package differs from its
// checked-in listing in api/ (one line per identifier, as in Go's own
// api/*.txt), so the public API changes only on purpose: change the code,
// run `go test -run TestAPI . -update`, and review the listing's diff with
// the change.
func TestAPI(t *testing.T) {
	for _, p := range apiscan.Public {
		lines, err := apiscan.Scan(p, p)
		if err != nil {
			t.Fatal(err)
		}
		file := filepath.Join("api", strings.ReplaceAll(p, "/", "_")+".txt")
		got := strings.Join(lines, "\n") + "\n"
		if *updateAPI {
			if err := os.MkdirAll("api", 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(file)
		if err != nil {
			t.Fatalf("%s: %v (run go test -run TestAPI . -update)", p, err)
		}
		if d := cmp.Diff(strings.Split(string(want), "\n"), strings.Split(got, "\n")); d != "" {
			t.Errorf("exported API of %s differs from %s (-file +code); if the change is on purpose, run go test -run TestAPI . -update and commit the listing:\n%s", p, file, d)
		}
	}
}

// TestAPIScanSeesEveryKind pins what a listing holds, so a package that
// adds an exported name of any kind is caught.
func TestAPIScanSeesEveryKind(t *testing.T) {
	dir := t.TempDir()
	src := `package p
const C = "c"
const unexported = 1
var V int
type T struct { F int; g int; E }
type E struct{}
type I interface { M(); m() }
type A = T
func F(x int) error { return nil }
func (T) M() {}
func (*T) N(a, b string) {}
func (t) Hidden() {}
type t struct{}
`
	if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := apiscan.Scan(dir, "p")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`pkg p, const C = "c"`,
		`pkg p, func F(int) error`,
		`pkg p, method (*T) N(string, string)`,
		`pkg p, method (T) M()`,
		`pkg p, type A = T`,
		`pkg p, type E struct`,
		`pkg p, type I interface`,
		`pkg p, type I interface, M()`,
		`pkg p, type T struct`,
		`pkg p, type T struct, F int`,
		`pkg p, type T struct, embedded E`,
		`pkg p, var V int`,
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("listing (-want +got):\n%s", d)
	}
	if i, m := apiscan.Identifiers(got); i != 9 || m != 3 {
		t.Errorf("Identifiers = %d, %d; want 9, 3", i, m)
	}
}
