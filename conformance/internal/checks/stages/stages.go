package stages

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/glassworks/glass/conformance/internal/judge"
	"github.com/glassworks/glass/conformance/internal/manifest"
	"github.com/glassworks/glass/conformance/internal/params"
	"github.com/glassworks/glass/conformance/internal/probe"
	"github.com/glassworks/glass/conformance/internal/report"
	"github.com/glassworks/glass/conformance/internal/slow"
	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

// Checks of hand-offs, of revealing a target (stage 5), and of when the
// runtime takes its snapshots and how long it waits (stages 6 to 8).

// ---- hand-offs ---------------------------------------------------------------

// handoffTarget is one hand-off the probes call: every available hand-off
// the snapshot declares, and every one the manifest names.
type handoffTarget struct {
	action receipt.ActionInfo
	url    string
	args   any
	// outcomes are how the host answers, one call each.
	outcomes []string
	// user is what the user does before the host answers completed (a
	// manifest's handoffs entry with user steps): its one outcome is
	// completed, after the steps.
	user []manifest.UserStep
}

func (h handoffTarget) where() string {
	if h.url != "" {
		return h.action.ID + " at " + h.url
	}
	return h.action.ID
}

func handoffTargets(p *probe.Probe) ([]handoffTarget, []string) {
	var out []handoffTarget
	var why []string
	for _, a := range p.Base().Actions.Items {
		if a.Kind != receipt.KindHandoff || !a.Available {
			continue
		}
		if p.Manifest().Skips(a.ID) {
			// A manifest's handoffs entry is still called: naming it is
			// asking for it.
			why = append(why, a.ID+": skipped by the manifest")
			continue
		}
		args, err := p.ValidArgs(a, "")
		if err != nil {
			why = append(why, fmt.Sprintf("%s: %v", a.ID, err))
			continue
		}
		out = append(out, handoffTarget{action: a, args: args, outcomes: manifest.HandoffOutcomes})
	}
	for _, sc := range p.Manifest().Handoffs {
		if len(sc.User) > 0 {
			continue // userTargets
		}
		a, _ := p.Base().Action(sc.Action)
		a.ID = sc.Action
		out = append(out, handoffTarget{action: a, url: sc.URL, args: p.ScenarioArgs(sc), outcomes: []string{sc.Outcome}})
	}
	return out, why
}

// userTargets are the hand-offs the manifest names with the user's steps
// (handoffs entries with user): called only with the steps done, and
// judged by handoff.outcome and verify.expectation.
func userTargets(p *probe.Probe) []handoffTarget {
	var out []handoffTarget
	for _, sc := range p.Manifest().Handoffs {
		if len(sc.User) == 0 {
			continue
		}
		a, _ := p.Base().Action(sc.Action)
		a.ID = sc.Action
		out = append(out, handoffTarget{action: a, url: sc.URL, args: p.ScenarioArgs(sc), outcomes: []string{sc.Outcome}, user: sc.User})
	}
	return out
}

// handoffCall is one call of a hand-off, the host answering outcome
// without the user doing anything, between two witnesses.
type handoffCall struct {
	*probe.Watched
	confirmations []glasstest.ConfirmationRecord
	handoffs      []glasstest.HandoffRecord
}

// handoffExpectTimeout shortens the wait for a hand-off's check after a
// "completed" the user never performed.
const handoffExpectTimeout = 400 * time.Millisecond

