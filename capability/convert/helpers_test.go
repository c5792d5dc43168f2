package convert

import (
	"encoding/json"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/vera-run/vera/internal/strictjson"
)

func readFile(t testing.TB, name string) []byte {
	t.Helper()
	raw, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

func generic(t testing.TB, raw []byte) any {
	t.Helper()
	d, err := strictjson.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return d.Value()
}

// memberPaths lists every member path of a format's Go type, with array
// indexes as [], down to the scalars.
func memberPaths(t reflect.Type, prefix string, stop map[reflect.Type]bool, out *[]string) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if stop[t] && prefix != "" {
		*out = append(*out, prefix)
		return
	}
	switch t.Kind() {
	case reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "" || name == "-" {
				continue
			}
			memberPaths(f.Type, join(prefix, name), stop, out)
		}
	case reflect.Slice:
		memberPaths(t.Elem(), prefix+"[]", stop, out)
	default:
		*out = append(*out, prefix)
	}
}

var indexRE = regexp.MustCompile(`\[\d+\]`)

// assertAllMembersExercised fails unless every member of the format's type
// occurs in at least one of the fixtures, so the coverage test is about
// the whole format.
//
// Types in stop are checked where they occur as a whole (a shared shape
// such as a locator target is one function in the importer); norm maps a
// fixture leaf path onto the member paths of typ (nil: index removal only).
func assertAllMembersExercised(t *testing.T, typ reflect.Type, stop map[reflect.Type]bool, norm func(string) string, fixtures ...[]byte) {
	t.Helper()
	seen := map[string]bool{}
	for _, raw := range fixtures {
		Leaves(generic(t, raw), func(p string) {
			p = indexRE.ReplaceAllString(p, "[]")
			if norm != nil {
				p = norm(p)
			}
			seen[p] = true
		})
	}
	var members []string
	memberPaths(typ, "", stop, &members)
	for _, m := range members {
		found := false
		for p := range seen {
			if covers(m, p) || strings.HasPrefix(m, p+".") || strings.HasPrefix(m, p+"[]") {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("format member %s occurs in no fixture", m)
		}
	}
}

// assertNothingDropped fails when a leaf of the source is not covered by a
// report entry or is covered only by an Unhandled one.
func assertNothingDropped(t *testing.T, raw []byte, rep *Report) {
	t.Helper()
	if u := rep.Uncovered(generic(t, raw)); len(u) > 0 {
		t.Errorf("leaves without a report entry: %v", u)
	}
	for _, e := range rep.Entries {
		if e.Disposition == Unhandled {
			t.Errorf("unhandled: %s", e.Source)
		}
		if e.Disposition != Unmapped && e.Disposition != Unhandled && e.Target == "" {
			t.Errorf("%s is %s without a target", e.Source, e.Disposition)
		}
		if (e.Disposition == Unmapped || e.Disposition == Weakened) && e.Note == "" {
			t.Errorf("%s is %s without a note saying why", e.Source, e.Disposition)
		}
	}
}

func mustJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
