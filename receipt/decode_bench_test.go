package receipt_test

import (
	"os"
	"testing"

	"github.com/glassworks/glass/receipt"
)

// The hot paths of reading what a page runtime sends, in benchstat's form
// (one sub-benchmark per input, bytes and allocations reported):
//
//	go test ./receipt -run '^$' -bench . -count 10 | tee new.txt
//	benchstat old.txt new.txt
//
// The harness decodes one receipt per call (Page.Do) and one snapshot per
// Snapshot. The largest snapshot a runtime sends is a bounded one:
// records-10000 is the reference runtime's snapshot of the benchmark's page
// of 10,000 records (bench/pages/records.html), 500 records and 500
// actions listed, the rest counted.

// benchReceipts are receipts the reference runtime wrote: the walkthrough's
// approved deletion, a denial, a failure with every error field, and a
// receipt with every field the canonical form has.
var benchReceipts = []struct{ name, path string }{
	{"approved", "testdata/runtime/remove-t9-approved.receipt.json"},
	{"denied", "testdata/runtime/remove-t9-denied.receipt.json"},
	{"expectation-failed", "testdata/runtime/remove-t9-expectation-failed.receipt.json"},
	{"every-field", "testdata/vectors/every-field-success.json"},
	{"flat-seed-004", "testdata/vectors/seed-004-success.json"},
}

func benchFile(b *testing.B, path string) []byte {
	b.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	return data
}

func BenchmarkDecode(b *testing.B) {
	for _, c := range benchReceipts {
		data := benchFile(b, c.path)
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := receipt.Decode(data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkDecodeSnapshot(b *testing.B) {
	for _, c := range []struct {
		name string
		data []byte
	}{
		{"todo-12", benchFile(b, "testdata/runtime/todo.snapshot.json")},
		{"records-10000", benchFile(b, "testdata/runtime/records-10000.snapshot.json")},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := receipt.DecodeSnapshot(c.data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCanonicalJSON is the cost of writing a receipt back: golden
// files, the evidence of a failing spec, a conformance finding.
func BenchmarkCanonicalJSON(b *testing.B) {
	r, err := receipt.Decode(benchFile(b, "testdata/runtime/remove-t9-approved.receipt.json"))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := receipt.CanonicalJSON(r); err != nil {
			b.Fatal(err)
		}
	}
}
