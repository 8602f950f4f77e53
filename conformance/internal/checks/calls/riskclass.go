package calls

import (
	"fmt"

	"github.com/glassworks/glass/conformance/internal/probe"
	"github.com/glassworks/glass/conformance/internal/report"
	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

// riskClass names the confirmation class of a for policy.risk-classes:
// whether the runtime must ask, and why.
func riskClass(a receipt.ActionInfo) string {
	switch {
	case a.Kind == receipt.KindFlow:
		return "flow"
	case a.Risk == receipt.RiskDangerous:
		return "dangerous"
	case a.Confirm:
		return string(a.Risk) + " with confirm"
	}
	return string(a.Risk)
}

// everyRiskClass judges policy.risk-classes on one action of each class
// the snapshot declares that the exercise did not reach (it calls at most
// probe.MaxExercised tools, so on a large page a whole class — a write
// that declares confirm, say — may be left out): an approved call on a
// fresh page, asked exactly once when the action needs confirmation and
// never otherwise. done holds the classes the exercise judged. Nil when
// every call was asked as it must be, with what was judged.
func everyRiskClass(p *probe.Probe, done map[string]bool) (*probe.Outcome, []string) {
	var judged []string
	for _, a := range p.Candidates() {
		class := riskClass(a)
		if done[class] || p.Manifest().Skips(a.ID) {
			continue
		}
		args, err := p.ValidArgs(a, "")
		if err != nil || probe.UsesSecret(args) {
			continue
		}
		done[class] = true
		v, err := p.Memo(fmt.Sprintf("%s|riskClass|%s", p.Transport, a.ID), func() (any, error) {
			q := p.Sibling(p.Transport)
			defer q.Close()
			pg, err := q.Open("", glasstest.Approve())
			if err != nil {
				return nil, err
			}
			r := pg.Do(a.ID, args)
			return classAsked{r, pg.Harness.Confirmations()}, nil
		})
		if err != nil {
			o := probe.Broken(err)
			return &o, nil
		}
		c := v.(classAsked)
		asked := 0
		for _, x := range c.asked {
			if x.Request.Step == "" {
				asked++
			}
		}
		switch need := probe.NeedsConfirmation(a); {
		case need && asked != 1:
			o := probe.Failf("%s (%s): the action is %s (confirm %t) and the runtime asked for confirmation %d times, want once", a.ID, class, a.Risk, a.Confirm, asked).
				With(report.ReceiptEvidence("receipt", c.r), report.ConfirmationEvidence(c.asked))
			return &o, nil
		case !need && asked != 0:
			o := probe.Failf("%s (%s): the action is %s and declares no confirmation, but the runtime asked %d times", a.ID, class, a.Risk, asked).
				With(report.ReceiptEvidence("receipt", c.r), report.ConfirmationEvidence(c.asked))
			return &o, nil
		}
		judged = append(judged, fmt.Sprintf("%s (%s): asked %d time(s)", a.ID, class, asked))
	}
	return nil, judged
}

type classAsked struct {
	r     *receipt.Receipt
	asked []glasstest.ConfirmationRecord
}
