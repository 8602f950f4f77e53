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
	type result struct {
		r    *receipt.Receipt
		runs RunsAround
		o    *Outcome
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
		defer pg.Close()
		var res result
		res.runs = pg.Around(func() { res.r = pg.Do(sc.Action, args) })
		return res, nil
	})
	res := v.(result)
	return res.r, res.runs, res.o
}

// ScenarioExpectTimeout shortens the wait for an expectation the manifest
// says will fail; a runtime that ignores the option waits its own default.
const ScenarioExpectTimeout = 400 * time.Millisecond

// Reveal makes the call of a manifest reveals entry, approved, on the page
// it names, with the stage-6 watcher installed, once per run and
// transport: reveal.second-check judges its code, changed.window its
// window, fidelity.assigned the fidelity it resolved.
func (p *Probe) Reveal(sc manifest.Scenario) (*Exercised, error) {
	v, err := p.s.memo(fmt.Sprintf("%s|reveal|%s|%s", p.Transport, sc.Action, sc.URL), func() (any, error) {
		q := &Probe{s: p.s, Transport: p.Transport}
		defer q.Close()
		a, _ := p.Base().Action(sc.Action)
		a.ID = sc.Action
		var args any
		if sc.Args != nil {
			args = sc.Args
		} else if v, err := p.ValidArgs(a, ""); err == nil {
			args = v
		}
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
