package probe

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/glassworks/glass/conformance/internal/judge"
	"github.com/glassworks/glass/conformance/internal/params"
	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/internal/scrub"
	"github.com/glassworks/glass/receipt"
)

// The echo probe passes a sensitive value through every string parameter
// of every action (CONTRACT.md §2.3: a {"$sensitive": name} placeholder
// may stand for any string): the runtime restores it, the page shows it,
// echoes it into feedback or returns it as data — and wherever the value
// would appear in a receipt, a snapshot, a confirmation request or a
// hand-off request, the runtime must write "[sensitive]"
// (sensitive.never-echoed). Each call is made on a fresh page, approved,
// with the host answering a hand-off cancelled (and the first whose value
// the page showed, masked, once more, twice on one page: echoTwice); the
// value is looked for in every spelling internal/scrub knows, in the
// runtime's own documents (the host masks what it records, and says when
// it had to).

// EchoCall is one call of the echo probe and where the value showed.
type EchoCall struct {
	Action receipt.ActionInfo
	// Params are the string parameters that carried the value.
	Params  []string
	Receipt *receipt.Receipt
	// ByRuntime is false when the harness wrote the receipt.
	ByRuntime bool
	// Leak says where the value showed, or "".
	Leak     string
	Evidence string
	// shown is true when the snapshot after the call shows the value
	// masked: the page shows what the call passed.
	shown bool
}

// echoMember is the member the echo probe adds to the arguments of an
// action that asks first and allows members it does not declare.
const echoMember = "glassEcho"

// echoPlan is one call of the echo probe: the action, and its arguments
// with the placeholder in every string parameter that can hold it.
type echoPlan struct {
	action receipt.ActionInfo
	args   map[string]any
	params []string
}

// planEcho lists the echo calls: for each declared action with a string
// parameter (step-only ones aside: a direct call never restores anything,
// and a hand-off or a flow is called like any other), valid arguments with
// the placeholder in every free string parameter; an action whose string
// parameters are all enums gets the placeholder in each of them instead,
// a call validation must refuse.
func (p *Probe) planEcho() (calls []echoPlan, notes []string) {
	extraTools := map[string]bool{}
	for _, a := range p.Base().Actions.Items {
		if a.StepOnly || p.Manifest().Skips(a.ID) {
			continue
		}
		s, err := params.ParseSchema(a.Params)
		if err != nil {
			continue
		}
		// An action that asks first and takes members its schema does
		// not declare gets the value in one more: the runtime restores a
		// placeholder wherever it is, and the confirmation request shows
		// the arguments (CONTRACT.md §2.3, §6.3).
		extra := NeedsConfirmation(a) && a.Available && string(s.AdditionalProperties) != "false" && s.Properties[echoMember] == nil
		if len(s.Properties) == 0 && !extra {
			continue
		}
		if extra && len(s.Properties) == 0 && a.Tool != "" {
			if extraTools[a.Tool] {
				continue // one row of a tool is enough
			}
			extraTools[a.Tool] = true
		}
		var free, enums []string
		for _, k := range slices.Sorted(maps.Keys(s.Properties)) {
			prop := s.Properties[k]
			if prop == nil || !prop.HasType("string") {
				continue
			}
			if len(prop.Enum) > 0 {
				enums = append(enums, k)
			} else {
				free = append(free, k)
			}
		}
		if len(free)+len(enums) == 0 && !extra {
			continue
		}
		args, err := p.ValidArgs(a, "")
		if err != nil {
			notes = append(notes, fmt.Sprintf("%s: %v", a.ID, err))
			continue
		}
		pl := echoPlan{action: a, args: args, params: free}
		if len(free) == 0 || !a.Available {
			// Refused either way (by validation, or at stage 5): the value
			// goes in every string parameter.
			pl.params = append(free, enums...)
		}
		if extra {
			pl.params = append(pl.params, echoMember)
		}
		for _, k := range pl.params {
			pl.args[k] = glasstest.SensitiveRef(params.SensitiveRef)
		}
		calls = append(calls, pl)
	}
	return calls, notes
}

