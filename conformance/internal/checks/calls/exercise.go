package calls

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/glassworks/glass/conformance/internal/checks/stages"
	"github.com/glassworks/glass/conformance/internal/echo"
	"github.com/glassworks/glass/conformance/internal/judge"
	"github.com/glassworks/glass/conformance/internal/probe"
	"github.com/glassworks/glass/conformance/internal/refusal"
	"github.com/glassworks/glass/conformance/internal/report"
	"github.com/glassworks/glass/conformance/internal/userstep"
	"github.com/glassworks/glass/internal/scrub"
	"github.com/glassworks/glass/receipt"
)

// Checks of successful calls: each walks the exercise's calls it needs
// (made once per run, approved, with valid arguments) and judges what
// their receipts claim against the harness's own witnesses.

// Expectation: every successful call of an action whose snapshot
// declares an expectation reports one in expect, and the receipts report
// the description their snapshot declares. (An expectation built from the
// call's arguments may describe itself otherwise than its descriptor does,
// CONTRACT.md §5, so a receipt may differ from its snapshot; not one of
// them may give the declared description.)
func Expectation(p *probe.Probe) probe.Outcome {
	var o *probe.Outcome
	var tried, judged, differ []string
	err := p.Each(func(a receipt.ActionInfo) bool { return a.Expect != "" }, func(e *probe.Exercised) bool {
		if !e.Receipt.Result.OK {
			tried = append(tried, fmt.Sprintf("%s: %s", e.Action.ID, report.Got(e.Receipt)))
			return true
		}
		got := e.Receipt.Result.Expect
		if strings.TrimSpace(got) == "" {
			res := probe.Failf("%s succeeded without expect, but the action declares the expectation %q", e.Action.ID, e.Action.Expect).
				With(report.ReceiptEvidence("receipt", e.Receipt))
			o = &res
			return false
		}
		if got == e.Action.Expect {
			judged = append(judged, fmt.Sprintf("%s: %q", e.Action.ID, got))
		} else {
			differ = append(differ, fmt.Sprintf("%s: %q, declared %q", e.Action.ID, got, e.Action.Expect))
		}
		return true
	})
	if o := probe.VerdictOf(err, o); o != nil {
		return *o
	}
	// A hand-off's check is its expectation: the hand-offs the manifest
	// names with the user's steps succeed, and must report it. They are
	// judged apart: a hand-off's check is reported on a path of its own,
	// so one that reports it rescues no other call.
	done, err := stages.HandoffsDone(p)
	if err != nil {
		return probe.Broken(err)
	}
	var handed []string
	for _, d := range done {
		if d.Action.Expect == "" {
			continue
		}
		got := d.Receipt.Result.Expect
		if strings.TrimSpace(got) == "" {
			return probe.Failf("%s: the user did the hand-off's step and it succeeded without expect, but the hand-off declares the check %q, which the runtime observed before succeeding", d.Where, d.Action.Expect).
				With(report.ReceiptEvidence("receipt", d.Receipt))
		}
		handed = append(handed, fmt.Sprintf("%s (a hand-off the user did): %q, declared %q", d.Where, got, d.Action.Expect))
	}
	exercised := len(judged)
	judged = append(judged, handed...)
	switch {
	case exercised > 0 || len(differ) == 0 && len(judged) > 0:
		res := probe.Pass().With(report.TextEvidence("receipts that report the declared expectation", judged...))
		if len(differ) > 0 {
			res = res.With(report.TextEvidence("receipts whose expectation describes itself otherwise (built from the arguments)", differ...))
		}
		return res
	case len(differ) > 0:
		return probe.Failf("no successful call reports the expectation its snapshot declares: %s", differ[0]).
			With(report.TextEvidence("receipts and declared expectations", differ...))
	case len(tried) > 0:
		return probe.NotProbed("no call of an action that declares an expectation succeeded (" + strings.Join(tried, "; ") + ")")
	}
	return probe.NotProbed("the page declares no available action with an expectation that the probe can call").With(p.PlanNotes()...)
}

