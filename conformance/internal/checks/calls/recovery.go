package calls

import (
	"encoding/json"
	"fmt"

	"github.com/glassworks/glass/conformance/internal/probe"
	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

// maxRefusedEach bounds the calls of refuseEachAction.
const maxRefusedEach = 30

// refuseEachAction makes, once per run and transport, on one page whose
// confirmations are denied, a call of every available action (at most
// maxRefusedEach) that fails before it starts: arguments that are not
// JSON over the bridge, arguments that break the action's params over
// WebMCP (a tool's input is always an object). None passes
// options.retry, so whatever the page declares of the action —
// idempotent or not — each failure must carry recoveryStrategy none: the
// safe-retry strategy is reserved for a retry policy the caller selects
// (CONTRACT.md §2.10), and a runtime that reports it unasked for the
// actions it knows to be idempotent is caught on those. The receipts are
// recorded in the run for the audits.
func refuseEachAction(p *probe.Probe) {
	_, _ = p.Memo(fmt.Sprintf("%s|refuseEachAction", p.Transport), func() (any, error) {
		pg, err := p.Open("", glasstest.Deny())
		if err != nil {
			return nil, err
		}
		defer pg.Close()
		n := 0
		for _, a := range p.Candidates() {
			if n == maxRefusedEach {
				break
			}
			args, ok := argsFailingBeforeStart(p, a)
			if !ok {
				continue
			}
			pg.Do(a.ID, args)
			n++
		}
		return nil, nil
	})
}

// argsFailingBeforeStart is arguments a's call must refuse before it
// starts: text that is not JSON over the bridge; over WebMCP, whose tool
// input is always a JSON object, arguments that break a's params (false
// when its params cannot be broken).
func argsFailingBeforeStart(p *probe.Probe, a receipt.ActionInfo) (any, bool) {
	if p.Transport == glasstest.TransportBridge {
		return json.RawMessage(`{"unterminated`), true
	}
	broken, _, ok := p.BrokenArgs(a)
	return broken, ok
}
