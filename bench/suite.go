package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/glassworks/glass/glasstest"
)

// specCost measures what every spec pays before its first call and after
// its last: a fresh browser context and page, opened on the Todo example
// and closed again, with tracing off and on (Open traces unless
// GLASS_TRACE=0), next to the same set-up in plain playwright-go. The three
// variants alternate.
func specCost(out io.Writer, b *glasstest.Browser, url string, c config) error {
	fmt.Fprintf(out, "\n3. Suite cost (load average %s)\n", loadAvg())
	first, err := glasstest.OpenPage(b, url)
	if err != nil {
		return err
	}
	br := first.Playwright().Context().Browser()
	defer first.Close()
	variants := []struct {
		name string
		open func() (time.Duration, error)
		s    sample
	}{
		{name: "glasstest.OpenPage + Close, tracing off (GLASS_TRACE=0)", open: func() (time.Duration, error) {
			return glassSpec(b, url, false)
		}},
		{name: "glasstest.OpenPage + Close, tracing on (the Open default)", open: func() (time.Duration, error) {
			return glassSpec(b, url, true)
		}},
		{name: "plain playwright-go: NewContext, NewPage, Goto, Close", open: func() (time.Duration, error) {
			start := time.Now()
			ctx, _, err := openPlainIn(br, url, "#tasks li")
			if err != nil {
				return 0, err
			}
			if err := ctx.Close(); err != nil {
				return 0, err
			}
			return time.Since(start), nil
		}},
	}
	warm := max(2, c.specs/10)
	for i := 0; i < warm+c.specs; i++ {
		for j := range variants {
			v := &variants[(i+j)%len(variants)]
			d, err := v.open()
			if err != nil {
				return fmt.Errorf("%s: %w", v.name, err)
			}
			if i >= warm {
				v.s.add(d)
			}
		}
	}
	fmt.Fprintf(out, "   fresh context + page per spec, %d each, interleaved:\n", c.specs)
	for _, v := range variants {
		fmt.Fprintf(out, "   %-58s %6s ms %6s ms (median, p95)\n", v.name, fmtMS(v.s.median()), fmtMS(v.s.p95()))
	}
	fmt.Fprintf(out, "   tracing adds %.1f ms per spec (medians)\n", variants[1].s.median()-variants[0].s.median())
	return nil
}

func glassSpec(b *glasstest.Browser, url string, trace bool) (time.Duration, error) {
	start := time.Now()
	p, err := glasstest.OpenPage(b, url, glasstest.Trace(trace))
	if err != nil {
		return 0, err
	}
	if err := p.Close(); err != nil {
		return 0, err
	}
	return time.Since(start), nil
}

// suiteCost builds glass-conformance once and times `glass-conformance run`
// against the embedded Todo example, browser start included, next to a
// bare browser start (glasstest.Launch + Close).
func suiteCost(out, stderr io.Writer, c config) error {
	dir, err := os.MkdirTemp("", "glass-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	bin := c.conformance
	if bin == "" {
		root, err := moduleRoot()
		if err != nil {
			return err
		}
		bin = filepath.Join(dir, "glass-conformance")
		build := exec.Command("go", "build", "-o", bin, "./cmd/glass-conformance")
		build.Dir = root
		build.Stderr = stderr
		if err := build.Run(); err != nil {
			return fmt.Errorf("build glass-conformance: %w", err)
		}
	}

	var launch sample
	for i := 0; i < max(3, c.suiteRuns); i++ {
		start := time.Now()
		b, err := glasstest.Launch(glasstest.BrowserConfig{})
		if err != nil {
			return err
		}
		if err := b.Close(); err != nil {
			return err
		}
		launch.add(time.Since(start))
	}

	// A CLI that writes a JSON report (-json) says how long each rule
	// took: the slowest ones are printed, to show what dominates a run.
	help, _ := exec.Command(bin, "run", "-h").CombinedOutput()
	report := ""
	if bytes.Contains(help, []byte("-json")) {
		report = filepath.Join(dir, "report.json")
	}
	var runs sample
	var summary string
	for i := 0; i < c.suiteRuns; i++ {
		var buf bytes.Buffer
		args := []string{"run"}
		if report != "" {
			args = append(args, "-json", report)
		}
		cmd := exec.Command(bin, args...)
		cmd.Stdout = &buf
		cmd.Stderr = &buf
		start := time.Now()
		err := cmd.Run()
		runs.add(time.Since(start))
		var exit *exec.ExitError
		if err != nil && !errors.As(err, &exit) {
			return fmt.Errorf("glass-conformance run: %w", err)
		}
		summary = lastLine(buf.String())
		if err != nil {
			summary += fmt.Sprintf(" (exit %d)", exit.ExitCode())
		}
	}
	fmt.Fprintf(out, "   browser start: glasstest.Launch + Close %39s ms (median of %d)\n", fmtMS(launch.median()), len(launch))
	fmt.Fprintf(out, "   glass-conformance run against the Todo example, wall time %20s ms (median of %d; min %s, max %s)\n",
		fmtMS(runs.median()), len(runs), fmtMS(runs.min()), fmtMS(runs.max()))
	fmt.Fprintf(out, "   its summary: %s\n", summary)
	if report != "" {
		printSlowest(out, report)
	}
	if c.registerRuns > 0 {
		reg, err := registeredRuns(dir, stderr, c.registerRuns)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "   the same suite registered in a Ginkgo suite (conformance.Register, bench/testdata/registered), wall time %s ms (median of %d; browser start included)\n",
			fmtMS(reg.median()), len(reg))
		fmt.Fprintf(out, "   registered/CLI %.2f (medians)\n", reg.median()/runs.median())
	}
	fmt.Fprintf(out, "   load average %s\n", loadAvg())
	return nil
}

