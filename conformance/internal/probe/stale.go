package probe

import (
	"fmt"

	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

// The stale-revision probe varies what a guarded call names and what it
// passes as options.expectedRevision (CONTRACT.md §2.10, §6.1): a stale
// revision fails STALE_REVISION before stage 1, whatever the call names —
// an undeclared id, a step-only or unavailable action, malformed
// arguments; a null expectedRevision makes the call unguarded, and so
// does the current revision; one that is not a non-negative integer fails
// INVALID_ARGS at preflight. All its calls are made on one page whose
// confirmations are denied, so nothing they reach runs.

// StaleCall is one call of the stale-revision probe.
type StaleCall struct {
	What string
	// Want is the code the call must end with.
	Want receipt.Code
	// Expected is the stale revision the call passed (STALE_REVISION
	// only), Current the page's revision then.
	Expected, Current int64
	Receipt           *receipt.Receipt
}

// StaleProbe is the stale-revision probe's calls, and those it could not
// make.
type StaleProbe struct {
	Calls     []StaleCall
	NotProbed []string
}

// Stale makes the stale-revision probe, once per run and transport.
func (p *Probe) Stale() (*StaleProbe, error) {
	v, err := p.memoOwn(string(p.Transport)+"|stale", func(q *Probe) (any, error) { return q.stale() })
	if err != nil {
		return nil, err
	}
	return v.(*StaleProbe), nil
}

func (p *Probe) stale() (*StaleProbe, error) {
	out := &StaleProbe{}
	pg, err := p.Open("", glasstest.Deny())
	if err != nil {
		return nil, err
	}
	type target struct {
		what string
		id   string
		args any
	}
	var targets []target
	var unguarded *target
	if c, why := PlanUnknown(p); c != nil {
		id := c.Undeclared
		t := target{"the undeclared id " + id, id, map[string]any{}}
		targets = append(targets, t)
		unguarded = &t
	} else {
		out.NotProbed = append(out.NotProbed, "an undeclared id: "+why)
	}
	for _, a := range p.Base().Actions.Items {
		if a.StepOnly {
			if p.Transport == glasstest.TransportWebMCP {
				out.NotProbed = append(out.NotProbed, "the step-only "+a.ID+": it has no WebMCP tool")
			} else {
				targets = append(targets, target{"the step-only action " + a.ID, a.ID, map[string]any{}})
			}
			break
		}
	}
	for _, a := range p.Base().Actions.Items {
		if !a.Available && !a.StepOnly && a.Kind != receipt.KindHandoff {
			if args, err := p.ValidArgs(a, ""); err == nil {
				targets = append(targets, target{"the unavailable action " + a.ID, a.ID, args})
				break
			}
		}
	}
	if c := p.Candidates(); len(c) > 0 && p.Transport == glasstest.TransportBridge {
		targets = append(targets, target{"malformed arguments to " + c[0].ID, c[0].ID, `{"unterminated`})
	}
	if unguarded == nil {
		for _, a := range p.Candidates() {
			if args, err := p.ValidArgs(a, ""); err == nil && NeedsConfirmation(a) {
				t := target{"the action " + a.ID + " (its confirmation denied)", a.ID, args}
				unguarded = &t
				break
			}
		}
	}
	call := func(t target, what string, expected any, want receipt.Code) error {
		snap, err := pg.Snapshot()
		if err != nil {
			return err
		}
		options := map[string]any{"executionId": "glass-probe-stale-" + fmt.Sprint(len(out.Calls)+1)}
		if expected == "current" {
			expected = snap.Revision
		}
		if expected == "stale" {
			expected = snap.Revision + 1
		}
		if expected == "zero" {
			if snap.Revision == 0 {
				return nil // the page is at 0: nothing stale to ask for
			}
			expected = int64(0)
		}
		options["expectedRevision"] = expected
		r, err := pg.Raw(t.id, t.args, options, snap)
		if err != nil {
			out.NotProbed = append(out.NotProbed, what+": "+FirstLine(err.Error()))
			return nil
		}
		c := StaleCall{What: what, Want: want, Receipt: r, Current: snap.Revision}
		if n, ok := expected.(int64); ok && want == receipt.CodeStaleRevision {
			c.Expected = n
		}
		out.Calls = append(out.Calls, c)
		return nil
	}
	for _, t := range targets {
		if err := call(t, "a stale expected revision on a call of "+t.what, "stale", receipt.CodeStaleRevision); err != nil {
			return nil, err
		}
	}
	if unguarded != nil {
		// 0 is a revision like any other: a page that moved on from it
		// refuses a call that expects it.
		if err := call(*unguarded, "expectedRevision 0, on a page past revision 0, on a call of "+unguarded.what, "zero", receipt.CodeStaleRevision); err != nil {
			return nil, err
		}
	}
	if unguarded == nil {
		out.NotProbed = append(out.NotProbed, "the options of an unguarded call: no undeclared id can be called, and no action that needs confirmation")
		return out, nil
	}
	want := receipt.CodeActionNotFound
	if _, declared := p.Base().Action(unguarded.id); unguarded.id != "" && declared {
		want = receipt.CodePermissionDenied
	}
	for _, v := range []struct {
		what     string
		expected any
		want     receipt.Code
	}{
		{"expectedRevision null (an unguarded call)", nil, want},
		{"expectedRevision equal to the page's revision", "current", want},
		{`expectedRevision "0", a string`, "0", receipt.CodeInvalidArgs},
		{"expectedRevision 1.5", 1.5, receipt.CodeInvalidArgs},
		{"expectedRevision -1", -1, receipt.CodeInvalidArgs},
	} {
		if err := call(*unguarded, v.what+" on a call of "+unguarded.what, v.expected, v.want); err != nil {
			return nil, err
		}
	}
	return out, nil
}
