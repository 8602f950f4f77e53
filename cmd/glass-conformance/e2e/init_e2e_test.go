// Package e2e is the adoption path of glass-conformance end to end, in a
// test binary of its own (it installs the CLI and runs a generated suite,
// which takes minutes on a busy machine).
package e2e

import (
	"bytes"
	"context"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/glassworks/glass/conformance"
	"github.com/glassworks/glass/examples/todo/app"
)

// unsetURLMessage is how a generated suite fails without GLASS_URL
// (initgen.UnsetURLMessage; the e2e test reads it as a user does).
const unsetURLMessage = "set GLASS_URL to the address of the page under test"

// repoRoot is the root of this module (the test runs in
// cmd/glass-conformance/e2e).
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("no go.mod at the module root %s: %v", root, err)
	}
	return root
}

// goCmd runs the go command in dir with extra environment, bounded by
// commandTimeout, and returns its combined output.
func goCmd(t *testing.T, dir string, env []string, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), commandTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", args...)
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

	srv := httptest.NewServer(app.Handler())
	t.Cleanup(srv.Close)
	url := srv.URL + "/"
	module := t.TempDir()
	adopterModule(t, module)
	suite := filepath.Join(module, "acceptance")

	ctx, cancel := context.WithTimeout(context.Background(), commandTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, installed, "init", "--url", url, "--dir", suite)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("init: %v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	for _, f := range []string{"glass_suite_test.go", "glass_actions_test.go", "glass-manifest.yaml"} {
		if _, err := os.Stat(filepath.Join(suite, f)); err != nil {
			t.Fatalf("init did not write %s: %v", f, err)
		}
	}
	actions, err := os.ReadFile(filepath.Join(suite, "glass_actions_test.go"))
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
	if _, err := conformance.LoadManifest(filepath.Join(suite, "glass-manifest.yaml")); err != nil {
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
	if err == nil || !strings.Contains(out, unsetURLMessage) {
		t.Errorf("without GLASS_URL: err %v, want a failure saying %q:\n%s", err, unsetURLMessage, out)
	}

	// A second init does not overwrite the suite; --force does.
	again := exec.CommandContext(ctx, installed, "init", "--url", url, "--dir", suite)
	out2, err := again.CombinedOutput()
	if code := again.ProcessState.ExitCode(); code != 2 || !strings.Contains(string(out2), "exists; pass --force to overwrite it") {
		t.Errorf("second init: exit %d (%v), output %q", code, err, out2)
	}
	forced := exec.CommandContext(ctx, installed, "init", "--url", url, "--dir", suite, "--force", "--package", "other")
	if out, err := forced.CombinedOutput(); err != nil {
		t.Errorf("init --force: %v\n%s", err, out)
	}
}
