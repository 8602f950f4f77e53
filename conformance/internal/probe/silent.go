package probe

import (
	"fmt"
	"time"

	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

// silentCalls is how many calls of a run over one transport must all end
// at the host's call bound (CALL_TIMEOUT), with no answer from the runtime
// before them, for the run to take the runtime as one that never answers:
// the rules not yet checked are then not probed (engine.Check), and the
// calls of the probes already running wait silentTimeout, not the bound,
// instead of each waiting out the same bound again (SECURITY.md: a page
// cannot hang the suite).
const silentCalls = 6 // not a contract bound

// silentTimeout bounds a call once the runtime is taken as silent: long
// enough for a runtime that does answer to be seen answering.
const silentTimeout = 250 * time.Millisecond // not a contract bound

// Silent says why the runtime is taken as never answering over p's
// transport, or "" while it has answered a call or too few calls ended at
// the bound to tell.
func (p *Probe) Silent() string {
	n := 0
	for _, sn := range p.SeenReceipts() {
		switch {
		case sn.ByRuntime:
			return ""
		case sn.Receipt != nil && sn.Receipt.Code() == receipt.CodeCallTimeout:
			n++
		}
	}
	if n < silentCalls {
		return ""
	}
	return fmt.Sprintf("the runtime answered none of the run's %d calls over this transport within the call bound of %v (each ended CALL_TIMEOUT)", n, p.CallTimeout())
}

// callOptions are opts, with the call bound shortened once the runtime is
// taken as silent.
func (p *Probe) callOptions(opts []glasstest.CallOption) []glasstest.CallOption {
	if p.Silent() == "" {
		return opts
	}
	return append(opts[:len(opts):len(opts)], glasstest.Timeout(silentTimeout))
}
