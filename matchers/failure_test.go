package matchers_test

import (
	"testing"

	. "github.com/onsi/gomega"

	. "github.com/glassworks/glass/matchers"
	"github.com/glassworks/glass/receipt"
)

func TestBeOK(t *testing.T) {
	runCases(t, []matcherCase{
		{"a success", "remove-t9-approved", BeOK(), true, `to fail, but it succeeded`},
		{"a failure", "denied", BeOK(), false, `to succeed, but it failed with PERMISSION_DENIED at phase policy: "confirmation denied by the user"`},
	})
}

func TestFailAtPhase(t *testing.T) {
	runCases(t, []matcherCase{
		{"the phase", "denied", FailAtPhase(receipt.PhasePolicy), true,
			`not to fail at phase policy, but it failed with PERMISSION_DENIED at phase policy: "confirmation denied by the user"`},
		{"the phase by name", "stale-revision", FailAtPhase("preflight"), true,
			`not to fail at phase preflight, but it failed with STALE_REVISION at phase preflight: "the page changed since revision 0"`},
		{"the phase by matcher", "call-timeout", FailAtPhase(BeElementOf(receipt.PhaseTransport, receipt.PhaseBrowserEffect)), true,
			`not to fail at phase BeElementOf(…), but it failed with CALL_TIMEOUT at phase transport: "the page did not answer: no answer from the page after 1ms"`},
		{"another phase", "execution-failed", FailAtPhase(receipt.PhasePolicy), false,
			`to fail at phase policy, but it failed with EXECUTION_FAILED at phase dispatch: "the handler threw: lost the connection after sending the delete"`},
		{"a success", "remove-t9-approved", FailAtPhase(receipt.PhasePolicy), false,
			`to fail at phase policy, but it succeeded`},
	})
	r := fixture(t, "denied")
	runErrors(t, []errorCase{
		{"a phase outside the contract", FailAtPhase("polcy"), r, `FailAtPhase matcher: "polcy" is not a phase of the contract`},
		{"an argument of the wrong type", FailAtPhase(3), r, `FailAtPhase matcher: want a receipt.Phase, a string or a Gomega matcher, got int`},
	})
}

func TestFailWith(t *testing.T) {
	runCases(t, []matcherCase{
		{"the code", "denied", FailWith(receipt.CodePermissionDenied), true,
			`not to fail with PERMISSION_DENIED, but it failed with PERMISSION_DENIED at phase policy: "confirmation denied by the user"`},
		{"the code by name", "expectation-failed", FailWith("EXPECTATION_FAILED"), true,
			`not to fail with EXPECTATION_FAILED, but it failed with EXPECTATION_FAILED at phase verification: "expected state not observed: The task is no longer in the list"`},
		{"the code by matcher", "handoff-timeout", FailWith(HavePrefix("HANDOFF_")), true,
			`not to fail with HavePrefix(…), but it failed with HANDOFF_TIMEOUT at phase dispatch: "the user did not finish the step within 30s"`},
		{"another code", "execution-failed", FailWith(receipt.CodeExpectationFailed), false,
			`to fail with EXPECTATION_FAILED, but it failed with EXECUTION_FAILED at phase dispatch: "the handler threw: lost the connection after sending the delete"`},
		{"a success", "remove-t9-approved", FailWith(receipt.CodePermissionDenied), false,
			`to fail with PERMISSION_DENIED, but it succeeded`},
	})
	r := fixture(t, "denied")
	runErrors(t, []errorCase{
		{"a code outside the contract", FailWith("PERMISSION_DENYED"), r, `FailWith matcher: "PERMISSION_DENYED" is not a code of the contract`},
		{"an argument of the wrong type", FailWith(403), r, `FailWith matcher: want a receipt.Code, a string or a Gomega matcher, got int`},
	})
}

