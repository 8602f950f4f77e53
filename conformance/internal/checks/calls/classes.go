package calls

import (
	"fmt"

	"github.com/glassworks/glass/conformance/internal/probe"
	"github.com/glassworks/glass/conformance/internal/refusal"
	"github.com/glassworks/glass/conformance/internal/report"
	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

// A confirmation class is one way an action comes to need confirmation
// (CONTRACT.md §2.4): its risk is dangerous, or it declares confirm below
// dangerous, or it is a flow (confirmed once, before its first step, at
// the risk its steps resolve to). A runtime can get one class right and
// another wrong — deny only dangerous actions with no channel, answer a
// flow's denial as a step's failure, run a flow's leading steps before
// asking — so the policy checks call one action of each class the page
// declares, beside the refusal's own call.
type classCall struct {
	class string
	*probe.Watched
}

// confirmClasses returns one available action of each confirmation class
// the snapshot declares, with arguments the probe can build without a
// secret, other than skip (the refusal's own action).
func confirmClasses(p *probe.Probe, skip string) []receipt.ActionInfo {
	var out []receipt.ActionInfo
	seen := map[string]bool{}
	for _, a := range p.Candidates() {
		if !probe.NeedsConfirmation(a) || a.ID == skip || p.Manifest().Skips(a.ID) {
			continue
		}
		class := "confirm"
		switch {
		case a.Kind == receipt.KindFlow:
			class = "flow"
		case a.Risk == receipt.RiskDangerous:
			class = "dangerous"
		}
		if seen[class] {
			continue
		}
		args, err := p.ValidArgs(a, "")
		if err != nil || probe.UsesSecret(args) {
			continue
		}
		seen[class] = true
		out = append(out, a)
	}
	return out
}

func classOf(a receipt.ActionInfo) string {
	switch {
	case a.Kind == receipt.KindFlow:
		return "a flow that needs confirmation"
	case a.Risk == receipt.RiskDangerous:
		return "a dangerous action"
	}
	return fmt.Sprintf("a %s action that declares confirm", a.Risk)
}

// classCalls calls one action of each confirmation class (confirmClasses)
// on a fresh page each, between two witnesses, with the host denying
// (deny) or with no confirmation channel, once per run and transport.
func classCalls(p *probe.Probe, deny bool) ([]classCall, error) {
	opt, how := glasstest.NoConfirmationChannel(), "no confirmation channel installed"
	kind := refusal.RefNoChannel
	if deny {
		opt, how, kind = glasstest.Deny(), "the confirmation denied", refusal.RefDenied
	}
	skip := ""
	if c, _ := refusal.RefusalByKind(kind).Plan(p); c != nil {
		skip = c.ID
	}
	var out []classCall
	for _, a := range confirmClasses(p, skip) {
		v, err := p.Memo(fmt.Sprintf("%s|classCall|%t|%s", p.Transport, deny, a.ID), func() (any, error) {
			args, err := p.ValidArgs(a, "")
			if err != nil {
				return nil, err
			}
			q := p.Sibling(p.Transport)
			defer q.Close()
			return q.WatchedCall("", a.ID, args, opt)
		})
		if err != nil {
			return nil, err
		}
		out = append(out, classCall{class: fmt.Sprintf("call of %s, %s, with %s", a.ID, classOf(a), how), Watched: v.(*probe.Watched)})
	}
	return out, nil
}

// classRefusals judges the class calls as refusals: PERMISSION_DENIED at
// phase policy, started no, the page left as it was. Nil when every one
// was, with what was judged.
func classRefusals(p *probe.Probe, deny bool) (*probe.Outcome, []string) {
	cs, err := classCalls(p, deny)
	if err != nil {
		o := probe.Broken(err)
		return &o, nil
	}
	var judged []string
	for _, c := range cs {
		r := c.Receipt
		ev := report.ReceiptEvidence("receipt", r)
		if r.Code() != receipt.CodePermissionDenied || r.FailurePhase() != receipt.PhasePolicy {
			o := probe.Failf("%s: want PERMISSION_DENIED at phase policy, %s", c.class, report.Got(r)).With(ev)
			return &o, nil
		}
		if d := probe.Unchanged(c.Before, c.After, c.DOMWitness); len(d) > 0 {
			o := probe.Failf("%s ended with PERMISSION_DENIED, but the page changed: %s", c.class, d[0]).
				With(ev, report.TextEvidence("what changed", d...), probe.WitnessNote(c.DOMWitness))
			return &o, nil
		}
		judged = append(judged, c.class+" → PERMISSION_DENIED")
	}
	return nil, judged
}

// ClassRefusal is the check of policy.denied (deny) or policy.no-channel:
// the refusal, then one action of each confirmation class.
func ClassRefusal(kind string, deny bool) func(*probe.Probe) probe.Outcome {
	return func(p *probe.Probe) probe.Outcome {
		o := RefusalCheck(kind, nil)(p)
		if o.Verdict != report.Pass && o.Verdict != report.NotProbed {
			return o
		}
		bad, judged := classRefusals(p, deny)
		switch {
		case bad != nil:
			return *bad
		case len(judged) == 0:
			return o
		case o.Verdict == report.NotProbed:
			return probe.Pass().With(report.TextEvidence("calls judged", judged...), report.TextEvidence("refusal not probed", o.Message))
		}
		return o.With(report.TextEvidence("also judged", judged...))
	}
}
