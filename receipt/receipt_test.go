package receipt_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/glassworks/glass/receipt"
)

func read(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// jsonEqual reports whether a and b hold the same JSON value, whatever
// their key order and spacing.
func jsonEqual(t testing.TB, a, b []byte) bool {
	t.Helper()
	var va, vb any
	for _, x := range []struct {
		in  []byte
		out *any
	}{{a, &va}, {b, &vb}} {
		d := json.NewDecoder(bytes.NewReader(x.in))
		d.UseNumber()
		if err := d.Decode(x.out); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, x.in)
		}
	}
	return reflect.DeepEqual(va, vb)
}

func decode(t testing.TB, b []byte) *receipt.Receipt {
	t.Helper()
	r, err := receipt.Decode(b)
	if err != nil {
		t.Fatalf("Decode: %v", err)
	}
	return r
}

// seedExamples returns the JSON examples printed in the seeds: the
// remove@t9 receipt of seed 000 and the two examples of seed 004.
func seedExamples(t testing.TB) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	s000 := string(read(t, "testdata/seeds/000_3e7eae751e5cbc0b.txt"))
	_, after, ok := strings.Cut(s000, "The receipt can be summarized as:\n\n")
	if !ok {
		t.Fatal("seed 000: the walkthrough receipt is not where it was")
	}
	block, _, _ := strings.Cut(after, "\n\n")
	out["seed-000-remove-t9.json"] = []byte(block)
	s004 := string(read(t, "testdata/seeds/004_e93c79cfe25aa88f.txt"))
	fences := regexp.MustCompile("(?s)```json\n(.*?)```").FindAllStringSubmatch(s004, -1)
	if len(fences) != 2 {
		t.Fatalf("seed 004: %d JSON examples, want 2", len(fences))
	}
	out["seed-004-success.json"] = []byte(fences[0][1])
	out["seed-004-failure.json"] = []byte(fences[1][1])
	return out
}

func TestSeedVectorsAreTheSeedsOwnExamples(t *testing.T) {
	for name, want := range seedExamples(t) {
		got := read(t, filepath.Join("testdata/vectors", name))
		if !jsonEqual(t, got, want) {
			t.Errorf("testdata/vectors/%s differs from the example printed in the seed", name)
		}
	}
}

func TestDecodeSeed000Walkthrough(t *testing.T) {
	r := decode(t, read(t, "testdata/vectors/seed-000-remove-t9.json"))
	if !r.Result.OK || r.Result.Action.ID != "remove@t9" || r.Result.Action.Description != "Delete the task" {
		t.Errorf("result = %s", r.GomegaString())
	}
	if r.Result.Expect != "The task is no longer in the list" {
		t.Errorf("expect = %q", r.Result.Expect)
	}
	rc := r.Result.Changed.Records
	if !slices.Equal(rc.Removed, []string{"t9"}) || *rc.Total != (receipt.Total{From: 12, To: 11}) || rc.Reordered {
		t.Errorf("records = %+v", rc)
	}
	if ac := r.Result.Changed.Actions; !slices.Equal(ac.Removed, []string{"remove@t9"}) {
		t.Errorf("actions = %+v", ac)
	}
	if r.Protocol != "" || r.Revision != nil || r.Extra != nil || r.Result.Extra != nil {
		t.Errorf("fields the seed does not show were filled in: %+v", r)
	}
}

