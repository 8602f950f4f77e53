package calls

import (
	"fmt"
	"strings"

	"github.com/glassworks/glass/conformance/internal/params"
	"github.com/glassworks/glass/conformance/internal/probe"
	"github.com/glassworks/glass/conformance/internal/report"
	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

// ---- extras of refusal checks ----------------------------------------------

func AvailableListed(res *probe.Refused) probe.Outcome {
	for _, id := range res.Receipt.Result.Error.Available {
		a, ok := res.Before.Snap.Action(id)
		if !ok || !a.Available {
			return probe.Failf("ACTION_NOT_FOUND lists %q as available, but the page model does not declare it available", id).
				With(probe.ReceiptEvidence("receipt", res.Receipt))
		}
	}
	return probe.Pass()
}

// InvalidParams makes the three INVALID_PARAMS refusals the snapshot
// allows: a missing required field, a wrong type, a value outside an enum.
// Each must fail at preflight, name the offending value's JSON Pointer in
// error.path, and change nothing.
func InvalidParams(p *probe.Probe) probe.Outcome {
	var probed, skipped []string
	p.RefuseAhead(probe.RefusalByKind(probe.RefMissing), probe.RefusalByKind(probe.RefWrongType), probe.RefusalByKind(probe.RefOutsideEnum))
	for _, kind := range []string{probe.RefMissing, probe.RefWrongType, probe.RefOutsideEnum} {
		rf := probe.RefusalByKind(kind)
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
		if want := "/" + res.Call.Field; res.Receipt.Result.Error.Path != want {
			return probe.Failf("%s: INVALID_PARAMS names the path %q, want the JSON Pointer %q of the offending value", res.Call.Describe, res.Receipt.Result.Error.Path, want).
				With(probe.ReceiptEvidence("receipt", res.Receipt))
		}
		probed = append(probed, kind)
	}
	if len(probed) == 0 {
		return probe.NotProbed(strings.Join(skipped, "; "))
	}
	o := probe.Pass().With(probe.TextEvidence("probed", probed...))
	if len(skipped) > 0 {
		o = o.With(probe.TextEvidence("not probed", skipped...))
	}
	return o
}

// SensitiveRestored: a placeholder the host gave a value for is
// restored before validation (the exercise's call with a sensitive value
// passes validation), and one it did not give fails INVALID_ARGS.
func SensitiveRestored(p *probe.Probe) probe.Outcome {
	if o := RefusalCheck(probe.RefSecretName, nil)(p); o.Verdict != report.Pass {
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

func StaleFields(res *probe.Refused) probe.Outcome {
	e := res.Receipt.Result.Error
	want := res.Before.Snap.Revision + 1
	switch {
	case e.ExpectedRevision == nil || *e.ExpectedRevision != want:
		return probe.Failf("STALE_REVISION: error.expectedRevision = %s, want the %d the call expected", ptrString(e.ExpectedRevision), want).
			With(probe.ReceiptEvidence("receipt", res.Receipt))
	case e.CurrentRevision == nil || *e.CurrentRevision != res.Before.Snap.Revision:
		return probe.Failf("STALE_REVISION: error.currentRevision = %s, want the page's revision %d", ptrString(e.CurrentRevision), res.Before.Snap.Revision).
			With(probe.ReceiptEvidence("receipt", res.Receipt))
	case res.Receipt.RecoveryStrategy != receipt.RecoveryReport || res.Receipt.Recovery != "observe":
		return probe.Failf("STALE_REVISION: recoveryStrategy %q with recovery %q, want %q with %q", res.Receipt.RecoveryStrategy, res.Receipt.Recovery, receipt.RecoveryReport, "observe").
			With(probe.ReceiptEvidence("receipt", res.Receipt))
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
		return probe.Failf("%s: ACTION_UNAVAILABLE has no error.reason", res.Call.Describe).With(probe.ReceiptEvidence("receipt", res.Receipt))
	}
	if a, ok := res.Before.Snap.Action(res.Call.ID); ok && a.Reason != "" && a.Reason != reason {
		return probe.Failf("%s: error.reason is %q, but the snapshot gives the reason %q", res.Call.Describe, reason, a.Reason).
			With(probe.ReceiptEvidence("receipt", res.Receipt))
	}
	return probe.Pass()
}

// ---- refusals as a whole ---------------------------------------------------

// ValidationBeforeConfirmation: a call with invalid arguments of an
// action that needs confirmation fails validation without asking anyone.
func ValidationBeforeConfirmation(p *probe.Probe) probe.Outcome {
	for _, kind := range []string{probe.RefMissing, probe.RefWrongType, probe.RefOutsideEnum, probe.RefMalformed} {
		rf := probe.RefusalByKind(kind)
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
				With(probe.ReceiptEvidence("receipt", res.Receipt), probe.ConfirmationEvidence(res.Confirmations))
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
	p.RefuseAhead(probe.Refusals...)
	for _, rf := range probe.Refusals {
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
				With(probe.ReceiptEvidence("receipt", res.Receipt))
		}
		if len(res.Changes) > 0 {
			return probe.Failf("%s ended with %s, but the page changed: %s", res.Call.Describe, probe.OutcomeCode(res.Receipt), res.Changes[0]).
				With(probe.ReceiptEvidence("receipt", res.Receipt), probe.TextEvidence("what changed", res.Changes...), probe.WitnessNote(res.DOMWitness),
					probe.SnapshotEvidence("snapshot before the call", res.Before.Snap), probe.SnapshotEvidence("snapshot after the call", res.After.Snap))
		}
		probed = append(probed, rf.Kind)
	}
	if len(probed) == 0 {
		return probe.NotProbed("no refusal could be probed: " + strings.Join(skipped, "; "))
	}
	o := probe.Pass()
	return o.With(probe.TextEvidence("refusals probed", probed...))
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
	if c, _ := probe.PlanMalformed(p); c != nil {
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
	if c, _ := probe.PlanDenied(p); c != nil {
		combos = append(combos, combo{"a stale expected revision on a call that would be denied", c.ID, c.Args,
			[]glasstest.CallOption{glasstest.ExpectedRevision(987654321)}, receipt.CodeStaleRevision})
	}
	if len(combos) < 2 {
		return probe.NotProbed("the page declares too few kinds of action to combine two failing gates")
	}
	pg, err := p.Open("", glasstest.Deny())
	if err != nil {
		return probe.Broken(err)
	}
	var judged []string
	for _, c := range combos {
		if _, raw := c.args.(string); raw && p.Transport == glasstest.TransportWebMCP {
			continue // a WebMCP tool's input is always a JSON object
		}
		r := pg.Do(c.id, c.args, c.opts...)
		if r.Code() != c.want {
			return probe.Failf("%s: want %s (the earlier stage), %s", c.what, c.want, probe.Got(r)).With(probe.ReceiptEvidence("receipt", r))
		}
		judged = append(judged, c.what+" → "+string(c.want))
	}
	return probe.Pass().With(probe.TextEvidence("combinations", judged...))
}

// CurrentModel: after a call that removed a declared action, calling
// that action again on the same page fails ACTION_NOT_FOUND.
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
	opts := []glasstest.PageOption{glasstest.Approve()}
	if remover.Secret != "" {
		opts = append(opts, glasstest.Sensitive(params.SensitiveRef, remover.Secret))
	}
	pg, err := p.Open("", opts...)
	if err != nil {
		return probe.Broken(err)
	}
	if first := pg.Do(remover.Action.ID, remover.Args); !first.Result.OK {
		return probe.NotProbed(fmt.Sprintf("%s did not succeed a second time on a fresh page (%s)", remover.Action.ID, probe.Got(first)))
	}
	args := any(nil)
	if gone == remover.Action.ID {
		args = remover.Args
	}
	r := pg.Do(gone, args)
	if r.Code() != receipt.CodeActionNotFound || r.FailurePhase() != receipt.PhaseTargetResolution {
		return probe.Failf("%s removed the action %s, but calling %s next on the same page: want ACTION_NOT_FOUND at phase target_resolution, %s",
			remover.Action.ID, gone, gone, probe.Got(r)).With(probe.ReceiptEvidence("receipt", r))
	}
	return probe.Pass()
}

// RefusalCheck is the check of a rule that one refusal must hold: the
// right code at the right phase and nothing changed, plus extra.
func RefusalCheck(kind string, extra func(res *probe.Refused) probe.Outcome) func(*probe.Probe) probe.Outcome {
	return func(p *probe.Probe) probe.Outcome {
		rf := probe.RefusalByKind(kind)
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
