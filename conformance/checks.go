package conformance

import (
	"fmt"
	"slices"
	"strings"

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
// fixtures/mutants that makes it fail.
var checks = map[string]check{
	// Refusals: the right code at the right phase, nothing changed.
	"resolve.unknown-id":      {run: refusalCheck(refUnknownID, checkAvailableList)},
	"args.malformed-json":     {run: refusalCheck(refMalformed, nil)},
	"args.missing-required":   {run: refusalCheck(refMissing, checkErrorPath)},
	"args.wrong-type":         {run: refusalCheck(refWrongType, checkErrorPath)},
	"args.outside-enum":       {run: refusalCheck(refOutsideEnum, checkErrorPath)},
	"policy.denied":           {run: refusalCheck(refDenied, nil)},
	"policy.no-channel":       {run: refusalCheck(refNoChannel, nil)},
	"envelope.stale-revision": {run: refusalCheck(refStale, checkStaleFields)},
	"resolve.unavailable":     {run: refusalCheck(refUnavailable, checkUnavailableReason)},

	"args.before-confirmation":            {run: checkValidationBeforeConfirmation},
	"lifecycle.no-effect-before-dispatch": {run: checkNoEffectBeforeDispatch},

	// Successful calls and what their receipts claim.
	"verify.expectation":        {run: checkExpectation},
	"changed.matches-snapshots": {run: checkMatchesSnapshots},
	"changed.witnessed-removal": {run: checkWitnessedRemoval},
	"changed.write-warning":     {run: checkWriteWarning},
	"data.bounded":              {run: checkDataBounded},
	"sensitive.never-echoed":    {run: checkSensitive},
	"policy.ticket":             {run: checkTicket},

	// Failures the manifest names.
	"verify.expectation-failed": {run: checkExpectationFailed},
	"dispatch.execution-failed": {run: checkExecutionFailed},

	// Audits over every receipt the run saw.
	"changed.bounded":       {run: checkBounded, audit: true},
	"envelope.execution-id": {run: checkExecutionIDs, audit: true},
	"errors.phase-of-code":  {run: checkPhaseOfCode, audit: true},
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

func checkErrorPath(res *refused) outcome {
	path := res.r.Result.Error.Path
	if path != "" && !strings.Contains(path, res.call.field) {
		return failf("%s: INVALID_PARAMS names the path %q, which is not the invalid field %q", res.call.describe, path, res.call.field).
			with(receiptEvidence("receipt", res.r))
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
	case res.r.RecoveryStrategy != receipt.RecoveryReport:
		return failf("STALE_REVISION: recoveryStrategy = %q, want %q", res.r.RecoveryStrategy, receipt.RecoveryReport).
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
	if strings.TrimSpace(res.r.Result.Error.Reason) == "" && strings.TrimSpace(res.r.Result.Error.Message) == "" {
		return failf("%s: ACTION_UNAVAILABLE gives no reason", res.call.describe).with(receiptEvidence("receipt", res.r))
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
		if len(res.changes) > 0 {
			return failf("%s ended with %s, but the page changed: %s", res.call.describe, outcomeCode(res.r), res.changes[0]).
				with(receiptEvidence("receipt", res.r), textEvidence("what changed", res.changes...), witnessNote(res.domWitness))
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
