package calls

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/glassworks/glass/conformance/internal/checks/scenarios"
	"github.com/glassworks/glass/conformance/internal/checks/stages"
	"github.com/glassworks/glass/conformance/internal/judge"
	"github.com/glassworks/glass/conformance/internal/params"
	"github.com/glassworks/glass/conformance/internal/probe"
	"github.com/glassworks/glass/conformance/internal/refusal"
	"github.com/glassworks/glass/conformance/internal/report"
	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

// ---- extras of refusal checks ----------------------------------------------

// AvailableListed: the runtime's own ACTION_NOT_FOUND lists the actions
// available now in result.error.available — exactly the ids the snapshot
// taken just before the call reports available, step-only actions left
// out, at most 50 of them (CONTRACT.md §2.2). The host may fill the list
// in for a runtime that did not; the check judges the runtime's answer.
func AvailableListed(res *probe.Refused) probe.Outcome {
	got := res.Receipt.Result.Error.Available
	ev := report.ReceiptEvidence("the runtime's receipt", res.Receipt)
	if got == nil {
		return probe.Failf("%s: the runtime's ACTION_NOT_FOUND carries no result.error.available: it must list the actions available now", res.Call.Describe).With(ev)
	}
	want := res.Before.Snap.AvailableIDs()
	complete := res.Before.Snap.Actions.Omitted == 0
	seen := map[string]bool{}
	for _, id := range got {
		if seen[id] {
			return probe.Failf("ACTION_NOT_FOUND lists %q twice in available", id).With(ev)
		}
		seen[id] = true
		a, ok := res.Before.Snap.Action(id)
		switch {
		case ok && a.StepOnly:
			return probe.Failf("ACTION_NOT_FOUND lists the step-only action %q as available: a step of a flow is no action an agent may call", id).With(ev)
		case ok && !a.Available:
			return probe.Failf("ACTION_NOT_FOUND lists %q as available, but the snapshot reports it unavailable (%s)", id, a.Reason).With(ev)
		case !ok && complete:
			return probe.Failf("ACTION_NOT_FOUND lists %q as available, but the page model does not declare it", id).With(ev)
		}
	}
	if len(got) > receipt.MaxAvailable {
		return probe.Failf("ACTION_NOT_FOUND lists %d available actions, over the bound of %d", len(got), receipt.MaxAvailable).With(ev)
	}
	if complete {
		if n := min(len(want), receipt.MaxAvailable); len(got) < n {
			missing := judge.Minus(want, got)
			return probe.Failf("ACTION_NOT_FOUND lists %d available actions, the snapshot reports %d available (%s left out)", len(got), len(want), strings.Join(judge.ClipList(missing), ", ")).
				With(ev, report.TextEvidence("available in the snapshot", judge.ClipList(want)...))
		}
	}
	return probe.Pass().With(report.TextEvidence("available listed", fmt.Sprintf("%d of %d", len(got), len(want))))
}

