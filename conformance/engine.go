package conformance

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

// Verdict is the outcome of one rule.
type Verdict string

// The verdicts. A rule that could not be probed is never reported as
// passed: it is NotProbed, with the reason.
const (
	Pass      Verdict = "pass"
	Fail      Verdict = "fail"
	NotProbed Verdict = "not-probed"
)

// Evidence is one thing a check saw: a receipt excerpt, a snapshot, a
// witness of the DOM or the accessibility tree. Text is page-provided and
// must be escaped by whatever renders it.
type Evidence struct {
	Label string `json:"label"`
	Text  string `json:"text"`
}

// Finding is the verdict on one rule over one transport, with its evidence.
type Finding struct {
	Rule      Rule                `json:"rule"`
	Transport glasstest.Transport `json:"transport"`
	Verdict   Verdict             `json:"verdict"`
	// Message is one sentence: why the rule failed, or why it was not
	// probed. Empty for a pass.
	Message  string     `json:"message,omitempty"`
	Evidence []Evidence `json:"evidence,omitempty"`
	// Baseline says how an --expected-failures baseline judged the finding.
	Baseline BaselineStatus `json:"baseline,omitempty"`
	Seconds  float64        `json:"seconds"`
}

// Violation reports whether f makes the run fail: a failure the baseline
// does not expect, or a baseline entry that has gone stale.
func (f Finding) Violation() bool {
	switch f.Baseline {
	case BaselineExpected:
		return false
	case BaselineStale:
		return true
	}
	return f.Verdict == Fail
}

// Report is the outcome of a conformance run.
type Report struct {
	URL string `json:"url"`
	// Runtime and Protocol are what the page's runtime says it is.
	Runtime    string                `json:"runtime,omitempty"`
	Protocol   string                `json:"protocol,omitempty"`
	Transports []glasstest.Transport `json:"transports"`
	// Notes say what limited the run as a whole (a transport this build
	// cannot use, a baseline entry for a rule that was not run).
	Notes    []string  `json:"notes,omitempty"`
	Findings []Finding `json:"findings"`
	Seconds  float64   `json:"seconds"`
}

// Count returns how many findings have verdict v.
func (r *Report) Count(v Verdict) int {
	n := 0
	for _, f := range r.Findings {
		if f.Verdict == v {
			n++
		}
	}
	return n
}

// Violations returns the findings that make the run fail.
func (r *Report) Violations() []Finding {
	var out []Finding
	for _, f := range r.Findings {
		if f.Violation() {
			out = append(out, f)
		}
	}
	return out
}

// Conforms reports whether no finding makes the run fail.
func (r *Report) Conforms() bool { return len(r.Violations()) == 0 }

// Name is how reports name f: the rule id, with the transport when the run
// used more than one.
func (r *Report) Name(f Finding) string {
	if len(r.Transports) > 1 {
		return f.Rule.ID + " [" + string(f.Transport) + "]"
	}
	return f.Rule.ID
}

// Target is what a run checks.
type Target struct {
	// URL is the page under test.
	URL string
	// Browser runs the probes; each probe gets a fresh browser context.
	// Default: glasstest.Shared().
	Browser *glasstest.Browser
}

// ErrSetup wraps failures that stop a run before any rule is checked: the
// page cannot be opened, has no runtime, or speaks another protocol.
var ErrSetup = errors.New("conformance: set-up failed")

// ErrUsage wraps bad options: an unknown rule id, an impossible shard.
var ErrUsage = errors.New("conformance: bad option")

// setupError is a set-up failure with the cause a person can act on.
type setupError struct {
	url   string
	cause string
}

// Error shows the cause as Sanitize does: it may quote the page (a message
// its runtime threw).
func (e *setupError) Error() string {
	return Sanitize(fmt.Sprintf("conformance: %s: %s", e.url, e.cause))
}
func (e *setupError) Unwrap() error { return ErrSetup }

