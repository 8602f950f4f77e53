package page

import (
	"github.com/glassworks/glass/conformance/internal/probe"
	"github.com/glassworks/glass/conformance/internal/report"
	"github.com/glassworks/glass/receipt"
)

// stepsRunOnce judges envelope.no-auto-retry on a flow's call: each entry
// of the receipt's step ledger that ran (ok or failed) is one run of its
// step's handler, so a handler the page counts may run at most as many
// times as the ledger lists its action as run. A runtime that runs a
// failed step once more before it stops (or goes on) lists it once and
// ran it twice. Nil when no counted step ran more often, or r has no
// ledger.
func stepsRunOnce(action string, r *receipt.Receipt, before, after map[string]float64) *probe.Outcome {
	ran := map[string]float64{}
	for _, s := range r.Result.Steps {
		if s.Outcome == receipt.StepOK || s.Outcome == receipt.StepFailed {
			ran[s.ID]++
		}
	}
	for id, listed := range ran {
		if id == action {
			continue // the call's own action: judged by the caller
		}
		if _, counted := after[id]; !counted {
			continue
		}
		if n := after[id] - before[id]; n > listed {
			o := probe.Failf("one call of %s (%s) ran the handler of its step %s %v times, but its step ledger lists that step run %v time(s): the runtime ran the step again on its own", action, report.OutcomeCode(r), id, n, listed).
				With(report.ReceiptEvidence("receipt", r))
			return &o
		}
	}
	return nil
}
