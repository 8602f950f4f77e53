package stages

import (
	"fmt"
	"time"

	"github.com/glassworks/glass/conformance/internal/judge"
	"github.com/glassworks/glass/conformance/internal/manifest"
	"github.com/glassworks/glass/conformance/internal/probe"
	"github.com/glassworks/glass/conformance/internal/report"
	"github.com/glassworks/glass/conformance/internal/slow"
	"github.com/glassworks/glass/conformance/internal/userstep"
	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

// A hand-off the manifest names with the user's steps (handoffs, outcome
// completed, user): the probe plays the user — it does the steps on the
// page with real input, then the host answers completed — while the page's
// server answers every fetch and XMLHttpRequest slow.Response late.
// Work the user's step started through the server (a code sent for
// checking) is then still under way when the answer reaches the runtime,
// so a runtime that looks at the hand-off's check once, instead of polling
// it until it comes true or its timeout passes, fails the step the user
// did.

// userHandoffTimeout is the options.handoffTimeoutMs of a call whose user
// steps the probe does: room for the steps, which together have
// userStepsBudget, each at most userStepTimeout.
const (
	userHandoffTimeout = 30 * time.Second
	userStepsBudget    = 20 * time.Second
	userStepTimeout    = 5 * time.Second
	// userExpectTimeout is the expectTimeoutMs the call is made with: the
	// hand-off's check must come true within it once the host answered.
	userExpectTimeout = 6 * time.Second
)

// userCall is one call of a hand-off whose user steps the probe did.
type userCall struct {
	*probe.Watched
	// stepErr is why a user step could not be done: the manifest's
	// steps do not fit the page, and nothing is judged.
	stepErr  error
	requests int
	handoffs []glasstest.HandoffRecord
	// afterAnswer is how long the call took once the host answered
	// (0 when it never did).
	afterAnswer time.Duration
}

// userDone is what the probe's user did: why a step failed, and when
// the host answered.
type userDone struct {
	err      error
	answered time.Time
}

func (h handoffTarget) steps() string {
	s := ""
	for i, u := range h.user {
		if i > 0 {
			s += ", "
		}
		s += u.String()
	}
	return s
}

// userHandoff makes h's call, does the user's steps when the runtime
// asks, and answers status once they are done.
func userHandoff(p *probe.Probe, h handoffTarget, status glasstest.HandoffOutcome) (*userCall, error) {
	v, err := p.Memo(fmt.Sprintf("%s|handoff-user|%s|%s|%s|%s|%s", p.Transport, h.action.ID, h.url, h.steps(), judge.JSONText(h.args), status), func() (any, error) {
		q := p.Sibling(p.Transport)
		defer q.Close()
		// The handler runs on Playwright's goroutine: it reports on a
		// channel, read once the call ended.
		done := make(chan userDone, 1)
		user := func(hf *glasstest.Handoff) glasstest.HandoffOutcome {
			err := doUserSteps(hf, h.user)
			done <- userDone{err: err, answered: time.Now()}
			if err != nil {
				return glasstest.HandoffFailed
			}
			return status
		}
		pg, err := q.Open(h.url, glasstest.Deny(), glasstest.ExpectTimeout(userExpectTimeout), glasstest.HandoffTimeout(userHandoffTimeout), glasstest.HandoffWith(user),
			glasstest.Timeout(userHandoffTimeout+userExpectTimeout+q.CallTimeout()))
		if err != nil {
			return nil, err
		}
		requests, err := slow.Server(pg)
		if err != nil {
			return nil, err
		}
		before, dom, err := pg.StableWitness(false)
		if err != nil {
			return nil, err
		}
		r := pg.Do(h.action.ID, h.args)
		ended := time.Now()
		c := &userCall{requests: int(requests.Load())}
		select {
		case d := <-done:
			c.stepErr = d.err
			c.afterAnswer = ended.Sub(d.answered)
		case <-time.After(userStepTimeout):
			// The call ended while the steps went on (the runtime's own
			// wait ran out): the host never answered it.
		}
		after, err := pg.Witness(false)
		if err != nil {
			return nil, err
		}
		c.Watched = &probe.Watched{Page: pg, Receipt: r, Before: before, After: after, DOMWitness: dom}
		c.handoffs = pg.Harness.Handoffs()
		return c, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*userCall), nil
}

// doUserSteps does the manifest's user steps on the hand-off's page, each
// bounded, all within userStepsBudget, and none once the runtime's wait
// for the user ran out.
func doUserSteps(hf *glasstest.Handoff, steps []manifest.UserStep) error {
	pg := hf.Page()
	deadline := time.Now().Add(userStepsBudget)
	for i, u := range steps {
		left := time.Until(deadline)
		select {
		case <-hf.Expired():
			return fmt.Errorf("user step %d (%s): the runtime's wait for the user ran out first", i+1, u)
		default:
		}
		if left <= 0 {
			return fmt.Errorf("user step %d (%s): the steps took more than %s together", i+1, u, userStepsBudget)
		}
		if err := userstep.Do(pg, u, min(left, userStepTimeout)); err != nil {
			return fmt.Errorf("user step %d (%s): %s", i+1, u, probe.FirstLine(err.Error()))
		}
	}
	return nil
}

// userHandoffOutcome judges the hand-offs the manifest names with the
// user's steps: the user did the step and the host answered completed,
// so the call must succeed — once the check it declares comes true, which
// the slow server delays. Nil, with what was judged, when every one did;
// a not-probed outcome when a step could not be done, or when the runtime
// polled the check for its whole timeout and it never came true (the
// steps did not complete it).
func userHandoffOutcome(p *probe.Probe, hs []handoffTarget) (*probe.Outcome, []string, error) {
	var judged []string
	for _, h := range hs {
		c, err := userHandoff(p, h, glasstest.HandoffCompleted)
		if err != nil {
			return nil, nil, err
		}
		what := fmt.Sprintf("%s: the user did the step (%s) and the host answered completed", h.where(), h.steps())
		if c.stepErr != nil {
			o := probe.NotProbed(fmt.Sprintf("%s: the manifest's %v, so the hand-off answered completed could not be probed", h.where(), c.stepErr))
			return &o, nil, nil
		}
		if !c.Receipt.Result.OK {
			why := ""
			if h.action.Expect != "" && c.Receipt.Code() == receipt.CodeHandoffFailed && c.afterAnswer > 0 {
				if c.afterAnswer >= userExpectTimeout*4/5 {
					o := probe.NotProbed(fmt.Sprintf("%s, but its check (%s) did not come true within the %s the runtime polled it: the manifest's steps may not complete it", what, h.action.Expect, userExpectTimeout))
					return &o, nil, nil
				}
				why = fmt.Sprintf(" %s after the answer, before the %s expectTimeoutMs the host passed ran out: the runtime did not poll the check until it came true (the page's %d requests were answered %v late)",
					c.afterAnswer.Round(time.Millisecond), userExpectTimeout, c.requests, slow.Response)
			}
			o := probe.Failf("%s: want success, %s%s", what, report.Got(c.Receipt), why).With(report.ReceiptEvidence("receipt", c.Receipt), handoffEvidence(c.handoffs))
			return &o, nil, nil
		}
		judged = append(judged, what+" → success")
		// The same, answered with completed spelt another way: a status
		// that is none of the four fails, whatever the user did.
		c, err = userHandoff(p, h, glasstest.HandoffOutcome(nearHandoffStatus))
		if err != nil {
			return nil, nil, err
		}
		if c.stepErr != nil {
			continue
		}
		if c.Receipt.Code() != receipt.CodeHandoffFailed || c.Receipt.FailurePhase() != receipt.PhaseDispatch {
			o := probe.Failf("%s: the user did the step (%s) and the host answered %q, a status that is none of the four: want HANDOFF_FAILED at phase dispatch, %s", h.where(), h.steps(), nearHandoffStatus, report.Got(c.Receipt)).
				With(report.ReceiptEvidence("receipt", c.Receipt), handoffEvidence(c.handoffs))
			return &o, nil, nil
		}
		judged = append(judged, fmt.Sprintf("%s: the user did the step and the host answered %q → HANDOFF_FAILED", h.where(), nearHandoffStatus))
	}
	return nil, judged, nil
}

// HandoffDone is a successful call of a hand-off whose user steps the
// probe did (the manifest's handoffs with user).
type HandoffDone struct {
	Action  receipt.ActionInfo
	Where   string
	Receipt *receipt.Receipt
}

// HandoffsDone makes (once per run and transport) the calls of the
// manifest's hand-offs with user steps, and returns those that succeeded.
func HandoffsDone(p *probe.Probe) ([]HandoffDone, error) {
	var out []HandoffDone
	for _, h := range userTargets(p) {
		c, err := userHandoff(p, h, glasstest.HandoffCompleted)
		if err != nil {
			return nil, err
		}
		if c.stepErr == nil && c.Receipt.Result.OK {
			out = append(out, HandoffDone{Action: h.action, Where: h.where(), Receipt: c.Receipt})
		}
	}
	return out, nil
}
