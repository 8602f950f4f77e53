// Command flake runs the test suite several times and reports every test
// and every Ginkgo spec whose verdict changed between runs: the tool behind
// make flake. A verdict is pass, fail or skip for a Go test (from go test
// -json) and the spec's state for a Ginkgo spec (from the suite's JSON
// report); a test that is missing from a run (its package did not build,
// timed out or crashed before it ran) has the verdict "absent".
//
//	go run ./scripts/flake [-n 20] [-p 2] [-dir DIR] [-timeout 30m] [packages]
//
// Each run tests every package with -count=1, packages in parallel as go
// test does. The output of every run is kept under -dir (a new temporary
// directory by default) so a changed verdict can be read in full. Exit 0
// when no verdict changed and no test failed in every run, 1 otherwise,
// 2 on bad input.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/onsi/ginkgo/v2/types"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("flake", flag.ContinueOnError)
	fs.SetOutput(stderr)
	n := fs.Int("n", 20, "how many times to run the suite")
	par := fs.Int("p", runtime.NumCPU(), "how many packages to test at once")
	dir := fs.String("dir", "", "where to keep the output of every run (default: a new temporary directory)")
	timeout := fs.String("timeout", "30m", "go test -timeout of each package")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *n < 2 {
		fmt.Fprintf(stderr, "flake: -n %d: want at least 2 runs to compare\n", *n)
		return 2
	}
	if *par < 1 {
		fmt.Fprintf(stderr, "flake: -p %d: want at least 1\n", *par)
		return 2
	}
	patterns := fs.Args()
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	pkgs, err := listPackages(patterns)
	if err != nil {
		fmt.Fprintf(stderr, "flake: %v\n", err)
		return 2
	}
	if *dir == "" {
		if *dir, err = os.MkdirTemp("", "glass-flake-"); err != nil {
			fmt.Fprintf(stderr, "flake: %v\n", err)
			return 2
		}
	} else if err := os.MkdirAll(*dir, 0o755); err != nil {
		fmt.Fprintf(stderr, "flake: -dir %q: %v\n", *dir, err)
		return 2
	}

	fmt.Fprintf(stdout, "flake: %d runs of %d packages (%s), output in %s\n", *n, len(pkgs), strings.Join(patterns, " "), *dir)
	runs := make([]map[string]string, *n)
	for i := range runs {
		start := time.Now()
		runDir := filepath.Join(*dir, fmt.Sprintf("run%02d", i+1))
		if err := os.MkdirAll(runDir, 0o755); err != nil {
			fmt.Fprintf(stderr, "flake: %v\n", err)
			return 2
		}
		runs[i] = runOnce(pkgs, runDir, *par, *timeout)
		fails := 0
		for _, v := range runs[i] {
			if v != "pass" && v != "passed" && v != "skip" && v != "skipped" && v != "pending" {
				fails++
			}
		}
		fmt.Fprintf(stdout, "run %d/%d: %d tests and specs, %d not passed, %s\n", i+1, *n, len(runs[i]), fails, time.Since(start).Round(time.Second))
	}

	changed, alwaysFailed := compare(runs)
	fmt.Fprintf(stdout, "\n%d tests and specs, %d with a changed verdict over %d runs\n", len(union(runs)), len(changed), *n)
	for _, c := range changed {
		fmt.Fprintf(stdout, "  CHANGED %s: %s\n", c.name, c.tally)
	}
	if len(alwaysFailed) > 0 {
		fmt.Fprintf(stdout, "%d failed in every run (not flaky, broken):\n", len(alwaysFailed))
		for _, name := range alwaysFailed {
			fmt.Fprintf(stdout, "  FAILED %s\n", name)
		}
	}
	if len(changed) > 0 || len(alwaysFailed) > 0 {
		return 1
	}
	return 0
}

// pkg is one package to test.
type pkg struct {
	path   string
	ginkgo bool // its tests import Ginkgo, so its specs have a JSON report
}

func listPackages(patterns []string) ([]pkg, error) {
	args := append([]string{"list", "-f", `{{.ImportPath}} {{join .TestImports " "}} {{join .XTestImports " "}}`}, patterns...)
	out, err := exec.Command("go", args...).Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return nil, fmt.Errorf("go list %s: %s", strings.Join(patterns, " "), firstLine(string(ee.Stderr)))
		}
		return nil, fmt.Errorf("go list: %w", err)
	}
	var pkgs []pkg
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		p := pkg{path: f[0]}
		for _, imp := range f[1:] {
			p.ginkgo = p.ginkgo || imp == "github.com/onsi/ginkgo/v2"
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("%s matches no package", strings.Join(patterns, " "))
	}
	return pkgs, nil
}

