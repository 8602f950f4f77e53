package calls

import (
	"fmt"

	"github.com/glassworks/glass/conformance/internal/probe"
	"github.com/glassworks/glass/conformance/internal/report"
	"github.com/glassworks/glass/receipt"
)

// beforeDispatchMore judges pipeline.no-effect-before-dispatch beyond the
// refusals: the denied call of one action of each confirmation class (a
// flow denied must not have run any step, step-only ones included), and
// the manifest's reveals that leave their target hidden, whose
// ACTION_UNAVAILABLE comes from stage 5, before dispatch, whatever the
// reveal did: started no. It returns the first violation, or what it
// judged.
func beforeDispatchMore(p *probe.Probe) (*probe.Outcome, []string) {
	var judged []string
	cs, err := classCalls(p, true)
	if err != nil {
		o := probe.Broken(err)
		return &o, nil
	}
	for _, c := range cs {
		r := c.Receipt
		if r.Result.OK || r.Code().Started() != receipt.StartedNo {
			continue // policy.denied judges the code
		}
		ev := report.ReceiptEvidence("receipt", r)
		if r.Result.Error.Started != receipt.StartedNo {
			o := probe.Failf("%s failed with %s before stage 6, but reports started %q, want %q", c.class, r.Code(), r.Result.Error.Started, receipt.StartedNo).With(ev)
			return &o, nil
		}
		if d := probe.Unchanged(c.Before, c.After, c.DOMWitness); len(d) > 0 {
			o := probe.Failf("%s ended with %s, but the page changed: %s", c.class, r.Code(), d[0]).
				With(ev, report.TextEvidence("what changed", d...), probe.WitnessNote(c.DOMWitness),
					report.SnapshotEvidence("snapshot before the call", c.Before.Snap), report.SnapshotEvidence("snapshot after the call", c.After.Snap))
			return &o, nil
		}
		judged = append(judged, c.class)
	}
	for _, sc := range p.Manifest().Reveals {
		if sc.Outcome != "hidden" {
			continue
		}
		e, err := p.Reveal(sc)
		if err != nil {
			o := probe.Broken(err)
			return &o, nil
		}
		r := e.Receipt
		if r.Code() != receipt.CodeActionUnavailable {
			continue // reveal.second-check judges the code
		}
		where := sc.Action
		if sc.URL != "" {
			where += " at " + sc.URL
		}
		if r.Result.Error.Started != receipt.StartedNo {
			o := probe.Failf("%s (manifest reveals, target left hidden) failed with ACTION_UNAVAILABLE at stage 5, but reports started %q, want %q: revealing a target is not dispatching the action",
				where, r.Result.Error.Started, receipt.StartedNo).With(report.ReceiptEvidence("receipt", r))
			return &o, nil
		}
		judged = append(judged, fmt.Sprintf("%s, its target left hidden by its reveal", where))
	}
	return nil, judged
}
