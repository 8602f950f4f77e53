package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/glassworks/glass/conformance/internal/catalog"
	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

// A report with a hover-only delete: it conforms, but not strictly; the
// text ends with the findings in init's words and the rules not probed
// grouped by reason, and the JSON carries both verdicts and the call.
func TestCallFindingsEndTheReportAndFailStrict(t *testing.T) {
	rule := func(id string) catalog.Rule { return catalog.Rule{ID: id, Phase: receipt.PhasePolicy, Must: "MUST."} }
	rep := &Report{
		Transports: []glasstest.Transport{glasstest.TransportBridge},
		Findings: []Finding{
			{Rule: rule("policy.denied"), Transport: glasstest.TransportBridge, Verdict: Pass},
			{Rule: rule("flow.resume"), Transport: glasstest.TransportBridge, Verdict: NotProbed, Message: "needs a manifest entry under flowFailures"},
			{Rule: rule("flow.step-failed"), Transport: glasstest.TransportBridge, Verdict: NotProbed, Message: "needs a manifest entry under flowFailures"},
			{Rule: rule("reveal.second-check"), Transport: glasstest.TransportBridge, Verdict: NotProbed, Message: "needs a manifest entry under reveals"},
		},
		CallFindings: []CallFinding{
			{Action: "delete@1", Transport: glasstest.TransportBridge, Kind: CallUnusable, Approved: true, Code: "ACTION_UNAVAILABLE", Phase: "target_resolution", Message: "the target is hidden\n\x1b[2Jforged"},
			{Action: "add", Transport: glasstest.TransportBridge, Kind: CallFailed, Code: "EXECUTION_FAILED", Phase: "dispatch", Message: "boom"},
		},
		CallsChecked: true,
	}
	if !rep.Conforms() || rep.ConformsStrictly() {
		t.Fatalf("Conforms %v, ConformsStrictly %v: want true, false", rep.Conforms(), rep.ConformsStrictly())
	}
	var text bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	want := "\nfindings: 2; glass-conformance run --strict fails on them:\n" +
		`  - delete@1: available, but the approved call could not make it usable: ACTION_UNAVAILABLE at target_resolution: the target is hidden\n\x1b[2Jforged` + "\n" +
		"  - add: available, but the call failed: EXECUTION_FAILED at dispatch: boom\n" +
		"not probed: 3 rules; what would probe them:\n" +
		"  - flow.resume, flow.step-failed: needs a manifest entry under flowFailures\n" +
		"  - reveal.second-check: needs a manifest entry under reveals\n"
	if !strings.HasSuffix(text.String(), want) {
		t.Errorf("the text report ends\n%s\nwant it to end\n%s", text.String(), want)
	}

	var js bytes.Buffer
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Conforms, ConformsStrictly bool
		CallFindings               []CallFinding
	}
	if err := json.Unmarshal(js.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if !got.Conforms || got.ConformsStrictly || len(got.CallFindings) != 2 || got.CallFindings[0].Kind != CallUnusable || !got.CallFindings[0].Approved {
		t.Errorf("JSON: %+v\n%s", got, js.String())
	}

	var page bytes.Buffer
	if err := rep.WriteHTML(&page); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(page.String(), "<h2>Findings (run --strict fails on them)</h2>") || !strings.Contains(page.String(), "<li>delete@1: available, but the approved call could not make it usable") {
		t.Errorf("the HTML report lacks the findings:\n%s", page.String())
	}

	// Without call findings the run passes --strict, rules not probed or
	// not; a run that probed no rule at all does not.
	rep.CallFindings = nil
	if !rep.ConformsStrictly() {
		t.Errorf("no call finding: ConformsStrictly false: %q", rep.StrictFindings())
	}
	text.Reset()
	_ = rep.WriteText(&text)
	if !strings.Contains(text.String(), "\nfindings: none: every call of an available action succeeded\n") {
		t.Errorf("no call finding:\n%s", text.String())
	}
	// A run that did not call every available action does not say they
	// all succeeded.
	rep.CallsChecked = false
	text.Reset()
	_ = rep.WriteText(&text)
	if want := "\nfindings: not looked for: the run made only the calls its rules need"; !strings.Contains(text.String(), want) || strings.Contains(text.String(), "succeeded") {
		t.Errorf("calls not checked: want %q, and no word of success:\n%s", want, text.String())
	}
	if rep.ConformsStrictly() {
		t.Error("calls not checked: ConformsStrictly true, want false: nothing showed every call succeeds")
	}
	rep.CallsChecked = true
	rep.Findings = rep.Findings[1:]
	if rep.ConformsStrictly() || !strings.Contains(strings.Join(rep.StrictFindings(), "\n"), "no rule was probed") {
		t.Errorf("a run that probed nothing passes --strict: %q", rep.StrictFindings())
	}
}

// TestCallFindingsShowTwoIdsApart: a page's id typed with a backslash and
// the id with the real character it spells (a right-to-left override)
// show apart in the findings (SECURITY.md: an id cannot pass for another).
func TestCallFindingsShowTwoIdsApart(t *testing.T) {
	rep := &Report{CallsChecked: true, CallFindings: []CallFinding{
		{Action: "pay\u202eyap", Kind: CallFailed, Code: "EXECUTION_FAILED", Phase: "dispatch", Message: "real"},
		{Action: `pay\u202eyap`, Kind: CallFailed, Code: "EXECUTION_FAILED", Phase: "dispatch", Message: "typed"},
	}}
	var text bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`  - pay\u202eyap: available, but the call failed: EXECUTION_FAILED at dispatch: real`, `  - pay\\u202eyap: available, but the call failed: EXECUTION_FAILED at dispatch: typed`} {
		if !strings.Contains(text.String(), want+"\n") {
			t.Errorf("the text report\n%s\nhas no line %s", text.String(), want)
		}
	}
}

// TestACancelledDialogIsNamedInItsFinding: a call that succeeded while the
// page's own confirm() was cancelled is a finding of its own; a failed
// call says the dialog was cancelled after its failure. The page's message
// is quoted, its controls escaped.
func TestACancelledDialogIsNamedInItsFinding(t *testing.T) {
	const why = "no call in flight had its confirmation approved by the host. An action whose button asks this way needs risk dangerous or confirm: true (docs/troubleshooting.md)"
	for _, c := range []struct {
		f    CallFinding
		want string
	}{
		{CallFinding{Action: "clear", Kind: CallCancelled, Cancelled: "Sure?\n"},
			`clear: available, and the call succeeded, but the page's own confirm("Sure?\n") was cancelled during it: ` + why},
		{CallFinding{Action: "clear", Kind: CallFailed, Code: "EXPECTATION_FAILED", Phase: "verification", Message: "the row is still there", Cancelled: "Sure?"},
			`clear: available, but the call failed: EXPECTATION_FAILED at verification: the row is still there; the page's own confirm("Sure?") was cancelled during it: ` + why},
	} {
		if got := c.f.String(); got != c.want {
			t.Errorf("got  %s\nwant %s", got, c.want)
		}
	}
}