// InvalidParams makes the INVALID_PARAMS refusals the snapshot allows: a
// missing required field, no arguments at all for an action with required
// fields, a wrong type, a fraction for an integer, null for a typed
// parameter, a value outside an enum, a member the params forbid, a
// number past its minimum or maximum, a string past its maxLength or
// minLength, a string its pattern does not match.
// Each must fail at preflight, name the offending value's JSON Pointer in
// error.path, and change nothing.
func InvalidParams(p *probe.Probe) probe.Outcome {
	var probed, skipped []string
	kinds := []string{refusal.RefMissing, refusal.RefNoArgs, refusal.RefNotObject, refusal.RefWrongType, refusal.RefFraction, refusal.RefNull, refusal.RefOutsideEnum, refusal.RefUndeclared, refusal.RefBeyondNumber, refusal.RefBeyondLength, refusal.RefBreaksPattern}
	var rfs []probe.Refusal
	for _, k := range kinds {
		rfs = append(rfs, refusal.RefusalByKind(k))
	}
	p.RefuseAhead(rfs...)
	for _, kind := range kinds {
		rf := refusal.RefusalByKind(kind)
		res, o, ok := p.Refuse(rf)
		if !ok {
			if o.Verdict == report.NotProbed {
				skipped = append(skipped, kind+": "+o.Message)
				continue
			}
			return o
		}
		if o := probe.ExpectRefused(res, rf.Code); o.Verdict != report.Pass {
			return o
		}
		want := []string{judge.Pointer(res.Call.Field)}
		switch kind {
		case refusal.RefMissing, refusal.RefUndeclared:
			// A missing member has no value to point at: the pointer it
			// would have, or, as JSON Schema validators report required,
			// the object that lacks it (CONTRACT.md §2.3); so for a member
			// additionalProperties forbids, the member or its object.
			want = append(want, "/")
		case refusal.RefNoArgs:
			// Every required member is missing: any of their pointers, or
			// the object's.
			want = []string{"/"}
			if a, ok := p.Base().Action(res.Call.ID); ok {
				if s, err := params.ParseSchema(a.Params); err == nil {
					for _, k := range s.Required {
						want = append(want, judge.Pointer(k))
					}
				}
			}
		}
		if got := res.Receipt.Result.Error.Path; !slices.Contains(want, got) {
			return probe.Failf("%s: INVALID_PARAMS names the path %q, want %s", res.Call.Describe, got, pathsText(kind, want)).
				With(report.ReceiptEvidence("receipt", res.Receipt))
		}
		probed = append(probed, kind)
	}
	switch o, what, why := emptyArgs(p); {
	case o != nil:
		return *o
	case what != "":
		probed = append(probed, what)
	default:
		skipped = append(skipped, why)
	}
	if len(probed) == 0 {
		return probe.NotProbed(strings.Join(skipped, "; "))
	}
	o := probe.Pass().With(report.TextEvidence("probed", probed...))
	if len(skipped) > 0 {
		o = o.With(report.TextEvidence("not probed", skipped...))
	}
	return o
}

// SensitiveRestored: a placeholder the host gave a value for is
// restored before validation (the exercise's call with a sensitive value
// passes validation), and one it did not give fails INVALID_ARGS.
func SensitiveRestored(p *probe.Probe) probe.Outcome {
	if o := RefusalCheck(refusal.RefSecretName, nil)(p); o.Verdict != report.Pass {
		return o
	}
	// An object like a placeholder that is not one is left as it is.
	if o := RefusalCheck(refusal.RefLooksLikePlaceholder, nil)(p); o.Verdict == report.Fail {
		return o
	}
	o, _ := p.JudgeEach(hasSecret(p), func(e *probe.Exercised) (bool, string) {
		if c := e.Receipt.Code(); c == receipt.CodeInvalidArgs || c == receipt.CodeInvalidParams {
			return true, fmt.Sprintf("a call with a sensitive value the host gave failed %s: the placeholder was not restored before validation", c)
		}
		return true, ""
	})
	if o != nil {
		return *o
	}
	return probe.Pass()
}

func pathsText(kind string, paths []string) string {
	switch {
	case len(paths) == 1:
		return fmt.Sprintf("the JSON Pointer %q of the offending value", paths[0])
	case kind == refusal.RefUndeclared:
		return fmt.Sprintf("the JSON Pointer of the undeclared member, %q, or of its object, %q", paths[0], paths[1])
	case kind == refusal.RefNoArgs:
		return fmt.Sprintf("the JSON Pointer of the object, %q, or of a missing member, %q", paths[0], paths[1:])
	}
	return fmt.Sprintf("the JSON Pointer of the missing member, %q, or of the object that lacks it, %q", paths[0], paths[1])
}

