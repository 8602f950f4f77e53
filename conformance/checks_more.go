package conformance

import (
	"fmt"
	"strings"

	"github.com/glassworks/glass/receipt"
)

// judgeEach walks the exercise's calls whose action keep accepts, judging
// each: judge returns whether the call was judged, and a sentence when it
// breaks the rule. It returns the first failure (with the receipt as
// evidence), or nil and how many calls were judged.
func (p *probe) judgeEach(keep func(receipt.ActionInfo) bool, judge func(e *exercised) (judged bool, problem string)) (*outcome, int) {
	var o *outcome
	n := 0
	err := p.each(keep, func(e *exercised) bool {
		judged, problem := judge(e)
		if judged {
			n++
		}
		if problem != "" {
			res := failf("%s: %s", e.action.ID, problem).with(receiptEvidence("receipt", e.r))
			o = &res
			return false
		}
		return true
	})
	return verdictOf(err, o), n
}

// judged turns a walk's end into an outcome: the failure, not probed with
// why when nothing was judged, else a pass.
func (p *probe) judged(o *outcome, n int, why string) outcome {
	switch {
	case o != nil:
		return *o
	case n == 0:
		return notProbed(why).with(p.planNotes()...)
	}
	return pass()
}

// ---- what the page declares ---------------------------------------------------

func checkKinds(p *probe) outcome {
	for _, a := range p.base().Actions.Items {
		switch a.Kind {
		case receipt.KindElement, receipt.KindFunction, receipt.KindFlow, receipt.KindHandoff:
		default:
			return failf("the snapshot gives %s the kind %q, want element, function, flow or handoff", a.ID, a.Kind).
				with(snapshotEvidence("snapshot", p.base()))
		}
	}
	if len(p.base().Actions.Items) == 0 {
		return notProbed("the page declares no action")
	}
	return pass()
}

// globalFacts is what the setup learnt about the runtime's global.
type globalFacts struct {
	Present   bool              `json:"present"`
	Protocol  string            `json:"protocol"`
	Runtime   string            `json:"runtime"`
	Frozen    bool              `json:"frozen"`
	Writable  bool              `json:"writable"`
	Functions map[string]string `json:"functions"`
}

const identifyScript = `() => {
  const rt = globalThis.glassRuntime;
  if (!rt || typeof rt !== "object") return JSON.stringify({ present: false });
  const d = Object.getOwnPropertyDescriptor(globalThis, "glassRuntime") || {};
  const functions = {};
  for (const m of ["ready", "snapshot", "execute", "resume"]) functions[m] = typeof rt[m];
  return JSON.stringify({ present: true, protocol: String(rt.protocol).slice(0, 80), runtime: String(rt.runtime || "").slice(0, 80),
    frozen: Object.isFrozen(rt), writable: d.writable !== false && !d.get, functions: functions });
}`

func checkGlobal(p *probe) outcome {
	g := p.s.global
	switch {
	case !g.Frozen:
		return failf("globalThis.glassRuntime is not frozen: a page script could replace its methods")
	case g.Writable:
		return failf("globalThis.glassRuntime is writable: a page script could replace the runtime")
	}
	for _, m := range []string{"ready", "snapshot", "execute", "resume"} {
		if g.Functions[m] != "function" {
			return failf("glassRuntime.%s is a %s, want a function", m, g.Functions[m])
		}
	}
	return pass()
}

const limitedSnapshotScript = `async (limit) => {
  const v = await globalThis.glassRuntime.snapshot({ limit: limit });
  return typeof v === "string" ? v : JSON.stringify(v);
}`

