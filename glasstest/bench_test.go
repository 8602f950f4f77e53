package glasstest_test

import (
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/glassworks/glass/glasstest"
)

// BenchmarkTracingCost measures what the trace that Open records by default
// adds to one spec: a context and a page opened, one call, the context
// closed. Traced and untraced specs alternate, so that a machine whose load
// drifts weighs on both alike; the medians are reported.
//
//	go test ./glasstest -run '^$' -bench TracingCost -benchtime 40x
func BenchmarkTracingCost(b *testing.B) {
	br, err := glasstest.Launch(glasstest.BrowserConfig{})
	if err != nil {
		b.Fatal(err)
	}
	defer br.Close()
	srv := httptest.NewServer(harnessHandler())
	defer srv.Close()
	spec := func(trace bool) time.Duration {
		start := time.Now()
		p, err := glasstest.OpenPage(br, srv.URL, glasstest.Trace(trace))
		if err != nil {
			b.Fatal(err)
		}
		if r := p.Do("count", nil); !r.Result.OK {
			b.Fatal(r.GomegaString())
		}
		if err := p.Close(); err != nil {
			b.Fatal(err)
		}
		return time.Since(start)
	}
	spec(true) // warm up
	var off, on, diff []float64
	for b.Loop() {
		o, t := spec(false), spec(true)
		off = append(off, ms(o))
		on = append(on, ms(t))
		diff = append(diff, ms(t-o))
	}
	b.ReportMetric(median(off), "ms/spec-untraced")
	b.ReportMetric(median(on), "ms/spec-traced")
	b.ReportMetric(median(diff), "ms/tracing-overhead")
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}
