package conformance

import (
	"fmt"
	"os"
	"testing"

	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

// provisional lists the rules the suite has checks for that this
// branch's catalog does not list yet: CONTRACT.md and its catalog are
// written in parallel (branch contract), and these entries copy its ids,
// phases and MUST sentences. The tests of this package add them to the
// catalog, so every check is proven against the reference runtime and its
// mutants now. When catalog.go lists them, this list goes:
// TestProvisionalRulesAreNotInTheCatalog says when.
var provisional = []Rule{
	{ID: "resolve.no-dom-fallback", Phase: receipt.PhaseTargetResolution,
		Must: "A runtime MUST NOT act on an id that is not declared — no search of the page for a similar control — so a call that fails with ACTION_NOT_FOUND leaves the page model as it was."},
	{ID: "args.invalid-params", Phase: receipt.PhasePreflight,
		Must: "Arguments that are valid JSON but break the action's params schema — a missing required field, a wrong type, a value outside an enum — MUST fail with INVALID_PARAMS at phase preflight, with result.error.path the JSON Pointer of the offending value."},
	{ID: "args.sensitive-restored", Phase: receipt.PhasePreflight,
		Must: "A runtime MUST replace every {\"$sensitive\": name} placeholder in the arguments with options.secrets[name] before validation, and MUST fail with INVALID_ARGS when name is not in options.secrets."},
	{ID: "envelope.stale-revision", Phase: receipt.PhasePreflight,
		Must: "A call whose options.expectedRevision is not the page's current revision MUST fail with STALE_REVISION at phase preflight before stage 1 runs, with result.error.expectedRevision and currentRevision, recoveryStrategy report and recovery observe."},
	{ID: "unavailable.reason", Phase: receipt.PhaseTargetResolution,
		Must: "A declared action whose business prerequisite is unmet, whose control is disabled or whose target stays hidden MUST fail with ACTION_UNAVAILABLE at phase target_resolution with result.error.reason saying why, and a snapshot MUST report an action whose business prerequisite is unmet with available false and the same reason."},
	{ID: "policy.after-validation", Phase: receipt.PhasePreflight,
		Must: "A call whose arguments fail parsing, restoration or validation MUST NOT ask the host for confirmation."},
	{ID: "pipeline.no-effect-before-dispatch",
		Must: "A call that fails before stage 6 MUST report started no and MUST leave the page's records, state views and feedback as they were, apart from records that revealing the target rendered."},
	{ID: "pipeline.stage-order",
		Must: "A runtime MUST run every call through the eight stages in order — resolve, parse and restore, validate and normalise, confirm, make usable, execute, observe, compare and report — and MUST stop at the first stage that fails."},
	{ID: "resolve.current-model", Phase: receipt.PhaseTargetResolution,
		Must: "A runtime MUST resolve an id against the actions declared when the call is made, so that a call of an action an earlier call removed fails with ACTION_NOT_FOUND."},
	{ID: "exec.kinds", Phase: receipt.PhaseDispatch,
		Must: "Every declared action MUST have exactly one kind — element, function, flow or handoff — and a call of any kind MUST pass the gates of stages 1 to 5 before stage 6."},
	{ID: "protocol.global", Phase: receipt.PhaseTransport,
		Must: "A page runtime MUST install one global, globalThis.glassRuntime, a frozen object whose protocol is glass.page/v1 and whose ready, snapshot, execute and resume are functions with the signatures of this contract."},
	{ID: "snapshot.bounded", Phase: receipt.PhaseVerification,
		Must: "A snapshot MUST list at most 500 records and 500 actions, or options.limit of each when the host passes it, with records.total the full count and each omitted the number left out."},
	{ID: "verify.expect-only-when-verified", Phase: receipt.PhaseVerification,
		Must: "A receipt MUST NOT carry result.expect unless the action declares an expectation and the runtime observed it true during this call."},
	{ID: "changed.records", Phase: receipt.PhaseVerification,
		Must: "changed.records MUST list the ids of the records added and removed, the records updated with the names of the fields that changed, whether the records present before and after changed order, and the total before and after."},
	{ID: "changed.parts", Phase: receipt.PhaseVerification,
		Must: "changed MUST compare exactly what a snapshot exposes — page identity, records and their fields, actions, state views and feedback — MUST carry a part only when something in it changed, and MUST set observed true exactly when a part is present."},
	{ID: "changed.write-warning", Phase: receipt.PhaseVerification,
		Must: "A successful call of a write or dangerous action whose changed.observed is false MUST carry a warning and MUST still report ok true."},
	{ID: "changed.read-no-warning", Phase: receipt.PhaseVerification,
		Must: "A successful call of a read action MUST NOT carry a warning unless its fidelity is low."},
	{ID: "data.bounded", Phase: receipt.PhaseDispatch,
		Must: "result.data MUST hold at most 20 entries per array or object plus one marker, strings of at most 500 characters plus a marker, and at most 4 levels of nesting, and every marker MUST say how much was left out."},
	{ID: "data.function-only", Phase: receipt.PhaseDispatch,
		Must: "Only the receipt of a function action MAY carry result.data; a runtime MUST NOT put data in the receipt of an element, flow or hand-off action."},
	{ID: "fidelity.reported", Phase: receipt.PhaseDispatch,
		Must: "A successful receipt of an element action MUST carry result.fidelity exactly when the action's fidelity is not high, and the receipt of any other kind MUST NOT carry it."},
	{ID: "fidelity.low-warning", Phase: receipt.PhaseDispatch,
		Must: "A successful receipt whose fidelity is low MUST carry a warning."},
	{ID: "sensitive.never-echoed",
		Must: "A value restored from options.secrets MUST NOT appear in any receipt, snapshot, confirmation request or hand-off request; where it would appear, the runtime MUST write [sensitive]."},
	{ID: "policy.ticket", Phase: receipt.PhasePolicy,
		Must: "A runtime MUST treat a confirmation as approved only when the host's answer has approved true, and MUST list every confirmation it asked in the receipt's confirmations with the host's ticket copied unchanged."},
	{ID: "policy.risk-classes", Phase: receipt.PhasePolicy,
		Must: "Every declared action MUST carry the risk read, write or dangerous, and a runtime MUST ask the host for confirmation exactly once before running an action whose risk is dangerous or that declares confirm, and MUST NOT ask for any other action."},
	{ID: "envelope.revision",
		Must: "Every receipt from a runtime MUST carry revision.before and revision.after, and a page's revision MUST never decrease and MUST grow whenever the page model differs from the one last observed, so that after exceeds before when changed.observed is true."},
	{ID: "verify.expectation-failed", Phase: receipt.PhaseVerification,
		Must: "When a declared expectation is not observed true before its timeout, the call MUST fail with EXPECTATION_FAILED at phase verification with started yes and recoveryStrategy report, and MUST still carry changed."},
	{ID: "exec.handler-throws", Phase: receipt.PhaseDispatch,
		Must: "A handler that throws or rejects MUST produce EXECUTION_FAILED at phase dispatch with started yes, and the receipt MUST still carry changed for what the page shows afterwards."},
	{ID: "changed.bounded", Phase: receipt.PhaseVerification,
		Must: "Every list in changed MUST hold at most 20 entries, and the entries left out MUST be counted in the matching omitted field, so that listed plus omitted is the true count."},
	{ID: "envelope.execution-id",
		Must: "Every receipt MUST carry an executionId, distinct for every call on a page: options.executionId when the host passed one matching ^[A-Za-z0-9_.:-]{1,64}$, else one of that form the runtime assigns."},
	{ID: "envelope.phase",
		Must: "A failed receipt MUST carry phase, the phase the code table gives its code, and a successful receipt MUST NOT carry phase."},
	{ID: "envelope.recovery-strategy",
		Must: "A failed receipt MUST carry recoveryStrategy report for STALE_REVISION and EXPECTATION_FAILED and none for every other code, and a recovery suggestion only beside report, because retry_safe is reserved for a retry policy the caller selects."},
	{ID: "failure.code-table",
		Must: "A failed receipt MUST carry a result.error.code from the code table and result.error.started as the table gives it for that code."},
	{ID: "failure.bounded",
		Must: "A failure's message, reason and path MUST each be at most 1000 characters and MUST NOT contain raw page contents, argument values the caller typed, values restored from options.secrets, JavaScript source or browser protocol payloads."},
}

// realCatalog is the catalog as catalog.go declares it.
var realCatalog []Rule

func TestMain(m *testing.M) {
	realCatalog = append([]Rule(nil), Catalog...)
	for _, r := range provisional {
		if _, ok := RuleByID(r.ID); !ok {
			Catalog = append(Catalog, r)
		}
	}
	code := m.Run()
	if err := glasstest.Stop(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		code = 1
	}
	os.Exit(code)
}

func TestProvisionalRulesAreNotInTheCatalog(t *testing.T) {
	for _, p := range provisional {
		for _, r := range realCatalog {
			if r.ID == p.ID {
				t.Errorf("catalog.go now lists %s: delete its provisional entry", p.ID)
			}
		}
	}
}

func TestEveryCheckNamesARule(t *testing.T) {
	for _, id := range CheckIDs() {
		if _, ok := RuleByID(id); !ok {
			t.Errorf("check %q names no rule of the catalog (nor a provisional one)", id)
		}
	}
	for _, p := range provisional {
		if !Checked(p.ID) {
			t.Errorf("provisional rule %s has no check: a rule without a check belongs in the catalog only", p.ID)
		}
	}
}
