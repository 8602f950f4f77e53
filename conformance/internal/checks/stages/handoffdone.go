package stages

import (
	"slices"

	"github.com/glassworks/glass/conformance/internal/probe"
	"github.com/glassworks/glass/conformance/internal/report"
)

// completedUntouched judges handoff.request on the answer "completed":
// the host says the user finished the step, but in the probe the user did
// nothing, so a runtime that does not simulate the user's input leaves the
// page as it was — also once told the step is done, when a runtime that
// presses the control the instructions name for the user would change it.
// The call is the one handoff.outcome makes (shared). Nil when the page was
// left alone, or when no hand-off is answered completed.
func completedUntouched(p *probe.Probe, hs []handoffTarget) *probe.Outcome {
	for _, h := range hs {
		if !slices.Contains(h.outcomes, "completed") {
			continue
		}
		c, err := handoff(p, h, "completed")
		if err != nil {
			o := probe.Broken(err)
			return &o
		}
		if d := probe.Unchanged(c.Before, c.After, c.DOMWitness); len(d) > 0 {
			o := probe.Failf("%s: the host answered completed, but the user did nothing in the probe, and the page changed: the runtime acted for the user: %s", h.where(), d[0]).
				With(report.ReceiptEvidence("receipt", c.Receipt), handoffEvidence(c.handoffs), report.TextEvidence("what changed", d...), probe.WitnessNote(c.DOMWitness))
			return &o
		}
	}
	return nil
}
