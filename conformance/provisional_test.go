package conformance

import (
	"fmt"
	"os"
	"testing"

	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

// provisional lists the rules the suite already has checks for but the
// catalog does not list yet: CONTRACT.md and its catalog are written in
// parallel. The tests of this package add them to the catalog, so every
// check is proven against the reference runtime and its mutants now. When
// the catalog gains one of these rules (under this id, or under another id
// the check is then renamed to), its entry here is deleted;
// TestProvisionalRulesAreNotInTheCatalog says when.
var provisional = []Rule{
	{ID: "args.missing-required", Phase: receipt.PhasePreflight,
		Must: "Arguments that leave out a field the action's params declare required MUST fail with INVALID_PARAMS at phase preflight, before any side effect."},
	{ID: "args.wrong-type", Phase: receipt.PhasePreflight,
		Must: "An argument of a JSON type its declared schema does not allow MUST fail with INVALID_PARAMS at phase preflight, before any side effect."},
	{ID: "args.outside-enum", Phase: receipt.PhasePreflight,
		Must: "An argument outside its declared enum MUST fail with INVALID_PARAMS at phase preflight, before any side effect."},
	{ID: "args.before-confirmation", Phase: receipt.PhasePreflight,
		Must: "Arguments MUST be parsed and validated before confirmation: a call with invalid arguments MUST fail without asking for confirmation."},
	{ID: "envelope.stale-revision", Phase: receipt.PhasePreflight,
		Must: "A call whose expected revision is not the page's current revision MUST fail with STALE_REVISION at phase preflight before anything runs, reporting expectedRevision and currentRevision, with recoveryStrategy report."},
	{ID: "resolve.unavailable", Phase: receipt.PhaseTargetResolution,
		Must: "A call of an action the page declares unavailable MUST fail with ACTION_UNAVAILABLE at phase target_resolution, with a reason, before any side effect."},
	{ID: "lifecycle.no-effect-before-dispatch",
		Must: "A call that fails before stage 6 (lookup, arguments, revision, confirmation, availability) MUST leave the page as it was: its model, its DOM and its accessibility tree."},
	{ID: "changed.matches-snapshots",
		Must: "The changed object MUST agree with the page model before and after the call: every record and action it lists as added or removed was, and what it leaves out is counted."},
	{ID: "changed.witnessed-removal",
		Must: "A record a receipt reports removed MUST be gone from the page the user sees (its DOM and accessibility tree), not only from the runtime's model."},
	{ID: "changed.write-warning", Phase: receipt.PhaseVerification,
		Must: "A successful write that changed nothing observable MUST carry a warning; a successful read MUST NOT carry that warning."},
	{ID: "data.bounded",
		Must: "A function action's data MUST be bounded: at most 20 entries per array or object, strings of at most 500 characters, at most 4 levels deep, each cut marked."},
	{ID: "sensitive.never-echoed",
		Must: "A sensitive value MUST NOT appear in a receipt, a snapshot, or the confirmation request shown to the user."},
	{ID: "policy.ticket", Phase: receipt.PhasePolicy,
		Must: "A receipt's confirmations MUST carry the ticket the host issued with each approval."},
	{ID: "verify.expectation-failed", Phase: receipt.PhaseVerification,
		Must: "A call whose declared expectation is not observed within its timeout MUST fail with EXPECTATION_FAILED at phase verification, started yes, with recoveryStrategy report."},
	{ID: "dispatch.execution-failed", Phase: receipt.PhaseDispatch,
		Must: "A call whose handler throws MUST fail with EXECUTION_FAILED at phase dispatch, started yes."},
	{ID: "changed.bounded",
		Must: "Every list of changed MUST hold at most 20 entries, and its omission count MUST account for every entry left out."},
	{ID: "envelope.execution-id",
		Must: "Every receipt MUST carry the executionId of its attempt: present, never reused, and the one the confirmation was asked for."},
	{ID: "errors.phase-of-code",
		Must: "Every failure MUST carry the phase and the started fact of its error code (CONTRACT.md code table)."},
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
