// Command matchersdoc writes docs/matchers.md, the matcher reference, from
// the doc comments of package matchers and matchers/golden, so that the
// reference cannot say other than the code. Run it with
//
//	go generate ./matchers
//
// The test next to it fails when docs/matchers.md is stale.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/doc"
	"go/doc/comment"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

func main() {
	root := flag.String("root", ".", "the repository root")
	out := flag.String("o", "docs/matchers.md", "the file to write")
	flag.Parse()
	b, err := render(*root)
	if err == nil {
		err = os.WriteFile(*out, b, 0o644)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "matchersdoc: %v\n", err)
		os.Exit(1)
	}
}

// packages are the packages the reference covers, in order.
var packages = []struct{ dir, path string }{
	{"matchers", "github.com/glassworks/glass/matchers"},
	{"matchers/golden", "github.com/glassworks/glass/matchers/golden"},
}

func render(root string) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("# Matcher reference\n\n")
	b.WriteString("<!-- Generated from the doc comments of matchers and matchers/golden by docs/matchersdoc (go generate ./matchers); do not edit. -->\n\n")
	b.WriteString("Every matcher takes a `*receipt.Receipt` (what `page.Do` returns) unless it says otherwise. ")
	b.WriteString("The [tutorial](tutorial.md) uses them on the Todo example.\n")
	for _, p := range packages {
		if err := renderPackage(&b, filepath.Join(root, p.dir), p.path); err != nil {
			return nil, err
		}
	}
	return b.Bytes(), nil
}

func renderPackage(b *bytes.Buffer, dir, path string) error {
	fset := token.NewFileSet()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return err
	}
	sort.Strings(names)
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		files = append(files, f)
	}
	pkg, err := doc.NewFromFiles(fset, files, path)
	if err != nil {
		return err
	}
	fmt.Fprintf(b, "\n## Package %s\n\n", pkg.Name)
	fmt.Fprintf(b, "`import %q`\n\n", path)
	b.Write(markdown(pkg, pkg.Doc, 4))

	funcs := append([]*doc.Func(nil), pkg.Funcs...)
	for _, t := range pkg.Types {
		funcs = append(funcs, t.Funcs...)
	}
	// Source order: the files group the matchers by the evidence they read.
	sort.Slice(funcs, func(i, j int) bool {
		pi, pj := fset.Position(funcs[i].Decl.Pos()), fset.Position(funcs[j].Decl.Pos())
		if pi.Filename != pj.Filename {
			return pi.Filename < pj.Filename
		}
		return pi.Offset < pj.Offset
	})
	for _, f := range funcs {
		if !ast.IsExported(f.Name) {
			continue
		}
		decl := *f.Decl
		decl.Body = nil
		decl.Doc = nil
		var sig bytes.Buffer
		if err := (&printer.Config{Mode: printer.RawFormat}).Fprint(&sig, fset, &decl); err != nil {
			return err
		}
		fmt.Fprintf(b, "\n### %s\n\n`%s`\n\n", f.Name, strings.Join(strings.Fields(sig.String()), " "))
		b.Write(markdown(pkg, f.Doc, 5))
	}
	return nil
}

func markdown(pkg *doc.Package, text string, level int) []byte {
	p := pkg.Printer()
	p.HeadingLevel = level
	p.DocLinkURL = func(link *comment.DocLink) string {
		return "" // links stay plain text: the reference is read next to the code
	}
	return p.Markdown(pkg.Parser().Parse(text))
}
