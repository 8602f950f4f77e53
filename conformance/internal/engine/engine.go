package engine

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/glassworks/glass/conformance/internal/catalog"
	"github.com/glassworks/glass/conformance/internal/checks"
	"github.com/glassworks/glass/conformance/internal/probe"
	"github.com/glassworks/glass/conformance/internal/report"
	"github.com/glassworks/glass/glasstest"
)

// Target is what a run checks.
type Target struct {
	// URL is the page under test.
	URL string
	// Browser runs the probes; each probe gets a fresh page (a new
	// browser context, or one of the run's kept pages, cleared).
	// Default: glasstest.Shared().
	Browser *glasstest.Browser
}

// ErrUsage wraps bad options: an unknown rule id, an impossible shard.
var ErrUsage = errors.New("conformance: bad option")

// usageError is a bad option. Its text names the option and reads on its
// own ("conformance: rules: unknown rule id …"), so that a command can
// print it as it is; it wraps ErrUsage.
type usageError struct{ option, problem string }

func (e *usageError) Error() string { return "conformance: " + e.option + ": " + e.problem }
func (e *usageError) Unwrap() error { return ErrUsage }

// Usagef is the usage error of option, with a problem in one line.
func Usagef(option, format string, args ...any) error {
	return &usageError{option: option, problem: fmt.Sprintf(format, args...)}
}

// Run checks the rules cfg selects against t over cfg's transports and
// returns one finding per rule and transport. It returns an error only
// when the run cannot start: bad options (ErrUsage) or a page that cannot
// be checked at all (probe.ErrSetup).
func Run(t Target, cfg *Config) (*report.Report, error) {
	start := time.Now()
	rules, err := Select(cfg)
	if err != nil {
		return nil, err
	}
	s, err := Start(t, cfg, cfg.Parallel)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	// A probe computed ahead that no check asked for (a check stopped at
	// its first violation) still finishes before Run returns, and before
	// the session closes: nothing of the run outlives it.
	defer s.Wait()
	index := map[string]int{}
	for i, r := range catalog.Rules {
		index[r.ID] = i
	}
	rep := &report.Report{URL: t.URL, Runtime: s.Runtime(), Protocol: s.Protocol(), Transports: cfg.Transports, Warnings: s.Warnings()}
	total := len(rules) * len(cfg.Transports)
	var (
		mu   sync.Mutex
		done int
	)
	runOne := func(rule catalog.Rule, tr glasstest.Transport) {
		mu.Lock()
		cfg.report(ProgressEvent{Done: done, Total: total, Rule: rule, Transport: tr})
		mu.Unlock()
		f := Check(s, rule, tr)
		mu.Lock()
		done++
		cfg.report(ProgressEvent{Done: done, Total: total, Rule: rule, Transport: tr, Finding: &f})
		rep.Findings = append(rep.Findings, f)
		mu.Unlock()
	}
	for _, tr := range cfg.Transports {
		if why := s.TransportUnavailable(tr); why != "" {
			rep.Notes = append(rep.Notes, string(tr)+": "+why)
		}
		// Checks share their probes' results (memoized), so they can run
		// side by side; audits judge every receipt the run saw, so they go
		// last, one after the other.
		var plain, audits []catalog.Rule
		for _, rule := range rules {
			if checks.IsAudit(rule.ID) {
				audits = append(audits, rule)
			} else {
				plain = append(plain, rule)
			}
		}
		work := make(chan catalog.Rule)
		var wg sync.WaitGroup
		for w := 0; w < cfg.Parallel; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for rule := range work {
					runOne(rule, tr)
				}
			}()
		}
		for _, rule := range plain {
			work <- rule
		}
		close(work)
		wg.Wait()
		for _, rule := range audits {
			runOne(rule, tr)
		}
	}
	if note := selfChangeNote(s.Probe(glasstest.TransportBridge).SelfChanging()); note != "" {
		rep.Notes = append(rep.Notes, note)
	}
	if drift := s.Probe(glasstest.TransportBridge).ModelDrift(); len(drift) > 0 {
		rep.Notes = append(rep.Notes, "the page model changed with no call in flight after the page was ready ("+report.Clip(strings.Join(drift, "; "), 300)+"): a probe reads the page as it opens, so its calls can find another model; if the page loads its data after defining its model, call define once the data is shown (docs/runtime.md)")
	}
	if note := s.Probe(glasstest.TransportBridge).Stalled(); note != "" {
		rep.Notes = append(rep.Notes, note)
	}
	if note := s.Probe(glasstest.TransportBridge).OpenStalled(); note != "" {
		rep.Notes = append(rep.Notes, note)
	}
	if cfg.CallFindings {
		var notes []string
		rep.CallFindings, notes, rep.CallsUncheckable = callFindings(s, cfg.Transports)
		rep.CallsChecked = rep.CallsUncheckable == ""
		rep.Notes = append(rep.Notes, notes...)
	}
	// Every text the page can have put a probe's secret in, hidden again
	// now that the run knows every secret it passed: a note or a set-up
	// reason computed before the secret was given can quote it, when the
	// page keeps what one load was given and shows it in the next.
	for i, n := range rep.Notes {
		rep.Notes[i] = s.Hide(report.Finding{Message: n}).Message
	}
	rep.CallsUncheckable = s.Hide(report.Finding{Message: rep.CallsUncheckable}).Message
	rep.Hide = func(t string) string { return s.Hide(report.Finding{Message: t}).Message }
	for i, f := range rep.Findings {
		rep.Findings[i] = s.Hide(f).Bounded()
	}
	key := func(f report.Finding) int {
		return index[f.Rule.ID]*(len(cfg.Transports)+1) + transportIndex(cfg.Transports, f.Transport)
	}
	slices.SortStableFunc(rep.Findings, func(a, b report.Finding) int { return key(a) - key(b) })
	if len(rep.Findings) > 0 && rep.Count(report.NotProbed) == len(rep.Findings) {
		rep.Notes = append(rep.Notes, "no rule was probed: this run shows no violation, and proves nothing about the page either")
	}
	rep.Seconds = time.Since(start).Seconds()
	return rep, nil
}

