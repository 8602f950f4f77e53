package main

import (
	"archive/tar"
	"compress/gzip"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// installedDriver finds the Playwright driver make setup installed: the
// directory holding package/cli.js, and its version.
func installedDriver(t *testing.T) (dir, version string) {
	t.Helper()
	if p := os.Getenv("PLAYWRIGHT_DRIVER_PATH"); p != "" {
		return p, filepath.Base(p)
	}
	home, err := os.UserHomeDir()
	if err != nil {
		t.Fatal(err)
	}
	matches, _ := filepath.Glob(filepath.Join(home, ".cache", "ms-playwright-go", "*", "package", "cli.js"))
	if len(matches) == 0 {
		t.Fatal("no Playwright driver under ~/.cache/ms-playwright-go; run make setup first")
	}
	dir = filepath.Dir(filepath.Dir(matches[len(matches)-1]))
	return dir, filepath.Base(dir)
}

// npmRegistry serves the installed driver's package as the npm registry's
// playwright-core tarball, so that a first-run download can be tested on a
// closed network.
func npmRegistry(t *testing.T, driverDir, version string) (url string, hits *int) {
	t.Helper()
	hits = new(int)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/playwright-core/-/playwright-core-"+version+".tgz" {
			http.NotFound(w, r)
			return
		}
		*hits++
		gz := gzip.NewWriter(w)
		tw := tar.NewWriter(gz)
		root := filepath.Join(driverDir, "package")
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(driverDir, path)
			if err := tw.WriteHeader(&tar.Header{Name: filepath.ToSlash(rel), Mode: int64(info.Mode().Perm()), Size: info.Size(), Typeflag: tar.TypeReg}); err != nil {
				return err
			}
			f, err := os.Open(path)
			if err != nil {
				return err
			}
			defer f.Close()
			_, err = io.Copy(tw, f)
			return err
		})
		if err != nil {
			t.Errorf("serve the driver package: %v", err)
		}
		tw.Close()
		gz.Close()
	}))
	t.Cleanup(srv.Close)
	return srv.URL, hits
}

// TestSetupInstallsTheDriverOnFirstUseWithProgress is what "go install …
// @latest works on its own" means for the driver: an installed binary with
// no driver downloads it, says so while it does, and then finds a browser.
// The second run downloads nothing and prints no progress.
func TestSetupInstallsTheDriverOnFirstUseWithProgress(t *testing.T) {
	src, version := installedDriver(t)
	registry, hits := npmRegistry(t, src, version)
	fresh := filepath.Join(t.TempDir(), version)
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("no node on PATH: the test gives the driver the machine's Node.js")
	}
	env := []string{"PLAYWRIGHT_DRIVER_PATH=" + fresh, "PLAYWRIGHT_GO_NPM_REGISTRY=" + registry, "PLAYWRIGHT_NODEJS_PATH=" + node}

	first := runBinaryEnv(t, env, "setup")
	if first.code != 0 {
		t.Fatalf("first setup: exit %d\nstdout:\n%s\nstderr:\n%s", first.code, first.stdout, first.stderr)
	}
	if *hits != 1 {
		t.Errorf("the driver was downloaded %d times, want once", *hits)
	}
	for _, want := range []string{"playwright: Downloading driver (path=" + fresh + ")", "playwright: Downloaded driver successfully"} {
		if !strings.Contains(first.stderr, want) {
			t.Errorf("the first run does not show its progress %q:\n%s", want, first.stderr)
		}
	}
	if !strings.Contains(first.stdout, "Playwright driver ready; browser ") {
		t.Errorf("stdout = %q", first.stdout)
	}

	second := runBinaryEnv(t, env, "setup")
	if second.code != 0 || *hits != 1 || second.stderr != "" {
		t.Errorf("second setup: exit %d, %d downloads, stderr %q; want 0, still 1, nothing", second.code, *hits, second.stderr)
	}
}

// TestNoBrowserIsOneLineSayingWhatToInstall: with no Chromium on PATH, in
// Playwright's cache or in GLASS_CHROMIUM, setup and run say in one line
// what to install.
func TestNoBrowserIsOneLineSayingWhatToInstall(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("no node on PATH")
	}
	env := []string{"PATH=" + t.TempDir(), "PLAYWRIGHT_NODEJS_PATH=" + node, "PLAYWRIGHT_BROWSERS_PATH=" + t.TempDir(), "GLASS_CHROMIUM="}
	const want = "glass-conformance: glasstest: no Chromium found; install one (Debian/Ubuntu: apt-get install -y chromium; or Playwright's: npx playwright install chromium) or set GLASS_CHROMIUM=/path/to/chrome\n"
	for _, args := range [][]string{{"setup"}, {"run", "--rules", "policy.denied"}} {
		r := runBinaryEnv(t, env, args...)
		if r.code != 2 || r.stderr != want {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", args, r.code, r.stderr, want)
		}
	}
	r := runBinaryEnv(t, []string{"GLASS_CHROMIUM=/no/such/chrome"}, "setup")
	if r.code != 2 || r.stderr != "glass-conformance: glasstest: GLASS_CHROMIUM=\"/no/such/chrome\" is not an executable file: no Chromium found\n" {
		t.Errorf("GLASS_CHROMIUM pointing nowhere: exit %d, stderr %q", r.code, r.stderr)
	}
}

// TestSetupNamesTheBrowserARunWouldLaunch: setup names the headless shell
// for a headless run and the full Chromium for a headed one (GLASS_HEADED),
// as Launch picks them.
func TestSetupNamesTheBrowserARunWouldLaunch(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("no node on PATH")
	}
	dir := t.TempDir()
	for _, name := range []string{"chromium", "chromium-headless-shell"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	env := []string{"PATH=" + dir, "PLAYWRIGHT_NODEJS_PATH=" + node, "PLAYWRIGHT_BROWSERS_PATH=" + t.TempDir(), "GLASS_CHROMIUM="}
	for headed, want := range map[string]string{"": "chromium-headless-shell", "1": "chromium"} {
		r := runBinaryEnv(t, append(env, "GLASS_HEADED="+headed), "setup")
		if line := "glass-conformance: Playwright driver ready; browser " + filepath.Join(dir, want) + "\n"; r.code != 0 || r.stdout != line {
			t.Errorf("GLASS_HEADED=%q: exit %d, stdout %q, stderr %q; want 0 and %q", headed, r.code, r.stdout, r.stderr, line)
		}
	}
}

// TestNoDriverAndNoNetworkIsOneLine: a first run that cannot download the
// driver says so in one line (docs/troubleshooting.md quotes it).
func TestNoDriverAndNoNetworkIsOneLine(t *testing.T) {
	env := []string{"PLAYWRIGHT_DRIVER_PATH=" + t.TempDir(), "PLAYWRIGHT_GO_NPM_REGISTRY=" + strings.TrimSuffix(closedPort(t), "/")}
	for _, args := range [][]string{{"setup"}, {"run", "--rules", "policy.denied"}} {
		r := runBinaryEnv(t, env, args...)
		const want = "glass-conformance: glasstest: install the Playwright driver: could not install driver: could not install driver: could not download playwright-core: could not download from "
		lines := strings.Split(strings.TrimSuffix(r.stderr, "\n"), "\n")
		// The progress line of the attempt, then the error: one line.
		if r.code != 2 || len(lines) != 2 || !strings.HasPrefix(lines[0], "playwright: Downloading driver") || !strings.HasPrefix(lines[1], want) {
			t.Errorf("%v: exit %d, stderr %q; want 2, the progress line and one line starting %q", args, r.code, r.stderr, want)
		}
	}
}
