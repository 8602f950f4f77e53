package calls

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/glassworks/glass/conformance/internal/judge"
	"github.com/glassworks/glass/conformance/internal/probe"
	"github.com/glassworks/glass/conformance/internal/refusal"
	"github.com/glassworks/glass/conformance/internal/report"
	"github.com/glassworks/glass/receipt"
)

// ---- audits ------------------------------------------------------------------

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
		case l.n > receipt.MaxChangedEntries:
			return fmt.Sprintf("changed.%s lists %d entries, over the bound of %d", l.name, l.n, receipt.MaxChangedEntries)
		case l.omitted < 0:
			return fmt.Sprintf("changed.%s has a negative omission count %d", l.name, l.omitted)
		case l.omitted > 0 && l.n < receipt.MaxChangedEntries:
			return fmt.Sprintf("changed.%s omits %d entries while listing only %d of the %d it may", l.name, l.omitted, l.n, receipt.MaxChangedEntries)
		}
	}
	return ""
}

// ChangedBounded judges every receipt of the run (making every exercise
// call, up to the first receipt it refuses): each list within its bound,
// an omission count only beside a full list, and for the exercise's calls
// every list with its omission count making the true count the harness's
// own snapshots show, from the runtime's before window.
func ChangedBounded(p *probe.Probe) probe.Outcome {
	// Every receipt the runtime sent, judged after each call of the
	// exercise (then those the rest of the run saw): a runtime whose lists
	// run over their bound is told at the first.
	sc := &receiptScan{p: p, judge: func(sn probe.Seen) *probe.Outcome {
		if pr := boundProblem(sn.Receipt); pr != "" {
			o := probe.Failf("%s: %s", sn.What, pr).With(report.ReceiptEvidence("receipt", sn.Receipt))
			return &o
		}
		return nil
	}}
	var o *probe.Outcome
	err := p.EachCall(func(e *probe.Exercised) bool {
		if sc.next() {
			return false
		}
		if !e.ByRuntime || e.Receipt.Result.Changed == nil {
			return true
		}
		w, err := p.Window(e)
		if err != nil {
			res := probe.Broken(err)
			o = &res
			return false
		}
		if pr := judge.CountsProblem(w.E.Receipt, w.Before, w.E.After.Snap); pr != "" {
			res := probe.Failf("%s: %s%s", e.Action.ID, pr, w.Cause()).With(report.ReceiptEvidence("receipt", w.E.Receipt), report.TextEvidence("judged from", w.Note),
				report.TextEvidence("snapshot difference seen by the harness", judge.ModelDiff(w.Before, w.E.After.Snap)...))
			o = &res
			return false
		}
		return true
	})
	if err != nil {
		return probe.Broken(err)
	}
	if sc.next() {
		return *sc.bad
	}
	if o != nil {
		return *o
	}
	if sc.seen == 0 {
		return probe.NotProbed("the run saw no receipt")
	}
	return probe.Pass().With(report.TextEvidence("receipts judged", fmt.Sprint(sc.seen)))
}

// failures makes the two cheapest refusals (shared with their own rules),
// so that an audit judges failures even when run alone, then returns every
// runtime receipt of the run; in a whole run audits go last and see every
// refusal.
func failures(p *probe.Probe) ([]probe.Seen, *probe.Outcome) {
	for _, kind := range []string{refusal.RefUnknownID, refusal.RefMalformed} {
		if _, o, ok := p.Refuse(refusal.RefusalByKind(kind)); !ok && o.Verdict == report.Fail {
			return nil, &o
		}
	}
	return p.SentReceipts(), nil
}

func auditFailures(p *probe.Probe, judge func(r *receipt.Receipt) string) probe.Outcome {
	return auditFailuresAnd(p, judge, nil)
}

// auditFailuresAnd is auditFailures that also stops when every, a scan of
// every receipt the runtime sent (nil: none), refuses one; the caller
// reads every.bad.
func auditFailuresAnd(p *probe.Probe, judge func(r *receipt.Receipt) string, every *receiptScan) probe.Outcome {
	if _, o := failures(p); o != nil {
		return *o
	}
	// The failures are judged as they are provoked: a runtime that gets
	// one wrong is told at the first, without the rest of the calls being
	// made (those computed ahead and not started never start; see
	// probe.Session.Wait). A runtime that gets none wrong is judged on
	// every failure, as before.
	judged := 0
	a := &receiptScan{p: p, judge: failuresOnly(judge, &judged)}
	stop := func() bool { return a.next() || (every != nil && every.next()) }
	if !stop() {
		provokeFailures(p, stop)
		a.next()
	}
	if a.bad != nil {
		return *a.bad
	}
	if judged == 0 {
		return probe.NotProbed("the run saw no failure")
	}
	return probe.Pass().With(report.TextEvidence("failures judged", fmt.Sprint(judged)))
}