// StaleRevision: a guarded call whose expected revision is not the
// page's fails STALE_REVISION at preflight before stage 1, whatever it
// names — a declared action (the refusal), an undeclared id, a step-only
// or unavailable action, malformed arguments — with the revisions and the
// recovery; expectedRevision null, or the current revision, leaves the
// call unguarded; one that is not a non-negative integer fails
// INVALID_ARGS at preflight.
func StaleRevision(p *probe.Probe) probe.Outcome {
	if o := RefusalCheck(refusal.RefStale, StaleFields)(p); o.Verdict != report.Pass {
		return o
	}
	sp, err := p.Stale()
	if err != nil {
		return probe.Broken(err)
	}
	judged := []string{"a stale expected revision on an approved call of a declared action → STALE_REVISION"}
	for _, c := range sp.Calls {
		r := c.Receipt
		ev := report.ReceiptEvidence("receipt", r)
		if r.Code() != c.Want || r.FailurePhase() != c.Want.Phase() {
			how := "the guard must be checked before stage 1"
			switch c.Want {
			case receipt.CodeInvalidArgs:
				how = "an expectedRevision that is not a non-negative integer is INVALID_ARGS"
			case receipt.CodeActionNotFound, receipt.CodePermissionDenied:
				how = "the call is not guarded"
			}
			return probe.Failf("%s: want %s at phase %s (%s), %s", c.What, c.Want, c.Want.Phase(), how, report.Got(r)).With(ev)
		}
		if c.Want == receipt.CodeStaleRevision {
			if pr := staleFieldsProblem(r, c.Expected, c.Current); pr != "" {
				return probe.Failf("%s: %s", c.What, pr).With(ev)
			}
		}
		judged = append(judged, c.What+" → "+string(r.Code()))
	}
	notProbed := sp.NotProbed
	for _, s := range []struct {
		judge func(*probe.Probe) (probe.Outcome, string)
		line  string
	}{
		{staleZero, "expectedRevision 0 on a page the probe moved past it → STALE_REVISION"},
		{scenarios.StaleUnobserved, "a stale revision after the page's URL changed with no call → STALE_REVISION"},
		{scenarios.StaleUnknownResume, "a stale revision on a resume of a handle the page never gave → STALE_REVISION"},
	} {
		switch o, why := s.judge(p); {
		case o.Verdict != report.Pass:
			return o
		case why != "":
			notProbed = append(notProbed, why)
		default:
			judged = append(judged, s.line)
		}
	}
	switch ro, line, why := stages.StaleResume(p); {
	case ro != nil:
		return *ro
	case line != "":
		judged = append(judged, line)
	case why != "":
		notProbed = append(notProbed, why)
	}
	o := probe.Pass().With(report.TextEvidence("calls judged", judged...))
	if len(notProbed) > 0 {
		o = o.With(report.TextEvidence("not probed", notProbed...))
	}
	return o
}

func staleFieldsProblem(r *receipt.Receipt, expected, current int64) string {
	e := r.Result.Error
	switch {
	case e.ExpectedRevision == nil || *e.ExpectedRevision != expected:
		return fmt.Sprintf("STALE_REVISION: error.expectedRevision = %s, want the %d the call expected", ptrString(e.ExpectedRevision), expected)
	case e.CurrentRevision == nil || *e.CurrentRevision != current:
		return fmt.Sprintf("STALE_REVISION: error.currentRevision = %s, want the page's revision %d", ptrString(e.CurrentRevision), current)
	case r.RecoveryStrategy != receipt.RecoveryReport || r.Recovery != "observe":
		return fmt.Sprintf("STALE_REVISION: recoveryStrategy %q with recovery %q, want %q with %q", r.RecoveryStrategy, r.Recovery, receipt.RecoveryReport, "observe")
	}
	return ""
}

func StaleFields(res *probe.Refused) probe.Outcome {
	if pr := staleFieldsProblem(res.Receipt, res.Before.Snap.Revision+1, res.Before.Snap.Revision); pr != "" {
		return probe.Failf("%s", pr).With(report.ReceiptEvidence("receipt", res.Receipt))
	}
	return probe.Pass()
}

func ptrString(p *int64) string {
	if p == nil {
		return "missing"
	}
	return fmt.Sprint(*p)
}

func UnavailableReason(res *probe.Refused) probe.Outcome {
	reason := strings.TrimSpace(res.Receipt.Result.Error.Reason)
	if reason == "" {
		return probe.Failf("%s: ACTION_UNAVAILABLE has no error.reason", res.Call.Describe).With(report.ReceiptEvidence("receipt", res.Receipt))
	}
	// The snapshot's available and reason report business availability
	// (CONTRACT.md §2.5): an action it reports unavailable has a
	// prerequisite unmet, and must say which.
	for _, a := range res.Before.Snap.Actions.Items {
		if !a.Available && !a.StepOnly && strings.TrimSpace(a.Reason) == "" {
			return probe.Failf("the snapshot reports %s unavailable (available false) without a reason: it must give the reason its prerequisite is unmet", a.ID).
				With(report.SnapshotEvidence("snapshot before the call", res.Before.Snap))
		}
	}
	if a, ok := res.Before.Snap.Action(res.Call.ID); ok && strings.TrimSpace(a.Reason) != "" && strings.TrimSpace(a.Reason) != reason {
		return probe.Failf("%s: error.reason is %q, but the snapshot gives the reason %q", res.Call.Describe, reason, a.Reason).
			With(report.ReceiptEvidence("receipt", res.Receipt))
	}
	return probe.Pass()
}

