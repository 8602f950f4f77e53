package stages

import (
	"fmt"

	"github.com/glassworks/glass/conformance/internal/probe"
)

// flowAskedOnce judges policy.flow-highest-risk on the exercise's approved
// flow calls: a flow is confirmed once, before its first step, and a step
// asks again only when its risk is higher than what that confirmation
// covered (CONTRACT.md §2.4). A re-ask at a risk no higher than the
// flow's own request asked twice for what the user already approved. Nil
// when no call did, with the calls judged.
func flowAskedOnce(p *probe.Probe) (*probe.Outcome, []string) {
	var judged []string
	o, _ := p.JudgeEach(isFlow, func(e *probe.Exercised) (bool, string) {
		var covered *int
		var flowRisk string
		for _, c := range e.Confirmations {
			rank := riskRank(c.Request.Risk)
			if c.Request.Step == "" {
				if covered != nil {
					return true, "the flow asked for its own confirmation twice: a flow is confirmed once, before its first step"
				}
				covered, flowRisk = &rank, string(c.Request.Risk)
				continue
			}
			if covered != nil && rank <= *covered {
				return true, fmt.Sprintf("the flow was confirmed at risk %q, then its step %s asked again at risk %q, which that confirmation covered: a step asks again only when it is riskier",
					flowRisk, c.Request.Step, c.Request.Risk)
			}
		}
		if covered != nil {
			judged = append(judged, fmt.Sprintf("%s: approved, asked %d times", e.Action.ID, len(e.Confirmations)))
		}
		return true, ""
	})
	return o, judged
}
