package probe

import (
	"sync/atomic"
	"time"

	playwright "github.com/mxschmitt/playwright-go"
)

// SlowResponse is how much later the slow-server probe lets every fetch
// and XMLHttpRequest of the page get its answer.
const SlowResponse = 300 * time.Millisecond

// Slowed is a call made again with the page's server answering
// SlowResponse late, and how many requests it made.
type Slowed struct {
	*Exercised
	Requests int
}

// SlowServer has the page's server answer every fetch and XMLHttpRequest
// SlowResponse late from now on, and counts them.
func (pg *Page) SlowServer() (*atomic.Int64, error) {
	n := new(atomic.Int64)
	return n, pg.Harness.Playwright().Route("**/*", func(route playwright.Route) {
		if t := route.Request().ResourceType(); t == "fetch" || t == "xhr" {
			n.Add(1)
			time.AfterFunc(SlowResponse, func() { _ = route.Continue() })
			return
		}
		_ = route.Continue()
	})
}

// SlowCall makes e's call again on a fresh page whose server answers late
// (SlowServer), then waits for quiet (verify.settle): server work the
// handler started outlasts a runtime that snapshots once the DOM is quiet
// a few frames. Once per run, transport and action.
func (p *Probe) SlowCall(e *Exercised) (*Slowed, error) {
	v, err := p.memoOwn(string(p.Transport)+"|slow|"+e.Action.ID, func(q *Probe) (any, error) {
		pg, err := q.OpenApproved(e.Secret)
		if err != nil {
			return nil, err
		}
		before, dom, err := pg.StableWitness(false)
		if err != nil {
			return nil, err
		}
		requests, err := pg.SlowServer()
		if err != nil {
			return nil, err
		}
		r, byRuntime := pg.DoAnswered(e.Action.ID, e.Args)
		out := &Slowed{Exercised: &Exercised{Action: e.Action, Args: e.Args, Secret: e.Secret, Receipt: r, ByRuntime: byRuntime, Before: before, DOMWitness: dom}}
		out.Requests = int(requests.Load())
		if out.After, err = pg.Witness(false); err != nil {
			return nil, err
		}
		if r.Result.OK {
			if err := pg.WaitQuiet(); err != nil {
				return nil, err
			}
			if out.Settled, err = pg.Witness(false); err != nil {
				return nil, err
			}
		}
		return out, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*Slowed), nil
}
