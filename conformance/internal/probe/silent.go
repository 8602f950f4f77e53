package probe

import (
	"fmt"
	"time"

	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

// A page cannot hang the suite (SECURITY.md). Once silentCalls calls of a
// run over one transport all ended at the host's call bound
// (CALL_TIMEOUT), with no answer from the runtime before them, the run
// takes the runtime as one that never answers: the rules not yet checked
// are not probed (engine.Check), and the calls of the probes already
// running are bounded at silentTimeout, long enough for a runtime that
// does answer to be seen answering. Once stallCalls calls ended at the
// bound, answers between them or not (a runtime that answers each page's
// first call and stalls on the later ones), later calls are bounded at
// stallTimeout: a second per stalled call, not a bound per call.
const (
	silentCalls   = 6                      // not a contract bound
	silentTimeout = 250 * time.Millisecond // not a contract bound
	stallCalls    = 6                      // not a contract bound
	stallTimeout  = 1 * time.Second        // not a contract bound
)

// timeouts counts the calls over p's transport that ended at the call
// bound, and says whether the runtime answered any call.
func (p *Probe) timeouts() (n int, answered bool) {
	for _, sn := range p.SeenReceipts() {
		answered = answered || sn.ByRuntime
		if sn.Receipt != nil && sn.Receipt.Code() == receipt.CodeCallTimeout {
			n++
		}
	}
	return n, answered
}

// Silent says why the runtime is taken as never answering over p's
// transport, or "" while it has answered a call or too few calls ended at
// the bound to tell.
func (p *Probe) Silent() string {
	if n, answered := p.timeouts(); n >= silentCalls && !answered {
		return fmt.Sprintf("the runtime answered none of the run's %d calls over this transport within the call bound of %v (each ended CALL_TIMEOUT)", n, p.CallTimeout())
	}
	return ""
}

// Stalled says, once stallCalls calls of the run ended at the call bound
// (over any transport, raw calls too), that later calls are bounded at
// stallTimeout (a report note); "" before.
func (p *Probe) Stalled() string {
	n := int(p.s.rawTimeouts.Load())
	for _, sn := range p.s.seenReceipts("") {
		if sn.Receipt != nil && sn.Receipt.Code() == receipt.CodeCallTimeout {
			n++
		}
	}
	if n >= stallCalls && p.CallTimeout() > stallTimeout {
		return fmt.Sprintf("%d calls ended CALL_TIMEOUT at the call bound of %v: the runtime stalls, and each call after the %dth was bounded at %v", n, p.CallTimeout(), stallCalls, stallTimeout)
	}
	return ""
}

// callOptions are opts, with the call bound shortened once the runtime is
// taken as silent or stalling (callBound).
func (p *Probe) callOptions(opts []glasstest.CallOption) []glasstest.CallOption {
	if b := p.callBound(); b < p.CallTimeout() {
		return append(opts[:len(opts):len(opts)], glasstest.Timeout(b))
	}
	return opts
}

func (p *Probe) callBound() time.Duration {
	switch {
	case p.Silent() != "":
		return silentTimeout
	case p.Stalled() != "":
		return stallTimeout
	}
	return p.CallTimeout()
}
