package conformance

import (
	"fmt"
	"slices"
	"strings"

	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

// check probes one rule.
type check struct {
	run func(*probe) outcome
	// audit marks a check that judges every receipt the run has seen; Run
	// runs audits after the other checks.
	audit bool
}

// checks is the suite, as data: one check per rule id of the catalog. A
// rule without an entry is reported as not probed (NoCheckYet), never as
// passed. Every entry is proven by at least one mutant in
// fixtures/mutants that makes it fail (TestMutationMatrix).
var checks = map[string]check{
	// Refusals: the right code at the right phase, nothing changed.
	"resolve.unknown-id":      {run: refusalCheck(refUnknownID, checkAvailableList)},
	"resolve.no-dom-fallback": {run: refusalCheck(refControlName, nil)},
	"args.malformed-json":     {run: refusalCheck(refMalformed, nil)},
	"args.invalid-params":     {run: checkInvalidParams},
	"args.sensitive-restored": {run: checkSensitiveRestored},
	"policy.denied":           {run: refusalCheck(refDenied, nil)},
	"policy.no-channel":       {run: refusalCheck(refNoChannel, nil)},
	"envelope.stale-revision": {run: refusalCheck(refStale, checkStaleFields)},
	"unavailable.reason":      {run: refusalCheck(refUnavailable, checkUnavailableReason)},

	// Refusals as a whole.
	"policy.after-validation":            {run: checkValidationBeforeConfirmation},
	"pipeline.no-effect-before-dispatch": {run: checkNoEffectBeforeDispatch},
	"pipeline.stage-order":               {run: checkStageOrder},
	"resolve.current-model":              {run: checkCurrentModel},

	// What the page declares.
	"exec.kinds":        {run: checkKinds},
	"protocol.global":   {run: checkGlobal},
	"protocol.snapshot": {run: checkSnapshotValid},
	"snapshot.bounded":  {run: checkSnapshotBounded},

	// Successful calls and what their receipts claim.
	"verify.expectation":               {run: checkExpectation},
	"verify.expect-only-when-verified": {run: checkExpectOnlyWhenVerified},
	"changed.records":                  {run: checkChangedRecords},
	"changed.parts":                    {run: checkChangedParts},
	"changed.write-warning":            {run: checkWriteWarning},
	"changed.read-no-warning":          {run: checkReadNoWarning},
	"data.bounded":                     {run: checkDataBounded},
	"data.function-only":               {run: checkDataFunctionOnly},
	"fidelity.reported":                {run: checkFidelityReported},
	"fidelity.low-warning":             {run: checkLowFidelityWarning},
	"sensitive.never-echoed":           {run: checkSensitive},
	"policy.ticket":                    {run: checkTicket},
	"policy.risk-classes":              {run: checkRiskClasses},
	"envelope.revision":                {run: checkRevision},

	// Failures the manifest names.
	"verify.expectation-failed": {run: checkExpectationFailed},
	"exec.handler-throws":       {run: checkHandlerThrows},

	// Audits over every receipt the run saw.
	"changed.bounded":            {run: checkBounded, audit: true},
	"envelope.execution-id":      {run: checkExecutionIDs, audit: true},
	"protocol.receipt":           {run: checkReceiptsValid, audit: true},
	"envelope.phase":             {run: checkEnvelopePhase, audit: true},
	"envelope.recovery-strategy": {run: checkRecoveryStrategy, audit: true},
	"failure.code-table":         {run: checkCodeTable, audit: true},
	"failure.bounded":            {run: checkFailureBounded, audit: true},
}

func isAudit(id string) bool { return checks[id].audit }

// Checked reports whether the suite has a check for the rule id.
func Checked(id string) bool {
	_, ok := checks[id]
	return ok
}

// CheckIDs lists the rule ids the suite has checks for, sorted.
func CheckIDs() []string {
	ids := make([]string, 0, len(checks))
	for id := range checks {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// ---- extras of refusal checks ----------------------------------------------

func checkAvailableList(res *refused) outcome {
	for _, id := range res.r.Result.Error.Available {
		a, ok := res.before.snap.Action(id)
		if !ok || !a.Available {
			return failf("ACTION_NOT_FOUND lists %q as available, but the page model does not declare it available", id).
				with(receiptEvidence("receipt", res.r))
		}
	}
	return pass()
}

// checkInvalidParams makes the three INVALID_PARAMS refusals the snapshot
// allows: a missing required field, a wrong type, a value outside an enum.
// Each must fail at preflight, name the offending value's JSON Pointer in
// error.path, and change nothing.
func checkInvalidParams(p *probe) outcome {
	var probed, skipped []string
	p.refuseAhead(refusalByKind(refMissing), refusalByKind(refWrongType), refusalByKind(refOutsideEnum))
	for _, kind := range []string{refMissing, refWrongType, refOutsideEnum} {
		rf := refusalByKind(kind)
		res, o, ok := p.refuse(rf)
		if !ok {
			if o.verdict == NotProbed {
				skipped = append(skipped, kind+": "+o.message)
				continue
			}
			return o
		}
		if o := expectRefused(res, rf.code); o.verdict != Pass {
			return o
		}
		if want := "/" + res.call.field; res.r.Result.Error.Path != want {
			return failf("%s: INVALID_PARAMS names the path %q, want the JSON Pointer %q of the offending value", res.call.describe, res.r.Result.Error.Path, want).
				with(receiptEvidence("receipt", res.r))
		}
		probed = append(probed, kind)
	}
	if len(probed) == 0 {
		return notProbed(strings.Join(skipped, "; "))
	}
	o := pass().with(textEvidence("probed", probed...))
	if len(skipped) > 0 {
		o = o.with(textEvidence("not probed", skipped...))
	}
	return o
}

// checkSensitiveRestored: a placeholder the host gave a value for is
// restored before validation (the exercise's call with a sensitive value
// passes validation), and one it did not give fails INVALID_ARGS.
func checkSensitiveRestored(p *probe) outcome {
	if o := refusalCheck(refSecretName, nil)(p); o.verdict != Pass {
		return o
	}
	o, _ := p.judgeEach(hasSecret(p), func(e *exercised) (bool, string) {
		if c := e.r.Code(); c == receipt.CodeInvalidArgs || c == receipt.CodeInvalidParams {
			return true, fmt.Sprintf("a call with a sensitive value the host gave failed %s: the placeholder was not restored before validation", c)
		}
		return true, ""
	})
	if o != nil {
		return *o
	}
	return pass()
}

func checkStaleFields(res *refused) outcome {
	e := res.r.Result.Error
	want := res.before.snap.Revision + 1
	switch {
	case e.ExpectedRevision == nil || *e.ExpectedRevision != want:
		return failf("STALE_REVISION: error.expectedRevision = %s, want the %d the call expected", ptrString(e.ExpectedRevision), want).
			with(receiptEvidence("receipt", res.r))
	case e.CurrentRevision == nil || *e.CurrentRevision != res.before.snap.Revision:
		return failf("STALE_REVISION: error.currentRevision = %s, want the page's revision %d", ptrString(e.CurrentRevision), res.before.snap.Revision).
			with(receiptEvidence("receipt", res.r))
	case res.r.RecoveryStrategy != receipt.RecoveryReport || res.r.Recovery != "observe":
		return failf("STALE_REVISION: recoveryStrategy %q with recovery %q, want %q with %q", res.r.RecoveryStrategy, res.r.Recovery, receipt.RecoveryReport, "observe").
			with(receiptEvidence("receipt", res.r))
	}
	return pass()
}

func ptrString(p *int64) string {
	if p == nil {
		return "missing"
	}
	return fmt.Sprint(*p)
}

func checkUnavailableReason(res *refused) outcome {
	reason := strings.TrimSpace(res.r.Result.Error.Reason)
	if reason == "" {
		return failf("%s: ACTION_UNAVAILABLE has no error.reason", res.call.describe).with(receiptEvidence("receipt", res.r))
	}
	if a, ok := res.before.snap.Action(res.call.id); ok && a.Reason != "" && a.Reason != reason {
		return failf("%s: error.reason is %q, but the snapshot gives the reason %q", res.call.describe, reason, a.Reason).
			with(receiptEvidence("receipt", res.r))
	}
	return pass()
}

// ---- refusals as a whole ---------------------------------------------------

// checkValidationBeforeConfirmation: a call with invalid arguments of an
// action that needs confirmation fails validation without asking anyone.
func checkValidationBeforeConfirmation(p *probe) outcome {
	for _, kind := range []string{refMissing, refWrongType, refOutsideEnum, refMalformed} {
		rf := refusalByKind(kind)
		call, _ := rf.plan(p)
		if call == nil {
			continue
		}
		if a, _ := p.base().Action(call.id); !needsConfirmation(a) {
			continue
		}
		res, o, ok := p.refuse(rf)
		if !ok {
			return o
		}
		if len(res.confirmations) > 0 {
			return failf("%s: the runtime asked for confirmation before rejecting the arguments", call.describe).
				with(receiptEvidence("receipt", res.r), confirmationEvidence(res.confirmations))
		}
		if o := expectRefused(res, rf.code); o.verdict != Pass {
			return o
		}
		return pass()
	}
	return notProbed("the page declares no available action that needs confirmation and takes arguments")
}

// checkNoEffectBeforeDispatch makes every refusal the snapshot allows and
// checks, with independent witnesses, that none changed the page.
func checkNoEffectBeforeDispatch(p *probe) outcome {
	var probed, skipped []string
	p.refuseAhead(refusals...)
	for _, rf := range refusals {
		res, o, ok := p.refuse(rf)
		if !ok {
			if o.verdict == NotProbed {
				skipped = append(skipped, rf.kind+": "+o.message)
				continue
			}
			return o
		}
		if !res.r.Result.OK && res.r.Code().Started() != receipt.StartedNo {
			// A refusal that failed later than it should is its own rule's
			// violation; here only side effects count.
			skipped = append(skipped, fmt.Sprintf("%s: failed with %s, after stage 5", rf.kind, res.r.Code()))
			continue
		}
		if !res.r.Result.OK && res.r.Result.Error.Started != receipt.StartedNo {
			return failf("%s failed with %s before stage 6, but reports started %q, want %q", res.call.describe, res.r.Code(), res.r.Result.Error.Started, receipt.StartedNo).
				with(receiptEvidence("receipt", res.r))
		}
		if len(res.changes) > 0 {
			return failf("%s ended with %s, but the page changed: %s", res.call.describe, outcomeCode(res.r), res.changes[0]).
				with(receiptEvidence("receipt", res.r), textEvidence("what changed", res.changes...), witnessNote(res.domWitness),
					snapshotEvidence("snapshot before the call", res.before.snap), snapshotEvidence("snapshot after the call", res.after.snap))
		}
		probed = append(probed, rf.kind)
	}
	if len(probed) == 0 {
		return notProbed("no refusal could be probed: " + strings.Join(skipped, "; "))
	}
	o := pass()
	return o.with(textEvidence("refusals probed", probed...))
}

func outcomeCode(r *receipt.Receipt) string {
	if r.Result.OK {
		return "ok"
	}
	return string(r.Code())
}

// checkStageOrder makes calls that fail two gates at once, on one page
// with no confirmation policy but denial: the earlier stage must win.
func checkStageOrder(p *probe) outcome {
	type combo struct {
		what string
		id   string
		args any
		opts []glasstest.Option
		want receipt.Code
	}
	var combos []combo
	if c, _ := planUnknown(p); c != nil {
		combos = append(combos, combo{"an undeclared id with malformed arguments", c.id, `{"unterminated`, nil, receipt.CodeActionNotFound})
	}
	if c, _ := planMalformed(p); c != nil {
		if a, _ := p.base().Action(c.id); needsConfirmation(a) {
			combos = append(combos, combo{"malformed arguments to an action that needs confirmation (denied)", c.id, c.args, nil, receipt.CodeInvalidArgs})
		}
	}
	for _, a := range p.base().Actions.Items {
		if a.Available || a.Kind == receipt.KindHandoff {
			continue
		}
		if s, err := parseSchema(a.Params); err == nil && len(s.Required) > 0 {
			combos = append(combos, combo{fmt.Sprintf("arguments missing %q to the unavailable %s", s.Required[0], a.ID), a.ID, map[string]any{}, nil, receipt.CodeInvalidParams})
			break
		}
	}
	if c, _ := planDenied(p); c != nil {
		combos = append(combos, combo{"a stale expected revision on a call that would be denied", c.id, c.args,
			[]glasstest.Option{glasstest.ExpectedRevision(987654321)}, receipt.CodeStaleRevision})
	}
	if len(combos) < 2 {
		return notProbed("the page declares too few kinds of action to combine two failing gates")
	}
	pg, err := p.open("", glasstest.Deny())
	if err != nil {
		return broken(err)
	}
	var judged []string
	for _, c := range combos {
		if _, raw := c.args.(string); raw && p.transport == glasstest.TransportWebMCP {
			continue // a WebMCP tool's input is always a JSON object
		}
		r := pg.do(c.id, c.args, c.opts...)
		if r.Code() != c.want {
			return failf("%s: want %s (the earlier stage), %s", c.what, c.want, got(r)).with(receiptEvidence("receipt", r))
		}
		judged = append(judged, c.what+" → "+string(c.want))
	}
	return pass().with(textEvidence("combinations", judged...))
}

// checkCurrentModel: after a call that removed a declared action, calling
// that action again on the same page fails ACTION_NOT_FOUND.
func checkCurrentModel(p *probe) outcome {
	var remover *exercised
	err := p.each(isWrite, func(e *exercised) bool {
		if c := e.r.Result.Changed; e.r.Result.OK && c != nil && c.Actions != nil && len(c.Actions.Removed) > 0 {
			remover = e
			return false
		}
		return true
	})
	if err != nil {
		return broken(err)
	}
	if remover == nil {
		return notProbed("no call of the run removed a declared action").with(p.planNotes()...)
	}
	gone := remover.r.Result.Changed.Actions.Removed[0]
	opts := []glasstest.Option{glasstest.Approve()}
	if remover.secret != "" {
		opts = append(opts, glasstest.Sensitive(sensitiveRef, remover.secret))
	}
	pg, err := p.open("", opts...)
	if err != nil {
		return broken(err)
	}
	if first := pg.do(remover.action.ID, remover.args); !first.Result.OK {
		return notProbed(fmt.Sprintf("%s did not succeed a second time on a fresh page (%s)", remover.action.ID, got(first)))
	}
	args := any(nil)
	if gone == remover.action.ID {
		args = remover.args
	}
	r := pg.do(gone, args)
	if r.Code() != receipt.CodeActionNotFound || r.FailurePhase() != receipt.PhaseTargetResolution {
		return failf("%s removed the action %s, but calling %s next on the same page: want ACTION_NOT_FOUND at phase target_resolution, %s",
			remover.action.ID, gone, gone, got(r)).with(receiptEvidence("receipt", r))
	}
	return pass()
}