// failuresOnly is a receiptScan's judge that gives judge the runtime's
// failed receipts, counting them in judged, and passes over the rest.
func failuresOnly(judge func(r *receipt.Receipt) string, judged *int) func(probe.Seen) *probe.Outcome {
	return func(sn probe.Seen) *probe.Outcome {
		r := sn.Receipt
		if r.Result.OK || !sn.ByRuntime {
			return nil
		}
		*judged++
		if pr := judge(r); pr != "" {
			o := probe.Failf("%s: %s", sn.What, pr).With(report.ReceiptEvidence("receipt", r))
			return &o
		}
		return nil
	}
}

func CodeTable(p *probe.Probe) probe.Outcome {
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

func EnvelopePhase(p *probe.Probe) probe.Outcome {
	failed := func(r *receipt.Receipt) string {
		if want := r.Code().Phase(); r.Phase != want {
			return fmt.Sprintf("%s carries phase %q, the code table says %q", r.Code(), r.Phase, want)
		}
		return ""
	}
	// Every receipt the runtime sent, judged as the run sees it (after the
	// exercise's first call, while the failures are provoked, then after
	// each other call of the exercise): a phase the decoder refuses, one
	// on a success, a failure's other than the code table's. A runtime that
	// puts a phase on every success is told at its first call, one that
	// gets a failure's wrong without every call being made first (calls
	// computed ahead may still run meanwhile).
	sc := &receiptScan{p: p, judge: func(sn probe.Seen) *probe.Outcome {
		var o probe.Outcome
		switch r := sn.Receipt; {
		case invalidAt(r, "$.phase") != "":
			o = probe.Failf("%s: the decoder refuses the receipt's phase: %s", sn.What, invalidAt(r, "$.phase"))
		case r.Result.OK && r.Phase != receipt.PhaseNone:
			o = probe.Failf("%s: a successful receipt carries phase %q", sn.What, r.Phase).With(report.ReceiptEvidence("receipt", r))
		case !r.Result.OK && sn.ByRuntime && failed(r) != "":
			o = probe.Failf("%s: %s", sn.What, failed(r)).With(report.ReceiptEvidence("receipt", r))
		default:
			return nil
		}
		return &o
	}}
	// An error of the first call is memoized: the walk of every call
	// below returns it, once the failures have been judged.
	_ = sc.exercise(1)
	if sc.bad != nil {
		return *sc.bad
	}
	o := auditFailuresAnd(p, failed, sc)
	if o.Verdict == report.Fail {
		return o
	}
	if sc.next() {
		return *sc.bad
	}
	if err := sc.exercise(0); err != nil {
		return probe.Broken(err)
	}
	if sc.bad != nil {
		return *sc.bad
	}
	return o
}

// receiptScan judges the receipts the runtime sent (SentReceipts, which
// only grows), each once, in the order the run saw them.
type receiptScan struct {
	p     *probe.Probe
	judge func(sn probe.Seen) *probe.Outcome
	seen  int
	bad   *probe.Outcome
}

// next judges the receipts seen since its last call and reports whether
// one was refused (a.bad).
func (a *receiptScan) next() bool {
	if a.bad != nil {
		return true
	}
	all := a.p.SentReceipts()
	for ; a.seen < len(all); a.seen++ {
		if o := a.judge(all[a.seen]); o != nil {
			a.bad = o
			return true
		}
	}
	return false
}

// exercise makes the exercise's calls (its first n, 0: all), judging the
// receipts after each, and stops at the first one refused. A call made
// before is not made again.
func (a *receiptScan) exercise(n int) error {
	made := 0
	return a.p.EachCall(func(*probe.Exercised) bool {
		made++
		return !a.next() && (n == 0 || made < n)
	})
}

func RecoveryStrategy(p *probe.Probe) probe.Outcome {
	refuseEachAction(p)
	if bad := retrySafeUnknownID(p); bad != nil {
		return *bad
	}
	if bad, _ := retrySafeOnlyIdempotent(p); bad != nil {
		return *bad
	}
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

// FailureBounded judges every failure's text: bounded (a text the
// strict decoder refuses for its length counts), and free of the values
// the probes typed (the value outside the enum) and of secrets.
func FailureBounded(p *probe.Probe) probe.Outcome {
	var typed []string
	if res, _, ok := p.Refuse(refusal.RefusalByKind(refusal.RefOutsideEnum)); ok {
		if m, isMap := res.Call.Args.(map[string]any); isMap {
			if s, isString := m[res.Call.Field].(string); isString {
				typed = append(typed, s)
			}
		}
	}
	// A denial carries a reason: judge one even when run alone.
	if _, o, ok := p.Refuse(refusal.RefusalByKind(refusal.RefDenied)); !ok && o.Verdict == report.Fail {
		return o
	}
	calls, _ := p.ExercisePlan()
	for _, pl := range calls {
		if pl.Secret != "" {
			typed = append(typed, pl.Secret)
		}
	}
	more, byCall := typedInRefusals(p)
	typed = append(typed, more...)
	for _, sn := range p.SentReceipts() {
		if msg := invalidAt(sn.Receipt, "$.result.error"); msg != "" {
			return probe.Failf("%s: the decoder refuses the failure's text: %s", sn.What, msg)
		}
	}
	return auditFailures(p, func(r *receipt.Receipt) string {
		e := r.Result.Error
		for name, text := range map[string]string{"message": e.Message, "reason": e.Reason, "path": e.Path} {
			if n := len([]rune(text)); n > receipt.MaxTextChars {
				return fmt.Sprintf("error.%s holds %d characters, over the bound of %d", name, n, receipt.MaxTextChars)
			}
			for _, v := range append(slices.Clip(typed), byCall[r.ExecutionID]...) {
				if v != "" && strings.Contains(text, v) {
					return fmt.Sprintf("error.%s repeats the value %q the caller typed", name, v)
				}
			}
			if frame := stackFrame.FindString(text); frame != "" {
				return fmt.Sprintf("error.%s holds a JavaScript stack trace (%q): script addresses and positions are the page's source, not a bounded failure text", name, frame)
			}
		}
		return ""
	})
}

// stackFrame finds a frame of a JavaScript stack trace in a failure's
// text: a script file's address with its line and column
// ("app.js:148:11"), a V8 frame ("at f (https://host/page:148:11)"), a
// Firefox frame ("f@https://host/app.js:148:11") or an anonymous script's
// position ("<anonymous>:3:9"). A time of day in a text or an address
// ("?start=10:30:00") is none.
var stackFrame = regexp.MustCompile(`\.(?:m?js|cjs|jsx?|tsx?)(?:\?[^\s:()]*)?:\d+:\d+|<anonymous>:\d+:\d+|\bat [^\s()]+ \((?:https?|file|blob|webpack):[^\s()]*:\d+:\d+\)|@(?:https?|file|blob|webpack):[^\s()]*:\d+:\d+`)

// ReceiptsValid judges every receipt of the run (after the cheap
// refusals and the exercise): each decodes strictly, speaks
// glass.page/v1 and, when it failed before its action was resolved,
// names no description.
func ReceiptsValid(p *probe.Probe) probe.Outcome {
	sc := &receiptScan{p: p, judge: func(sn probe.Seen) *probe.Outcome {
		var o probe.Outcome
		switch r := sn.Receipt; {
		case r.Code() == receipt.CodeReceiptInvalid:
			o = probe.Failf("%s: the runtime's receipt does not decode: %s", sn.What, r.Result.Error.Message)
		case r.Protocol != receipt.Protocol:
			o = probe.Failf("%s: the receipt speaks protocol %q, want %q", sn.What, r.Protocol, receipt.Protocol).With(report.ReceiptEvidence("receipt", r))
		case sn.ByRuntime && unresolved(r) && r.Result.Action.Description != "":
			o = probe.Failf("%s: the receipt fails %s, before the action is resolved, but its result.action carries the description %q: a failure before resolution names only the id the call named (CONTRACT.md §2.2, the receipt table's result.action)", sn.What, r.Code(), report.Clip(r.Result.Action.Description, 80)).
				With(report.ReceiptEvidence("receipt", r))
		default:
			return nil
		}
		return &o
	}}
	if _, o := failures(p); o != nil {
		return *o
	}
	// Judged after each call: a runtime whose every receipt is wrong is
	// told at the first.
	if sc.next() {
		return *sc.bad
	}
	if err := sc.exercise(0); err != nil {
		return probe.Broken(err)
	}
	if sc.next() {
		return *sc.bad
	}
	if sc.seen == 0 {
		return probe.NotProbed("the run saw no receipt")
	}
	return probe.Pass().With(report.TextEvidence("receipts judged", fmt.Sprint(sc.seen)))
}

// unresolved reports whether r failed before its action was resolved, by
// a code only such a failure has (an INVALID_ARGS may come before
// resolution or after it).
func unresolved(r *receipt.Receipt) bool {
	return r.Code() == receipt.CodeActionNotFound || r.Code() == receipt.CodeStaleRevision
}
