package glasstest_test

import (
	"fmt"
	"net/http/httptest"
	"testing"

	"github.com/glassworks/glass/glasstest"
)

// BenchmarkSpecOverhead measures what tracing adds to a spec: a context and
// a page opened, one call, the context closed, with and without the trace
// that Open records by default; and one call on an open page.
//
//	go test ./glasstest -run '^$' -bench SpecOverhead -benchtime 30x
func BenchmarkSpecOverhead(b *testing.B) {
	br, err := glasstest.Launch(glasstest.BrowserConfig{})
	if err != nil {
		b.Fatal(err)
	}
	defer br.Close()
	srv := httptest.NewServer(harnessHandler())
	defer srv.Close()
	for _, trace := range []bool{false, true} {
		b.Run(fmt.Sprintf("open+do+close/trace=%v", trace), func(b *testing.B) {
			for b.Loop() {
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
			}
		})
		b.Run(fmt.Sprintf("do/trace=%v", trace), func(b *testing.B) {
			p, err := glasstest.OpenPage(br, srv.URL, glasstest.Trace(trace))
			if err != nil {
				b.Fatal(err)
			}
			defer p.Close()
			for b.Loop() {
				if r := p.Do("count", nil); !r.Result.OK {
					b.Fatal(r.GomegaString())
				}
			}
		})
	}
}