// registeredRuns builds the Ginkgo suite of bench/testdata/registered once
// (go test -c) and times n runs of it: conformance.Register against the
// Todo example with its manifest over the bridge, what
// glass-conformance run checks by default. A failing spec is an error: the
// time of a suite that did not do its work measures nothing.
func registeredRuns(dir string, stderr io.Writer, n int) (sample, error) {
	root, err := moduleRoot()
	if err != nil {
		return nil, err
	}
	bin := filepath.Join(dir, "registered.test")
	build := exec.Command("go", "test", "-c", "-o", bin, "./bench/testdata/registered")
	build.Dir = root
	build.Stderr = stderr
	if err := build.Run(); err != nil {
		return nil, fmt.Errorf("build the registered suite: %w", err)
	}
	var runs sample
	for i := 0; i < n; i++ {
		var buf bytes.Buffer
		cmd := exec.Command(bin, "-test.count=1", "-test.timeout=30m")
		cmd.Dir = filepath.Join(root, "bench", "testdata", "registered")
		cmd.Stdout = &buf
		cmd.Stderr = &buf
		start := time.Now()
		err := cmd.Run()
		runs.add(time.Since(start))
		if err != nil {
			return nil, fmt.Errorf("the registered suite: %w\n%s", err, buf.String())
		}
	}
	return runs, nil
}

// printSlowest prints the rules that took longest in the last run's JSON
// report ({"seconds", "findings": [{"rule": {"id"}, "seconds"}]}); a report
// of another shape prints nothing.
func printSlowest(out io.Writer, path string) {
	b, err := os.ReadFile(path)
	if err != nil {
		return
	}
	var rep struct {
		Seconds  float64 `json:"seconds"`
		Findings []struct {
			Rule struct {
				ID string `json:"id"`
			} `json:"rule"`
			Transport string  `json:"transport"`
			Seconds   float64 `json:"seconds"`
		} `json:"findings"`
	}
	if json.Unmarshal(b, &rep) != nil || len(rep.Findings) == 0 {
		return
	}
	f := rep.Findings
	sort.SliceStable(f, func(i, j int) bool { return f[i].Seconds > f[j].Seconds })
	var sum float64
	for _, x := range f {
		sum += x.Seconds
	}
	fmt.Fprintf(out, "   its report: %.1f s in the engine, %.1f s summed over %d rule checks (checks run side by side); the slowest:\n", rep.Seconds, sum, len(f))
	for _, x := range f[:min(5, len(f))] {
		fmt.Fprintf(out, "     %6.2f s  %s (%s)\n", x.Seconds, x.Rule.ID, x.Transport)
	}
}

func moduleRoot() (string, error) {
	v, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	mod := strings.TrimSpace(string(v))
	if mod == "" || mod == os.DevNull {
		return "", errors.New("run the benchmark inside the Glass module (make bench)")
	}
	return filepath.Dir(mod), nil
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}
