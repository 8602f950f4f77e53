package conformance

import (
	"testing"
	"time"

	"github.com/glassworks/glass/conformance/internal/engine"
	"github.com/glassworks/glass/conformance/internal/probe"
	"github.com/glassworks/glass/conformance/internal/refusal"
	"github.com/glassworks/glass/conformance/internal/report"
	"github.com/glassworks/glass/fixtures/mutants"
	"github.com/glassworks/glass/glasstest"
)

// TestARefusalComputedAheadOutlivesTheCheckThatStartedIt: a check starts
// the refusals ahead of it (RefuseAhead) and may stop at its first
// violation, so its probe closes its pages while those refusals still
// run. A refusal's page is its own: closing the check's pages, again and
// again while the refusals run, must leave every refusal whole, for the
// other checks that share it (a page closed under a refusal failed them
// all with "the page was closed").
func TestARefusalComputedAheadOutlivesTheCheckThatStartedIt(t *testing.T) {
	cfg, err := newConfig([]Option{WithManifest(baseManifest(t, mutants.Reference))})
	if err != nil {
		t.Fatal(err)
	}
	s, err := engine.Start(Target{URL: serve(t, mutants.ProvingPage()), Browser: browser(t)}, cfg, 2)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	defer s.Wait()
	starter := s.Probe(glasstest.TransportBridge)
	starter.RefuseAhead(refusal.Refusals...)
	// Another check takes the refusals one by one, each the one computed
	// ahead or, once that has not started, its own.
	later := s.Probe(glasstest.TransportBridge)
	defer later.Close()
	outcomes := make([]probe.Outcome, len(refusal.Refusals))
	oks := make([]bool, len(refusal.Refusals))
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i, rf := range refusal.Refusals {
			_, outcomes[i], oks[i] = later.Refuse(rf)
		}
	}()
	// Meanwhile the check that started them has ended: its pages close,
	// and keep closing, until the other check has every refusal.
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for closing := true; closing; {
		starter.Close()
		select {
		case <-done:
			closing = false
		case <-tick.C:
		}
	}
	for i, rf := range refusal.Refusals {
		if !oks[i] && outcomes[i].Verdict == report.Fail {
			t.Errorf("%s: %s", rf.Kind, outcomes[i].Message)
		}
	}
}
