package receipt_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/glassworks/glass/receipt"
)

type invalidSnapshot struct {
	Name     string          `json:"name"`
	Mistake  string          `json:"mistake"`
	Path     string          `json:"path"`
	Snapshot json.RawMessage `json:"snapshot"`
}

func invalidSnapshots(t testing.TB) []invalidSnapshot {
	t.Helper()
	var cases []invalidSnapshot
	if err := json.Unmarshal(read(t, "testdata/invalid-snapshots.json"), &cases); err != nil {
		t.Fatal(err)
	}
	return cases
}

func TestDecodeSnapshotOfTheTodoPage(t *testing.T) {
	b := read(t, "testdata/runtime/todo.snapshot.json")
	s, err := receipt.DecodeSnapshot(b)
	if err != nil {
		t.Fatal(err)
	}
	if s.Protocol != receipt.Protocol || s.Page.ID != "todo" || s.Records.Total != 12 || len(s.Records.Items) != 12 {
		t.Errorf("snapshot = %+v", s)
	}
	a, ok := s.Action("remove@t9")
	if !ok || a.Kind != receipt.KindElement || a.Risk != receipt.RiskDangerous || !a.Confirm || a.Tool != "remove" || a.Record != "t9" {
		t.Errorf("remove@t9 = %+v, %v", a, ok)
	}
	if got := s.Records.Items[8].Fields["done"]; got != false {
		t.Errorf("fields decode like encoding/json: done = %#v", got)
	}
	out, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if !jsonEqual(t, out, b) {
		t.Errorf("Marshal(DecodeSnapshot(x)) != x:\n%s", out)
	}
}

func TestDecodeSnapshotKeepsExtensionFields(t *testing.T) {
	var m map[string]any
	if err := json.Unmarshal(read(t, "testdata/runtime/todo.snapshot.json"), &m); err != nil {
		t.Fatal(err)
	}
	m["x-layout"] = "list"
	m["actions"].(map[string]any)["items"].([]any)[0].(map[string]any)["x-shortcut"] = "Del"
	b, _ := json.Marshal(m)
	s, err := receipt.DecodeSnapshot(b)
	if err != nil {
		t.Fatal(err)
	}
	if string(s.Extra["x-layout"]) != `"list"` || string(s.Actions.Items[0].Extra["x-shortcut"]) != `"Del"` {
		t.Errorf("extension fields lost: %v, %v", s.Extra, s.Actions.Items[0].Extra)
	}
	out, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if !jsonEqual(t, out, b) {
		t.Errorf("Marshal lost extension fields:\n%s", out)
	}
	again, err := receipt.DecodeSnapshot(out)
	if err != nil || !reflect.DeepEqual(again, s) {
		t.Errorf("round trip: %v", err)
	}
}

func TestDecodeSnapshotRejectsEachMistakeWithItsPath(t *testing.T) {
	for _, tc := range invalidSnapshots(t) {
		t.Run(tc.Name, func(t *testing.T) {
			_, err := receipt.DecodeSnapshot(tc.Snapshot)
			var inv *receipt.InvalidError
			if !errors.As(err, &inv) || !errors.Is(err, receipt.ErrInvalid) {
				t.Fatalf("%s: error = %v, want an *InvalidError", tc.Mistake, err)
			}
			if inv.Document != "snapshot" || !strings.HasPrefix(err.Error(), "invalid snapshot: ") {
				t.Errorf("error names %q: %v", inv.Document, err)
			}
			var paths []string
			for _, p := range inv.Problems {
				paths = append(paths, p.Path)
			}
			if !slices.Contains(paths, tc.Path) {
				t.Errorf("%s: problems at %v, want one at %s (%v)", tc.Mistake, paths, tc.Path, err)
			}
		})
	}
}

func TestDecodeSnapshotRefusesWhatIsNoSnapshot(t *testing.T) {
	for in, want := range map[string]string{
		``:               `invalid snapshot: $: empty input, want a JSON object`,
		`"snapshot"`:     `invalid snapshot: $: want object, got string`,
		`{"protocol":1}`: `invalid snapshot: $.protocol: want string, got number; $.revision: missing; $.page: missing; $.records: missing; $.actions: missing; $.state: missing; $.feedback: missing`,
	} {
		if _, err := receipt.DecodeSnapshot([]byte(in)); err == nil || err.Error() != want {
			t.Errorf("DecodeSnapshot(%q)\n got: %v\nwant: %s", in, err, want)
		}
	}
}
