package probe

import (
	"encoding/json"

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
// out, the accessibility tree then witnesses nothing, nor the DOM when
// the whole body counts (pagewatch.BodyMasked), and the settle wait does
// not wait for them. Empty when nothing changed.
func (p *Probe) SelfChanging() []any {
	v, _ := p.s.memo("selfchange", func() (any, error) {
		if known := p.s.cfg.SelfChanging; known != nil {
			return *known, nil
		}
		q := &Probe{s: p.s, Transport: glasstest.TransportBridge}
		defer q.Close()
		pg, err := q.Open("")
		if err != nil {
			return []any(nil), nil
		}
		if _, err := pg.Harness.EvaluateWithin(QuietMax, pagewatch.Quiet, []any{int(QuietFor.Milliseconds()), 20, selfChangeQuietMs, nil}); err != nil {
			return []any(nil), nil
		}
		v, err := pg.Harness.EvaluateWithin(QuietMax, pagewatch.SelfChange, []int{selfChangeForMs, selfChangeMax})
		var masks []any
		if text, _ := v.(string); err != nil || json.Unmarshal([]byte(text), &masks) != nil {
			return []any(nil), nil
		}
		return masks, nil
	})
	masks, _ := v.([]any)
	return masks
}