// ---- refusals as a whole ---------------------------------------------------

// ValidationBeforeConfirmation: a call with invalid arguments of an
// action that needs confirmation fails validation without asking anyone.
func ValidationBeforeConfirmation(p *probe.Probe) probe.Outcome {
	for _, kind := range []string{refusal.RefMissing, refusal.RefWrongType, refusal.RefOutsideEnum, refusal.RefMalformed} {
		rf := refusal.RefusalByKind(kind)
		call, _ := rf.Plan(p)
		if call == nil {
			continue
		}
		if a, _ := p.Base().Action(call.ID); !probe.NeedsConfirmation(a) {
			continue
		}
		res, o, ok := p.Refuse(rf)
		if !ok {
			return o
		}
		if len(res.Confirmations) > 0 {
			return probe.Failf("%s: the runtime asked for confirmation before rejecting the arguments", call.Describe).
				With(report.ReceiptEvidence("receipt", res.Receipt), report.ConfirmationEvidence(res.Confirmations))
		}
		if o := probe.ExpectRefused(res, rf.Code); o.Verdict != report.Pass {
			return o
		}
		return probe.Pass()
	}
	return probe.NotProbed("the page declares no available action that needs confirmation and takes arguments")
}

// NoEffectBeforeDispatch makes every refusal the snapshot allows and
// checks, with independent witnesses, that none changed the page.
func NoEffectBeforeDispatch(p *probe.Probe) probe.Outcome {
	var probed, skipped []string
	p.RefuseAhead(refusal.Refusals...)
	for _, rf := range refusal.Refusals {
		res, o, ok := p.Refuse(rf)
		if !ok {
			if o.Verdict == report.NotProbed {
				skipped = append(skipped, rf.Kind+": "+o.Message)
				continue
			}
			return o
		}
		if !res.Receipt.Result.OK && res.Receipt.Code().Started() != receipt.StartedNo {
			// A refusal that failed later than it should is its own rule's
			// violation; here only side effects count.
			skipped = append(skipped, fmt.Sprintf("%s: failed with %s, after stage 5", rf.Kind, res.Receipt.Code()))
			continue
		}
		if !res.Receipt.Result.OK && res.Receipt.Result.Error.Started != receipt.StartedNo {
			return probe.Failf("%s failed with %s before stage 6, but reports started %q, want %q", res.Call.Describe, res.Receipt.Code(), res.Receipt.Result.Error.Started, receipt.StartedNo).
				With(report.ReceiptEvidence("receipt", res.Receipt))
		}
		if len(res.Changes) > 0 {
			return probe.Failf("%s ended with %s, but the page changed: %s", res.Call.Describe, report.OutcomeCode(res.Receipt), res.Changes[0]).
				With(report.ReceiptEvidence("receipt", res.Receipt), report.TextEvidence("what changed", res.Changes...), probe.WitnessNote(res.DOMWitness),
					report.SnapshotEvidence("snapshot before the call", res.Before.Snap), report.SnapshotEvidence("snapshot after the call", res.After.Snap))
		}
		probed = append(probed, rf.Kind)
	}
	bad, more := beforeDispatchMore(p)
	if bad != nil {
		return *bad
	}
	probed = append(probed, more...)
	if len(probed) == 0 {
		return probe.NotProbed("no refusal could be probed: " + strings.Join(skipped, "; "))
	}
	o := probe.Pass()
	return o.With(report.TextEvidence("refusals probed", probed...))
}

