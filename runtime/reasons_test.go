package runtime

import (
	"go/ast"
	"go/constant"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/vera-run/vera/download"
	"github.com/vera-run/vera/internal/runwrite"
	"github.com/vera-run/vera/receipt"
)

// TestReasonsClosedSet: Reasons lists every Reason constant and every
// download reason, once each, all of the receipt's reason syntax.
func TestReasonsClosedSet(t *testing.T) {
	all := Reasons()
	syntax := regexp.MustCompile(`^[a-z0-9_]{1,64}$`)
	seen := map[string]bool{}
	for _, r := range all {
		if !syntax.MatchString(r) {
			t.Errorf("reason %q is not [a-z0-9_]{1,64}", r)
		}
		if seen[r] {
			t.Errorf("reason %q listed twice", r)
		}
		seen[r] = true
	}
	consts := reasonConstants(t)
	if len(consts) != len(runtimeReasons) {
		t.Errorf("reasons.go declares %d Reason constants, runtimeReasons lists %d", len(consts), len(runtimeReasons))
	}
	for name, v := range consts {
		if !seen[v] {
			t.Errorf("%s (%q) is not in Reasons()", name, v)
		}
	}
	for _, d := range download.Reasons() {
		if !seen[string(d)] {
			t.Errorf("download reason %q is not in Reasons()", d)
		}
	}
	for _, k := range []ViolationKind{ViolationNavigation, ViolationPopup, ViolationFrame} {
		if got := violationReason(k); string(got) != string(k)+"_blocked" {
			t.Errorf("violationReason(%s) = %s", k, got)
		}
	}
}

// TestNewFailure: a reason outside the set is written "unspecified"; the
// detail leaves only as its hash.
func TestNewFailure(t *testing.T) {
	for in, want := range map[Reason]string{
		ReasonApprovalMismatch:                            "approval_mismatch",
		downloadReason(download.ReasonCanceled):           "download_canceled",
		Reason("made_up_at_run_time"):                     "unspecified",
		Reason(""):                                        "unspecified",
		Reason(string(ViolationSubresource) + "_blocked"): "unspecified",
	} {
		f := newFailure(receipt.CategoryInternal, in, "detail with a /path")
		if f.Reason != want || f.DetailHash != runwrite.DetailHash("detail with a /path") {
			t.Errorf("newFailure(%q) = %+v, want reason %q", in, f, want)
		}
	}
}

// reasonConstants returns the Reason constants of reasons.go by name.
func reasonConstants(t *testing.T) map[string]string {
	t.Helper()
	fset := token.NewFileSet()
	af, err := parser.ParseFile(fset, "reasons.go", nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, d := range af.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			continue
		}
		for _, s := range gd.Specs {
			vs := s.(*ast.ValueSpec)
			if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != "Reason" {
				continue
			}
			for i, n := range vs.Names {
				lit := vs.Values[i].(*ast.BasicLit)
				out[n.Name] = strings.Trim(lit.Value, `"`)
			}
		}
	}
	return out
}

// TestEveryReasonIsInReasons type-checks the package and holds every
// place a reason comes from to the closed set: each constant expression of
// type Reason (a constant or a literal passed where a Reason belongs) has
// a value in Reasons(); a Reason made from a non-constant value
// (Reason(x)) and a Failure composite literal occur only in reasons.go,
// where newFailure maps anything outside the set to "unspecified".
func TestEveryReasonIsInReasons(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks the package from source")
	}
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, af)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}}
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	pkg, err := conf.Check("github.com/vera-run/vera/runtime", fset, files, info)
	if err != nil {
		t.Fatalf("type-check: %v", err)
	}
	reasonType := pkg.Scope().Lookup("Reason").Type()
	failureType := pkg.Scope().Lookup("Failure").Type()
	known := Reasons()
	constants := 0
	for expr, tv := range info.Types {
		if tv.Type == nil || !types.Identical(tv.Type, reasonType) {
			continue
		}
		file := filepath.Base(fset.Position(expr.Pos()).Filename)
		if tv.Value != nil {
			constants++
			if v := constant.StringVal(tv.Value); !slices.Contains(known, v) {
				t.Errorf("%s: reason %q is not in Reasons()", fset.Position(expr.Pos()), v)
			}
			continue
		}
		if call, ok := expr.(*ast.CallExpr); ok && file != "reasons.go" {
			if ftv, ok := info.Types[call.Fun]; ok && ftv.IsType() {
				t.Errorf("%s: a Reason converted from a run-time value outside reasons.go", fset.Position(expr.Pos()))
			}
		}
	}
	if constants < len(runtimeReasons) {
		t.Errorf("only %d constant reasons found: has the failure plumbing changed?", constants)
	}
	for _, af := range files {
		ast.Inspect(af, func(n ast.Node) bool {
			cl, ok := n.(*ast.CompositeLit)
			if !ok {
				return true
			}
			tv := info.Types[cl]
			if tv.Type != nil && types.Identical(tv.Type, failureType) && filepath.Base(fset.Position(cl.Pos()).Filename) != "reasons.go" {
				t.Errorf("%s: a Failure built outside newFailure", fset.Position(cl.Pos()))
			}
			return true
		})
	}
}
