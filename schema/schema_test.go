package schema_test

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/glassworks/glass/receipt"
	"github.com/glassworks/glass/schema"
)

func read(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestSchemasAreDraft2020AndCompile(t *testing.T) {
	for name, doc := range map[string][]byte{"receipt": schema.ReceiptJSON, "snapshot": schema.SnapshotJSON, "surface": schema.SurfaceJSON, "coverage": schema.CoverageJSON} {
		var m map[string]any
		if err := json.Unmarshal(doc, &m); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if m["$schema"] != "https://json-schema.org/draft/2020-12/schema" {
			t.Errorf("%s: $schema = %v", name, m["$schema"])
		}
	}
	if m := string(schema.ReceiptJSON); !strings.Contains(m, `"$id": "`+schema.ReceiptID+`"`) {
		t.Errorf("receipt schema $id is not %s", schema.ReceiptID)
	}
	if m := string(schema.SnapshotJSON); !strings.Contains(m, `"$id": "`+schema.SnapshotID+`"`) {
		t.Errorf("snapshot schema $id is not %s", schema.SnapshotID)
	}
	if m := string(schema.SurfaceJSON); !strings.Contains(m, `"$id": "`+schema.SurfaceID+`"`) {
		t.Errorf("surface schema $id is not %s", schema.SurfaceID)
	}
	if m := string(schema.CoverageJSON); !strings.Contains(m, `"$id": "`+schema.CoverageID+`"`) {
		t.Errorf("coverage schema $id is not %s", schema.CoverageID)
	}
	// A document that validates proves the schema compiled.
	if err := schema.ValidateReceipt(read(t, "../receipt/testdata/vectors/seed-000-remove-t9.json")); err != nil {
		t.Fatal(err)
	}
	if err := schema.ValidateSnapshot(read(t, "../receipt/testdata/runtime/todo.snapshot.json")); err != nil {
		t.Fatal(err)
	}
}

// goldenFiles finds every *.golden.json of the repository and sorts the
// receipts from the snapshots; other golden files (reports) are skipped.
func goldenFiles(t *testing.T) (receipts, snapshots []string) {
	t.Helper()
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".golden.json") {
			return nil
		}
		var m map[string]json.RawMessage
		if json.Unmarshal(read(t, path), &m) != nil {
			return nil
		}
		switch {
		case m["result"] != nil:
			receipts = append(receipts, path)
		case m["records"] != nil && m["actions"] != nil:
			snapshots = append(snapshots, path)
		default:
			t.Logf("%s is neither a receipt nor a snapshot", path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return receipts, snapshots
}

func TestEveryGoldenReceiptValidates(t *testing.T) {
	receipts, snapshots := goldenFiles(t)
	if len(receipts) == 0 {
		t.Fatal("no golden receipt found; the repository moved")
	}
	more, _ := filepath.Glob("../receipt/testdata/runtime/*.receipt.json")
	vectors, _ := filepath.Glob("../receipt/testdata/vectors/*.json")
	for _, f := range slices.Concat(receipts, more, vectors) {
		if err := schema.ValidateReceipt(read(t, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	for _, f := range append(snapshots, "../receipt/testdata/runtime/todo.snapshot.json") {
		if err := schema.ValidateSnapshot(read(t, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

type invalidCase struct {
	Name     string          `json:"name"`
	Mistake  string          `json:"mistake"`
	Path     string          `json:"path"`
	Receipt  json.RawMessage `json:"receipt"`
	Snapshot json.RawMessage `json:"snapshot"`
}

func (c invalidCase) doc() []byte {
	if c.Receipt != nil {
		return c.Receipt
	}
	return c.Snapshot
}

func invalidCases(t *testing.T, file string) []invalidCase {
	t.Helper()
	var cases []invalidCase
	if err := json.Unmarshal(read(t, filepath.Join("../receipt/testdata", file)), &cases); err != nil {
		t.Fatal(err)
	}
	return cases
}

func paths(problems []receipt.Problem) []string {
	var out []string
	for _, p := range problems {
		if !slices.Contains(out, p.Path) {
			out = append(out, p.Path)
		}
	}
	slices.Sort(out)
	return out
}

func TestEachMistakeFailsWithItsPath(t *testing.T) {
	for _, file := range []string{"invalid-receipts.json", "invalid-snapshots.json"} {
		validate, decode := schema.ValidateReceipt, func(b []byte) error { _, err := receipt.Decode(b); return err }
		if strings.Contains(file, "snapshot") {
			validate, decode = schema.ValidateSnapshot, func(b []byte) error { _, err := receipt.DecodeSnapshot(b); return err }
		}
		for _, tc := range invalidCases(t, file) {
			t.Run(tc.Name, func(t *testing.T) {
				err := validate(tc.doc())
				var se *schema.Error
				if !errors.As(err, &se) {
					t.Fatalf("%s: validate = %v, want a *schema.Error", tc.Mistake, err)
				}
				if !errors.Is(err, receipt.ErrInvalid) {
					t.Errorf("errors.Is(err, receipt.ErrInvalid) = false")
				}
				got := paths(se.Problems)
				if !slices.Contains(got, tc.Path) {
					t.Errorf("%s: problems at %v, want one at %s\n%v", tc.Mistake, got, tc.Path, err)
				}
				if !strings.Contains(err.Error(), tc.Path+": ") {
					t.Errorf("message does not name %s: %v", tc.Path, err)
				}
				// The decoder and the schema find the same places wrong.
				var de *receipt.InvalidError
				if !errors.As(decode(tc.doc()), &de) {
					t.Fatalf("the decoder accepts it")
				}
				if want := paths(de.Problems); !slices.Equal(got, want) {
					t.Errorf("schema finds problems at %v, the decoder at %v", got, want)
				}
			})
		}
	}
}

func TestErrorMessages(t *testing.T) {
	cases := []struct {
		name, in, want string
	}{
		{"a list entry of the wrong type",
			`{"result":{"ok":true,"action":{"id":"a"},"changed":{"observed":true,"records":{"added":[],"removed":["t1",7],"updated":[],"reordered":false,"omitted":{"added":0,"removed":0,"updated":0}}}}}`,
			`schema: receipt.schema.json: $.result.changed.records.removed[1]: want string, got number`},
		{"ok true with an error",
			`{"result":{"ok":true,"action":{"id":"a"},"error":{"code":"EXECUTION_FAILED"}}}`,
			`schema: receipt.schema.json: $.result.error: present on a receipt with ok true`},
		{"a phase on a success",
			`{"result":{"ok":true,"action":{"id":"a"}},"phase":"policy"}`,
			`schema: receipt.schema.json: $.phase: present on a receipt that succeeded`},
		{"a required field and an unknown one",
			`{"result":{"ok":false,"error":{"message":"x","stack":"y"}}}`,
			`schema: receipt.schema.json: $.result.error.code: missing; $.result.error.stack: unknown field`},
		{"an enum", `{"result":{"ok":false,"error":{"code":"PERMISSION_DENIED","started":"maybe"}}}`,
			`schema: receipt.schema.json: $.result.error.started: want one of "no", "yes", "unknown", got "maybe"`},
		{"a bound", `{"result":{"ok":false,"error":{"code":"PERMISSION_DENIED"}},"revision":{"before":-3,"after":9007199254740992}}`,
			`schema: receipt.schema.json: $.revision.after: want at most 9007199254740991, got 9007199254740992; $.revision.before: want at least 0, got -3`},
		{"not JSON", `{"result"`, `schema: receipt.schema.json: $: not valid JSON: unexpected EOF`},
		{"the flat form's paired revisions",
			`{"status":"succeeded","action":"click","currentRevision":3}`,
			`schema: receipt.schema.json: $.previousRevision: missing beside currentRevision`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if err := schema.ValidateReceipt([]byte(tc.in)); err == nil || err.Error() != tc.want {
				t.Errorf("ValidateReceipt\n got: %v\nwant: %s", err, tc.want)
			}
		})
	}
}

// TestSchemaAgreesWithTheGoModel keeps the published lists and bounds and
// the Go model's in step: a code, phase or bound added on one side only
// fails here.
func TestSchemaAgreesWithTheGoModel(t *testing.T) {
	var doc struct {
		Defs map[string]json.RawMessage `json:"$defs"`
	}
	if err := json.Unmarshal(schema.ReceiptJSON, &doc); err != nil {
		t.Fatal(err)
	}
	def := func(path ...string) any {
		var v any
		if err := json.Unmarshal(doc.Defs[path[0]], &v); err != nil {
			t.Fatalf("$defs/%s: %v", path[0], err)
		}
		for _, p := range path[1:] {
			m, ok := v.(map[string]any)
			if !ok {
				t.Fatalf("$defs/%s: no %s", strings.Join(path, "/"), p)
			}
			v = m[p]
		}
		return v
	}
	strs := func(v any) []string {
		var out []string
		for _, x := range v.([]any) {
			out = append(out, x.(string))
		}
		return out
	}
	check := func(what string, got []string, want []string) {
		t.Helper()
		if !slices.Equal(got, want) {
			t.Errorf("%s: schema %v, Go %v", what, got, want)
		}
	}
	check("codes", strs(def("error", "properties", "code", "enum")), toStrings(receipt.Codes))
	check("phases", strs(def("phase", "enum")), toStrings(receipt.Phases))
	check("recovery strategies", strs(def("recoveryStrategy", "enum")), toStrings(receipt.RecoveryStrategies))
	check("fidelities", strs(def("fidelity", "enum")), toStrings(receipt.Fidelities))
	check("risks", strs(def("risk", "enum")), toStrings(receipt.Risks))
	check("started", strs(def("error", "properties", "started", "enum")), toStrings(receipt.StartedValues))
	check("step outcomes", strs(def("step", "properties", "outcome", "enum")), receipt.StepOutcomes)
	var lower []string
	for _, c := range receipt.Codes {
		lower = append(lower, strings.ToLower(string(c)))
	}
	check("flat kinds", strs(def("flatReceipt", "properties", "kind", "enum")), lower)

	num := func(what string, got any, want int) {
		t.Helper()
		if f, ok := got.(float64); !ok || int(f) != want {
			t.Errorf("%s: schema %v, Go %d", what, got, want)
		}
	}
	num("maxItems of changed.records.removed", def("recordChanges", "properties", "removed", "maxItems"), receipt.MaxChangedEntries)
	num("maxItems of error.available", def("error", "properties", "available", "maxItems"), receipt.MaxAvailable)
	num("maxLength of boundedText", def("boundedText", "maxLength"), receipt.MaxTextChars)
	num("maximum of count", def("count", "maximum"), receipt.MaxInteger)

	var snap struct {
		Properties map[string]struct {
			Properties map[string]struct {
				MaxItems int `json:"maxItems"`
			} `json:"properties"`
		} `json:"properties"`
		Defs map[string]struct {
			Enum       []string `json:"enum"`
			Properties map[string]struct {
				Enum []string `json:"enum"`
			} `json:"properties"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(schema.SnapshotJSON, &snap); err != nil {
		t.Fatal(err)
	}
	num("maxItems of snapshot records", float64(snap.Properties["records"].Properties["items"].MaxItems), receipt.MaxSnapshotItems)
	num("maxItems of snapshot actions", float64(snap.Properties["actions"].Properties["items"].MaxItems), receipt.MaxSnapshotItems)
	check("kinds", snap.Defs["actionInfo"].Properties["kind"].Enum, toStrings(receipt.Kinds))
	check("snapshot risks", snap.Defs["risk"].Enum, toStrings(receipt.Risks))
	check("snapshot fidelities", snap.Defs["fidelity"].Enum, toStrings(receipt.Fidelities))
}

func toStrings[T ~string](vs []T) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = string(v)
	}
	return out
}

// TestSurfaceSchemaRefusesWhatTheDecoderRefuses: the surface schema is as
// strict as package surface's decoder on the fields a hand edit gets
// wrong. (That a surface the package writes validates is package
// surface's test.)
func TestSurfaceSchemaRefusesWhatTheDecoderRefuses(t *testing.T) {
	valid := `{"format": "glass.surface/v1", "protocol": "glass.page/v1", "page": {"id": "todo", "title": "Todo", "path": "/"},
	  "actions": [{"name": "remove", "rows": "remove@<record>", "description": "Delete the task", "kind": "element", "risk": "dangerous", "confirm": true}]}`
	if err := schema.ValidateSurface([]byte(valid)); err != nil {
		t.Fatalf("a valid surface: %v", err)
	}
	for _, c := range []struct{ name, doc, path string }{
		{"unknown field", strings.Replace(valid, `"confirm": true`, `"confirm": true, "riskk": "read"`, 1), "$.actions[0].riskk"},
		{"risk outside the contract", strings.Replace(valid, `"dangerous"`, `"low"`, 1), "$.actions[0].risk"},
		{"another format", strings.Replace(valid, `glass.surface/v1`, `glass.surface/v2`, 1), "$.format"},
		{"confirm missing", strings.Replace(valid, `, "confirm": true`, ``, 1), "$.actions[0].confirm"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := schema.ValidateSurface([]byte(c.doc))
			var se *schema.Error
			if !errors.As(err, &se) {
				t.Fatalf("ValidateSurface = %v, want a *schema.Error", err)
			}
			if !slices.ContainsFunc(se.Problems, func(p receipt.Problem) bool { return p.Path == c.path }) {
				t.Errorf("problems %v do not name %s", se.Problems, c.path)
			}
		})
	}
}
