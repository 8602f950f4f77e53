package matchers_test

import (
	"testing"

	. "github.com/onsi/gomega"

	. "github.com/glassworks/glass/matchers"
	"github.com/glassworks/glass/receipt"
)

func TestSatisfyExpectation(t *testing.T) {
	runCases(t, []matcherCase{
		{"verified", "remove-t9-approved", SatisfyExpectation(), true,
			`not to satisfy its expectation, but the runtime verified "The task is no longer in the list"`},
		{"verified, with its text", "remove-t9-approved", SatisfyExpectation("The task is no longer in the list"), true,
			`not to satisfy the expectation "The task is no longer in the list", but the runtime verified "The task is no longer in the list"`},
		{"verified, with a matcher", "flow-ok", SatisfyExpectation(HaveSuffix("done")), true,
			`not to satisfy the expectation HaveSuffix(…), but the runtime verified "The task is marked done"`},
		{"another text", "remove-t9-approved", SatisfyExpectation("The task is done"), false,
			`to satisfy the expectation "The task is done", but it verified "The task is no longer in the list"`},
		{"never verified", "expectation-failed", SatisfyExpectation(), false,
			`to satisfy its expectation, but it failed with EXPECTATION_FAILED at phase verification: "expected state not observed: The task is no longer in the list"`},
		{"nothing to verify", "function-data", SatisfyExpectation(), false,
			`to satisfy its expectation, but result.expect is absent: the runtime verified no expectation`},
	})
	r := fixture(t, "remove-t9-approved")
	runErrors(t, []errorCase{
		{"two texts", SatisfyExpectation("a", "b"), r, `SatisfyExpectation matcher: want at most one expectation text, got 2`},
		{"a text of the wrong type", SatisfyExpectation(1), r, `SatisfyExpectation matcher: expectation 1: want a string or a Gomega matcher, got int`},
	})
}

func TestHaveFidelity(t *testing.T) {
	runCases(t, []matcherCase{
		{"low", "element-low-fidelity", HaveFidelity(receipt.FidelityLow), true,
			`not to have fidelity low, but it has low`},
		{"absent means high", "remove-t9-approved", HaveFidelity("high"), true,
			`not to have fidelity high, but it has high (result.fidelity is absent, which means high)`},
		{"by matcher", "write-no-change", HaveFidelity(Not(Equal(receipt.FidelityLow))), true,
			`not to have fidelity Not(…), but it has auto`},
		{"not high", "write-no-change", HaveFidelity(receipt.FidelityHigh), false,
			`to have fidelity high, but it has auto`},
		{"not low", "remove-t9-approved", HaveFidelity(receipt.FidelityLow), false,
			`to have fidelity low, but it has high (result.fidelity is absent, which means high)`},
	})
	runErrors(t, []errorCase{
		{"a level outside the contract", HaveFidelity("medium"), fixture(t, "remove-t9-approved"), `HaveFidelity matcher: "medium" is not a fidelity of the contract`},
	})
}

func TestHaveWarning(t *testing.T) {
	runCases(t, []matcherCase{
		{"any warning", "write-no-change", HaveWarning(), true,
			`to carry no warning, but it warns "the page model did not change; the business change may be invisible to this layer"`},
		{"a warning by matcher", "write-no-change", HaveWarning(ContainSubstring("did not change")), true,
			`not to carry the warning ContainSubstring(…), but it warns "the page model did not change; the business change may be invisible to this layer"`},
		{"the exact warning", "element-low-fidelity", HaveWarning("executed by DOM simulation; the application's effect was not confirmed"), true,
			`not to carry the warning "executed by DOM simulation; the application's effect was not confirmed", but it warns "executed by DOM simulation; the application's effect was not confirmed"`},
		{"no warning", "remove-t9-approved", HaveWarning(), false,
			`to carry a warning, but result.warning is absent`},
		{"another warning", "element-low-fidelity", HaveWarning(ContainSubstring("did not change")), false,
			`to carry the warning ContainSubstring(…), but it warns "executed by DOM simulation; the application's effect was not confirmed"`},
		{"no warning, with a text", "remove-t9-approved", HaveWarning("x"), false,
			`to carry the warning "x", but result.warning is absent`},
	})
	r := fixture(t, "write-no-change")
	runErrors(t, []errorCase{
		{"two texts", HaveWarning("a", "b"), r, `HaveWarning matcher: want at most one warning text, got 2`},
		{"a text of the wrong type", HaveWarning(false), r, `HaveWarning matcher: warning false: want a string or a Gomega matcher, got bool`},
	})
}

