package probe

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/glassworks/glass/conformance/internal/judge"
	"github.com/glassworks/glass/conformance/internal/pagewatch"
	"github.com/glassworks/glass/glasstest"
)

const ( // watching an idle page (SelfChanging)
	selfChangeQuietMs = 2000 // not a contract bound
	selfChangeForMs   = 1100 // not a contract bound
	selfChangeMax     = 20   // not a contract bound
)

// SelfChanging names the elements a fresh page of the run changes by
// itself with no call in flight (pagewatch.SelfChange: a clock), once per
// run: once quiet, or 2 s after it loaded, the page is watched for a
// window of 1.1 s, and for a second when anything changed in the first;
// an element counts when it changed in both. The DOM witnesses leave them
// out, the rendered page then witnesses nothing, nor the DOM when
// the whole body counts (pagewatch.BodyMasked), and the settle wait does
// not wait for them. Empty when nothing changed.
func (p *Probe) SelfChanging() []any { return p.idle().masks }

// ModelDrift says how the model of that idle page changed from its first
// snapshot, once ready, to its last, after the watch (a page that defines
// its model before its data has loaded); none when it did not.
func (p *Probe) ModelDrift() []string { return p.idle().drift }

type idlePage struct {
	masks []any
	drift []string
}

func (p *Probe) idle() idlePage {
	v, _ := p.s.memo("selfchange", func() (any, error) {
		if known := p.s.cfg.SelfChanging; known != nil {
			return idlePage{masks: *known}, nil
		}
		q := &Probe{s: p.s, Transport: glasstest.TransportBridge}
		defer q.Close()
		pg, err := q.Open("")
		if err != nil {
			return idlePage{}, nil
		}
		first, _ := pg.Snapshot()
		if _, err := pg.Harness.EvaluateWithin(QuietMax, pagewatch.Quiet, []any{int(QuietFor.Milliseconds()), 20, selfChangeQuietMs, nil}); err != nil {
			return idlePage{}, nil
		}
		v, err := pg.Harness.EvaluateWithin(QuietMax, pagewatch.SelfChange, []int{selfChangeForMs, selfChangeMax})
		var out idlePage
		if text, _ := v.(string); err != nil || json.Unmarshal([]byte(text), &out.masks) != nil {
			return idlePage{}, nil // a page that did not answer is read no more
		}
		if last, err := pg.Snapshot(); err == nil && first != nil {
			out.drift = slices.DeleteFunc(judge.ModelDiff(first, last), func(d string) bool { return strings.HasPrefix(d, "revision ") })
		}
		return out, nil
	})
	i, _ := v.(idlePage)
	return i
}
