package conformance

import (
	"fmt"
	"slices"
	"strings"

	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

// Checks of compound actions (flows): the step ledger, one diff for the
// whole flow, the gates each step passes, a failed step, resuming, and the
// confirmation a flow asks. Flows come from the page's snapshot (the
// exercise calls every available one) and from the manifest's
// flowFailures.

func init() {
	for id, c := range map[string]check{
		"flow.ledger":              {run: checkFlowLedger},
		"flow.one-diff":            {run: checkFlowOneDiff},
		"flow.step-gates":          {run: checkFlowStepGates},
		"flow.step-failed":         {run: checkFlowStepFailed},
		"flow.resume":              {run: checkFlowResume},
		"flow.resume-unknown":      {run: checkFlowResumeUnknown},
		"policy.flow-highest-risk": {run: checkFlowHighestRisk},
		"policy.flow-reask":        {run: checkFlowReask},
	} {
		checks[id] = c
	}
}

func isFlow(a receipt.ActionInfo) bool { return a.Kind == receipt.KindFlow }

// watched is one call made on a fresh page between two witnesses of the
// page model and the DOM.
type watched struct {
	pg            *page
	r             *receipt.Receipt
	before, after *witness
	domWitness    bool
}

// watchedCall opens ref on a fresh page with opts and calls id there.
func (p *probe) watchedCall(ref, id string, args any, opts ...glasstest.Option) (*watched, error) {
	pg, err := p.open(ref, opts...)
	if err != nil {
		return nil, err
	}
	before, domWitness, err := pg.stableWitness(false)
	if err != nil {
		return nil, err
	}
	r := pg.do(id, args)
	after, err := pg.witness(false)
	if err != nil {
		return nil, err
	}
	return &watched{pg: pg, r: r, before: before, after: after, domWitness: domWitness}, nil
}

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
	sc            Scenario
	flow          receipt.ActionInfo
	r             *receipt.Receipt
	before, after *witness
}

func (c *flowCall) where() string {
	w := c.sc.Action
	if c.sc.URL != "" {
		w += " at " + c.sc.URL
	}
	return w + " (manifest flowFailures)"
}

// flowFailure makes the call of the manifest's flowFailures entry i.
func (p *probe) flowFailure(i int) (*flowCall, *outcome) {
	sc := p.manifest().FlowFailures[i]
	type result struct {
		c *flowCall
		o *outcome
	}
	v, _ := p.s.memo(fmt.Sprintf("%s|flowFailure|%d", p.transport, i), func() (any, error) {
		q := &probe{s: p.s, transport: p.transport}
		defer q.close()
		w, err := q.watchedCall(sc.URL, sc.Action, scenarioArgs(sc), glasstest.Approve())
		if err != nil {
			o := broken(err)
			return result{o: &o}, nil
		}
		flow, _ := w.before.snap.Action(sc.Action)
		return result{c: &flowCall{sc: sc, flow: flow, r: w.r, before: w.before, after: w.after}}, nil
	})
	res := v.(result)
	return res.c, res.o
}

func scenarioArgs(sc Scenario) any {
	if sc.Args == nil {
		return nil
	}
	return sc.Args
}

// flowReceipt is one receipt of a flow a check judges.
type flowReceipt struct {
	what    string
	flow    receipt.ActionInfo
	r       *receipt.Receipt
	after   *receipt.Snapshot
	resumed bool
}

