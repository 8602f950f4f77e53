package conformance

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// These tests need no browser: they run the pure parts of the suite on
// real JSON and text.

func TestSelectAndShard(t *testing.T) {
	all, err := Select()
	if err != nil || len(all) != len(Catalog) {
		t.Fatalf("Select() = %d rules, %v", len(all), err)
	}
	got, err := Select(WithRules("policy.*", "args.malformed-json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range got {
		if !strings.HasPrefix(r.ID, "policy.") && r.ID != "args.malformed-json" {
			t.Errorf("selected %s", r.ID)
		}
	}
	if _, err := Select(WithRules("no.such-rule")); !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), `unknown rule id "no.such-rule"`) {
		t.Errorf("unknown id: %v", err)
	}
	if _, err := Select(WithRules("nothing.*")); err == nil || !strings.Contains(err.Error(), "matches no rule") {
		t.Errorf("empty glob: %v", err)
	}
	seen := map[string]int{}
	for i := 1; i <= 3; i++ {
		part, err := Select(WithShard(i, 3))
		if err != nil {
			t.Fatal(err)
		}
		again, _ := Select(WithShard(i, 3))
		if !reflect.DeepEqual(part, again) {
			t.Errorf("shard %d/3 is not deterministic", i)
		}
		for _, r := range part {
			seen[r.ID]++
		}
	}
	for _, r := range Catalog {
		if seen[r.ID] != 1 {
			t.Errorf("%s is in %d of 3 shards, want 1", r.ID, seen[r.ID])
		}
	}
}
