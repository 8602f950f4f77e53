package probe

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/glassworks/glass/conformance/internal/manifest"
	"github.com/glassworks/glass/conformance/internal/pagewatch"
	"github.com/glassworks/glass/conformance/internal/report"
	"github.com/glassworks/glass/conformance/internal/secrets"
	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/internal/pagejs"
	"github.com/glassworks/glass/receipt"
)

// ErrSetup wraps failures that stop a run before any rule is checked: the
// page cannot be opened, has no runtime, or speaks another protocol.
var ErrSetup = errors.New("conformance: set-up failed")

// setupError is a set-up failure with the cause a person can act on.
type setupError struct {
	url   string
	cause string
}

// Error shows the cause as receipt.PrintableText does, bounded: it may
// quote the page (a message its runtime threw), which bounds it in the page
// only as far as the page lets it.
func (e *setupError) Error() string {
	return receipt.PrintableText(fmt.Sprintf("conformance: %s: %s", e.url, report.Clip(e.cause, report.MaxMessageBytes)))
}

func (e *setupError) Unwrap() error { return ErrSetup }

// Config is what the probes of a run need of its options.
type Config struct {
	// Manifest names what the probes cannot derive from the page; never
	// nil (an empty manifest is zero-config).
	Manifest *manifest.Manifest
	// Transports are those the run checks over.
	Transports []glasstest.Transport
	// CallTimeout bounds each call a probe makes.
	CallTimeout time.Duration
	// Ahead is how many memoized probes may be computed ahead of the check
	// that will ask for them (see Session.prefetch); 0 computes each one
	// when a check first asks for it.
	Ahead int
	// PageOptions are given to every page the run opens, after the run's
	// own (the mutation matrix passes its host mutants this way).
	PageOptions []glasstest.PageOption
	// Pool keeps the pages the run's probes close, the set-up's page
	// included; nil: the session keeps its own and closes it with the
	// session. The mutation matrix's runs share one.
	Pool *glasstest.PagePool
	// SelfChanging, when not nil, is what the page changes by itself,
	// known ahead, in place of the run's own watch (Probe.SelfChanging).
	SelfChanging *[]any
}

// Session is what the probes of one run share: the page's first snapshot
// and every receipt the run has seen.
type Session struct {
	url      string
	browser  *glasstest.Browser
	cfg      Config
	base     *receipt.Snapshot
	runtime  string
	protocol string
	warnings []string
	global   GlobalFacts
	// invalidSnapshot says why the page's snapshot did not decode, if it
	// did not.
	invalidSnapshot string
	// neverReady says why the runtime never became ready, if it did not.
	neverReady string
	// unavailable says why a transport cannot reach the runtime.
	unavailable map[glasstest.Transport]string
	// pool keeps the pages probes closed for the next probe's open: a
	// page navigated again, its origin's storage cleared, costs less than
	// half a new context and page (glasstest.PagePool).
	pool *glasstest.PagePool
	// spares are pages left as they loaded but for reads and refused
	// calls, one per transport, for the next refusal with no page options
	// of its own: the set-up's page (over the run's first transport), then
	// a refusal's page its call left unchanged. One page load less for
	// each (see takeSpare, giveSpare).
	spares map[glasstest.Transport]*glasstest.Page

	mu    sync.Mutex
	pages int
	seen  []Seen
	memos map[string]*memoEntry
	// stalled names the actions a call of which ended at the call bound
	// (Stalled).
	stalled map[string]bool
	// openStalls counts the opens in a row that ended at the open bound,
	// openStalled all of them; shortened: a later open was bounded
	// shorter (OpenStalled).
	openStalls, openStalled int
	shortened               bool
	// unfinished finishes, per transport, the walks checks left part-made
	// (see Probe.FinishWalks).
	unfinished map[glasstest.Transport]map[string]func()
	// secrets are the probes' sensitive values, kept out of findings.
	secrets secrets.Set

	// ahead bounds the memoized probes computed ahead of the check that
	// will ask for them (see prefetch); background waits for them.
	ahead      chan struct{}
	background sync.WaitGroup
	// ending is set once every check of the run has its verdict: a probe
	// computed ahead that has not started by then never starts.
	ending atomic.Bool
}