// removalProblem checks a receipt's removals against the browser itself:
// a record reported removed no longer shows in the page's text or its
// rendered page (live regions, where toasts announce the removal,
// aside). It returns the violation, if any, and how many removals it could
// witness, or why it could not.
func removalProblem(e *probe.Exercised, window *receipt.Snapshot) (o *probe.Outcome, witnessed int, why []string) {
	c := e.Receipt.Result.Changed
	if c == nil || c.Records == nil || len(c.Records.Removed) == 0 {
		return nil, 0, nil
	}
	if !e.DOMWitness {
		return nil, 0, []string{e.Action.ID + ": the DOM changes by itself, so it cannot witness the removal"}
	}
	beforeShown, afterShown := renderedContent(e.Before.Rendered), renderedContent(e.After.Rendered)
	for i, id := range c.Records.Removed {
		if i == 5 {
			break
		}
		rec, ok := findRecord(e.Before.Snap, id)
		if !ok {
			if _, inWindow := findRecord(window, id); inWindow {
				why = append(why, fmt.Sprintf("%s: %s was rendered by revealing the target, after the DOM's first witness", e.Action.ID, id))
				continue
			}
			res := probe.Failf("%s: changed.records.removed lists %q, which was not a record before the call", e.Action.ID, id).
				With(report.ReceiptEvidence("receipt", e.Receipt))
			return &res, witnessed, why
		}
		value, n := telltale(rec, e.Before.DOM.Text)
		if value == "" {
			why = append(why, fmt.Sprintf("%s: no field of %s shows in the page's text", e.Action.ID, id))
			continue
		}
		witnessed++
		if m := strings.Count(e.After.DOM.Text, value); m >= n {
			res := probe.Failf("%s reports %s removed, but the page still shows %q as often as before (%d times)", e.Action.ID, id, value, m).
				With(report.ReceiptEvidence("receipt", e.Receipt), report.TextEvidence("DOM witness", fmt.Sprintf("%q in the body text outside live regions: %d times before the call, %d after", value, n, m)))
			return &res, witnessed, why
		}
		if nb := strings.Count(beforeShown, value); nb > 0 {
			if na := strings.Count(afterShown, value); na >= nb {
				res := probe.Failf("%s reports %s removed, but the rendered page still shows %q as often as before (%d times)", e.Action.ID, id, value, na).
					With(report.ReceiptEvidence("receipt", e.Receipt), report.TextEvidence("rendered page after the call", afterShown))
				return &res, witnessed, why
			}
		}
	}
	return nil, witnessed, why
}

// ChangedRecords judges changed.records of every write the exercise
// makes against two witnesses: the harness's own snapshots, from the
// runtime's before window (probe.Window) to the end of the call — records
// added, removed and updated with their fields, the order, the totals and
// every omission count — and for removals the DOM and the accessibility
// tree, so a runtime that misreports its effects, even in its own
// snapshots, is caught.
func ChangedRecords(p *probe.Probe) probe.Outcome {
	var o *probe.Outcome
	var why, windows []string
	judged, witnessed := 0, 0
	// Every call's records, reads too (a sort reorders them); the removal
	// witness, which reads the rendered page, for writes.
	err := p.Each(probe.AnyAction, func(e *probe.Exercised) bool {
		if e.Receipt.Result.Changed == nil {
			return true
		}
		judged++
		w, err := p.Window(e)
		if err != nil {
			res := probe.Broken(err)
			o = &res
			return false
		}
		if w.Before != e.Before.Snap || w.E != e {
			windows = append(windows, e.Action.ID+": judged from "+w.Note)
		}
		if pr := judge.RecordsProblem(w.E.Receipt, w.Before, w.E.After.Snap); pr != "" {
			res := probe.Failf("%s: %s%s", e.Action.ID, pr, w.Cause()).With(changeEvidence(w, w.E.After.Snap, "snapshot after the call")...)
			o = &res
			return false
		}
		if !probe.IsWrite(e.Action) {
			return true
		}
		bad, n, wh := removalProblem(e, w.Before)
		witnessed += n
		why = append(why, wh...)
		o = bad
		return o == nil
	})
	if o := probe.VerdictOf(err, o); o != nil {
		return *o
	}
	if judged == 0 {
		return probe.NotProbed("no write of the run produced a receipt with changed to compare").With(p.PlanNotes()...)
	}
	res := probe.Pass()
	if len(windows) > 0 {
		res = res.With(report.TextEvidence("before windows", windows...))
	}
	if witnessed == 0 {
		if len(why) == 0 {
			why = []string{"no call of the run removed a record"}
		}
		res = res.With(report.TextEvidence("removals not witnessed in the DOM", why...))
	}
	return res
}

