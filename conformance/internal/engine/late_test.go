package engine

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/glassworks/glass/conformance/internal/probe"
	"github.com/glassworks/glass/receipt"
)

func snapshotFile(t *testing.T, edit func(map[string]any)) *receipt.Snapshot {
	t.Helper()
	b, err := os.ReadFile("../../../receipt/testdata/runtime/todo.snapshot.json")
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		edit(v)
	}
	b, _ = json.Marshal(v)
	s, err := receipt.DecodeSnapshot(b)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestAReadWhoseModelChangedLaterIsNoted: a read's receipt that showed the
// page as the call left it, where the page went on to change (a debounced
// filter), is noted; a write (verify.settle's), a receipt already wrong
// when the call ended, and a page that stayed put are not.
func TestAReadWhoseModelChangedLaterIsNoted(t *testing.T) {
	before := snapshotFile(t, nil)
	filtered := snapshotFile(t, func(v map[string]any) {
		v["revision"] = 1
		recs := v["records"].(map[string]any)
		recs["items"] = recs["items"].([]any)[:1]
		recs["total"] = 1
	})
	r, err := receipt.Decode([]byte(`{"protocol":"glass.page/v1","executionId":"act_1","result":{"ok":true,"action":{"id":"filter","description":"Filter"},"changed":{"observed":false}},"revision":{"before":0,"after":0}}`))
	if err != nil {
		t.Fatal(err)
	}
	read := receipt.ActionInfo{ID: "filter", Risk: receipt.RiskRead}
	call := func(a receipt.ActionInfo, after, settled *receipt.Snapshot) *probe.Exercised {
		return &probe.Exercised{Action: a, Receipt: r, DOMWitness: true,
			Before: &probe.Witness{Snap: before}, After: &probe.Witness{Snap: after}, Settled: &probe.Witness{Snap: settled}}
	}
	if got := lateChange(call(read, before, filtered)); got == "" {
		t.Error("a read whose page changed after its receipt: no note")
	}
	for what, e := range map[string]*probe.Exercised{
		"a write":                    call(receipt.ActionInfo{ID: "add", Risk: receipt.RiskWrite}, before, filtered),
		"a receipt wrong at its end": call(read, filtered, filtered),
		"a page that stayed put":     call(read, before, before),
	} {
		if got := lateChange(e); got != "" {
			t.Errorf("%s: noted %q", what, got)
		}
	}
	self := call(read, before, filtered)
	self.DOMWitness = false
	if got := lateChange(self); got != "" {
		t.Errorf("a page that changes by itself: noted %q", got)
	}
}
