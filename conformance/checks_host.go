package conformance

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/glassworks/glass/fixtures/faults"
	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/internal/hostfault"
	"github.com/glassworks/glass/receipt"
)

// Checks of the host rules. The host is Glass's own harness (glasstest),
// the agent runtime around the page in every run; its verdicts are only
// as good as the host is. Most host rules are about how the host meets a
// page that misbehaves, which the page under test does not (one hopes), so
// those checks run the host against Glass's own fault fixtures
// (fixtures/faults), served on loopback for the run: they judge the host
// that produced the run's verdicts, not the page. host.folded-rows is
// checked against the page under test itself, which declares the rows.
//
// The fault fixtures' runtime registers no WebMCP tools and is reached
// over the bridge; the host rules that need a fixture runtime to answer a
// call are therefore probed in the bridge pass only.
func init() {
	checks["host.folded-rows"] = check{run: checkHostFoldedRows}
	checks["host.channels-first"] = check{run: checkHostChannelsFirst}
	checks["host.ticket-binding"] = check{run: bridgeOnly(checkHostTicketBinding)}
	checks["host.throw-is-execution-failed"] = check{run: bridgeOnly(checkHostThrow)}
	checks["host.transport"] = check{run: bridgeOnly(checkHostTransport)}
	checks["host.browser-effect"] = check{run: bridgeOnly(checkHostBrowserEffect)}
}

// hostFixturesNote says, in every host check's evidence, what was judged.
const hostFixturesNote = "judged: the Glass host (glasstest) against Glass's own fault fixtures, not the page under test"

// bridgeOnly runs a host check on the fault fixtures in the bridge pass
// only.
func bridgeOnly(run func(*probe) outcome) func(*probe) outcome {
	return func(p *probe) outcome {
		if p.transport != glasstest.TransportBridge {
			return notProbed("a host rule probed on Glass's fault fixtures, whose runtime is reached over the bridge; see the bridge finding (run with --transport bridge or both)")
		}
		return run(p)
	}
}

// withHostFault makes every page the run opens break one host guarantee
// (a host mutant of the mutation matrix). It is unexported: only the
// package's own tests break the host.
func withHostFault(f hostfault.Fault) Option {
	return func(c *config) error {
		c.hostFaults = append(c.hostFaults, f)
		return nil
	}
}

// hostOptions are the glasstest options of the host faults the run was
// given (none outside the mutation matrix).
func (s *session) hostOptions() []glasstest.Option {
	var out []glasstest.Option
	for _, f := range s.cfg.hostFaults {
		if o, ok := hostfault.Option(f).(glasstest.Option); ok {
			out = append(out, o)
		}
	}
	return out
}

// fixtureServer serves the fault fixtures on loopback for one run.
type fixtureServer struct {
	url string
	srv *http.Server
}

// fixtures starts the run's fixture server on first use.
func (s *session) fixtures() (string, error) {
	v, err := s.memo("fixture-server", func() (any, error) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("serve the fault fixtures: %w", err)
		}
		srv := &http.Server{Handler: faults.Handler(), ReadHeaderTimeout: 10 * time.Second}
		go func() { _ = srv.Serve(ln) }()
		return &fixtureServer{url: "http://" + ln.Addr().String(), srv: srv}, nil
	})
	if err != nil {
		return "", err
	}
	return v.(*fixtureServer).url, nil
}

// close stops what the run started for its probes.
func (s *session) close() {
	s.mu.Lock()
	e := s.memos["fixture-server"]
	s.mu.Unlock()
	if e == nil {
		return
	}
	e.once.Do(func() {}) // wait for a start in progress
	if fs, ok := e.v.(*fixtureServer); ok {
		_ = fs.srv.Close()
	}
}

// openFixture opens a fault fixture page, bridge, with the run's host
// faults. The page is closed with the probe; its receipts are not the
// page under test's and are not recorded in the run.
func (p *probe) openFixture(name string, opts ...glasstest.Option) (*glasstest.Page, error) {
	base, err := p.s.fixtures()
	if err != nil {
		return nil, err
	}
	all := append([]glasstest.Option{glasstest.Timeout(p.s.cfg.callTimeout)}, p.s.hostOptions()...)
	g, err := glasstest.OpenPage(p.s.browser, base+"/"+name, append(all, opts...)...)
	if err != nil {
		return nil, err
	}
	p.pages = append(p.pages, g)
	return g, nil
}

