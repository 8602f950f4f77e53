package conformance

import (
	"testing"

	"github.com/glassworks/glass/conformance/internal/engine"
	"github.com/glassworks/glass/glasstest"
)

// withPageOptions gives every page the run opens these options too: the
// mutation matrix breaks the host this way (glasstest.BreakHost, in a
// build with -tags glasshostfaults). Only the package's tests can.
func withPageOptions(opts ...glasstest.PageOption) Option {
	return func(c *engine.Config) error {
		c.PageOptions = append(c.PageOptions, opts...)
		return nil
	}
}

// withPool has the run keep its probes' pages in pool, the set-up's page
// included: the mutation matrix's rows share one.
func withPool(pool *glasstest.PagePool) Option {
	return func(c *engine.Config) error {
		c.Pool = pool
		return nil
	}
}

// withSelfChanging tells the run what its page changes by itself
// (probe.Config.SelfChanging) in place of its own watch of an idle page.
// The mutation matrix watches each base runtime's page once
// (idleChanges): a watch costs a row more than 2 s of waiting, and a
// mutant breaks its runtime's answers, not its page's clock.
func withSelfChanging(masks []any) Option {
	return func(c *engine.Config) error {
		c.SelfChanging = &masks
		return nil
	}
}

// idleChanges is what the page at url changes by itself, watched as a run
// watches it (probe.Probe.SelfChanging). It may run beside the test's
// goroutine: a failure is an error, and nil.
func idleChanges(t testing.TB, url string, opts ...Option) []any {
	t.Helper()
	cfg, err := newConfig(append(opts, WithTransports(glasstest.TransportBridge)))
	if err != nil {
		t.Error(err)
		return nil
	}
	s, err := engine.Start(Target{URL: url}, cfg, 0)
	if err != nil {
		t.Errorf("watch %s idle: %v", url, err)
		return nil
	}
	defer s.Close()
	return s.Probe(glasstest.TransportBridge).SelfChanging()
}
