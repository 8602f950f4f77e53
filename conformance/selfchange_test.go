package conformance

import (
	"strings"
	"testing"

	"github.com/glassworks/glass/examples/todo/app"
)

// TestAPageWithAClockConforms: the Todo example with a clock in its header
// that ticks four times a second, outside the page model (?fault=clock),
// still passes the rules whose probes compare the page before and after a
// call that must change nothing, and verify.settle, whose wait for the
// page to go quiet a clock never ends; the report names the clock. Before
// the run watched what an idle page changes by itself, an outside
// adopter's page with a one-second clock failed three to six of these
// rules at random.
func TestAPageWithAClockConforms(t *testing.T) {
	t.Parallel()
	rules := []string{"policy.denied", "args.malformed-json", "args.invalid-params", "resolve.no-dom-fallback", "pipeline.no-effect-before-dispatch", "verify.settle"}
	rep, err := Run(Target{URL: serve(t, app.Handler()) + "/?fault=clock", Browser: browser(t)},
		WithManifest(todoManifest(t)), WithRules(rules...))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Findings {
		if f.Verdict != Pass {
			t.Errorf("%s is %s on the page with a clock: %s", f.Rule.ID, f.Verdict, f.Message)
		}
	}
	if !strings.Contains(strings.Join(rep.Notes, "\n"), "(#clock)") {
		t.Errorf("no note names the clock the page changes by itself: %q", rep.Notes)
	}
	logReport(t, rep)
}