// StageOrder makes calls that fail two gates at once, on one page
// with no confirmation policy but denial: the earlier stage must win.
func StageOrder(p *probe.Probe) probe.Outcome {
	type combo struct {
		what string
		id   string
		args any
		opts []glasstest.CallOption
		want receipt.Code
	}
	var combos []combo
	if c, _ := probe.PlanUnknown(p); c != nil {
		combos = append(combos, combo{"an undeclared id with malformed arguments", c.ID, `{"unterminated`, nil, receipt.CodeActionNotFound})
	}
	if c, _ := refusal.PlanMalformed(p); c != nil {
		if a, _ := p.Base().Action(c.ID); probe.NeedsConfirmation(a) {
			combos = append(combos, combo{"malformed arguments to an action that needs confirmation (denied)", c.ID, c.Args, nil, receipt.CodeInvalidArgs})
		}
	}
	for _, a := range p.Base().Actions.Items {
		if a.Available || a.Kind == receipt.KindHandoff {
			continue
		}
		if s, err := params.ParseSchema(a.Params); err == nil && len(s.Required) > 0 {
			combos = append(combos, combo{fmt.Sprintf("arguments missing %q to the unavailable %s", s.Required[0], a.ID), a.ID, map[string]any{}, nil, receipt.CodeInvalidParams})
			break
		}
	}
	// Business availability is judged at stage 5, after the confirmation
	// of stage 4 (CONTRACT.md §2.5): a denied call of an unavailable
	// action that needs confirmation is a denial.
	for _, a := range p.Base().Actions.Items {
		if a.Available || a.StepOnly || a.Kind == receipt.KindHandoff || !probe.NeedsConfirmation(a) || p.Manifest().Skips(a.ID) {
			continue
		}
		if args, err := p.ValidArgs(a, ""); err == nil && !probe.UsesSecret(args) {
			combos = append(combos, combo{fmt.Sprintf("a denied call of the unavailable %s, which needs confirmation", a.ID), a.ID, args, nil, receipt.CodePermissionDenied})
			break
		}
	}
	if c, _ := refusal.PlanDenied(p); c != nil {
		combos = append(combos, combo{"a stale expected revision on a call that would be denied", c.ID, c.Args,
			[]glasstest.CallOption{glasstest.ExpectedRevision(987654321)}, receipt.CodeStaleRevision})
	}
	var judged []string
	for _, more := range []func(*probe.Probe) (*probe.Outcome, string){scenarios.DeniedWhereHidden, scenarios.DeniedWhereMadeUnavailable} {
		bad, what := more(p)
		if bad != nil {
			return *bad
		}
		if what != "" {
			judged = append(judged, what)
		}
	}
	if len(combos) < 2 && len(judged) == 0 {
		return probe.NotProbed("the page declares too few kinds of action to combine two failing gates")
	}
	if len(combos) < 2 {
		return probe.Pass().With(report.TextEvidence("combinations", judged...))
	}
	pg, err := p.Open("", glasstest.Deny())
	if err != nil {
		return probe.Broken(err)
	}
	for _, c := range combos {
		if _, raw := c.args.(string); raw && p.Transport == glasstest.TransportWebMCP {
			continue // a WebMCP tool's input is always a JSON object
		}
		r := pg.Do(c.id, c.args, c.opts...)
		if r.Code() != c.want {
			return probe.Failf("%s: want %s (the earlier stage), %s", c.what, c.want, report.Got(r)).With(report.ReceiptEvidence("receipt", r))
		}
		judged = append(judged, c.what+" → "+string(c.want))
	}
	return probe.Pass().With(report.TextEvidence("combinations", judged...))
}

