package conformance

import (
	"path"
	"slices"
	"strings"
	"time"

	"github.com/glassworks/glass/conformance/internal/engine"
	"github.com/glassworks/glass/glasstest"
)

// Option configures a run (Run) or a registration (Register).
type Option func(*engine.Config) error

// DefaultCallTimeout bounds each call a probe makes, from the harness's
// side; it is glasstest's default.
const DefaultCallTimeout = glasstest.DefaultTimeout

// WithManifest gives the run what it cannot derive from the page: actions
// whose expectation fails, pages with fault switches, arguments to use,
// actions never to execute. Default: an empty manifest (zero-config).
func WithManifest(m *Manifest) Option {
	return func(c *engine.Config) error {
		c.Manifest = m
		return nil
	}
}

// WithTransports selects how the probes reach the page runtime; each rule
// is checked once per transport. Default: glasstest.TransportBridge only.
func WithTransports(ts ...glasstest.Transport) Option {
	return func(c *engine.Config) error {
		if len(ts) == 0 {
			return engine.Usagef("transports", "no transport")
		}
		var out []glasstest.Transport
		for _, t := range ts {
			if t != glasstest.TransportBridge && t != glasstest.TransportWebMCP {
				return engine.Usagef("transports", "unknown transport %q (want bridge or webmcp)", t)
			}
			if !slices.Contains(out, t) {
				out = append(out, t)
			}
		}
		c.Transports = out
		return nil
	}
}

// WithRules keeps only the rules whose id matches one of patterns: an
// exact id or a path.Match glob ("policy.*"). A pattern that matches no
// rule is an error (ErrUsage), so a typo cannot silently check nothing.
// Default: every rule of the catalog.
func WithRules(patterns ...string) Option {
	return func(c *engine.Config) error {
		for _, p := range patterns {
			p = strings.TrimSpace(p)
			if p == "" {
				continue
			}
			if _, err := path.Match(p, ""); err != nil {
				return engine.Usagef("rules", "rule pattern %q: %v", p, err)
			}
			c.Patterns = append(c.Patterns, p)
		}
		return nil
	}
}

// WithShard keeps the i-th of n deterministic parts of the selected rules
// (1 ≤ i ≤ n): rule k of the selection, counted from 0 in catalog order,
// belongs to part k mod n + 1. The n parts of one catalog are disjoint and
// together cover every rule. Default: one part, every rule.
func WithShard(i, n int) Option {
	return func(c *engine.Config) error {
		if n < 1 || i < 1 || i > n {
			return engine.Usagef("shard", "%d/%d: want i/n with 1 ≤ i ≤ n", i, n)
		}
		c.Shard, c.Of = i, n
		return nil
	}
}

// WithProgress calls fn before and after each rule. Default: no progress.
func WithProgress(fn func(ProgressEvent)) Option {
	return func(c *engine.Config) error {
		c.Progress = fn
		return nil
	}
}

// WithCallTimeout bounds each call a probe makes. Default:
// DefaultCallTimeout.
func WithCallTimeout(d time.Duration) Option {
	return func(c *engine.Config) error {
		if d <= 0 {
			return engine.Usagef("call timeout", "%s: want a positive duration", d)
		}
		c.CallTimeout = d
		return nil
	}
}

// DefaultParallel is how many checks Run runs side by side (and how many
// shared probes it computes ahead): probes spend most of their time
// waiting for the browser, so four overlap well even on a small machine.
// On two cores, a run against the Todo example took 35 s with two and
// 23 s with four, at the same CPU; six saved about two seconds more
// (BENCHMARKS.md).
const DefaultParallel = 4

// WithParallel sets how many checks Run runs side by side (1: one after
// the other). Verdicts do not depend on it: checks share their probes'
// results. Default: DefaultParallel.
func WithParallel(n int) Option {
	return func(c *engine.Config) error {
		if n < 1 {
			return engine.Usagef("parallel", "%d: want at least 1", n)
		}
		c.Parallel = n
		return nil
	}
}

// Select returns the rules a run with opts checks, in catalog order. It
// returns ErrUsage for options that select nothing sensible.
func Select(opts ...Option) ([]Rule, error) {
	c, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	return engine.Select(c)
}

// newConfig applies opts over the defaults.
func newConfig(opts []Option) (*engine.Config, error) {
	c := &engine.Config{Parallel: DefaultParallel}
	c.Transports = []glasstest.Transport{glasstest.TransportBridge}
	c.CallTimeout = DefaultCallTimeout
	for _, o := range opts {
		if o == nil {
			continue
		}
		if err := o(c); err != nil {
			return nil, err
		}
	}
	if c.Manifest == nil {
		c.Manifest = &Manifest{}
	}
	return c, nil
}
