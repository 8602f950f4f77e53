package main

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/glassworks/glass/conformance"
	"github.com/glassworks/glass/examples/todo/app"
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

// goCmd runs the go command in dir with extra environment, and returns its
// combined output.
func goCmd(t *testing.T, dir string, env []string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

// adopterModule makes dir a module of its own that uses this repository
// through a replace directive, the way an app team's repository would use a
// released Glass.
func adopterModule(t *testing.T, dir string) {
	t.Helper()
	root := repoRoot(t)
	gomod := "module example.com/adopter\n\ngo 1.26\n\nrequire github.com/glassworks/glass v0.0.0\n\nreplace github.com/glassworks/glass => " + root + "\n"
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644); err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestInitWritesASuiteThatPasses is the adoption path end to end: install
// the CLI with go install into an empty GOBIN, run init against the Todo
// example, and run the generated suite in a module of its own.
func TestInitWritesASuiteThatPasses(t *testing.T) {
	gobin := t.TempDir()
	if out, err := goCmd(t, repoRoot(t), []string{"GOBIN=" + gobin}, "install", "./cmd/glass-conformance"); err != nil {
		t.Fatalf("go install: %v\n%s", err, out)
	}
	installed := filepath.Join(gobin, "glass-conformance")

	url := serve(t, app.Handler())
	module := t.TempDir()
	adopterModule(t, module)
	suite := filepath.Join(module, "acceptance")

	cmd := exec.Command(installed, "init", "--url", url, "--dir", suite)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("init: %v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	for _, f := range []string{initSuiteFile, initActionsFile, initManifestFile} {
		if _, err := os.Stat(filepath.Join(suite, f)); err != nil {
			t.Fatalf("init did not write %s: %v", f, err)
		}
	}
	actions, err := os.ReadFile(filepath.Join(suite, initActionsFile))
	if err != nil {
		t.Fatal(err)
	}
	// What the brief of init promises, on the Todo page.
	for _, want := range []string{
		`page := open(glasstest.Approve())`, // a dangerous action is approved…
		`r := page.Do("remove@t1", nil)`,    // …on one record of the snapshot
		`It("remove@t1 changes nothing when the user says no"`,
		`Expect(r).To(HaveSteps(StepOK("edit.open"), StepOK("edit.title"), StepOK("edit.priority"), StepOK("edit.save")))`,
		`return glasstest.HandoffCancelled`,
		`Expect(r).To(FailWith(receipt.CodeHandoffCancelled))`,
		`Expect(r).To(SatisfyExpectation("The new task is in the list"))`,
	} {
		if !bytes.Contains(actions, []byte(want)) {
			t.Errorf("the generated specs lack %s:\n%s", want, actions)
		}
	}
	if n := bytes.Count(actions, []byte(`page.Do("remove@`)); n != 2 {
		t.Errorf("want the twelve row actions remove@t1…t12 as one spec (and its denial), got %d calls", n)
	}
	if !strings.Contains(stdout.String(), "GLASS_URL="+url+" go test ./...") {
		t.Errorf("init does not say how to run the suite:\n%s", stdout.String())
	}
	if _, err := conformance.LoadManifest(filepath.Join(suite, initManifestFile)); err != nil {
		t.Errorf("the starter manifest does not load: %v", err)
	}

	env := []string{"GOFLAGS=-mod=mod", "GLASS_URL=" + url}
	out, err := goCmd(t, suite, env, "test", "-count=1", "./...")
	if err != nil {
		t.Fatalf("the generated suite fails: %v\n%s", err, out)
	}
	if !strings.Contains(out, "ok  \texample.com/adopter/acceptance") {
		t.Errorf("go test did not run the generated suite:\n%s", out)
	}

	// Without GLASS_URL the suite fails at once, saying what to set.
	out, err = goCmd(t, suite, []string{"GOFLAGS=-mod=mod", "GLASS_URL="}, "test", "-count=1", "./...")
	if err == nil || !strings.Contains(out, UnsetURLMessage) {
		t.Errorf("without GLASS_URL: err %v, want a failure saying %q:\n%s", err, UnsetURLMessage, out)
	}

	// A second init does not overwrite the suite; --force does.
	r := runBinary(t, "init", "--url", url, "--dir", suite)
	if r.code != 2 || !strings.Contains(r.stderr, "exists; pass --force to overwrite it") {
		t.Errorf("second init: exit %d, stderr %q", r.code, r.stderr)
	}
	if r := runBinary(t, "init", "--url", url, "--dir", suite, "--force", "--package", "other"); r.code != 0 {
		t.Errorf("init --force: exit %d\n%s", r.code, r.stderr)
	}
}

func TestInitBadInputIsOneLineAndExitTwo(t *testing.T) {
	noRuntime := serve(t, htmlPage(`<!doctype html><title>Plain</title><p>No runtime here.</p>`))
	existing := t.TempDir()
	if err := os.WriteFile(filepath.Join(existing, initSuiteFile), []byte("package x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	aFile := write(t, "plain-file", "x")
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"no URL", []string{"init"}, "--url is required"},
		{"URL without scheme", []string{"init", "--url", "example.test/page"}, "want an http or https URL"},
		{"unreachable host", []string{"init", "--url", closedPort(t), "--dir", t.TempDir()}, "cannot reach http://127.0.0.1:"},
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
}

func TestPackageFromDir(t *testing.T) {
	for dir, want := range map[string]string{
		"glass-acceptance":        "glass_acceptance",
		"acceptance":              "acceptance",
		"/tmp/My Suite":           "my_suite",
		"2024":                    "acceptance",
		"func":                    "acceptance",
		filepath.Join("a", "e2e"): "e2e",
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
