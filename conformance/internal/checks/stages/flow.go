package stages

import (
	"fmt"
	"slices"
	"strings"

	"github.com/glassworks/glass/conformance/internal/judge"
	"github.com/glassworks/glass/conformance/internal/manifest"
	"github.com/glassworks/glass/conformance/internal/probe"
	"github.com/glassworks/glass/conformance/internal/refusal"
	"github.com/glassworks/glass/conformance/internal/report"
	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

// Checks of compound actions (flows): the step ledger, one diff for the
// whole flow, the gates each step passes, a failed step, resuming, and the
// confirmation a flow asks. Flows come from the page's snapshot (the
// exercise calls every available one) and from the manifest's
// flowFailures.

func isFlow(a receipt.ActionInfo) bool { return a.Kind == receipt.KindFlow }

func riskRank(r receipt.Risk) int {
	switch r {
	case receipt.RiskDangerous:
		return 2
	case receipt.RiskWrite:
		return 1
	case receipt.RiskRead:
		return 0
	}
	return -1
}

// flowCall is one call of a flow the manifest says fails at a step, made
// once per run and transport, approved, between two witnesses.
type flowCall struct {
	sc            manifest.Scenario
	flow          receipt.ActionInfo
	r             *receipt.Receipt
	before, after *probe.Witness
}

func (c *flowCall) where() string {
	w := c.sc.Action
	if c.sc.URL != "" {
		w += " at " + c.sc.URL
	}
	return w + " (manifest flowFailures)"
}

// memoFlow runs fn once per run and transport under what (the key of a
// manifest flowFailures entry's calls), however many checks ask: its value,
// or the outcome that stopped it.
func memoFlow[T any](p *probe.Probe, what string, i int, fn func(q *probe.Probe) (*T, *probe.Outcome)) (*T, *probe.Outcome) {
	type result struct {
		v *T
		o *probe.Outcome
	}
	v, _ := p.Memo(fmt.Sprintf("%s|%s|%d", p.Transport, what, i), func() (any, error) {
		q := p.Sibling(p.Transport)
		defer q.Close()
		r, o := fn(q)
		return result{r, o}, nil
	})
	res := v.(result)
	return res.v, res.o
}

// flowFailure makes the call of the manifest's flowFailures entry i.
func flowFailure(p *probe.Probe, i int) (*flowCall, *probe.Outcome) {
	sc := p.Manifest().FlowFailures[i]
	return memoFlow(p, "flowFailure", i, func(q *probe.Probe) (*flowCall, *probe.Outcome) {
		w, err := q.WatchedCall(sc.URL, sc.Action, p.ScenarioArgs(sc), glasstest.Approve())
		if err != nil {
			o := probe.Broken(err)
			return nil, &o
		}
		flow, _ := w.Before.Snap.Action(sc.Action)
		return &flowCall{sc: sc, flow: flow, r: w.Receipt, before: w.Before, after: w.After}, nil
	})
}

// resumedTwice is a flow call that failed at a step and returned a
// handle, and the two resumes of that handle made one after the other.
type resumedTwice struct {
	what               string
	first, once, again *receipt.Receipt
}

// resumedAgain calls the flow of the manifest's flowFailures entry i on a
// page of its own and resumes the handle it returns twice: an entry
// without resume: true fails at a step that fails on every call, so the
// first resume fails again — a receipt the failure audits judge (a resume
// that runs its failed step first, and that step fails, reports
// STEP_FAILED as any call does) — and the second must find the handle
// spent. Nil when the call returned no handle. Memoized per transport.
func resumedAgain(p *probe.Probe, i int) (*resumedTwice, *probe.Outcome) {
	sc := p.Manifest().FlowFailures[i]
	return memoFlow(p, "resumedAgain", i, func(q *probe.Probe) (*resumedTwice, *probe.Outcome) {
		pg, err := q.Open(sc.URL, glasstest.Approve())
		if err != nil {
			o := probe.Broken(err)
			return nil, &o
		}
		flow, _ := p.Base().Action(sc.Action)
		flow.ID = sc.Action
		first := pg.Do(sc.Action, p.ScenarioArgs(sc))
		if first.Code() != receipt.CodeStepFailed || first.Result.Resume == "" {
			return nil, nil
		}
		once := resume(pg, first.Result.Resume, flow)
		again := resume(pg, first.Result.Resume, flow)
		return &resumedTwice{what: sc.Action + " (manifest flowFailures, a step that fails on every call)", first: first, once: once, again: again}, nil
	})
}

// flowReceipt is one receipt of a flow a check judges.
type flowReceipt struct {
	what    string
	flow    receipt.ActionInfo
	r       *receipt.Receipt
	after   *receipt.Snapshot
	resumed bool
	// earlier is the ledger of the failed call a resumed flow continues,
	// when the probe made that call.
	earlier []receipt.Step
}

// flowReceipts gathers the receipts of flows of the run: every flow the
// exercise called, and every manifest flowFailures call.
func flowReceipts(p *probe.Probe) ([]flowReceipt, *probe.Outcome) {
	var out []flowReceipt
	err := p.Each(isFlow, func(e *probe.Exercised) bool {
		out = append(out, flowReceipt{what: e.Action.ID, flow: e.Action, r: e.Receipt, after: e.After.Snap})
		return true
	})
	if err != nil {
		o := probe.Broken(err)
		return nil, &o
	}
	for i := range p.Manifest().FlowFailures {
		c, o := flowFailure(p, i)
		if o != nil {
			return nil, o
		}
		out = append(out, flowReceipt{what: c.where(), flow: c.flow, r: c.r, after: c.after.Snap})
	}
	return out, nil
}

// ledgerProblem judges a flow receipt's step ledger: one entry per
// declared step, in order, each with its index, its action id and a known
// outcome; ok (or skipped, in a resumed flow) up to the step that failed,
// that step failed with its error, the rest pending.
func ledgerProblem(fr flowReceipt, base *receipt.Snapshot) string {
	r := fr.r
	switch r.Code() {
	case receipt.CodeNone, receipt.CodeStepFailed, receipt.CodeExpectationFailed:
	case receipt.CodeReceiptInvalid:
		// The runtime answered, but the harness refused the answer: a
		// refusal of its step ledger is this rule's to report.
		if r.Result.Error != nil && strings.Contains(r.Result.Error.Message, "$.result.steps") {
			return "the runtime sent a receipt whose step ledger the decoder refuses: " + r.Result.Error.Message
		}
		return ""
	default:
		return "" // no step ran: the flow failed before its first step
	}
	steps := r.Result.Steps
	if len(steps) == 0 {
		return fmt.Sprintf("the receipt (%s) carries no result.steps", report.OutcomeCode(r))
	}
	if n := len(fr.flow.Steps); n > 0 && len(steps) != n {
		return fmt.Sprintf("result.steps lists %d steps, the snapshot declares %d", len(steps), n)
	}
	failedAt := -1
	if r.Code() == receipt.CodeStepFailed && r.Result.Error.Step != nil {
		failedAt = *r.Result.Error.Step
	}
	for i, st := range steps {
		if st.Index != i {
			return fmt.Sprintf("result.steps[%d] has index %d, want %d", i, st.Index, i)
		}
		if strings.TrimSpace(st.ID) == "" {
			return fmt.Sprintf("result.steps[%d] names no action", i)
		}
		if i < len(fr.flow.Steps) {
			if _, declared := base.Action(fr.flow.Steps[i]); declared && st.ID != fr.flow.Steps[i] {
				return fmt.Sprintf("result.steps[%d] names %q, but the snapshot declares step %d as the action %q", i, st.ID, i, fr.flow.Steps[i])
			}
		}
		if (st.Outcome == receipt.StepFailed) != (st.Error != nil) {
			return fmt.Sprintf("result.steps[%d] has outcome %q and %s error", i, st.Outcome, map[bool]string{true: "an", false: "no"}[st.Error != nil])
		}
		var want []string
		switch {
		case r.Code() != receipt.CodeStepFailed:
			want = []string{receipt.StepOK}
		case i < failedAt:
			want = []string{receipt.StepOK}
		case i == failedAt:
			want = []string{receipt.StepFailed}
		default:
			want = []string{receipt.StepPending}
		}
		if fr.resumed && (r.Code() != receipt.CodeStepFailed || i < failedAt) {
			want = append(want, receipt.StepSkipped)
		}
		if fr.earlier != nil {
			// A resumed flow whose earlier call the probe saw: a step
			// that succeeded then is skipped now, and only it.
			if i < len(fr.earlier) && (fr.earlier[i].Outcome == receipt.StepOK || fr.earlier[i].Outcome == receipt.StepSkipped) {
				want = []string{receipt.StepSkipped}
			} else {
				want = slices.DeleteFunc(want, func(o string) bool { return o == receipt.StepSkipped })
			}
		}
		if !slices.Contains(want, st.Outcome) {
			return fmt.Sprintf("result.steps[%d] (%s) has outcome %q, want %s (%s)", i, st.ID, st.Outcome, strings.Join(want, " or "), ledgerContext(r, failedAt))
		}
	}
	return ""
}

func ledgerContext(r *receipt.Receipt, failedAt int) string {
	if r.Code() == receipt.CodeStepFailed {
		return fmt.Sprintf("the flow failed with STEP_FAILED at step %d", failedAt)
	}
	return "the flow " + map[bool]string{true: "succeeded", false: "failed with " + string(r.Code())}[r.Result.OK]
}

func FlowLedger(p *probe.Probe) probe.Outcome {
	frs, o := flowReceipts(p)
	if o != nil {
		return *o
	}
	for i, sc := range p.Manifest().FlowFailures {
		if !sc.Resume {
			continue
		}
		fr, o := resumedFlow(p, i)
		if o != nil {
			return *o
		}
		if fr != nil {
			frs = append(frs, *fr)
		}
	}
	judged := 0
	for _, fr := range frs {
		if pr := ledgerProblem(fr, p.Base()); pr != "" {
			return probe.Failf("%s: %s", fr.what, pr).With(report.ReceiptEvidence("receipt", fr.r))
		}
		if len(fr.r.Result.Steps) > 0 {
			judged++
		}
	}
	if judged == 0 {
		return probe.NotProbed("no call of a flow ran a step (the page declares no available flow the probe can call, and the manifest names no flowFailures)").With(p.PlanNotes()...)
	}
	return probe.Pass()
}

// resumedFlow makes the manifest's flowFailures entry i (one marked
// resume) fail on a fresh page and resumes it, for the resumed call's
// ledger; nil when the call did not fail at a step with a resume handle
// (flow.step-failed and flow.resume report that).
func resumedFlow(p *probe.Probe, i int) (*flowReceipt, *probe.Outcome) {
	sc := p.Manifest().FlowFailures[i]
	pg, err := p.Open(sc.URL, glasstest.Approve())
	if err != nil {
		o := probe.Broken(err)
		return nil, &o
	}
	base, err := pg.Snapshot()
	if err != nil {
		o := probe.Broken(err)
		return nil, &o
	}
	flow, _ := base.Action(sc.Action)
	c := &flowCall{sc: sc, flow: flow}
	c.r = pg.Do(sc.Action, p.ScenarioArgs(sc))
	if c.r.Code() != receipt.CodeStepFailed || c.r.Result.Resume == "" {
		return nil, nil
	}
	r := resume(pg, c.r.Result.Resume, flow)
	return &flowReceipt{what: c.where() + ", resumed", flow: flow, r: r, resumed: true, earlier: c.r.Result.Steps}, nil
}

// FlowOneDiff: a flow's changed spans the whole flow, from before its
// first step to after its last, as the harness's own snapshots show.
func FlowOneDiff(p *probe.Probe) probe.Outcome {
	judged := 0
	var o *probe.Outcome
	judge := func(what string, e *probe.Exercised) bool {
		if e.Receipt.Result.Changed == nil {
			if e.Receipt.Result.OK {
				res := probe.Failf("%s: the flow succeeded, but its receipt carries no changed", what).With(report.ReceiptEvidence("receipt", e.Receipt))
				o = &res
				return false
			}
			// A flow that stopped at a step, or whose expectation was
			// not observed, ran: its steps' effects stay in the page, and
			// its one changed must say what they were.
			if c := e.Receipt.Code(); c == receipt.CodeStepFailed || c == receipt.CodeExpectationFailed {
				res := probe.Failf("%s: the flow ran and failed with %s, but its receipt carries no changed for what its steps did", what, c).
					With(report.ReceiptEvidence("receipt", e.Receipt), report.TextEvidence("snapshot difference seen by the harness", judge.ModelDiff(e.Before.Snap, e.After.Snap)...))
				o = &res
				return false
			}
			return true
		}
		judged++
		pr := judge.RecordsProblem(e.Receipt, e.Before.Snap, e.After.Snap)
		if pr == "" && e.Receipt.Result.OK {
			pr = judge.PartsProblem(e.Receipt, e.Before.Snap, e.After.Snap)
		}
		if pr != "" {
			res := probe.Failf("%s: %s: the flow's changed is not the one difference from before its first step to after its last", what, pr).
				With(report.ReceiptEvidence("receipt", e.Receipt), report.TextEvidence("snapshot difference seen by the harness", judge.ModelDiff(e.Before.Snap, e.After.Snap)...))
			o = &res
			return false
		}
		return true
	}
	err := p.Each(isFlow, func(e *probe.Exercised) bool { return judge(e.Action.ID, e) })
	if o := probe.VerdictOf(err, o); o != nil {
		return *o
	}
	for i := range p.Manifest().FlowFailures {
		c, bad := flowFailure(p, i)
		if bad != nil {
			return *bad
		}
		if !judge(c.where(), &probe.Exercised{Action: c.flow, Receipt: c.r, Before: c.before, After: c.after}) {
			return *o
		}
	}
	if judged == 0 {
		return probe.NotProbed("no call of a flow produced a receipt with changed").With(p.PlanNotes()...)
	}
	return probe.Pass()
}

// FlowStepGates: a step is resolved against the page as it is when
// the step runs (a step whose action an earlier step declared is found),
// and a step refused at a gate — resolution, arguments, availability,
// confirmation — does not run.
func FlowStepGates(p *probe.Probe) probe.Outcome {
	frs, o := flowReceipts(p)
	if o != nil {
		return *o
	}
	var judged []string
	for _, fr := range frs {
		for _, st := range fr.r.Result.Steps {
			if st.Outcome == receipt.StepOK {
				if _, declared := p.Base().Action(st.ID); !declared {
					judged = append(judged, fmt.Sprintf("%s: step %d found %s, which the page declared only once an earlier step ran", fr.what, st.Index, st.ID))
				}
			}
			if st.Outcome != receipt.StepFailed || st.Error == nil || st.Error.Code != receipt.CodeActionNotFound {
				continue
			}
			if _, declared := fr.after.Action(st.ID); declared {
				return probe.Failf("%s: step %d reports ACTION_NOT_FOUND for %s, but the page declared %s when the flow stopped: the step was not resolved against the page as it was when it ran",
					fr.what, st.Index, st.ID, st.ID).With(report.ReceiptEvidence("receipt", fr.r), report.SnapshotEvidence("snapshot after the call", fr.after))
			}
			judged = append(judged, fmt.Sprintf("%s: step %d's action %s is not declared: ACTION_NOT_FOUND", fr.what, st.Index, st.ID))
		}
	}
	upFront, o := stepsJudgedUpFront(p)
	if o != nil {
		return *o
	}
	judged = append(judged, upFront...)
	for i, sc := range p.Manifest().FlowFailures {
		if sc.Code == "" {
			continue
		}
		c, bad := flowFailure(p, i)
		if bad != nil {
			return *bad
		}
		st, pr := failedStep(c)
		if pr == "" && st.Error.Code != sc.Code {
			pr = fmt.Sprintf("step %d failed with %s, the manifest says %s", st.Index, st.Error.Code, sc.Code)
		}
		if pr == "" && sc.Code.Started() == receipt.StartedNo && st.Error.Started != "" && st.Error.Started != receipt.StartedNo {
			pr = fmt.Sprintf("step %d was refused with %s, a gate before the step runs, but its error says started %q", st.Index, sc.Code, st.Error.Started)
		}
		if pr != "" {
			return probe.Failf("%s: %s", c.where(), pr).With(report.ReceiptEvidence("receipt", c.r))
		}
		judged = append(judged, fmt.Sprintf("%s: step %d failed with %s, as the manifest says", c.where(), st.Index, sc.Code))
	}
	if len(judged) == 0 {
		return probe.NotProbed("no flow of the run resolved a step its earlier steps declared or failed at a gate (the manifest's flowFailures can name one, with code)").With(p.PlanNotes()...)
	}
	return probe.Pass().With(report.TextEvidence("steps judged", judged...))
}

// stepsJudgedUpFront fails a flow the snapshot before its call lists
// available, refused ACTION_UNAVAILABLE before any step ran while a step
// after its first was unavailable in that snapshot: that step's
// availability was judged against the page as it was before the flow
// started, not when the step would have run (an earlier step may make it
// available, as a selection does a bulk action).
func stepsJudgedUpFront(p *probe.Probe) ([]string, *probe.Outcome) {
	var o *probe.Outcome
	var judged []string
	err := p.Each(isFlow, func(e *probe.Exercised) bool {
		r := e.Receipt
		if e.Before == nil || e.Before.Snap == nil {
			return true
		}
		if r.Code() != receipt.CodeActionUnavailable || r.FailurePhase() == receipt.PhaseDispatch {
			for _, st := range r.Result.Steps {
				if a, ok := e.Before.Snap.Action(st.ID); ok && !a.Available && st.Index > 0 && st.Outcome == receipt.StepOK {
					judged = append(judged, fmt.Sprintf("%s: step %d (%s), unavailable before the flow, ran once the steps before it had run", e.Action.ID, st.Index, st.ID))
				}
			}
			return true
		}
		for _, st := range r.Result.Steps {
			if st.Outcome != receipt.StepPending {
				return true // a step ran: the flow got past its own gates
			}
		}
		before := e.Before.Snap
		flow, ok := before.Action(e.Action.ID)
		if !ok || !flow.Available {
			return true // the flow itself was unavailable
		}
		for i, id := range flow.Steps {
			if i == 0 {
				continue // the first step runs against the page as it is now
			}
			st, ok := before.Action(id)
			if !ok || st.Available {
				continue
			}
			res := probe.Failf("%s: the snapshot before the call lists the flow available, but the call was refused ACTION_UNAVAILABLE before its first step ran, while its step %d (%s) was unavailable (%q): a step's availability must be judged when the step runs, after the steps before it",
				e.Action.ID, i, id, report.Clip(st.Reason, 80)).With(report.ReceiptEvidence("receipt", r), report.SnapshotEvidence("snapshot before the call", before))
			o = &res
			return false
		}
		return true
	})
	return judged, probe.VerdictOf(err, o)
}

// failedStep returns the ledger entry of the step a manifest flowFailures
// call must fail at, or why the receipt is not that failure.
func failedStep(c *flowCall) (receipt.Step, string) {
	r := c.r
	want := c.sc.Step - 1
	if r.Code() != receipt.CodeStepFailed {
		return receipt.Step{}, fmt.Sprintf("want STEP_FAILED at step %d (the manifest's step %d), %s", want, c.sc.Step, report.Got(r))
	}
	if r.Result.Error.Step == nil || *r.Result.Error.Step != want {
		return receipt.Step{}, fmt.Sprintf("STEP_FAILED names error.step %s, want %d (the manifest's step %d, counted from 1)", intPtrString(r.Result.Error.Step), want, c.sc.Step)
	}
	if want >= len(r.Result.Steps) || r.Result.Steps[want].Outcome != receipt.StepFailed || r.Result.Steps[want].Error == nil {
		return receipt.Step{}, fmt.Sprintf("result.steps has no failed entry with its error at index %d", want)
	}
	return r.Result.Steps[want], ""
}

func intPtrString(p *int) string {
	if p == nil {
		return "missing"
	}
	return fmt.Sprint(*p)
}

// FlowStepFailed: a manifest flowFailures call fails with STEP_FAILED
// at phase dispatch, names the failed step, and runs no step after it.
func FlowStepFailed(p *probe.Probe) probe.Outcome {
	scs := p.Manifest().FlowFailures
	if len(scs) == 0 {
		return probe.NotProbed("needs a manifest entry under flowFailures (see docs/manifest.md)")
	}
	for i := range scs {
		c, o := flowFailure(p, i)
		if o != nil {
			return *o
		}
		if _, pr := failedStep(c); pr != "" {
			return probe.Failf("%s: %s", c.where(), pr).With(report.ReceiptEvidence("receipt", c.r))
		}
		if c.r.FailurePhase() != receipt.PhaseDispatch {
			return probe.Failf("%s: STEP_FAILED at phase %s, want dispatch", c.where(), c.r.FailurePhase()).With(report.ReceiptEvidence("receipt", c.r))
		}
		for _, st := range c.r.Result.Steps[c.sc.Step:] {
			if st.Outcome != receipt.StepPending {
				return probe.Failf("%s: step %d (%s) comes after the step that failed, but its outcome is %q: the steps after a failed step must not run", c.where(), st.Index, st.ID, st.Outcome).
					With(report.ReceiptEvidence("receipt", c.r))
			}
		}
	}
	return probe.Pass()
}

// resume resumes handle on pg and records the receipt in the run.
func resume(pg *probe.Page, handle string, flow receipt.ActionInfo, opts ...glasstest.CallOption) *receipt.Receipt {
	return pg.Resume(handle, flow, opts...)
}

// FlowResume: a manifest flowFailures call marked resume carries a
// resume handle, and resuming it continues from the failed step: the
// steps that succeeded before are reported skipped, not run again.
func FlowResume(p *probe.Probe) probe.Outcome {
	var scs []manifest.Scenario
	for _, sc := range p.Manifest().FlowFailures {
		if sc.Resume {
			scs = append(scs, sc)
		}
	}
	if len(scs) == 0 {
		return probe.NotProbed("needs a manifest entry under flowFailures with resume: true (a step that fails once; see docs/manifest.md)")
	}
	for _, sc := range scs {
		pg, err := p.Open(sc.URL, glasstest.Approve())
		if err != nil {
			return probe.Broken(err)
		}
		base, err := pg.Snapshot()
		if err != nil {
			return probe.Broken(err)
		}
		flow, _ := base.Action(sc.Action)
		c := &flowCall{sc: sc, flow: flow}
		c.r = pg.Do(sc.Action, p.ScenarioArgs(sc))
		if _, pr := failedStep(c); pr != "" {
			return probe.Failf("%s: %s", c.where(), pr).With(report.ReceiptEvidence("receipt", c.r))
		}
		handle := c.r.Result.Resume
		if handle == "" {
			return probe.Failf("%s: the STEP_FAILED receipt of a flow the manifest says can continue carries no result.resume", c.where()).With(report.ReceiptEvidence("receipt", c.r))
		}
		r := resume(pg, handle, flow)
		if !r.Result.OK {
			at := fmt.Sprintf("the manifest's step %d (index %d in the receipt's steps)", sc.Step, sc.Step-1)
			hint := ""
			first, _ := failedStep(c)
			if again, pr := failedStep(&flowCall{sc: sc, flow: flow, r: r}); pr == "" && again.Error.Code == first.Error.Code {
				// The same step failed the same way: a resume that ran it
				// again and met the fault again, or one that did not run
				// it. Either way the manifest's premise is what to check.
				hint = ": the same step failed again; a flowFailures entry with resume needs a step that fails exactly once (a switch that turns itself off, not a timer: the resume can come before it runs out; docs/manifest.md)"
			}
			return probe.Failf("%s: resuming %s: want the flow to continue from %s and succeed, %s%s", c.where(), handle, at, report.Got(r), hint).
				With(report.ReceiptEvidence("failed call", c.r), report.ReceiptEvidence("resumed call", r))
		}
		first := c.r.Result.Steps
		for i, st := range r.Result.Steps {
			if i < len(first) && first[i].Outcome == receipt.StepOK && st.Outcome != receipt.StepSkipped {
				return probe.Failf("%s: step %d (%s) succeeded in the failed call, but the resumed call reports it %q: a resumed flow must not run it again",
					c.where(), i, st.ID, st.Outcome).With(report.ReceiptEvidence("failed call", c.r), report.ReceiptEvidence("resumed call", r))
			}
		}
		if pr := ledgerProblem(flowReceipt{flow: flow, r: r, resumed: true}, base); pr != "" {
			return probe.Failf("%s, resumed: %s", c.where(), pr).With(report.ReceiptEvidence("resumed call", r))
		}
		// A resume is a new call: it asks again, once, as the flow (no
		// step), before the steps that remain, when the flow declares
		// confirm or a step that remains needs it (§2.4). A step's own
		// re-ask instead lets the steps before it run unasked.
		if step := remainingAsk(flow, first, base); step != "" {
			var asked []receipt.ConfirmRequest
			for _, cr := range pg.Harness.Confirmations() {
				if cr.Request.ExecutionID == r.ExecutionID {
					asked = append(asked, cr.Request)
				}
			}
			var why string
			switch {
			case len(asked) == 0:
				why = "asked the host nothing"
			case asked[0].Step != "" || asked[0].Action != flow.ID:
				why = fmt.Sprintf("first asked for action %q, step %q, not for the flow %s itself (a request without step)", asked[0].Action, asked[0].Step, flow.ID)
			default:
				// Once: a later request is a step's re-ask, and only for
				// a step riskier than the resume's confirmation covered.
				for _, cr := range asked[1:] {
					if cr.Step == "" || riskRank(cr.Risk) <= riskRank(asked[0].Risk) {
						why = fmt.Sprintf("asked for the flow at risk %s, then again (action %q, step %q, risk %s), which that confirmation covered", asked[0].Risk, cr.Action, cr.Step, cr.Risk)
						break
					}
				}
			}
			if why != "" {
				return probe.Failf("%s: resuming %s %s, though %s: a resume is a new call and asks again, once, as the flow, before the steps that remain", c.where(), handle, why, step).
					With(report.ReceiptEvidence("resumed call", r), report.ConfirmationEvidence(pg.Harness.Confirmations()))
			}
		}
	}
	return probe.Pass()
}

// remainingAsk says why the resume of flow must ask the host, judged from
// the failed call's ledger and the snapshot: the flow declares confirm,
// or a step that did not succeed needs confirmation; "" when neither.
func remainingAsk(flow receipt.ActionInfo, ledger []receipt.Step, base *receipt.Snapshot) string {
	if flow.Confirm {
		return "the flow declares confirm"
	}
	remaining := []string{}
	done := 0
	for _, st := range ledger {
		if st.Outcome == receipt.StepOK {
			done++
		} else {
			remaining = append(remaining, st.ID)
		}
	}
	if done < len(flow.Steps) {
		remaining = append(remaining, flow.Steps[done:]...)
	}
	for _, id := range remaining {
		if a, ok := base.Action(id); ok && a.Kind != receipt.KindHandoff && probe.NeedsConfirmation(a) {
			return "the step " + id + " that remains needs confirmation"
		}
	}
	return ""
}

// Resume handles no runtime issued: the probe's own, and one in the
// reference runtime's form.
var unknownHandles = []string{"glass-probe-no-such-handle", "rs_0123456789abcdef"}

// handleSource is a call of a flow that fails at a step and so returns a
// resume handle: a manifest flowFailures entry, or a flow whose step asks
// again for confirmation, the host denying it.
type handleSource struct {
	what string
	url  string
	flow receipt.ActionInfo
	args any
	opts []glasstest.PageOption
}

func handleSources(p *probe.Probe) []handleSource {
	var out []handleSource
	for _, sc := range p.Manifest().FlowFailures {
		flow, _ := p.Base().Action(sc.Action)
		flow.ID = sc.Action
		out = append(out, handleSource{what: sc.Action + " (manifest flowFailures)", url: sc.URL, flow: flow, args: p.ScenarioArgs(sc), opts: []glasstest.PageOption{glasstest.Approve()}})
	}
	for _, f := range reaskFlows(p) {
		args, err := p.ValidArgs(f, "")
		if err != nil {
			continue
		}
		out = append(out, handleSource{what: f.ID + " (its step's confirmation denied)", flow: f, args: args,
			opts: []glasstest.PageOption{glasstest.ConfirmWith(func(req glasstest.ConfirmRequest) bool { return req.Step == "" })}})
	}
	return out
}

// FlowResumeUnknown: resuming a handle the runtime never issued — the
// probe's own, or one another page's runtime issued — or one it issued
// and that was resumed once already (whatever that resume's outcome),
// fails ACTION_NOT_FOUND at target_resolution.
func FlowResumeUnknown(p *probe.Probe) probe.Outcome {
	pg, err := p.Open("", glasstest.Approve())
	if err != nil {
		return probe.Broken(err)
	}
	want := func(what string, r *receipt.Receipt, ev ...report.Evidence) *probe.Outcome {
		if r.Code() != receipt.CodeActionNotFound || r.FailurePhase() != receipt.PhaseTargetResolution {
			o := probe.Failf("resume of %s: want ACTION_NOT_FOUND at phase target_resolution, %s", what, report.Got(r)).With(append(ev, report.ReceiptEvidence("receipt", r))...)
			return &o
		}
		return nil
	}
	var judged []string
	for _, h := range unknownHandles {
		what := fmt.Sprintf("the handle %q, which the runtime never issued", h)
		if o := want(what, resume(pg, h, receipt.ActionInfo{})); o != nil {
			return *o
		}
		judged = append(judged, what)
	}
	hasFlow := false
	for _, a := range p.Base().Actions.Items {
		hasFlow = hasFlow || isFlow(a)
	}
	var tried []string
	for _, src := range handleSources(p) {
		a, err := p.Open(src.url, src.opts...)
		if err != nil {
			return probe.Broken(err)
		}
		r := a.Do(src.flow.ID, src.args)
		handle := r.Result.Resume
		if handle == "" {
			a.Close()
			tried = append(tried, fmt.Sprintf("%s: %s, no resume handle", src.what, report.Got(r)))
			continue
		}
		first := report.ReceiptEvidence("the call that returned the handle", r)
		// Another page's runtime never issued it.
		b, err := p.Open(src.url, glasstest.Deny())
		if err != nil {
			return probe.Broken(err)
		}
		what := fmt.Sprintf("a handle of %s that the runtime of another page issued", src.what)
		if o := want(what, resume(b, handle, src.flow), first); o != nil {
			return *o
		}
		judged = append(judged, what)
		// Resumed once — denied, so nothing runs; spent either way — it
		// cannot be resumed again.
		once := resume(a, handle, src.flow, glasstest.Deny())
		what = fmt.Sprintf("a handle of %s resumed once already (that resume: %s)", src.what, report.OutcomeCode(once))
		if o := want(what, resume(a, handle, src.flow, glasstest.Deny()), first, report.ReceiptEvidence("first resume", once)); o != nil {
			return *o
		}
		judged = append(judged, what)
		// A handle whose one resume failed again (a manifest step that
		// fails on every call) is spent as well: not only by a resume that
		// succeeded.
		for i, sc := range p.Manifest().FlowFailures {
			if sc.Resume {
				continue
			}
			rt, o := resumedAgain(p, i)
			if o != nil {
				return *o
			}
			if rt == nil {
				continue
			}
			what := fmt.Sprintf("a handle of %s resumed once already (that resume: %s)", rt.what, report.OutcomeCode(rt.once))
			if o := want(what, rt.again, report.ReceiptEvidence("the call that returned the handle", rt.first), report.ReceiptEvidence("first resume", rt.once)); o != nil {
				return *o
			}
			judged = append(judged, what)
		}
		return probe.Pass().With(report.TextEvidence("handles probed", judged...))
	}
	if !hasFlow && len(p.Manifest().FlowFailures) == 0 {
		// No flow, no handle ever issued: an unissued handle is all there
		// is to resume.
		return probe.Pass().With(report.TextEvidence("handles probed", judged...))
	}
	return probe.NotProbed("no call of a flow returned a resume handle, so resuming a used handle or another page's was not probed (needs a manifest flowFailures entry, or a flow with a step that asks for confirmation again)").
		With(report.TextEvidence("handles probed", judged...), report.TextEvidence("calls that returned no handle", tried...))
}

// FlowHighestRisk: a flow's snapshot risk is at least that of its
// riskiest declared step, and a flow that needs confirmation asks once, as
// the flow, at that risk, before its first step runs (the call is denied:
// nothing may change).
func FlowHighestRisk(p *probe.Probe) probe.Outcome {
	var judged []string
	for _, f := range p.Base().Actions.Items {
		if !isFlow(f) || !f.Available {
			continue
		}
		want, wantConfirm, riskiest := receipt.RiskRead, false, ""
		for _, id := range f.Steps {
			s, ok := p.Base().Action(id)
			if !ok || s.Kind == receipt.KindHandoff {
				continue
			}
			if riskRank(s.Risk) > riskRank(want) {
				want, riskiest = s.Risk, id
			}
			wantConfirm = wantConfirm || probe.NeedsConfirmation(s)
		}
		if riskRank(f.Risk) < riskRank(want) {
			return probe.Failf("the snapshot gives the flow %s the risk %q, but its step %s is %s: a flow is confirmed at the highest risk its declared steps resolve to", f.ID, f.Risk, riskiest, want)
		}
		if wantConfirm && !probe.NeedsConfirmation(f) {
			return probe.Failf("the flow %s has a step that needs confirmation, but the snapshot says the flow needs none (risk %q, confirm false)", f.ID, f.Risk)
		}
		if !probe.NeedsConfirmation(f) {
			continue
		}
		args, err := p.ValidArgs(f, "")
		if err != nil {
			continue
		}
		w, err := p.WatchedCall("", f.ID, args, glasstest.Deny())
		if err != nil {
			return probe.Broken(err)
		}
		r, asked := w.Receipt, w.Page.Harness.Confirmations()
		ev := []report.Evidence{report.ReceiptEvidence("receipt", r), report.ConfirmationEvidence(asked)}
		switch {
		case len(asked) != 1:
			return probe.Failf("the flow %s needs confirmation and the host denied it: want one confirmation request, the runtime asked %d", f.ID, len(asked)).With(ev...)
		case asked[0].Request.Step != "":
			return probe.Failf("the flow %s asked for confirmation at its step %s, not once for the flow before its first step", f.ID, asked[0].Request.Step).With(ev...)
		case riskRank(asked[0].Request.Risk) < riskRank(f.Risk) || riskRank(asked[0].Request.Risk) < riskRank(want):
			return probe.Failf("the flow %s asked for confirmation at risk %q, want %q (its riskiest declared step)", f.ID, asked[0].Request.Risk, maxRisk(f.Risk, want)).With(ev...)
		case r.Code() != receipt.CodePermissionDenied:
			return probe.Failf("the host denied the flow %s: want PERMISSION_DENIED, %s", f.ID, report.Got(r)).With(ev...)
		}
		if d := probe.Unchanged(w.Before, w.After, w.DOMWitness); len(d) > 0 {
			return probe.Failf("the host denied the flow %s, but the page changed: a step ran before the confirmation: %s", f.ID, d[0]).With(append(ev, report.TextEvidence("what changed", d...))...)
		}
		judged = append(judged, fmt.Sprintf("%s: asked once at %s", f.ID, asked[0].Request.Risk))
	}
	bad, approved := flowAskedOnce(p)
	if bad != nil {
		return *bad
	}
	judged = append(judged, approved...)
	if len(judged) == 0 {
		return probe.NotProbed("the page declares no available flow that needs confirmation (with arguments the probe can build)")
	}
	return probe.Pass().With(report.TextEvidence("flows probed", judged...))
}

func maxRisk(a, b receipt.Risk) receipt.Risk {
	if riskRank(a) >= riskRank(b) {
		return a
	}
	return b
}

// reaskFlows lists the available flows (the manifest's skips aside) with
// a step the snapshot cannot resolve before the flow runs: a step that
// may turn out riskier than the flow's confirmation covered.
func reaskFlows(p *probe.Probe) []receipt.ActionInfo {
	var out []receipt.ActionInfo
	for _, f := range p.Base().Actions.Items {
		if !isFlow(f) || !f.Available || p.Manifest().Skips(f.ID) {
			continue
		}
		for _, id := range f.Steps {
			if _, ok := p.Base().Action(id); !ok {
				out = append(out, f)
				break
			}
		}
	}
	return out
}

// FlowReask calls each flow with a step the snapshot cannot resolve
// yet, approving the flow's own confirmation and denying every step's,
// while the page keeps every action the runtime declares during the call
// (a step declared only while the flow runs, and withdrawn after it, is
// seen too). A step that turned out riskier than what the flow's
// confirmation covered must have been asked for — a request naming the
// flow as its action and the step in step, at the step's risk — before it
// ran, and the denial must stop the flow with STEP_FAILED.
func FlowReask(p *probe.Probe) probe.Outcome {
	var judged, notRiskier []string
	for _, f := range reaskFlows(p) {
		args, err := p.ValidArgs(f, "")
		if err != nil {
			continue
		}
		pg, err := p.Open("", glasstest.ConfirmWith(func(req glasstest.ConfirmRequest) bool { return req.Step == "" }))
		if err != nil {
			return probe.Broken(err)
		}
		if err := pg.WatchDeclared(); err != nil {
			return probe.Broken(err)
		}
		r := pg.Do(f.ID, args)
		during, err := pg.ReadDeclared()
		if err != nil {
			return probe.Broken(err)
		}
		after, err := pg.Snapshot()
		if err != nil {
			return probe.Broken(err)
		}
		asked := pg.Harness.Confirmations()
		ev := []report.Evidence{report.ReceiptEvidence("receipt", r), report.ConfirmationEvidence(asked)}
		covered := -1
		for _, c := range asked {
			if c.Request.Step == "" && c.Approved {
				covered = max(covered, riskRank(c.Request.Risk))
			}
		}
		riskier := false
		for _, st := range r.Result.Steps {
			// The step's risk when it ran: as the page declared it during
			// the call, else after it, else at load.
			s, ok := during[st.ID]
			if !ok {
				s, ok = after.Action(st.ID)
			}
			if !ok {
				s, ok = p.Base().Action(st.ID)
			}
			if !ok || s.Kind == receipt.KindHandoff || !probe.NeedsConfirmation(s) || riskRank(s.Risk) <= covered {
				continue
			}
			riskier = true
			// The step turned out riskier than what the flow's
			// confirmation covered.
			if st.Outcome == receipt.StepOK {
				return probe.Failf("the flow %s ran its step %s (%s) without asking for confirmation again: the flow's confirmation covered %s", f.ID, st.ID, s.Risk, coveredText(covered)).
					With(append(ev, report.TextEvidence("the step as the page declared it while the flow ran", fmt.Sprintf("%s: risk %s, confirm %t", s.ID, s.Risk, s.Confirm)))...)
			}
			if st.Outcome != receipt.StepFailed {
				continue
			}
			var req *glasstest.ConfirmationRecord
			for i, c := range asked {
				if c.Request.Step == st.ID && !c.Approved {
					req = &asked[i]
				}
			}
			switch {
			case req == nil:
				return probe.Failf("the flow %s stopped at its step %s (%s) without asking the host to confirm it (a request with step %q)", f.ID, st.ID, s.Risk, st.ID).With(ev...)
			case req.Request.Action != f.ID:
				return probe.Failf("the flow %s asked again for its step %s, but the request names the action %q: a re-ask names the flow the host called, and the step in step", f.ID, st.ID, req.Request.Action).With(ev...)
			case riskRank(req.Request.Risk) < riskRank(s.Risk):
				return probe.Failf("the flow %s asked again for its step %s at risk %q, but the step is %s", f.ID, st.ID, req.Request.Risk, s.Risk).With(ev...)
			case r.Code() != receipt.CodeStepFailed || st.Error == nil || st.Error.Code != receipt.CodePermissionDenied:
				return probe.Failf("the host denied the flow %s's step %s: want STEP_FAILED with the step's error PERMISSION_DENIED, %s", f.ID, st.ID, report.Got(r)).With(ev...)
			}
			judged = append(judged, fmt.Sprintf("%s: step %s (%s) asked again, denied, flow stopped", f.ID, st.ID, s.Risk))
		}
		{
			// The runtime asked again for a step and the host denied it:
			// whatever the ledger shows, the denial stops the flow with
			// STEP_FAILED, the step's error PERMISSION_DENIED.
			for _, c := range asked {
				if c.Request.Step == "" || c.Approved || slices.ContainsFunc(judged, func(j string) bool { return strings.HasPrefix(j, f.ID+": step "+c.Request.Step+" ") }) {
					continue
				}
				var st *receipt.Step
				for i := range r.Result.Steps {
					if r.Result.Steps[i].ID == c.Request.Step {
						st = &r.Result.Steps[i]
					}
				}
				if r.Code() != receipt.CodeStepFailed || st == nil || st.Outcome != receipt.StepFailed || st.Error == nil || st.Error.Code != receipt.CodePermissionDenied {
					return probe.Failf("the flow %s asked again for its step %s and the host denied it: want STEP_FAILED with the step's error PERMISSION_DENIED, %s", f.ID, c.Request.Step, report.Got(r)).With(ev...)
				}
				judged = append(judged, fmt.Sprintf("%s: step %s asked again, denied, flow stopped", f.ID, c.Request.Step))
				riskier = true
			}
		}
		if !riskier {
			notRiskier = append(notRiskier, fmt.Sprintf("%s: no step turned out riskier than its confirmation covered (%s; %s)", f.ID, coveredText(covered), report.Got(r)))
		}
	}
	if len(judged) == 0 {
		return probe.NotProbed("no flow of the page has a step that turned out riskier than the flow's confirmation covered (needs a flow with a step the snapshot cannot resolve before the flow runs, dangerous or declaring confirm)").
			With(report.TextEvidence("flows called", notRiskier...))
	}
	res := probe.Pass().With(report.TextEvidence("flows probed", judged...))
	if len(notRiskier) > 0 {
		res = res.With(report.TextEvidence("flows with no riskier step", notRiskier...))
	}
	return res
}

func coveredText(rank int) string {
	switch rank {
	case 2:
		return "dangerous"
	case 1:
		return "write"
	case 0:
		return "read"
	}
	return "nothing (the flow asked for no confirmation)"
}

// maxStepOnly bounds the step-only actions FlowStepOnly calls directly.
const maxStepOnly = 4

// FlowStepOnly judges every point of flow.step-only for each action the
// snapshot lists step-only: no WebMCP tool registered for it; not listed
// available by the runtime's own ACTION_NOT_FOUND; a direct call — with
// malformed arguments too, since it fails as soon as the id is resolved —
// fails ACTION_UNAVAILABLE at target_resolution, started no, with a
// reason, asking nothing and changing nothing; and a flow that runs it
// gets past it. A step of a flow that the runtime refuses as step-only
// (ACTION_UNAVAILABLE for malformed arguments, where any other action
// fails INVALID_ARGS) while the snapshot does not list it so breaks the
// first point.
func FlowStepOnly(p *probe.Probe) probe.Outcome {
	base := p.Base()
	var stepOnly []receipt.ActionInfo
	inFlows := map[string][]string{}
	for _, a := range base.Actions.Items {
		if a.StepOnly {
			stepOnly = append(stepOnly, a)
		}
		if isFlow(a) {
			for _, id := range a.Steps {
				inFlows[id] = append(inFlows[id], a.ID)
			}
		}
	}
	bridge := p.Transport == glasstest.TransportBridge
	if len(stepOnly) == 0 {
		if bridge {
			if o := unlistedStepOnly(p, inFlows); o != nil {
				return *o
			}
		}
		return probe.NotProbed("the snapshot lists no step-only action (needs a page that declares a flow with a step-only step: stepOnly true in its snapshot)")
	}
	var judged, notJudged []string
	if len(stepOnly) > maxStepOnly {
		stepOnly = stepOnly[:maxStepOnly]
	}
	// Not a WebMCP tool.
	pg, err := p.Open("", glasstest.Deny())
	if err != nil {
		return probe.Broken(err)
	}
	if tools, err := pg.Harness.Tools(); err == nil && len(tools) > 0 {
		for _, a := range stepOnly {
			for _, t := range tools {
				if t.Name == a.ID || a.Tool != "" && t.Name == a.Tool {
					return probe.Failf("the step-only action %s is registered as the WebMCP tool %s: a step of a flow is no tool of its own", a.ID, t.Name)
				}
			}
		}
		judged = append(judged, "no step-only action is a registered WebMCP tool")
	} else {
		notJudged = append(notJudged, "WebMCP tools: the browser lists none")
	}
	// Not listed available.
	if res, o, ok := p.Refuse(refusal.RefusalByKind(refusal.RefUnknownID)); ok && res.Receipt.Code() == receipt.CodeActionNotFound {
		for _, a := range stepOnly {
			if slices.Contains(res.Receipt.Result.Error.Available, a.ID) {
				return probe.Failf("the runtime's ACTION_NOT_FOUND lists the step-only action %s as available: a step of a flow is no action an agent may call", a.ID).
					With(report.ReceiptEvidence("receipt", res.Receipt))
			}
		}
		judged = append(judged, "ACTION_NOT_FOUND lists no step-only action")
	} else if !ok && o.Verdict == report.Fail {
		return o
	} else {
		notJudged = append(notJudged, "available: the unknown-id refusal could not be judged")
	}
	// A direct call fails ACTION_UNAVAILABLE as soon as the id resolves.
	if bridge {
		before, dom, err := pg.StableWitness(false)
		if err != nil {
			return probe.Broken(err)
		}
		for _, a := range stepOnly {
			args, err := p.ValidArgs(a, "")
			if err != nil {
				args = map[string]any{}
			}
			for _, call := range []struct {
				what string
				args any
			}{{"a direct call of the step-only action " + a.ID, args}, {"a direct call of the step-only action " + a.ID + " with arguments that are not JSON", `{"unterminated`}} {
				r := pg.Do(a.ID, call.args)
				ev := report.ReceiptEvidence("receipt", r)
				switch {
				case r.Code() != receipt.CodeActionUnavailable || r.FailurePhase() != receipt.PhaseTargetResolution:
					return probe.Failf("%s: want ACTION_UNAVAILABLE at phase target_resolution, as soon as the id is resolved, %s", call.what, report.Got(r)).With(ev)
				case r.Result.Error.Started != receipt.StartedNo:
					return probe.Failf("%s failed ACTION_UNAVAILABLE, but reports started %q, want %q", call.what, r.Result.Error.Started, receipt.StartedNo).With(ev)
				case strings.TrimSpace(r.Result.Error.Reason) == "":
					return probe.Failf("%s failed ACTION_UNAVAILABLE without a reason: the reason says it is a step of a flow", call.what).With(ev)
				}
			}
		}
		if asked := pg.Harness.Confirmations(); len(asked) > 0 {
			return probe.Failf("a direct call of a step-only action asked the host for confirmation: it must fail before anything is asked").With(report.ConfirmationEvidence(asked))
		}
		after, err := pg.Witness(false)
		if err != nil {
			return probe.Broken(err)
		}
		if d := probe.Unchanged(before, after, dom); len(d) > 0 {
			return probe.Failf("direct calls of step-only actions failed, but the page changed: %s", d[0]).With(report.TextEvidence("what changed", d...), probe.WitnessNote(dom))
		}
		judged = append(judged, "direct calls (valid and malformed arguments) fail ACTION_UNAVAILABLE at target_resolution with a reason, asking and changing nothing")
	} else {
		notJudged = append(notJudged, "direct calls: over WebMCP a step-only action has no tool to call (probed over the bridge)")
	}
	// A flow runs it through every gate.
	ran := false
	var bad *probe.Outcome
	err = p.Each(isFlow, func(e *probe.Exercised) bool {
		for _, st := range e.Receipt.Result.Steps {
			i := slices.IndexFunc(stepOnly, func(a receipt.ActionInfo) bool { return a.ID == st.ID })
			if i < 0 {
				continue
			}
			switch {
			case st.Outcome == receipt.StepOK:
				ran = true
				judged = append(judged, fmt.Sprintf("%s ran its step-only step %s", e.Action.ID, st.ID))
			case st.Outcome == receipt.StepFailed && st.Error != nil && (st.Error.Code == receipt.CodeActionUnavailable || st.Error.Code == receipt.CodeActionNotFound):
				res := probe.Failf("the flow %s could not run its step-only step %s (%s: %s): a flow runs a step-only action through every gate", e.Action.ID, st.ID, st.Error.Code, st.Error.Reason).
					With(report.ReceiptEvidence("receipt", e.Receipt))
				bad = &res
				return false
			}
		}
		return true
	})
	if o := probe.VerdictOf(err, bad); o != nil {
		return *o
	}
	if !ran {
		notJudged = append(notJudged, "through a flow: no call of a flow of the run reached a step-only step")
	}
	res := probe.Pass().With(report.TextEvidence("judged", judged...))
	if len(notJudged) > 0 {
		res = res.With(report.TextEvidence("not judged", notJudged...))
	}
	return res
}

// unlistedStepOnly calls each declared step of a flow, on one page, with
// arguments that are not JSON: an action the runtime treats as step-only
// fails ACTION_UNAVAILABLE (it fails as soon as the id is resolved), any
// other INVALID_ARGS. One that fails ACTION_UNAVAILABLE is step-only to
// the runtime, and the snapshot must list it so.
func unlistedStepOnly(p *probe.Probe, inFlows map[string][]string) *probe.Outcome {
	var steps []string
	for id := range inFlows {
		if a, ok := p.Base().Action(id); ok && a.Available && a.Kind != receipt.KindHandoff {
			steps = append(steps, id)
		}
	}
	if len(steps) == 0 {
		return nil
	}
	slices.Sort(steps)
	pg, err := p.Open("", glasstest.Deny())
	if err != nil {
		o := probe.Broken(err)
		return &o
	}
	for _, id := range steps {
		r := pg.Do(id, `{"unterminated`)
		if r.Code() == receipt.CodeActionUnavailable {
			o := probe.Failf("%s, a step of %s, fails a direct call with malformed arguments ACTION_UNAVAILABLE, before its arguments are parsed, as a step-only action does, but the snapshot does not list it stepOnly",
				id, strings.Join(inFlows[id], ", ")).With(report.ReceiptEvidence("receipt", r))
			return &o
		}
	}
	return nil
}

// failedFlow calls the first flow of handleSources on a page of its own,
// for a probe (what) that resumes its handle: the page, the source and the
// failed call's receipt, which carries a handle; else no page, and the
// probe's failure or why it was not made.
func failedFlow(p *probe.Probe, what string) (pg *probe.Page, src handleSource, failed *receipt.Receipt, o *probe.Outcome, notProbed string) {
	srcs := handleSources(p)
	if len(srcs) == 0 {
		return nil, src, nil, nil, what + ": the page has no flow that fails at a step (a manifest flowFailures entry, or a step that asks again)"
	}
	src = srcs[0]
	pg, err := p.Open(src.url, src.opts...)
	if err != nil {
		b := probe.Broken(err)
		return nil, src, nil, &b, ""
	}
	failed = pg.Do(src.flow.ID, src.args)
	if failed.Result.Resume == "" {
		return nil, src, nil, nil, what + ": " + src.what + " gave no resume handle (" + report.Got(failed) + ")"
	}
	return pg, src, failed, nil, ""
}

// StaleResume resumes a flow's handle with an expected revision the page
// is not at: a resume is a call (CONTRACT.md, Terms), so its guard is
// checked before stage 1 and it fails STALE_REVISION at preflight, with
// the handle left for a resume that is not stale (envelope.stale-revision).
// It returns the violation, or what was judged, or why nothing was ("").
func StaleResume(p *probe.Probe) (o *probe.Outcome, judged, notProbed string) {
	pg, src, failed, o, notProbed := failedFlow(p, "a resume with a stale expected revision")
	if pg == nil {
		return o, "", notProbed
	}
	handle := failed.Result.Resume
	now, err := pg.Snapshot()
	if err != nil {
		b := probe.Broken(err)
		return &b, "", ""
	}
	what := fmt.Sprintf("a resume of %s's handle with expectedRevision %d, the page at %d", src.what, now.Revision+1000, now.Revision)
	r := resume(pg, handle, src.flow, glasstest.ExpectedRevision(now.Revision+1000))
	if r.Code() != receipt.CodeStaleRevision || r.FailurePhase() != receipt.PhasePreflight {
		f := probe.Failf("%s: want STALE_REVISION at phase preflight (a resume is a call, guarded before stage 1), %s", what, report.Got(r)).
			With(report.ReceiptEvidence("failed call", failed), report.ReceiptEvidence("resumed call", r))
		return &f, "", ""
	}
	return nil, what + " → STALE_REVISION", ""
}

// ResumeExecutionID resumes a flow's handle without options.executionId
// (envelope.execution-id): a resume is a call, so the runtime must give
// its receipt an executionId of its own, of the contract's form and not
// the one of the call that failed, or of any other call on the page.
func ResumeExecutionID(p *probe.Probe) (o *probe.Outcome, judged, notProbed string) {
	pg, src, failed, o, notProbed := failedFlow(p, "a resume without options.executionId")
	if pg == nil {
		return o, "", notProbed
	}
	handle := failed.Result.Resume
	ids := map[string]bool{}
	for _, earlier := range pg.Harness.Receipts() {
		ids[earlier.ExecutionID] = true
	}
	r := resume(pg, handle, src.flow, glasstest.WithoutExecutionID())
	what := fmt.Sprintf("a resume of %s's handle without options.executionId", src.what)
	var problem string
	switch {
	case !executionIDForm.MatchString(r.ExecutionID):
		problem = fmt.Sprintf("the receipt carries executionId %q, which does not match %s", r.ExecutionID, receipt.ExecutionIDPattern)
	case r.ExecutionID == failed.ExecutionID:
		problem = fmt.Sprintf("the receipt carries executionId %q, the id of the call that failed: a resume is a call of its own, with an id of its own", r.ExecutionID)
	case ids[r.ExecutionID]:
		problem = fmt.Sprintf("the receipt carries executionId %q, the id of an earlier call on the same page", r.ExecutionID)
	}
	if problem != "" {
		f := probe.Failf("%s: %s", what, problem).With(report.ReceiptEvidence("failed call", failed), report.ReceiptEvidence("resumed call", r))
		return &f, "", ""
	}
	return nil, what + " → " + r.ExecutionID, ""
}