// transportIndex is where t stands among ts, or after them.
func transportIndex(ts []glasstest.Transport, t glasstest.Transport) int {
	if i := slices.Index(ts, t); i >= 0 {
		return i
	}
	return len(ts)
}

// Start opens the session a run's checks share, with at most ahead
// memoized probes computed ahead of the checks that will ask for them (0:
// none, for specs that run one by one).
func Start(t Target, cfg *Config, ahead int) (*probe.Session, error) {
	if t.URL == "" {
		return nil, Usagef("target", "no URL to check")
	}
	pc := cfg.Config
	pc.Ahead = ahead
	return probe.NewSession(t.URL, t.Browser, pc)
}

// NoCheckYet is the reason given for a rule of the catalog that no check
// probes yet.
const NoCheckYet = "no check for this rule yet"

// Session is what Check needs of a run's shared probes (*probe.Session).
type Session interface {
	TransportUnavailable(tr glasstest.Transport) string
	InvalidSnapshot() string
	Probe(tr glasstest.Transport) *probe.Probe
	Hide(f report.Finding) report.Finding
}

// Check runs the check of rule over transport tr in session s.
func Check(s Session, rule catalog.Rule, tr glasstest.Transport) (f report.Finding) {
	start := time.Now()
	f = report.Finding{Rule: rule, Transport: tr}
	defer func() { f.Seconds = time.Since(start).Seconds() }()
	if why := s.TransportUnavailable(tr); why != "" {
		f.Verdict, f.Message = report.NotProbed, why
		return f
	}
	c, ok := checks.Table[rule.ID]
	if !ok {
		f.Verdict, f.Message = report.NotProbed, NoCheckYet
		return f
	}
	if nr, ok := s.(interface{ NeverReady() string }); ok && nr.NeverReady() != "" {
		if rule.ID == readyRule {
			f.Verdict, f.Message = report.Fail, "ready() never resolved on a page that installs the runtime's global: "+nr.NeverReady()
		} else {
			f.Verdict, f.Message = report.NotProbed, "the page's runtime never became ready (see "+readyRule+"), and this rule's probes wait for it"
		}
		return f
	}
	if invalid := s.InvalidSnapshot(); invalid != "" {
		if rule.ID == snapshotRule {
			f.Verdict, f.Message = report.Fail, "the page's snapshot does not decode as a snapshot: "+invalid
		} else {
			f.Verdict, f.Message = report.NotProbed, "the page's snapshot is not valid (see "+snapshotRule+"), and this rule's probes derive from it"
		}
		return f
	}
	p := s.Probe(tr)
	defer p.Close()
	if why := p.Silent(); why != "" {
		if rule.ID == receiptRule {
			f.Verdict, f.Message = report.Fail, "execute never resolved: "+why+"; execute and resume must resolve every call to a receipt"
		} else {
			f.Verdict, f.Message = report.NotProbed, why+" (see "+receiptRule+"), so this rule's probes would each wait out the same bound"
		}
		return s.Hide(f).Bounded()
	}
	run := c.Run
	if c.Audit {
		// An audit judges every receipt the run saw: the calls a check
		// left unmade when it stopped at a violation are made first.
		run = func(p *probe.Probe) probe.Outcome {
			p.FinishWalks()
			return c.Run(p)
		}
	}
	o := p.Safely(run)
	f.Verdict, f.Message, f.Evidence = o.Verdict, o.Message, o.Evidence
	return s.Hide(f).Bounded()
}

// ProgressEvent tells a progress display that a rule starts (Finding is
// nil) or has its verdict.
type ProgressEvent struct {
	Done, Total int
	Rule        catalog.Rule
	Transport   glasstest.Transport
	Finding     *report.Finding
}

// snapshotRule is the rule a snapshot that does not decode breaks.
const snapshotRule = "protocol.snapshot"

// readyRule is the rule a ready() that never resolves breaks.
const readyRule = "protocol.ready"

// receiptRule is the rule a runtime that never answers breaks: execute
// and resume must resolve to a receipt (probe.Probe.Silent).
const receiptRule = "protocol.receipt"

// selfChangeNote says which elements the page changed by itself, idle
// (probe.Probe.SelfChanging), and what the run made of them; empty when
// none.
func selfChangeNote(masks []any) string {
	if len(masks) == 0 {
		return ""
	}
	var names []string
	for _, m := range masks {
		mm, _ := m.(map[string]any)
		path, _ := mm["path"].([]any)
		switch id, _ := mm["id"].(string); {
		case id != "":
			names = append(names, "#"+report.Clip(id, 40))
		case len(path) == 0:
			names = append(names, "the whole body")
		default:
			names = append(names, fmt.Sprintf("the element at %v under the body", path))
		}
	}
	if len(names) > 3 {
		names = append(names[:3], fmt.Sprintf("%d more", len(names)-3))
	}
	return "the page changes by itself with no call in flight (" + strings.Join(names, ", ") + "): the DOM witnesses leave it out, the rendered page witnesses no call, and the settle wait does not wait for it (docs/conformance.md)"
}
