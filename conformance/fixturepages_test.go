package conformance

import (
	"strings"
	"testing"

	"github.com/glassworks/glass/conformance/internal/report"
	"github.com/glassworks/glass/fixtures"
)

// TestActionsWhoseTargetsAreNotRenderedYetConform runs the fidelity rules
// against the reference runtime on pages whose element actions have
// targets that are not in the page at load (rows a virtual list or a lazy
// list has not rendered): the runtime gives them no fidelity until a call
// resolves the target, which the contract allows, and no rule may fail.
func TestActionsWhoseTargetsAreNotRenderedYetConform(t *testing.T) {
	url := serve(t, fixtures.Handler())
	for _, page := range []struct{ path, pending string }{
		{"availability.html", "like@r150"},
		{"lazy.html", "star@l11"},
	} {
		rep, err := Run(Target{URL: url + page.path, Browser: browser(t)}, WithRules("fidelity.*"))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range rep.Findings {
			if f.Verdict == Fail {
				t.Errorf("%s: %s fails on the reference runtime: %s", page.path, f.Rule.ID, f.Message)
			}
			if f.Rule.ID != "fidelity.assigned" {
				continue
			}
			if f.Verdict != Pass {
				t.Errorf("%s: fidelity.assigned is %s (%s), want pass", page.path, f.Verdict, f.Message)
			}
			if text := report.FailureText(f); !strings.Contains(text, page.pending) {
				t.Errorf("%s: fidelity.assigned does not list %s among the actions without a fidelity yet:\n%s", page.path, page.pending, text)
			}
		}
	}
}
