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
// directory by default) so a changed verdict can be read in full.
//
// A run of the whole suite takes minutes, so twenty can outlast a sitting.
// Given a -dir that holds finished runs of the same tree (the same commit,
// the same uncommitted changes) and the same packages, flake keeps them
// and goes on from the first run that did not finish: an interrupted
// command, run again, carries on. A -dir that holds runs of anything else
// is refused rather than mixed in.
//
// Exit 0 when no verdict changed and no test failed in every run, 1
// otherwise, 2 on bad input.
package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
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
	fresh := *dir == ""
	if fresh {
		if *dir, err = os.MkdirTemp("", "glass-flake-"); err != nil {
			fmt.Fprintf(stderr, "flake: %v\n", err)
			return 2
		}
	} else if err := os.MkdirAll(*dir, 0o755); err != nil {
		fmt.Fprintf(stderr, "flake: -dir %q: %v\n", *dir, err)
		return 2
	}
	runs, err := finishedRuns(*dir, plan{Tree: treeIdentity(*dir), Packages: pkgPaths(pkgs), Timeout: *timeout})
	if err != nil {
		fmt.Fprintf(stderr, "flake: %v\n", err)
		return 2
	}
	if len(runs) > *n {
		runs = runs[:*n]
	}

	fmt.Fprintf(stdout, "flake: %d runs of %d packages (%s), output in %s\n", *n, len(pkgs), strings.Join(patterns, " "), *dir)
	if len(runs) > 0 {
		fmt.Fprintf(stdout, "flake: %d runs of this tree already finished there; going on from run %d\n", len(runs), len(runs)+1)
	}
	for i := len(runs); i < *n; i++ {
		start := time.Now()
		runDir := filepath.Join(*dir, fmt.Sprintf("run%02d", i+1))
		// A run that was interrupted left part of its output: start it again.
		if err := os.RemoveAll(runDir); err != nil {
			fmt.Fprintf(stderr, "flake: %v\n", err)
			return 2
		}
		if err := os.MkdirAll(runDir, 0o755); err != nil {
			fmt.Fprintf(stderr, "flake: %v\n", err)
			return 2
		}
		verdicts := runOnce(pkgs, runDir, *par, *timeout)
		if err := writeJSON(filepath.Join(runDir, verdictsFile), verdicts); err != nil {
			fmt.Fprintf(stderr, "flake: %v\n", err)
			return 2
		}
		runs = append(runs, verdicts)
		fails := 0
		for _, v := range verdicts {
			if !passed(v) {
				fails++
			}
		}
		fmt.Fprintf(stdout, "run %d/%d: %d tests and specs, %d not passed, %s\n", i+1, *n, len(verdicts), fails, time.Since(start).Round(time.Second))
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

// passed says whether a verdict is not a failure: a Go test passed or was
// skipped, a spec passed, was skipped or is pending.
func passed(v string) bool {
	switch v {
	case "pass", "passed", "skip", "skipped", "pending":
		return true
	}
	return false
}

// planFile, in -dir, names what its runs tested; verdictsFile, in a run's
// directory, holds the verdicts of a run that finished.
const (
	planFile     = "flake.json"
	verdictsFile = "verdicts.json"
)

// plan is what a -dir's runs tested: runs can be compared only when it is
// the same.
type plan struct {
	Tree     string   `json:"tree"` // treeIdentity
	Packages []string `json:"packages"`
	Timeout  string   `json:"timeout"`
}

// finishedRuns returns the verdicts of the runs in dir that finished, in
// order, after checking they tested what p names; on a dir without runs it
// writes p there.
func finishedRuns(dir string, p plan) ([]map[string]string, error) {
	b, err := os.ReadFile(filepath.Join(dir, planFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil, writeJSON(filepath.Join(dir, planFile), p)
	}
	if err != nil {
		return nil, err
	}
	var had plan
	if err := json.Unmarshal(b, &had); err != nil {
		return nil, fmt.Errorf("-dir %s: %s is not a flake plan (%v); give a new -dir", dir, planFile, err)
	}
	switch {
	case p.Tree == "":
		return nil, fmt.Errorf("-dir %s holds earlier runs, and this is not a git checkout, so nothing shows they tested this tree; give a new -dir", dir)
	case had.Tree != p.Tree:
		return nil, fmt.Errorf("-dir %s holds runs of another tree (%s, this is %s); give a new -dir", dir, had.Tree, p.Tree)
	case strings.Join(had.Packages, " ") != strings.Join(p.Packages, " "):
		return nil, fmt.Errorf("-dir %s holds runs of other packages (%d, these are %d); give a new -dir", dir, len(had.Packages), len(p.Packages))
	case had.Timeout != p.Timeout:
		return nil, fmt.Errorf("-dir %s holds runs with -timeout %s, not %s; give a new -dir", dir, had.Timeout, p.Timeout)
	}
	var runs []map[string]string
	for i := 1; ; i++ {
		b, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("run%02d", i), verdictsFile))
		if errors.Is(err, os.ErrNotExist) {
			return runs, nil
		}
		if err != nil {
			return nil, err
		}
		var v map[string]string
		if err := json.Unmarshal(b, &v); err != nil {
			return nil, fmt.Errorf("-dir %s: run %d: %v; give a new -dir", dir, i, err)
		}
		runs = append(runs, v)
	}
}

// treeIdentity names the tree under test: its commit, and when files
// differ from it, a hash of the differences and of the untracked files
// (those under the output directory left out). "" outside a git checkout.
func treeIdentity(outDir string) string {
	git := func(args ...string) ([]byte, error) {
		return exec.Command("git", args...).Output()
	}
	top, err := git("rev-parse", "--show-toplevel")
	if err != nil {
		return ""
	}
	root := strings.TrimSpace(string(top))
	head, err := git("-C", root, "rev-parse", "HEAD")
	if err != nil {
		return ""
	}
	id := strings.TrimSpace(string(head))
	diff, err := git("-C", root, "diff", "HEAD")
	if err != nil {
		return ""
	}
	untracked, err := git("-C", root, "ls-files", "-z", "--others", "--exclude-standard")
	if err != nil {
		return ""
	}
	h := sha256.New()
	h.Write(diff)
	dirty := len(diff) > 0
	out, _ := filepath.Abs(outDir)
	if resolved, err := filepath.EvalSymlinks(out); err == nil {
		out = resolved
	}
	for _, name := range strings.Split(string(untracked), "\x00") {
		path := filepath.Join(root, name)
		if name == "" || path == out || strings.HasPrefix(path, out+string(filepath.Separator)) {
			continue
		}
		dirty = true
		fmt.Fprintf(h, "\x00%s\x00", name)
		if b, err := os.ReadFile(path); err == nil {
			h.Write(b)
		}
	}
	if dirty {
		id += "+changes " + hex.EncodeToString(h.Sum(nil))[:12]
	}
	return id
}

func pkgPaths(pkgs []pkg) []string {
	out := make([]string, len(pkgs))
	for i, p := range pkgs {
		out[i] = p.path
	}
	return out
}

func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
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
			if !passed(v) {
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
