package matchers_test

import (
	"flag"
	"testing"
)

// A test package that imports matchers may define its own -update flag, as
// goldie users and many suites do. This init runs after the init of every
// package matchers imports, so if one of them registered -update (goldie
// does), the flag package would panic with "flag redefined: update" and
// this test binary would not start at all.
var _ = flag.Bool("update", false, "this test package's own -update flag")

func TestATestPackageMayDefineItsOwnUpdateFlag(t *testing.T) {
	f := flag.Lookup("update")
	if f == nil || f.Usage != "this test package's own -update flag" {
		t.Fatalf("-update is not this package's flag: %+v", f)
	}
	// goldie registers these next to -update; none of them may come with
	// package matchers.
	for _, name := range []string{"template", "clean", "glass.update"} {
		if flag.Lookup(name) != nil {
			t.Errorf("importing matchers registered the flag -%s", name)
		}
	}
}
