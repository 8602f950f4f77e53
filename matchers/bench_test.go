package matchers_test

import (
	"testing"

	Gomega "github.com/onsi/gomega"
	"github.com/onsi/gomega/types"

	. "github.com/glassworks/glass/matchers"
)

// The hot paths of the matchers, in benchstat's form (one sub-benchmark
// per input, allocations reported):
//
//	go test ./matchers -run '^$' -bench . -count 10 | tee new.txt
//	benchstat old.txt new.txt

func benchMatch(b *testing.B, m types.GomegaMatcher, actual any, want bool) {
	b.Helper()
	b.ReportAllocs()
	for b.Loop() {
		ok, err := m.Match(actual)
		if err != nil || ok != want {
			b.Fatalf("Match = %v, %v; want %v", ok, err, want)
		}
	}
}

func BenchmarkHaveChanged(b *testing.B) {
	seed := decoded(b, "remove-t9-approved")
	full := decoded(b, "bounded-full")
	b.Run("walkthrough", func(b *testing.B) {
		m := HaveChanged(Records(Removed("t9"), Total(12, 11)), Actions(Removed("remove@t9")), Feedback(Added("Deleted “Weekly report”")))
		benchMatch(b, m, seed, true)
	})
	b.Run("full-list-matcher", func(b *testing.B) {
		m := HaveChanged(Records(Added(Gomega.HavePrefix("t3"))), Actions(Added("remove@t32")))
		benchMatch(b, m, full, true)
	})
	b.Run("omitted-miss", func(b *testing.B) {
		benchMatch(b, HaveChanged(Records(Added("t37"))), full, false)
	})
}

func BenchmarkNeverContain(b *testing.B) {
	raw := fixture(b, "sensitive-leak")
	b.Run("json-clean", func(b *testing.B) {
		b.SetBytes(int64(len(raw)))
		benchMatch(b, NeverContain("correct horse"), raw, true)
	})
	b.Run("json-leak", func(b *testing.B) {
		b.SetBytes(int64(len(raw)))
		benchMatch(b, NeverContain("hunter2"), raw, false)
	})
	b.Run("pointer-clean", func(b *testing.B) {
		benchMatch(b, NeverContain("correct horse"), decoded(b, "sensitive-leak"), true)
	})
}

// BenchmarkInput is the cost of turning what a matcher is given into a
// receipt: nothing for a pointer, receipt.Decode for JSON.
func BenchmarkInput(b *testing.B) {
	raw := fixture(b, "flow-ok")
	b.Run("pointer", func(b *testing.B) {
		benchMatch(b, BeOK(), decoded(b, "flow-ok"), true)
	})
	b.Run("bytes", func(b *testing.B) {
		b.SetBytes(int64(len(raw)))
		benchMatch(b, BeOK(), raw, true)
	})
	b.Run("string", func(b *testing.B) {
		s := string(raw)
		b.SetBytes(int64(len(raw)))
		benchMatch(b, BeOK(), s, true)
	})
}
