package docs

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/discovery"
	"github.com/vera-run/vera/download"
	"github.com/vera-run/vera/runtime"
)

// TestFormatFieldTables checks that every member table of FORMAT.md lists
// exactly the JSON members of its Go type, in order, with the right
// "written" column.
func TestFormatFieldTables(t *testing.T) {
	lines := readFormat(t)
	marker := regexp.MustCompile(`^<!-- fields ([A-Za-z.]+) -->$`)
	row := regexp.MustCompile("^\\| `([a-z0-9_]+)` \\| ([^|]+) \\| (always|if set|if present) \\| (.*) \\|$")
	tables := map[string][][]string{}
	for i := 0; i < len(lines); i++ {
		m := marker.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		if _, dup := tables[m[1]]; dup {
			t.Errorf("line %d: a second table for %s", i+1, m[1])
		}
		var rows [][]string
		j := i + 1
		for j < len(lines) && strings.TrimSpace(lines[j]) == "" {
			j++
		}
		if j+1 >= len(lines) || !strings.HasPrefix(lines[j], "| member |") || !strings.HasPrefix(lines[j+1], "|---") {
			t.Errorf("line %d: the table of %s has no header", i+1, m[1])
			continue
		}
		for j += 2; j < len(lines) && strings.HasPrefix(lines[j], "|"); j++ {
			r := row.FindStringSubmatch(lines[j])
			if r == nil {
				t.Errorf("line %d: malformed member row %q", j+1, lines[j])
				continue
			}
			if strings.TrimSpace(r[4]) == "" {
				t.Errorf("line %d: member %s of %s has no meaning", j+1, r[1], m[1])
			}
			rows = append(rows, r[1:])
		}
		tables[m[1]] = rows
	}
	documented := map[string]bool{}
	for _, dt := range documentedTypes() {
		documented[dt.name] = true
		rows, ok := tables[dt.name]
		if !ok {
			t.Errorf("FORMAT.md has no member table for %s", dt.name)
			continue
		}
		fields := jsonFields(dt.typ)
		var want, got []string
		for _, f := range fields {
			want = append(want, f.name+" "+written(f))
		}
		for _, r := range rows {
			got = append(got, r[0]+" "+r[2])
		}
		if !slices.Equal(want, got) {
			t.Errorf("member table of %s is stale:\n got  %q\n want %q", dt.name, got, want)
		}
	}
	for name := range tables {
		if !documented[name] {
			t.Errorf("FORMAT.md has a table for %s, which the test does not know", name)
		}
	}
}

// written is the "written" column of a member: always, if set (omitted
// when zero) or if present (a nullable value omitted only when absent).
func written(f jsonField) string {
	switch {
	case !f.omitempty:
		return "always"
	case f.typ.Kind() == reflect.Pointer || f.typ.Kind() == reflect.Interface:
		return "if present"
	}
	return "if set"
}

// constValues returns the string values of the constants declared in the
// non-test Go files of dir for which keep(name, type) holds; type is the
// declared type name ("" when untyped).
func constValues(t *testing.T, dir string, keep func(name, typ string) bool) []string {
	t.Helper()
	var out []string
	for _, af := range parseDir(t, dir) {
		for _, d := range af.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			for _, s := range gd.Specs {
				vs := s.(*ast.ValueSpec)
				typ := ""
				if id, ok := vs.Type.(*ast.Ident); ok {
					typ = id.Name
				}
				for i, n := range vs.Names {
					if i >= len(vs.Values) || !n.IsExported() || !keep(n.Name, typ) {
						continue
					}
					lit, ok := vs.Values[i].(*ast.BasicLit)
					if !ok || lit.Kind != token.STRING {
						continue
					}
					v, err := strconv.Unquote(lit.Value)
					if err != nil {
						t.Fatal(err)
					}
					out = append(out, v)
				}
			}
		}
	}
	return out
}

var parsed = map[string][]*ast.File{}

// parseDir parses the non-test Go files of dir once per test binary.
func parseDir(t *testing.T, dir string) []*ast.File {
	t.Helper()
	if fs, ok := parsed[dir]; ok {
		return fs
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var out []*ast.File
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, af)
	}
	parsed[dir] = out
	return out
}

func prefix(ps ...string) func(name, typ string) bool {
	return func(name, _ string) bool {
		for _, p := range ps {
			if strings.HasPrefix(name, p) {
				return true
			}
		}
		return false
	}
}

func suffix(s string) func(name, typ string) bool {
	return func(name, _ string) bool { return strings.HasSuffix(name, s) }
}

func typed(ts ...string) func(name, typ string) bool {
	return func(_, typ string) bool { return slices.Contains(ts, typ) }
}

