package manifest

import (
	"strings"
	"testing"

	"github.com/glassworks/glass/receipt"
)

// The manifest fields the flow and reveal rules read: a flow failure's
// code and resume, and the reveals list.
func TestManifestFlowFailureCodeResumeAndReveals(t *testing.T) {
	m, err := Parse("m.yaml", []byte(`
flowFailures:
  - action: edit
    step: 4
    code: EXECUTION_FAILED
    resume: true
  - action: edit
    step: 2
reveals:
  - action: peek
    outcome: shown
  - {action: stuck, outcome: hidden, url: "/?x=1"}
`))
	if err != nil {
		t.Fatal(err)
	}
	if f := m.FlowFailures[0]; f.Code != receipt.CodeExecutionFailed || !f.Resume || f.Step != 4 {
		t.Errorf("flowFailures[0] = %+v", f)
	}
	if f := m.FlowFailures[1]; f.Code != "" || f.Resume {
		t.Errorf("flowFailures[1] = %+v, want no code and no resume", f)
	}
	if len(m.Reveals) != 2 || m.Reveals[0].Outcome != "shown" || m.Reveals[1].Outcome != "hidden" || m.Reveals[1].URL != "/?x=1" {
		t.Errorf("reveals = %+v", m.Reveals)
	}

	for _, c := range []struct{ name, in, want string }{
		{"unknown code", "flowFailures:\n  - {action: a, step: 1, code: NOPE}\n", `line 2: flowFailures[0].code: want a failure code`},
		{"resume not a boolean", "flowFailures:\n  - {action: a, step: 1, resume: maybe}\n", `flowFailures[0].resume: want true or false`},
		{"code outside flowFailures", "executionFailures:\n  - {action: a, code: EXECUTION_FAILED}\n", `unknown field "code" (want action, url, args)`},
		{"reveal without outcome", "reveals:\n  - action: peek\n", `reveals[0].outcome: required`},
		{"reveal with a hand-off outcome", "reveals:\n  - {action: peek, outcome: cancelled}\n", `reveals[0].outcome: want one of shown, hidden`},
		{"hand-off with a reveal outcome", "handoffs:\n  - {action: sign, outcome: shown}\n", `handoffs[0].outcome: want one of completed, cancelled, timeout, failed`},
	} {
		_, err := Parse("m.yaml", []byte(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error containing %q", c.name, err, c.want)
		}
	}
}
