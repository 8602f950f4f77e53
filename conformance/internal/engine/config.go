package engine

import (
	"path"
	"strings"

	"github.com/glassworks/glass/conformance/internal/catalog"
	"github.com/glassworks/glass/conformance/internal/probe"
)

// Config is a run's options (conformance.Option sets them).
type Config struct {
	// Config is what the probes need: the manifest, the transports, the
	// call timeout, the options of every page.
	probe.Config
	// Patterns select rules by id or glob; none selects every rule.
	Patterns []string
	// Shard and Of keep part Shard of Of of the selected rules.
	Shard, Of int
	// Progress, when set, hears of each rule before and after its check.
	Progress func(ProgressEvent)
	// Parallel is how many checks Run runs side by side.
	Parallel int
}

func (c *Config) report(ev ProgressEvent) {
	if c.Progress != nil {
		c.Progress(ev)
	}
}

// Select returns the rules c selects, in catalog order: ErrUsage for
// patterns that select nothing.
func Select(c *Config) ([]catalog.Rule, error) {
	var rules []catalog.Rule
	if len(c.Patterns) == 0 {
		rules = append(rules, catalog.Rules...)
	} else {
		for _, p := range c.Patterns {
			if !matchesAny(p) {
				if strings.ContainsAny(p, "*?[") {
					return nil, Usagef("rules", "rule pattern %q matches no rule (see glass-conformance rules)", p)
				}
				return nil, Usagef("rules", "unknown rule id %q (see glass-conformance rules)", p)
			}
		}
		for _, r := range catalog.Rules {
			for _, p := range c.Patterns {
				if ok, _ := path.Match(p, r.ID); ok {
					rules = append(rules, r)
					break
				}
			}
		}
	}
	if c.Of > 1 {
		var part []catalog.Rule
		for k, r := range rules {
			if k%c.Of+1 == c.Shard {
				part = append(part, r)
			}
		}
		rules = part
	}
	return rules, nil
}

func matchesAny(pattern string) bool {
	for _, r := range catalog.Rules {
		if ok, _ := path.Match(pattern, r.ID); ok {
			return true
		}
	}
	return false
}
