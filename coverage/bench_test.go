package coverage_test

import (
	"testing"

	"github.com/glassworks/glass/coverage"
)

// BenchmarkObserve is what a page costs when it closes: its snapshots and
// calls turned into its coverage (the Todo-like page of knownLog: seven
// actions, eleven calls). It runs once per page, not per call.
func BenchmarkObserve(b *testing.B) {
	log := knownLog()
	b.ReportAllocs()
	for b.Loop() {
		coverage.Observe(log)
	}
}

// BenchmarkNew is the end of a suite of 200 such pages.
func BenchmarkNew(b *testing.B) {
	obs := make([]coverage.Observation, 200)
	for i := range obs {
		obs[i] = coverage.Observe(knownLog())
	}
	b.ReportAllocs()
	for b.Loop() {
		coverage.New("bench", false, obs...)
	}
}
