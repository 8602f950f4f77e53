package conformance

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/glassworks/glass/glasstest"
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

// Every spec Register adds carries the one label glass-conformance, besides
// its rule's: --label-filter='!glass-conformance' leaves none of them, and
// --label-filter=glass-conformance leaves every one.
func TestEverySpecCarriesTheConformanceLabel(t *testing.T) {
	skip, err := types.ParseLabelFilter("!" + Label)
	if err != nil {
		t.Fatal(err)
	}
	only, err := types.ParseLabelFilter(Label)
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range []glasstest.Transport{glasstest.TransportBridge, glasstest.TransportWebMCP} {
		for _, r := range Catalog {
			l := labels(r, tr)
			for _, label := range l {
				if _, err := types.ValidateAndCleanupLabel(label, types.CodeLocation{}); err != nil {
					t.Errorf("%s: %v", r.ID, err)
				}
			}
			if l[0] != "glass-conformance" || skip(l) || !only(l) {
				t.Errorf("%s [%s]: labels %q, want glass-conformance first, which the label filters select on", r.ID, tr, l)
			}
		}
	}
}
