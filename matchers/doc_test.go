package matchers_test

import (
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestEveryMatcherIsDocumented holds the package, and matchers/golden, to
// Gomega's habit: the doc comment of every matcher constructor starts
// "<Name> succeeds if" and shows an example, and every other exported
// function starts with its name, so that go doc reads as a vocabulary.
func TestEveryMatcherIsDocumented(t *testing.T) {
	for _, p := range []struct {
		dir, path string
		matchers  int // at least
	}{
		{".", "github.com/glassworks/glass/matchers", 17},
		{"golden", "github.com/glassworks/glass/matchers/golden", 1},
	} {
		t.Run(p.path, func(t *testing.T) { checkDocs(t, p.dir, p.path, p.matchers) })
	}
}

func checkDocs(t *testing.T, dir, path string, least int) {
	fset := token.NewFileSet()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	d, err := doc.NewFromFiles(fset, files, path)
	if err != nil {
		t.Fatal(err)
	}
	var funcs []*doc.Func
	funcs = append(funcs, d.Funcs...)
	for _, ty := range d.Types {
		funcs = append(funcs, ty.Funcs...)
	}
	matchers := 0
	for _, f := range funcs {
		if !f.Decl.Name.IsExported() {
			continue
		}
		if returnsMatcher(f.Decl) {
			matchers++
			if want := f.Name + " succeeds if "; !strings.HasPrefix(f.Doc, want) {
				t.Errorf("%s: doc starts %q, want %q", f.Name, firstLine(f.Doc), want)
			}
			if !strings.Contains(f.Doc, "\n\tExpect(") {
				t.Errorf("%s: doc has no example line (a tab-indented Expect(…))", f.Name)
			}
			continue
		}
		if want := f.Name + " "; !strings.HasPrefix(f.Doc, want) {
			t.Errorf("%s: doc starts %q, want it to start with the name", f.Name, firstLine(f.Doc))
		}
	}
	if matchers < least {
		t.Errorf("found %d matcher constructors, want at least %d: is returnsMatcher still right?", matchers, least)
	}
}

func returnsMatcher(fn *ast.FuncDecl) bool {
	r := fn.Type.Results
	if r == nil || len(r.List) != 1 {
		return false
	}
	sel, ok := r.List[0].Type.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && pkg.Name == "types" && sel.Sel.Name == "GomegaMatcher"
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