// flowReceipts gathers the receipts of flows of the run: every flow the
// exercise called, and every manifest flowFailures call.
func (p *probe) flowReceipts() ([]flowReceipt, *outcome) {
	var out []flowReceipt
	err := p.each(isFlow, func(e *exercised) bool {
		out = append(out, flowReceipt{what: e.action.ID, flow: e.action, r: e.r, after: e.after.snap})
		return true
	})
	if err != nil {
		o := broken(err)
		return nil, &o
	}
	for i := range p.manifest().FlowFailures {
		c, o := p.flowFailure(i)
		if o != nil {
			return nil, o
		}
		out = append(out, flowReceipt{what: c.where(), flow: c.flow, r: c.r, after: c.after.snap})
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
	default:
		return "" // no step ran: the flow failed before its first step
	}
	steps := r.Result.Steps
	if len(steps) == 0 {
		return fmt.Sprintf("the receipt (%s) carries no result.steps", outcomeCode(r))
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

func checkFlowLedger(p *probe) outcome {
	frs, o := p.flowReceipts()
	if o != nil {
		return *o
	}
	judged := 0
	for _, fr := range frs {
		if pr := ledgerProblem(fr, p.base()); pr != "" {
			return failf("%s: %s", fr.what, pr).with(receiptEvidence("receipt", fr.r))
		}
		if len(fr.r.Result.Steps) > 0 {
			judged++
		}
	}
	if judged == 0 {
		return notProbed("no call of a flow ran a step (the page declares no available flow the probe can call, and the manifest names no flowFailures)").with(p.planNotes()...)
	}
	return pass()
}

// checkFlowOneDiff: a flow's changed spans the whole flow, from before its
// first step to after its last, as the harness's own snapshots show.
func checkFlowOneDiff(p *probe) outcome {
	judged := 0
	var o *outcome
	judge := func(what string, e *exercised) bool {
		if e.r.Result.Changed == nil {
			if e.r.Result.OK {
				res := failf("%s: the flow succeeded, but its receipt carries no changed", what).with(receiptEvidence("receipt", e.r))
				o = &res
				return false
			}
			return true
		}
		judged++
		pr := recordsProblem(e)
		if pr == "" && e.r.Result.OK {
			pr = partsProblem(e)
		}
		if pr != "" {
			res := failf("%s: %s: the flow's changed is not the one difference from before its first step to after its last", what, pr).
				with(receiptEvidence("receipt", e.r), textEvidence("snapshot difference seen by the harness", modelDiff(e.before.snap, e.after.snap)...))
			o = &res
			return false
		}
		return true
	}
	err := p.each(isFlow, func(e *exercised) bool { return judge(e.action.ID, e) })
	if o := verdictOf(err, o); o != nil {
		return *o
	}
	for i := range p.manifest().FlowFailures {
		c, bad := p.flowFailure(i)
		if bad != nil {
			return *bad
		}
		if !judge(c.where(), &exercised{action: c.flow, r: c.r, before: c.before, after: c.after}) {
			return *o
		}
	}
	if judged == 0 {
		return notProbed("no call of a flow produced a receipt with changed").with(p.planNotes()...)
	}
	return pass()
}

// checkFlowStepGates: a step is resolved against the page as it is when
// the step runs (a step whose action an earlier step declared is found),
// and a step refused at a gate — resolution, arguments, availability,
// confirmation — does not run.
func checkFlowStepGates(p *probe) outcome {
	frs, o := p.flowReceipts()
	if o != nil {
		return *o
	}
	var judged []string
	for _, fr := range frs {
		for _, st := range fr.r.Result.Steps {
			if st.Outcome == receipt.StepOK {
				if _, declared := p.base().Action(st.ID); !declared {
					judged = append(judged, fmt.Sprintf("%s: step %d found %s, which the page declared only once an earlier step ran", fr.what, st.Index, st.ID))
				}
			}
			if st.Outcome != receipt.StepFailed || st.Error == nil || st.Error.Code != receipt.CodeActionNotFound {
				continue
			}
			if _, declared := fr.after.Action(st.ID); declared {
				return failf("%s: step %d reports ACTION_NOT_FOUND for %s, but the page declared %s when the flow stopped: the step was not resolved against the page as it was when it ran",
					fr.what, st.Index, st.ID, st.ID).with(receiptEvidence("receipt", fr.r), snapshotEvidence("snapshot after the call", fr.after))
			}
			judged = append(judged, fmt.Sprintf("%s: step %d's action %s is not declared: ACTION_NOT_FOUND", fr.what, st.Index, st.ID))
		}
	}
	for i, sc := range p.manifest().FlowFailures {
		if sc.Code == "" {
			continue
		}
		c, bad := p.flowFailure(i)
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
			return failf("%s: %s", c.where(), pr).with(receiptEvidence("receipt", c.r))
		}
		judged = append(judged, fmt.Sprintf("%s: step %d failed with %s, as the manifest says", c.where(), st.Index, sc.Code))
	}
	if len(judged) == 0 {
		return notProbed("no flow of the run resolved a step its earlier steps declared or failed at a gate (the manifest's flowFailures can name one, with code)").with(p.planNotes()...)
	}
	return pass().with(textEvidence("steps judged", judged...))
}

// failedStep returns the ledger entry of the step a manifest flowFailures
// call must fail at, or why the receipt is not that failure.
func failedStep(c *flowCall) (receipt.Step, string) {
	r := c.r
	want := c.sc.Step - 1
	if r.Code() != receipt.CodeStepFailed {
		return receipt.Step{}, fmt.Sprintf("want STEP_FAILED at step %d (the manifest's step %d), %s", want, c.sc.Step, got(r))
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

// checkFlowStepFailed: a manifest flowFailures call fails with STEP_FAILED
// at phase dispatch, names the failed step, and runs no step after it.
func checkFlowStepFailed(p *probe) outcome {
	scs := p.manifest().FlowFailures
	if len(scs) == 0 {
		return notProbed("needs a manifest entry under flowFailures (see docs/manifest.md)")
	}
	for i := range scs {
		c, o := p.flowFailure(i)
		if o != nil {
			return *o
		}
		if _, pr := failedStep(c); pr != "" {
			return failf("%s: %s", c.where(), pr).with(receiptEvidence("receipt", c.r))
		}
		if c.r.FailurePhase() != receipt.PhaseDispatch {
			return failf("%s: STEP_FAILED at phase %s, want dispatch", c.where(), c.r.FailurePhase()).with(receiptEvidence("receipt", c.r))
		}
		for _, st := range c.r.Result.Steps[c.sc.Step:] {
			if st.Outcome != receipt.StepPending {
				return failf("%s: step %d (%s) comes after the step that failed, but its outcome is %q: the steps after a failed step must not run", c.where(), st.Index, st.ID, st.Outcome).
					with(receiptEvidence("receipt", c.r))
			}
		}
	}
	return pass()
}

// resume resumes handle on pg and records the receipt in the run.
func (pg *page) resume(handle string, flow receipt.ActionInfo, opts ...glasstest.Option) *receipt.Receipt {
	r := pg.runtimeAnswer(pg.g.Resume(handle, opts...))
	pg.p.s.record(seen{receipt: r, action: flow, declared: flow.ID != "", transport: pg.p.transport, what: "resume " + handle})
	return r
}

// checkFlowResume: a manifest flowFailures call marked resume carries a
// resume handle, and resuming it continues from the failed step: the
// steps that succeeded before are reported skipped, not run again.
func checkFlowResume(p *probe) outcome {
	var scs []Scenario
	for _, sc := range p.manifest().FlowFailures {
		if sc.Resume {
			scs = append(scs, sc)
		}
	}
	if len(scs) == 0 {
		return notProbed("needs a manifest entry under flowFailures with resume: true (a step that fails once; see docs/manifest.md)")
	}
	for _, sc := range scs {
		pg, err := p.open(sc.URL, glasstest.Approve())
		if err != nil {
			return broken(err)
		}
		base, err := pg.g.TrySnapshot()
		if err != nil {
			return broken(err)
		}
		flow, _ := base.Action(sc.Action)
		c := &flowCall{sc: sc, flow: flow}
		c.r = pg.do(sc.Action, scenarioArgs(sc))
		if _, pr := failedStep(c); pr != "" {
			return failf("%s: %s", c.where(), pr).with(receiptEvidence("receipt", c.r))
		}
		handle := c.r.Result.Resume
		if handle == "" {
			return failf("%s: the STEP_FAILED receipt of a flow the manifest says can continue carries no result.resume", c.where()).with(receiptEvidence("receipt", c.r))
		}
		r := pg.resume(handle, flow)
		if !r.Result.OK {
			return failf("%s: resuming %s: want the flow to continue from step %d and succeed, %s", c.where(), handle, sc.Step-1, got(r)).
				with(receiptEvidence("failed call", c.r), receiptEvidence("resumed call", r))
		}
		first := c.r.Result.Steps
		for i, st := range r.Result.Steps {
			if i < len(first) && first[i].Outcome == receipt.StepOK && st.Outcome != receipt.StepSkipped {
				return failf("%s: step %d (%s) succeeded in the failed call, but the resumed call reports it %q: a resumed flow must not run it again",
					c.where(), i, st.ID, st.Outcome).with(receiptEvidence("failed call", c.r), receiptEvidence("resumed call", r))
			}
		}
		if pr := ledgerProblem(flowReceipt{flow: flow, r: r, resumed: true}, base); pr != "" {
			return failf("%s, resumed: %s", c.where(), pr).with(receiptEvidence("resumed call", r))
		}
	}
	return pass()
}

// unknownHandle is a resume handle no runtime issued.
const unknownHandle = "glass-probe-no-such-handle"

// checkFlowResumeUnknown: resuming a handle the runtime never issued, or
// one already resumed, fails ACTION_NOT_FOUND at target_resolution.
func checkFlowResumeUnknown(p *probe) outcome {
	pg, err := p.open("", glasstest.Approve())
	if err != nil {
		return broken(err)
	}
	want := func(what string, r *receipt.Receipt, ev ...Evidence) *outcome {
		if r.Code() != receipt.CodeActionNotFound || r.FailurePhase() != receipt.PhaseTargetResolution {
			o := failf("resume of %s: want ACTION_NOT_FOUND at phase target_resolution, %s", what, got(r)).with(append(ev, receiptEvidence("receipt", r))...)
			return &o
		}
		return nil
	}
	if o := want("a handle the runtime never issued", pg.resume(unknownHandle, receipt.ActionInfo{})); o != nil {
		return *o
	}
	judged := []string{"a handle the runtime never issued"}
	for _, sc := range p.manifest().FlowFailures {
		if !sc.Resume {
			continue
		}
		q, err := p.open(sc.URL, glasstest.Approve())
		if err != nil {
			return broken(err)
		}
		flow, _ := p.base().Action(sc.Action)
		r := q.do(sc.Action, scenarioArgs(sc))
		if r.Result.Resume == "" {
			continue // flow.resume's violation
		}
		again := q.resume(r.Result.Resume, flow)
		if !again.Result.OK {
			continue // flow.resume's violation
		}
		if o := want("a handle already resumed", q.resume(r.Result.Resume, flow), receiptEvidence("first resume", again)); o != nil {
			return *o
		}
		judged = append(judged, "a handle of "+sc.Action+" already resumed")
		break
	}
	return pass().with(textEvidence("handles probed", judged...))
}

// checkFlowHighestRisk: a flow's snapshot risk is at least that of its
// riskiest declared step, and a flow that needs confirmation asks once, as
// the flow, at that risk, before its first step runs (the call is denied:
// nothing may change).
func checkFlowHighestRisk(p *probe) outcome {
	var judged []string
	for _, f := range p.base().Actions.Items {
		if !isFlow(f) || !f.Available {
			continue
		}
		want, wantConfirm, riskiest := receipt.RiskRead, false, ""
		for _, id := range f.Steps {
			s, ok := p.base().Action(id)
			if !ok || s.Kind == receipt.KindHandoff {
				continue
			}
			if riskRank(s.Risk) > riskRank(want) {
				want, riskiest = s.Risk, id
			}
			wantConfirm = wantConfirm || needsConfirmation(s)
		}
		if riskRank(f.Risk) < riskRank(want) {
			return failf("the snapshot gives the flow %s the risk %q, but its step %s is %s: a flow is confirmed at the highest risk its declared steps resolve to", f.ID, f.Risk, riskiest, want)
		}
		if wantConfirm && !needsConfirmation(f) {
			return failf("the flow %s has a step that needs confirmation, but the snapshot says the flow needs none (risk %q, confirm false)", f.ID, f.Risk)
		}
		if !needsConfirmation(f) {
			continue
		}
		args, err := p.validArgs(f, "")
		if err != nil {
			continue
		}
		w, err := p.watchedCall("", f.ID, args, glasstest.Deny())
		if err != nil {
			return broken(err)
		}
		r, asked := w.r, w.pg.g.Confirmations()
		ev := []Evidence{receiptEvidence("receipt", r), confirmationEvidence(asked)}
		switch {
		case len(asked) != 1:
			return failf("the flow %s needs confirmation and the host denied it: want one confirmation request, the runtime asked %d", f.ID, len(asked)).with(ev...)
		case asked[0].Request.Step != "":
			return failf("the flow %s asked for confirmation at its step %s, not once for the flow before its first step", f.ID, asked[0].Request.Step).with(ev...)
		case riskRank(asked[0].Request.Risk) < riskRank(f.Risk) || riskRank(asked[0].Request.Risk) < riskRank(want):
			return failf("the flow %s asked for confirmation at risk %q, want %q (its riskiest declared step)", f.ID, asked[0].Request.Risk, maxRisk(f.Risk, want)).with(ev...)
		case r.Code() != receipt.CodePermissionDenied:
			return failf("the host denied the flow %s: want PERMISSION_DENIED, %s", f.ID, got(r)).with(ev...)
		}
		if d := unchanged(w.before, w.after, w.domWitness); len(d) > 0 {
			return failf("the host denied the flow %s, but the page changed: a step ran before the confirmation: %s", f.ID, d[0]).with(append(ev, textEvidence("what changed", d...))...)
		}
		judged = append(judged, fmt.Sprintf("%s: asked once at %s", f.ID, asked[0].Request.Risk))
	}
	if len(judged) == 0 {
		return notProbed("the page declares no available flow that needs confirmation (with arguments the probe can build)")
	}
	return pass().with(textEvidence("flows probed", judged...))
}

func maxRisk(a, b receipt.Risk) receipt.Risk {
	if riskRank(a) >= riskRank(b) {
		return a
	}
	return b
}

// checkFlowReask calls each flow with a step the snapshot cannot resolve
// yet, approving the flow's own confirmation and denying every step's: a
// step that turns out riskier than what was approved must be asked for,
// and the denial must stop the flow with STEP_FAILED before the step runs.
func checkFlowReask(p *probe) outcome {
	var judged []string
	for _, f := range p.base().Actions.Items {
		if !isFlow(f) || !f.Available || p.manifest().skips(f.ID) {
			continue
		}
		late := false
		for _, id := range f.Steps {
			if _, ok := p.base().Action(id); !ok {
				late = true
			}
		}
		if !late {
			continue
		}
		args, err := p.validArgs(f, "")
		if err != nil {
			continue
		}
		w, err := p.watchedCall("", f.ID, args, glasstest.ConfirmWith(func(req glasstest.ConfirmRequest) bool { return req.Step == "" }))
		if err != nil {
			return broken(err)
		}
		r, after, asked := w.r, w.after, w.pg.g.Confirmations()
		ev := []Evidence{receiptEvidence("receipt", r), confirmationEvidence(asked)}
		covered := -1
		for _, c := range asked {
			if c.Request.Step == "" && c.Approved {
				covered = max(covered, riskRank(c.Request.Risk))
			}
		}
		for _, st := range r.Result.Steps {
			s, ok := after.snap.Action(st.ID)
			if !ok {
				s, ok = p.base().Action(st.ID)
			}
			if !ok || !needsConfirmation(s) || riskRank(s.Risk) <= covered {
				continue
			}
			// The step turned out riskier than what the flow's
			// confirmation covered.
			if st.Outcome == receipt.StepOK {
				return failf("the flow %s ran its step %s (%s) without asking for confirmation again: the flow's confirmation covered %s", f.ID, st.ID, s.Risk, coveredText(covered)).
					with(append(ev, snapshotEvidence("snapshot after the call", after.snap))...)
			}
			if st.Outcome != receipt.StepFailed {
				continue
			}
			askedStep := false
			for _, c := range asked {
				askedStep = askedStep || c.Request.Step == st.ID && !c.Approved
			}
			switch {
			case !askedStep:
				return failf("the flow %s stopped at its step %s (%s) without asking the host to confirm it", f.ID, st.ID, s.Risk).with(ev...)
			case r.Code() != receipt.CodeStepFailed || st.Error == nil || st.Error.Code != receipt.CodePermissionDenied:
				return failf("the host denied the flow %s's step %s: want STEP_FAILED with the step's error PERMISSION_DENIED, %s", f.ID, st.ID, got(r)).with(ev...)
			}
			judged = append(judged, fmt.Sprintf("%s: step %s (%s) asked again, denied, flow stopped", f.ID, st.ID, s.Risk))
		}
	}
	if len(judged) == 0 {
		return notProbed("no flow of the page has a step that turned out riskier than the flow's confirmation covered (a step the snapshot cannot resolve before the flow runs)")
	}
	return pass().with(textEvidence("flows probed", judged...))
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
