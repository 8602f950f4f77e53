package conformance

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

// ---- failures the manifest names -------------------------------------------

func scenarioCheck(list func(*Manifest) []Scenario, field string, code receipt.Code, extra func(*receipt.Receipt) string) func(*probe) outcome {
	return func(p *probe) outcome {
		scenarios := list(p.manifest())
		if len(scenarios) == 0 {
			return notProbed(fmt.Sprintf("needs a manifest entry under %s (see docs/manifest.md)", field))
		}
		for _, sc := range scenarios {
			r, o := p.scenario(sc, field)
			if o != nil {
				return *o
			}
			where := sc.Action
			if sc.URL != "" {
				where += " at " + sc.URL
			}
			if r.Code() != code || r.FailurePhase() != code.Phase() {
				return failf("%s (manifest %s): want %s at phase %s, %s", where, field, code, code.Phase(), got(r)).
					with(receiptEvidence("receipt", r))
			}
			if extra != nil {
				if pr := extra(r); pr != "" {
					return failf("%s (manifest %s): %s", where, field, pr).with(receiptEvidence("receipt", r))
				}
			}
		}
		return pass()
	}
}

// scenario makes one call the manifest names, approved, on the page it
// names, once per run and transport.
func (p *probe) scenario(sc Scenario, field string) (*receipt.Receipt, *outcome) {
	type result struct {
		r *receipt.Receipt
		o *outcome
	}
	key := fmt.Sprintf("%s|scenario|%s|%s|%s", p.transport, field, sc.Action, sc.URL)
	v, _ := p.s.memo(key, func() (any, error) {
		pg, err := p.open(sc.URL, glasstest.Approve(), glasstest.ExpectTimeout(scenarioExpectTimeout))
		if err != nil {
			o := broken(err)
			return result{o: &o}, nil
		}
		var args any
		if sc.Args != nil {
			args = sc.Args
		}
		return result{r: pg.do(sc.Action, args)}, nil
	})
	res := v.(result)
	return res.r, res.o
}

// scenarioExpectTimeout shortens the wait for an expectation the manifest
// says will fail; a runtime that ignores the option waits its own default.
const scenarioExpectTimeout = 400 * time.Millisecond

func startedYes(r *receipt.Receipt) string {
	if s := r.Result.Error.Started; s != receipt.StartedYes {
		return fmt.Sprintf("error.started = %q, want %q: the action was sent", s, receipt.StartedYes)
	}
	return ""
}

var checkExpectationFailed = scenarioCheck(func(m *Manifest) []Scenario { return m.ExpectationFailures }, "expectationFailures",
	receipt.CodeExpectationFailed, func(r *receipt.Receipt) string {
		if pr := startedYes(r); pr != "" {
			return pr
		}
		if r.RecoveryStrategy != receipt.RecoveryReport {
			return fmt.Sprintf("recoveryStrategy = %q, want %q", r.RecoveryStrategy, receipt.RecoveryReport)
		}
		if r.Result.Changed == nil {
			return "the receipt carries no changed for what the page shows after the call"
		}
		return ""
	})

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

// ---- audits ------------------------------------------------------------------

// runtimeReceipts returns every receipt a page runtime produced in this run
// over p's transport so far. Receipts the harness wrote for a failure of
// its own (phase transport or browser_effect) are left out, except an
// invalid receipt, which the runtime did send.
func runtimeReceipts(p *probe) []seen {
	var out []seen
	for _, sn := range p.s.seenReceipts(p.transport) {
		switch sn.receipt.FailurePhase() {
		case receipt.PhaseTransport, receipt.PhaseBrowserEffect:
			if sn.receipt.Code() != receipt.CodeReceiptInvalid {
				continue
			}
		}
		out = append(out, sn)
	}
	return out
}

// ListBound is the most entries any list of a receipt's changed object
// may hold (CONTRACT.md); more are counted in its omitted field.
const ListBound = 20

// invalidAt returns the decoding error of a receipt the runtime sent but
// the strict decoder refused, when the error is about a path under prefix.
func invalidAt(r *receipt.Receipt, prefix string) string {
	if r.Code() != receipt.CodeReceiptInvalid || r.Result.Error == nil {
		return ""
	}
	if strings.Contains(r.Result.Error.Message, prefix) {
		return r.Result.Error.Message
	}
	return ""
}

