package host

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"strings"
	"time"

	"github.com/glassworks/glass/conformance/internal/params"
	"github.com/glassworks/glass/conformance/internal/probe"
	"github.com/glassworks/glass/conformance/internal/report"
	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

// hostFixturesNote says, in every host check's evidence, what was judged.
const hostFixturesNote = "judged: the Glass host (glasstest) against Glass's own fault fixtures, not the page under test"

// BridgeOnly runs a host check on the fault fixtures in the bridge pass
// only.
func BridgeOnly(run func(*probe.Probe) probe.Outcome) func(*probe.Probe) probe.Outcome {
	return func(p *probe.Probe) probe.Outcome {
		if p.Transport != glasstest.TransportBridge {
			return probe.NotProbed("a host rule probed on Glass's fault fixtures, whose runtime is reached over the bridge: its verdict is the bridge finding (a run over the bridge, the default, has one)")
		}
		return run(p)
	}
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
func judgeHostFailures(p *probe.Probe, fs []hostFailure) probe.Outcome {
	var judged []string
	for _, f := range fs {
		timeout := f.timeout
		if timeout == 0 {
			timeout = p.CallTimeout()
		}
		g, err := p.OpenFixture(f.page, glasstest.Timeout(timeout))
		if err != nil {
			return probe.Broken(err)
		}
		if f.before != nil {
			if err := f.before(g); err != nil {
				return probe.Broken(err)
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
			return probe.Failf("%s: %s, the host reported %s", f.what, want, report.Got(r)).With(report.ReceiptEvidence("host receipt", r), report.TextEvidence("what was judged", hostFixturesNote))
		case r.Result.Error.Started != f.code.Started():
			return probe.Failf("%s: %s, the host reported started %q", f.what, want, r.Result.Error.Started).With(report.ReceiptEvidence("host receipt", r))
		case took > timeout+hostSlack:
			return probe.Failf("%s: the host answered after %s, past the call's bound of %s", f.what, took.Round(time.Millisecond), timeout).With(report.ReceiptEvidence("host receipt", r))
		}
		judged = append(judged, fmt.Sprintf("%s (%s) → %s", f.what, f.page, f.code))
	}
	return probe.Pass().With(report.TextEvidence("fixtures judged", judged...), report.TextEvidence("what was judged", hostFixturesNote))
}

// hostSlack is what a host call may take past its bound on a loaded
// machine: classifying the page's fate, scheduling.
const hostSlack = 5 * time.Second

// hostTimeout is the bound of the calls to a runtime that never answers.
const hostTimeout = 1500 * time.Millisecond

func Transport(p *probe.Probe) probe.Outcome {
	return judgeHostFailures(p, []hostFailure{
		{page: "runtime-missing.html", what: "a page with no runtime", code: receipt.CodeRuntimeMissing},
		{page: "protocol-mismatch.html", what: "a runtime of another protocol version", code: receipt.CodeProtocolMismatch},
		{page: "never-answers.html", what: "a runtime that never answers", code: receipt.CodeCallTimeout, timeout: hostTimeout},
		{page: "not-json.html", what: "a runtime that answers text that is not a receipt", code: receipt.CodeReceiptInvalid},
		{page: "wrong-shape.html", what: "a runtime that answers JSON that is not a receipt", code: receipt.CodeReceiptInvalid},
	})
}

func ThrowIsExecutionFailed(p *probe.Probe) probe.Outcome {
	return judgeHostFailures(p, []hostFailure{
		{page: "throws.html", what: "an execute that throws", code: receipt.CodeExecutionFailed},
		{page: "rejects.html", what: "an execute that rejects", code: receipt.CodeExecutionFailed},
	})
}

func BrowserEffect(p *probe.Probe) probe.Outcome {
	return judgeHostFailures(p, []hostFailure{
		{page: "crash.html", what: "a page that crashes mid-call", code: receipt.CodePageCrashed, during: crashInFlight},
		{page: "closes-itself.html", what: "a page that closes itself mid-call", code: receipt.CodePageClosed, before: closableByScript},
		{page: "navigates-away.html", what: "a page that navigates away mid-call", code: receipt.CodePageNavigated},
	})
}

// crashInFlight waits until the fixture runtime is inside execute and then
// crashes the renderer (the call's own bound ends the wait if it never
// gets there).
func crashInFlight(g *glasstest.Page) {
	deadline := time.Now().Add(hostSlack + glasstest.DefaultTimeout)
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

// TicketBinding runs the self-approval fixture with a host that
// approves everything it may: the runtime's proper request must be
// approved with a fresh ticket, and a request through the raw binding, one
// for an execution the host has not in flight, and one for another action
// must be denied; the runtime's claim of an approval with a ticket of its
// own must not survive VerifyConfirmations.
func TicketBinding(p *probe.Probe) probe.Outcome {
	g, err := p.OpenFixture("self-approval.html", glasstest.Approve())
	if err != nil {
		return probe.Broken(err)
	}
	tickets := map[string]bool{}
	for call := 1; call <= 2; call++ {
		before := len(g.Confirmations())
		r := g.Do("wipe", nil)
		asked := g.Confirmations()[before:]
		ev := []report.Evidence{report.ConfirmationEvidence(asked), report.TextEvidence("what was judged", hostFixturesNote)}
		if len(asked) != 4 {
			return probe.Failf("the fixture asked the host 4 times, the host recorded %d requests", len(asked)).With(ev...)
		}
		proper := asked[0]
		if !proper.Approved || proper.Ticket == "" {
			return probe.Failf("the host did not approve the runtime's proper request for its own call (approved %t, ticket %q)", proper.Approved, proper.Ticket).With(ev...)
		}
		if tickets[proper.Ticket] {
			return probe.Failf("the host answered two requests with the same ticket %q: a ticket must be fresh", proper.Ticket).With(ev...)
		}
		tickets[proper.Ticket] = true
		for i, what := range []string{"a request through the raw host binding", "a request for an execution the host has not in flight", "a request of the call's execution for another action"} {
			if c := asked[i+1]; c.Approved || c.Ticket != "" {
				return probe.Failf("the host approved %s (ticket %q)", what, c.Ticket).With(ev...)
			}
		}
		if err := g.VerifyConfirmations(r); err == nil || !strings.Contains(err.Error(), "tk_selfmade") {
			return probe.Failf("the runtime claimed an approval with a ticket of its own, and the host's VerifyConfirmations did not catch it").
				With(report.ReceiptEvidence("receipt", r), report.TextEvidence("VerifyConfirmations", fmt.Sprint(err)))
		}
	}
	return probe.Pass().With(report.TextEvidence("what was judged", hostFixturesNote))
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

// ChannelsFirst opens the fixture page that inspects glassHost
// from its first script, once with a confirmation channel and once
// without.
func ChannelsFirst(p *probe.Probe) probe.Outcome {
	var judged []string
	for _, withChannel := range []bool{true, false} {
		policy := glasstest.Approve()
		if !withChannel {
			policy = glasstest.NoConfirmationChannel()
		}
		g, err := p.OpenFixture("inspects-host.html", policy)
		if err != nil {
			return probe.Broken(err)
		}
		v, err := g.Evaluate("JSON.stringify(globalThis.glassHostSeen || null)", nil)
		if err != nil {
			return probe.Broken(err)
		}
		text, _ := v.(string)
		var seen *hostSeen
		if err := json.Unmarshal([]byte(text), &seen); err != nil || seen == nil {
			return probe.Broken(errors.New("the fixture page did not record what it saw of glassHost"))
		}
		ev := []report.Evidence{report.TextEvidence("glassHost as the page's first script saw it", text), report.TextEvidence("what was judged", hostFixturesNote)}
		switch {
		case !seen.Present:
			return probe.Failf("the page's first script found no globalThis.glassHost: the host installed its channels after page scripts ran").With(ev...)
		case !seen.Frozen || seen.Writable || seen.Configurable:
			return probe.Failf("globalThis.glassHost is frozen %t, writable %t, configurable %t: want frozen, not writable, not configurable", seen.Frozen, seen.Writable, seen.Configurable).With(ev...)
		case seen.Replaced:
			return probe.Failf("a page script replaced globalThis.glassHost").With(ev...)
		case seen.Protocol != receipt.Protocol:
			return probe.Failf("glassHost.protocol is %q, want %q", seen.Protocol, receipt.Protocol).With(ev...)
		case !seen.Handoff:
			return probe.Failf("glassHost has no handoff channel").With(ev...)
		case withChannel && !seen.Confirm:
			return probe.Failf("the host has a confirmation channel, but glassHost has no confirm").With(ev...)
		case !withChannel && seen.Confirm:
			return probe.Failf("the host has no confirmation channel, but glassHost has a confirm").With(ev...)
		}
		judged = append(judged, map[bool]string{true: "with a confirmation channel", false: "without one"}[withChannel])
	}
	return probe.Pass().With(report.TextEvidence("host configurations judged", judged...), report.TextEvidence("what was judged", hostFixturesNote))
}

// FoldedRows calls a per-row action of the page under test the way
// a model does, as its tool name with a record argument: the host must
// run the declared action of that record (the last row, so that a host
// that picks any row is caught), and pass the other arguments on
// unchanged (the folded call with an extra argument ends as the declared
// call with it does).
func FoldedRows(p *probe.Probe) probe.Outcome {
	var row receipt.ActionInfo
	rows := 0
	for _, a := range p.Base().Actions.Items {
		if a.Record == "" || a.Tool == "" {
			continue
		}
		if row.ID == "" || a.Tool == row.Tool {
			row = a
			rows++
		}
	}
	if rows < 2 {
		return probe.NotProbed("the page declares no tool with two or more per-row actions (ids of the form name@record)")
	}
	// Each call on a fresh page, denied: a call that runs must not change
	// what the next one finds.
	call := func(id string, args map[string]any) (*receipt.Receipt, error) {
		pg, err := p.Open("", glasstest.Deny())
		if err != nil {
			return nil, err
		}
		defer pg.Close()
		return pg.Do(id, args), nil
	}
	r, err := call(row.Tool, map[string]any{"record": row.Record})
	if err != nil {
		return probe.Broken(err)
	}
	if r.Result.Action.ID != row.ID {
		return probe.Failf("the folded call %s with record %q ran %q, want the declared action %s", row.Tool, row.Record, r.Result.Action.ID, row.ID).
			With(report.ReceiptEvidence("receipt", r))
	}
	// A row action whose params require a member or forbid undeclared
	// ones, called folded with arguments its params accept, must get them
	// as they are: a host that drops or alters them makes it fail
	// validation.
	judged := []string{fmt.Sprintf("%s {record: %q} → %s", row.Tool, row.Record, row.ID)}
	if withArgs, ok := params.RowTakingArgs(p.Base()); ok {
		if args, err := p.ValidArgs(withArgs, ""); err == nil && len(args) > 0 {
			input := map[string]any{"record": withArgs.Record}
			maps.Copy(input, args)
			b, _ := json.Marshal(input)
			r, err := call(withArgs.Tool, input)
			switch {
			case err != nil:
				return probe.Broken(err)
			case r.Result.Action.ID != withArgs.ID:
				return probe.Failf("the folded call %s %s ran %q, want the declared action %s", withArgs.Tool, b, r.Result.Action.ID, withArgs.ID).
					With(report.ReceiptEvidence("receipt", r))
			case r.Code() == receipt.CodeInvalidParams || r.Code() == receipt.CodeInvalidArgs:
				return probe.Failf("the folded call %s %s failed %s: the host did not pass the arguments other than record on unchanged to %s, whose params accept them", withArgs.Tool, b, r.Code(), withArgs.ID).
					With(report.ReceiptEvidence("receipt", r))
			}
			judged = append(judged, fmt.Sprintf("%s %s → %s, its arguments accepted", withArgs.Tool, b, withArgs.ID))
		}
	}
	// The extra argument can only change what the runtime decides before
	// it dispatches (resolution, validation, policy): there the two calls
	// must end alike, code and path. After dispatch their endings also
	// depend on the page's own timing (a save through a slow server can
	// outlast the expectation's timeout), so a difference there counts
	// only when a second pair of calls repeats it.
	probeArg := []any{1, "two"}
	var folded, direct *receipt.Receipt
	for attempt := 0; attempt < 2; attempt++ {
		if folded, err = call(row.Tool, map[string]any{"record": row.Record, "glassProbe": probeArg}); err != nil {
			return probe.Broken(err)
		}
		if direct, err = call(row.ID, map[string]any{"glassProbe": probeArg}); err != nil {
			return probe.Broken(err)
		}
		same := folded.Result.Action.ID == direct.Result.Action.ID && beforeDispatch(folded) == beforeDispatch(direct)
		if same && folded.Code() == direct.Code() {
			break
		}
		if same && attempt == 0 {
			continue
		}
		return probe.Failf("the folded call %s with record %q and an extra argument ended %s, the declared call %s with the same argument %s: the host did not pass the other arguments on unchanged",
			row.Tool, row.Record, report.Got(folded), row.ID, report.Got(direct)).With(report.ReceiptEvidence("folded call", folded), report.ReceiptEvidence("declared call", direct))
	}
	judged = append(judged, fmt.Sprintf("%s {record: %q, glassProbe: [1, \"two\"]} ended as %s with it", row.Tool, row.Record, row.ID))
	return probe.Pass().With(report.TextEvidence("folded calls", judged...))
}

// beforeDispatch is how r ended before its action was dispatched: its
// code and error path when it failed there, else "dispatched".
func beforeDispatch(r *receipt.Receipt) string {
	if r == nil {
		return "no receipt"
	}
	if r.Result.OK || r.Result.Error == nil || r.Result.Error.Started != receipt.StartedNo {
		return "dispatched"
	}
	return string(r.Code()) + " " + errorPath(r)
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
