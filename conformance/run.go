package conformance

import (
	"errors"
	"fmt"
	"slices"

	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

// Verdict is the outcome of one rule.
type Verdict string

// The verdicts. A rule that could not be probed is never reported as passed.
const (
	Pass      Verdict = "pass"
	Fail      Verdict = "fail"
	NotProbed Verdict = "not-probed"
)

// Finding is the verdict on one rule with its evidence.
type Finding struct {
	Rule     Rule     `json:"rule"`
	Verdict  Verdict  `json:"verdict"`
	Message  string   `json:"message,omitempty"`
	Evidence []string `json:"evidence,omitempty"`
}

// Report is the outcome of a conformance run.
type Report struct {
	URL      string    `json:"url"`
	Findings []Finding `json:"findings"`
}

// Count returns how many findings have verdict v.
func (r *Report) Count(v Verdict) int {
	n := 0
	for _, f := range r.Findings {
		if f.Verdict == v {
			n++
		}
	}
	return n
}

// Target is what a run checks.
type Target struct {
	// URL is the page under test.
	URL string
	// Browser runs the probes. Each probe gets a fresh page.
	Browser *glasstest.Browser
}

// ErrSetup wraps failures that stop a run before any rule is checked: the
// page cannot be opened or has no runtime.
var ErrSetup = errors.New("conformance: set-up failed")

// Run checks every rule against t and returns one finding per rule. It
// returns an error only when the run cannot start.
func Run(t Target) (*Report, error) {
	e := &env{t: t}
	snap, err := e.snapshot()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrSetup, err)
	}
	e.snap = snap
	rep := &Report{URL: t.URL}
	for _, rule := range Catalog {
		check := checks[rule.ID]
		f := Finding{Rule: rule, Verdict: NotProbed, Message: "no check is registered for this rule"}
		if check != nil {
			f = check(e)
			f.Rule = rule
		}
		rep.Findings = append(rep.Findings, f)
	}
	return rep, nil
}

type env struct {
	t    Target
	snap *receipt.Snapshot
}

func (e *env) open(opts ...glasstest.Option) (*glasstest.Page, error) {
	return glasstest.OpenPage(e.t.Browser, e.t.URL, opts...)
}

func (e *env) snapshot() (*receipt.Snapshot, error) {
	p, err := e.open()
	if err != nil {
		return nil, err
	}
	defer p.Close()
	return p.TrySnapshot()
}

// confirmable returns the first available action that needs confirmation.
func (e *env) confirmable() (receipt.ActionInfo, bool) {
	for _, a := range e.snap.Actions.Items {
		if a.Confirm && a.Available {
			return a, true
		}
	}
	return receipt.ActionInfo{}, false
}

func pass() Finding { return Finding{Verdict: Pass} }

func fail(msg string, r *receipt.Receipt) Finding {
	f := Finding{Verdict: Fail, Message: msg}
	if r != nil {
		if b, err := receipt.CanonicalJSON(r); err == nil {
			f.Evidence = append(f.Evidence, string(b))
		}
	}
	return f
}

func notProbed(why string) Finding { return Finding{Verdict: NotProbed, Message: why} }

func harness(err error) Finding {
	return Finding{Verdict: Fail, Message: "the probe could not run: " + err.Error()}
}

// expectFailure checks that r failed with code at code's phase.
func expectFailure(r *receipt.Receipt, code receipt.Code) (Finding, bool) {
	if r.Code() != code || r.FailurePhase() != code.Phase() {
		got := "it succeeded"
		if !r.Result.OK {
			got = fmt.Sprintf("it failed with %s at phase %s", r.Code(), r.FailurePhase())
		}
		return fail(fmt.Sprintf("want %s at phase %s, %s", code, code.Phase(), got), r), false
	}
	return Finding{}, true
}

var checks = map[string]func(e *env) Finding{
	"resolve.unknown-id": func(e *env) Finding {
		p, err := e.open()
		if err != nil {
			return harness(err)
		}
		defer p.Close()
		r := p.Do("glass-probe.no-such-action", nil)
		if f, ok := expectFailure(r, receipt.CodeActionNotFound); !ok {
			return f
		}
		return pass()
	},
	"args.malformed-json": func(e *env) Finding {
		if len(e.snap.Actions.Items) == 0 {
			return notProbed("the page declares no actions")
		}
		p, err := e.open()
		if err != nil {
			return harness(err)
		}
		defer p.Close()
		r := p.Do(e.snap.Actions.Items[0].ID, `{"unterminated`)
		if f, ok := expectFailure(r, receipt.CodeInvalidArgs); !ok {
			return f
		}
		return pass()
	},
	"policy.denied": func(e *env) Finding {
		a, ok := e.confirmable()
		if !ok {
			return notProbed("the page declares no available action that needs confirmation")
		}
		p, err := e.open(glasstest.Deny())
		if err != nil {
			return harness(err)
		}
		defer p.Close()
		before, err := p.TrySnapshot()
		if err != nil {
			return harness(err)
		}
		r := p.Do(a.ID, nil)
		if f, ok := expectFailure(r, receipt.CodePermissionDenied); !ok {
			return f
		}
		after, err := p.TrySnapshot()
		if err != nil {
			return harness(err)
		}
		if !slices.Equal(before.ActionIDs(), after.ActionIDs()) || before.Records.Total != after.Records.Total {
			return fail("the page model changed after a denied call", r)
		}
		return pass()
	},
	"policy.no-channel": func(e *env) Finding {
		a, ok := e.confirmable()
		if !ok {
			return notProbed("the page declares no available action that needs confirmation")
		}
		p, err := e.open(glasstest.NoConfirmationChannel())
		if err != nil {
			return harness(err)
		}
		defer p.Close()
		r := p.Do(a.ID, nil)
		if f, ok := expectFailure(r, receipt.CodePermissionDenied); !ok {
			return f
		}
		return pass()
	},
	"verify.expectation": func(e *env) Finding {
		var target receipt.ActionInfo
		for _, a := range e.snap.Actions.Items {
			if a.Expect != "" && a.Available && len(a.Params) > 0 && string(a.Params) != "null" {
				target = a
				break
			}
		}
		if target.ID == "" {
			return notProbed("the page declares no available action with an expectation")
		}
		p, err := e.open(glasstest.Approve())
		if err != nil {
			return harness(err)
		}
		defer p.Close()
		r := p.Do(target.ID, nil)
		if !r.Result.OK {
			return notProbed(fmt.Sprintf("%s could not run without arguments (%s)", target.ID, r.Code()))
		}
		if r.Result.Expect != target.Expect {
			return fail(fmt.Sprintf("expect = %q, want the declared %q", r.Result.Expect, target.Expect), r)
		}
		return pass()
	},
}
