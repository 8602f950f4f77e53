package schema_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/glassworks/glass/schema"
)

// The cost of validating what a page runtime sends against the published
// schemas, which the harness does for every receipt and snapshot, in
// benchstat's form:
//
//	go test ./schema -run '^$' -bench . -count 10 | tee new.txt
//	benchstat old.txt new.txt

func benchFile(b *testing.B, path string) []byte {
	b.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	return data
}

func benchValidate(b *testing.B, validate func([]byte) error, data []byte) {
	b.Helper()
	if err := validate(data); err != nil { // compiles the schema, outside the timing
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if err := validate(data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkValidateReceipt(b *testing.B) {
	for _, c := range []struct{ name, path string }{
		{"approved", "../receipt/testdata/runtime/remove-t9-approved.receipt.json"},
		{"denied", "../receipt/testdata/runtime/remove-t9-denied.receipt.json"},
		{"expectation-failed", "../receipt/testdata/runtime/remove-t9-expectation-failed.receipt.json"},
		{"every-field", "../receipt/testdata/vectors/every-field-success.json"},
	} {
		data := benchFile(b, c.path)
		b.Run(c.name, func(b *testing.B) { benchValidate(b, schema.ValidateReceipt, data) })
	}
}

func BenchmarkValidateSnapshot(b *testing.B) {
	todo := benchFile(b, "../receipt/testdata/runtime/todo.snapshot.json")
	// The reference runtime's snapshot of 10,000 records: 500 records and
	// 500 actions listed (bench/pages/records.html).
	bounded := benchFile(b, "../receipt/testdata/runtime/records-10000.snapshot.json")
	b.Run("todo-12", func(b *testing.B) { benchValidate(b, schema.ValidateSnapshot, todo) })
	b.Run("records-10000", func(b *testing.B) { benchValidate(b, schema.ValidateSnapshot, bounded) })
}

// BenchmarkValidateInvalidReceipt is the failure path: a receipt that
// breaks the schema in one place, with the problem list built.
func BenchmarkValidateInvalidReceipt(b *testing.B) {
	var r map[string]any
	if err := json.Unmarshal(benchFile(b, "../receipt/testdata/runtime/remove-t9-approved.receipt.json"), &r); err != nil {
		b.Fatal(err)
	}
	r["phase"] = "nowhere"
	data, err := json.Marshal(r)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := schema.ValidateReceipt(data); err == nil {
			b.Fatal("a receipt with phase nowhere validated")
		}
	}
}
