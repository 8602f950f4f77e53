package sdk_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/glassworks/glass"
	"github.com/glassworks/glass/sdk"
)

// TestOneVersion: the runtime, its npm package and the Go module carry the
// one version declared in glass.Version (the CLI prints that constant).
func TestOneVersion(t *testing.T) {
	if got, want := sdk.RuntimeName(), "glass-reference/"+glass.Version; got != want {
		t.Errorf("glass-runtime.js: RUNTIME = %q, want %q (glass.Version)", got, want)
	}
	for _, file := range []string{"package.json", "package-lock.json"} {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var pkg struct {
			Version string `json:"version"`
		}
		if err := json.Unmarshal(b, &pkg); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if pkg.Version != glass.Version {
			t.Errorf("%s: version %q, want %q (glass.Version)", file, pkg.Version, glass.Version)
		}
	}
}

// TestTheBundledModuleIsTheScriptWithTheModulesExports: the one-file ES
// module that glass-conformance runtime --esm writes is the classic script
// and the exports of glass-runtime.mjs, nothing else.
func TestTheBundledModuleIsTheScriptWithTheModulesExports(t *testing.T) {
	bundled := string(sdk.BundledESM())
	rest, ok := strings.CutPrefix(bundled, string(sdk.Runtime()))
	if !ok {
		t.Fatal("the bundled module does not start with the classic script")
	}
	if !strings.HasSuffix(strings.TrimSpace(string(sdk.ESM())), strings.TrimSpace(rest)) {
		t.Errorf("the bundled module ends with %q, not with the exports of glass-runtime.mjs", rest)
	}
}