func TestHaveData(t *testing.T) {
	runCases(t, []matcherCase{
		{"a key by matcher", "function-data", HaveData(HaveKeyWithValue("count", 12.0)), true,
			`not to have data matching HaveKeyWithValue(…), but result.data is {"count":12,"format":"csv","ref":"export-7","titles":["Buy groceries","Call the plumber","[10 more items]"]}`},
		{"a Go value, through JSON", "sensitive-clean", HaveData(map[string]string{"user": "anna"}), true,
			`not to have data {"user":"anna"}, but result.data is {"user":"anna"}`},
		{"a struct, through JSON", "sensitive-clean", HaveData(struct {
			User string `json:"user"`
		}{"anna"}), true,
			`not to have data {"user":"anna"}, but result.data is {"user":"anna"}`},
		{"another Go value", "sensitive-clean", HaveData(map[string]string{"user": "bob"}), false,
			`to have data {"user":"bob"}, but result.data is {"user":"anna"}`},
		{"no data", "remove-t9-approved", HaveData(BeEmpty()), false,
			`to have data matching BeEmpty(…), but result.data is absent`},
	})
	runErrors(t, []errorCase{
		{"data that is not JSON", HaveData(func() {}), fixture(t, "function-data"), `HaveData matcher: the expected data is not JSON: json: unsupported type: func()`},
		{"a matcher that cannot take the data", HaveData(ContainSubstring("anna")), fixture(t, "sensitive-clean"), "HaveData matcher: ContainSubstring matcher requires a string or stringer.  Got:\n    <map[string]interface {} | len:1>: {\n        \"user\": <string>\"anna\",\n    }"},
	})
}

func TestHaveDataNestedMessage(t *testing.T) {
	nested := HaveKeyWithValue("user", "bob")
	m := HaveData(nested)
	ok, err := m.Match(fixture(t, "sensitive-clean"))
	if err != nil || ok {
		t.Fatalf("Match = %v, %v; want false, nil", ok, err)
	}
	inner := nested.FailureMessage(map[string]any{"user": "anna"})
	want := header(decoded(t, "sensitive-clean")) + "\nto have data matching HaveKeyWithValue(…), but result.data is {\"user\":\"anna\"}:\n" + indentLines(inner)
	if got := stable(m.FailureMessage(nil)); got != want {
		t.Errorf("message:\n%s\nwant:\n%s", got, want)
	}
}

func indentLines(s string) string {
	out := "    "
	for _, c := range s {
		out += string(c)
		if c == '\n' {
			out += "    "
		}
	}
	return out
}