// Echo makes the echo probe's calls, once per run and transport.
func (p *Probe) Echo() ([]EchoCall, []string, error) {
	type result struct {
		calls []EchoCall
		notes []string
	}
	v, err := p.s.memo(string(p.Transport)+"|echo", func() (any, error) {
		q := &Probe{s: p.s, Transport: p.Transport}
		defer q.Close()
		plans, notes := q.planEcho()
		var out []EchoCall
		twice := false
		for _, pl := range plans {
			c, err := q.echoOne(pl)
			if err != nil {
				return nil, err
			}
			out = append(out, c)
			// The first action whose value the page showed (masked) is
			// called twice more on one page, each call with a value of its
			// own.
			if !twice && c.shown && c.Receipt.Result.OK {
				twice = true
				if c, err = q.echoTwice(pl); err != nil {
					return nil, err
				}
				out = append(out, c)
			}
		}
		return result{out, notes}, nil
	})
	if err != nil {
		return nil, nil, err
	}
	r := v.(result)
	return r.calls, r.notes, nil
}

func (p *Probe) echoOne(pl echoPlan) (EchoCall, error) {
	secret := p.s.secrets.fresh()
	set := scrub.New(secret)
	pg, err := p.Open("", glasstest.Approve(), glasstest.Sensitive(params.SensitiveRef, secret),
		glasstest.HandoffWith(func(*glasstest.Handoff) glasstest.HandoffOutcome { return glasstest.HandoffCancelled }))
	if err != nil {
		return EchoCall{}, err
	}
	r, byRuntime := pg.DoAnswered(pl.action.ID, pl.args)
	c := EchoCall{Action: pl.action, Params: pl.params, Receipt: r, ByRuntime: byRuntime}
	leak := func(where string, v any) bool {
		b, _ := json.Marshal(v)
		if !set.Contains(b) {
			return false
		}
		c.Leak, c.Evidence = where, string(b)
		return true
	}
	if byRuntime {
		if rj, err := receipt.CanonicalJSON(r); err == nil && set.Contains(rj) {
			c.Leak, c.Evidence = "the receipt", string(rj)
			return c, nil
		}
	}
	for _, cr := range pg.Harness.Confirmations() {
		if cr.SensitiveMasked || leak("a confirmation request", cr.Request) {
			c.Leak = "a confirmation request (the host masked it)"
			c.Evidence = judge.JSONText(cr.Request)
			return c, nil
		}
	}
	for _, h := range pg.Harness.Handoffs() {
		if h.SensitiveMasked || leak("a hand-off request", h.Request) {
			c.Leak = "a hand-off request (the host masked it)"
			c.Evidence = judge.JSONText(h.Request)
			return c, nil
		}
	}
	sj, err := snapshotJSON(pg)
	if err != nil {
		return EchoCall{}, err
	}
	if set.Contains(sj) {
		c.Leak, c.Evidence = "the snapshot after the call", string(sj)
	} else {
		c.shown = bytes.Contains(sj, []byte(receipt.Masked))
	}
	return c, nil
}

// snapshotJSON is the page's snapshot now, as the runtime's JSON.
func snapshotJSON(pg *Page) ([]byte, error) {
	snap, err := pg.Harness.TrySnapshot()
	if err != nil {
		return nil, err
	}
	return receipt.CanonicalJSON(snap)
}

// echoTwice calls pl's action twice on one page, the second time with
// another value: the runtime masks a value from the call that restored it
// on (CONTRACT.md §6.3), so the first value must not show in the second
// call's receipt or in the snapshot after it, though the second call did
// not pass it.
func (p *Probe) echoTwice(pl echoPlan) (EchoCall, error) {
	first, second := p.s.secrets.fresh(), p.s.secrets.fresh()
	pg, err := p.Open("", glasstest.Approve(),
		glasstest.HandoffWith(func(*glasstest.Handoff) glasstest.HandoffOutcome { return glasstest.HandoffCancelled }))
	if err != nil {
		return EchoCall{}, err
	}
	pg.Do(pl.action.ID, pl.args, glasstest.Sensitive(params.SensitiveRef, first))
	r, byRuntime := pg.DoAnswered(pl.action.ID, pl.args, glasstest.Sensitive(params.SensitiveRef, second))
	c := EchoCall{Action: pl.action, Params: pl.params, Receipt: r, ByRuntime: byRuntime}
	set := scrub.New(first)
	if rj, err := receipt.CanonicalJSON(r); err == nil && byRuntime && set.Contains(rj) {
		c.Leak, c.Evidence = "the receipt of a second call with another value (the first call's value)", string(rj)
		return c, nil
	}
	sj, err := snapshotJSON(pg)
	if err != nil {
		return EchoCall{}, err
	}
	if set.Contains(sj) {
		c.Leak, c.Evidence = "the snapshot after a second call with another value (the first call's value)", string(sj)
	}
	return c, nil
}
