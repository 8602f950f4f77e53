package judge

import (
	"strings"
	"testing"

	"github.com/glassworks/glass/receipt"
)

func TestClaimsAgainstSnapshots(t *testing.T) {
	if pr := Claims("removed", []string{"t9"}, 0, []string{"t9"}); pr != "" {
		t.Error(pr)
	}
	if pr := Claims("removed", []string{"t12"}, 0, []string{"t9"}); !strings.Contains(pr, `lists "t12", but the snapshots do not show that change`) {
		t.Errorf("got %q", pr)
	}
	if pr := Claims("removed", nil, 0, []string{"t9"}); !strings.Contains(pr, `leaves out "t9" with no omission count`) {
		t.Errorf("got %q", pr)
	}
	if pr := Claims("removed", []string{"a"}, 5, []string{"a", "b"}); !strings.Contains(pr, "reports 6 (1 listed + 5 omitted), the snapshots show 2") {
		t.Errorf("got %q", pr)
	}
}

func TestModelDiffNamesWhatChanged(t *testing.T) {
	a := &receipt.Snapshot{Revision: 1, Records: receipt.SnapshotRecords{Total: 2, Items: []receipt.Record{{ID: "t1"}, {ID: "t2"}}},
		Actions: receipt.SnapshotActions{Items: []receipt.ActionInfo{{ID: "remove@t1", Available: true}, {ID: "remove@t2", Available: true}}},
		State:   map[string]any{"filter": "all"}}
	b := &receipt.Snapshot{Revision: 2, Records: receipt.SnapshotRecords{Total: 1, Items: []receipt.Record{{ID: "t2"}}},
		Actions: receipt.SnapshotActions{Items: []receipt.ActionInfo{{ID: "remove@t2", Available: false}}},
		State:   map[string]any{"filter": "done"}}
	got := strings.Join(ModelDiff(a, b), "; ")
	for _, want := range []string{"records total 2 → 1", "records removed t1", "actions removed remove@t1", "action remove@t2 available true → false", "state keys changed: filter"} {
		if !strings.Contains(got, want) {
			t.Errorf("modelDiff lacks %q: %s", want, got)
		}
	}
	if d := ModelDiff(a, a); len(d) != 0 {
		t.Errorf("a snapshot differs from itself: %v", d)
	}
}

func TestPointerEscapesTildeThenSlash(t *testing.T) {
	for name, want := range map[string]string{
		"qty":                     "/qty",
		"glass/undeclared~member": "/glass~1undeclared~0member",
		"~1":                      "/~01",
		"":                        "/",
	} {
		if got := Pointer(name); got != want {
			t.Errorf("Pointer(%q) = %q, want %q", name, got, want)
		}
	}
}
