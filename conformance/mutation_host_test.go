//go:build glasshostfaults

package conformance

import (
	"testing"

	"github.com/glassworks/glass/fixtures/mutants"
	"github.com/glassworks/glass/glasstest"
)

// brokenHost is the page option of the host mutant called name.
func brokenHost(t testing.TB, name string) glasstest.Option {
	t.Helper()
	o, err := glasstest.BreakHost(name)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// TestEveryHostMutantBreaksTheHost: every host mutant of fixtures/mutants
// names a broken host glasstest can build.
func TestEveryHostMutantBreaksTheHost(t *testing.T) {
	for _, m := range mutants.Host {
		if _, err := glasstest.BreakHost(m.Name); err != nil {
			t.Error(err)
		}
	}
}
