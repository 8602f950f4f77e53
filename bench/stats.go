package main

import (
	"fmt"
	"math"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"
)

// sample is a list of timings in milliseconds.
type sample []float64

func (s *sample) add(d time.Duration) { *s = append(*s, ms(d)) }

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// quantile is the nearest-rank q-quantile (0 < q ≤ 1) of s: the smallest
// value with at least q of the sample at or below it. The median of an even
// sample is the mean of the two middle values.
func (s sample) quantile(q float64) float64 {
	if len(s) == 0 {
		return math.NaN()
	}
	v := slices.Clone(s)
	slices.Sort(v)
	if q == 0.5 && len(v)%2 == 0 {
		return (v[len(v)/2-1] + v[len(v)/2]) / 2
	}
	i := int(math.Ceil(q*float64(len(v)))) - 1
	return v[max(0, min(i, len(v)-1))]
}

func (s sample) median() float64 { return s.quantile(0.5) }
func (s sample) p95() float64    { return s.quantile(0.95) }

func (s sample) mean() float64 {
	if len(s) == 0 {
		return math.NaN()
	}
	var t float64
	for _, x := range s {
		t += x
	}
	return t / float64(len(s))
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