// hostFailure is one fault fixture and the failure the host must report.
type hostFailure struct {
	page    string
	what    string
	code    receipt.Code
	timeout time.Duration
	before  func(*glasstest.Page) error
	during  func(*glasstest.Page)
}

// judgeHostFailures makes one call on each fixture and checks the host's
// receipt: the code, the code's phase in the envelope, started as the code
// table gives it, and an answer within the call's bound.
func (p *probe) judgeHostFailures(fs []hostFailure) outcome {
	var judged []string
	for _, f := range fs {
		timeout := f.timeout
		if timeout == 0 {
			timeout = p.s.cfg.callTimeout
		}
		g, err := p.openFixture(f.page, glasstest.Timeout(timeout))
		if err != nil {
			return broken(err)
		}
		if f.before != nil {
			if err := f.before(g); err != nil {
				return broken(err)
			}
		}
		if f.during != nil {
			go f.during(g)
		}
		start := time.Now()
		r := g.Do("act", nil)
		took := time.Since(start)
		want := fmt.Sprintf("want %s at phase %s with started %s", f.code, f.code.Phase(), f.code.Started())
		switch {
		case r.Code() != f.code || r.FailurePhase() != f.code.Phase():
			return failf("%s: %s, the host reported %s", f.what, want, got(r)).with(receiptEvidence("host receipt", r), textEvidence("what was judged", hostFixturesNote))
		case r.Result.Error.Started != f.code.Started():
			return failf("%s: %s, the host reported started %q", f.what, want, r.Result.Error.Started).with(receiptEvidence("host receipt", r))
		case took > timeout+hostSlack:
			return failf("%s: the host answered after %s, past the call's bound of %s", f.what, took.Round(time.Millisecond), timeout).with(receiptEvidence("host receipt", r))
		}
		judged = append(judged, fmt.Sprintf("%s (%s) → %s", f.what, f.page, f.code))
	}
	return pass().with(textEvidence("fixtures judged", judged...), textEvidence("what was judged", hostFixturesNote))
}

// hostSlack is what a host call may take past its bound on a loaded
// machine: classifying the page's fate, scheduling.
const hostSlack = 5 * time.Second

// hostTimeout is the bound of the calls to a runtime that never answers.
const hostTimeout = 1500 * time.Millisecond

func checkHostTransport(p *probe) outcome {
	return p.judgeHostFailures([]hostFailure{
		{page: "runtime-missing.html", what: "a page with no runtime", code: receipt.CodeRuntimeMissing},
		{page: "protocol-mismatch.html", what: "a runtime of another protocol version", code: receipt.CodeProtocolMismatch},
		{page: "never-answers.html", what: "a runtime that never answers", code: receipt.CodeCallTimeout, timeout: hostTimeout},
		{page: "not-json.html", what: "a runtime that answers text that is not a receipt", code: receipt.CodeReceiptInvalid},
		{page: "wrong-shape.html", what: "a runtime that answers JSON that is not a receipt", code: receipt.CodeReceiptInvalid},
	})
}

func checkHostThrow(p *probe) outcome {
	return p.judgeHostFailures([]hostFailure{
		{page: "throws.html", what: "an execute that throws", code: receipt.CodeExecutionFailed},
		{page: "rejects.html", what: "an execute that rejects", code: receipt.CodeExecutionFailed},
	})
}

func checkHostBrowserEffect(p *probe) outcome {
	return p.judgeHostFailures([]hostFailure{
		{page: "crash.html", what: "a page that crashes mid-call", code: receipt.CodePageCrashed, during: crashInFlight},
		{page: "closes-itself.html", what: "a page that closes itself mid-call", code: receipt.CodePageClosed, before: closableByScript},
		{page: "navigates-away.html", what: "a page that navigates away mid-call", code: receipt.CodePageNavigated},
	})
}

