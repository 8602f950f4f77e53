package glass_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// libraryFiles calls fn with every non-test Go file of the module, by its
// path relative to the module's root: the code a user's binary may carry.
func libraryFiles(t *testing.T, fn func(path string, src []byte)) {
	t.Helper()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		fn(filepath.ToSlash(path), src)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestNoDotImportInLibraryCode: a dot-import puts another package's names
// (Ginkgo's Fail, It, By …) among the library's own, where a reader cannot
// tell them apart. Tests may; library code may not.
func TestNoDotImportInLibraryCode(t *testing.T) {
	files := 0
	libraryFiles(t, func(path string, src []byte) {
		files++
		f, err := parser.ParseFile(token.NewFileSet(), path, src, parser.ImportsOnly)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			return
		}
		for _, imp := range f.Imports {
			if imp.Name != nil && imp.Name.Name == "." {
				t.Errorf("%s: dot-import of %s; import it by name", path, imp.Path.Value)
			}
		}
	})
	if files < 50 {
		t.Fatalf("walked only %d library files; is the test running at the module's root?", files)
	}
}

// packageLines bounds the non-test Go lines of one package (a directory):
// a package past it holds more than one concern, and the next feature
// would make it worse (issue 24). allowance lists the packages over it
// and the most they may hold; it may only shrink.
const packageLines = 3000

var allowance = map[string]int{}

func TestNoPackageOutgrowsItsRoom(t *testing.T) {
	lines := map[string]int{}
	libraryFiles(t, func(path string, src []byte) {
		lines[filepath.ToSlash(filepath.Dir(path))] += strings.Count(string(src), "\n")
	})
	for dir, n := range lines {
		limit := packageLines
		if a, ok := allowance[dir]; ok {
			limit = a
		}
		if n > limit {
			t.Errorf("%s: %d non-test lines, over its bound of %d: give one of its concerns a room of its own (docs/architecture.md)", dir, n, limit)
		}
	}
	for dir, a := range allowance {
		if lines[dir] <= packageLines {
			t.Errorf("%s: %d lines, within %d: drop its allowance of %d", dir, lines[dir], packageLines, a)
		}
	}
}
