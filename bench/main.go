// Command bench measures Glass side by side with what an app team would
// write without it, on one machine in one run, and prints the table that
// BENCHMARKS.md records (make bench runs it):
//
//  1. one call: A, page.Do("remove@tN") on the Todo example (confirmation
//     approved, expectation verified, diff returned); B, the same deletion
//     in plain playwright-go (click the row's Delete button, accept the
//     native confirm() dialog, wait until the row is detached); C, one bare
//     page.Evaluate round trip; and A/B, A/C. The sides run interleaved,
//     in an order that rotates every iteration, after a warm-up;
//  2. scaling: A and the receipt's size at 10 to 10,000 records (the page
//     pages/records.html, served by this command), and the runtime's model,
//     diff and snapshot work timed inside the page;
//  3. suite cost: a fresh browser context and page per spec, with and
//     without tracing; a typical spec whole (fresh context, add a task,
//     delete one, assertions, close) with Glass and in plain playwright-go;
//     the wall time of `glass-conformance run` against the Todo example
//     (built once; browser start included), and of the same rules
//     registered in a Ginkgo suite (bench/testdata/registered, built once).
//
// Benchmarks report figures; nothing here passes or fails on a time. The
// command exits non-zero only when a measured call does not do what it is
// measured doing (a receipt that is not the approved, verified deletion).
//
//	go run ./bench             # everything, a few minutes
//	go run ./bench -quick      # a smoke run with few iterations
package main

import (
	"flag"
	"fmt"
	"io"
	"net/http/httptest"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/glassworks/glass/examples/todo/app"
	"github.com/glassworks/glass/glasstest"
)

type config struct {
	iterations int
	warmup     int
	sizes      []int
	scaleIter  int
	specs      int
	suiteRuns  int
	// registerRuns is how many times the Ginkgo suite that registers the
	// conformance suite runs (section 3).
	registerRuns int
	sections     string
	// conformance is a glass-conformance binary to time instead of one
	// built from this tree.
	conformance string
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	c := config{}
	fs.IntVar(&c.iterations, "n", 240, "iterations of A, B and C (section 1)")
	fs.IntVar(&c.warmup, "warmup", 24, "iterations of each side run first and not counted")
	sizes := fs.String("sizes", "10,100,1000,10000", "record counts of the scaling section")
	fs.IntVar(&c.scaleIter, "scale-n", 40, "calls per record count (section 2)")
	fs.IntVar(&c.specs, "specs", 40, "fresh context+page pairs per variant (section 3)")
	fs.IntVar(&c.suiteRuns, "suite-runs", 3, "glass-conformance runs (section 3)")
	fs.IntVar(&c.registerRuns, "register-runs", 1, "runs of a Ginkgo suite that registers the conformance suite (section 3; 0: none)")
	fs.StringVar(&c.sections, "sections", "1,2,3", "which sections to run")
	fs.StringVar(&c.conformance, "conformance-bin", "", "time this glass-conformance binary instead of building one from this tree")
	quick := fs.Bool("quick", false, "a smoke run: few iterations of everything")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	for _, s := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 3 {
			fmt.Fprintf(stderr, "bench: -sizes: %q is not a number of records of 3 or more\n", s)
			return 2
		}
		c.sizes = append(c.sizes, n)
	}
	if c.suiteRuns < 1 || c.registerRuns < 0 {
		fmt.Fprintln(stderr, "bench: -suite-runs must be 1 or more and -register-runs 0 or more")
		return 2
	}
	if *quick {
		c.iterations, c.warmup, c.scaleIter, c.specs, c.suiteRuns, c.registerRuns = 24, 4, 6, 6, 1, 1
	}
	if err := bench(c, stdout, stderr); err != nil {
		fmt.Fprintf(stderr, "bench: %v\n", err)
		return 1
	}
	return 0
}

func bench(c config, out, stderr io.Writer) error {
	start := time.Now()
	fmt.Fprintf(out, "Glass benchmark, %s\n", start.UTC().Format("2006-01-02 15:04 MST"))
	fmt.Fprintf(out, "machine: %d cores, %s, %s/%s, %s; load average %s\n",
		runtime.NumCPU(), cpuModel(), runtime.GOOS, runtime.GOARCH, runtime.Version(), loadAvg())

	h, err := handler()
	if err != nil {
		return err
	}
	b, err := glasstest.Launch(glasstest.BrowserConfig{Progress: stderr})
	if err != nil {
		return err
	}
	closed := false
	defer func() {
		if !closed {
			_ = b.Close()
		}
	}()
	todo := httptest.NewServer(app.Handler())
	defer todo.Close()
	site := httptest.NewServer(h)
	defer site.Close()

	if want(c, "1") {
		if err := compare(out, b, todo.URL+"/", c); err != nil {
			return fmt.Errorf("section 1: %w", err)
		}
	}
	if want(c, "2") {
		if err := scaling(out, b, site.URL, c); err != nil {
			return fmt.Errorf("section 2: %w", err)
		}
	}
	if want(c, "3") {
		if err := specCost(out, b, todo.URL+"/", c); err != nil {
			return fmt.Errorf("section 3: %w", err)
		}
		if err := typicalSpec(out, b, todo.URL+"/", c); err != nil {
			return fmt.Errorf("section 3: %w", err)
		}
		closed = true
		if err := b.Close(); err != nil {
			return err
		}
		if err := suiteCost(out, stderr, c); err != nil {
			return fmt.Errorf("section 3: %w", err)
		}
	}
	fmt.Fprintf(out, "\ndone in %s; load average %s\n", time.Since(start).Round(time.Second), loadAvg())
	return nil
}

func want(c config, section string) bool {
	for _, s := range strings.Split(c.sections, ",") {
		if strings.TrimSpace(s) == section {
			return true
		}
	}
	return false
}
