package glasstest

import (
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/onsi/ginkgo/v2"

	"github.com/glassworks/glass/coverage"
	"github.com/glassworks/glass/internal/coverrun"
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
// (internal/coverrun's Finish) reads every entry of the merged report, writes glass-coverage.json and
// glass-coverage.html and prints one summary line. Package coverage holds
// the model, the merge, the floors and the HTML view; docs/coverage.md
// explains the figures.

// The environment variables of capability coverage: EnvCoverage ("off",
// or 0, false, no, records nothing and writes nothing; "on", the default),
// EnvCoverageFile (where the JSON goes, the HTML view next to it; default
// DefaultCoverageFile) and EnvCoverageMin (floors that fail the suite: one
// percentage of declared actions called, "80", or measure=percentage
// pairs, "actions=100,confirm=100"; see coverage.ParseFloors).
const (
	EnvCoverage     = coverrun.EnvCoverage
	EnvCoverageFile = coverrun.EnvCoverageFile
	EnvCoverageMin  = coverrun.EnvCoverageMin
)

// DefaultCoverageFile is where the coverage of a suite goes unless
// $GLASS_COVERAGE_FILE or CoverageFile says otherwise; relative to the
// working directory (the package directory under go test and ginkgo).
const DefaultCoverageFile = coverrun.DefaultFile

// CoverageEntry is the name of the report entry that carries what one page
// of a spec saw (a coverage.Observation).
const CoverageEntry = coverrun.Entry

// coverageSnapshotTimeout bounds the snapshot a page takes when it closes:
// a page that stopped answering must not hold its spec up for the whole
// call timeout a second time.
const coverageSnapshotTimeout = 3 * time.Second

// CoverageOption configures the suite's capability coverage
// (ConfigureCoverage).
type CoverageOption = coverrun.Option

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
	coverrun.Configure(opts...)
	return true
}

// CoverageOff records no coverage and writes no report, as
// GLASS_COVERAGE=off does.
func CoverageOff() CoverageOption { return coverrun.Off() }

// CoverageFile is where the JSON report goes, the HTML view next to it.
// Default: $GLASS_COVERAGE_FILE, else DefaultCoverageFile.
func CoverageFile(path string) CoverageOption { return coverrun.File(path) }

// CoverageMin fails the suite when measure m covers less than percent of
// the actions it counts: CoverageMin(coverage.MeasureConfirm, 100) wants
// every action that asks for confirmation approved and denied by some
// spec. The failure names what is missing. Floors are not checked in a
// filtered run (a focus, a skip, a label filter), which covers part of the
// suite. Default: no floor.
func CoverageMin(m coverage.Measure, percent float64) CoverageOption {
	return coverrun.Min(m, percent)
}

// currentSpec is the full name of the spec running in this process, set
// around every spec: reading it costs a call nothing, where Ginkgo's
// CurrentSpecReport copies the spec's captured output each time.
var currentSpec atomic.Pointer[string]

var (
	_ = ginkgo.ReportBeforeEach(func(r ginkgo.SpecReport) {
		name := r.FullText()
		currentSpec.Store(&name)
	})
	_ = ginkgo.ReportAfterEach(func(ginkgo.SpecReport) { currentSpec.Store(nil) })
	_ = ginkgo.ReportAfterSuite("Glass capability coverage", func(r ginkgo.Report) {
		if err := coverrun.Finish(r, os.Stdout, processSecrets.Set()); err != nil {
			ginkgo.Fail(err.Error())
		}
	})
)

// specName names who made a call: the spec, or, outside any spec, the
// suite node (a page opened in BeforeSuite and called there).
func specName() string {
	if s := currentSpec.Load(); s != nil {
		return *s
	}
	return "[" + ginkgo.CurrentSpecReport().LeafNodeType.String() + "]"
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
	if coverrun.On() {
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
	ginkgo.AddReportEntry(CoverageEntry, v.(*pageCoverage).observe(p), ginkgo.ReportEntryVisibilityNever)
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
	log := coverage.PageLog{URL: p.url, Snapshots: append([]*receipt.Snapshot(nil), p.snapshots...)}
	answers := map[string][]bool{}
	for _, rec := range p.hostLog.Confirmations() {
		answers[rec.Request.ExecutionID] = append(answers[rec.Request.ExecutionID], rec.Approved)
	}
	handoffs := map[string][]coverage.HandoffLog{}
	for _, rec := range p.hostLog.Handoffs() {
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
	if set, _ := p.secretSet(); set.Len() > 0 { // a call of another page may have posted what this one shows
		obs = obs.MapText(func(s string) string { return set.ReplaceString(s, receipt.Masked) })
	}
	return obs
}