// Run checks the selected rules against t over the selected transports
// and returns one finding per rule and transport. It returns an error only
// when the run cannot start: bad options (ErrUsage) or a page that cannot
// be checked at all (ErrSetup).
func Run(t Target, opts ...Option) (*Report, error) {
	start := time.Now()
	cfg, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	rules, err := cfg.selected()
	if err != nil {
		return nil, err
	}
	s, err := newSession(t, cfg)
	if err != nil {
		return nil, err
	}
	defer s.close()
	// A probe computed ahead that no check asked for (a check stopped at
	// its first violation) still finishes before Run returns, and before
	// the session closes: nothing of the run outlives it.
	defer s.background.Wait()
	index := map[string]int{}
	for i, r := range Catalog {
		index[r.ID] = i
	}
	rep := &Report{URL: t.URL, Runtime: s.runtime, Protocol: s.protocol, Transports: cfg.transports}
	total := len(rules) * len(cfg.transports)
	var (
		mu   sync.Mutex
		done int
	)
	runOne := func(rule Rule, tr glasstest.Transport) {
		mu.Lock()
		cfg.report(ProgressEvent{Done: done, Total: total, Rule: rule, Transport: tr})
		mu.Unlock()
		f := s.check(rule, tr)
		mu.Lock()
		done++
		cfg.report(ProgressEvent{Done: done, Total: total, Rule: rule, Transport: tr, Finding: &f})
		rep.Findings = append(rep.Findings, f)
		mu.Unlock()
	}
	for _, tr := range cfg.transports {
		if why := s.transportUnavailable(tr); why != "" {
			rep.Notes = append(rep.Notes, string(tr)+": "+why)
		}
		// Checks share their probes' results (memoized), so they can run
		// side by side; audits judge every receipt the run saw, so they go
		// last, one after the other.
		var plain, audits []Rule
		for _, rule := range rules {
			if isAudit(rule.ID) {
				audits = append(audits, rule)
			} else {
				plain = append(plain, rule)
			}
		}
		work := make(chan Rule)
		var wg sync.WaitGroup
		for w := 0; w < cfg.parallel; w++ {
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
	key := func(f Finding) int {
		return index[f.Rule.ID]*(len(cfg.transports)+1) + transportIndex(cfg.transports, f.Transport)
	}
	slices.SortStableFunc(rep.Findings, func(a, b Finding) int { return key(a) - key(b) })
	if len(rep.Findings) > 0 && rep.Count(NotProbed) == len(rep.Findings) {
		rep.Notes = append(rep.Notes, "no rule was probed: this run shows no violation, and proves nothing about the page either")
	}
	rep.Seconds = time.Since(start).Seconds()
	return rep, nil
}

func transportIndex(ts []glasstest.Transport, t glasstest.Transport) int {
	for i, x := range ts {
		if x == t {
			return i
		}
	}
	return len(ts)
}

// session is what the probes of one run share: the page's first snapshot
// and every receipt the run has seen.
type session struct {
	target   Target
	browser  *glasstest.Browser
	cfg      *config
	base     *receipt.Snapshot
	runtime  string
	protocol string
	global   globalFacts
	// invalidSnapshot says why the page's snapshot did not decode, if it
	// did not.
	invalidSnapshot string
	// unavailable says why a transport cannot reach the runtime.
	unavailable map[glasstest.Transport]string

	mu    sync.Mutex
	seen  []seen
	memos map[string]*memoEntry
	// secrets are the probes' sensitive values, kept out of findings.
	secrets secretSet

	// ahead bounds the memoized probes computed ahead of the check that
	// will ask for them (see prefetch); background waits for them.
	ahead      chan struct{}
	background sync.WaitGroup
}

// memoEntry is one result the probes of a run share: a refusal, an
// exercised call. Each is computed once, by whichever check needs it
// first, so the verdicts do not depend on the order checks run in.
type memoEntry struct {
	once sync.Once
	v    any
	err  error
}

func (s *session) memo(key string, fn func() (any, error)) (any, error) {
	s.mu.Lock()
	e := s.memos[key]
	if e == nil {
		e = &memoEntry{}
		s.memos[key] = e
	}
	s.mu.Unlock()
	e.once.Do(func() { e.v, e.err = fn() })
	return e.v, e.err
}

// prefetch starts computing memoized probes in the background, at most
// cap(s.ahead) at a time. Checks walk the probes they share in the same
// order, so without it every check would wait on the first probe, then
// all on the second: one page at a time however many checks run. Each
// probe still runs once (memo); a check that asks for one being computed
// waits for it.
//
// A session without s.ahead (the Ginkgo registration's: specs run one by
// one and nothing waits for background work at the suite's end) computes
// every probe when a check first asks for it.
func (s *session) prefetch(fns ...func()) {
	if s.ahead == nil {
		return
	}
	for _, fn := range fns {
		s.background.Add(1)
		go func() {
			defer s.background.Done()
			s.ahead <- struct{}{}
			defer func() { <-s.ahead }()
			fn()
		}()
	}
}

// seen is one receipt of the run and the declared action it reached.
type seen struct {
	receipt   *receipt.Receipt
	action    receipt.ActionInfo
	declared  bool
	transport glasstest.Transport
	what      string
}

func newSession(t Target, cfg *config) (*session, error) {
	if t.URL == "" {
		return nil, fmt.Errorf("%w: no URL to check", ErrUsage)
	}
	b := t.Browser
	if b == nil {
		var err error
		if b, err = glasstest.Shared(); err != nil {
			return nil, &setupError{url: t.URL, cause: firstLine(err.Error())}
		}
	}
	s := &session{target: t, browser: b, cfg: cfg, memos: map[string]*memoEntry{}, ahead: make(chan struct{}, cfg.parallel)}
	if err := s.setup(); err != nil {
		return nil, err
	}
	return s, nil
}

// setup opens the page once to learn what it declares. Every failure here
// is a set-up error with one clear cause.
func (s *session) setup() error {
	p, err := glasstest.OpenPage(s.browser, s.target.URL, glasstest.Timeout(s.cfg.callTimeout))
	if err != nil {
		return &setupError{url: s.target.URL, cause: openCause(err)}
	}
	defer p.Close()
	v, err := p.Evaluate(identifyScript, nil)
	if err != nil {
		return &setupError{url: s.target.URL, cause: "cannot inspect the page: " + firstLine(err.Error())}
	}
	text, _ := v.(string)
	if err := json.Unmarshal([]byte(text), &s.global); err != nil {
		return &setupError{url: s.target.URL, cause: "cannot inspect the page: " + err.Error()}
	}
	if !s.global.Present {
		return &setupError{url: s.target.URL, cause: "the page has no Glass runtime (globalThis.glassRuntime is not defined)"}
	}
	s.protocol, s.runtime = s.global.Protocol, s.global.Runtime
	if s.protocol != receipt.Protocol {
		return &setupError{url: s.target.URL, cause: fmt.Sprintf("the page runtime speaks protocol %q; this build checks %q", s.protocol, receipt.Protocol)}
	}
	snap, err := p.TrySnapshot()
	if errors.Is(err, receipt.ErrInvalid) {
		// A snapshot of the wrong shape is the runtime's violation of
		// protocol.snapshot, not a set-up error: that rule fails, and the
		// rules whose probes derive from the snapshot are not probed.
		s.invalidSnapshot = firstLine(err.Error())
		return nil
	}
	if err != nil {
		return &setupError{url: s.target.URL, cause: "cannot read the page model: " + firstLine(err.Error())}
	}
	s.base = snap
	s.checkTransports(p)
	return nil
}

// openCause turns a Playwright navigation error into its first line,
// without the call log.
func openCause(err error) string {
	msg := firstLine(err.Error())
	if strings.Contains(msg, "wait for the page runtime") {
		return "the page's Glass runtime never became ready (glassRuntime.ready() did not resolve; does the page call glassRuntime.define?)"
	}
	if i := strings.Index(msg, "net::"); i >= 0 {
		return "cannot load the page: " + strings.TrimSpace(msg[i:])
	}
	return "cannot open the page: " + msg
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func (s *session) record(sn seen) {
	s.mu.Lock()
	s.seen = append(s.seen, sn)
	s.mu.Unlock()
}

func (s *session) seenReceipts(tr glasstest.Transport) []seen {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []seen
	for _, sn := range s.seen {
		if sn.transport == tr {
			out = append(out, sn)
		}
	}
	return out
}

// NoCheckYet is the reason given for a rule of the catalog that no check
// probes yet.
const NoCheckYet = "no check for this rule yet"

// check runs the check of rule over transport tr.
func (s *session) check(rule Rule, tr glasstest.Transport) (f Finding) {
	start := time.Now()
	f = Finding{Rule: rule, Transport: tr}
	defer func() { f.Seconds = time.Since(start).Seconds() }()
	if why := s.transportUnavailable(tr); why != "" {
		f.Verdict, f.Message = NotProbed, why
		return f
	}
	c, ok := checks[rule.ID]
	if !ok {
		f.Verdict, f.Message = NotProbed, NoCheckYet
		return f
	}
	if s.invalidSnapshot != "" {
		if rule.ID == snapshotRule {
			f.Verdict, f.Message = Fail, "the page's snapshot does not decode as a snapshot: "+s.invalidSnapshot
		} else {
			f.Verdict, f.Message = NotProbed, "the page's snapshot is not valid (see "+snapshotRule+"), and this rule's probes derive from it"
		}
		return f
	}
	p := &probe{s: s, transport: tr}
	defer p.close()
	o := p.safely(c.run)
	f.Verdict, f.Message, f.Evidence = o.verdict, o.message, o.evidence
	return s.secrets.hide(f)
}

// safely runs a check; a panic in a check is a Glass bug, reported as a
// failure of the rule rather than as a pass or a crash of the run.
func (p *probe) safely(run func(*probe) outcome) (o outcome) {
	defer func() {
		if v := recover(); v != nil {
			o = outcome{verdict: Fail, message: fmt.Sprintf("the check itself failed (a Glass bug): %v", v)}
		}
	}()
	return run(p)
}
