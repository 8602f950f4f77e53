package conformance

import (
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
