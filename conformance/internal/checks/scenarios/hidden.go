package scenarios

import (
	"cmp"
	"fmt"

	"github.com/glassworks/glass/conformance/internal/manifest"
	"github.com/glassworks/glass/conformance/internal/probe"
	"github.com/glassworks/glass/conformance/internal/report"
	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

// DeniedWhereHidden (pipeline.stage-order) calls, with the host denying,
// an element action that needs confirmation on the page of a manifest
// reveal that leaves its target hidden: the reveal's own action where it
// needs confirmation there, else another on the first such page. The
// target is judged at stage 5, after stage 4's confirmation, so the call
// is a denial (an outside audit's runtime refused what it could not show
// before it asked). Nil and "" when no such reveal and action are
// declared.
func DeniedWhereHidden(p *probe.Probe) (*probe.Outcome, string) {
	var hidden []manifest.Scenario
	for _, sc := range p.Manifest().Reveals {
		if sc.Outcome == "hidden" {
			hidden = append(hidden, sc)
		}
	}
	for _, own := range []bool{true, false} {
		for i, sc := range hidden {
			if !own && i > 0 {
				break
			}
			if o, judged, done := deniedOn(p, sc, own); done {
				return o, judged
			}
		}
	}
	return nil, ""
}

// deniedOn makes DeniedWhereHidden's call on sc's page: of sc's own action
// when own, else of the first other element action that needs
// confirmation; done is false when there is none to call.
func deniedOn(p *probe.Probe, sc manifest.Scenario, own bool) (o *probe.Outcome, judged string, done bool) {
	pg, err := p.Open(sc.URL, glasstest.Deny())
	if err != nil {
		b := probe.Broken(err)
		return &b, "", true
	}
	defer pg.Close()
	snap, err := pg.Snapshot()
	if err != nil {
		b := probe.Broken(err)
		return &b, "", true
	}
	for _, a := range snap.Actions.Items {
		if (a.ID == sc.Action) != own || a.Kind != receipt.KindElement || a.StepOnly || !probe.NeedsConfirmation(a) || !own && p.Manifest().Skips(a.ID) {
			continue
		}
		args, err := p.ValidArgs(a, "")
		if own && sc.Args != nil {
			args, err = sc.Args, nil
		}
		if err != nil || probe.UsesSecret(args) {
			continue
		}
		r := pg.Do(a.ID, args)
		where := fmt.Sprintf("a denied call of %s on %s, where the manifest's reveal of %s leaves its target hidden", a.ID, cmp.Or(sc.URL, "the page"), sc.Action)
		if r.Code() != receipt.CodePermissionDenied {
			f := probe.Failf("%s: want PERMISSION_DENIED (stage 4's confirmation comes before stage 5 makes the target usable), %s", where, report.Got(r)).With(report.ReceiptEvidence("receipt", r))
			return &f, "", true
		}
		return nil, where + " → PERMISSION_DENIED", true
	}
	return nil, "", false
}