// crashInFlight waits until the fixture runtime is inside execute and then
// crashes the renderer (the call's own bound ends the wait if it never
// gets there).
func crashInFlight(g *glasstest.Page) {
	deadline := time.Now().Add(hostSlack + DefaultCallTimeout)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for range tick.C {
		n, err := g.Evaluate("globalThis.glassFaultCalls || 0", nil)
		if err != nil || time.Now().After(deadline) {
			return
		}
		if f, ok := number(n); ok && f >= 1 {
			break
		}
	}
	s, err := g.Playwright().Context().NewCDPSession(g.Playwright())
	if err != nil {
		return
	}
	// Page.crash never answers: the renderer it would answer from is gone.
	_, _ = s.Send("Page.crash", nil)
}

// closableByScript lets the fixture's script close its window: Chromium
// allows it for a window with one history entry, and a page Playwright
// opened has two (about:blank first).
func closableByScript(g *glasstest.Page) error {
	s, err := g.Playwright().Context().NewCDPSession(g.Playwright())
	if err != nil {
		return err
	}
	_, err = s.Send("Page.resetNavigationHistory", nil)
	return err
}

// checkHostTicketBinding runs the self-approval fixture with a host that
// approves everything it may: the runtime's proper request must be
// approved with a fresh ticket, and a request through the raw binding, one
// for an execution the host has not in flight, and one for another action
// must be denied; the runtime's claim of an approval with a ticket of its
// own must not survive VerifyConfirmations.
func checkHostTicketBinding(p *probe) outcome {
	g, err := p.openFixture("self-approval.html", glasstest.Approve())
	if err != nil {
		return broken(err)
	}
	tickets := map[string]bool{}
	for call := 1; call <= 2; call++ {
		before := len(g.Confirmations())
		r := g.Do("wipe", nil)
		asked := g.Confirmations()[before:]
		ev := []Evidence{confirmationEvidence(asked), textEvidence("what was judged", hostFixturesNote)}
		if len(asked) != 4 {
			return failf("the fixture asked the host 4 times, the host recorded %d requests", len(asked)).with(ev...)
		}
		proper := asked[0]
		if !proper.Approved || proper.Ticket == "" {
			return failf("the host did not approve the runtime's proper request for its own call (approved %t, ticket %q)", proper.Approved, proper.Ticket).with(ev...)
		}
		if tickets[proper.Ticket] {
			return failf("the host answered two requests with the same ticket %q: a ticket must be fresh", proper.Ticket).with(ev...)
		}
		tickets[proper.Ticket] = true
		for i, what := range []string{"a request through the raw host binding", "a request for an execution the host has not in flight", "a request of the call's execution for another action"} {
			if c := asked[i+1]; c.Approved || c.Ticket != "" {
				return failf("the host approved %s (ticket %q)", what, c.Ticket).with(ev...)
			}
		}
		if err := g.VerifyConfirmations(r); err == nil || !strings.Contains(err.Error(), "tk_selfmade") {
			return failf("the runtime claimed an approval with a ticket of its own, and the host's VerifyConfirmations did not catch it").
				with(receiptEvidence("receipt", r), textEvidence("VerifyConfirmations", fmt.Sprint(err)))
		}
	}
	return pass().with(textEvidence("what was judged", hostFixturesNote))
}

// hostSeen is what the fixture page's first script saw of glassHost.
type hostSeen struct {
	Present      bool   `json:"present"`
	Frozen       bool   `json:"frozen"`
	Writable     bool   `json:"writable"`
	Configurable bool   `json:"configurable"`
	Confirm      bool   `json:"confirm"`
	Handoff      bool   `json:"handoff"`
	Protocol     string `json:"protocol"`
	Replaced     bool   `json:"replaced"`
}

