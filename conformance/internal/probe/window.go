package probe

import (
	"fmt"

	"github.com/glassworks/glass/conformance/internal/judge"
	"github.com/glassworks/glass/receipt"
)

// A runtime takes its before snapshot after stage 5, immediately before
// stage 6 (CONTRACT.md §2.9). The harness takes its own before the call,
// so the two differ by what stage 5 did: revealing the target may render
// records (a closed panel opened, a lazy list scrolled), which a correct
// receipt does not report as the call's. Window finds the runtime's before
// window for an exercised call, so that changed.records, changed.parts,
// changed.bounded and verify.settle judge the same window changed.window
// does:
//
//   - the harness's own before snapshot, when the receipt agrees with it;
//   - else, for an element action started by an input event, the
//     runtime's snapshot when that event fired (the stage-6 watcher);
//   - else, for an element action, each state the page model went through
//     during a second call of the action (the timeline watcher).
//
// A window other than the harness's is taken only when it differs from
// the harness's before snapshot by records added and nothing else (and
// the row actions those records declare): what revealing a target may
// render, and all it may change (pipeline.no-effect-before-dispatch). A
// runtime that takes its before snapshot after its handler ran is
// therefore not excused by a window that holds the handler's other
// effects, and changed.window holds it to the moment execution started.

// Window is the before window an exercised call is judged from.
type Window struct {
	// E is the call judged: the exercised call, or the second call whose
	// timeline held the window.
	E *Exercised
	// Before is the page model the receipt's changed starts from.
	Before *receipt.Snapshot
	// Note says which window it is, for evidence.
	Note string
	// Early lists how the page model had already changed from the
	// harness's snapshot before the call when execution started (the
	// call's first input event), other than by records a reveal rendered:
	// effects of stages 1–5, which §2.1 does not allow (a reveal that
	// changes state or navigates). Empty when it had not, or when no
	// input event was seen.
	Early []string
}

// Cause is what a check adds to a violation judged from w: when the page
// model had already changed before execution started, that change, which
// the receipt rightly leaves out of its window, is the likelier cause.
func (w Window) Cause() string {
	if len(w.Early) == 0 {
		return ""
	}
	return fmt.Sprintf(" (but the page model had already changed when execution started, before the first input event of the call: %s; stages 1–5 may only scroll and render records, CONTRACT.md §2.1: does the action's reveal change state or navigate? Open the panel or route in a flow's first step instead)", w.Early[0])
}

// Window returns the before window of e (see above), once per run and
// transport.
func (p *Probe) Window(e *Exercised) (Window, error) {
	harness := Window{E: e, Before: e.Before.Snap, Note: "the harness's snapshot before the call"}
	if judge.ChangesProblem(e.Receipt, e.Before.Snap, e.After.Snap) == "" || e.Action.Kind != receipt.KindElement {
		return harness, nil
	}
	if s := e.Stage6.Snap; s != nil {
		// The runtime's before snapshot is taken immediately before stage
		// 6 (§2.9): when the page model at the first input event differs
		// from the harness's by what a reveal renders, that is the window,
		// whether or not the receipt agrees with it.
		if judge.RevealOnly(e.Before.Snap, s) {
			return Window{E: e, Before: s, Note: "the runtime's snapshot when execution started (the first input event of the call), which holds the records revealing the target rendered"}, nil
		}
		harness.Early = judge.ModelDiff(e.Before.Snap, s)
		return harness, nil
	}
	v, err := p.memoOwn(string(p.Transport)+"|window|"+e.Action.ID, func(q *Probe) (any, error) {
		pl := Planned{Action: e.Action, Secret: e.Secret}
		pl.Args, _ = e.Args.(map[string]any)
		again, err := q.exerciseOne(pl, true)
		if err != nil {
			return nil, err
		}
		if !again.ByRuntime || again.Timeline == nil {
			return harness, nil
		}
		if judge.ChangesProblem(again.Receipt, again.Before.Snap, again.After.Snap) == "" {
			return Window{E: again, Before: again.Before.Snap, Note: "the harness's snapshot before a second call of the action (the first disagreed with it)"}, nil
		}
		for i, s := range again.Timeline.States {
			if judge.RevealOnly(again.Before.Snap, s) && judge.ChangesProblem(again.Receipt, s, again.After.Snap) == "" {
				return Window{E: again, Before: s, Note: fmt.Sprintf("state %d of %d the page model went through during a second call of the action, which adds to the harness's snapshot before the call only records revealing the target rendered", i+1, len(again.Timeline.States))}, nil
			}
		}
		return harness, nil
	})
	if err != nil {
		return Window{}, err
	}
	return v.(Window), nil
}
