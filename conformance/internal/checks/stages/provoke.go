package stages

import "github.com/glassworks/glass/conformance/internal/probe"

// ProvokeFailures makes, once per run and transport, the failing calls of
// this package that the audits of failed receipts must see even when they
// run alone: every hand-off answered every way a user can without doing
// the step (HANDOFF_CANCELLED, HANDOFF_TIMEOUT, HANDOFF_FAILED) and the
// manifest's flowFailures (an entry whose step fails on every call resumed
// too: the resume fails again). The calls are the ones the hand-off and flow
// checks make (shared, not repeated); their receipts are recorded in the
// run like any other. What a call could not do is left to its own check.
// stop is asked after each call: when it reports true, no further call is
// made (the audit asking has its violation).
func ProvokeFailures(p *probe.Probe, stop func() bool) {
	if Handoffs(p, stop) {
		return
	}
	for i, sc := range p.Manifest().FlowFailures {
		_, _ = flowFailure(p, i)
		if stop() {
			return
		}
		if !sc.Resume {
			_, _ = resumedAgain(p, i)
			if stop() {
				return
			}
		}
	}
}

// Handoffs makes, once per run and transport, the calls handoff.outcome
// makes of every hand-off, each answered every way a user can without
// doing the step (completed among them: a hand-off that declares no check
// then succeeds). It reports whether stop asked it to stop.
func Handoffs(p *probe.Probe, stop func() bool) bool {
	hs, _ := handoffTargets(p)
	for _, h := range hs {
		for _, answer := range h.outcomes {
			_, _ = handoff(p, h, answer)
			if stop() {
				return true
			}
		}
	}
	return false
}