// TestFormatVocabulary checks that every code the packages export appears
// on the page, so a new code cannot ship undocumented.
func TestFormatVocabulary(t *testing.T) {
	raw, err := os.ReadFile(formatFile)
	if err != nil {
		t.Fatal(err)
	}
	page := string(raw)
	sets := map[string][]string{
		"receipt schemas":                    constValues(t, "../receipt", prefix("Schema")),
		"receipt states, modes and statuses": constValues(t, "../receipt", typed("Category", "TerminalState", "ExecutionMode", "ActionStatus")),
		"receipt problem codes":              constValues(t, "../receipt", prefix("Code")),
		"finalize checks":                    constValues(t, "../receipt", prefix("Check")),
		"comparison codes":                   constValues(t, "../receipt", prefix("Artifact", "Align", "Status", "State")),
		"claim text":                         constValues(t, "../receipt", prefix("ClaimText")),
		"bundle schema and layout":           constValues(t, "../bundle", prefix("Schema", "File", "Dir", "Algorithm")),
		"bundle codes":                       constValues(t, "../bundle", prefix("Code")),
		"download evidence and mechanisms":   constValues(t, "../download", prefix("Evidence", "Mechanism")),
		"capability schema":                  {capability.SchemaV1},
		"capability parse codes":             constValues(t, "../capability", prefix("ParseCode")),
		"capability validation codes":        strs(capability.Codes()),
		"capability enumerations": constValues(t, "../capability", typed("State", "Effect", "Confirmation", "Operation",
			"InputType", "OutputKind", "Exposure", "FieldType", "ConditionKind", "ExtractMode", "ReadKind")),
		"locator strategies and codes":     append(constValues(t, "../locator", typed("Strategy")), constValues(t, "../locator", prefix("Code"))...),
		"discovery schemas and files":      append(constValues(t, "../discovery", suffix("Schema")), constValues(t, "../discovery", suffix("File"))...),
		"discovery codes":                  constValues(t, "../discovery", prefix("Code")),
		"discovery enumerations":           constValues(t, "../discovery", typed("ObservationKind", "Mode", "StepKind", "ActKind")),
		"discovery end reasons":            strs(discovery.EndReasons()),
		"discovery refusal reasons":        strs(discovery.RefusalReasons()),
		"runtime reason codes":             runtimeReasons(t),
		"computer-use provider vocabulary": constValues(t, "../runtime/provider", prefix("Schema", "Code", "Effect", "Stop", "Gate", "Support", "HandleKind", "ProviderID")),
	}
	for _, r := range download.Reasons() {
		sets["download reasons"] = append(sets["download reasons"], string(r))
	}
	for what, vs := range sets {
		if len(vs) == 0 {
			t.Errorf("%s: found no values (has the code moved?)", what)
		}
		for _, v := range vs {
			if !strings.Contains(page, "`"+v+"`") {
				t.Errorf("%s: %q is not documented in %s", what, v, formatFile)
			}
		}
	}
}

// runtimeReasons returns the runtime's reason codes: the constants of
// type Reason that package runtime declares (runtime/reasons.go). The
// runtime's own test holds every failure it builds to these constants and
// the download reasons; this one checks that runtime.Reasons lists them,
// in the order of the page's table.
func runtimeReasons(t *testing.T) []string {
	t.Helper()
	consts := constValues(t, "../runtime", typed("Reason"))
	if len(consts) < 30 {
		t.Errorf("found only %d runtime reason constants: have they moved out of type Reason?", len(consts))
	}
	all := runtime.Reasons()
	for _, c := range consts {
		if !slices.Contains(all, c) {
			t.Errorf("runtime reason constant %q is not in runtime.Reasons()", c)
		}
	}
	return consts
}

// TestFormatRuntimeReasonTable checks that the table of 8.3 lists exactly
// the runtime's reason constants, in the order of runtime.Reasons, and
// nothing else.
func TestFormatRuntimeReasonTable(t *testing.T) {
	lines := readFormat(t)
	start := slices.Index(lines, "### 8.3 Runtime reason codes")
	if start < 0 {
		t.Fatal("FORMAT.md has no section 8.3 Runtime reason codes")
	}
	row := regexp.MustCompile("^\\| `([a-z0-9_]+)` \\| ")
	var got []string
	for i := start + 1; i < len(lines) && !strings.HasPrefix(lines[i], "#"); i++ {
		if m := row.FindStringSubmatch(lines[i]); m != nil {
			got = append(got, m[1])
		}
	}
	consts := runtimeReasons(t)
	want := runtime.Reasons()[:len(consts)]
	if !slices.Equal(got, want) {
		t.Errorf("the reason table of 8.3 is stale:\n got  %q\n want %q", got, want)
	}
}

// strs returns the values of a typed string set as strings.
func strs[S ~string](vs []S) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = string(v)
	}
	return out
}
