package main

import (
	"bytes"
	"errors"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/glassworks/glass/examples/orders/app"
)

// TestGlassConformanceRunPasses: the second example, a page that is not a
// Todo list, passes every rule glass-conformance can probe on it, checked
// by the CLI as a CI gate would run it.
func TestGlassConformanceRunPasses(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "glass-conformance")
	if out, err := exec.Command("go", "build", "-o", bin, "../../cmd/glass-conformance").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	srv := httptest.NewServer(app.Handler())
	t.Cleanup(srv.Close)
	url := srv.URL + "/"

	var stdout, stderr bytes.Buffer
	cmd := exec.Command(bin, "run", "--url", url, "--manifest", "glass-manifest.yaml")
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			t.Fatal(err)
		}
		t.Fatalf("exit %d, want 0\nstdout:\n%s\nstderr:\n%s", exit.ExitCode(), stdout.String(), stderr.String())
	}
	for _, want := range []string{"Glass conformance of " + url, "PASS        policy.denied", "PASS        unavailable.reason", " 0 failed"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout.String())
		}
	}
}