func boundProblem(r *receipt.Receipt) string {
	if msg := invalidAt(r, "$.result.changed"); msg != "" {
		return "the runtime sent a receipt whose changed the decoder refuses: " + msg
	}
	c := r.Result.Changed
	if c == nil {
		return ""
	}
	type list struct {
		name    string
		n       int
		omitted int
	}
	var lists []list
	if r := c.Records; r != nil {
		lists = append(lists,
			list{"records.added", len(r.Added), r.Omitted.Added},
			list{"records.removed", len(r.Removed), r.Omitted.Removed},
			list{"records.updated", len(r.Updated), r.Omitted.Updated})
		if r.Total != nil {
			net := len(r.Added) + r.Omitted.Added - len(r.Removed) - r.Omitted.Removed
			if r.Total.To-r.Total.From != net {
				return fmt.Sprintf("changed.records.total goes %d → %d (%+d), but added and removed with their omission counts make %+d",
					r.Total.From, r.Total.To, r.Total.To-r.Total.From, net)
			}
		}
	}
	if a := c.Actions; a != nil {
		lists = append(lists, list{"actions.added", len(a.Added), a.Omitted.Added}, list{"actions.removed", len(a.Removed), a.Omitted.Removed})
	}
	if s := c.State; s != nil {
		lists = append(lists, list{"state.changed", len(s.Changed), s.Omitted})
	}
	if f := c.Feedback; f != nil {
		lists = append(lists, list{"feedback.added", len(f.Added), f.Omitted.Added}, list{"feedback.removed", len(f.Removed), f.Omitted.Removed})
	}
	for _, l := range lists {
		switch {
		case l.n > ListBound:
			return fmt.Sprintf("changed.%s lists %d entries, over the bound of %d", l.name, l.n, ListBound)
		case l.omitted < 0:
			return fmt.Sprintf("changed.%s has a negative omission count %d", l.name, l.omitted)
		case l.omitted > 0 && l.n < ListBound:
			return fmt.Sprintf("changed.%s omits %d entries while listing only %d of the %d it may", l.name, l.omitted, l.n, ListBound)
		}
	}
	return ""
}

// checkBounded judges every receipt of the run (making every exercise
// call first): each list within its bound, and the omission counts
// consistent with the totals and with the harness's own snapshots.
func checkBounded(p *probe) outcome {
	var o *outcome
	err := p.each(anyAction, func(e *exercised) bool {
		c := e.r.Result.Changed
		if c == nil || c.Records == nil {
			return true
		}
		b, bAll := recordIDs(e.before.snap)
		a, aAll := recordIDs(e.after.snap)
		if !bAll || !aAll {
			return true
		}
		if n := len(minus(b, a)); len(c.Records.Removed)+c.Records.Omitted.Removed != n {
			res := failf("%s: changed.records.removed lists %d and counts %d omitted, but %d records went away", e.action.ID,
				len(c.Records.Removed), c.Records.Omitted.Removed, n).with(receiptEvidence("receipt", e.r))
			o = &res
			return false
		}
		if n := len(minus(a, b)); len(c.Records.Added)+c.Records.Omitted.Added != n {
			res := failf("%s: changed.records.added lists %d and counts %d omitted, but %d records appeared", e.action.ID,
				len(c.Records.Added), c.Records.Omitted.Added, n).with(receiptEvidence("receipt", e.r))
			o = &res
			return false
		}
		return true
	})
	if err != nil {
		return broken(err)
	}
	all := runtimeReceipts(p)
	for _, sn := range all {
		if pr := boundProblem(sn.receipt); pr != "" {
			return failf("%s: %s", sn.what, pr).with(receiptEvidence("receipt", sn.receipt))
		}
	}
	if o != nil {
		return *o
	}
	if len(all) == 0 {
		return notProbed("the run saw no receipt")
	}
	return pass().with(textEvidence("receipts judged", fmt.Sprint(len(all))))
}