// runOnce tests every package once and returns the verdict of each test
// and spec, by name.
func runOnce(pkgs []pkg, dir string, par int, timeout string) map[string]string {
	verdicts := map[string]string{}
	var mu sync.Mutex
	sem := make(chan struct{}, par)
	var wg sync.WaitGroup
	for _, p := range pkgs {
		wg.Add(1)
		sem <- struct{}{}
		go func(p pkg) {
			defer wg.Done()
			defer func() { <-sem }()
			v := testPackage(p, dir, timeout)
			mu.Lock()
			defer mu.Unlock()
			for k, s := range v {
				verdicts[k] = s
			}
		}(p)
	}
	wg.Wait()
	return verdicts
}

// testPackage runs go test -json on one package, keeping its output and
// Ginkgo report under dir.
func testPackage(p pkg, dir, timeout string) map[string]string {
	base := filepath.Join(dir, strings.NewReplacer("/", "_", ".", "_").Replace(p.path))
	args := []string{"test", "-json", "-count=1", "-timeout", timeout, p.path}
	report := base + ".ginkgo.json"
	if p.ginkgo {
		args = append(args, "-args", "-ginkgo.json-report="+report)
	}
	cmd := exec.Command("go", args...)
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	_ = cmd.Run() // a failing package is a verdict, read from its output
	_ = os.WriteFile(base+".jsonl", out.Bytes(), 0o644)

	verdicts := goTestVerdicts(p.path, &out)
	if p.ginkgo {
		if b, err := os.ReadFile(report); err == nil {
			var reports []types.Report
			if json.Unmarshal(b, &reports) == nil {
				for k, v := range ginkgoVerdicts(p.path, reports) {
					verdicts[k] = v
				}
			}
		}
	}
	return verdicts
}

// goTestVerdicts reads go test -json events: the verdict of every test,
// and of the package itself.
func goTestVerdicts(pkgPath string, r io.Reader) map[string]string {
	out := map[string]string{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var ev struct {
			Action  string
			Package string
			Test    string
		}
		if json.Unmarshal(sc.Bytes(), &ev) != nil {
			continue // a build error line, not an event
		}
		switch ev.Action {
		case "pass", "fail", "skip":
		default:
			continue
		}
		if ev.Package == "" {
			ev.Package = pkgPath
		}
		name := ev.Package + " (package)"
		if ev.Test != "" {
			name = ev.Package + " " + ev.Test
		}
		out[name] = ev.Action
	}
	if len(out) == 0 {
		// Nothing parsed: the package did not build.
		out[pkgPath+" (package)"] = "fail"
	}
	return out
}

// address is a memory address in a spec's text: an Entry without a
// description is named after its parameters, and a function parameter
// renders as its address, which changes from one build to the next.
var address = regexp.MustCompile(`0x[0-9a-f]{4,}`)

// ginkgoVerdicts names every spec and suite node of a Ginkgo report by its
// full text (addresses blanked), numbering specs that share a text.
func ginkgoVerdicts(pkgPath string, reports []types.Report) map[string]string {
	out := map[string]string{}
	for _, rep := range reports {
		for _, s := range rep.SpecReports {
			text := address.ReplaceAllString(s.FullText(), "0x…")
			name := pkgPath + " [" + s.LeafNodeType.String() + "] " + text
			for k := 2; ; k++ {
				if _, dup := out[name]; !dup {
					break
				}
				name = fmt.Sprintf("%s [%s] %s #%d", pkgPath, s.LeafNodeType, text, k)
			}
			out[name] = s.State.String()
		}
	}
	return out
}

// change is one test or spec whose verdict differed between runs.
type change struct {
	name  string
	tally string // "pass×18 fail×2"
}

// compare returns the tests and specs whose verdict was not the same in
// every run (missing from a run counts as "absent"), and those that failed
// in every run.
func compare(runs []map[string]string) (changed []change, alwaysFailed []string) {
	for _, name := range union(runs) {
		count := map[string]int{}
		for _, r := range runs {
			v, ok := r[name]
			if !ok {
				v = "absent"
			}
			count[v]++
		}
		if len(count) > 1 {
			var parts []string
			for v, c := range count {
				parts = append(parts, fmt.Sprintf("%s×%d", v, c))
			}
			sort.Strings(parts)
			changed = append(changed, change{name: name, tally: strings.Join(parts, " ")})
			continue
		}
		for v := range count {
			if v != "pass" && v != "passed" && v != "skip" && v != "skipped" && v != "pending" {
				alwaysFailed = append(alwaysFailed, name+" ("+v+")")
			}
		}
	}
	return changed, alwaysFailed
}

func union(runs []map[string]string) []string {
	seen := map[string]bool{}
	for _, r := range runs {
		for k := range r {
			seen[k] = true
		}
	}
	out := make([]string, 0, len(seen))
	for k := range seen {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