func TestStarted(t *testing.T) {
	runCases(t, []matcherCase{
		{"denied before anything ran", "denied", HaveNotStarted(), true,
			`not to have failed before the operation started, but error.started is "no" (PERMISSION_DENIED at phase policy)`},
		{"a throw after the request went out", "execution-failed", HaveNotStarted(), false,
			`to have failed before the operation started, but error.started is "yes" (EXECUTION_FAILED at phase dispatch)`},
		{"a success ran", "remove-t9-approved", HaveNotStarted(), false,
			`to have failed before the operation started, but it succeeded: the operation ran`},
		{"an expectation that never verified started", "expectation-failed", HaveStarted(), true,
			`not to have started the operation, but error.started is "yes" (EXPECTATION_FAILED at phase verification)`},
		{"a success started", "remove-t9-approved", HaveStarted(), true,
			`not to have started the operation, but it succeeded: the operation ran`},
		{"a stale revision did not start", "stale-revision", HaveStarted(), false,
			`to have started the operation, but error.started is "no" (STALE_REVISION at phase preflight)`},
		{"a time-out cannot tell", "call-timeout", HaveUnknownStart(), true,
			`to know whether the operation started, but error.started is "unknown" (CALL_TIMEOUT at phase transport)`},
		{"the code table answers when the receipt does not", "handoff-timeout", HaveUnknownStart(), true,
			`to know whether the operation started, but error.started is absent and the code table says "unknown" for HANDOFF_TIMEOUT`},
		{"a denial is known not to have started", "denied", HaveUnknownStart(), false,
			`to leave unknown whether the operation started, but error.started is "no" (PERMISSION_DENIED at phase policy)`},
	})
}

func TestHaveRecoveryStrategy(t *testing.T) {
	runCases(t, []matcherCase{
		{"report", "expectation-failed", HaveRecoveryStrategy(receipt.RecoveryReport), true,
			`not to have recovery strategy report, but it has report`},
		{"by name", "denied", HaveRecoveryStrategy("none"), true,
			`not to have recovery strategy none, but it has none`},
		{"by matcher", "stale-revision", HaveRecoveryStrategy(Not(Equal(receipt.RecoveryRetrySafe))), true,
			`not to have recovery strategy Not(…), but it has report`},
		{"another strategy", "denied", HaveRecoveryStrategy(receipt.RecoveryReport), false,
			`to have recovery strategy report, but it has none`},
		{"a success has none", "remove-t9-approved", HaveRecoveryStrategy(receipt.RecoveryNone), false,
			`to have recovery strategy none, but recoveryStrategy is absent`},
	})
	runErrors(t, []errorCase{
		{"a strategy outside the contract", HaveRecoveryStrategy("retry"), fixture(t, "denied"), `HaveRecoveryStrategy matcher: "retry" is not a recovery strategy of the contract`},
	})
}

func TestOfferActions(t *testing.T) {
	available := `["remove@t1" "remove@t2" "remove@t3" "remove@t4" "remove@t5" "remove@t6" "remove@t7" "remove@t8" "remove@t10" "remove@t11" "remove@t12"]`
	runCases(t, []matcherCase{
		{"the offered actions", "not-found", OfferActions("remove@t8", HavePrefix("remove@t1")), true,
			`not to fail with ACTION_NOT_FOUND offering ["remove@t8" HavePrefix(…)], but it does: error.available is ` + available},
		{"any offer", "not-found", OfferActions(), true,
			`not to fail with ACTION_NOT_FOUND offering the available actions, but it does: error.available is ` + available},
		{"an action that is not offered", "not-found", OfferActions("remove@t9"), false,
			`to fail with ACTION_NOT_FOUND offering ["remove@t9"], but error.available: "remove@t9" is not listed in ` + available},
		{"every action that is not offered", "not-found", OfferActions("remove@t9", "archive@t9"), false,
			`to fail with ACTION_NOT_FOUND offering ["remove@t9" "archive@t9"], but:
    - error.available: "remove@t9" is not listed in ` + available + `
    - error.available: "archive@t9" is not listed in ` + available},
		{"another failure", "denied", OfferActions("remove@t9"), false,
			`to fail with ACTION_NOT_FOUND offering ["remove@t9"], but it failed with PERMISSION_DENIED at phase policy: "confirmation denied by the user"`},
		{"a success", "remove-t9-approved", OfferActions(), false,
			`to fail with ACTION_NOT_FOUND offering the available actions, but it succeeded`},
	})
	runErrors(t, []errorCase{
		{"an id of the wrong type", OfferActions(9), fixture(t, "not-found"), `OfferActions matcher: 9: want a string or a Gomega matcher, got int`},
	})
}
