package calls

import (
	"fmt"
	"slices"
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

// messageChurn (churnEach as the exercise's calls come, then churnTurns)
// calls writes that showed a message several times on one page, with the
// same arguments: a page that keeps its messages then shows one twice
// when a write says the same thing again, and one that keeps only its last
// few drops the oldest. From the second call on, each receipt's
// changed.feedback must list what the harness's snapshots around the call
// show added and removed, counting repeats (a runtime that compares
// feedback as a set lists a repeated message nowhere; one that ignores
// what scrolled off lists no removal). Each write is called again and
// again on a page of its own, in declaration order, until a message was
// seen repeated and one dropped; then, if none was seen dropped, the first
// three take turns on one page (a write that always says the same thing
// drops nothing the multiset can see). nth counts the writes that showed
// a message so far, e the last of them.
func churnEach(p *probe.Probe, e *probe.Exercised, nth int, seen *churnSeen) *probe.Outcome {
	if nth > maxChurnTries || seen.repeat && seen.drop {
		return nil
	}
	return churn(p, []*probe.Exercised{e}, churnCalls, seen)
}

// churnTurns is messageChurn's last part, once every write that showed a
// message had its turn alone (churnEach): the first three take turns.
func churnTurns(p *probe.Probe, shows []*probe.Exercised, seen *churnSeen) *probe.Outcome {
	if seen.drop || len(shows) < 2 {
		return nil
	}
	// One page takes one secret: the writes that share the first's.
	turns := []*probe.Exercised{shows[0]}
	for _, e := range shows[1:] {
		if len(turns) < 3 && (e.Secret == "" || e.Secret == shows[0].Secret) {
			turns = append(turns, e)
		}
	}
	return churn(p, turns, 2*churnCalls, seen)
}

// churnSeen says what the calls of messageChurn have shown so far.
type churnSeen struct{ repeat, drop bool }

// churn makes up to calls calls on one page, the writes taking turns (a
// write that fails leaves the turns), and judges each receipt's feedback
// from the second call on; the harness reads the page only around those.
func churn(p *probe.Probe, writes []*probe.Exercised, calls int, seen *churnSeen) *probe.Outcome {
	pg, err := p.OpenApproved(writes[0].Secret)
	if err != nil {
		o := probe.Broken(err)
		return &o
	}
	for call := 1; call <= calls && len(writes) > 0 && !(seen.repeat && seen.drop); call++ {
		e := writes[(call-1)%len(writes)]
		if call == 1 { // the exercise judged this call on a fresh page
			if r := pg.Do(e.Action.ID, e.Args); !r.Result.OK {
				writes = writes[1:]
			}
			continue
		}
		before, err := pg.Snapshot()
		if err != nil {
			o := probe.Broken(err)
			return &o
		}
		r, byRuntime := pg.DoAnswered(e.Action.ID, e.Args)
		if !byRuntime || !r.Result.OK {
			writes = slices.DeleteFunc(writes, func(w *probe.Exercised) bool { return w == e })
			continue
		}
		after, err := pg.Snapshot()
		if err != nil {
			o := probe.Broken(err)
			return &o
		}
		if pr := judge.FeedbackProblem(r, before, after); pr != "" {
			o := probe.Failf("%s, call %d on the same page (feedback %d → %d messages): %s", e.Action.ID, call, len(before.Feedback), len(after.Feedback), pr).
				With(report.ReceiptEvidence(fmt.Sprintf("receipt of call %d", call), r),
					report.TextEvidence("feedback before the call", feedbackLines(before.Feedback)...),
					report.TextEvidence("feedback after the call", feedbackLines(after.Feedback)...))
			return &o
		}
		seen.repeat = seen.repeat || repeated(before.Feedback, after.Feedback)
		seen.drop = seen.drop || dropped(before.Feedback, after.Feedback)
	}
	return nil
}

// churnCalls and maxChurnTries bound messageChurn's calls.
const (
	churnCalls    = 5 // not a contract bound
	maxChurnTries = 6 // not a contract bound
)

// repeated reports whether after shows more copies than before of a
// message before already showed.
func repeated(before, after []receipt.Feedback) bool {
	for _, f := range after {
		if was := count(before, f); was > 0 && count(after, f) > was {
			return true
		}
	}
	return false
}

// dropped reports whether a message before showed is gone after.
func dropped(before, after []receipt.Feedback) bool {
	for _, f := range before {
		if count(after, f) < count(before, f) {
			return true
		}
	}
	return false
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

func feedbackLines(list []receipt.Feedback) []string {
	out := []string{}
	for _, f := range list {
		out = append(out, f.Kind+": "+report.Clip(f.Text, 120))
	}
	return out
}

// partsAudit applies partsShapeProblem to every receipt the runtime sent
// over p's transport so far.
func partsAudit(p *probe.Probe) *probe.Outcome {
	for _, sn := range p.SentReceipts() {
		if pr := partsShapeProblem(sn.Receipt); pr != "" {
			res := probe.Failf("%s: %s", sn.What, pr).With(report.ReceiptEvidence("receipt", sn.Receipt))
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
			res := probe.Failf("%s (manifest unchangedWrites, a write that succeeds without changing the page model) ended %s: a write whose changed.observed is false must still report ok true, with a warning", where, report.OutcomeCode(r)).
				With(report.ReceiptEvidence("receipt", r))
			return &res, judged
		case r.Result.Changed != nil && r.Result.Changed.Observed:
			continue // it changed something this time: nothing to judge here
		case strings.TrimSpace(r.Result.Warning) == "":
			res := probe.Failf("%s (manifest unchangedWrites): the write completed without any observable change, but the receipt has no warning", where).
				With(report.ReceiptEvidence("receipt", r))
			return &res, judged
		}
		judged++
	}
	return nil, judged
}
