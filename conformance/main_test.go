package conformance

import (
	"fmt"
	"os"
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
