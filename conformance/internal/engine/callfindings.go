package engine

import (
	"errors"
	"fmt"
	"strings"

	"github.com/glassworks/glass/conformance/internal/judge"
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
// by the contract. A call that loaded a new document is a finding
// (PAGE_NAVIGATED). A walk that cannot finish leaves the calls unchecked
// (uncheckable says why, and so does a note beside the findings it found);
// a page with no model to walk, or whose runtime answers no call
// (probe.Probe.Silent), is not walked (uncheckable says why).
func callFindings(s *probe.Session, transports []glasstest.Transport) (out []report.CallFinding, notes []string, uncheckable string) {
	walked := false
	var incomplete, late []string
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
			if pr := lateChange(e); pr != "" {
				late = append(late, fmt.Sprintf("%s over %s: %s", receipt.PrintableID(a.ID), tr, pr))
			}
			if r == nil || (r.Result.OK && len(e.Cancelled) == 0) || a.StepOnly || steps[a.ID] {
				return true
			}
			c := report.CallFinding{Action: a.ID, Transport: tr, Kind: report.CallFailed,
				Approved: a.Confirm || a.Risk == receipt.RiskDangerous, Code: string(r.Code()), Phase: string(r.Phase)}
			if r.Result.Error != nil {
				c.Message = r.Result.Error.Message
			}
			switch {
			case r.Result.OK:
				c.Kind, c.Code, c.Phase = report.CallCancelled, "", ""
			case r.Code() == receipt.CodeActionUnavailable && r.Phase == receipt.PhaseTargetResolution:
				c.Kind = report.CallUnusable
			}
			// The page's texts may quote a probe's secret.
			c.Message = report.Clip(s.Hide(report.Finding{Message: c.Message}).Message, report.MaxMessageBytes)
			if len(e.Cancelled) > 0 {
				c.Cancelled = report.Clip(s.Hide(report.Finding{Message: e.Cancelled[0]}).Message, report.MaxMessageBytes)
			}
			out = append(out, c)
			return true
		})
		// A call that loaded a new document gave the walk no receipt of
		// the runtime's (Each leaves it out): it is a call that should have
		// worked and did not, with the host's PAGE_NAVIGATED.
		calls, _ := p.ExercisePlan()
		for _, pl := range calls {
			if pl.Action.StepOnly || steps[pl.Action.ID] {
				continue
			}
			var nav *probe.NavigatedError
			if _, cerr := p.Call(pl); errors.As(cerr, &nav) {
				out = append(out, report.CallFinding{Action: pl.Action.ID, Transport: tr, Kind: report.CallFailed,
					Approved: pl.Action.Confirm || pl.Action.Risk == receipt.RiskDangerous,
					Code:     string(receipt.CodePageNavigated), Phase: string(receipt.CodePageNavigated.Phase()),
					Message: "the call loaded a new document (a form submitted or a link followed), so the runtime could write no receipt: an action must end on the page it was called on (docs/troubleshooting.md)"})
			}
		}
		if unbuilt := p.Unbuilt(); len(unbuilt) > 0 {
			// Not called, so not known to work: name them under args in
			// the manifest.
			incomplete = append(incomplete, fmt.Sprintf("%s: %d available actions were not called, their arguments could not be built (name them under args in the manifest): %s",
				tr, len(unbuilt), strings.Join(unbuilt[:min(len(unbuilt), 3)], "; ")))
		}
		p.Close()
		if err != nil {
			incomplete = append(incomplete, fmt.Sprintf("%s: %v", tr, err))
		}
	}
	if walked {
		uncheckable = ""
	}
	if len(late) > 0 {
		notes = append(notes, "the page model changed after a read's receipt was final ("+report.Clip(strings.Join(late, "; "), 300)+
			"): the receipt did not show it; a handler that defers its work with a timer or a request the runtime is not told about (a debounced input) needs track() or an expect (docs/runtime.md, Work the page finishes later)")
	}
	if len(incomplete) > 0 && uncheckable == "" {
		// Not "every call succeeded": some were never made. The run does
		// not pass --strict, and says why: after the findings it found, or
		// in their place.
		uncheckable = "the calls of the available actions could not all be made, so the findings may be incomplete: " + strings.Join(incomplete, "; ")
		if len(out) > 0 {
			notes = append(notes, uncheckable)
		}
	}
	return out, notes, uncheckable
}

// lateChange says how a successful read's receipt misses what the page
// settled on once quiet (the harness's wait, longer than the runtime's),
// where it showed the page as the call left it: work the handler deferred.
// A write is verify.settle's; a page that changes by itself is not judged.
func lateChange(e *probe.Exercised) string {
	r := e.Receipt
	if r == nil || !r.Result.OK || probe.IsWrite(e.Action) || e.Settled == nil || !e.DOMWitness || e.After == nil {
		return ""
	}
	if judge.ChangesProblem(r, e.Before.Snap, e.After.Snap) != "" {
		return ""
	}
	return judge.ChangesProblem(r, e.Before.Snap, e.Settled.Snap)
}