// changeEvidence is the evidence of a changed judged from window w to
// after: the receipt, the window, the difference the harness sees and the
// two snapshots.
func changeEvidence(w probe.Window, after *receipt.Snapshot, afterLabel string) []report.Evidence {
	return []report.Evidence{report.ReceiptEvidence("receipt", w.E.Receipt), report.TextEvidence("judged from", w.Note),
		report.TextEvidence("snapshot difference seen by the harness", judge.ModelDiff(w.Before, after)...),
		report.SnapshotEvidence("snapshot the window starts from", w.Before), report.SnapshotEvidence(afterLabel, after)}
}

func ChangedParts(p *probe.Probe) probe.Outcome {
	var o *probe.Outcome
	judged := 0
	var shows []*probe.Exercised // writes that showed a message
	var churned churnSeen
	// Every receipt the runtime sent, one the decoder refused too, is
	// judged as its call is made.
	err := p.EachCall(func(e *probe.Exercised) bool {
		if !e.ByRuntime && !(probe.Seen{Receipt: e.Receipt}).Sent() {
			return true
		}
		if pr := partsShapeProblem(e.Receipt); pr != "" {
			res := probe.Failf("%s: %s", e.Action.ID, pr).With(report.ReceiptEvidence("receipt", e.Receipt))
			o = &res
			return false
		}
		if !e.ByRuntime || !e.Receipt.Result.OK {
			return true
		}
		if c := e.Receipt.Result.Changed; probe.IsWrite(e.Action) && c != nil && c.Feedback != nil && len(c.Feedback.Added) > 0 {
			shows = append(shows, e)
			if o = churnEach(p, e, len(shows), &churned); o != nil {
				return false
			}
		}
		judged++
		w, err := p.Window(e)
		if err != nil {
			res := probe.Broken(err)
			o = &res
			return false
		}
		if pr := judge.PartsProblem(w.E.Receipt, w.Before, w.E.After.Snap); pr != "" {
			res := probe.Failf("%s: %s%s", e.Action.ID, pr, w.Cause()).With(changeEvidence(w, w.E.After.Snap, "snapshot after the call")...)
			o = &res
			return false
		}
		return true
	})
	if o := probe.VerdictOf(err, o); o != nil {
		return *o
	}
	if o := churnTurns(p, shows, &churned); o != nil {
		return *o
	}
	if o := partsAudit(p); o != nil {
		return *o
	}
	if judged == 0 {
		return probe.NotProbed("no call of the run succeeded").With(p.PlanNotes()...)
	}
	return probe.Pass()
}

func findRecord(s *receipt.Snapshot, id string) (receipt.Record, bool) {
	for _, r := range s.Records.Items {
		if r.ID == id {
			return r, true
		}
	}
	return receipt.Record{}, false
}

// telltale picks the record's most specific text that shows in the page:
// the string field found the fewest times (ties: the longest). It returns
// the value and how often it shows.
func telltale(rec receipt.Record, text string) (string, int) {
	best, bestN := "", 0
	for _, k := range slices.Sorted(maps.Keys(rec.Fields)) {
		v, ok := rec.Fields[k].(string)
		if !ok || len(strings.TrimSpace(v)) < 3 {
			continue
		}
		n := strings.Count(text, v)
		if n == 0 {
			continue
		}
		if best == "" || n < bestN || n == bestN && len(v) > len(best) {
			best, bestN = v, n
		}
	}
	return best, bestN
}

// liveRoles are the ARIA roles of regions that announce changes.
var liveRoles = []string{"status", "alert", "log", "timer", "marquee"}

