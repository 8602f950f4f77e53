package stages

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/glassworks/glass/conformance/internal/probe"
	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

// The execution-id probe: on one page, calls whose executionId the
// runtime must mint itself (the harness passes none) and calls whose
// executionId the probe chooses — one of the contract's form, which the
// runtime must echo exactly, and one that is not, which it must replace
// with one of its own. Every call carries an expected revision the page
// is not at, so nothing runs.

// IDCall is one call of the execution-id probe and what is wrong with its
// executionId, if anything.
type IDCall struct {
	What    string
	Receipt *receipt.Receipt
	Problem string
}

// IDProbe is the execution-id probe's calls.
type IDProbe struct {
	Calls []IDCall
	// NotProbed says which calls could not be made.
	NotProbed string
}

var executionIDForm = regexp.MustCompile(receipt.ExecutionIDPattern)

// executionIDChars matches a text made only of the characters the form
// allows.
var executionIDChars = regexp.MustCompile(`^[A-Za-z0-9_.:-]*$`)

// The executionIds the probe passes: one of the form, with every kind of
// character the form allows and its full length, and one that is not of
// the form.
const (
	probeExecutionID   = "glass-probe.ID_0123456789:abcdefghijklmnopqrstuvwxyzABCDEFGHIJKL"
	invalidExecutionID = "glass probe/not an id"
	// tooLongExecutionID is of the form's characters, one past its length.
	tooLongExecutionID = probeExecutionID + "M"
)

// ExecutionIDProbe makes the execution-id probe, once per run and
// transport.
func ExecutionIDProbe(p *probe.Probe) (*IDProbe, error) {
	v, err := p.Memo(string(p.Transport)+"|execution-ids", func() (any, error) {
		q := p.Sibling(p.Transport)
		defer q.Close()
		return executionIDs(q)
	})
	if err != nil {
		return nil, err
	}
	return v.(*IDProbe), nil
}

func executionIDs(p *probe.Probe) (*IDProbe, error) {
	out := &IDProbe{}
	// The calls without an executionId go to up to three actions: the
	// first the probe can build arguments for, the first whose id has a
	// character the form does not allow (a per-row id's @), and the one
	// with the longest id — a runtime that builds its ids from the action
	// id shows it there.
	type call struct {
		a    receipt.ActionInfo
		args map[string]any
	}
	var targets []call
	var odd, long *call
	for _, a := range p.Candidates() {
		v, err := p.ValidArgs(a, "")
		if err != nil {
			continue
		}
		c := call{a, v}
		if len(targets) == 0 {
			targets = append(targets, c)
		}
		if odd == nil && !executionIDChars.MatchString(a.ID) {
			odd = &c
		}
		if long == nil || len(a.ID) > len(long.a.ID) {
			long = &c
		}
	}
	for _, c := range []*call{odd, long} {
		if c != nil && !slices.ContainsFunc(targets, func(t call) bool { return t.a.ID == c.a.ID }) {
			targets = append(targets, *c)
		}
	}
	if len(targets) == 0 {
		out.NotProbed = "the page declares no available action the probe can build arguments for"
		return out, nil
	}
	pg, err := p.Open("")
	if err != nil {
		return nil, err
	}
	snap, err := pg.Snapshot()
	if err != nil {
		return nil, err
	}
	stale := snap.Revision + 1000
	minted := map[string]int{}
	target, args := targets[0].a, targets[0].args
	for i := 1; i <= 3; i++ {
		t := targets[(i-1)%len(targets)]
		what := fmt.Sprintf("call %d (of %s) without options.executionId (guarded by a stale revision)", i, t.a.ID)
		r, byRuntime := pg.DoAnswered(t.a.ID, t.args, glasstest.WithoutExecutionID(), glasstest.ExpectedRevision(stale))
		// A receipt the decoder refused for its executionId (past 64
		// characters) is the runtime's id all the same.
		refused := r.Code() == receipt.CodeReceiptInvalid && r.Result.Error != nil && strings.Contains(r.Result.Error.Message, "$.executionId")
		if !byRuntime && !refused {
			continue
		}
		c := IDCall{What: what, Receipt: r}
		id := r.ExecutionID
		switch {
		case refused:
			c.Problem = "the host passed no executionId, and the runtime assigned one the decoder refuses: " + r.Result.Error.Message
		case !executionIDForm.MatchString(id):
			c.Problem = fmt.Sprintf("the host passed no executionId, and the runtime assigned %q, which does not match %s", id, receipt.ExecutionIDPattern)
		case minted[id] > 0:
			c.Problem = fmt.Sprintf("the host passed no executionId, and the runtime assigned %q, the id it assigned call %d on the same page", id, minted[id])
		}
		minted[id] = i
		out.Calls = append(out.Calls, c)
	}
	// Calls at once, some in the same millisecond: an id made from the
	// clock is not distinct.
	if all, err := pg.RawAtOnce(target.ID, args, map[string]any{"expectedRevision": stale}); err == nil {
		c := IDCall{What: fmt.Sprintf("%d calls of %s at once without options.executionId (guarded by a stale revision)", probe.AtOnce, target.ID), Receipt: all[0]}
		first := map[string]int{}
		for i, r := range all {
			if j, dup := first[r.ExecutionID]; dup && c.Problem == "" {
				c.Problem, c.Receipt = fmt.Sprintf("the host passed no executionId, and the runtime assigned calls %d and %d, made at once, the same id %q", j+1, i+1, r.ExecutionID), r
			}
			if _, seen := first[r.ExecutionID]; !seen {
				first[r.ExecutionID] = i
			}
		}
		out.Calls = append(out.Calls, c)
	}
	for _, given := range []string{probeExecutionID, invalidExecutionID, tooLongExecutionID, ""} {
		what := fmt.Sprintf("a call of %s with options.executionId %q", target.ID, given)
		r, err := pg.Raw(target.ID, args, map[string]any{"executionId": given, "expectedRevision": stale}, snap)
		if err != nil && given != probeExecutionID && strings.Contains(err.Error(), "executionId") {
			// The decoder refused the receipt's executionId: the runtime
			// kept the host's, which is not of the form.
			out.Calls = append(out.Calls, IDCall{What: what, Receipt: &receipt.Receipt{},
				Problem: fmt.Sprintf("the host passed executionId %q, which is not of the form %s, and the runtime's receipt carries an executionId the decoder refuses (%s): the runtime must assign one of that form", given, receipt.ExecutionIDPattern, probe.FirstLine(err.Error()))})
			continue
		}
		if err != nil {
			out.NotProbed = fmt.Sprintf("a call with an executionId of the probe's choosing: %s", probe.FirstLine(err.Error()))
			break
		}
		c := IDCall{What: what, Receipt: r}
		switch {
		case given == probeExecutionID && r.ExecutionID != given:
			c.Problem = fmt.Sprintf("the host passed executionId %q, of the contract's form, but the receipt carries %q", given, r.ExecutionID)
		case given != probeExecutionID && (r.ExecutionID == given || !executionIDForm.MatchString(r.ExecutionID)):
			c.Problem = fmt.Sprintf("the host passed executionId %q, which is not of the form %s, and the receipt carries %q: the runtime must assign one of that form", given, receipt.ExecutionIDPattern, r.ExecutionID)
		}
		out.Calls = append(out.Calls, c)
	}
	return out, nil
}
