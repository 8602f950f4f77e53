package glasstest

import (
	"testing"

	"github.com/glassworks/glass/receipt"
)

// The coverage of a call is on every user's hot path: Do records the
// receipt and who made it, nothing more. These benchmarks measure that
// record against a call that is not covered (GLASS_COVERAGE=off, or a page
// of OpenPage); a call itself costs milliseconds (BENCHMARKS.md).

func benchmarkCover(b *testing.B, on bool) {
	p := &Page{settings: defaults(), snapshots: make([]*receipt.Snapshot, 3)}
	if on {
		coverOpen(p)
		defer coveredPages.Delete(p)
	}
	name := "Deleting a task removes t9 once the user approves"
	currentSpec.Store(&name)
	defer currentSpec.Store(nil)
	c := callResult{r: &receipt.Receipt{Result: receipt.Result{OK: true, Action: receipt.Action{ID: "remove@t9"}}}, issuedCall: issuedCall{execID: "act_0123456789ab"}}
	s := p.settings
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if i%16 == 0 && on {
			// A spec makes a handful of calls per page, not millions:
			// start a new page now and then so that the benchmark does
			// not measure the growth of one huge slice.
			coverOpen(p)
		}
		p.covered(c, s)
	}
}

func BenchmarkCoverageOfACall(b *testing.B)    { benchmarkCover(b, true) }
func BenchmarkCoverageOfACallOff(b *testing.B) { benchmarkCover(b, false) }