// executionIDPattern is the form of an executionId (CONTRACT.md).
var executionIDPattern = regexp.MustCompile(`^[A-Za-z0-9_.:-]{1,64}$`)

// checkExecutionIDs judges every receipt of the run, after making the
// cheap refusals and one approved call, so that it has receipts from
// several pages even when run alone.
func checkExecutionIDs(p *probe) outcome {
	var o *outcome
	for _, kind := range []string{refUnknownID, refMalformed} {
		if _, out, ok := p.refuse(refusalByKind(kind)); !ok && out.verdict == Fail {
			return out
		}
	}
	err := p.each(needsConfirmation, func(e *exercised) bool {
		for _, c := range e.confirmations {
			if c.Request.ExecutionID != e.r.ExecutionID {
				res := failf("%s: the confirmation was asked for execution %q, but the receipt is of execution %q",
					e.action.ID, c.Request.ExecutionID, e.r.ExecutionID).with(receiptEvidence("receipt", e.r), confirmationEvidence(e.confirmations))
				o = &res
			}
		}
		return false
	})
	if err != nil {
		return broken(err)
	}
	all := runtimeReceipts(p)
	owner := map[string]string{}
	for _, sn := range all {
		id := sn.receipt.ExecutionID
		if !executionIDPattern.MatchString(id) {
			return failf("%s: executionId %q does not match %s", sn.what, id, executionIDPattern).with(receiptEvidence("receipt", sn.receipt))
		}
		if prev, dup := owner[id]; dup {
			return failf("%s: executionId %q was already given to an earlier attempt (%s)", sn.what, id, prev).
				with(receiptEvidence("receipt", sn.receipt))
		}
		owner[id] = sn.what
	}
	if o != nil {
		return *o
	}
	if len(all) == 0 {
		return notProbed("the run saw no receipt")
	}
	return pass()
}

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
		if msg := invalidAt(sn.receipt, "$.phase"); msg != "" {
			return failf("%s: the decoder refuses the receipt's phase: %s", sn.what, msg)
		}
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

// checkFailureBounded judges every failure's text: bounded (a text the
// strict decoder refuses for its length counts), and free of the values
// the probes typed (the value outside the enum) and of secrets.
func checkFailureBounded(p *probe) outcome {
	var typed []string
	if res, _, ok := p.refuse(refusalByKind(refOutsideEnum)); ok {
		if m, isMap := res.call.args.(map[string]any); isMap {
			if s, isString := m[res.call.field].(string); isString {
				typed = append(typed, s)
			}
		}
	}
	// A denial carries a reason: judge one even when run alone.
	if _, o, ok := p.refuse(refusalByKind(refDenied)); !ok && o.verdict == Fail {
		return o
	}
	calls, _ := p.exercisePlan()
	for _, pl := range calls {
		if pl.secret != "" {
			typed = append(typed, pl.secret)
		}
	}
	for _, sn := range runtimeReceipts(p) {
		if msg := invalidAt(sn.receipt, "$.result.error"); msg != "" {
			return failf("%s: the decoder refuses the failure's text: %s", sn.what, msg)
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

// checkReceiptsValid judges every receipt of the run (after the cheap
// refusals and the exercise): each decodes strictly and speaks
// glass.page/v1.
func checkReceiptsValid(p *probe) outcome {
	if _, o := failures(p); o != nil {
		return *o
	}
	if err := p.each(anyAction, func(*exercised) bool { return true }); err != nil {
		return broken(err)
	}
	all := runtimeReceipts(p)
	for _, sn := range all {
		r := sn.receipt
		if r.Code() == receipt.CodeReceiptInvalid {
			return failf("%s: the runtime's receipt does not decode: %s", sn.what, r.Result.Error.Message)
		}
		if r.Protocol != receipt.Protocol {
			return failf("%s: the receipt speaks protocol %q, want %q", sn.what, r.Protocol, receipt.Protocol).with(receiptEvidence("receipt", r))
		}
	}
	if len(all) == 0 {
		return notProbed("the run saw no receipt")
	}
	return pass().with(textEvidence("receipts judged", fmt.Sprint(len(all))))
}