func TestDecodeSeed004Success(t *testing.T) {
	r := decode(t, read(t, "testdata/vectors/seed-004-success.json"))
	if !r.Result.OK || r.Result.Error != nil {
		t.Fatalf("want a success, got %s", r.GomegaString())
	}
	if r.Result.Action.ID != "click" || r.ExecutionID != "act_42" {
		t.Errorf("action %q, executionId %q; want click, act_42", r.Result.Action.ID, r.ExecutionID)
	}
	if r.Revision == nil || *r.Revision != (receipt.Revision{Before: 41, After: 42}) {
		t.Errorf("revision = %+v, want 41→42", r.Revision)
	}
	var keys []string
	for k := range r.Extra {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if want := []string{"frame_id", "target", "target_id", "verification"}; !slices.Equal(keys, want) {
		t.Errorf("Extra keys = %v, want %v", keys, want)
	}
	if got := string(r.Extra["target"]); got != `{"label":"Save","reference":"r41:b17"}` {
		t.Errorf("Extra[target] = %s", got)
	}
}

func TestDecodeSeed004Failure(t *testing.T) {
	r := decode(t, read(t, "testdata/vectors/seed-004-failure.json"))
	e := r.Result.Error
	if r.Result.OK || e == nil {
		t.Fatalf("want a failure, got %s", r.GomegaString())
	}
	if e.Code != receipt.CodeStaleRevision || r.Phase != receipt.PhasePreflight || r.FailurePhase() != receipt.PhasePreflight {
		t.Errorf("code %s phase %s, want STALE_REVISION at preflight", e.Code, r.Phase)
	}
	if r.RecoveryStrategy != receipt.RecoveryReport || r.Recovery != "observe" || r.ExecutionID != "act_43" {
		t.Errorf("envelope = %+v", r)
	}
	if e.ExpectedRevision == nil || *e.ExpectedRevision != 41 || e.CurrentRevision == nil || *e.CurrentRevision != 43 {
		t.Errorf("expected/current revision = %v/%v, want 41/43", e.ExpectedRevision, e.CurrentRevision)
	}
	if r.Result.Action.ID != "" || r.Revision != nil || r.Extra != nil {
		t.Errorf("fields the seed does not show were filled in: %+v", r)
	}
}

// canonicalDocs are receipts in the canonical form that must come back
// from Marshal as the same JSON value.
func canonicalDocs(t testing.TB) map[string][]byte {
	t.Helper()
	docs := map[string][]byte{}
	for _, glob := range []string{"testdata/vectors/*.json", "testdata/runtime/*.receipt.json", "../examples/todo/testdata/*.golden.json"} {
		files, err := filepath.Glob(glob)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if strings.Contains(f, "seed-004") {
				continue
			}
			docs[f] = read(t, f)
		}
	}
	if len(docs) < 15 {
		t.Fatalf("found %d canonical receipts; the test data moved", len(docs))
	}
	return docs
}

func TestRoundTripCanonicalForm(t *testing.T) {
	for name, b := range canonicalDocs(t) {
		t.Run(filepath.Base(name), func(t *testing.T) {
			r := decode(t, b)
			out, err := json.Marshal(r)
			if err != nil {
				t.Fatal(err)
			}
			if !jsonEqual(t, out, b) {
				t.Errorf("Marshal(Decode(x)) != x\n got: %s\nwant: %s", out, b)
			}
			again := decode(t, out)
			if !reflect.DeepEqual(again, r) {
				t.Errorf("Decode(Marshal(r)) != r\n got: %+v\nwant: %+v", again, r)
			}
		})
	}
}

func TestRoundTripFlatFormThroughCanonical(t *testing.T) {
	for _, name := range []string{"seed-004-success.json", "seed-004-failure.json"} {
		t.Run(name, func(t *testing.T) {
			r := decode(t, read(t, filepath.Join("testdata/vectors", name)))
			out, err := json.Marshal(r)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(out, []byte(`"result":`)) {
				t.Errorf("Marshal wrote %s, want the canonical form", out)
			}
			again := decode(t, out)
			if !reflect.DeepEqual(again, r) {
				t.Errorf("Decode(Marshal(r)) != r\n got: %+v\nwant: %+v\nJSON: %s", again, r, out)
			}
		})
	}
}

func TestCanonicalJSONKeepsGoldenBytes(t *testing.T) {
	b := read(t, "../examples/todo/testdata/remove-t9-approved.golden.json")
	out, err := receipt.CanonicalJSON(decode(t, b))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out, b) {
		t.Errorf("CanonicalJSON(Decode(golden)) is not the golden file byte for byte:\n%s", out)
	}
}

type invalidReceipt struct {
	Name    string          `json:"name"`
	Mistake string          `json:"mistake"`
	Path    string          `json:"path"`
	Receipt json.RawMessage `json:"receipt"`
}

func invalidReceipts(t testing.TB) []invalidReceipt {
	t.Helper()
	var cases []invalidReceipt
	if err := json.Unmarshal(read(t, "testdata/invalid-receipts.json"), &cases); err != nil {
		t.Fatal(err)
	}
	return cases
}

