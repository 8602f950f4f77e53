package docs

import (
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// exported returns the exported identifiers a package declares at its top
// level (not its tests): funcs, types, vars and consts. Methods are left
// to the package's own documentation.
func exported(t reporter, dir string) (funcs, all map[string]bool) {
	fset := token.NewFileSet()
	// The API a user builds against: no tests, and no file a build
	// constraint leaves out of a default build (glasstest's host mutants,
	// which only -tags glasshostfaults has).
	pkgs, err := parser.ParseDir(fset, filepath.Join(root, dir), func(fi os.FileInfo) bool {
		if strings.HasSuffix(fi.Name(), "_test.go") {
			return false
		}
		ok, err := build.Default.MatchFile(filepath.Join(root, dir), fi.Name())
		return err == nil && ok
	}, 0)
	if err != nil {
		t.Errorf("%s: %v", dir, err)
		return nil, nil
	}
	funcs, all = map[string]bool{}, map[string]bool{}
	for _, p := range pkgs {
		for _, f := range p.Files {
			for _, d := range f.Decls {
				switch d := d.(type) {
				case *ast.FuncDecl:
					if d.Recv == nil && d.Name.IsExported() {
						funcs[d.Name.Name], all[d.Name.Name] = true, true
					}
				case *ast.GenDecl:
					for _, sp := range d.Specs {
						switch sp := sp.(type) {
						case *ast.TypeSpec:
							if sp.Name.IsExported() {
								all[sp.Name.Name] = true
							}
						case *ast.ValueSpec:
							for _, n := range sp.Names {
								if n.IsExported() {
									all[n.Name] = true
								}
							}
						}
					}
				}
			}
		}
	}
	return funcs, all
}

var (
	wordRE     = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)
	declFuncRE = regexp.MustCompile(`(?m)^func ([A-Z][A-Za-z0-9_]*)\(`)
)

// checkAPI holds an api block to the package it lists: every exported
// identifier named, every func listed declared.
func checkAPI(t reporter, b block, dir string) {
	funcs, all := exported(t, dir)
	if all == nil {
		return
	}
	named := map[string]bool{}
	for _, w := range wordRE.FindAllString(b.text, -1) {
		named[w] = true
	}
	for id := range all {
		if !named[id] {
			t.Errorf("%s: the API of %s lacks %s", b.where(), dir, id)
		}
	}
	for _, m := range declFuncRE.FindAllStringSubmatch(b.text, -1) {
		if !funcs[m[1]] {
			t.Errorf("%s: lists func %s, which %s does not declare", b.where(), m[1], dir)
		}
	}
}
