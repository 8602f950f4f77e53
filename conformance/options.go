package conformance

import (
	"fmt"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/internal/hostfault"
)

// Option configures a run (Run) or a registration (Register).
type Option func(*config) error

type config struct {
	manifest    *Manifest
	transports  []glasstest.Transport
	patterns    []string
	shard, of   int
	progress    func(ProgressEvent)
	callTimeout time.Duration
	parallel    int
	// hostFaults break host guarantees on purpose (withHostFault).
	hostFaults []hostfault.Fault
}

// DefaultCallTimeout bounds each call a probe makes, from the harness's
// side; it is glasstest's default.
const DefaultCallTimeout = glasstest.DefaultTimeout

func newConfig(opts []Option) (*config, error) {
	c := &config{transports: []glasstest.Transport{glasstest.TransportBridge}, callTimeout: DefaultCallTimeout, parallel: DefaultParallel}
	for _, o := range opts {
		if o == nil {
			continue
		}
		if err := o(c); err != nil {
			return nil, err
		}
	}
	if c.manifest == nil {
		c.manifest = &Manifest{}
	}
	return c, nil
}

func (c *config) report(ev ProgressEvent) {
	if c.progress != nil {
		c.progress(ev)
	}
}

// WithManifest gives the run what it cannot derive from the page: actions
// whose expectation fails, pages with fault switches, arguments to use,
// actions never to execute. Default: an empty manifest (zero-config).
func WithManifest(m *Manifest) Option {
	return func(c *config) error {
		c.manifest = m
		return nil
	}
}

// WithTransports selects how the probes reach the page runtime; each rule
// is checked once per transport. Default: glasstest.TransportBridge only.
func WithTransports(ts ...glasstest.Transport) Option {
	return func(c *config) error {
		if len(ts) == 0 {
			return fmt.Errorf("%w: no transport", ErrUsage)
		}
		var out []glasstest.Transport
		for _, t := range ts {
			if t != glasstest.TransportBridge && t != glasstest.TransportWebMCP {
				return fmt.Errorf("%w: unknown transport %q (want bridge or webmcp)", ErrUsage, t)
			}
			if !containsTransport(out, t) {
				out = append(out, t)
			}
		}
		c.transports = out
		return nil
	}
}

func containsTransport(ts []glasstest.Transport, t glasstest.Transport) bool {
	for _, x := range ts {
		if x == t {
			return true
		}
	}
	return false
}

// ParseTransports reads the CLI's --transport value: bridge, webmcp or both.
func ParseTransports(s string) ([]glasstest.Transport, error) {
	switch s {
	case "bridge":
		return []glasstest.Transport{glasstest.TransportBridge}, nil
	case "webmcp":
		return []glasstest.Transport{glasstest.TransportWebMCP}, nil
	case "both":
		return []glasstest.Transport{glasstest.TransportBridge, glasstest.TransportWebMCP}, nil
	}
	return nil, fmt.Errorf("%w: transport %q: want bridge, webmcp or both", ErrUsage, s)
}

// WithRules keeps only the rules whose id matches one of patterns: an
// exact id or a path.Match glob ("policy.*"). A pattern that matches no
// rule is an error (ErrUsage), so a typo cannot silently check nothing.
// Default: every rule of the catalog.
func WithRules(patterns ...string) Option {
	return func(c *config) error {
		for _, p := range patterns {
			p = strings.TrimSpace(p)
			if p == "" {
				continue
			}
			if _, err := path.Match(p, ""); err != nil {
				return fmt.Errorf("%w: rule pattern %q: %v", ErrUsage, p, err)
			}
			c.patterns = append(c.patterns, p)
		}
		return nil
	}
}

// WithShard keeps the i-th of n deterministic parts of the selected rules
// (1 ≤ i ≤ n): rule k of the selection, counted from 0 in catalog order,
// belongs to part k mod n + 1. The n parts of one catalog are disjoint and
// together cover every rule. Default: one part, every rule.
func WithShard(i, n int) Option {
	return func(c *config) error {
		if n < 1 || i < 1 || i > n {
			return fmt.Errorf("%w: shard %d/%d: want i/n with 1 ≤ i ≤ n", ErrUsage, i, n)
		}
		c.shard, c.of = i, n
		return nil
	}
}

// ParseShard reads a shard spec "i/n".
func ParseShard(s string) (i, n int, err error) {
	a, b, ok := strings.Cut(s, "/")
	if ok {
		i, err1 := strconv.Atoi(a)
		n, err2 := strconv.Atoi(b)
		if err1 == nil && err2 == nil && n >= 1 && i >= 1 && i <= n {
			return i, n, nil
		}
	}
	return 0, 0, fmt.Errorf("%w: shard %q: want i/n with 1 ≤ i ≤ n, e.g. 1/4", ErrUsage, s)
}

// ProgressEvent tells a progress display that a rule starts (Finding is
// nil) or has its verdict.
type ProgressEvent struct {
	Done, Total int
	Rule        Rule
	Transport   glasstest.Transport
	Finding     *Finding
}

// WithProgress calls fn before and after each rule. Default: no progress.
func WithProgress(fn func(ProgressEvent)) Option {
	return func(c *config) error {
		c.progress = fn
		return nil
	}
}

// WithCallTimeout bounds each call a probe makes. Default:
// DefaultCallTimeout.
func WithCallTimeout(d time.Duration) Option {
	return func(c *config) error {
		if d <= 0 {
			return fmt.Errorf("%w: call timeout %s: want a positive duration", ErrUsage, d)
		}
		c.callTimeout = d
		return nil
	}
}

// DefaultParallel is how many checks Run runs side by side: probes spend
// most of their time waiting for the browser, so two overlap well even on
// a small machine.
const DefaultParallel = 2

// WithParallel sets how many checks Run runs side by side (1: one after
// the other). Verdicts do not depend on it: checks share their probes'
// results. Default: DefaultParallel.
func WithParallel(n int) Option {
	return func(c *config) error {
		if n < 1 {
			return fmt.Errorf("%w: parallel %d: want at least 1", ErrUsage, n)
		}
		c.parallel = n
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
	return c.selected()
}

func (c *config) selected() ([]Rule, error) {
	var rules []Rule
	if len(c.patterns) == 0 {
		rules = append(rules, Catalog...)
	} else {
		for _, p := range c.patterns {
			if !matchesAny(p) {
				if strings.ContainsAny(p, "*?[") {
					return nil, fmt.Errorf("%w: rule pattern %q matches no rule (see glass-conformance rules)", ErrUsage, p)
				}
				return nil, fmt.Errorf("%w: unknown rule id %q (see glass-conformance rules)", ErrUsage, p)
			}
		}
		for _, r := range Catalog {
			for _, p := range c.patterns {
				if ok, _ := path.Match(p, r.ID); ok {
					rules = append(rules, r)
					break
				}
			}
		}
	}
	if c.of > 1 {
		var part []Rule
		for k, r := range rules {
			if k%c.of+1 == c.shard {
				part = append(part, r)
			}
		}
		rules = part
	}
	return rules, nil
}

func matchesAny(pattern string) bool {
	for _, r := range Catalog {
		if ok, _ := path.Match(pattern, r.ID); ok {
			return true
		}
	}
	return false
}
