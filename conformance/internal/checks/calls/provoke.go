package calls

import (
	"github.com/glassworks/glass/conformance/internal/checks/stages"
	"github.com/glassworks/glass/conformance/internal/probe"
	"github.com/glassworks/glass/conformance/internal/refusal"
)

// provokeFailures makes, before an audit of failed receipts judges them,
// every failing call the suite knows how to make on the page: every
// refusal the snapshot allows, the manifest's failure scenarios
// (expectationFailures, executionFailures, flowFailures, reveals that
// leave their target hidden) and every hand-off answered every way a user
// can without doing the step. So an audit run alone judges each code the
// page can be made to give — EXPECTATION_FAILED, EXECUTION_FAILED,
// HANDOFF_CANCELLED and the rest — not only the two cheapest refusals. The
// calls are those their own checks make, once per run and transport: in a
// whole run they cost nothing more. A call that could not be made is its
// own check's to report.
//
// stop is asked after each call (or group of calls of one probe): when it
// reports true, the audit has what it needs (its first violation) and no
// further call is made.
func provokeFailures(p *probe.Probe, stop func() bool) {
	p.RefuseAhead(refusal.Refusals...)
	for _, rf := range refusal.Refusals {
		p.Refuse(rf)
		if stop() {
			return
		}
	}
	m := p.Manifest()
	for _, sc := range m.ExpectationFailures {
		p.Scenario(sc, "expectationFailures")
		if stop() {
			return
		}
	}
	for _, sc := range m.ExecutionFailures {
		p.Scenario(sc, "executionFailures")
		if stop() {
			return
		}
	}
	for _, sc := range m.Reveals {
		_, _ = p.Reveal(sc)
		if stop() {
			return
		}
	}
	stages.ProvokeFailures(p, stop)
}
