package calls

import (
	"fmt"
	"strings"

	"github.com/glassworks/glass/conformance/internal/judge"
	"github.com/glassworks/glass/conformance/internal/probe"
	"github.com/glassworks/glass/conformance/internal/report"
	"github.com/glassworks/glass/glasstest"
)

// revisionWalk judges envelope.revision over many changes on one page:
// the exercise's calls (those without a secret) made one after another on
// one approved page, a snapshot after each. Each call of the exercise
// starts on a fresh page, so it sees one change from the page's first
// model; a revision that tells models apart without growing (a hash of
// the model, say) may still go up on that one change. Over a walk of
// changes it must never go down, and must grow whenever the snapshot's
// model differs from the one before. A step whose page identity changed
// (the call navigated) starts the walk again. It returns the first
// violation, or nil with how many steps changed the model.
func revisionWalk(p *probe.Probe) (*probe.Outcome, int) {
	plan, _ := p.ExercisePlan()
	pg, err := p.Open("", glasstest.Approve())
	if err != nil {
		o := probe.Broken(err)
		return &o, 0
	}
	prev, err := pg.Snapshot()
	if err != nil {
		o := probe.Broken(err)
		return &o, 0
	}
	var walked []string
	changes := 0
	for _, pl := range plan {
		if pl.Secret != "" {
			continue
		}
		r := pg.Do(pl.Action.ID, pl.Args)
		snap, err := pg.Snapshot()
		if err != nil {
			break // the page went away: what was walked stands
		}
		step := fmt.Sprintf("%s (%s): revision %d → %d", pl.Action.ID, report.OutcomeCode(r), prev.Revision, snap.Revision)
		walked = append(walked, step)
		if snap.Page != prev.Page {
			prev = snap
			continue
		}
		d := judge.ModelDiff(prev, snap)
		changed := len(d) > 0 && !(len(d) == 1 && strings.HasPrefix(d[0], "revision "))
		switch {
		case snap.Revision < prev.Revision:
			o := probe.Failf("on one page, after %d calls, %s: the revision went down", len(walked), step).
				With(report.TextEvidence("calls on the page, in order", walked...), report.ReceiptEvidence("receipt", r))
			return &o, changes
		case changed && snap.Revision <= prev.Revision:
			o := probe.Failf("on one page, after %d calls, %s: the page model changed (%s), but the revision did not grow", len(walked), step, d[0]).
				With(report.TextEvidence("calls on the page, in order", walked...), report.ReceiptEvidence("receipt", r))
			return &o, changes
		}
		if changed {
			changes++
		}
		prev = snap
	}
	return nil, changes
}