func TestHaveSteps(t *testing.T) {
	failedLedger := `[0 "open-editor@t3" ok, 1 "fill-title" ok, 2 "save" failed INVALID_PARAMS, 3 "close-editor" pending]`
	runCases(t, []matcherCase{
		{"the ledger of a failed flow", "flow-step-failed",
			HaveSteps(StepOK("open-editor@t3"), StepOK("fill-title"), StepFailed("save", receipt.CodeInvalidParams), StepPending("close-editor")), true,
			`not to have steps [ok "open-editor@t3", ok "fill-title", failed "save" (INVALID_PARAMS), pending "close-editor"], but the ledger is ` + failedLedger},
		{"ids, outcomes left open, and a matcher on the step", "flow-ok",
			HaveSteps("search", StepOK(HavePrefix("toggle@")), HaveField("Outcome", receipt.StepOK)), true,
			`not to have steps ["search", ok HavePrefix(…), HaveField(…)], but the ledger is [0 "search" ok, 1 "toggle@t3" ok, 2 "clear-search" ok]`},
		{"a resumed flow does not replay the steps before the failure", "flow-resumed",
			HaveSteps(StepSkipped("open-editor@t3"), StepSkipped("fill-title"), StepOK("save"), StepOK("close-editor")), true,
			`not to have steps [skipped "open-editor@t3", skipped "fill-title", ok "save", ok "close-editor"], but the ledger is [0 "open-editor@t3" skipped, 1 "fill-title" skipped, 2 "save" ok, 3 "close-editor" ok]`},
		{"a replayed step", "flow-ok", HaveSteps(StepSkipped("search"), StepOK("toggle@t3"), StepOK("clear-search")), false,
			`to have steps [skipped "search", ok "toggle@t3", ok "clear-search"], but:
    - steps[0] "search": outcome is "ok", want "skipped"
the ledger is [0 "search" ok, 1 "toggle@t3" ok, 2 "clear-search" ok]`},
		{"any ledger", "flow-ok", HaveSteps(), true,
			`not to have a step ledger, but the ledger is [0 "search" ok, 1 "toggle@t3" ok, 2 "clear-search" ok]`},
		{"a step that did not succeed, and a short expectation", "flow-step-failed",
			HaveSteps(StepOK("open-editor@t3"), StepOK("fill-title"), StepOK("save")), false,
			`to have steps [ok "open-editor@t3", ok "fill-title", ok "save"], but:
    - the ledger has 4 steps, want 3
    - steps[2] "save": outcome is "failed", want "ok"
the ledger is ` + failedLedger},
		{"another error code", "flow-step-failed",
			HaveSteps(StepOK("open-editor@t3"), StepOK("fill-title"), StepFailed("save", receipt.CodeStaleRevision), StepPending("close-editor")), false,
			`to have steps [ok "open-editor@t3", ok "fill-title", failed "save" (STALE_REVISION), pending "close-editor"], but:
    - steps[2] "save": error.code is INVALID_PARAMS, want STALE_REVISION
the ledger is ` + failedLedger},
		{"another step id", "flow-ok", HaveSteps("search", "toggle@t4", "clear-search"), false,
			`to have steps ["search", "toggle@t4", "clear-search"], but:
    - steps[1]: id is "toggle@t3", want "toggle@t4"
the ledger is [0 "search" ok, 1 "toggle@t3" ok, 2 "clear-search" ok]`},
		{"no ledger", "remove-t9-approved", HaveSteps(), false,
			`to have a step ledger, but:
    - result.steps is absent: the call has no step ledger`},
	})
	r := fixture(t, "flow-step-failed")
	runErrors(t, []errorCase{
		{"a step of the wrong type", HaveSteps(3), r, `HaveSteps matcher: step 0: want a StepPart, a step id or a Gomega matcher, got int`},
		{"a code outside the contract", HaveSteps(StepOK("a"), StepFailed("save", "NOPE")), r, `HaveSteps matcher: step 1: "NOPE" is not a code of the contract`},
		{"two codes", HaveSteps(StepFailed("save", "STEP_FAILED", "EXECUTION_FAILED")), r, `HaveSteps matcher: step 0: StepFailed: want at most one code, got 2`},
	})
}

func TestBeResumable(t *testing.T) {
	runCases(t, []matcherCase{
		{"a failed flow with a handle", "flow-step-failed", BeResumable(), true,
			`not to be resumable, but it carries the resume handle "rs_5f1c0a9e3b2d7c64"`},
		{"a failure without a handle", "execution-failed", BeResumable(), false,
			`to be resumable from a failed step, but result.resume is absent (it failed with EXECUTION_FAILED at phase dispatch: "the handler threw: lost the connection after sending the delete")`},
		{"a success", "flow-ok", BeResumable(), false,
			`to be resumable from a failed step, but it succeeded: there is nothing to resume`},
	})
}
