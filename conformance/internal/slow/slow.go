// Package slow makes a page's server answer late: the probes of
// verify.settle and of a hand-off's user steps, where work the handler
// started through the server must outlast a runtime that snapshots once
// the DOM is quiet a few frames.
package slow

import (
	"sync/atomic"
	"time"

	"github.com/glassworks/glass/conformance/internal/probe"
	playwright "github.com/mxschmitt/playwright-go"
)

// Response is how much later the slow-server probe lets every fetch
// and XMLHttpRequest of the page get its answer.
const Response = 300 * time.Millisecond

// Slowed is a call made again with the page's server answering
// Response late, and how many requests it made.
type Slowed struct {
	*probe.Exercised
	Requests int
}

// Server has the page's server answer every fetch and XMLHttpRequest
// Response late from now on, and counts them.
func Server(pg *probe.Page) (*atomic.Int64, error) {
	n := new(atomic.Int64)
	return n, pg.Harness.Playwright().Route("**/*", func(route playwright.Route) {
		if t := route.Request().ResourceType(); t == "fetch" || t == "xhr" {
			n.Add(1)
			time.AfterFunc(Response, func() { _ = route.Continue() })
			return
		}
		_ = route.Continue()
	})
}

// Call makes e's call again on a fresh page whose server answers late
// (Server), then waits for quiet (verify.settle). Once per run, transport
// and action, on pages of its own.
func Call(p *probe.Probe, e *probe.Exercised) (*Slowed, error) {
	v, err := p.Memo(string(p.Transport)+"|slow|"+e.Action.ID, func() (any, error) {
		q := p.Sibling(p.Transport)
		defer q.Close()
		pg, err := q.OpenApproved(e.Secret)
		if err != nil {
			return nil, err
		}
		before, dom, err := pg.StableWitness(false)
		if err != nil {
			return nil, err
		}
		requests, err := Server(pg)
		if err != nil {
			return nil, err
		}
		r, byRuntime := pg.DoAnswered(e.Action.ID, e.Args)
		out := &Slowed{Exercised: &probe.Exercised{Action: e.Action, Args: e.Args, Secret: e.Secret, Receipt: r, ByRuntime: byRuntime, Before: before, DOMWitness: dom}}
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
