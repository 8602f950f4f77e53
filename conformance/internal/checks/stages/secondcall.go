package stages

import (
	"encoding/json"
	"fmt"

	"github.com/glassworks/glass/conformance/internal/pagewatch"
	"github.com/glassworks/glass/conformance/internal/probe"
	"github.com/glassworks/glass/conformance/internal/report"
	"github.com/glassworks/glass/receipt"
)

// secondCallTries and secondCallsJudged bound how many element actions
// secondCalls calls twice, and how many second calls it judges.
const (
	secondCallTries   = 3 // not a contract bound
	secondCallsJudged = 2 // not a contract bound
)

// secondCalls judges reveal.second-check on any page: an element action
// whose exercise call succeeded is called twice on one fresh page. The
// first call may re-render its target (a row drawn again); the second
// must find the target as it is then. When the snapshot just before the
// second call declares the action available, and the element the first
// call's input reached is there again — the one element with its tag and
// identifying attributes, rendered, in the viewport, uncovered and
// enabled, before the call and after it — the second call may not fail
// ACTION_UNAVAILABLE: a runtime that does so checked a target of an
// earlier render (kept from the first call). A failure is made again on
// another fresh page before it is reported. It returns the violation, or
// what it judged.
func secondCalls(p *probe.Probe) (*probe.Outcome, []string) {
	plan, _ := p.ExercisePlan()
	// A row's action first: a call re-renders a row more often than a
	// toolbar.
	var calls []probe.Planned
	for _, rows := range []bool{true, false} {
		for _, pl := range plan {
			if (pl.Action.Record != "") == rows {
				calls = append(calls, pl)
			}
		}
	}
	var judged []string
	tried := 0
	for _, pl := range calls {
		if tried == secondCallTries || len(judged) == secondCallsJudged {
			break
		}
		if pl.Action.Kind != receipt.KindElement {
			continue
		}
		// Only an action whose exercise call reached an element with an
		// input event (stage 6) has a target the page can show again.
		e, err := p.Call(pl)
		if err != nil || !e.ByRuntime || !e.Receipt.Result.OK || e.Stage6.Tag == "" {
			continue
		}
		tried++
		first, err := secondCall(p, pl)
		if err != nil {
			o := probe.Broken(err)
			return &o, nil
		}
		if first.judged == "" {
			continue
		}
		if first.problem == "" {
			judged = append(judged, first.judged)
			continue
		}
		again, err := secondCall(p, pl)
		if err != nil {
			o := probe.Broken(err)
			return &o, nil
		}
		if again.problem == "" {
			judged = append(judged, first.judged+" (a second page: "+again.judged+")")
			continue
		}
		o := probe.Failf("%s: %s", pl.Action.ID, again.problem).With(report.ReceiptEvidence("the second call's receipt", again.second))
		return &o, nil
	}
	return nil, judged
}

// twice is what one secondCall saw: what it judged (empty: nothing, the
// second call had no target to judge), and the problem when the second
// call failed ACTION_UNAVAILABLE on a usable target.
type twice struct {
	judged, problem string
	second          *receipt.Receipt
}

// secondCall makes pl's call twice on one fresh page (secondCalls).
func secondCall(p *probe.Probe, pl probe.Planned) (twice, error) {
	q := p.Sibling(p.Transport)
	defer q.Close()
	pg, err := q.OpenApproved(pl.Secret)
	if err != nil {
		return twice{}, err
	}
	// Past the page's opening, a page that cannot be read (it navigated,
	// a read timed out) leaves the call unjudged.
	if _, err := pg.Evaluate(pagewatch.TargetWatch, nil); err != nil {
		return twice{}, nil
	}
	first, _ := pg.DoAnswered(pl.Action.ID, pl.Args)
	if !first.Result.OK {
		return twice{}, nil
	}
	var seen struct {
		Seen   bool   `json:"seen"`
		Sig    string `json:"sig"`
		Tag    string `json:"tag"`
		Unique bool   `json:"unique"`
	}
	v, err := pg.Evaluate(pagewatch.ReadTarget, nil)
	if err != nil {
		return twice{}, nil
	}
	if text, _ := v.(string); json.Unmarshal([]byte(text), &seen) != nil || !seen.Seen || seen.Sig == "" || !seen.Unique {
		return twice{}, nil // no input event, or an element nothing identifies
	}
	if err := pg.WaitQuiet(); err != nil {
		return twice{}, nil
	}
	usable := func() bool {
		snap, err := pg.Snapshot()
		if err != nil {
			return false
		}
		if a, ok := snap.Action(pl.Action.ID); !ok || !a.Available || a.StepOnly {
			return false
		}
		v, err := pg.Evaluate(pagewatch.TargetNow, []string{seen.Sig, seen.Tag})
		var now struct {
			Usable bool `json:"usable"`
		}
		text, _ := v.(string)
		return err == nil && json.Unmarshal([]byte(text), &now) == nil && now.Usable
	}
	if !usable() {
		return twice{}, nil
	}
	second, _ := pg.DoAnswered(pl.Action.ID, pl.Args)
	what := "called twice on one page: " + report.OutcomeCode(first) + ", then " + report.OutcomeCode(second)
	if second.Code() != receipt.CodeActionUnavailable {
		return twice{judged: pl.Action.ID + " " + what}, nil
	}
	if !usable() {
		// The target went away during the second call: nothing to judge.
		return twice{}, nil
	}
	reason := ""
	if second.Result.Error != nil {
		reason = second.Result.Error.Reason
	}
	return twice{judged: pl.Action.ID + " " + what, second: second, problem: fmt.Sprintf(
		"called twice on one fresh page, the first call succeeded and the second failed ACTION_UNAVAILABLE (%q), though the snapshots before and after it declared the action available and the <%s> the first call's input reached was there again, alone with its attributes, rendered, in the viewport, uncovered and enabled: the runtime checked a target of an earlier render (kept from the first call?), not the target as it is then", reason, seen.Tag)}, nil
}