// checkSnapshotBounded asks for a snapshot limited to two records and two
// actions, and checks the bounded lists and their counts.
func checkSnapshotBounded(p *probe) outcome {
	base := p.base()
	if base.Records.Total < 3 && len(base.Actions.Items) < 3 {
		return notProbed("the page has fewer than three records and three actions, too few to see a limit of two")
	}
	for _, s := range []*receipt.Snapshot{base} {
		if len(s.Records.Items) > 500 || len(s.Actions.Items) > 500 {
			return failf("the snapshot lists %d records and %d actions, over the bound of 500", len(s.Records.Items), len(s.Actions.Items))
		}
	}
	pg, err := p.open("")
	if err != nil {
		return broken(err)
	}
	// The counts to expect come from the same page: an app may seed each
	// page load differently.
	full, err := pg.g.TrySnapshot()
	if err != nil {
		return broken(err)
	}
	v, err := pg.g.Playwright().Evaluate(limitedSnapshotScript, 2)
	if err != nil {
		return failf("snapshot({limit: 2}) failed: %s", firstLine(err.Error()))
	}
	text, _ := v.(string)
	s, err := receipt.DecodeSnapshot([]byte(text))
	if err != nil {
		return failf("snapshot({limit: 2}) is not a snapshot: %v", err)
	}
	ev := snapshotEvidence("snapshot({limit: 2})", s)
	total, actions := full.Records.Total, len(full.Actions.Items)+full.Actions.Omitted
	switch {
	case len(s.Records.Items) > 2:
		return failf("snapshot({limit: 2}) lists %d records", len(s.Records.Items)).with(ev)
	case s.Records.Total != total:
		return failf("snapshot({limit: 2}) gives records.total %d, want the full count %d", s.Records.Total, total).with(ev)
	case len(s.Records.Items)+s.Records.Omitted != total:
		return failf("snapshot({limit: 2}) lists %d records and counts %d omitted, want %d in all", len(s.Records.Items), s.Records.Omitted, total).with(ev)
	case len(s.Actions.Items) > 2:
		return failf("snapshot({limit: 2}) lists %d actions", len(s.Actions.Items)).with(ev)
	case len(s.Actions.Items)+s.Actions.Omitted != actions:
		return failf("snapshot({limit: 2}) lists %d actions and counts %d omitted, want %d in all", len(s.Actions.Items), s.Actions.Omitted, actions).with(ev)
	}
	return pass()
}

// ---- what successful receipts claim ---------------------------------------------

func checkExpectOnlyWhenVerified(p *probe) outcome {
	o, n := p.judgeEach(func(a receipt.ActionInfo) bool { return a.Expect == "" }, func(e *exercised) (bool, string) {
		if e.r.Result.Expect != "" {
			return true, fmt.Sprintf("the action declares no expectation, but the receipt reports expect %q", e.r.Result.Expect)
		}
		return true, ""
	})
	return p.judged(o, n, "no call of an action without an expectation was made")
}

func checkDataFunctionOnly(p *probe) outcome {
	o, n := p.judgeEach(func(a receipt.ActionInfo) bool { return a.Kind != receipt.KindFunction }, func(e *exercised) (bool, string) {
		if !e.r.Result.OK {
			return false, ""
		}
		if len(e.r.Result.Data) > 0 {
			return true, fmt.Sprintf("the receipt of an action of kind %s carries data %s", e.action.Kind, clip(string(e.r.Result.Data), 80))
		}
		return true, ""
	})
	return p.judged(o, n, "no action of a kind other than function could be called successfully")
}

func checkFidelityReported(p *probe) outcome {
	o, n := p.judgeEach(anyAction, func(e *exercised) (bool, string) {
		if !e.r.Result.OK {
			return false, ""
		}
		got := e.r.Result.Fidelity
		if e.action.Kind != receipt.KindElement {
			if got != "" {
				return true, fmt.Sprintf("the receipt of an action of kind %s carries fidelity %q", e.action.Kind, got)
			}
			return true, ""
		}
		want := e.action.Fidelity
		if want == receipt.FidelityHigh {
			want = ""
		}
		if got != want {
			return true, fmt.Sprintf("the snapshot gives the element action fidelity %q, the receipt reports %q (want it exactly when not high)", e.action.Fidelity, got)
		}
		return true, ""
	})
	return p.judged(o, n, "no action could be called successfully")
}

