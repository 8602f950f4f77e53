package main

import (
	"reflect"
	"testing"

	"github.com/glassworks/glass/glasstest"
)

func TestShardAndTransportFlags(t *testing.T) {
	for _, spec := range []string{"0/2", "3/2", "a/b", "1/0", "1", "", "-1/2", "1/2/3"} {
		if _, _, err := parseShard(spec); err == nil {
			t.Errorf("parseShard(%q) accepted an impossible shard", spec)
		}
	}
	if _, _, err := parseShard("3/2"); err == nil || err.Error() != `--shard "3/2": want i/n with 1 ≤ i ≤ n, e.g. 1/4` {
		t.Errorf("parseShard(3/2) = %v", err)
	}
	if i, n, err := parseShard("2/5"); err != nil || i != 2 || n != 5 {
		t.Errorf("parseShard(2/5) = %d %d %v", i, n, err)
	}
	for _, s := range []string{"", "smoke", "BRIDGE"} {
		if _, err := parseTransports(s); err == nil {
			t.Errorf("parseTransports(%q) accepted", s)
		}
	}
	if _, err := parseTransports("carrier-pigeon"); err == nil || err.Error() != `--transport "carrier-pigeon": want bridge, webmcp or both` {
		t.Errorf("parseTransports(carrier-pigeon) = %v", err)
	}
	if ts, _ := parseTransports("both"); !reflect.DeepEqual(ts, []glasstest.Transport{glasstest.TransportBridge, glasstest.TransportWebMCP}) {
		t.Errorf("both = %v", ts)
	}
}
