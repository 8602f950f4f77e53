package probe

import (
	"fmt"
	"time"

	"github.com/glassworks/glass/conformance/internal/manifest"
	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

// Scenario makes one call the manifest names, approved, on the page it
// names, once per run and transport.
func (p *Probe) Scenario(sc manifest.Scenario, field string) (*receipt.Receipt, *Outcome) {
	type result struct {
		r *receipt.Receipt
		o *Outcome
	}
	key := fmt.Sprintf("%s|scenario|%s|%s|%s", p.Transport, field, sc.Action, sc.URL)
	v, _ := p.s.memo(key, func() (any, error) {
		pg, err := p.Open(sc.URL, glasstest.Approve(), glasstest.ExpectTimeout(ScenarioExpectTimeout))
		if err != nil {
			o := Broken(err)
			return result{o: &o}, nil
		}
		var args any
		if sc.Args != nil {
			args = sc.Args
		}
		return result{r: pg.Do(sc.Action, args)}, nil
	})
	res := v.(result)
	return res.r, res.o
}

// ScenarioExpectTimeout shortens the wait for an expectation the manifest
// says will fail; a runtime that ignores the option waits its own default.
const ScenarioExpectTimeout = 400 * time.Millisecond
