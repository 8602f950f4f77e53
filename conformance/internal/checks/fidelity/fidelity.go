// Package fidelity holds the checks of the fidelity an element action's
// call reports: that a receipt carries it exactly when it is not high,
// that high and auto mean the page's own handler ran, and that low comes
// with a warning.
package fidelity

import (
	"fmt"
	"strings"

	"github.com/glassworks/glass/conformance/internal/probe"
	"github.com/glassworks/glass/conformance/internal/report"
	"github.com/glassworks/glass/receipt"
)

// Reported: a successful receipt of an element action carries the
// fidelity the snapshot gives it exactly when that is not high, one of
// any other kind carries none, and (on a page that counts its handlers)
// high or auto means the page's handler for the control ran.
func Reported(p *probe.Probe) probe.Outcome {
	o, n := p.JudgeEach(probe.AnyAction, func(e *probe.Exercised) (bool, string) {
		if !e.Receipt.Result.OK {
			return false, ""
		}
		got := e.Receipt.Result.Fidelity
		if e.Action.Kind != receipt.KindElement {
			if got != "" {
				return true, fmt.Sprintf("the receipt of an action of kind %s carries fidelity %q", e.Action.Kind, got)
			}
			return true, ""
		}
		// An action whose target was not in the page at load gets its
		// fidelity when the call resolves the target (fidelity.assigned):
		// the snapshot after the call tells it.
		shown := e.Action.Fidelity
		if shown == "" {
			if a, ok := e.After.Snap.Action(e.Action.ID); ok {
				shown = a.Fidelity
			}
		}
		if shown == "" {
			return false, "" // no snapshot tells the fidelity: fidelity.assigned's concern
		}
		want := shown
		if want == receipt.FidelityHigh {
			want = ""
		}
		if got != want {
			return true, fmt.Sprintf("the snapshot gives the element action fidelity %q, the receipt reports %q (want it exactly when not high)", shown, got)
		}
		if pr := handlerNotRun(e, shown); pr != "" {
			return true, pr
		}
		return true, ""
	})
	return p.Judged(o, n, "no action could be called successfully")
}

// handlerNotRun says why a successful call of fidelity high or auto did
// not run the page's handler for its control, on a page that counts the
// action's handler from zero (its id is in globalThis.glassHandlerRuns
// before the call): high and auto promise that the application saw the
// input, low does not.
func handlerNotRun(e *probe.Exercised, fidelity receipt.Fidelity) string {
	if fidelity == receipt.FidelityLow || e.Runs.Err != nil || e.Runs.Before == nil || e.Runs.After == nil {
		return ""
	}
	before, counted := e.Runs.Before[e.Action.ID]
	if !counted || e.Runs.After[e.Action.ID] > before {
		return ""
	}
	if args, ok := e.Args.(map[string]any); ok && !observed(e.Receipt) {
		if _, value := args["value"]; value {
			// A control given the value it already had: a browser fires
			// no change event then, and a runtime may do as it does.
			return ""
		}
	}
	return fmt.Sprintf("the receipt reports success at fidelity %s, but the page's handler for the control did not run (globalThis.glassHandlerRuns[%q] stayed at %v): the path that ran is not one the application saw", fidelity, e.Action.ID, before)
}

// lowStateTries bounds the writes of the run tried before a low-fidelity
// action, to find a state in which its call changes something.
const lowStateTries = 3

