package glasstest_test

import (
	"sort"
	"testing"
)

// TestFaultKinds prints the fault kinds the fault specs cover (make test
// runs it with -v, so the count shows in every run); the specs themselves
// run in the Ginkgo suite.
func TestFaultKinds(t *testing.T) {
	names := make([]string, 0, len(faultKinds))
	for name := range faultKinds {
		names = append(names, name)
	}
	sort.Strings(names)
	if len(names) == 0 {
		t.Fatal("no fault kinds")
	}
	t.Logf("fault kinds: %d", len(names))
	for _, n := range names {
		t.Logf("  %s (%s)", n, faultKinds[n].page)
	}
}
