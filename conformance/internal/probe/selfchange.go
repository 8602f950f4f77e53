package probe

import (
	"encoding/json"

	"github.com/glassworks/glass/conformance/internal/pagewatch"
	"github.com/glassworks/glass/glasstest"
)

// Watching an idle page for what it changes by itself.
const (
	selfChangeQuietMs = 2000 // not a contract bound
	selfChangeForMs   = 1500 // not a contract bound
	selfChangeMax     = 20   // not a contract bound
)

// SelfChanging names the elements a fresh page of the run changes by
// itself, with no call in flight (pagewatch.SelfChange: a clock, a
// ticker), once per run: once the page is quiet, or 2 s after it loaded,
// it is watched for 1.5 s. The DOM witnesses leave those elements out,
// and with any the accessibility tree witnesses nothing; the harness's
// settle wait does not wait for them to stop. Empty when the page stays
// still, or could not be watched.
func (p *Probe) SelfChanging() []any {
	v, _ := p.s.memo("selfchange", func() (any, error) {
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