func TestDecodeRejectsEachMistakeWithItsPath(t *testing.T) {
	for _, tc := range invalidReceipts(t) {
		t.Run(tc.Name, func(t *testing.T) {
			r, err := receipt.Decode(tc.Receipt)
			if err == nil {
				t.Fatalf("%s: Decode accepted it: %s", tc.Mistake, r.GomegaString())
			}
			if !errors.Is(err, receipt.ErrInvalid) {
				t.Errorf("errors.Is(err, ErrInvalid) = false for %v", err)
			}
			var inv *receipt.InvalidError
			if !errors.As(err, &inv) {
				t.Fatalf("err is %T, want *receipt.InvalidError", err)
			}
			var paths []string
			for _, p := range inv.Problems {
				paths = append(paths, p.Path)
			}
			if !slices.Contains(paths, tc.Path) {
				t.Errorf("%s: problems at %v, want one at %s (%v)", tc.Mistake, paths, tc.Path, err)
			}
			if !strings.Contains(err.Error(), tc.Path+": ") {
				t.Errorf("message %q does not name %s", err, tc.Path)
			}
		})
	}
}

func TestDecodeErrorMessages(t *testing.T) {
	cases := []struct {
		name, in, want string
	}{
		{"a list entry of the wrong type",
			`{"result":{"ok":true,"action":{"id":"a"},"changed":{"observed":true,"records":{"added":[],"removed":["t1",7],"updated":[],"reordered":false,"omitted":{"added":0,"removed":0,"updated":0}}}}}`,
			`invalid receipt: $.result.changed.records.removed[1]: want string, got number`},
		{"empty input", ``, `invalid receipt: $: empty input, want a JSON object`},
		{"not JSON", `{"result":`, `invalid receipt: $: not valid JSON: unexpected end of JSON input (at byte 10)`},
		{"ok true with an error",
			`{"result":{"ok":true,"action":{"id":"a"},"error":{"code":"EXECUTION_FAILED"}}}`,
			`invalid receipt: $.result.error: present on a receipt with ok true`},
		{"an unknown code",
			`{"result":{"ok":false,"error":{"code":"NOPE"}}}`,
			`invalid receipt: $.result.error.code: want a code of the contract (CONTRACT.md, "Error codes"), got "NOPE"`},
		{"a bad phase",
			`{"result":{"ok":false,"error":{"code":"PERMISSION_DENIED"}},"phase":"auth"}`,
			`invalid receipt: $.phase: want one of "policy", "preflight", "target_resolution", "dispatch", "browser_effect", "verification", "transport", got "auth"`},
		{"a key that is no identifier",
			`{"result":{"ok":false,"error":{"code":"PERMISSION_DENIED","the reason":"x"}}}`,
			`invalid receipt: $.result.error["the reason"]: unknown field`},
		{"several mistakes at once",
			`{"result":{"ok":"yes"},"revision":{"before":-1,"after":0.5}}`,
			`invalid receipt: $.result.ok: want boolean, got string; $.revision.before: want at least 0, got -1; $.revision.after: want integer, got number`},
		{"the flat form's revision disagreeing with currentRevision",
			`{"status":"succeeded","action":"click","revision":42,"previousRevision":41,"currentRevision":43}`,
			`invalid receipt: $.revision: 42 disagrees with currentRevision 43`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := receipt.Decode([]byte(tc.in))
			if err == nil || err.Error() != tc.want {
				t.Errorf("Decode error\n got: %v\nwant: %s", err, tc.want)
			}
		})
	}
}

