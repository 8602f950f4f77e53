package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/glassworks/glass/examples/orders/app"
)

// TestRunTheOrdersExampleConforms: the second example, a page that is not a
// Todo list, passes every rule glass-conformance can probe on it.
func TestRunTheOrdersExampleConforms(t *testing.T) {
	url := serve(t, app.Handler())
	manifest := filepath.Join(repoRoot(t), "examples", "orders", "glass-manifest.yaml")
	r := runBinary(t, "run", "--url", url, "--manifest", manifest)
	if r.code != 0 {
		t.Fatalf("exit %d, want 0\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{"Glass conformance of " + url, "PASS        policy.denied", " 0 failed"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
		}
	}
}
