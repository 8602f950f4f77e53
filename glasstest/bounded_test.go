package glasstest_test

import (
	"go/ast"
	"go/types"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// unboundedCalls are the Playwright methods that reach into the page with
// no deadline of their own (Evaluate waits for the page's promise however
// long it takes), or whose deadline a spinning page can outlast. Only
// glasstest/bounded.go may call them.
var unboundedCalls = map[string]bool{
	"Evaluate": true, "EvaluateHandle": true, "EvaluateAll": true,
	"EvalOnSelector": true, "EvalOnSelectorAll": true,
	"AriaSnapshot": true, "CallTool": true, "Tools": true,
	// pagepool.Slot.Isolated: Runtime.evaluate over the page's session.
	"Isolated": true,
}

// TestEveryCallIntoThePageIsBounded keeps SECURITY.md's first promise
// checkable: no code of the module that a user runs — the harness, the
// conformance suite, the CLI — calls into the page except through the one
// bounded helper file. Tests and the benchmark (which measures plain
// playwright-go on purpose) are left out.
func TestEveryCallIntoThePageIsBounded(t *testing.T) {
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo, Dir: ".."}
	pkgs, err := packages.Load(cfg, "./...")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, pkg := range pkgs {
		for _, e := range pkg.Errors {
			t.Errorf("load %s: %v", pkg.PkgPath, e)
		}
		if strings.Contains(pkg.PkgPath, "/bench") {
			continue
		}
		for i, f := range pkg.Syntax {
			name := pkg.CompiledGoFiles[i]
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			rel := filepath.ToSlash(name)
			if strings.HasSuffix(rel, "/glasstest/bounded.go") {
				continue
			}
			checked++
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				sel, ok := call.Fun.(*ast.SelectorExpr)
				if !ok || !unboundedCalls[sel.Sel.Name] {
					return true
				}
				obj, ok := pkg.TypesInfo.Uses[sel.Sel].(*types.Func)
				if !ok || obj.Pkg() == nil || (obj.Pkg().Path() != "github.com/mxschmitt/playwright-go" && obj.Pkg().Path() != "github.com/glassworks/glass/internal/pagepool") {
					return true
				}
				pos := pkg.Fset.Position(call.Pos())
				t.Errorf("%s:%d: %s calls into the page without a deadline; use glasstest's Page.Evaluate, EvaluateWithin, AriaSnapshot, Tools or CallTool", filepath.Base(filepath.Dir(pos.Filename))+"/"+filepath.Base(pos.Filename), pos.Line, sel.Sel.Name)
				return true
			})
		}
	}
	if checked < 50 {
		t.Fatalf("looked at %d files; the module has many more, so the loader missed them", checked)
	}
}