// CurrentModel: after a call that removed a declared action, calling
// that action next on the same page fails ACTION_NOT_FOUND. The host
// reads a snapshot before the removing call and none between it and the
// next call (which goes to the runtime directly, with no snapshot read to
// find its tool), so that a runtime that resolves ids against the last
// snapshot it was asked for, or against the model its previous call
// started from, runs the removed action instead.
func CurrentModel(p *probe.Probe) probe.Outcome {
	var remover *probe.Exercised
	err := p.Each(probe.IsWrite, func(e *probe.Exercised) bool {
		if c := e.Receipt.Result.Changed; e.Receipt.Result.OK && c != nil && c.Actions != nil && len(c.Actions.Removed) > 0 {
			remover = e
			return false
		}
		return true
	})
	if err != nil {
		return probe.Broken(err)
	}
	if remover == nil {
		return probe.NotProbed("no call of the run removed a declared action").With(p.PlanNotes()...)
	}
	gone := remover.Receipt.Result.Changed.Actions.Removed[0]
	pg, err := p.OpenApproved(remover.Secret)
	if err != nil {
		return probe.Broken(err)
	}
	before, err := pg.Snapshot()
	if err != nil {
		return probe.Broken(err)
	}
	if first := pg.Do(remover.Action.ID, remover.Args); !first.Result.OK {
		return probe.NotProbed(fmt.Sprintf("%s did not succeed a second time on a fresh page (%s)", remover.Action.ID, report.Got(first)))
	}
	var args any = map[string]any{}
	if gone == remover.Action.ID {
		args = remover.Args
	} else if a, ok := before.Action(gone); ok {
		if v, err := p.ValidArgs(a, ""); err == nil {
			args = v
		}
	}
	r, err := pg.Raw(gone, args, map[string]any{"executionId": "glass-probe-current-model"}, before)
	if errors.Is(err, probe.ErrNoTool) || err != nil && p.Transport == glasstest.TransportWebMCP && strings.Contains(err.Error(), "No WebMCP tool named") {
		return probe.NotProbed(fmt.Sprintf("%s removed the action %s, whose WebMCP tool went with it, so it cannot be called again over webmcp (probed over the bridge)", remover.Action.ID, gone))
	}
	if err != nil {
		return probe.Failf("%s removed the action %s; calling %s next on the same page: %s", remover.Action.ID, gone, gone, probe.FirstLine(err.Error()))
	}
	if r.Code() != receipt.CodeActionNotFound || r.FailurePhase() != receipt.PhaseTargetResolution {
		return probe.Failf("%s removed the action %s, but calling %s next on the same page (with no snapshot read between the two calls): want ACTION_NOT_FOUND at phase target_resolution, %s",
			remover.Action.ID, gone, gone, report.Got(r)).With(report.ReceiptEvidence("receipt", r))
	}
	return probe.Pass().With(report.TextEvidence("probed", fmt.Sprintf("a snapshot, then %s (removes %s), then %s with no snapshot between → ACTION_NOT_FOUND", remover.Action.ID, gone, gone)))
}

// RefusalCheck is the check of a rule that one refusal must hold: the
// right code at the right phase and nothing changed, plus extra.
func RefusalCheck(kind string, extra func(res *probe.Refused) probe.Outcome) func(*probe.Probe) probe.Outcome {
	return func(p *probe.Probe) probe.Outcome {
		rf := refusal.RefusalByKind(kind)
		res, o, ok := p.Refuse(rf)
		if !ok {
			return o
		}
		if o := probe.ExpectRefused(res, rf.Code); o.Verdict != report.Pass {
			return o
		}
		if extra != nil {
			return extra(res)
		}
		return probe.Pass()
	}
}

// MalformedJSON: arguments that are not JSON fail INVALID_ARGS at
// preflight — text that is no JavaScript either, and text written as a
// JavaScript object literal standing for arguments the action accepts,
// which a runtime that evaluates the text instead of parsing it as JSON
// would run.
func MalformedJSON(p *probe.Probe) probe.Outcome {
	first := RefusalCheck(refusal.RefMalformed, nil)(p)
	if first.Verdict != report.Pass {
		return first
	}
	res, o, ok := p.Refuse(refusal.JSLiteralRefusal)
	if !ok {
		if o.Verdict == report.NotProbed {
			return first.With(report.TextEvidence("not probed", refusal.RefJSLiteral+": "+o.Message))
		}
		return o
	}
	if o := probe.ExpectRefused(res, refusal.JSLiteralRefusal.Code); o.Verdict != report.Pass {
		return o
	}
	refused := []string{refusal.RefMalformed, res.Call.Describe}
	// Each slip alone: a runtime may forgive one and not the others.
	near, o, ok := p.Refuse(refusal.NearJSONRefusal)
	switch {
	case ok:
		if o := probe.ExpectRefused(near, refusal.NearJSONRefusal.Code); o.Verdict != report.Pass {
			return o
		}
		refused = append(refused, near.Calls...)
	case o.Verdict != report.NotProbed:
		return o
	default:
		return probe.Pass().With(report.TextEvidence("refused", refused...), report.TextEvidence("not probed", refusal.RefNearJSON+": "+o.Message))
	}
	return probe.Pass().With(report.TextEvidence("refused", refused...))
}