// memoEntry is one result the probes of a run share: a refusal, an
// exercised call. Each is computed once, by whichever check needs it
// first, so the verdicts do not depend on the order checks run in.
type memoEntry struct {
	once sync.Once
	v    any
	err  error
}

func (s *Session) memo(key string, fn func() (any, error)) (any, error) {
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

// memoOwn is memo for a result made on pages of its own: fn gets a probe
// that belongs to no check, closed once fn returns. A shared result
// belongs to no single check, and one computed ahead (prefetch) can
// outlive the check that started it, whose pages close when it ends: a
// page closed under it would fail every check that shares it.
func (p *Probe) memoOwn(key string, fn func(q *Probe) (any, error)) (any, error) {
	return p.s.memo(key, func() (any, error) {
		q := &Probe{s: p.s, Transport: p.Transport}
		defer q.Close()
		return fn(q)
	})
}

// Unfinished records that a check stopped walking a probe's calls before
// the last (at a violation, where it needs no more), and how to make the
// rest: FinishWalks makes them. One finish per key.
func (p *Probe) Unfinished(key string, finish func()) {
	p.s.mu.Lock()
	defer p.s.mu.Unlock()
	if p.s.unfinished == nil {
		p.s.unfinished = map[glasstest.Transport]map[string]func(){}
	}
	if p.s.unfinished[p.Transport] == nil {
		p.s.unfinished[p.Transport] = map[string]func(){}
	}
	p.s.unfinished[p.Transport][key] = finish
}

// FinishWalks makes the calls of every walk over p's transport a check
// left part-made. An audit judges every receipt the run saw: with the
// walks finished first, that is every receipt of every probe the run
// started, whichever check stopped early.
func (p *Probe) FinishWalks() {
	p.s.mu.Lock()
	fns := p.s.unfinished[p.Transport]
	delete(p.s.unfinished, p.Transport)
	p.s.mu.Unlock()
	for _, k := range slices.Sorted(maps.Keys(fns)) {
		fns[k]()
	}
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
func (s *Session) prefetch(fns ...func()) {
	if s.ahead == nil {
		return
	}
	for _, fn := range fns {
		s.background.Add(1)
		go func() {
			defer s.background.Done()
			s.ahead <- struct{}{}
			defer func() { <-s.ahead }()
			if s.ending.Load() {
				return
			}
			fn()
		}()
	}
}

// Seen is one receipt of the run and the declared action it reached.
type Seen struct {
	Receipt   *receipt.Receipt
	Action    receipt.ActionInfo
	Declared  bool
	Transport glasstest.Transport
	What      string
	// ByRuntime is true when the page runtime wrote the receipt, false
	// when the harness wrote it (a failure of its own, or a WebMCP call it
	// could not make).
	ByRuntime bool
	// Page tells the pages of the run apart: execution ids are distinct
	// for every call on a page.
	Page int
	// Issued is the executionId the harness passed when the runtime's
	// receipt carries another one.
	Issued string
	// Tickets are the tickets of the approvals the host had given on the
	// receipt's page when it came back, each with the executionId of the
	// request it answered (policy.ticket).
	Tickets map[string]string
}

// Sent reports whether the runtime sent what the receipt stands for:
// its own receipt, or an answer the harness refused as not a receipt.
func (sn Seen) Sent() bool {
	switch sn.Receipt.Code() {
	case receipt.CodeReceiptInvalid, receipt.CodeProtocolMismatch:
		return true
	}
	return sn.ByRuntime
}

// NewSession opens the page at url once, in b (nil: glasstest.Shared()),
// to learn what it declares. Every failure is a set-up error (ErrSetup)
// with one clear cause.
func NewSession(url string, b *glasstest.Browser, cfg Config) (*Session, error) {
	if b == nil {
		var err error
		if b, err = glasstest.Shared(); err != nil {
			return nil, &setupError{url: url, cause: FirstLine(err.Error())}
		}
	}
	s := &Session{url: url, browser: b, cfg: cfg, memos: map[string]*memoEntry{}, pool: cfg.Pool}
	if s.pool == nil {
		s.pool = glasstest.NewPagePool()
	}
	if cfg.Ahead > 0 {
		s.ahead = make(chan struct{}, cfg.Ahead)
	}
	if err := s.setup(); err != nil {
		s.closePool()
		return nil, err
	}
	if s.base != nil && s.ahead != nil {
		// What the page changes by itself, watched while the first checks
		// start.
		s.background.Add(1)
		go func() { defer s.background.Done(); s.Probe(glasstest.TransportBridge).SelfChanging() }()
	}
	return s, nil
}

// closePool closes the session's pool, unless the run was given it.
func (s *Session) closePool() {
	if s.cfg.Pool == nil {
		_ = s.pool.Close()
	}
}

// setup opens the page once to learn what it declares. Every failure here
// is a set-up error with one clear cause.
func (s *Session) setup() error {
	// The set-up's page is opened as a probe's page over the first
	// transport would be, so that a probe can take it (takeSpare); not
	// with the host the run was given (the mutation matrix's broken
	// ones), which the set-up does not use.
	opts := []glasstest.PageOption{glasstest.Timeout(s.cfg.CallTimeout), glasstest.Reuse(s.pool)}
	spare := len(s.cfg.PageOptions) == 0 && len(s.cfg.Transports) > 0
	if spare {
		opts = append(opts, glasstest.Via(s.cfg.Transports[0]))
	}
	p, err := glasstest.OpenPage(s.browser, s.url, opts...)
	if err != nil {
		cause := openCause(err)
		if s.neverReadyAfter(cause) {
			s.neverReady = cause
			return nil
		}
		return &setupError{url: s.url, cause: cause}
	}
	defer func() {
		if p != nil { // not kept as the spare
			_ = p.Close()
		}
	}()
	v, err := p.Evaluate(pagewatch.Identify, nil)
	if err != nil {
		return &setupError{url: s.url, cause: "cannot inspect the page: " + FirstLine(err.Error())}
	}
	text, _ := v.(string)
	if err := json.Unmarshal([]byte(text), &s.global); err != nil {
		return &setupError{url: s.url, cause: "cannot inspect the page: " + err.Error()}
	}
	if !s.global.Present {
		return &setupError{url: s.url, cause: "the page has no Glass runtime (globalThis.glassRuntime is not defined)"}
	}
	s.protocol, s.runtime = s.global.Protocol, s.global.Runtime
	if s.protocol != receipt.Protocol {
		return &setupError{url: s.url, cause: fmt.Sprintf("the page runtime speaks protocol %q; this build checks %q", s.protocol, receipt.Protocol)}
	}
	snap, err := p.TrySnapshot()
	if errors.Is(err, receipt.ErrInvalid) {
		// A snapshot of the wrong shape is the runtime's violation of
		// protocol.snapshot, not a set-up error: that rule fails, and the
		// rules whose probes derive from the snapshot are not probed.
		s.invalidSnapshot = FirstLine(err.Error())
		return nil
	}
	if err != nil {
		return &setupError{url: s.url, cause: "cannot read the page model: " + FirstLine(err.Error())}
	}
	s.base = snap
	// What the runtime says is wrong with the page's declarations, once
	// the snapshot has read them all (the report's warnings).
	if v, err := p.Evaluate(pagejs.WarningsScript, pagejs.WarningsArg); err == nil {
		s.warnings = pagejs.DecodeWarnings(v)
	}
	s.checkTransports(p)
	if spare {
		s.giveSpare(s.cfg.Transports[0], p)
		p = nil
	}
	return nil
}

// takeSpare gives the spare page over tr, if there is one, to a probe
// that opens the page with no options of its own and reads it before
// anything else (openRead).
func (s *Session) takeSpare(tr glasstest.Transport) *glasstest.Page {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.spares[tr]
	delete(s.spares, tr)
	return g
}

// giveSpare keeps g as the spare page over tr, or closes it when there is
// one already or the run's checks all have their verdicts.
func (s *Session) giveSpare(tr glasstest.Transport, g *glasstest.Page) {
	s.mu.Lock()
	keep := s.spares[tr] == nil && !s.ending.Load()
	if keep {
		if s.spares == nil {
			s.spares = map[glasstest.Transport]*glasstest.Page{}
		}
		s.spares[tr] = g
	}
	s.mu.Unlock()
	if !keep {
		_ = g.Close()
	}
}

// closeSpare closes the spare pages no probe took.
func (s *Session) closeSpare() {
	s.mu.Lock()
	spares := s.spares
	s.spares = nil
	s.mu.Unlock()
	for _, g := range spares {
		_ = g.Close()
	}
}

// openCause turns a Playwright navigation error into its first line,
// without the call log.
func openCause(err error) string {
	msg := FirstLine(err.Error())
	if strings.Contains(msg, "wait for the page runtime") {
		return neverReadyCause
	}
	if i := strings.Index(msg, "net::"); i >= 0 {
		return "cannot load the page: " + strings.TrimSpace(msg[i:])
	}
	return "cannot open the page: " + msg
}

// FirstLine is s up to its first line break.
func FirstLine(s string) string { return pagejs.FirstLine(s) }

func (s *Session) pageNumber() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pages++
	return s.pages
}

func (s *Session) record(sn Seen) {
	s.mu.Lock()
	s.seen = append(s.seen, sn)
	s.mu.Unlock()
}

// seenReceipts is every receipt of the run over tr ("": any transport).
func (s *Session) seenReceipts(tr glasstest.Transport) []Seen {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Seen
	for _, sn := range s.seen {
		if sn.Transport == tr || tr == "" {
			out = append(out, sn)
		}
	}
	return out
}

// GlobalFacts is what the setup learnt about the runtime's global.
type GlobalFacts struct {
	Present   bool              `json:"present"`
	Protocol  string            `json:"protocol"`
	Runtime   string            `json:"runtime"`
	Frozen    bool              `json:"frozen"`
	Writable  bool              `json:"writable"`
	Functions map[string]string `json:"functions"`
}

// Runtime is what the page's runtime says it is.
func (s *Session) Runtime() string { return s.runtime }

// Protocol is the protocol the page's runtime says it speaks.
func (s *Session) Protocol() string { return s.protocol }

// Warnings are the runtime's warnings about the page's declarations, read
// at the set-up (glassRuntime.warnings(), when the runtime has it).
func (s *Session) Warnings() []string { return s.warnings }

// InvalidSnapshot says why the page's snapshot did not decode, or "".
func (s *Session) InvalidSnapshot() string { return s.invalidSnapshot }

// Wait ends the run's probes computed ahead that no check asked for (a
// check stopped at its first violation): those not started never start,
// and Wait waits for those running, so that nothing of a run outlives it.
// A mutant caught at its first violation does not pay for the rest of the
// exercise. Call it only once every check has its verdict.
func (s *Session) Wait() {
	s.ending.Store(true)
	s.background.Wait()
}

// Hide replaces every sensitive value the probes passed in f's message and
// evidence (see secrets.Set).
func (s *Session) Hide(f report.Finding) report.Finding { return s.secrets.Hide(f) }

// Probe is a check's view of the run over transport tr; the check closes
// it when it is done.
func (s *Session) Probe(tr glasstest.Transport) *Probe { return &Probe{s: s, Transport: tr} }

// Detached is a session on a snapshot already known, with no page and no
// browser: enough for what a check plans from the snapshot and the
// manifest alone, as the checks' unit tests do. No probe of it may open a
// page.
func Detached(base *receipt.Snapshot, cfg Config) *Session {
	return &Session{base: base, cfg: cfg, memos: map[string]*memoEntry{}}
}