func TestDecodeKeepsExtensionFields(t *testing.T) {
	in := `{"result":{"ok":true,"action":{"id":"a"},"x-cost":{"ms": 12}},"x-trace":"abc","status":"ignored in the canonical form"}`
	r := decode(t, []byte(in))
	if got := string(r.Extra["x-trace"]); got != `"abc"` {
		t.Errorf("Extra[x-trace] = %s", got)
	}
	if got := string(r.Result.Extra["x-cost"]); got != `{"ms":12}` {
		t.Errorf("Result.Extra[x-cost] = %s", got)
	}
	out, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"result":{"ok":true,"action":{"id":"a"},"x-cost":{"ms":12}},"status":"ignored in the canonical form","x-trace":"abc"}`
	if string(out) != want {
		t.Errorf("Marshal\n got: %s\nwant: %s", out, want)
	}
}

func TestMarshalRefusesExtraThatShadowsAField(t *testing.T) {
	r := &receipt.Receipt{Result: receipt.Result{OK: true, Action: receipt.Action{ID: "a"}}}
	r.Extra = map[string]json.RawMessage{"phase": json.RawMessage(`"policy"`)}
	if _, err := json.Marshal(r); err == nil || !strings.Contains(err.Error(), `receipt extension field "phase" shadows a field of the contract`) {
		t.Errorf("Marshal error = %v", err)
	}
	r.Extra = map[string]json.RawMessage{"x": json.RawMessage(`{nope`)}
	if _, err := json.Marshal(r); err == nil || !strings.Contains(err.Error(), `"x" is not valid JSON`) {
		t.Errorf("Marshal error = %v", err)
	}
}

func TestUnmarshalJSONIsAsStrictAsDecode(t *testing.T) {
	var r receipt.Receipt
	err := json.Unmarshal([]byte(`{"result":{"OK":true,"ok":false}}`), &r)
	if !errors.Is(err, receipt.ErrInvalid) || !strings.Contains(err.Error(), "$.result.error: missing on a receipt with ok false") {
		t.Errorf("json.Unmarshal error = %v", err)
	}
	if err := json.Unmarshal(read(t, "testdata/vectors/every-field-failure.json"), &r); err != nil {
		t.Fatal(err)
	}
	if r.Code() != receipt.CodeStepFailed || string(r.Extra["x-host"]) != `"glasstest"` {
		t.Errorf("json.Unmarshal lost fields: %+v", r)
	}
}

func TestDecodeAcceptsIntegersWrittenAsDecimals(t *testing.T) {
	r := decode(t, []byte(`{"result":{"ok":true,"action":{"id":"a"}},"revision":{"before":1.0,"after":2e0}}`))
	if *r.Revision != (receipt.Revision{Before: 1, After: 2}) {
		t.Errorf("revision = %+v", r.Revision)
	}
}

func TestGomegaStringIsOneCompactLine(t *testing.T) {
	cases := map[string]string{
		"../examples/todo/testdata/remove-t9-approved.golden.json": `receipt "remove@t9" ok; expect "The task is no longer in the list"; changed records{removed [t9] total 12→11} actions{removed [remove@t9]} feedback{+1 -0}`,
		"testdata/runtime/remove-t9-denied.receipt.json":           `receipt "remove@t9" failed PERMISSION_DENIED at policy: "confirmation no call of the host is waiting for this confirmation"`,
		"testdata/vectors/seed-004-failure.json":                   `receipt "" failed STALE_REVISION at preflight`,
	}
	for file, want := range cases {
		if got := decode(t, read(t, file)).GomegaString(); got != want {
			t.Errorf("%s:\n got: %s\nwant: %s", file, got, want)
		}
	}
}

func TestDecodeListsTenProblemsAndCountsTheRest(t *testing.T) {
	var entries []string
	for i := 0; i < 12; i++ {
		entries = append(entries, `{"code":"NOPE"}`)
	}
	in := `{"result":{"ok":false,"error":{"code":"EXECUTION_FAILED"},"steps":[` + strings.Join(entries, ",") + `]}}`
	_, err := receipt.Decode([]byte(in))
	var inv *receipt.InvalidError
	if !errors.As(err, &inv) {
		t.Fatalf("err = %v", err)
	}
	// Each step lacks index, id and outcome and has an unknown field: 48
	// problems.
	if len(inv.Problems) != 48 {
		t.Errorf("%d problems, want 48", len(inv.Problems))
	}
	if !strings.HasSuffix(err.Error(), "; and 38 more") || strings.Count(err.Error(), "$.result.steps[") != 10 {
		t.Errorf("message = %s", err)
	}
}

func TestPrintingAReceiptOrSnapshotShowsWhatItSays(t *testing.T) {
	r := decode(t, read(t, "testdata/runtime/remove-t9-approved.receipt.json"))
	got := fmt.Sprint(r)
	want := `receipt "remove@t9" ok; expect "The task is no longer in the list"; changed records{removed [t9] total 12→11} actions{removed [remove@t9]} feedback{+1 -0}`
	if got != want {
		t.Errorf("fmt.Sprint(receipt) =\n%s\nwant\n%s", got, want)
	}
	s, err := receipt.DecodeSnapshot(read(t, "testdata/runtime/todo.snapshot.json"))
	if err != nil {
		t.Fatal(err)
	}
	got = fmt.Sprint(s)
	if !strings.HasPrefix(got, `snapshot of Todo (todo) at revision 0: 12 records, `) || !strings.Contains(got, "remove@t9") {
		t.Errorf("fmt.Sprint(snapshot) = %s", got)
	}
	var nilSnap *receipt.Snapshot
	if fmt.Sprint(nilSnap) != "<nil snapshot>" {
		t.Errorf("a nil snapshot prints %q", fmt.Sprint(nilSnap))
	}
}
