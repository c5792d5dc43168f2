package apiscan

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/printer"
	"go/token"
	"path/filepath"
	"sort"
	"strings"
)

// Public lists the module's public package directories, relative to the
// module root, in a stable order: every package outside internal/,
// examples/ and docs/ that has exported API.
var Public = []string{
	"bundle",
	"capability",
	"capability/convert",
	"discovery",
	"download",
	"locator",
	"receipt",
	"runtime",
	"runtime/browser",
	"runtime/grant",
	"runtime/jobs",
	"runtime/provider",
	"runtime/runtimetest",
	"runtime/tool",
	"runtime/tool/mcpserver",
}

// Scan returns the sorted API lines of the package in dir, built for the
// current GOOS and GOARCH without test files. Each line starts with the
// package path given as name.
func Scan(dir, name string) ([]string, error) {
	bp, err := build.Default.ImportDir(dir, 0)
	if err != nil {
		return nil, fmt.Errorf("apiscan: %s: %w", dir, err)
	}
	fset := token.NewFileSet()
	var lines []string
	add := func(format string, args ...any) {
		lines = append(lines, "pkg "+name+", "+fmt.Sprintf(format, args...))
	}
	expr := func(e ast.Expr) string {
		var b bytes.Buffer
		_ = printer.Fprint(&b, fset, e)
		return strings.Join(strings.Fields(b.String()), " ")
	}
	for _, fn := range bp.GoFiles {
		f, err := parser.ParseFile(fset, filepath.Join(dir, fn), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, fmt.Errorf("apiscan: %w", err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() {
					continue
				}
				sig := strings.TrimPrefix(expr(unnamed(d.Type)), "func")
				if d.Recv == nil {
					add("func %s%s", d.Name.Name, sig)
					continue
				}
				recv := expr(d.Recv.List[0].Type)
				base := strings.TrimLeft(recv, "*")
				if i := strings.IndexByte(base, '['); i >= 0 {
					base = base[:i]
				}
				if ast.IsExported(base) {
					add("method (%s) %s%s", recv, d.Name.Name, sig)
				}
			case *ast.GenDecl:
				scanGen(d, add, expr)
			}
		}
	}
	sort.Strings(lines)
	return lines, nil
}

func scanGen(d *ast.GenDecl, add func(string, ...any), expr func(ast.Expr) string) {
	for _, s := range d.Specs {
		switch s := s.(type) {
		case *ast.ValueSpec:
			kind := "var"
			if d.Tok == token.CONST {
				kind = "const"
			}
			for i, n := range s.Names {
				if !n.IsExported() {
					continue
				}
				switch {
				case s.Type != nil:
					add("%s %s %s", kind, n.Name, expr(s.Type))
				case kind == "const" && i < len(s.Values):
					add("%s %s = %s", kind, n.Name, expr(s.Values[i]))
				default:
					add("%s %s", kind, n.Name)
				}
			}
		case *ast.TypeSpec:
			if !s.Name.IsExported() {
				continue
			}
			name := s.Name.Name
			switch t := s.Type.(type) {
			case *ast.StructType:
				add("type %s struct", name)
				for _, fl := range t.Fields.List {
					for _, n := range fl.Names {
						if n.IsExported() {
							add("type %s struct, %s %s", name, n.Name, expr(fl.Type))
						}
					}
					if len(fl.Names) == 0 { // embedded
						add("type %s struct, embedded %s", name, expr(fl.Type))
					}
				}
			case *ast.InterfaceType:
				add("type %s interface", name)
				for _, m := range t.Methods.List {
					for _, n := range m.Names {
						if n.IsExported() {
							ft, _ := m.Type.(*ast.FuncType)
							add("type %s interface, %s%s", name, n.Name, strings.TrimPrefix(expr(unnamed(ft)), "func"))
						}
					}
					if len(m.Names) == 0 {
						add("type %s interface, embedded %s", name, expr(m.Type))
					}
				}
			default:
				eq := " "
				if s.Assign.IsValid() {
					eq = " = "
				}
				add("type %s%s%s", name, eq, expr(s.Type))
			}
		}
	}
}

// Identifiers counts the exported identifiers among lines: every line
// except the struct and interface member lines, which belong to their
// type. Members counts those member lines.
func Identifiers(lines []string) (identifiers, members int) {
	for _, l := range lines {
		if strings.Contains(l, " struct, ") || strings.Contains(l, " interface, ") {
			members++
		} else {
			identifiers++
		}
	}
	return identifiers, members
}

// unnamed is a copy of a function type without parameter and result
// names (one field per name), as Go's api files write signatures: a
// renamed parameter is not an API change.
func unnamed(ft *ast.FuncType) *ast.FuncType {
	if ft == nil {
		return nil
	}
	strip := func(fl *ast.FieldList) *ast.FieldList {
		if fl == nil {
			return nil
		}
		out := &ast.FieldList{}
		for _, f := range fl.List {
			n := max(len(f.Names), 1)
			for range n {
				out.List = append(out.List, &ast.Field{Type: f.Type})
			}
		}
		return out
	}
	return &ast.FuncType{TypeParams: ft.TypeParams, Params: strip(ft.Params), Results: strip(ft.Results)}
}
