package glasstest

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/onsi/ginkgo/v2"

	"github.com/glassworks/glass/internal/browser"
	"github.com/glassworks/glass/internal/evidence"
	"github.com/glassworks/glass/internal/pagejs"
	"github.com/glassworks/glass/receipt"
)

// DefaultArtifactsDir is where the evidence of failing specs goes unless
// $GLASS_ARTIFACTS or ArtifactsDir says otherwise; relative to the working
// directory.
const DefaultArtifactsDir = "glass-artifacts"

// The environment variables of the evidence.
const (
	EnvArtifacts     = "GLASS_ARTIFACTS"
	EnvKeepArtifacts = "GLASS_KEEP_ARTIFACTS"
	EnvTrace         = "GLASS_TRACE"
)

// ArtifactsEntry is the name of the report entry that lists a page's
// evidence.
const ArtifactsEntry = "glass artifacts"

// The names of the files of one page's evidence.
const (
	TraceFile         = evidence.TraceFile
	ScreenshotFile    = evidence.ScreenshotFile
	ReceiptsFile      = evidence.ReceiptsFile
	SnapshotsFile     = evidence.SnapshotsFile
	ConfirmationsFile = evidence.ConfirmationsFile
)

// Artifacts lists the evidence of one page kept on disk: absolute paths of
// the files written (empty when a piece could not be taken) and, for each
// piece that failed, why. It is the value of the "glass artifacts" report
// entry, so it appears in Ginkgo's JSON report and as a JUnit property.
// String renders it for Ginkgo's console report, one path a line; Files
// lists the paths written, in a fixed order.
type Artifacts = evidence.Artifacts

// Trace records a Playwright trace of the page's context (DOM snapshots,
// network, no screencast: a spec's overhead stays a few milliseconds) so
// that a failing spec leaves it as evidence; Close drops a trace not saved.
// A page option. Default: on for Open unless $GLASS_TRACE is 0/false/off;
// off for OpenPage.
func Trace(on bool) PageOption { return pageOnly(func(s *settings) { s.trace = on }) }

// ArtifactsDir is where Open keeps the evidence of a failing spec. A page
// option. Default: $GLASS_ARTIFACTS, else DefaultArtifactsDir under the
// working directory (the package directory under go test).
func ArtifactsDir(dir string) PageOption { return pageOnly(func(s *settings) { s.artifactsDir = dir }) }

// KeepArtifacts keeps the evidence of a spec that passed too. A page
// option. Default: off unless $GLASS_KEEP_ARTIFACTS is 1/true/on.
func KeepArtifacts() PageOption { return pageOnly(func(s *settings) { s.keepArtifacts = true }) }

// evidence is what Open remembers to name a page's evidence directory.
type specEvidence struct {
	number int
}

// SaveArtifacts writes the page's evidence into dir (created if needed): the
// Playwright trace (when the page was opened with Trace(true); saving stops
// it), a screenshot, and every receipt, snapshot and confirmation of the
// page as JSON. The sensitive values of the page's calls are replaced by
// "[sensitive]" in every file, in every spelling package internal/scrub
// finds (see secrets.go), and a page whose calls used one has no
// screenshot: pixels cannot be scrubbed. A piece that cannot be taken (the
// page crashed, the context is gone), or that is withheld, is listed in
// Artifacts.Errors; the error is non-nil only when nothing could be written
// at all. Each piece that waits on the browser is bounded in time; the
// scrubbing takes time linear in a file's size.
func (p *Page) SaveArtifacts(dir string) (Artifacts, error) {
	p.mu.Lock()
	in := evidence.Page{
		URL:       p.url,
		Receipts:  append([]*receipt.Receipt{}, p.receipts...),
		Snapshots: append([]*receipt.Snapshot{}, p.snapshots...),
	}
	p.mu.Unlock()
	tracing := p.takeTrace()
	in.Confirmations = append([]ConfirmationRecord{}, p.hostLog.Confirmations()...)
	in.Secrets, in.Own = p.secretSet()
	in.Text = func() (string, error) {
		v, err := p.Evaluate(evidence.TextScript, nil)
		s, _ := v.(string)
		if err == nil {
			// Closed shadow roots and frames, where the browser says.
			more, _ := evidence.SnapshotText(p.pw)
			s += "\n" + more
		}
		return s, err
	}
	in.Screenshot = func(path string) error {
		if p.settings.pool != nil && !pageAlive(p) {
			return ErrPageClosed // its browser page may be another Page's now
		}
		return evidence.Screenshot(p.pw, path)
	}
	if tracing {
		in.StopTrace = func(path string) error { return evidence.StopTrace(p.context, path, in.Secrets) }
	}
	a, err := evidence.Save(dir, in, pagejs.FirstLine)
	if err != nil {
		return a, fmt.Errorf("glasstest: save artifacts: %w", err)
	}
	return a, nil
}

// takeTrace reports whether p still records a trace, which from now on it
// does not: a trace is stopped once.
func (p *Page) takeTrace() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	t := p.settings.trace && !p.traceStopped
	p.traceStopped = true
	return t
}

// evidenceOptions are the page options Open puts before the spec's own:
// tracing on unless $GLASS_TRACE says off, the artifacts directory and
// keep flag from the environment.
func evidenceOptions() []PageOption {
	opts := []PageOption{Trace(!browser.Falsy(os.Getenv(EnvTrace))), pageOnly(func(s *settings) { s.spec = true })}
	if dir := os.Getenv(EnvArtifacts); dir != "" {
		opts = append(opts, ArtifactsDir(dir))
	}
	if browser.Truthy(os.Getenv(EnvKeepArtifacts)) {
		opts = append(opts, KeepArtifacts())
	}
	return opts
}

// keepEvidence runs in the cleanup of a spec that opened p: when the spec
// failed (or KeepArtifacts), it saves p's evidence under a directory named
// for the spec and attaches it to the report, together with the output of
// suite-level dev servers.
func (p *Page) keepEvidence() {
	rep := ginkgo.CurrentSpecReport()
	failed := rep.Failed()
	if !failed && !p.settings.keepArtifacts {
		return
	}
	root := p.settings.artifactsDir
	if root == "" {
		root = DefaultArtifactsDir
	}
	n := 1
	if p.evidence != nil {
		n = p.evidence.number
	}
	dir := filepath.Join(root, evidence.SpecDirName(rep.FullText(), rep.LeafNodeLocation.String(), rep.NumAttempts, ginkgo.GinkgoParallelProcess()), fmt.Sprintf("page%d", n))
	a, err := p.SaveArtifacts(dir)
	if err != nil {
		a.Errors = append(a.Errors, err.Error())
	}
	ginkgo.AddReportEntry(ArtifactsEntry, a, rep.LeafNodeLocation, ginkgo.ReportEntryVisibilityFailureOrVerbose) // at the spec, not here
	if failed {
		for _, d := range servers.All() {
			if !d.suiteLevel {
				continue
			}
			d.report()
		}
	}
}

// pages numbers the pages a spec opens, for the page<N> directories.
var pages struct {
	mu   sync.Mutex
	spec string
	n    int
}

func pageNumber(rep ginkgo.SpecReport) int {
	key := fmt.Sprintf("%s\x00%s\x00%d", rep.FullText(), rep.LeafNodeLocation, rep.NumAttempts)
	pages.mu.Lock()
	defer pages.mu.Unlock()
	if pages.spec != key {
		pages.spec, pages.n = key, 0
	}
	pages.n++
	return pages.n
}
