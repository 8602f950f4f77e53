package e2e

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/mod/module"
	modzip "golang.org/x/mod/zip"

	"github.com/glassworks/glass/sdk"
)

// readmeURL is the address README's adoption block shows; the test puts
// its app's address in its place.
const readmeURL = "http://127.0.0.1:8080/"

// commandTimeout bounds each command the adoption tests run: a go install
// or a go tool ginkgo that compiles Glass and the suite on a busy
// two-core machine takes minutes, never this long.
const commandTimeout = 10 * time.Minute

// readmeBlocks returns the sh blocks of README's section "Adopting it on
// your app", in order: the published install, the from-source install,
// the adoption commands.
func readmeBlocks(t *testing.T) (published, fromSource, adoption, byHand []string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(data), "\n## Adopting it on your app\n")
	if !ok {
		t.Fatal("README.md has no section \"Adopting it on your app\"")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	var blocks [][]string
	for {
		_, rest, ok := strings.Cut(section, "```sh\n")
		if !ok {
			break
		}
		body, after, _ := strings.Cut(rest, "```")
		var lines []string
		for _, l := range strings.Split(strings.TrimSpace(body), "\n") {
			if i := strings.Index(l, "   #"); i >= 0 {
				l = l[:i] // a comment after the command
			}
			if l = strings.TrimSpace(l); l != "" {
				lines = append(lines, l)
			}
		}
		blocks = append(blocks, lines)
		section = after
	}
	if len(blocks) != 4 {
		t.Fatalf("README's adoption section has %d sh blocks, want 4 (the published install, the from-source install, the adoption commands, adding Glass by hand): %q", len(blocks), blocks)
	}
	return blocks[0], blocks[1], blocks[2], blocks[3]
}

// shell runs one command line of the README with sh, in dir, bounded.
func shell(t *testing.T, dir string, env []string, line string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), commandTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", line)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ctx.Err() != nil {
		err = fmt.Errorf("%q did not finish in %s", line, commandTimeout)
	}
	return out.String(), err
}

// goEnv reads one variable of the go command's environment.
func goEnv(t *testing.T, name string) string {
	t.Helper()
	out, err := shell(t, repoRoot(t), nil, "go env "+name)
	if err != nil {
		t.Fatalf("go env %s: %v\n%s", name, err, out)
	}
	return strings.TrimSpace(out)
}

// todosApp serves the third-party-style todo app of testdata/todos — its
// own markup, CSS and plain script, a delete button shown only on :hover,
// empty unless ?demo — with Glass's reference runtime at the path the
// runtime's header documents.
func todosApp(t *testing.T) string {
	t.Helper()
	return serveApp(t, filepath.Join("testdata", "todos"))
}

// serveApp serves the app in dir, as todosApp does.
func serveApp(t *testing.T, dir string) string {
	t.Helper()
	files := http.FileServer(http.Dir(dir))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == sdk.Path {
			sdk.Handler().ServeHTTP(w, r)
			return
		}
		files.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/"
}

