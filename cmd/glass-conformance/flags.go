package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/glassworks/glass/glasstest"
)

// The values of run's --transport and --shard are the CLI's own syntax;
// the library takes what they mean (conformance.WithTransports,
// conformance.WithShard).

// parseTransports reads --transport: bridge, webmcp or both.
func parseTransports(s string) ([]glasstest.Transport, error) {
	switch s {
	case "bridge":
		return []glasstest.Transport{glasstest.TransportBridge}, nil
	case "webmcp":
		return []glasstest.Transport{glasstest.TransportWebMCP}, nil
	case "both":
		return []glasstest.Transport{glasstest.TransportBridge, glasstest.TransportWebMCP}, nil
	}
	return nil, fmt.Errorf("--transport %q: want bridge, webmcp or both", s)
}

// parseShard reads --shard, "i/n" with 1 ≤ i ≤ n.
func parseShard(s string) (i, n int, err error) {
	if a, b, ok := strings.Cut(s, "/"); ok {
		i, err1 := strconv.Atoi(a)
		n, err2 := strconv.Atoi(b)
		if err1 == nil && err2 == nil && n >= 1 && i >= 1 && i <= n {
			return i, n, nil
		}
	}
	return 0, 0, fmt.Errorf("--shard %q: want i/n with 1 ≤ i ≤ n, e.g. 1/4", s)
}
