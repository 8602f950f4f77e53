package conformance

import (
	"errors"
	"testing"
	"time"

	"github.com/glassworks/glass/fixtures/faults"
)

// TestARuntimeThatNeverAnswersCostsOneBoundedWaitPerRule runs every rule
// against a runtime whose execute never settles: the run ends, every rule
// FAIL or NOT PROBED with a reason, within about one call bound per rule
// (SECURITY.md: a page cannot hang the suite).
func TestARuntimeThatNeverAnswersCostsOneBoundedWaitPerRule(t *testing.T) {
	const bound = time.Second
	url := serve(t, faults.Handler()) + "never-answers.html"
	start := time.Now()
	rep, err := Run(Target{URL: url, Browser: browser(t)}, WithCallTimeout(bound))
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Findings {
		if f.Verdict == Pass {
			continue
		}
		if f.Message == "" {
			t.Errorf("%s is %s without a reason", f.Rule.ID, f.Verdict)
		}
	}
	if rep.Count(Fail) == 0 {
		t.Errorf("no rule fails against a runtime that never answers")
	}
	// Each probe waits at most a few call bounds (a call, a snapshot, a
	// witness); the probes run two at a time. Generous for a loaded machine,
	// far from "for ever".
	if limit := time.Duration(len(Catalog)) * 6 * bound; took > limit {
		t.Errorf("the run took %s, over %s", took, limit)
	}
	t.Logf("%d rules in %s: %d failed, %d not probed", len(rep.Findings), took.Round(time.Second), rep.Count(Fail), rep.Count(NotProbed))
}

// TestARuntimeWhoseMembersSpinEndsTheRunInItsSetUp: a runtime whose
// members spin (a getter that never returns, holding the page's one
// thread) cannot hang the set-up, which reads them: the run ends with a
// set-up error that says so, and closing the spinning page does not hang.
func TestARuntimeWhoseMembersSpinEndsTheRunInItsSetUp(t *testing.T) {
	url := serve(t, faults.Handler()) + "spinning-member.html"
	done := make(chan error, 1)
	go func() {
		_, err := Run(Target{URL: url, Browser: browser(t)}, WithCallTimeout(time.Second), WithRules("protocol.no-throw"))
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, ErrSetup) {
			t.Fatalf("Run = %v, want a set-up error", err)
		}
		t.Log(err)
	case <-time.After(2 * time.Minute):
		t.Fatal("the run did not end")
	}
}
