package engine

import (
	"fmt"

	"github.com/glassworks/glass/conformance/internal/probe"
	"github.com/glassworks/glass/conformance/internal/report"
	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

// callFindings walks the run's exercise over every transport it can use —
// each available action called once with valid arguments, approved,
// shared with the checks that made the calls already — and returns the
// calls that should have worked and did not (report.CallFinding). A call
// that fails as it should is none: a step of a flow called alone runs in
// whatever state the page is in, and an action only a flow may run fails
// by the contract. A walk that cannot finish is a note; a page with no
// model to walk, or whose runtime answers no call (probe.Probe.Silent),
// is not walked (uncheckable says why).
func callFindings(s *probe.Session, transports []glasstest.Transport) (out []report.CallFinding, notes []string, uncheckable string) {
	walked := false
	if len(transports) > 0 && s.Probe(transports[0]).Base() == nil {
		// The runtime never became ready, or its snapshot did not decode:
		// there are no declared actions to call (protocol.ready or
		// protocol.snapshot fails).
		why := s.NeverReady()
		if why == "" {
			why = "the page's snapshot is not a valid snapshot: " + s.InvalidSnapshot()
		}
		return nil, nil, "no action was called: " + why
	}
	for _, tr := range transports {
		if s.TransportUnavailable(tr) != "" {
			continue
		}
		p := s.Probe(tr)
		if why := p.Silent(); why != "" {
			// No call of the walk would be answered either.
			uncheckable = "no action was called: " + why
			p.Close()
			continue
		}
		walked = true
		steps := map[string]bool{}
		for _, a := range p.Base().Actions.Items {
			for _, id := range a.Steps {
				steps[id] = true
			}
		}
		err := p.Each(probe.AnyAction, func(e *probe.Exercised) bool {
			a, r := e.Action, e.Receipt
			if r == nil || r.Result.OK || a.StepOnly || steps[a.ID] {
				return true
			}
			c := report.CallFinding{Action: a.ID, Transport: tr, Kind: report.CallFailed,
				Approved: a.Confirm || a.Risk == receipt.RiskDangerous, Code: string(r.Code()), Phase: string(r.Phase)}
			if r.Result.Error != nil {
				c.Message = r.Result.Error.Message
			}
			if r.Code() == receipt.CodeActionUnavailable && r.Phase == receipt.PhaseTargetResolution {
				c.Kind = report.CallUnusable
			}
			// The page's message may quote a probe's secret.
			c.Message = report.Clip(s.Hide(report.Finding{Message: c.Message}).Message, report.MaxMessageBytes)
			out = append(out, c)
			return true
		})
		p.Close()
		if err != nil {
			notes = append(notes, fmt.Sprintf("%s: the calls of the available actions could not all be made, so the findings may be incomplete: %v", tr, err))
		}
	}
	if walked {
		uncheckable = ""
	}
	return out, notes, uncheckable
}
