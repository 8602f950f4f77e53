package calls

import (
	"strings"

	"github.com/glassworks/glass/conformance/internal/judge"
	"github.com/glassworks/glass/conformance/internal/probe"
	"github.com/glassworks/glass/conformance/internal/report"
	"github.com/glassworks/glass/receipt"
)

// emptyPart names a part of changed that the receipt carries though it
// reports nothing changed in it — every list empty, every omission count
// zero — which changed.parts forbids whatever the page shows: a part is
// carried only when something in it changed.
func emptyPart(c *receipt.Changed) string {
	if c == nil {
		return ""
	}
	switch {
	case c.Page != nil && c.Page.URL == nil && c.Page.Title == nil && c.Page.ID == nil:
		return "page"
	case c.Records != nil && len(c.Records.Added)+len(c.Records.Removed)+len(c.Records.Updated)+
		c.Records.Omitted.Added+c.Records.Omitted.Removed+c.Records.Omitted.Updated == 0 &&
		!c.Records.Reordered && (c.Records.Total == nil || c.Records.Total.From == c.Records.Total.To):
		return "records"
	case c.Actions != nil && len(c.Actions.Added)+len(c.Actions.Removed)+c.Actions.Omitted.Added+c.Actions.Omitted.Removed == 0:
		return "actions"
	case c.State != nil && len(c.State.Changed)+c.State.Omitted == 0:
		return "state"
	case c.Feedback != nil && len(c.Feedback.Added)+len(c.Feedback.Removed)+c.Feedback.Omitted.Added+c.Feedback.Omitted.Removed == 0:
		return "feedback"
	}
	return ""
}

// partsShapeProblem judges the changed of any receipt the runtime sent,
// without the harness's snapshots: observed is true exactly when a part
// is present, and no part is carried empty. A receipt the decoder refused
// for a part beside observed false breaks the same sentence.
func partsShapeProblem(r *receipt.Receipt) string {
	if msg := invalidAt(r, "$.result.changed"); msg != "" && strings.Contains(msg, "observed false") {
		return "the runtime sent a changed with observed false that carries a part (the decoder refuses it): " + msg
	}
	c := r.Result.Changed
	if c == nil {
		return ""
	}
	present := c.Page != nil || c.Records != nil || c.Actions != nil || c.State != nil || c.Feedback != nil
	if c.Observed != present {
		return "changed.observed is " + map[bool]string{true: "true, but changed carries no part", false: "false, but changed carries a part"}[c.Observed]
	}
	if part := emptyPart(c); part != "" {
		return "changed carries a " + part + " part that reports nothing changed in it"
	}
	return ""
}

// repeatedMessage calls a write that showed a message twice on one page,
// with the same arguments. A page that keeps its messages then shows the
// same one twice, when the write says the same thing again: changed
// compares feedback counting repeats, so the second receipt's
// changed.feedback.added must list the message again (a runtime that
// compares feedback as a set lists nothing). Only that is judged here, so
// that a message expiring between the harness's snapshot and the
// runtime's blames no one. Writes are tried in declaration order until a
// second call shows a message repeated (at most maxRepeatTries).
func repeatedMessage(p *probe.Probe, shows []*probe.Exercised) *probe.Outcome {
	for _, e := range shows[:min(len(shows), maxRepeatTries)] {
		pg, err := p.OpenApproved(e.Secret)
		if err != nil {
			o := probe.Broken(err)
			return &o
		}
		if first := pg.Do(e.Action.ID, e.Args); !first.Result.OK {
			continue
		}
		before, err := pg.Witness(false)
		if err != nil {
			o := probe.Broken(err)
			return &o
		}
		r, byRuntime := pg.DoAnswered(e.Action.ID, e.Args)
		if !byRuntime || !r.Result.OK {
			continue
		}
		after, err := pg.Witness(false)
		if err != nil {
			o := probe.Broken(err)
			return &o
		}
		again := repeated(before.Snap.Feedback, after.Snap.Feedback)
		if len(again) == 0 {
			continue
		}
		var listed []receipt.Feedback
		if c := r.Result.Changed; c != nil && c.Feedback != nil {
			if c.Feedback.Omitted.Added > 0 {
				return nil // a partial list may leave it out
			}
			listed = c.Feedback.Added
		}
		for f, n := range again {
			if k := count(listed, f); k < n {
				o := probe.Failf("%s, called a second time on the same page, showed the %s message %q once more (%d before the call, %d after), but changed.feedback.added lists it %d times: feedback is compared counting repeats",
					e.Action.ID, f.Kind, report.Clip(f.Text, 80), count(before.Snap.Feedback, f), count(after.Snap.Feedback, f), k).
					With(probe.ReceiptEvidence("receipt of the second call", r),
						probe.TextEvidence("snapshot difference seen by the harness", judge.ModelDiff(before.Snap, after.Snap)...))
				return &o
			}
		}
		return nil
	}
	return nil
}

// maxRepeatTries bounds the writes repeatedMessage calls twice.
const maxRepeatTries = 6 // not a contract bound

// repeated lists the messages before already showed of which after shows
// more copies, with how many more.
func repeated(before, after []receipt.Feedback) map[receipt.Feedback]int {
	out := map[receipt.Feedback]int{}
	for _, f := range after {
		if was, is := count(before, f), count(after, f); was > 0 && is > was {
			out[f] = is - was
		}
	}
	return out
}

func count(list []receipt.Feedback, f receipt.Feedback) int {
	n := 0
	for _, g := range list {
		if g == f {
			n++
		}
	}
	return n
}

// partsAudit applies partsShapeProblem to every receipt the runtime sent
// over p's transport so far.
func partsAudit(p *probe.Probe) *probe.Outcome {
	for _, sn := range runtimeReceipts(p) {
		if pr := partsShapeProblem(sn.Receipt); pr != "" {
			res := probe.Failf("%s: %s", sn.What, pr).With(probe.ReceiptEvidence("receipt", sn.Receipt))
			return &res
		}
	}
	return nil
}

// unchangedWrites makes the calls the manifest names under
// unchangedWrites — writes that succeed without changing the page model:
// each must report ok true, and, where its changed.observed is false, a
// warning (changed.write-warning). A runtime that fails such a call
// because nothing changed breaks the rule's "MUST still report ok true".
func unchangedWrites(p *probe.Probe) (*probe.Outcome, int) {
	judged := 0
	for _, sc := range p.Manifest().UnchangedWrites {
		r, o := p.Scenario(sc, "unchangedWrites")
		if o != nil {
			return o, judged
		}
		where := sc.Action
		if sc.URL != "" {
			where += " at " + sc.URL
		}
		switch {
		case !r.Result.OK:
			res := probe.Failf("%s (manifest unchangedWrites, a write that succeeds without changing the page model) ended %s: a write whose changed.observed is false must still report ok true, with a warning", where, probe.OutcomeCode(r)).
				With(probe.ReceiptEvidence("receipt", r))
			return &res, judged
		case r.Result.Changed != nil && r.Result.Changed.Observed:
			continue // it changed something this time: nothing to judge here
		case strings.TrimSpace(r.Result.Warning) == "":
			res := probe.Failf("%s (manifest unchangedWrites): the write completed without any observable change, but the receipt has no warning", where).
				With(probe.ReceiptEvidence("receipt", r))
			return &res, judged
		}
		judged++
	}
	return nil, judged
}