// renderedContent drops the subtrees of live regions from a reading of the
// rendered page (pagewatch.Rendered: one "- role ..." line per element,
// nested by indentation).
func renderedContent(s string) string {
	var out []string
	skip := -1
	for _, line := range strings.Split(s, "\n") {
		indent := len(line) - len(strings.TrimLeft(line, " "))
		if skip >= 0 {
			if indent > skip {
				continue
			}
			skip = -1
		}
		t := strings.TrimPrefix(strings.TrimSpace(line), "- ")
		role := t
		if i := strings.IndexAny(t, " :["); i >= 0 {
			role = t[:i]
		}
		live := strings.Contains(t, "aria-live=") && !strings.Contains(t, `aria-live="off"`)
		if slices.Contains(liveRoles, role) || live {
			skip = indent
			continue
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

// WriteWarning: a successful write that changed nothing carries a
// warning and still reports ok.
func WriteWarning(p *probe.Probe) probe.Outcome {
	uo, un := unchangedWrites(p)
	if uo != nil {
		return *uo
	}
	var succeeded []*probe.Exercised
	o, n := p.JudgeEach(probe.IsWrite, func(e *probe.Exercised) (bool, string) {
		if e.Receipt.Result.OK && e.Secret == "" {
			succeeded = append(succeeded, e)
		}
		if !e.Receipt.Result.OK || e.Receipt.Result.Changed != nil && e.Receipt.Result.Changed.Observed {
			return false, ""
		}
		if strings.TrimSpace(e.Receipt.Result.Warning) == "" {
			return true, fmt.Sprintf("a %s action completed without any observable change, but the receipt has no warning", e.Action.Risk)
		}
		return true, ""
	})
	if o == nil {
		var tn int
		o, tn = writtenTwice(p, succeeded)
		n += tn
	}
	n += un
	return p.Judged(o, n, "no write of the run succeeded without changing the page model (each was also called twice in a row), and the manifest names none under unchangedWrites")
}

// maxTwice bounds the writes writtenTwice calls.
const maxTwice = 16 // not a contract bound

// writtenTwice calls each write the exercise saw succeed (up to maxTwice,
// none that passes the probe's sensitive value) twice in a row on one
// approved page, with the exercise's arguments: a write that sets
// something to a value changes nothing the second time, so that call
// reports changed.observed false and must carry a warning — whatever kind
// of action it is. A write the page refuses by then (an earlier one
// changed it) is left out. It returns the violation and how many second
// calls reported observed false.
func writtenTwice(p *probe.Probe, writes []*probe.Exercised) (*probe.Outcome, int) {
	if len(writes) == 0 {
		return nil, 0
	}
	pg, err := p.OpenApproved("")
	if err != nil {
		o := probe.Broken(err)
		return &o, 0
	}
	defer pg.Close()
	n := 0
	for _, e := range writes[:min(len(writes), maxTwice)] {
		if r := pg.Do(e.Action.ID, e.Args); !r.Result.OK {
			continue
		}
		r, byRuntime := pg.DoAnswered(e.Action.ID, e.Args)
		if !byRuntime || !r.Result.OK || r.Result.Changed != nil && r.Result.Changed.Observed {
			continue
		}
		n++
		if strings.TrimSpace(r.Result.Warning) == "" {
			o := probe.Failf("%s, called twice in a row with the same arguments: the second call completed without any observable change (changed.observed false), but its receipt has no warning; a %s action's must", e.Action.ID, e.Action.Risk).
				With(report.ReceiptEvidence("receipt of the second call", r))
			return &o, n
		}
	}
	return nil, n
}

// ReadNoWarning: a successful read carries no warning unless its
// fidelity is low.
func ReadNoWarning(p *probe.Probe) probe.Outcome {
	o, n := p.JudgeEach(probe.IsRead, func(e *probe.Exercised) (bool, string) {
		if !e.Receipt.Result.OK {
			return false, ""
		}
		if w := e.Receipt.Result.Warning; w != "" && e.Receipt.Result.Fidelity != receipt.FidelityLow {
			return true, fmt.Sprintf("a read action's receipt carries the warning %q", w)
		}
		return true, ""
	})
	return p.Judged(o, n, "no read action of the page could be called successfully")
}

func hasSecret(p *probe.Probe) func(receipt.ActionInfo) bool {
	calls, _ := p.ExercisePlan()
	return func(a receipt.ActionInfo) bool {
		for _, pl := range calls {
			if pl.Action.ID == a.ID {
				return pl.Secret != ""
			}
		}
		return false
	}
}

// SensitiveNeverEchoed passes a sensitive value through every string
// parameter of every action (the echo probe), and through the sensitive
// parameters of the exercise's calls: the value, in any spelling, must not
// show in the runtime's receipt, in the snapshot after the call, or in a
// confirmation or hand-off request the runtime sent.
func SensitiveNeverEchoed(p *probe.Probe) probe.Outcome {
	var o *probe.Outcome
	var judged []string
	leak := func(what, msg string, ev report.Evidence) bool {
		res := probe.Failf("%s: %s", what, msg).With(ev)
		o = &res
		return false
	}
	err := p.Each(hasSecret(p), func(e *probe.Exercised) bool {
		judged = append(judged, e.Action.ID+" (a sensitive parameter) → "+report.OutcomeCode(e.Receipt))
		set := scrub.New(e.Secret)
		if rj, _ := receipt.CanonicalJSON(e.Receipt); set.Contains(rj) {
			return leak(e.Action.ID, "the receipt contains the sensitive value the call passed", report.ReceiptEvidence("receipt", e.Receipt))
		}
		if sj, _ := receipt.CanonicalJSON(e.After.Snap); set.Contains(sj) {
			return leak(e.Action.ID, "the page model snapshot after the call contains the sensitive value", report.SnapshotEvidence("snapshot after the call", e.After.Snap))
		}
		for _, c := range e.Confirmations {
			// The harness masks what it records; SensitiveMasked says it
			// had to, that is, that the runtime sent the value in clear.
			if cj, _ := json.Marshal(c.Request); c.SensitiveMasked || set.Contains(cj) {
				return leak(e.Action.ID, "the runtime sent the confirmation request with the sensitive value in clear (the host masked it)", report.ConfirmationEvidence(e.Confirmations))
			}
		}
		return true
	})
	if o := probe.VerdictOf(err, o); o != nil {
		return *o
	}
	notes, err := echo.Each(p, func(c echo.Call) bool {
		what := fmt.Sprintf("%s with the sensitive value in %s", c.Action.ID, strings.Join(c.Params, ", "))
		if c.Leak != "" {
			ev := report.TextEvidence(c.Leak, c.Evidence)
			if c.Leak == "the receipt" {
				ev = report.ReceiptEvidence("receipt", c.Receipt)
			}
			return leak(what, c.Leak+" carries the sensitive value the call passed, where the runtime must write [sensitive]", ev)
		}
		if c.ByRuntime {
			judged = append(judged, what+" → "+report.OutcomeCode(c.Receipt))
		}
		return true
	})
	if err != nil {
		return probe.Broken(err)
	}
	if o != nil {
		return *o
	}
	if len(judged) == 0 {
		why := "the page declares no action with a string parameter (a {\"$sensitive\": name} placeholder can stand for any string)"
		if len(notes) > 0 {
			why += " that the probe can build arguments for (" + strings.Join(notes, "; ") + ")"
		}
		return probe.NotProbed(why).With(p.PlanNotes()...)
	}
	return probe.Pass().With(report.TextEvidence("calls judged", judged...))
}

// Ticket: every confirmation the runtime asked is listed in the
// receipt, an approved one with the host's ticket unchanged, a denied one
// as not approved.
func Ticket(p *probe.Probe) probe.Outcome {
	var o *probe.Outcome
	probed := 0
	// A flow that needs no confirmation of its own asks again for a
	// riskier step (CONTRACT.md §2.4): its calls are judged too.
	asks := func(a receipt.ActionInfo) bool { return probe.NeedsConfirmation(a) || a.Kind == receipt.KindFlow }
	err := p.Each(asks, func(e *probe.Exercised) bool {
		for _, c := range e.Confirmations {
			if !c.Approved {
				continue
			}
			probed++
			// A step's re-ask is listed under the step's action id
			// (CONTRACT.md §2.4), the call's own under the call's.
			listedAs := c.Request.Action
			if c.Request.Step != "" {
				listedAs = c.Request.Step
			}
			found := false
			for _, rc := range e.Receipt.Confirmations {
				found = found || rc.Action == listedAs && rc.Approved && rc.Ticket == c.Ticket
			}
			// Every ticket the receipt lists is one the host issued.
			for _, rc := range e.Receipt.Confirmations {
				issued := false
				for _, h := range e.Confirmations {
					issued = issued || rc.Ticket != "" && h.Approved && h.Ticket == rc.Ticket
				}
				if rc.Ticket != "" && !issued {
					res := probe.Failf("%s: the receipt's confirmations list the ticket %q for %s, which the host never issued", e.Action.ID, rc.Ticket, rc.Action).
						With(report.ReceiptEvidence("receipt", e.Receipt), report.ConfirmationEvidence(e.Confirmations))
					o = &res
					return false
				}
			}
			if !found {
				res := probe.Failf("%s: the host approved %s with ticket %q, but the receipt's confirmations do not list it under %s with that ticket", e.Action.ID, listedAs, c.Ticket, listedAs).
					With(report.ReceiptEvidence("receipt", e.Receipt), report.ConfirmationEvidence(e.Confirmations))
				o = &res
				return false
			}
		}
		// Every approved call is judged, not the first only: a runtime
		// may copy the right ticket on one page load and another's on the
		// next (a replayed approval).
		return true
	})
	if o := probe.VerdictOf(err, o); o != nil {
		return *o
	}
	// A denied confirmation is listed not approved, with no ticket (the
	// host issued none); one the runtime could not ask for want of a
	// channel is listed too, the same way (CONTRACT.md §2.4).
	// An answer whose approved member is anything but the boolean true is
	// a denial too (CONTRACT.md §6.3), and so is a channel that rejects:
	// each must be refused like a denial and listed like one.
	for _, kind := range []string{refusal.RefDenied, refusal.RefNoChannel, refusal.RefMalformedApproval, refusal.RefChannelFails} {
		rf := refusal.RefusalByKind(kind)
		res, out, ok := p.Refuse(rf)
		if !ok {
			if out.Verdict == report.Fail {
				return out
			}
			continue
		}
		if kind != refusal.RefNoChannel && len(res.Confirmations) == 0 {
			continue // policy.denied's violation: nothing was asked
		}
		if kind == refusal.RefMalformedApproval || kind == refusal.RefChannelFails {
			if o := probe.ExpectRefused(res, rf.Code); o.Verdict != report.Pass {
				return o
			}
		}
		if res.Receipt.Code() != receipt.CodePermissionDenied {
			continue // policy.denied's and policy.no-channel's violation
		}
		probed++
		var listed *receipt.Confirmation
		for i, c := range res.Receipt.Confirmations {
			if c.Action == res.Call.ID {
				listed = &res.Receipt.Confirmations[i]
			}
		}
		what := "the host denied the confirmation"
		switch kind {
		case refusal.RefNoChannel:
			what = "the page had no confirmation channel"
		case refusal.RefMalformedApproval:
			what = `the host answered {"approved": "1"}, a denial`
		case refusal.RefChannelFails:
			what = "the confirmation channel rejected, a denial"
		}
		ev := []report.Evidence{report.ReceiptEvidence("receipt", res.Receipt), report.ConfirmationEvidence(res.Confirmations)}
		switch {
		case listed == nil || listed.Approved:
			return probe.Failf("%s: %s, but the receipt's confirmations do not list %s as not approved", res.Call.Describe, what, res.Call.ID).With(ev...)
		case listed.Ticket != "":
			return probe.Failf("%s: %s, so the host issued no ticket, but the receipt's confirmations list the ticket %q", res.Call.Describe, what, listed.Ticket).With(ev...)
		}
	}
	// Every approval any receipt of the run lists carries a ticket the
	// host issued on that receipt's page, for that call's execution (a
	// resume's may be the flow's first call's): a runtime that replays an
	// approval of another page load, or of another call, copies no ticket
	// of the host's for this call. An audit, so that it sees every
	// receipt of the run.
	for _, sn := range p.SentReceipts() {
		for _, rc := range sn.Receipt.Confirmations {
			if !rc.Approved || rc.Ticket == "" {
				continue
			}
			probed++
			exec, issued := sn.Tickets[rc.Ticket]
			ev := report.ReceiptEvidence("receipt", sn.Receipt)
			switch {
			case !issued:
				return probe.Failf("%s: the receipt's confirmations list the ticket %q for %s, which the host never issued on its page", sn.What, rc.Ticket, rc.Action).With(ev)
			case exec != sn.Receipt.ExecutionID && !strings.HasPrefix(sn.What, "resume "):
				return probe.Failf("%s: the receipt (execution %q) lists the ticket %q for %s, which the host issued to execution %q", sn.What, sn.Receipt.ExecutionID, rc.Ticket, rc.Action, exec).With(ev)
			}
		}
	}
	if probed == 0 {
		return probe.NotProbed("no call of the run asked the host for confirmation").With(p.PlanNotes()...)
	}
	return probe.Pass()
}

// ExpectOnlyWhenVerified: a receipt carries expect only when its action
// declares an expectation — which the action's snapshot descriptor shows
// with expect (CONTRACT.md §5) — and the runtime observed it true during
// the call. So no successful receipt of an action whose descriptor has no
// expect carries one, and no failed receipt does (the manifest's
// expectationFailures, whose expectation was not observed, among them).
func ExpectOnlyWhenVerified(p *probe.Probe) probe.Outcome {
	judged := 0
	for _, sc := range p.Manifest().ExpectationFailures {
		r, o := p.Scenario(sc, "expectationFailures")
		if o != nil {
			return *o
		}
		if r.Code() != receipt.CodeExpectationFailed {
			// The manifest names an expectation that does not come true
			// here, so no receipt of this call may report it observed —
			// the failure code is verify.expectation-failed's concern.
			if r.Result.Expect != "" {
				return probe.Failf("%s at %s (manifest expectationFailures): the expectation does not come true there, but the call ended %s and its receipt reports expect %q: the runtime reported an expectation it did not observe", sc.Action, sc.URL, report.OutcomeCode(r), r.Result.Expect).
					With(report.ReceiptEvidence("receipt", r))
			}
			continue
		}
		judged++
		if r.Result.Expect != "" {
			return probe.Failf("%s: the expectation was not observed (EXPECTATION_FAILED), but the receipt reports expect %q", sc.Action, r.Result.Expect).
				With(report.ReceiptEvidence("receipt", r))
		}
	}
	o, n := p.JudgeEach(probe.AnyAction, func(e *probe.Exercised) (bool, string) {
		if !e.Receipt.Result.OK {
			return false, ""
		}
		declared := e.Action
		if a, ok := e.Before.Snap.Action(e.Action.ID); ok {
			declared = a
		}
		if got := e.Receipt.Result.Expect; got != "" && declared.Expect == "" {
			return true, fmt.Sprintf("the receipt reports expect %q, but the action's snapshot descriptor shows no expectation (no expect)", got)
		}
		return true, ""
	})
	if o != nil {
		return *o
	}
	judged += n
	// Every other receipt of the run: a failure never carries expect, and
	// a success only for an action that declares an expectation.
	for _, sn := range p.SeenReceipts() {
		r := sn.Receipt
		if !sn.ByRuntime || r.Result.Expect == "" {
			continue
		}
		switch {
		case !r.Result.OK:
			return probe.Failf("%s: the call failed with %s, but the receipt reports expect %q: a failed call observed no expectation", sn.What, r.Code(), r.Result.Expect).
				With(report.ReceiptEvidence("receipt", r))
		case sn.Declared && sn.Action.Expect == "":
			return probe.Failf("%s: the receipt reports expect %q, but the action's snapshot descriptor shows no expectation (no expect)", sn.What, r.Result.Expect).
				With(report.ReceiptEvidence("receipt", r))
		}
	}
	return p.Judged(nil, judged, "needs a page whose action can be called successfully, or a manifest entry under expectationFailures")
}

// DataFunctionOnly: no receipt of an element, flow or hand-off action
// carries data — the exercise's successful calls, the hand-offs' calls and
// every other receipt of the run.
func DataFunctionOnly(p *probe.Probe) probe.Outcome {
	o, n := p.JudgeEach(func(a receipt.ActionInfo) bool { return a.Kind != receipt.KindFunction }, func(e *probe.Exercised) (bool, string) {
		if !e.Receipt.Result.OK {
			return false, ""
		}
		if len(e.Receipt.Result.Data) > 0 {
			return true, fmt.Sprintf("the receipt of an action of kind %s carries data %s", e.Action.Kind, report.Clip(string(e.Receipt.Result.Data), 80))
		}
		return true, ""
	})
	if o != nil {
		return *o
	}
	// The exercise calls no hand-off: they are called as handoff.outcome
	// calls them (a hand-off without a check succeeds when the host
	// answers completed). Then every receipt the run saw of a declared
	// action of another kind, failed ones too, is judged (an audit).
	var found *probe.Outcome
	judged := map[*receipt.Receipt]bool{}
	look := func() bool {
		for _, sn := range p.SentReceipts() {
			if !sn.Declared || sn.Action.Kind == receipt.KindFunction || sn.Action.Kind == "" || judged[sn.Receipt] {
				continue
			}
			judged[sn.Receipt] = true
			if len(sn.Receipt.Result.Data) > 0 {
				res := probe.Failf("%s: the receipt of an action of kind %s carries data %s", sn.What, sn.Action.Kind, report.Clip(string(sn.Receipt.Result.Data), 80)).
					With(report.ReceiptEvidence("receipt", sn.Receipt))
				found = &res
				return true
			}
		}
		return false
	}
	stages.Handoffs(p, look)
	if look() || found != nil {
		return *found
	}
	return p.Judged(nil, n+len(judged), "no action of a kind other than function could be called successfully")
}

// RiskClasses: every action carries a risk class, and each call asks
// for confirmation exactly once when it needs one, and never otherwise.
func RiskClasses(p *probe.Probe) probe.Outcome {
	for _, a := range p.Base().Actions.Items {
		switch a.Risk {
		case receipt.RiskRead, receipt.RiskWrite, receipt.RiskDangerous:
		default:
			return probe.Failf("the snapshot gives %s the risk %q, want read, write or dangerous", a.ID, a.Risk)
		}
		// The snapshot reports the outcome as confirm (CONTRACT.md §2.4),
		// and a dangerous action always asks.
		if a.Risk == receipt.RiskDangerous && !a.Confirm && a.Kind != receipt.KindHandoff {
			return probe.Failf("the snapshot gives %s the risk dangerous and confirm false: a dangerous action always asks, and the snapshot reports that outcome as confirm", a.ID).
				With(report.TextEvidence("descriptor", judge.JSONText(a)))
		}
	}
	done := map[string]bool{}
	o, n := p.JudgeEach(probe.AnyAction, func(e *probe.Exercised) (bool, string) {
		done[riskClass(e.Action)] = true
		// A flow step that turns out riskier than the flow asks again
		// (policy.flow-reask): only the call's own requests count here.
		asked := 0
		for _, c := range e.Confirmations {
			if c.Request.Step == "" {
				asked++
			}
		}
		if probe.NeedsConfirmation(e.Action) && asked != 1 {
			return true, fmt.Sprintf("the action is %s (confirm %t) and the runtime asked for confirmation %d times, want once", e.Action.Risk, e.Action.Confirm, asked)
		}
		if !probe.NeedsConfirmation(e.Action) && asked != 0 {
			return true, fmt.Sprintf("the action is %s and declares no confirmation, but the runtime asked %d times", e.Action.Risk, asked)
		}
		return true, ""
	})
	if o != nil {
		o.Evidence = append(o.Evidence, report.TextEvidence("how the runtime is judged", "an action needs confirmation when its risk is dangerous or the snapshot says confirm: true"))
		return *o
	}
	if o := deniedAskedOnce(p); o != nil {
		return *o
	}
	bad, more := everyRiskClass(p, done)
	if bad != nil {
		return *bad
	}
	if len(more) > 0 {
		return probe.Pass().With(report.TextEvidence("classes the exercise did not reach, called once each", more...))
	}
	return p.Judged(o, n, "no action could be called")
}

// Revision: every receipt carries revisions, they never go down, and
// a call that changed the page model moves the revision.
func Revision(p *probe.Probe) probe.Outcome {
	o, n := p.JudgeEach(probe.AnyAction, func(e *probe.Exercised) (bool, string) {
		rv := e.Receipt.Revision
		switch {
		case rv == nil:
			return true, "the receipt has no revision"
		case rv.After < rv.Before:
			return true, fmt.Sprintf("revision went down, %d → %d", rv.Before, rv.After)
		case e.After.Snap.Revision < e.Before.Snap.Revision:
			return true, fmt.Sprintf("the snapshot's revision went down, %d → %d", e.Before.Snap.Revision, e.After.Snap.Revision)
		case e.Receipt.Result.Changed != nil && e.Receipt.Result.Changed.Observed && rv.After <= rv.Before:
			return true, fmt.Sprintf("changed.observed is true, but the revision stayed at %d → %d", rv.Before, rv.After)
		}
		return true, ""
	})
	if o == nil && n > 0 {
		if bad, _ := revisionWalk(p); bad != nil {
			return *bad
		}
		if bad, _ := userstep.RevisionByHand(p); bad != nil {
			return *bad
		}
	}
	// Every receipt of the run, a failure's too (an expectation that
	// failed after the page changed): an audit, so that it sees them all,
	// and it provokes every failure the suite knows, as the failure
	// audits do, so that run alone it still judges them.
	stayed := func(r *receipt.Receipt) string {
		rv, ch := r.Revision, r.Result.Changed
		if rv != nil && ch != nil && ch.Observed && rv.After <= rv.Before {
			return fmt.Sprintf("changed.observed is true, but the revision stayed at %d → %d", rv.Before, rv.After)
		}
		return ""
	}
	if o == nil && n > 0 {
		if f := auditFailures(p, stayed); f.Verdict == report.Fail {
			return f
		}
		for _, sn := range p.SentReceipts() {
			if pr := stayed(sn.Receipt); pr != "" {
				return probe.Failf("%s: %s", sn.What, pr).With(report.ReceiptEvidence("receipt", sn.Receipt))
			}
		}
	}
	return p.Judged(o, n, "no action could be called")
}
