package glasstest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	. "github.com/onsi/ginkgo/v2"

	"github.com/glassworks/glass/coverage"
	"github.com/glassworks/glass/receipt"
)

// Capability coverage: which declared actions no spec called, which
// dangerous ones no spec denied, which flows never failed a step, which
// failure codes no spec saw. Every page opened with Open records its calls
// (about a microsecond a call: the receipt and who made it, nothing read
// from the page) and, when it closes, takes one snapshot for the
// actions it declares then; the spec carries what the page saw as its
// "glass coverage" report entry (visibility never: in the JSON report, not
// on the console), so a failing spec counts too and `ginkgo -p` processes
// need no channel of their own. The ReportAfterSuite this file registers
// reads every entry of the merged report, writes glass-coverage.json and
// glass-coverage.html and prints one summary line. Package coverage holds
// the model, the merge, the floors and the HTML view; docs/coverage.md
// explains the figures.

// The environment variables of capability coverage.
const (
	// EnvCoverage "off" (or 0, false, no) records nothing and writes
	// nothing; "on" (or 1, true, yes, or unset) is the default.
	EnvCoverage = "GLASS_COVERAGE"
	// EnvCoverageFile is where the JSON goes (the HTML view goes next to
	// it, .json replaced by .html). Default: DefaultCoverageFile.
	EnvCoverageFile = "GLASS_COVERAGE_FILE"
	// EnvCoverageMin fails the suite below a floor: one percentage of
	// declared actions called ("80"), or measure=percentage pairs
	// ("actions=100,confirm=100"); see coverage.ParseFloors.
	EnvCoverageMin = "GLASS_COVERAGE_MIN"
)

// DefaultCoverageFile is where the coverage of a suite goes unless
// $GLASS_COVERAGE_FILE or CoverageFile says otherwise; relative to the
// working directory (the package directory under go test and ginkgo).
const DefaultCoverageFile = "glass-coverage.json"

// CoverageEntry is the name of the report entry that carries what one page
// of a spec saw (a coverage.Observation).
const CoverageEntry = "glass coverage"

// coverageSnapshotTimeout bounds the snapshot a page takes when it closes:
// a page that stopped answering must not hold its spec up for the whole
// call timeout a second time.
const coverageSnapshotTimeout = 3 * time.Second

// CoverageOption configures the suite's capability coverage
// (ConfigureCoverage).
type CoverageOption func(*coverageConfig)

type coverageConfig struct {
	off    bool
	file   string
	floors []coverage.Floor
	// errs are options that were wrong; they fail the suite at its end.
	errs []error
}

var coverageOptions struct {
	mu  sync.Mutex
	cfg coverageConfig
}

// ConfigureCoverage sets the suite's capability coverage from Go, at
// package level of the suite (it returns true for `var _ =`) or before
// RunSpecs; under ginkgo -p every process runs it, and process 1 writes
// the report. Options add up over calls.
//
//	var _ = glasstest.ConfigureCoverage(glasstest.CoverageMin(coverage.MeasureActions, 100))
//
// The environment and the options combine: coverage is off when either
// says off, $GLASS_COVERAGE_FILE wins over CoverageFile (where a run puts
// its files is the run's choice), and every floor of $GLASS_COVERAGE_MIN
// and of CoverageMin must be met. Default: on, DefaultCoverageFile, no
// floor.
func ConfigureCoverage(opts ...CoverageOption) bool {
	coverageOptions.mu.Lock()
	defer coverageOptions.mu.Unlock()
	for _, o := range opts {
		if o != nil {
			o(&coverageOptions.cfg)
		}
	}
	return true
}

// CoverageOff records no coverage and writes no report, as
// GLASS_COVERAGE=off does.
func CoverageOff() CoverageOption { return func(c *coverageConfig) { c.off = true } }

// CoverageFile is where the JSON report goes, the HTML view next to it.
// Default: $GLASS_COVERAGE_FILE, else DefaultCoverageFile.
func CoverageFile(path string) CoverageOption {
	return func(c *coverageConfig) { c.file = path }
}

