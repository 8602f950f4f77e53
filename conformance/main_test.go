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

func TestEveryCheckNamesARule(t *testing.T) {
	for _, id := range CheckIDs() {
		if _, ok := RuleByID(id); !ok {
			t.Errorf("check %q names no rule of the catalog", id)
		}
	}
}
