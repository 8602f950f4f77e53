// Package coverrun is the suite's side of capability coverage in
// glasstest: its configuration (ConfigureCoverage's options and the
// environment) and the end of a suite, which merges every page's report
// entry, writes the JSON and HTML views, prints the summary line and
// checks the floors. glasstest records each page's calls and re-exports
// these names; package coverage holds the model.
package coverrun

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/onsi/ginkgo/v2"

	"github.com/glassworks/glass/coverage"
	"github.com/glassworks/glass/internal/browser"
	"github.com/glassworks/glass/internal/scrub"
	"github.com/glassworks/glass/receipt"
)

// The environment variables of capability coverage.
const (
	// EnvCoverage "off" (or 0, false, no) records nothing and writes
	// nothing; "on" (or 1, true, yes, or unset) is the default.
	EnvCoverage = "GLASS_COVERAGE"
	// EnvCoverageFile is where the JSON goes (the HTML view goes next to
	// it, .json replaced by .html). Default: DefaultFile.
	EnvCoverageFile = "GLASS_COVERAGE_FILE"
	// EnvCoverageMin fails the suite below a floor: one percentage of
	// declared actions called ("80"), or measure=percentage pairs
	// ("actions=100,confirm=100"); see coverage.ParseFloors.
	EnvCoverageMin = "GLASS_COVERAGE_MIN"
)

// DefaultFile is where the coverage of a suite goes unless
// $GLASS_COVERAGE_FILE or CoverageFile says otherwise; relative to the
// working directory (the package directory under go test and ginkgo).
const DefaultFile = "glass-coverage.json"

// Entry is the name of the report entry that carries what one page
// of a spec saw (a coverage.Observation).
const Entry = "glass coverage"

// Option configures the suite's capability coverage
// (glasstest.ConfigureCoverage).
type Option func(*config)

type config struct {
	off    bool
	file   string
	floors []coverage.Floor
	// errs are options that were wrong; they fail the suite at its end.
	errs []error
}

var options struct {
	mu  sync.Mutex
	cfg config
}

// Configure sets the suite's capability coverage from Go, at
// package level of the suite (it returns true for `var _ =`) or before
// RunSpecs; under ginkgo -p every process runs it, and process 1 writes
// the report. Options add up over calls.
//
//	var _ = glasstest.ConfigureCoverage(glasstest.CoverageMin(coverage.MeasureActions, 100))
//
// The environment and the options combine: coverage is off when either
// says off, $GLASS_COVERAGE_FILE wins over CoverageFile (where a run puts
// its files is the run's choice), and every floor of $GLASS_COVERAGE_MIN
// and of CoverageMin must be met. Default: on, DefaultFile, no
// floor.
func Configure(opts ...Option) {
	options.mu.Lock()
	defer options.mu.Unlock()
	for _, o := range opts {
		if o != nil {
			o(&options.cfg)
		}
	}
}

// Swap replaces the options of Configure with none, for a test that
// checks the end of a suite without changing what its own suite reports;
// restore puts them back.
func Swap() (restore func()) {
	options.mu.Lock()
	saved := options.cfg
	options.cfg = config{}
	options.mu.Unlock()
	return func() {
		options.mu.Lock()
		options.cfg = saved
		options.mu.Unlock()
	}
}

// Off records no coverage and writes no report, as
// GLASS_COVERAGE=off does.
func Off() Option { return func(c *config) { c.off = true } }

// File is where the JSON report goes, the HTML view next to it.
// Default: $GLASS_COVERAGE_FILE, else DefaultFile.
func File(path string) Option {
	return func(c *config) { c.file = path }
}

// Min fails the suite when measure m covers less than percent of
// the actions it counts: Min(coverage.MeasureConfirm, 100) wants
// every action that asks for confirmation approved and denied by some
// spec. The failure names what is missing. Floors are not checked in a
// filtered run (a focus, a skip, a label filter), which covers part of the
// suite. Default: no floor.
func Min(m coverage.Measure, percent float64) Option {
	return func(c *config) {
		if _, err := m.MarshalText(); err != nil {
			c.errs = append(c.errs, fmt.Errorf("glasstest: CoverageMin: %w", err))
			return
		}
		if percent < 0 || percent > 100 || percent != percent {
			c.errs = append(c.errs, fmt.Errorf("glasstest: CoverageMin(%s, %v): want a percentage from 0 to 100", m, percent))
			return
		}
		c.floors = append(c.floors, coverage.Floor{Measure: m, Min: percent})
	}
}

// settings combines the environment with ConfigureCoverage's
// options. A malformed variable is an error for the end of the suite; the
// run goes on with what could be read.
func settings() (cfg config, envFloors []coverage.Floor) {
	options.mu.Lock()
	cfg = options.cfg
	cfg.floors = append([]coverage.Floor(nil), cfg.floors...)
	cfg.errs = append([]error(nil), cfg.errs...)
	options.mu.Unlock()
	switch v := os.Getenv(EnvCoverage); {
	case browser.Falsy(v):
		cfg.off = true
	case v == "" || browser.Truthy(v):
	default:
		cfg.errs = append(cfg.errs, fmt.Errorf("glasstest: %s=%q: want on or off", EnvCoverage, v))
	}
	if f := os.Getenv(EnvCoverageFile); f != "" {
		cfg.file = f
	}
	if cfg.file == "" {
		cfg.file = DefaultFile
	}
	if v := os.Getenv(EnvCoverageMin); v != "" {
		floors, err := coverage.ParseFloors(v)
		if err != nil {
			cfg.errs = append(cfg.errs, fmt.Errorf("glasstest: %s=%q: %w", EnvCoverageMin, v, err))
		}
		envFloors = floors
	}
	return cfg, envFloors
}