// emptyArgs calls, over the bridge, available actions with argsJSON "",
// null and undefined, each of which means {} (CONTRACT.md §6.1), the
// three calls of an action on one page: one whose params require nothing
// (the schema accepts {}, so none may fail INVALID_ARGS or
// INVALID_PARAMS), and one whose params require a member (the schema
// refuses {}, so each must fail INVALID_PARAMS, its path the object's or a
// missing member's: a runtime that validates only arguments it was given
// runs the action with none). It returns the violation, or what was
// probed, or why nothing was.
func emptyArgs(p *probe.Probe) (o *probe.Outcome, what, why string) {
	const kind = "no arguments as an empty string, null and undefined"
	if p.Transport != glasstest.TransportBridge {
		return nil, "", kind + ": a WebMCP tool's input is always a JSON object"
	}
	// The three calls of an action share a page, so the action is the
	// one that changes it least: one that asks first (denied: it runs
	// nothing), else a read, else any.
	var asks, read, other [2]string // [0]: requires nothing; [1]: requires a member
	required := map[string][]string{}
	for _, a := range p.Candidates() {
		s, err := params.ParseSchema(a.Params)
		if err != nil || p.Manifest().Skips(a.ID) {
			continue
		}
		i := 0
		if len(s.Required) > 0 {
			i = 1
			required[a.ID] = s.Required
		}
		switch {
		case probe.NeedsConfirmation(a):
			asks[i] = cmp.Or(asks[i], a.ID)
		case a.Risk == receipt.RiskRead:
			read[i] = cmp.Or(read[i], a.ID)
		default:
			other[i] = cmp.Or(other[i], a.ID)
		}
	}
	var probed, skipped []string
	for i, id := range []string{cmp.Or(asks[0], read[0], other[0]), cmp.Or(asks[1], read[1], other[1])} {
		what := []string{"params that require nothing", "params that require a member"}[i]
		if id == "" {
			skipped = append(skipped, "no available action has "+what)
			continue
		}
		answers, err := emptyCalls(p, id)
		if err != nil {
			b := probe.Broken(err)
			return &b, "", ""
		}
		for _, x := range answers {
			shown := x.form
			if shown == "" {
				shown = `""`
			}
			c := x.r.Code()
			if i == 0 && (c == receipt.CodeInvalidArgs || c == receipt.CodeInvalidParams) {
				f := probe.Failf("call of %s with argsJSON %s, which means {} (§6.1), and its params require nothing: it failed %s", id, shown, c).
					With(report.ReceiptEvidence("receipt", x.r))
				return &f, "", ""
			}
			if i == 1 {
				want := []string{"/"}
				for _, k := range required[id] {
					want = append(want, judge.Pointer(k))
				}
				var pr string
				switch {
				case c != receipt.CodeInvalidParams:
					pr = "want INVALID_PARAMS, " + report.Got(x.r)
				case !slices.Contains(want, x.r.Result.Error.Path):
					pr = fmt.Sprintf("INVALID_PARAMS names the path %q, want the object's, \"/\", or a missing member's, %s", x.r.Result.Error.Path, strings.Join(want[1:], ", "))
				}
				if pr != "" {
					f := probe.Failf("call of %s with argsJSON %s, which means {} (§6.1), and its params require %s: %s", id, shown, strings.Join(required[id], ", "), pr).
						With(report.ReceiptEvidence("receipt", x.r))
					return &f, "", ""
				}
			}
		}
		probed = append(probed, id+" ("+what+")")
	}
	if len(probed) == 0 {
		return nil, "", kind + ": " + strings.Join(skipped, "; ")
	}
	return nil, kind + ": " + strings.Join(probed, ", "), ""
}

// emptyAnswer is the receipt of one of emptyCalls' calls.
type emptyAnswer struct {
	form string
	r    *receipt.Receipt
}

// emptyCalls calls id with each of the empty argsJSON forms on one page
// that denies every confirmation, once per run and transport. A page an
// earlier call left uncallable ends the calls: the answers so far are
// judged.
func emptyCalls(p *probe.Probe, id string) ([]emptyAnswer, error) {
	v, err := p.Memo(fmt.Sprintf("%s|emptyArgs|%s", p.Transport, id), func() (any, error) {
		pg, err := p.Open("", glasstest.Deny())
		if err != nil {
			return nil, err
		}
		defer pg.Close()
		var out []emptyAnswer
		for _, form := range probe.EmptyArgsForms {
			r, err := pg.RawEmpty(id, form)
			if err != nil && len(out) == 0 {
				return nil, err
			}
			if err != nil {
				break
			}
			out = append(out, emptyAnswer{form, r})
		}
		return out, nil
	})
	if err != nil {
		return nil, err
	}
	return v.([]emptyAnswer), nil
}
