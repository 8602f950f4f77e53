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
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if strings.HasPrefix(pkg, "github.com/glassworks/glass/fixtures") {
			t.Errorf("the conformance library depends on %s", pkg)
		}
	}
}
