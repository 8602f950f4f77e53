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
	r, _, o := p.ScenarioRuns(sc, field)
	return r, o
}

// ScenarioRuns is Scenario with the page's count of its handlers' runs
// around the call.
func (p *Probe) ScenarioRuns(sc manifest.Scenario, field string) (*receipt.Receipt, RunsAround, *Outcome) {
	c, o := p.WatchedScenario(sc, field)
	if o != nil {
		return nil, RunsAround{}, o
	}
	return c.Receipt, c.Runs, nil
}

// ScenarioCall is one call the manifest names, and for a failure that
// must still carry changed (executionFailures, expectationFailures) the
// page between the harness's witness before it and the page model once
// the page went quiet after it.
type ScenarioCall struct {
	Receipt *receipt.Receipt
	Runs    RunsAround
	// ByRuntime is false when the harness wrote the receipt.
	ByRuntime bool
	// Before is the harness's witness before the call, Settled the page
	// model once the page went quiet after it; nil for other fields.
	Before, Settled *Witness
	// DOMWitness is false when the page changes by itself (two readings
	// of its DOM before the call differ): what it shows once quiet then
	// says nothing of the call.
	DOMWitness bool
	// Stage6 is the runtime's snapshot when the first input event of an
	// element action's call fired (the before window after a reveal).
	Stage6 Stage6
}

// watchedFields are the manifest's lists whose calls fail after their
// handler ran: their receipts must still carry changed for what the page
// shows afterwards, so their calls are watched.
var watchedFields = map[string]bool{"executionFailures": true, "expectationFailures": true}

// WatchedScenario makes one call the manifest names, approved, on the
// page it names, once per run and transport (Scenario and ScenarioRuns
// share it).
func (p *Probe) WatchedScenario(sc manifest.Scenario, field string) (*ScenarioCall, *Outcome) {
	type result struct {
		c *ScenarioCall
		o *Outcome
	}
	key := fmt.Sprintf("%s|scenario|%s|%s|%s", p.Transport, field, sc.Action, sc.URL)
	v, _ := p.s.memo(key, func() (any, error) {
		broken := func(err error) (any, error) {
			o := Broken(err)
			return result{o: &o}, nil
		}
		pg, err := p.Open(sc.URL, glasstest.Approve(), glasstest.ExpectTimeout(ScenarioExpectTimeout))
		if err != nil {
			return broken(err)
		}
		args := p.ScenarioArgs(sc)
		defer pg.Close()
		c := &ScenarioCall{}
		watched := watchedFields[field]
		a, _ := p.Base().Action(sc.Action)
		element := a.Kind == receipt.KindElement
		if watched {
			if c.Before, c.DOMWitness, err = pg.StableWitness(false); err != nil {
				return broken(err)
			}
			if element {
				if err := pg.WatchStage6(); err != nil {
					return broken(err)
				}
			}
		}
		c.Runs = pg.Around(func() { c.Receipt, c.ByRuntime = pg.DoAnswered(sc.Action, args) })
		if watched {
			if element {
				if c.Stage6, err = pg.ReadStage6(); err != nil {
					return broken(err)
				}
			}
			if err := pg.WaitQuiet(); err != nil {
				return broken(err)
			}
			if c.Settled, err = pg.Witness(false); err != nil {
				return broken(err)
			}
		}
		return result{c: c}, nil
	})
	res := v.(result)
	return res.c, res.o
}

// ScenarioArgs is what a call the manifest names is made with: its args,
// else what the suite calls the action with elsewhere (the manifest's args
// for it, else built from its params), else none.
func (p *Probe) ScenarioArgs(sc manifest.Scenario) any {
	if sc.Args != nil {
		return sc.Args
	}
	a, _ := p.Base().Action(sc.Action)
	a.ID = sc.Action
	if v, err := p.ValidArgs(a, ""); err == nil {
		return v
	}
	return nil
}

// ScenarioExpectTimeout shortens the wait for an expectation the manifest
// says will fail; a runtime that ignores the option waits its own default.
const ScenarioExpectTimeout = 400 * time.Millisecond

// Reveal makes the call of a manifest reveals entry, approved, on the page
// it names, with the stage-6 watcher installed, once per run and
// transport: reveal.second-check judges its code, changed.window its
// window, fidelity.assigned the fidelity it resolved.
func (p *Probe) Reveal(sc manifest.Scenario) (*Exercised, error) {
	v, err := p.memoOwn(fmt.Sprintf("%s|reveal|%s|%s", p.Transport, sc.Action, sc.URL), func(q *Probe) (any, error) {
		a, _ := p.Base().Action(sc.Action)
		a.ID = sc.Action
		args := p.ScenarioArgs(sc)
		pg, err := q.Open(sc.URL, glasstest.Approve())
		if err != nil {
			return nil, err
		}
		before, dom, err := pg.StableWitness(false)
		if err != nil {
			return nil, err
		}
		if err := pg.WatchStage6(); err != nil {
			return nil, err
		}
		r, byRuntime := pg.DoAnswered(sc.Action, args)
		e := &Exercised{Action: a, Args: args, Receipt: r, ByRuntime: byRuntime, Before: before, DOMWitness: dom}
		if e.After, err = pg.Witness(false); err != nil {
			return nil, err
		}
		if e.Stage6, err = pg.ReadStage6(); err != nil {
			return nil, err
		}
		return e, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*Exercised), nil
}
