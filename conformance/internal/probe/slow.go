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

// SlowCall makes the exercise's call of e's action again on a fresh page
// whose fetch and XMLHttpRequest answers arrive SlowResponse late, then
// waits for the page to go quiet (verify.settle): asynchronous work the
// handler started — a save through the server — then outlasts a runtime
// that takes its after snapshot once the DOM is quiet for a few frames
// without waiting for the work the page tracks. Once per run, transport
// and action.
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
		var requests atomic.Int64
		late := func(route playwright.Route) {
			switch route.Request().ResourceType() {
			case "fetch", "xhr":
				requests.Add(1)
				time.AfterFunc(SlowResponse, func() { _ = route.Continue() })
			default:
				_ = route.Continue()
			}
		}
		if err := pg.Harness.Playwright().Route("**/*", late); err != nil {
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