// LowWarning: a successful call of a low-fidelity element action
// carries a warning, whether or not the page visibly changed (the warning
// says the application may not have seen the input; a visible change does
// not prove it did). The exercise's call is judged, then the action is
// called in the other state: when the exercise's call changed nothing,
// after a write of the run that changed something (a toast to dismiss, a
// row to act on), and when it changed something, a second time in a row
// on one page (the same input again usually changes nothing). A runtime
// that warns in only one of the two states is caught on a page that can
// show both.
func LowWarning(p *probe.Probe) probe.Outcome {
	low := func(a receipt.ActionInfo) bool {
		return a.Kind == receipt.KindElement && a.Fidelity == receipt.FidelityLow
	}
	var calls []*probe.Exercised
	o, n := p.JudgeEach(low, func(e *probe.Exercised) (bool, string) {
		if !e.Receipt.Result.OK {
			return false, ""
		}
		calls = append(calls, e)
		return true, lowWarningProblem(e.Receipt, "")
	})
	if o != nil || n == 0 {
		return p.Judged(o, n, "the page declares no element action of fidelity low that the probe can call")
	}
	var judged []string
	for _, e := range calls {
		r, how, err := lowInOtherState(p, e)
		if err != nil {
			return probe.Broken(err)
		}
		if r == nil {
			judged = append(judged, fmt.Sprintf("%s: only a call that %s (%s)", e.Action.ID, changedWord(e.Receipt), how))
			continue
		}
		if pr := lowWarningProblem(r, how); pr != "" {
			return probe.Failf("%s: %s", e.Action.ID, pr).With(report.ReceiptEvidence("receipt", r), report.ReceiptEvidence("receipt of the exercise's call, which "+changedWord(e.Receipt), e.Receipt))
		}
		judged = append(judged, fmt.Sprintf("%s: a call that changed something and one that changed nothing", e.Action.ID))
	}
	return probe.Pass().With(report.TextEvidence("calls judged", judged...))
}

func lowWarningProblem(r *receipt.Receipt, how string) string {
	if strings.TrimSpace(r.Result.Warning) != "" {
		return ""
	}
	msg := "a successful call of a low-fidelity element action carries no warning"
	if how != "" {
		msg += " when it " + changedWord(r) + " (" + how + ")"
	}
	return msg
}

func changedWord(r *receipt.Receipt) string {
	if observed(r) {
		return "changed something"
	}
	return "changed nothing"
}

func observed(r *receipt.Receipt) bool {
	return r.Result.Changed != nil && r.Result.Changed.Observed
}

// lowInOtherState calls e's action where its call ends the other way
// round than the exercise's (changed something, or nothing): the
// successful receipt of that call, or nil when no state tried showed it,
// with what was tried.
func lowInOtherState(p *probe.Probe, e *probe.Exercised) (*receipt.Receipt, string, error) {
	if observed(e.Receipt) {
		pg, err := p.OpenApproved(e.Secret)
		if err != nil {
			return nil, "", err
		}
		defer pg.Close()
		how := "called twice in a row on one page; the second call"
		if first := pg.Do(e.Action.ID, e.Args); !first.Result.OK {
			return nil, how + " was not made: the first " + report.Got(first), nil
		}
		if r := pg.Do(e.Action.ID, e.Args); r.Result.OK && !observed(r) {
			return r, how, nil
		}
		return nil, how + " changed something too, or failed", nil
	}
	var writes []probe.Planned
	err := p.Each(probe.IsWrite, func(w *probe.Exercised) bool {
		if w.Receipt.Result.OK && observed(w.Receipt) && w.Action.ID != e.Action.ID {
			args, _ := w.Args.(map[string]any)
			writes = append(writes, probe.Planned{Action: w.Action, Args: args, Secret: w.Secret})
		}
		return len(writes) < lowStateTries
	})
	if err != nil {
		return nil, "", err
	}
	var tried []string
	for _, w := range writes {
		secret := w.Secret
		if secret == "" {
			secret = e.Secret
		}
		r, err := lowAfter(p, w, e, secret)
		if err != nil {
			return nil, "", err
		}
		if r != nil && r.Result.OK && observed(r) {
			return r, "called after " + w.Action.ID, nil
		}
		tried = append(tried, w.Action.ID)
	}
	if len(tried) == 0 {
		return nil, "no write of the run changed the page, to call it after", nil
	}
	return nil, "called after " + strings.Join(tried, ", ") + ", it changed nothing either", nil
}

func lowAfter(p *probe.Probe, w probe.Planned, e *probe.Exercised, secret string) (*receipt.Receipt, error) {
	pg, err := p.OpenApproved(secret)
	if err != nil {
		return nil, err
	}
	defer pg.Close()
	if first := pg.Do(w.Action.ID, w.Args); !first.Result.OK || !observed(first) {
		return nil, nil
	}
	return pg.Do(e.Action.ID, e.Args), nil
}
