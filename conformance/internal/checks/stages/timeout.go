package stages

import (
	"fmt"
	"time"

	"github.com/glassworks/glass/conformance/internal/manifest"
	"github.com/glassworks/glass/conformance/internal/probe"
	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

// defaultExpectTimeout is the timeout of an expectation that declares
// none, when the host passes no options.expectTimeoutMs (CONTRACT.md §2.8).
const defaultExpectTimeout = 2 * time.Second

// declaredTimeout calls the scenario sc once more without
// options.expectTimeoutMs, when the manifest says what timeout its
// expectation declares (declaredTimeoutMs; 0: none): EXPECTATION_FAILED
// may come only once that timeout, or the 2-second default, has passed.
// It returns a violation, or a line of evidence ("" when the manifest
// does not say).
func declaredTimeout(p *probe.Probe, sc manifest.Scenario) (*probe.Outcome, string) {
	if sc.DeclaredTimeoutMs == nil {
		return nil, ""
	}
	want, what := time.Duration(*sc.DeclaredTimeoutMs)*time.Millisecond, "the timeout the expectation declares (manifest declaredTimeoutMs)"
	if want == 0 {
		want, what = defaultExpectTimeout, "the 2-second default (the manifest says the expectation declares no timeout)"
	}
	pg, err := p.Open(sc.URL, glasstest.Approve())
	if err != nil {
		o := probe.Broken(err)
		return &o, ""
	}
	start := time.Now()
	r := pg.Do(sc.Action, p.ScenarioArgs(sc), glasstest.Timeout(want+p.CallTimeout()))
	took := time.Since(start)
	if r.Code() != receipt.CodeExpectationFailed {
		return nil, fmt.Sprintf("without expectTimeoutMs: %s, not judged (see verify.expectation-failed)", probe.Got(r))
	}
	if took < want {
		o := probe.Failf("%s: the host passed no expectTimeoutMs, so the runtime must poll for %s, %s, but EXPECTATION_FAILED came after %s",
			sc.Action, want, what, took.Round(time.Millisecond)).With(probe.ReceiptEvidence("receipt", r))
		return &o, ""
	}
	return nil, fmt.Sprintf("no expectTimeoutMs, %s of %s; EXPECTATION_FAILED after %s", what, want, took.Round(time.Millisecond))
}