// checkHostChannelsFirst opens the fixture page that inspects glassHost
// from its first script, once with a confirmation channel and once
// without.
func checkHostChannelsFirst(p *probe) outcome {
	var judged []string
	for _, withChannel := range []bool{true, false} {
		policy := glasstest.Approve()
		if !withChannel {
			policy = glasstest.NoConfirmationChannel()
		}
		g, err := p.openFixture("inspects-host.html", policy)
		if err != nil {
			return broken(err)
		}
		v, err := g.Evaluate("JSON.stringify(globalThis.glassHostSeen || null)", nil)
		if err != nil {
			return broken(err)
		}
		text, _ := v.(string)
		var seen *hostSeen
		if err := json.Unmarshal([]byte(text), &seen); err != nil || seen == nil {
			return broken(errors.New("the fixture page did not record what it saw of glassHost"))
		}
		ev := []Evidence{textEvidence("glassHost as the page's first script saw it", text), textEvidence("what was judged", hostFixturesNote)}
		switch {
		case !seen.Present:
			return failf("the page's first script found no globalThis.glassHost: the host installed its channels after page scripts ran").with(ev...)
		case !seen.Frozen || seen.Writable || seen.Configurable:
			return failf("globalThis.glassHost is frozen %t, writable %t, configurable %t: want frozen, not writable, not configurable", seen.Frozen, seen.Writable, seen.Configurable).with(ev...)
		case seen.Replaced:
			return failf("a page script replaced globalThis.glassHost").with(ev...)
		case seen.Protocol != receipt.Protocol:
			return failf("glassHost.protocol is %q, want %q", seen.Protocol, receipt.Protocol).with(ev...)
		case !seen.Handoff:
			return failf("glassHost has no handoff channel").with(ev...)
		case withChannel && !seen.Confirm:
			return failf("the host has a confirmation channel, but glassHost has no confirm").with(ev...)
		case !withChannel && seen.Confirm:
			return failf("the host has no confirmation channel, but glassHost has a confirm").with(ev...)
		}
		judged = append(judged, map[bool]string{true: "with a confirmation channel", false: "without one"}[withChannel])
	}
	return pass().with(textEvidence("host configurations judged", judged...), textEvidence("what was judged", hostFixturesNote))
}

// checkHostFoldedRows calls a per-row action of the page under test the way
// a model does, as its tool name with a record argument: the host must
// run the declared action of that record (the last row, so that a host
// that picks any row is caught), and pass the other arguments on
// unchanged (the folded call with an extra argument ends as the declared
// call with it does).
func checkHostFoldedRows(p *probe) outcome {
	var row receipt.ActionInfo
	rows := 0
	for _, a := range p.base().Actions.Items {
		if a.Record == "" || a.Tool == "" {
			continue
		}
		if row.ID == "" || a.Tool == row.Tool {
			row = a
			rows++
		}
	}
	if rows < 2 {
		return notProbed("the page declares no tool with two or more per-row actions (ids of the form name@record)")
	}
	// Each call on a fresh page, denied: a call that runs must not change
	// what the next one finds.
	call := func(id string, args map[string]any) (*receipt.Receipt, error) {
		pg, err := p.open("", glasstest.Deny())
		if err != nil {
			return nil, err
		}
		return pg.do(id, args), nil
	}
	r, err := call(row.Tool, map[string]any{"record": row.Record})
	if err != nil {
		return broken(err)
	}
	if r.Result.Action.ID != row.ID {
		return failf("the folded call %s with record %q ran %q, want the declared action %s", row.Tool, row.Record, r.Result.Action.ID, row.ID).
			with(receiptEvidence("receipt", r))
	}
	probeArg := []any{1, "two"}
	folded, err := call(row.Tool, map[string]any{"record": row.Record, "glassProbe": probeArg})
	if err != nil {
		return broken(err)
	}
	direct, err := call(row.ID, map[string]any{"glassProbe": probeArg})
	if err != nil {
		return broken(err)
	}
	if folded.Code() != direct.Code() || folded.Result.Action.ID != direct.Result.Action.ID || errorPath(folded) != errorPath(direct) {
		return failf("the folded call %s with record %q and an extra argument ended %s, the declared call %s with the same argument %s: the host did not pass the other arguments on unchanged",
			row.Tool, row.Record, got(folded), row.ID, got(direct)).with(receiptEvidence("folded call", folded), receiptEvidence("declared call", direct))
	}
	return pass().with(textEvidence("folded calls", fmt.Sprintf("%s {record: %q} → %s", row.Tool, row.Record, row.ID)))
}

func errorPath(r *receipt.Receipt) string {
	if r.Result.Error == nil {
		return ""
	}
	return r.Result.Error.Path
}

// number reads a number Playwright returned (int or float64).
func number(v any) (float64, bool) {
	switch n := v.(type) {
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	case float64:
		return n, true
	}
	return 0, false
}
