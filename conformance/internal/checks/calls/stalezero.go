package calls

import (
	"fmt"

	"github.com/glassworks/glass/conformance/internal/params"
	"github.com/glassworks/glass/conformance/internal/probe"
	"github.com/glassworks/glass/conformance/internal/report"
	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

// staleZero judges envelope.stale-revision on expectedRevision 0, once the
// page has moved past it: 0 is a revision like any other, so a guard that
// tests the option's truthiness instead of its presence lets the call
// through. The stale-revision probe asks for 0 only on a page already past
// it (its calls are all refusals, which change nothing); this moves the
// page first, with a successful call of the exercise whose receipt moved
// the revision, then calls the undeclared id guarded by 0 on the same
// page: want STALE_REVISION with expectedRevision 0 and the page's
// revision. It returns what it judged, or why it could not.
func staleZero(p *probe.Probe) (probe.Outcome, string) {
	var mover *probe.Exercised
	err := p.Each(probe.AnyAction, func(e *probe.Exercised) bool {
		if rv := e.Receipt.Revision; e.Receipt.Result.OK && rv != nil && rv.After > rv.Before && !probe.NeedsConfirmation(e.Action) {
			mover = e
			return false
		}
		return true
	})
	if err != nil {
		return probe.Broken(err), ""
	}
	if mover == nil {
		return probe.Pass(), "expectedRevision 0 once the page moved past it: no call of the exercise that needs no confirmation moved the revision"
	}
	unknown, why := probe.PlanUnknown(p)
	if unknown == nil {
		return probe.Pass(), "expectedRevision 0 once the page moved past it: " + why
	}
	opts := []glasstest.PageOption{glasstest.Deny()}
	if mover.Secret != "" {
		opts = append(opts, glasstest.Sensitive(params.SensitiveRef, mover.Secret))
	}
	pg, err := p.Open("", opts...)
	if err != nil {
		return probe.Broken(err), ""
	}
	if first := pg.Do(mover.Action.ID, mover.Args); !first.Result.OK {
		return probe.Pass(), fmt.Sprintf("expectedRevision 0 once the page moved past it: %s did not succeed again on a fresh page (%s)", mover.Action.ID, report.Got(first))
	}
	snap, err := pg.Snapshot()
	if err != nil {
		return probe.Broken(err), ""
	}
	if snap.Revision == 0 {
		return probe.Pass(), fmt.Sprintf("expectedRevision 0 once the page moved past it: the snapshot after %s is still at revision 0", mover.Action.ID)
	}
	what := fmt.Sprintf("expectedRevision 0 on a call of the undeclared id %s, after %s moved the page to revision %d", unknown.Undeclared, mover.Action.ID, snap.Revision)
	r, err := pg.Raw(unknown.Undeclared, map[string]any{}, map[string]any{"executionId": "glass-probe-stale-zero", "expectedRevision": 0}, snap)
	if err != nil {
		return probe.Pass(), what + ": " + probe.FirstLine(err.Error())
	}
	ev := report.ReceiptEvidence("receipt", r)
	if r.Code() != receipt.CodeStaleRevision || r.FailurePhase() != receipt.PhasePreflight {
		return probe.Failf("%s: want STALE_REVISION at phase preflight (0 is a revision like any other, and the page is past it), %s", what, report.Got(r)).With(ev), ""
	}
	if pr := staleFieldsProblem(r, 0, snap.Revision); pr != "" {
		return probe.Failf("%s: %s", what, pr).With(ev), ""
	}
	return probe.Pass(), ""
}