func checkLowFidelityWarning(p *probe) outcome {
	low := func(a receipt.ActionInfo) bool {
		return a.Kind == receipt.KindElement && a.Fidelity == receipt.FidelityLow
	}
	o, n := p.judgeEach(low, func(e *exercised) (bool, string) {
		if !e.r.Result.OK {
			return false, ""
		}
		if strings.TrimSpace(e.r.Result.Warning) == "" {
			return true, "a successful call of a low-fidelity element action carries no warning"
		}
		return true, ""
	})
	return p.judged(o, n, "the page declares no element action of fidelity low that the probe can call")
}

// checkRiskClasses: every action carries a risk class, and each call asks
// for confirmation exactly once when it needs one, and never otherwise.
func checkRiskClasses(p *probe) outcome {
	for _, a := range p.base().Actions.Items {
		switch a.Risk {
		case receipt.RiskRead, receipt.RiskWrite, receipt.RiskDangerous:
		default:
			return failf("the snapshot gives %s the risk %q, want read, write or dangerous", a.ID, a.Risk)
		}
	}
	o, n := p.judgeEach(anyAction, func(e *exercised) (bool, string) {
		asked := len(e.confirmations)
		if needsConfirmation(e.action) && asked != 1 {
			return true, fmt.Sprintf("the action is %s (confirm %t) and the runtime asked for confirmation %d times, want once", e.action.Risk, e.action.Confirm, asked)
		}
		if !needsConfirmation(e.action) && asked != 0 {
			return true, fmt.Sprintf("the action is %s and declares no confirmation, but the runtime asked %d times", e.action.Risk, asked)
		}
		return true, ""
	})
	if o != nil {
		o.evidence = append(o.evidence, textEvidence("how the runtime is judged", "an action needs confirmation when its risk is dangerous or the snapshot says confirm: true"))
	}
	return p.judged(o, n, "no action could be called")
}

// checkRevision: every receipt carries revisions, they never go down, and
// a call that changed the page model moves the revision.
func checkRevision(p *probe) outcome {
	o, n := p.judgeEach(anyAction, func(e *exercised) (bool, string) {
		rv := e.r.Revision
		switch {
		case rv == nil:
			return true, "the receipt has no revision"
		case rv.After < rv.Before:
			return true, fmt.Sprintf("revision went down, %d → %d", rv.Before, rv.After)
		case e.after.snap.Revision < e.before.snap.Revision:
			return true, fmt.Sprintf("the snapshot's revision went down, %d → %d", e.before.snap.Revision, e.after.snap.Revision)
		case e.r.Result.Changed != nil && e.r.Result.Changed.Observed && rv.After <= rv.Before:
			return true, fmt.Sprintf("changed.observed is true, but the revision stayed at %d → %d", rv.Before, rv.After)
		}
		return true, ""
	})
	return p.judged(o, n, "no action could be called")
}

// ---- failures the manifest names --------------------------------------------------

var checkHandlerThrows = scenarioCheck(func(m *Manifest) []Scenario { return m.ExecutionFailures }, "executionFailures",
	receipt.CodeExecutionFailed, func(r *receipt.Receipt) string {
		if pr := startedYes(r); pr != "" {
			return pr
		}
		if r.Result.Changed == nil {
			return "the receipt carries no changed for what the page shows after the handler threw"
		}
		return ""
	})

// ---- audits over every failure the run saw ------------------------------------------

// failures makes the two cheapest refusals (shared with their own rules),
// so that an audit judges failures even when run alone, then returns every
// runtime receipt of the run; in a whole run audits go last and see every
// refusal.
func failures(p *probe) ([]seen, *outcome) {
	for _, kind := range []string{refUnknownID, refMalformed} {
		if _, o, ok := p.refuse(refusalByKind(kind)); !ok && o.verdict == Fail {
			return nil, &o
		}
	}
	return runtimeReceipts(p), nil
}