// On is read by every glasstest.Open: with coverage off, a page records
// nothing and reads nothing more from the page.
func On() bool {
	options.mu.Lock()
	off := options.cfg.off
	options.mu.Unlock()
	return !off && !browser.Falsy(os.Getenv(EnvCoverage))
}

// Finish is the end of the suite: it merges every "glass coverage"
// entry of the report, writes the JSON and the HTML view, prints the
// summary line on w, and checks the floors. Its error says everything that
// went wrong, each part on its own. Every text of the entries is masked
// again with secrets before anything is written: an entry was masked with
// the sensitive values known when its page closed, and a later call may
// have used a value that page showed.
func Finish(r ginkgo.Report, w io.Writer, secrets *scrub.Set) error {
	cfg, envFloors := settings()
	errs := cfg.errs
	if cfg.off {
		return errors.Join(errs...)
	}
	obs, err := observations(r)
	if err != nil {
		errs = append(errs, err)
	}
	if secrets.Len() > 0 {
		for i := range obs {
			obs[i] = obs[i].MapText(func(s string) string { return secrets.ReplaceString(s, receipt.Masked) })
		}
	}
	if len(obs) == 0 {
		// No page was opened with Open: there is nothing to report.
		return errors.Join(errs...)
	}
	rep := coverage.New(r.SuiteDescription, filteredRun(r), obs...)
	var below error
	if !rep.Filtered {
		below = rep.Check(append(append([]coverage.Floor(nil), envFloors...), cfg.floors...))
	}
	if htmlPath, err := writeCoverage(rep, cfg.file); err != nil {
		errs = append(errs, err)
	} else {
		fmt.Fprintln(w, rep.Line(htmlPath))
	}
	if below != nil {
		errs = append(errs, fmt.Errorf("glasstest: capability coverage: %w", below))
	}
	return errors.Join(errs...)
}

// observations reads every coverage entry of the report: in the process
// that made it, the value itself; from another process under ginkgo -p,
// or from a JSON report, its JSON.
func observations(r ginkgo.Report) ([]coverage.Observation, error) {
	var out []coverage.Observation
	var errs []error
	for _, s := range r.SpecReports {
		for _, e := range s.ReportEntries {
			if e.Name != Entry {
				continue
			}
			if o, ok := e.Value.GetRawValue().(coverage.Observation); ok {
				out = append(out, o)
				continue
			}
			text := []byte(e.Value.AsJSON)
			if len(text) == 0 {
				var err error
				if text, err = json.Marshal(e.Value.GetRawValue()); err != nil {
					errs = append(errs, fmt.Errorf("glasstest: coverage entry of %q: %w", s.FullText(), err))
					continue
				}
			}
			var o coverage.Observation
			if err := json.Unmarshal(text, &o); err != nil {
				errs = append(errs, fmt.Errorf("glasstest: coverage entry of %q: %w", s.FullText(), err))
				continue
			}
			out = append(out, o)
		}
	}
	return out, errors.Join(errs...)
}

// filteredRun: the run did not run every spec, so its figures cover part
// of the suite.
func filteredRun(r ginkgo.Report) bool {
	c := r.SuiteConfig
	return r.SuiteHasProgrammaticFocus || c.DryRun || c.LabelFilter != "" || c.SemVerFilter != "" ||
		len(c.FocusStrings)+len(c.SkipStrings)+len(c.FocusFiles)+len(c.SkipFiles) > 0
}

// writeCoverage writes the JSON to file and the HTML view next to it
// (.json replaced by .html, or .html added), creating the directory, and
// returns the HTML view's absolute path.
func writeCoverage(rep *coverage.Report, file string) (htmlPath string, err error) {
	jsonPath, err := filepath.Abs(file)
	if err != nil {
		return "", fmt.Errorf("glasstest: write coverage %q: %w", file, err)
	}
	htmlPath = strings.TrimSuffix(jsonPath, ".json") + ".html"
	b, err := rep.JSON()
	if err != nil {
		return "", fmt.Errorf("glasstest: write coverage %q: %w", file, err)
	}
	var html bytes.Buffer
	if err := rep.WriteHTML(&html); err != nil {
		return "", fmt.Errorf("glasstest: write coverage %q: %w", htmlPath, err)
	}
	if err := os.MkdirAll(filepath.Dir(jsonPath), 0o755); err != nil {
		return "", fmt.Errorf("glasstest: write coverage %q: %w", file, err)
	}
	if err := os.WriteFile(jsonPath, b, 0o644); err != nil {
		return "", fmt.Errorf("glasstest: write coverage %q: %w", file, err)
	}
	if err := os.WriteFile(htmlPath, html.Bytes(), 0o644); err != nil {
		return "", fmt.Errorf("glasstest: write coverage %q: %w", htmlPath, err)
	}
	return htmlPath, nil
}
