//go:build !glasshostfaults

package conformance

import (
	"testing"

	"github.com/glassworks/glass/glasstest"
)

// brokenHost: the host mutants need a test build that can break the host.
func brokenHost(t testing.TB, name string) glasstest.Option {
	t.Helper()
	t.Fatalf("the host mutant %s needs a test build with -tags glasshostfaults (make test's matrix is one)", name)
	return nil
}