// CoverageMin fails the suite when measure m covers less than percent of
// the actions it counts: CoverageMin(coverage.MeasureConfirm, 100) wants
// every action that asks for confirmation approved and denied by some
// spec. The failure names what is missing. Floors are not checked in a
// filtered run (a focus, a skip, a label filter), which covers part of the
// suite. Default: no floor.
func CoverageMin(m coverage.Measure, percent float64) CoverageOption {
	return func(c *coverageConfig) {
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

// coverageSettings combines the environment with ConfigureCoverage's
// options. A malformed variable is an error for the end of the suite; the
// run goes on with what could be read.
func coverageSettings() (cfg coverageConfig, envFloors []coverage.Floor) {
	coverageOptions.mu.Lock()
	cfg = coverageOptions.cfg
	cfg.floors = append([]coverage.Floor(nil), cfg.floors...)
	cfg.errs = append([]error(nil), cfg.errs...)
	coverageOptions.mu.Unlock()
	switch v := os.Getenv(EnvCoverage); {
	case falsy(v):
		cfg.off = true
	case v == "" || truthy(v):
	default:
		cfg.errs = append(cfg.errs, fmt.Errorf("glasstest: %s=%q: want on or off", EnvCoverage, v))
	}
	if f := os.Getenv(EnvCoverageFile); f != "" {
		cfg.file = f
	}
	if cfg.file == "" {
		cfg.file = DefaultCoverageFile
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

// coverageOn is read by every Open: with coverage off, a page records
// nothing and reads nothing more from the page.
func coverageOn() bool {
	coverageOptions.mu.Lock()
	off := coverageOptions.cfg.off
	coverageOptions.mu.Unlock()
	return !off && !falsy(os.Getenv(EnvCoverage))
}

// currentSpec is the full name of the spec running in this process, set
// around every spec: reading it costs a call nothing, where Ginkgo's
// CurrentSpecReport copies the spec's captured output each time.
var currentSpec atomic.Pointer[string]

var (
	_ = ReportBeforeEach(func(r SpecReport) {
		name := r.FullText()
		currentSpec.Store(&name)
	})
	_ = ReportAfterEach(func(SpecReport) { currentSpec.Store(nil) })
	_ = ReportAfterSuite("Glass capability coverage", func(r Report) {
		if err := finishCoverage(r, os.Stdout); err != nil {
			Fail(err.Error())
		}
	})
)

// specName names who made a call: the spec, or, outside any spec, the
// suite node (a page opened in BeforeSuite and called there).
func specName() string {
	if s := currentSpec.Load(); s != nil {
		return *s
	}
	return "[" + CurrentSpecReport().LeafNodeType.String() + "]"
}

// pageCoverage is what one page opened with Open records of its calls.
type pageCoverage struct {
	mu    sync.Mutex
	calls []coveredCall
}

type coveredCall struct {
	r         *receipt.Receipt
	execID    string
	spec      string
	transport Transport
	resume    bool
	flow      string
	snapshots int
	noChannel bool
}

// coveredPages holds the recorder of every page Open opened while
// coverage is on; pages of OpenPage (the conformance engine, the CLI) are
// not in it and record nothing.
var coveredPages sync.Map // *Page → *pageCoverage

// coverOpen starts recording p's calls, when coverage is on.
func coverOpen(p *Page) {
	if coverageOn() {
		// Room for the handful of calls a spec makes on a page.
		coveredPages.Store(p, &pageCoverage{calls: make([]coveredCall, 0, 8)})
	}
}

// covered records a call of Do, before finish: a call whose ConfirmWith
// function panicked fails the spec in finish, and still counts.
func (p *Page) covered(c callResult, s settings) callResult {
	if v, ok := coveredPages.Load(p); ok {
		v.(*pageCoverage).add(p, coveredCall{r: c.r, execID: c.execID, transport: s.transport, noChannel: noChannel(p, s)})
	}
	return c
}

// coveredResume records a call of Resume, like covered.
func (p *Page) coveredResume(c callResult, s settings, handle string) callResult {
	if v, ok := coveredPages.Load(p); ok {
		v.(*pageCoverage).add(p, coveredCall{r: c.r, execID: c.execID, transport: TransportBridge, resume: true, flow: p.flowOf(handle), noChannel: noChannel(p, s)})
	}
	return c
}

// noChannel: the page has no confirmation channel at all, or the call
// made the channel refuse to answer.
func noChannel(p *Page, s settings) bool {
	return p.settings.policy.kind == policyNoChannel || s.policy.kind == policyNoChannel
}

func (pc *pageCoverage) add(p *Page, c coveredCall) {
	p.mu.Lock()
	c.snapshots = len(p.snapshots)
	p.mu.Unlock()
	c.spec = specName()
	pc.mu.Lock()
	pc.calls = append(pc.calls, c)
	pc.mu.Unlock()
}

// coverClose ends p's recording in the cleanup of the spec that opened it:
// one snapshot for the actions the page declares now (unless the page is
// gone), then what it saw becomes the spec's "glass coverage" entry.
func coverClose(p *Page) {
	v, ok := coveredPages.LoadAndDelete(p)
	if !ok {
		return
	}
	if pageAlive(p) {
		_, _ = p.trySnapshot(min(p.settings.timeout, coverageSnapshotTimeout))
	}
	AddReportEntry(CoverageEntry, v.(*pageCoverage).observe(p), ReportEntryVisibilityNever)
}

func pageAlive(p *Page) bool {
	select {
	case <-p.closed:
		return false
	case <-p.crashed:
		return false
	default:
		return true
	}
}

// observe hands package coverage what the page saw, each call with the
// host's answers to its execution's confirmations and hand-offs, and masks
// the page's sensitive values in the result.
func (pc *pageCoverage) observe(p *Page) coverage.Observation {
	pc.mu.Lock()
	calls := append([]coveredCall(nil), pc.calls...)
	pc.mu.Unlock()

	p.mu.Lock()
	// The page's sensitive values, as newMasker takes them: the page's
	// own options and every call's (noteSecrets).
	secrets := maps.Clone(p.settings.secrets)
	if secrets == nil {
		secrets = map[string]string{}
	}
	for v := range p.secretValues {
		secrets["\x00"+v] = v // a name no option can have
	}
	log := coverage.PageLog{URL: p.url, Snapshots: append([]*receipt.Snapshot(nil), p.snapshots...)}
	answers := map[string][]bool{}
	for _, rec := range p.confirmations {
		answers[rec.Request.ExecutionID] = append(answers[rec.Request.ExecutionID], rec.Approved)
	}
	handoffs := map[string][]coverage.HandoffLog{}
	for _, rec := range p.handoffs {
		id := rec.Request.ExecutionID
		handoffs[id] = append(handoffs[id], coverage.HandoffLog{Action: rec.Request.Action, Outcome: coverage.HandoffOutcome(rec.Outcome)})
	}
	p.mu.Unlock()

	for _, c := range calls {
		cl := coverage.CallLog{
			Receipt: c.r, Spec: c.spec, Transport: coverage.Transport(c.transport),
			Resume: c.resume, Flow: c.flow, Snapshots: c.snapshots, NoChannel: c.noChannel,
		}
		if id := c.execID; id != "" {
			cl.HostAnswers, cl.Handoffs = answers[id], handoffs[id]
		}
		log.Calls = append(log.Calls, cl)
	}
	obs := coverage.Observe(log)
	if m := newMasker(secrets); m != nil {
		obs = obs.MapText(m.text)
	}
	return obs
}

// finishCoverage is the end of the suite: it merges every "glass coverage"
// entry of the report, writes the JSON and the HTML view, prints the
// summary line on w, and checks the floors. Its error says everything that
// went wrong, each part on its own.
func finishCoverage(r Report, w io.Writer) error {
	cfg, envFloors := coverageSettings()
	errs := cfg.errs
	if cfg.off {
		return errors.Join(errs...)
	}
	obs, err := observations(r)
	if err != nil {
		errs = append(errs, err)
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
func observations(r Report) ([]coverage.Observation, error) {
	var out []coverage.Observation
	var errs []error
	for _, s := range r.SpecReports {
		for _, e := range s.ReportEntries {
			if e.Name != CoverageEntry {
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
func filteredRun(r Report) bool {
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