func handoff(p *probe.Probe, h handoffTarget, answer string) (*handoffCall, error) {
	v, err := p.Memo(fmt.Sprintf("%s|handoff|%s|%s|%s", p.Transport, h.action.ID, h.url, answer), func() (any, error) {
		q := p.Sibling(p.Transport)
		defer q.Close()
		timeout := probeHandoffTimeout
		user := func(*glasstest.Handoff) glasstest.HandoffOutcome { return glasstest.HandoffOutcome(answer) }
		if answer == unansweredHandoff {
			// The user never answers: the host holds the request until
			// the call has its receipt, so the runtime's own wait must
			// run out and end it HANDOFF_TIMEOUT.
			release := make(chan struct{})
			defer close(release)
			timeout = unansweredHandoffTimeout
			user = func(*glasstest.Handoff) glasstest.HandoffOutcome { <-release; return glasstest.HandoffTimedOut }
		}
		opts := []glasstest.PageOption{glasstest.Deny(), glasstest.ExpectTimeout(handoffExpectTimeout), glasstest.HandoffTimeout(timeout), glasstest.HandoffWith(user)}
		if answer == noHandoffChannel {
			opts = append(opts, glasstest.NoHandoffChannel())
		}
		w, err := q.WatchedCall(h.url, h.action.ID, h.args, opts...)
		if err != nil {
			return nil, err
		}
		return &handoffCall{Watched: w, confirmations: w.Page.Harness.Confirmations(), handoffs: w.Page.Harness.Handoffs()}, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*handoffCall), nil
}

// firstOutcome is the answer the request and confirmation checks use: one
// that leaves the page as it was.
func firstOutcome(h handoffTarget) string {
	for _, o := range h.outcomes {
		if o != "completed" {
			return o
		}
	}
	return h.outcomes[0]
}

func noHandoff(why []string) probe.Outcome {
	msg := "the page declares no available hand-off action, and the manifest names none under handoffs"
	if len(why) > 0 {
		msg += " (" + strings.Join(why, "; ") + ")"
	}
	return probe.NotProbed(msg)
}

func HandoffNoConfirmation(p *probe.Probe) probe.Outcome {
	hs, why := handoffTargets(p)
	if len(hs) == 0 {
		return noHandoff(why)
	}
	for _, h := range hs {
		c, err := handoff(p, h, firstOutcome(h))
		if err != nil {
			return probe.Broken(err)
		}
		if len(c.confirmations) > 0 {
			return probe.Failf("%s is a hand-off (risk %s), but the runtime asked the host to confirm it", h.where(), h.action.Risk).
				With(report.ReceiptEvidence("receipt", c.Receipt), report.ConfirmationEvidence(c.confirmations))
		}
	}
	return probe.Pass()
}

// HandoffRequest: the runtime asks the host once, through
// glassHost.handoff, for the call's action, and does not act for the
// user: when the user does nothing, the page is as it was.
func HandoffRequest(p *probe.Probe) probe.Outcome {
	hs, why := handoffTargets(p)
	if len(hs) == 0 {
		return noHandoff(why)
	}
	for _, h := range hs {
		answer := firstOutcome(h)
		c, err := handoff(p, h, answer)
		if err != nil {
			return probe.Broken(err)
		}
		ev := []report.Evidence{report.ReceiptEvidence("receipt", c.Receipt), handoffEvidence(c.handoffs)}
		switch {
		case len(c.handoffs) != 1:
			return probe.Failf("%s: want one hand-off request to the host through glassHost.handoff, the runtime made %d", h.where(), len(c.handoffs)).With(ev...)
		case !c.handoffs[0].Solicited || c.handoffs[0].Request.Action != h.action.ID:
			return probe.Failf("%s: the hand-off request names the action %q and belongs to no call of the host", h.where(), c.handoffs[0].Request.Action).With(ev...)
		case c.handoffs[0].Request.TimeoutMs != probeHandoffTimeout.Milliseconds():
			return probe.Failf("%s: the host passed options.handoffTimeoutMs %d, but the hand-off request says timeoutMs %d: the runtime waits options.handoffTimeoutMs when the host passes it (§6.3)",
				h.where(), probeHandoffTimeout.Milliseconds(), c.handoffs[0].Request.TimeoutMs).With(ev...)
		}
		if answer == "completed" {
			continue
		}
		if d := probe.Unchanged(c.Before, c.After, c.DOMWitness); len(d) > 0 {
			return probe.Failf("%s: the user did nothing (the host answered %s), but the page changed: the runtime acted for the user: %s", h.where(), answer, d[0]).
				With(append(ev, report.TextEvidence("what changed", d...), probe.WitnessNote(c.DOMWitness))...)
		}
	}
	if o := completedUntouched(p, hs); o != nil {
		return *o
	}
	return probe.Pass()
}

func handoffEvidence(hs []glasstest.HandoffRecord) report.Evidence {
	var lines []string
	for _, h := range hs {
		b, _ := json.Marshal(h.Request)
		lines = append(lines, fmt.Sprintf("outcome=%s solicited=%t request=%s", h.Outcome, h.Solicited, b))
	}
	if len(lines) == 0 {
		lines = []string{"(none)"}
	}
	return report.TextEvidence("hand-off requests the host received", lines...)
}

// probeHandoffTimeout is the options.handoffTimeoutMs the hand-off probes
// pass: none of the defaults, so a request that names it shows the runtime
// took it (§6.3). The host answers at once either way.
const probeHandoffTimeout = 4321 * time.Millisecond // not a contract bound

// otherHandoffStatus is a hand-off answer's status that is none of the
// four: a runtime must take it as failed, not as cancelled or completed.
const otherHandoffStatus = "done"

// nearHandoffStatus is completed spelt another way: a status that is none
// of the four either (an outside audit's runtime folded the case, and
// took it for completed).
const nearHandoffStatus = "Completed"

// unansweredHandoff is no answer at all: the host holds the request until
// the runtime's own wait, unansweredHandoffTimeout, has run out.
const unansweredHandoff = "(no answer)"

const unansweredHandoffTimeout = 1500 * time.Millisecond // not a contract bound

// noHandoffChannel is a page whose host installed no hand-off channel
// (glassHost has no handoff member): no answer can come, and the runtime
// must fail HANDOFF_FAILED (CONTRACT.md, handoff.outcome), not take the
// missing channel for a denial or a timeout.
const noHandoffChannel = "(no hand-off channel)"

// HandoffOutcome answers each hand-off every way a user can — without
// doing the step — and checks the code each answer maps to; one hand-off
// (the first without a check, else the first) also gets answers of
// another status, "done" and "Completed" (HANDOFF_FAILED), and the first
// gets no answer at all
// (the runtime's own wait runs out: HANDOFF_TIMEOUT). A
// "completed" the user never performed succeeds only when the hand-off
// declares no check; with one, the check cannot be observed:
// HANDOFF_FAILED.
func HandoffOutcome(p *probe.Probe) probe.Outcome {
	hs, why := handoffTargets(p)
	users := userTargets(p)
	if len(hs) == 0 && len(users) == 0 {
		return noHandoff(why)
	}
	var judged []string
	// An answer with another status counts as failed (§6.3). It goes to
	// the first hand-off that declares no check, if one does: with a check
	// the user never performed, a runtime that took the answer for
	// completed would fail HANDOFF_FAILED all the same.
	other := 0
	for i, h := range hs {
		if h.action.Expect == "" {
			other = i
			break
		}
	}
	for i, h := range hs {
		answers := h.outcomes
		if i == other {
			answers = append(slices.Clip(answers), otherHandoffStatus, nearHandoffStatus)
		}
		if i == 0 {
			// The runtime's own wait running out is a timeout too; no
			// channel at all is a failure.
			answers = append(slices.Clip(answers), unansweredHandoff, noHandoffChannel)
		}
		for _, answer := range answers {
			c, err := handoff(p, h, answer)
			if err != nil {
				return probe.Broken(err)
			}
			want := map[string]receipt.Code{"cancelled": receipt.CodeHandoffCancelled, "timeout": receipt.CodeHandoffTimeout, "failed": receipt.CodeHandoffFailed, otherHandoffStatus: receipt.CodeHandoffFailed, nearHandoffStatus: receipt.CodeHandoffFailed, unansweredHandoff: receipt.CodeHandoffTimeout, noHandoffChannel: receipt.CodeHandoffFailed}[answer]
			if answer == "completed" {
				if h.action.Expect == "" {
					if c.Receipt.Result.OK || c.Receipt.Code() == receipt.CodeHandoffFailed {
						judged = append(judged, h.where()+": completed, no check declared → "+report.OutcomeCode(c.Receipt))
						continue
					}
					return probe.Failf("%s: the host answered completed: want success (or HANDOFF_FAILED), %s", h.where(), report.Got(c.Receipt)).With(report.ReceiptEvidence("receipt", c.Receipt))
				}
				want = receipt.CodeHandoffFailed
			}
			if c.Receipt.Code() != want || c.Receipt.FailurePhase() != receipt.PhaseDispatch {
				what := "the host answered " + answer
				if answer == unansweredHandoff {
					what = fmt.Sprintf("the host did not answer within the %s the runtime was given (handoffTimeoutMs)", unansweredHandoffTimeout)
				}
				if answer == noHandoffChannel {
					what = "the page had no hand-off channel (glassHost.handoff missing)"
				}
				if answer == "completed" {
					what += " without the user doing the step, so its check (" + h.action.Expect + ") was not observed"
				}
				return probe.Failf("%s: %s: want %s at phase dispatch, %s", h.where(), what, want, report.Got(c.Receipt)).With(report.ReceiptEvidence("receipt", c.Receipt))
			}
			judged = append(judged, fmt.Sprintf("%s: %s → %s", h.where(), answer, want))
		}
	}
	// Last, so that a user step the page does not allow (not probed)
	// hides no failure of the other answers.
	o, done, err := userHandoffOutcome(p, users)
	if err != nil {
		return probe.Broken(err)
	}
	if o != nil && len(judged) > 0 {
		return o.With(report.TextEvidence("answers probed", judged...))
	}
	if o != nil {
		return *o
	}
	judged = append(judged, done...)
	return probe.Pass().With(report.TextEvidence("answers probed", judged...))
}

// ---- revealing the target ------------------------------------------------------

const scrollScript = `() => JSON.stringify([window.scrollX, window.scrollY, document.scrollingElement ? document.scrollingElement.scrollTop : 0])`

func scroll(pg *probe.Page) (string, error) {
	v, err := pg.Evaluate(scrollScript, nil)
	if err != nil {
		return "", fmt.Errorf("read the scroll position: %w", err)
	}
	s, _ := v.(string)
	return s, nil
}

// RevealAfterConfirmation calls element actions that need
// confirmation, last declared first (the likeliest to be out of view),
// with the confirmation denied: the scroll position must not move. An
// approved call on the same page then shows whether the target was out of
// view at all (its reveal moved the page); only such calls count.
func RevealAfterConfirmation(p *probe.Probe) probe.Outcome {
	items := p.Base().Actions.Items
	tried := 0
	for i := len(items) - 1; i >= 0 && tried < 3; i-- {
		a := items[i]
		if a.Kind != receipt.KindElement || !a.Available || !probe.NeedsConfirmation(a) || p.Manifest().Skips(a.ID) {
			continue
		}
		args, err := p.ValidArgs(a, "")
		if err != nil {
			continue
		}
		tried++
		pg, err := p.Open("", glasstest.Deny())
		if err != nil {
			return probe.Broken(err)
		}
		s0, err := scroll(pg)
		if err != nil {
			return probe.Broken(err)
		}
		r := pg.Do(a.ID, args)
		s1, err := scroll(pg)
		if err != nil {
			return probe.Broken(err)
		}
		if r.Code() != receipt.CodePermissionDenied {
			continue // policy.denied's violation
		}
		if s1 != s0 {
			return probe.Failf("%s: the host denied the confirmation, but the page scrolled (%s → %s): the runtime revealed the target before the call was approved", a.ID, s0, s1).
				With(report.ReceiptEvidence("receipt", r))
		}
		approved := pg.Do(a.ID, args, glasstest.Approve())
		s2, err := scroll(pg)
		if err != nil {
			return probe.Broken(err)
		}
		if s2 != s0 && approved.Code() != receipt.CodeActionNotFound {
			return probe.Pass().With(report.TextEvidence("probed", fmt.Sprintf("%s: denied, the page stayed at %s; approved, its reveal scrolled it to %s", a.ID, s0, s2)))
		}
	}
	if tried == 0 {
		return probe.NotProbed("the page declares no available element action that needs confirmation (with arguments the probe can build)")
	}
	return probe.NotProbed("no element action that needs confirmation had its target out of view (an approved call did not scroll the page)")
}

// RevealSecondCheck calls the manifest's reveals: a target the
// reveal shows (perhaps re-rendered) is used, one the reveal leaves
// hidden fails ACTION_UNAVAILABLE at target_resolution. On any page it
// also calls element actions twice on one page (secondCalls): the
// target of the second call is the one as it is then, not the one the
// first call found.
func RevealSecondCheck(p *probe.Probe) probe.Outcome {
	var judged []string
	for _, sc := range p.Manifest().Reveals {
		e, err := p.Reveal(sc)
		if err != nil {
			return probe.Broken(err)
		}
		r := e.Receipt
		where := sc.Action + " (manifest reveals, " + sc.Outcome + ")"
		if sc.URL != "" {
			where = sc.Action + " at " + sc.URL + " (manifest reveals, " + sc.Outcome + ")"
		}
		switch sc.Outcome {
		case "shown":
			if r.Code() == receipt.CodeActionUnavailable {
				return probe.Failf("%s: the manifest says its reveal shows the target, but the call failed ACTION_UNAVAILABLE (%s): the runtime did not check the target again as it is after the reveal — or the page's reveal does not show it (check that the action declares a reveal that shows its target, and the manifest's outcome)",
					where, r.Result.Error.Reason).With(report.ReceiptEvidence("receipt", r))
			}
		case "hidden":
			if r.Code() != receipt.CodeActionUnavailable || r.FailurePhase() != receipt.PhaseTargetResolution {
				return probe.Failf("%s: the target stays hidden after its reveal: want ACTION_UNAVAILABLE at phase target_resolution, %s", where, report.Got(r)).
					With(report.ReceiptEvidence("receipt", r))
			}
		}
		judged = append(judged, where+" → "+report.OutcomeCode(r))
	}
	o, twice := secondCalls(p)
	if o != nil {
		return *o
	}
	judged = append(judged, twice...)
	if len(judged) == 0 {
		return probe.NotProbed("needs a manifest entry under reveals naming an element action whose reveal shows its target, or one whose reveal leaves it hidden (one of each probes both outcomes; see docs/manifest.md), or an element action whose call succeeds and can be made again on the element it reached")
	}
	return probe.Pass().With(report.TextEvidence("probed", judged...))
}

// ---- the snapshots' window -----------------------------------------------------

// windowProblem judges a receipt's changed against the runtime's snapshot
// s6 when execution started and the snapshot after the call: nothing the
// reveal rendered is reported added, nothing is reported removed that was
// not there, and every part is the difference from that moment to the end.
func windowProblem(r *receipt.Receipt, s6, after *receipt.Snapshot) string {
	rc := &receipt.RecordChanges{}
	if ch := r.Result.Changed; ch != nil && ch.Records != nil {
		rc = ch.Records
	}
	ids6, _ := judge.RecordIDs(s6)
	for _, id := range rc.Added {
		if slices.Contains(ids6, id) {
			return fmt.Sprintf("reports the record %s added, but the page model showed it when execution started (rendered by the reveal, before stage 6): the before snapshot was taken too early", id)
		}
	}
	for _, id := range rc.Removed {
		if !slices.Contains(ids6, id) {
			return fmt.Sprintf("reports the record %s removed, but the page model did not show it when execution started", id)
		}
	}
	if pr := judge.ChangesProblem(r, s6, after); pr != "" {
		return pr + " (from the start of execution to after the call)"
	}
	return ""
}

// valueSetStart is the moment execution started as the watcher saw it,
// corrected for a call that gives a form field a value: a runtime sets
// the value through the field's setter and then fires its input event,
// so the page's state views (which may read the field) already show the
// value when the first input event fires. The state views are then the
// harness's own from before the call, and the snapshot's revision, which
// counts the value already, is not judged (Sync false).
func valueSetStart(e *probe.Exercised) probe.Stage6 {
	st := e.Stage6
	args, _ := e.Args.(map[string]any)
	if _, value := args["value"]; !value || e.Before == nil || e.Before.Snap == nil ||
		!slices.Contains([]string{"input", "select", "textarea"}, st.Tag) || params.SameJSON(st.Snap.State, e.Before.Snap.State) {
		return st
	}
	snap := *st.Snap
	snap.State = e.Before.Snap.State
	st.Snap, st.Sync = &snap, false
	return st
}

// revisionProblem judges revision.before against the revision of the
// runtime's own snapshot at the start of execution, read in the input
// event's task: the before snapshot comes after stages 1 to 5, so a
// model the reveal changed is already counted in revision.before.
func revisionProblem(r *receipt.Receipt, st probe.Stage6) string {
	if !st.Sync || r.Revision == nil || r.Revision.Before >= st.Snap.Revision {
		return ""
	}
	return fmt.Sprintf("reports revision.before %d, but the runtime's own snapshot when execution started (after the reveal, before any handler ran) was at revision %d: revision.before is the revision of the before snapshot, taken after stages 1 to 5", r.Revision.Before, st.Snap.Revision)
}

// ChangedWindow judges element actions watched from the moment their
// execution started (the runtime's snapshot at the first input event of
// the call): those the manifest's reveals show, and every element action
// the exercise calls. The receipt's changed must be the difference from
// that moment to the end: nothing the reveal rendered reported added,
// nothing the call did left out. Calls refused before stage 6 carry no
// changed (beforeDispatchChanged). Every candidate is accounted for in
// the evidence, judged or not and why.
func ChangedWindow(p *probe.Probe) probe.Outcome {
	var judged, notJudged []string
	judge := func(what string, e *probe.Exercised) *probe.Outcome {
		switch {
		case !e.ByRuntime:
			notJudged = append(notJudged, what+": the harness wrote the receipt ("+report.Got(e.Receipt)+")")
		case !e.Receipt.Result.OK:
			notJudged = append(notJudged, what+": "+report.Got(e.Receipt))
		case e.Stage6.Snap == nil:
			notJudged = append(notJudged, what+": "+e.Stage6.Why)
		case e.Stage6.Snap.Records.Omitted > 0 || e.After.Snap.Records.Omitted > 0:
			notJudged = append(notJudged, what+": the snapshot at the start of execution is not a complete list of records")
		default:
			st := valueSetStart(e)
			pr := windowProblem(e.Receipt, st.Snap, e.After.Snap)
			if pr == "" {
				pr = revisionProblem(e.Receipt, st)
			}
			if pr != "" {
				o := probe.Failf("%s %s", what, pr).With(report.ReceiptEvidence("receipt", e.Receipt),
					report.SnapshotEvidence("snapshot when execution started", e.Stage6.Snap), report.SnapshotEvidence("snapshot after the call", e.After.Snap))
				return &o
			}
			judged = append(judged, what)
		}
		return nil
	}
	seen := map[string]bool{}
	for _, sc := range p.Manifest().Reveals {
		if sc.Outcome != "shown" {
			continue
		}
		e, err := p.Reveal(sc)
		if err != nil {
			return probe.Broken(err)
		}
		what := sc.Action + " (manifest reveals)"
		if sc.URL != "" {
			what = sc.Action + " at " + sc.URL + " (manifest reveals)"
		} else {
			seen[sc.Action] = true
		}
		if o := judge(what, e); o != nil {
			return *o
		}
	}
	calls, _ := p.ExercisePlan()
	for _, pl := range calls {
		if pl.Action.Kind != receipt.KindElement || seen[pl.Action.ID] {
			continue
		}
		e, err := p.Call(pl)
		if err != nil {
			return probe.Broken(err)
		}
		if o := judge(pl.Action.ID, e); o != nil {
			return *o
		}
	}
	bad, refused := beforeDispatchChanged(p)
	if bad != nil {
		return *bad
	}
	if len(judged) == 0 && len(refused) == 0 {
		msg := "no call of an element action could be watched from the start of its execution (it needs an element action without a run function, whose control the runtime operates)"
		if len(notJudged) == 0 {
			msg = "the page declares no element action the probe can call, and the manifest names no reveals"
		}
		return probe.NotProbed(msg).With(report.TextEvidence("not judged", notJudged...)).With(p.PlanNotes()...)
	}
	o := probe.Pass().With(report.TextEvidence("calls judged", append(judged, refused...)...))
	if len(notJudged) > 0 {
		o = o.With(report.TextEvidence("not judged", notJudged...))
	}
	return o.With(p.PlanNotes()...)
}

// ---- waiting: settling ------------------------------------------------------------

// Settle judges every write of the exercise once the page has gone quiet
// after it (the harness's own settle wait: no DOM change for 500 ms and
// for 20 animation frames since the last change, 5 s at most): the
// receipt's changed — records added, removed and updated, state views,
// actions, feedback — must already show what the page settled on, from
// the runtime's before window, so that work the handler started and the
// page finished later was waited for.
func Settle(p *probe.Probe) probe.Outcome {
	var judged, notJudged []string
	var o *probe.Outcome
	err := p.Each(probe.IsWrite, func(e *probe.Exercised) bool {
		switch {
		case !e.Receipt.Result.OK:
			notJudged = append(notJudged, fmt.Sprintf("%s: %s", e.Action.ID, report.Got(e.Receipt)))
			return true
		case !e.DOMWitness:
			notJudged = append(notJudged, e.Action.ID+": the page changes by itself, so it never goes quiet")
			return true
		}
		w, err := p.Window(e)
		if err != nil {
			res := probe.Broken(err)
			o = &res
			return false
		}
		if w.E.Settled == nil {
			notJudged = append(notJudged, fmt.Sprintf("%s: %s", e.Action.ID, report.Got(w.E.Receipt)))
			return true
		}
		if pr := judge.ChangesProblem(w.E.Receipt, w.Before, w.E.Settled.Snap); pr != "" {
			why := "the runtime took its after snapshot before the work the handler started had finished"
			if w.E.After != nil && judge.ChangesProblem(w.E.Receipt, w.Before, w.E.After.Snap) != "" {
				// Wrong against the page as the call left it too: a diff
				// computed wrongly more likely than a settle cut short.
				why = "nor does it match the page as the call left it, so the runtime computed changed wrongly (changed.parts, changed.records) or took its after snapshot before the work the handler started had finished"
			}
			res := probe.Failf("%s: %s once the page settled: %s%s", e.Action.ID, pr, why, w.Cause()).
				With(report.ReceiptEvidence("receipt", w.E.Receipt), report.TextEvidence("judged from", w.Note),
					report.TextEvidence("snapshot difference seen by the harness once the page settled", judge.ModelDiff(w.Before, w.E.Settled.Snap)...),
					report.SnapshotEvidence("snapshot once the page settled", w.E.Settled.Snap))
			o = &res
			return false
		}
		judged = append(judged, e.Action.ID)
		if w.Before != w.E.Before.Snap {
			// Judged from a state only a reveal explains (the runtime's
			// snapshot at stage 6, or one its timeline went through): the
			// slow call's receipt cannot be judged from the harness's
			// snapshot before it. A window that is the harness's own
			// snapshot before a call — this one, or a second call when
			// this one's receipt disagreed — shows no reveal moved it, so
			// the slow call is judged from its own.
			return true
		}
		// Again, with the server answering late: work the handler
		// started through the server now outlasts a few quiet frames.
		sl, err := slow.Call(p, e)
		if err != nil {
			res := probe.Broken(err)
			o = &res
			return false
		}
		switch {
		case sl.Requests == 0 || !sl.ByRuntime:
			return true
		case sl.Settled == nil:
			notJudged = append(notJudged, fmt.Sprintf("%s with the server answering %v late: %s", e.Action.ID, slow.Response, report.Got(sl.Receipt)))
			return true
		}
		if pr := judge.ChangesProblem(sl.Receipt, sl.Before.Snap, sl.Settled.Snap); pr != "" {
			res := probe.Failf("%s, with the page's server answering %v late: %s once the page settled: the runtime took its after snapshot before the work the handler started had finished", e.Action.ID, slow.Response, pr).
				With(report.ReceiptEvidence("receipt", sl.Receipt),
					report.TextEvidence("snapshot difference seen by the harness once the page settled", judge.ModelDiff(sl.Before.Snap, sl.Settled.Snap)...),
					report.SnapshotEvidence("snapshot once the page settled", sl.Settled.Snap))
			o = &res
			return false
		}
		judged = append(judged, fmt.Sprintf("%s with the server answering %v late (%d requests)", e.Action.ID, slow.Response, sl.Requests))
		return true
	})
	if o := probe.VerdictOf(err, o); o != nil {
		return *o
	}
	if len(judged) == 0 {
		return probe.NotProbed("no write of the page could be called successfully on a page whose DOM holds still").
			With(report.TextEvidence("not judged", notJudged...)).With(p.PlanNotes()...)
	}
	res := probe.Pass().With(report.TextEvidence("calls judged", judged...))
	if len(notJudged) > 0 {
		res = res.With(report.TextEvidence("not judged", notJudged...))
	}
	return res
}

// ExpectationTiming calls each action the manifest names under
// capturingExpectations — an expectation that captures the page's state
// when it is built ("one task fewer than now") — approved, with the
// default expectation timeout: built after stage 5 and before stage 6
// (for a flow, before its first step), it comes true, so the call must
// succeed and report the expectation. Built any later, it captures the
// state the call made and never comes true; built earlier, it captures
// what the reveal changed.
func ExpectationTiming(p *probe.Probe) probe.Outcome {
	scs := p.Manifest().CapturingExpectations
	if len(scs) == 0 {
		return probe.NotProbed("needs a manifest entry under capturingExpectations naming an action whose expectation captures the page's state when it is built (see docs/manifest.md)")
	}
	var judged []string
	for _, sc := range scs {
		a, declared := p.Base().Action(sc.Action)
		where := sc.Action + " (manifest capturingExpectations)"
		if sc.URL != "" {
			where = sc.Action + " at " + sc.URL + " (manifest capturingExpectations)"
		}
		args := p.ScenarioArgs(sc)
		if args == nil && declared {
			if v, err := p.ValidArgs(a, ""); err == nil {
				args = v
			}
		}
		v, err := p.Memo(fmt.Sprintf("%s|capturing|%s|%s", p.Transport, sc.Action, sc.URL), func() (any, error) {
			q := p.Sibling(p.Transport)
			defer q.Close()
			pg, err := q.Open(sc.URL, glasstest.Approve())
			if err != nil {
				return nil, err
			}
			return pg.Do(sc.Action, args), nil
		})
		if err != nil {
			return probe.Broken(err)
		}
		r := v.(*receipt.Receipt)
		ev := report.ReceiptEvidence("receipt", r)
		if !r.Result.OK {
			return probe.Failf("%s: want success with the declared expectation, %s: an expectation that captures the page's state comes true only when it is built after stage 5 and before stage 6 (for a flow, before its first step)", where, report.Got(r)).With(ev)
		}
		if strings.TrimSpace(r.Result.Expect) == "" {
			return probe.Failf("%s succeeded without reporting its expectation in expect", where).With(ev)
		}
		if declared && a.Expect == "" {
			return probe.Failf("%s: the snapshot shows no expectation for the action (no expect), but the manifest names it under capturingExpectations", where).With(ev)
		}
		judged = append(judged, fmt.Sprintf("%s → ok, expect %q", where, r.Result.Expect))
	}
	return probe.Pass().With(report.TextEvidence("calls judged", judged...))
}
