// Package scenarios checks the calls the manifest names that must fail
// after their handler ran — an expectation that does not come true
// (expectationFailures), a handler that throws (executionFailures): the
// code, its phase, started yes, and changed judged against what the page
// shows once it settled; and a denied call on the page of a reveal that
// leaves its target hidden (hidden.go).
package scenarios

import (
	"fmt"

	"github.com/glassworks/glass/conformance/internal/judge"
	"github.com/glassworks/glass/conformance/internal/manifest"
	"github.com/glassworks/glass/conformance/internal/probe"
	"github.com/glassworks/glass/conformance/internal/report"
	"github.com/glassworks/glass/receipt"
)

// watchedScenarioCheck makes each call of a manifest's list (watched:
// probe.WatchedScenario) and wants code at its phase, then whatever extra
// says.
func watchedScenarioCheck(list func(*manifest.Manifest) []manifest.Scenario, field string, code receipt.Code, extra func(*probe.ScenarioCall) (string, []report.Evidence)) func(*probe.Probe) probe.Outcome {
	return func(p *probe.Probe) probe.Outcome {
		scenarios := list(p.Manifest())
		if len(scenarios) == 0 {
			return probe.NotProbed(fmt.Sprintf("needs a manifest entry under %s (see docs/manifest.md)", field))
		}
		for _, sc := range scenarios {
			c, o := p.WatchedScenario(sc, field)
			if o != nil {
				return *o
			}
			r := c.Receipt
			where := sc.Action
			if sc.URL != "" {
				where += " at " + sc.URL
			}
			if r.Code() != code || r.FailurePhase() != code.Phase() {
				return probe.Failf("%s (manifest %s): want %s at phase %s, %s", where, field, code, code.Phase(), report.Got(r)).
					With(report.ReceiptEvidence("receipt", r))
			}
			if pr, ev := extra(c); pr != "" {
				return probe.Failf("%s (manifest %s): %s", where, field, pr).With(append([]report.Evidence{report.ReceiptEvidence("receipt", r)}, ev...)...)
			}
		}
		return probe.Pass()
	}
}

func startedYes(r *receipt.Receipt) string {
	if s := r.Result.Error.Started; s != receipt.StartedYes {
		return fmt.Sprintf("error.started = %q, want %q: the action was sent", s, receipt.StartedYes)
	}
	return ""
}

var ExpectationFailed = watchedScenarioCheck(func(m *manifest.Manifest) []manifest.Scenario { return m.ExpectationFailures }, "expectationFailures",
	receipt.CodeExpectationFailed, func(c *probe.ScenarioCall) (string, []report.Evidence) {
		r := c.Receipt
		if pr := startedYes(r); pr != "" {
			return pr, nil
		}
		if r.RecoveryStrategy != receipt.RecoveryReport {
			return fmt.Sprintf("recoveryStrategy = %q, want %q", r.RecoveryStrategy, receipt.RecoveryReport), nil
		}
		if r.Result.Changed == nil {
			return "the receipt carries no changed for what the page shows after the call", nil
		}
		return settledProblem(c)
	})

var HandlerThrows = watchedScenarioCheck(func(m *manifest.Manifest) []manifest.Scenario { return m.ExecutionFailures }, "executionFailures",
	receipt.CodeExecutionFailed, func(c *probe.ScenarioCall) (string, []report.Evidence) {
		r := c.Receipt
		if pr := startedYes(r); pr != "" {
			return pr, nil
		}
		if r.Result.Changed == nil {
			return "the receipt carries no changed for what the page shows after the handler threw", nil
		}
		return settledProblem(c)
	})

// settledProblem judges a failed call's changed against what the page
// shows once it went quiet after the call: the difference from the
// harness's snapshot before the call, or, for an element action whose
// reveal changed the page model, from the runtime's own snapshot when
// execution started. A runtime that took its after snapshot the moment
// the handler threw, before the work it started had ended, reports less.
// A page that changes by itself is not judged so.
func settledProblem(c *probe.ScenarioCall) (string, []report.Evidence) {
	if c.Before == nil || c.Settled == nil || !c.ByRuntime || !c.DOMWitness {
		return "", nil
	}
	pr := judge.ChangesProblem(c.Receipt, c.Before.Snap, c.Settled.Snap)
	if pr == "" || c.Stage6.Snap != nil && judge.ChangesProblem(c.Receipt, c.Stage6.Snap, c.Settled.Snap) == "" {
		return "", nil
	}
	return "changed must be what the page shows afterwards, once it settled (from the harness's snapshot before the call to its snapshot once the page went quiet): " + pr,
		[]report.Evidence{report.TextEvidence("snapshot difference seen by the harness once the page settled", judge.ModelDiff(c.Before.Snap, c.Settled.Snap)...),
			report.SnapshotEvidence("snapshot once the page settled", c.Settled.Snap)}
}
