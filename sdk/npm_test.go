package sdk_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/glassworks/glass/sdk"
)

// toolTimeout bounds every command these tests run: tsc over the examples
// takes a few seconds, npm pack and install of a local tarball less.
const toolTimeout = 3 * time.Minute

// tsc is the TypeScript compiler package.json pins, which
// scripts/setup.sh installs with npm ci into sdk/node_modules. Its absence
// fails the test: a type check that skips itself checks nothing.
func tsc(t *testing.T) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("node_modules", ".bin", "tsc"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("tsc is not installed in sdk/node_modules: run make setup (scripts/setup.sh runs npm ci there): %v", err)
	}
	return p
}

func run(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), toolTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s (in %s): %v\n%s", filepath.Base(name), strings.Join(args, " "), dir, err, out)
	}
	return string(out)
}

// TestTheTypesCheckATypedPage runs the real tsc (strict) over the typed
// example pages: one that imports the ES module, one that uses the classic
// script's global, and one whose every marked line must be an error, so
// that types which stopped checking anything fail too.
func TestTheTypesCheckATypedPage(t *testing.T) {
	run(t, "examples", nil, tsc(t), "-p", ".")
}

// TestTheNpmPackageInstallsFromATarball packs sdk/ as a front-end team
// would get it, installs the tarball into an empty project, imports the ES
// module in Node and type-checks a consumer against the installed
// package's own declarations.
func TestTheNpmPackageInstallsFromATarball(t *testing.T) {
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Fatalf("npm is not on PATH (Node.js comes with it; make setup installs Node.js): %v", err)
	}
	compiler := tsc(t)
	tmp := t.TempDir()
	env := []string{"npm_config_cache=" + filepath.Join(tmp, "cache"), "npm_config_update_notifier=false", "npm_config_fund=false", "npm_config_audit=false"}

	out := run(t, ".", env, npm, "pack", "--json", "--pack-destination", tmp)
	var packed []struct {
		Filename string `json:"filename"`
		Version  string `json:"version"`
		Files    []struct {
			Path string `json:"path"`
		} `json:"files"`
	}
	if err := json.Unmarshal([]byte(out[strings.Index(out, "["):]), &packed); err != nil || len(packed) != 1 {
		t.Fatalf("npm pack --json: %v\n%s", err, out)
	}
	var files []string
	for _, f := range packed[0].Files {
		files = append(files, f.Path)
	}
	slices.Sort(files)
	if want := []string{"glass-runtime.d.ts", "glass-runtime.js", "glass-runtime.mjs", "package.json"}; !slices.Equal(files, want) {
		t.Errorf("the tarball holds %v, want %v", files, want)
	}

	project := filepath.Join(tmp, "app")
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(project, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("package.json", `{"name": "app", "private": true, "type": "module"}`)
	run(t, project, env, npm, "install", "--offline", "--no-package-lock", filepath.Join(tmp, packed[0].Filename))

	got := run(t, project, env, "node", "--input-type=module", "-e", `
import runtime, { glassRuntime } from "@glassworks/glass-runtime";
if (runtime !== glassRuntime || globalThis.glassRuntime !== glassRuntime || glassRuntime.protocol !== "glass.page/v1") process.exit(3);
console.log(glassRuntime.runtime);`)
	if strings.TrimSpace(got) != sdk.RuntimeName() {
		t.Errorf("the installed module reports %q, want %q", strings.TrimSpace(got), sdk.RuntimeName())
	}

	write("tsconfig.json", `{"compilerOptions": {"strict": true, "noEmit": true, "module": "nodenext", "moduleResolution": "nodenext", "target": "es2022", "lib": ["es2022", "dom"], "types": []}, "include": ["app.ts"]}`)
	write("app.ts", `import { glassRuntime, type ActionDeclaration } from "@glassworks/glass-runtime";
const inc: ActionDeclaration = { id: "inc", description: "Add one", target: "#inc", risk: "write" };
glassRuntime.define({ actions: () => [inc] });
export const protocol: "glass.page/v1" = glassRuntime.protocol;
`)
	run(t, project, env, compiler, "-p", ".")
}
