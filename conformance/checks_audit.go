package conformance

import (
	"fmt"
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
			pg, err := p.open(sc.URL, glasstest.Approve(), glasstest.ExpectTimeout(scenarioExpectTimeout))
			if err != nil {
				return broken(err)
			}
			var args any
			if sc.Args != nil {
				args = sc.Args
			}
			r := pg.do(sc.Action, args)
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

func boundProblem(r *receipt.Receipt) string {
	if r.Code() == receipt.CodeReceiptInvalid {
		return "the runtime sent a receipt of the wrong shape: " + r.Result.Error.Message
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
		if id == "" {
			return failf("%s: the receipt has no executionId", sn.what).with(receiptEvidence("receipt", sn.receipt))
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