// copyApp copies testdata/todos into a temporary directory, which a test
// may change.
func copyApp(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{"index.html", "style.css", "todos.js"} {
		b, err := os.ReadFile(filepath.Join("testdata", "todos", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// declareDeleteProperly changes the app in dir as its developers would
// after run --strict's finding: delete declares a reveal that shows the
// row's delete button the way hovering does, so an agent's call can use it.
func declareDeleteProperly(t *testing.T, dir string) {
	t.Helper()
	edit := func(name, old, new string) {
		p := filepath.Join(dir, name)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Count(string(b), old) != 1 {
			t.Fatalf("testdata/todos/%s no longer holds, once, %q", name, old)
		}
		if err := os.WriteFile(p, []byte(strings.Replace(string(b), old, new, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const target = `target: function () { var r = rowOf(t.id); return r && r.querySelector(".destroy"); },`
	edit("todos.js", target, target+`
          reveal: function () { rowOf(t.id).classList.add("tools"); },`)
	edit("style.css", "#todo-list li:hover .destroy { display: block; }", "#todo-list li:hover .destroy, #todo-list li.tools .destroy { display: block; }")
}

// unpublished is the environment of a machine where Glass is not on the
// module proxy: the proxy is the one this machine uses, Glass is private
// (no proxy, no checksum database) and may not be fetched from its
// repository either, so that any attempt to download it fails at once.
func unpublished(t *testing.T, gobin string) []string {
	return []string{
		"GOPROXY=" + goEnv(t, "GOPROXY"),
		"GOPRIVATE=github.com/glassworks/*",
		"GOVCS=github.com/glassworks/*:off",
		"GOBIN=" + gobin,
		"PATH=" + gobin + string(os.PathListSeparator) + os.Getenv("PATH"),
	}
}

// TestAdoptionFromSource is issue 20's adoption path, as README gives it:
// install glass-conformance from this checkout (make install), then, in a
// fresh directory that is no Go module, init against a third-party-style
// app and run the generated suite with go tool ginkgo — with Glass not
// fetchable, so that the suite builds only thanks to the replace init
// wrote. The commands are README's, run as they are written, the app's
// address (with ?demo: the app starts empty) in place of the example's.
func TestAdoptionFromSource(t *testing.T) {
	_, fromSource, adoption, _ := readmeBlocks(t)
	gobin := t.TempDir()
	env := unpublished(t, gobin)
	for _, line := range fromSource {
		out, err := shell(t, repoRoot(t), env, line)
		if err != nil {
			t.Fatalf("%s: %v\n%s", line, err, out)
		}
		if !strings.Contains(out, "installed "+filepath.Join(gobin, "glass-conformance")) {
			t.Errorf("%s does not say where the binary went:\n%s", line, out)
		}
	}

	app := copyApp(t)
	url := serveApp(t, app) + "?demo"
	work := t.TempDir()
	var initOut, ginkgoOut, strictOut, strictLine string
	for _, line := range adoption {
		line = strings.ReplaceAll(line, readmeURL, url)
		out, err := shell(t, work, env, line)
		if strings.HasPrefix(line, "glass-conformance run --strict") {
			// The gate fails on the hover-only delete: exit 1, no other.
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != 1 {
				t.Fatalf("%s: %v, want exit 1 (the findings)\n%s", line, err, out)
			}
			strictOut, strictLine = out, line
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v\n%s", line, err, out)
		}
		switch {
		case strings.HasPrefix(line, "glass-conformance init"):
			initOut = out
		case strings.Contains(line, "go tool ginkgo"):
			ginkgoOut = out
		}
	}
	if strictLine == "" {
		t.Fatalf("README's adoption block does not run glass-conformance run --strict: %q", adoption)
	}
	// run --strict: the page conforms and its surface is the baseline init
	// wrote, but the approved delete could never run: the findings say so
	// and fail the run.
	for _, want := range []string{
		"\nfindings: 1; glass-conformance run --strict fails on them:\n" +
			"  - delete@1: available, but the approved call could not make it usable: ACTION_UNAVAILABLE at target_resolution: the target is hidden (display: none on itself; a control shown only on :hover or focus needs a reveal that shows it)\n",
		"\nno differences\n",
		"--strict: the page conforms, but the run fails on its findings\n",
	} {
		if !strings.Contains(strictOut, want) {
			t.Errorf("%s did not print\n%s\n\n%s", strictLine, want, strictOut)
		}
	}
	// Once the page declares delete properly (a reveal that shows the
	// button), the same command passes.
	declareDeleteProperly(t, app)
	out, err := shell(t, work, env, strictLine)
	if err != nil || !strings.Contains(out, "\nfindings: none: every call of an available action succeeded\n") {
		t.Fatalf("%s on the page that declares a reveal: %v, want exit 0\n%s", strictLine, err, out)
	}
	if initOut == "" || ginkgoOut == "" {
		t.Fatalf("README's adoption block does not run init and go tool ginkgo: %q", adoption)
	}
	for _, want := range []string{
		"go.mod: Glass from the checkout this glass-conformance was built from, " + repoRoot(t) + " (a replace directive)",
		"findings: 1; their specs expect success and are pending (PIt) until you decide:\n" +
			"  delete@1: available, but the approved call could not make it usable: ACTION_UNAVAILABLE at target_resolution: the target is hidden (display: none on itself; a control shown only on :hover or focus needs a reveal that shows it)\n",
	} {
		if !strings.Contains(initOut, want) {
			t.Errorf("init did not print\n%s\n\n%s", want, initOut)
		}
	}
	gomod, err := os.ReadFile(filepath.Join(work, "glass-acceptance", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"replace github.com/glassworks/glass => " + repoRoot(t), "tool github.com/onsi/ginkgo/v2/ginkgo"} {
		if !strings.Contains(string(gomod), want) {
			t.Errorf("the go.mod init wrote lacks %q:\n%s", want, gomod)
		}
	}
	// The suite ran: every spec passed but the hover-only delete, which is
	// pending until someone decides.
	for _, want := range []string{"SUCCESS!", "0 Failed", "1 Pending", "Test Suite Passed", "delete@1: Delete the todo (pending: "} {
		if !strings.Contains(ginkgoOut, want) {
			t.Errorf("go tool ginkgo did not print %q:\n%s", want, ginkgoOut)
		}
	}
}

// publishAt writes a file-based module proxy holding this checkout as
// Glass at version, and returns its file:// URL.
func publishAt(t *testing.T, version string) string {
	t.Helper()
	dir := t.TempDir()
	at := filepath.Join(dir, "github.com", "glassworks", "glass", "@v")
	if err := os.MkdirAll(at, 0o755); err != nil {
		t.Fatal(err)
	}
	var zip bytes.Buffer
	// The committed tree, as a release is made: the working directory may
	// hold what no release carries (node_modules, artifacts of failed specs).
	if err := modzip.CreateFromVCS(&zip, module.Version{Path: "github.com/glassworks/glass", Version: version}, repoRoot(t), "HEAD", ""); err != nil {
		t.Fatalf("zip the module: %v", err)
	}
	gomod, err := os.ReadFile(filepath.Join(repoRoot(t), "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{
		"list":            []byte(version + "\n"),
		version + ".info": fmt.Appendf(nil, `{"Version":%q,"Time":"2026-01-02T03:04:05Z"}`, version),
		version + ".mod":  gomod,
		version + ".zip":  zip.Bytes(),
	} {
		if err := os.WriteFile(filepath.Join(at, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return "file://" + filepath.ToSlash(dir)
}

// TestPublishedInstall is README's published install path: this checkout
// served as a release of Glass by a file-based module proxy ahead of the
// real one, README's go install …@latest run as written, then init in a
// fresh directory: the go.mod requires that release with no replace, and
// the suite builds from the proxy's Glass.
func TestPublishedInstall(t *testing.T) {
	published, _, _, _ := readmeBlocks(t)
	// A version no other run uses, so that a copy of Glass an earlier run
	// left in the machine's module cache cannot stand in for this one; it
	// is removed from the cache at the end. Glass's dependencies come from
	// the machine's module cache (its download cache is laid out as a
	// module proxy), so they compile from the build cache, not afresh.
	version := fmt.Sprintf("v0.9.0-publishtest.%d", time.Now().UnixNano())
	modcache := goEnv(t, "GOMODCACHE")
	t.Cleanup(func() {
		for _, p := range []string{
			filepath.Join(modcache, "github.com", "glassworks", "glass@"+version),
			filepath.Join(modcache, "cache", "download", "github.com", "glassworks", "glass", "@v", version+".info"),
			filepath.Join(modcache, "cache", "download", "github.com", "glassworks", "glass", "@v", version+".mod"),
			filepath.Join(modcache, "cache", "download", "github.com", "glassworks", "glass", "@v", version+".zip"),
			filepath.Join(modcache, "cache", "download", "github.com", "glassworks", "glass", "@v", version+".ziphash"),
			filepath.Join(modcache, "cache", "download", "github.com", "glassworks", "glass", "@v", version+".lock"),
		} {
			_ = os.RemoveAll(p)
		}
		// The cached version list names only versions like this one, which
		// are gone; an empty directory would list none anyway.
		_ = os.Remove(filepath.Join(modcache, "cache", "download", "github.com", "glassworks", "glass", "@v", "list"))
	})
	gobin := t.TempDir()
	env := []string{
		"GOPROXY=" + publishAt(t, version) + ",file://" + filepath.ToSlash(filepath.Join(modcache, "cache", "download")) + "," + goEnv(t, "GOPROXY"),
		"GONOSUMDB=github.com/glassworks/*",
		"GOFLAGS=-modcacherw",
		"GOBIN=" + gobin,
		"PATH=" + gobin + string(os.PathListSeparator) + os.Getenv("PATH"),
	}
	if len(published) != 1 || !strings.HasPrefix(published[0], "go install github.com/glassworks/glass/cmd/glass-conformance@") {
		t.Fatalf("README's published install is %q, want one go install of the module", published)
	}
	work := t.TempDir()
	if out, err := shell(t, work, env, published[0]); err != nil {
		t.Fatalf("%s: %v\n%s", published[0], err, out)
	}
	if _, err := os.Stat(filepath.Join(gobin, "glass-conformance")); err != nil {
		t.Fatalf("%s installed nothing in GOBIN: %v", published[0], err)
	}

	url := todosApp(t)
	out, err := shell(t, work, env, "glass-conformance init --url "+url)
	if err != nil {
		t.Fatalf("init: %v\n%s", err, out)
	}
	if !strings.Contains(out, "go.mod: Glass "+version+", as this glass-conformance was installed") {
		t.Errorf("init does not say it requires the installed version:\n%s", out)
	}
	gomod, err := os.ReadFile(filepath.Join(work, "glass-acceptance", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(gomod), "github.com/glassworks/glass "+version) || strings.Contains(string(gomod), "replace") {
		t.Errorf("the go.mod of an installed glass-conformance:\n%s", gomod)
	}
	// The suite compiles against the proxy's Glass (-run '^$': building it
	// is the point; running it is the other test's).
	if out, err := shell(t, filepath.Join(work, "glass-acceptance"), env, "go test -count=1 -run '^$' ./..."); err != nil {
		t.Fatalf("the generated suite does not build: %v\n%s", err, out)
	}
}

// TestTrimpathBinary: a glass-conformance built with -trimpath cannot name
// the checkout it was built from, so init writes a go.mod without a
// replace and says so in one line, exit 2: the suite cannot build until
// someone adds one, as README's commands for adding Glass by hand do.
func TestTrimpathBinary(t *testing.T) {
	gobin := t.TempDir()
	env := append(unpublished(t, gobin), "GOFLAGS=-trimpath")
	if out, err := shell(t, repoRoot(t), env, "go install ./cmd/glass-conformance"); err != nil {
		t.Fatalf("go install -trimpath: %v\n%s", err, out)
	}
	work := t.TempDir()
	dir := filepath.Join(work, "glass-acceptance")
	out, err := shell(t, work, env, "glass-conformance init --url "+todosApp(t)+" 2>&1 >/dev/null")
	want := "glass-conformance: init: this glass-conformance was built with -trimpath, so the checkout it was built from is unknown; the go.mod requires github.com/glassworks/glass v0.0.0, which is not published: in glass-acceptance, run go mod edit -replace github.com/glassworks/glass=PATH (PATH: your clone of Glass), then go mod tidy\n"
	if err == nil || out != want {
		t.Errorf("a -trimpath binary: %v, stderr %q\nwant exit 2 and %q", err, out, want)
	}
	gomod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil || strings.Contains(string(gomod), "replace") || !strings.Contains(string(gomod), "github.com/glassworks/glass v0.0.0") {
		t.Errorf("the go.mod of a -trimpath binary (%v):\n%s", err, gomod)
	}
	// README's commands that add Glass by hand, the clone's path in place
	// of ../glass: then the suite's imports resolve.
	_, _, _, byHand := readmeBlocks(t)
	for _, line := range append(byHand, "go list -deps ./... >/dev/null") {
		line = strings.ReplaceAll(line, "=../glass", "="+repoRoot(t))
		if out, err := shell(t, dir, env, line); err != nil {
			t.Errorf("%s: %v\n%s", line, err, out)
		}
	}
}
