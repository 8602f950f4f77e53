package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/glassworks/glass/receipt"
)

// repoRoot is the root of this module (the test runs in
// cmd/glass-conformance).
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("no go.mod at the module root %s: %v", root, err)
	}
	return root
}

func TestInitBadInputIsOneLineAndExitTwo(t *testing.T) {
	noRuntime := serve(t, htmlPage(`<!doctype html><title>Plain</title><p>No runtime here.</p>`))
	existing := t.TempDir()
	if err := os.WriteFile(filepath.Join(existing, initSuiteFile), []byte("package x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	aFile := write(t, "plain-file", "x")
	fresh := filepath.Join(t.TempDir(), "suite")
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"no URL", []string{"init"}, "--url is required"},
		{"URL without scheme", []string{"init", "--url", "example.test/page"}, "want an http or https URL"},
		{"unreachable host", []string{"init", "--url", closedPort(t), "--dir", fresh}, "cannot reach http://127.0.0.1:"},
		{"bad package", []string{"init", "--url", "http://127.0.0.1:1/", "--package", "9lives"}, `--package "9lives": want a Go identifier`},
		{"keyword package", []string{"init", "--url", "http://127.0.0.1:1/", "--package", "func"}, `--package "func"`},
		{"existing file", []string{"init", "--url", "http://127.0.0.1:1/", "--dir", existing}, initSuiteFile + " exists; pass --force to overwrite it"},
		{"unwritable dir", []string{"init", "--url", "http://127.0.0.1:1/", "--dir", filepath.Join(aFile, "suite")}, "cannot write there: not a directory"},
		{"extra argument", []string{"init", "--url", "http://127.0.0.1:1/", "more"}, `unexpected argument "more"`},
		{"page without runtime", []string{"init", "--url", noRuntime, "--dir", t.TempDir()}, "no Glass runtime"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := runBinary(t, tc.args...)
			if r.code != 2 {
				t.Fatalf("exit %d, want 2\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
			}
			if !strings.Contains(r.stderr, tc.want) {
				t.Errorf("stderr = %q, want it to contain %q", r.stderr, tc.want)
			}
			if lines := strings.Count(strings.TrimSpace(r.stderr), "\n") + 1; lines != 1 {
				t.Errorf("want one line on stderr, got %d:\n%s", lines, r.stderr)
			}
		})
	}
	if _, err := os.Stat(fresh); err == nil {
		t.Errorf("a failed init left the directory %s it created", fresh)
	}
}

func TestPackageFromDir(t *testing.T) {
	for dir, want := range map[string]string{
		"glass-acceptance":                  "glass_acceptance",
		"acceptance":                        "acceptance",
		filepath.Join("suites", "My Suite"): "my_suite",
		"2024":                              "acceptance",
		"func":                              "acceptance",
		filepath.Join("a", "e2e"):           "e2e",
	} {
		if got := packageFromDir(dir); got != want {
			t.Errorf("packageFromDir(%q) = %q, want %q", dir, got, want)
		}
	}
}

// TestGeneratedNamesAreReceiptConstants proves that every code and phase
// init may name is a constant of package receipt, by reading receipt's
// source: a renamed constant fails here, not in an adopter's suite.
func TestGeneratedNamesAreReceiptConstants(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(repoRoot(t), "receipt", "enums.go"), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	declared := map[string]bool{}
	for name, obj := range f.Scope.Objects {
		if obj.Kind == ast.Con {
			declared[name] = true
		}
	}
	imports := map[string]bool{}
	for _, c := range receipt.Codes {
		name := strings.TrimPrefix(codeLiteral(c, imports), "receipt.")
		if !declared[name] {
			t.Errorf("code %s: init would write receipt.%s, which receipt does not declare", c, name)
		}
	}
	for _, p := range receipt.Phases {
		name := strings.TrimPrefix(phaseLiteral(p, imports), "receipt.")
		if !declared[name] {
			t.Errorf("phase %s: init would write receipt.%s, which receipt does not declare", p, name)
		}
	}
	if got := codeLiteral("APP_SPECIFIC", imports); got != `"APP_SPECIFIC"` {
		t.Errorf("an unknown code is written as %s, want a string literal", got)
	}
}

func TestGoLiteral(t *testing.T) {
	got := goLiteral(map[string]any{"b": []any{1.5, true, nil}, "a": "x\"y", "c": map[string]any{}})
	want := `map[string]any{"a": "x\"y", "b": []any{1.5, true, nil}, "c": map[string]any{}}`
	if got != want {
		t.Errorf("goLiteral = %s, want %s", got, want)
	}
}

func TestModuleNote(t *testing.T) {
	bare := t.TempDir()
	if note := moduleNote(filepath.Join(bare, "suite")); !strings.Contains(note, "is in no Go module: cd ") {
		t.Errorf("outside a module: %q", note)
	}
	other := t.TempDir()
	if err := os.WriteFile(filepath.Join(other, "go.mod"), []byte("module example.com/x\n\ngo 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if note := moduleNote(filepath.Join(other, "suite")); !strings.Contains(note, "does not require Glass yet: go get github.com/glassworks/glass@latest") {
		t.Errorf("in a module without Glass: %q", note)
	}
	if note := moduleNote("."); note != "" {
		t.Errorf("in this repository: %q, want no note", note)
	}
}

// TestRenderWithoutActions: a page that declares no action yet gets a
// suite that parses and imports only what it uses.
func TestRenderWithoutActions(t *testing.T) {
	files, err := (&initPlan{url: "http://127.0.0.1:8080/", title: "Empty", args: map[string]map[string]any{}, unbuildable: map[string]string{}}).render("acceptance")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for i, name := range []string{initSuiteFile, initActionsFile} {
		f, err := parser.ParseFile(fset, name, files[i], 0)
		if err != nil {
			t.Fatalf("%s does not parse: %v\n%s", name, err, files[i])
		}
		for _, imp := range f.Imports {
			if imp.Path.Value == `"github.com/glassworks/glass/matchers"` || imp.Path.Value == `"github.com/glassworks/glass/receipt"` {
				t.Errorf("%s imports %s, which it does not use", name, imp.Path.Value)
			}
		}
	}
	if !strings.Contains(string(files[1]), `It("declares no action yet"`) {
		t.Errorf("no spec for a page without actions:\n%s", files[1])
	}
}
