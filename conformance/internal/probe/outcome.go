package probe

import (
	"errors"
	"fmt"

	"github.com/glassworks/glass/conformance/internal/report"
)

// Safely runs a check; a panic in a check is a Glass bug, reported as a
// failure of the rule rather than as a pass or a crash of the run.
func (p *Probe) Safely(run func(*Probe) Outcome) (o Outcome) {
	defer func() {
		if v := recover(); v != nil {
			o = Outcome{Verdict: report.Fail, Message: fmt.Sprintf("the check itself failed (a Glass bug): %v", v)}
		}
	}()
	return run(p)
}

// Outcome is what a check returns: a verdict, one sentence, and evidence.
type Outcome struct {
	Verdict  report.Verdict
	Message  string
	Evidence []report.Evidence
}

// Pass is the outcome of a rule that holds.
func Pass() Outcome { return Outcome{Verdict: report.Pass} }

// Failf is the outcome of a broken rule: one sentence that says why.
func Failf(format string, args ...any) Outcome {
	return Outcome{Verdict: report.Fail, Message: fmt.Sprintf(format, args...)}
}

// NotProbed is the outcome of a rule the probes could not reach, with the
// reason: never a pass.
func NotProbed(reason string) Outcome {
	return Outcome{Verdict: report.NotProbed, Message: reason}
}

// Broken reports a probe that could not run at all (the page did not open,
// the browser went away). It fails the rule: a gate must not turn green
// because it could not look. A probe stopped by a call of the page's that
// loaded a new document (*NavigatedError) is not probed instead: the
// call's PAGE_NAVIGATED is the page's own outcome, which the run's
// findings report, not a failure of the probe.
func Broken(err error) Outcome {
	var nav *NavigatedError
	if errors.As(err, &nav) {
		return NotProbed(nav.Error())
	}
	return Outcome{Verdict: report.Fail, Message: CouldNotRun + FirstLine(err.Error())}
}

// NavigatedError is what a probe's page gives once a call made on it ended
// PAGE_NAVIGATED, written by the host: the call loaded a new document (a
// form submitted, a link followed), so the page the probe was judging is
// gone, and nothing the probe reads after it would be about that call.
type NavigatedError struct {
	// Action is the id the call named.
	Action string
}

func (e *NavigatedError) Error() string {
	if e.Action == noCall {
		return "the page loaded a new document by itself (a redirect, a script that set location) before any call of the probe, so the probe could not judge the page it opened"
	}
	return fmt.Sprintf("a call of %s loaded a new document (PAGE_NAVIGATED: a form submitted or a link followed), so the probe could not judge the page it was called on; "+
		"an action must end on the page it was called on (docs/troubleshooting.md, \"A call fails PAGE_NAVIGATED\")", report.Clip(e.Action, 80))
}

// CouldNotRun starts the message of a probe that could not run.
const CouldNotRun = "the probe could not run: "

// With adds evidence to o.
func (o Outcome) With(ev ...report.Evidence) Outcome {
	o.Evidence = append(o.Evidence, ev...)
	return o
}