func auditFailures(p *probe, judge func(r *receipt.Receipt) string) outcome {
	all, o := failures(p)
	if o != nil {
		return *o
	}
	judged := 0
	for _, sn := range all {
		r := sn.receipt
		if r.Result.OK || r.Code() == receipt.CodeReceiptInvalid {
			continue
		}
		judged++
		if pr := judge(r); pr != "" {
			return failf("%s: %s", sn.what, pr).with(receiptEvidence("receipt", r))
		}
	}
	if judged == 0 {
		return notProbed("the run saw no failure")
	}
	return pass().with(textEvidence("failures judged", fmt.Sprint(judged)))
}

func checkCodeTable(p *probe) outcome {
	return auditFailures(p, func(r *receipt.Receipt) string {
		code := r.Code()
		if !code.Known() {
			return fmt.Sprintf("error code %q is not in the code table", code)
		}
		if s := r.Result.Error.Started; s != code.Started() {
			return fmt.Sprintf("%s carries started %q, the code table says %q", code, s, code.Started())
		}
		return ""
	})
}

func checkEnvelopePhase(p *probe) outcome {
	o := auditFailures(p, func(r *receipt.Receipt) string {
		if want := r.Code().Phase(); r.Phase != want {
			return fmt.Sprintf("%s carries phase %q, the code table says %q", r.Code(), r.Phase, want)
		}
		return ""
	})
	if o.verdict == Fail {
		return o
	}
	// A successful receipt carries no phase.
	bad, _ := p.judgeEach(anyAction, func(e *exercised) (bool, string) {
		if e.r.Result.OK && e.r.Phase != receipt.PhaseNone {
			return true, fmt.Sprintf("a successful receipt carries phase %q", e.r.Phase)
		}
		return e.r.Result.OK, ""
	})
	if bad != nil {
		return *bad
	}
	for _, sn := range runtimeReceipts(p) {
		if sn.receipt.Result.OK && sn.receipt.Phase != receipt.PhaseNone {
			return failf("%s: a successful receipt carries phase %q", sn.what, sn.receipt.Phase).with(receiptEvidence("receipt", sn.receipt))
		}
	}
	return o
}

func checkRecoveryStrategy(p *probe) outcome {
	return auditFailures(p, func(r *receipt.Receipt) string {
		want := receipt.RecoveryNone
		if c := r.Code(); c == receipt.CodeStaleRevision || c == receipt.CodeExpectationFailed {
			want = receipt.RecoveryReport
		}
		if r.RecoveryStrategy != want {
			return fmt.Sprintf("%s carries recoveryStrategy %q, want %q", r.Code(), r.RecoveryStrategy, want)
		}
		if r.Recovery != "" && r.RecoveryStrategy != receipt.RecoveryReport {
			return fmt.Sprintf("%s carries the recovery suggestion %q beside recoveryStrategy %q; a suggestion goes only beside report", r.Code(), r.Recovery, r.RecoveryStrategy)
		}
		return ""
	})
}

// MaxFailureText is the most characters a failure's message, reason or
// path may hold (CONTRACT.md, failure.bounded).
const MaxFailureText = 1000

// checkFailureBounded judges every failure's text: bounded, and free of the
// values the probes typed (the value outside the enum) and of secrets.
func checkFailureBounded(p *probe) outcome {
	var typed []string
	if res, _, ok := p.refuse(refusalByKind(refOutsideEnum)); ok {
		if m, isMap := res.call.args.(map[string]any); isMap {
			if s, isString := m[res.call.field].(string); isString {
				typed = append(typed, s)
			}
		}
	}
	calls, _ := p.exercisePlan()
	for _, pl := range calls {
		if pl.secret != "" {
			typed = append(typed, pl.secret)
		}
	}
	return auditFailures(p, func(r *receipt.Receipt) string {
		e := r.Result.Error
		for name, text := range map[string]string{"message": e.Message, "reason": e.Reason, "path": e.Path} {
			if n := len([]rune(text)); n > MaxFailureText {
				return fmt.Sprintf("error.%s holds %d characters, over the bound of %d", name, n, MaxFailureText)
			}
			for _, v := range typed {
				if v != "" && strings.Contains(text, v) {
					return fmt.Sprintf("error.%s repeats the value %q the caller typed", name, v)
				}
			}
		}
		return ""
	})
}
