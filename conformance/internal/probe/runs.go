package probe

import (
	"encoding/json"

	"github.com/glassworks/glass/conformance/internal/pagewatch"
)

// HandlerRuns is a page's own count of its handlers' runs, action id →
// runs: a fixture page may expose globalThis.glassHandlerRuns. Nil when
// the page keeps no count.
type HandlerRuns map[string]float64

// HandlerRuns reads the page's count of its handlers' runs.
func (pg *Page) HandlerRuns() (HandlerRuns, error) {
	v, err := pg.Evaluate(pagewatch.HandlerRuns, nil)
	if err != nil {
		return nil, err
	}
	text, _ := v.(string)
	var m HandlerRuns
	if err := json.Unmarshal([]byte(text), &m); err != nil {
		return nil, err
	}
	return m, nil
}

// RunsAround is the page's count of its handlers' runs read just before
// and just after one call (envelope.no-auto-retry), or why it could not
// be read.
type RunsAround struct {
	Before, After HandlerRuns
	Err           error
}

// Around makes one call between two reads of the page's handler counts;
// a page that keeps none is read once.
func (pg *Page) Around(call func()) RunsAround {
	var ra RunsAround
	if ra.Before, ra.Err = pg.HandlerRuns(); ra.Err != nil || ra.Before == nil {
		call()
		return ra
	}
	call()
	ra.After, ra.Err = pg.HandlerRuns()
	return ra
}
