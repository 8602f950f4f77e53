package main

import (
	"fmt"
	"math"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/onsi/gomega/gmeasure"
)

// sample is a list of timings in milliseconds, in the order they were
// taken (pairRatio pairs two samples iteration by iteration). Its
// statistics are Gomega's gmeasure's — the measurement library of the
// Ginkgo suites — rather than this package's own: median, mean, minimum,
// maximum and standard deviation come from one gmeasure.Stats. The p95 is
// the one figure gmeasure does not compute; it is read off the values
// gmeasure sorted for its ranking (RankStats' order), nearest rank.
type sample []float64

func (s *sample) add(d time.Duration) { *s = append(*s, ms(d)) }

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// stats is s as one gmeasure measurement.
func (s sample) stats() gmeasure.Stats {
	e := gmeasure.NewExperiment("bench")
	for _, v := range s {
		e.RecordValue("ms", v)
	}
	return e.GetStats("ms")
}

// stat is one of gmeasure's statistics of s, NaN for an empty sample.
func (s sample) stat(st gmeasure.Stat) float64 {
	if len(s) == 0 {
		return math.NaN()
	}
	return s.stats().FloatFor(st)
}

func (s sample) median() float64 { return s.stat(gmeasure.StatMedian) }
func (s sample) mean() float64   { return s.stat(gmeasure.StatMean) }
func (s sample) min() float64    { return s.stat(gmeasure.StatMin) }
func (s sample) max() float64    { return s.stat(gmeasure.StatMax) }

// p95 is the nearest-rank 95th percentile of s: the smallest value with at
// least 95% of the sample at or below it.
func (s sample) p95() float64 {
	if len(s) == 0 {
		return math.NaN()
	}
	v := slices.Sorted(slices.Values(s))
	i := int(math.Ceil(0.95*float64(len(v)))) - 1
	return v[max(0, min(i, len(v)-1))]
}

// pairRatio is the median of the per-iteration ratios a[i]/b[i]: A and B
// ran back to back in each iteration, so a burst of load that slows one
// iteration slows both sides of its ratio.
func pairRatio(a, b sample) float64 {
	n := min(len(a), len(b))
	r := make(sample, 0, n)
	for i := 0; i < n; i++ {
		if b[i] > 0 {
			r = append(r, a[i]/b[i])
		}
	}
	return r.median()
}

// loadAvg is the one-, five- and fifteen-minute load average, as
// /proc/loadavg has it ("?" where there is none).
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

// cpuModel is the CPU's model name from /proc/cpuinfo.
func cpuModel() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				return strings.TrimSpace(v)
			}
		}
	}
	return runtime.GOARCH
}

func fmtMS(v float64) string {
	switch {
	case math.IsNaN(v):
		return "-"
	case v >= 100:
		return fmt.Sprintf("%.0f", v)
	case v >= 10:
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%.2f", v)
}
