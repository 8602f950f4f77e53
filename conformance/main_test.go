package conformance

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/glassworks/glass/glasstest"
)

// TestMain stops the browser the package's tests share.
func TestMain(m *testing.M) {
	code := m.Run()
	if err := glasstest.Stop(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		code = 1
	}
	os.Exit(code)
}

// TestTheLibraryCarriesNoFixtures: the pages the host rules probe are the
// product's own (internal/hostprobe); no test fixture reaches a user's
// binary through the conformance library.
func TestTheLibraryCarriesNoFixtures(t *testing.T) {
	// The library, and the CLI a user installs (which embeds the Todo
	// example and the runtime from sdk/).
	for _, pkg := range []string{".", "../cmd/glass-conformance"} {
		out, err := exec.Command("go", "list", "-deps", pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", pkg, err)
		}
		for _, dep := range strings.Fields(string(out)) {
			if strings.HasPrefix(dep, "github.com/glassworks/glass/fixtures") {
				t.Errorf("%s depends on %s", pkg, dep)
			}
		}
	}
}
