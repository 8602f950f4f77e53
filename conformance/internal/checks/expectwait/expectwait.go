package expectwait

import (
	"fmt"
	"time"

	"github.com/glassworks/glass/conformance/internal/manifest"
	"github.com/glassworks/glass/conformance/internal/probe"
	"github.com/glassworks/glass/conformance/internal/report"
	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

// probeExpectTimeout is the expectation timeout the probe asks for: well
// above the two-second default, so that a runtime that ignores it, or
// does not wait at all, answers visibly sooner.
const probeExpectTimeout = 6 * time.Second

// DefaultTimeout calls the manifest's expectationFailures with
// options.expectTimeoutMs set: EXPECTATION_FAILED may come only once that
// long has passed. (Only the lower bound is judged from how long a call
// took: a slow machine makes a call longer, never shorter. A call the
// host's own bound ended, twice, well after the same call without the
// option ended EXPECTATION_FAILED and the option's timeout together,
// polled past the timeout the host asked: pollsPast.)
func DefaultTimeout(p *probe.Probe) probe.Outcome {
	scs := p.Manifest().ExpectationFailures
	if len(scs) == 0 {
		return probe.NotProbed("needs a manifest entry under expectationFailures (see docs/manifest.md)")
	}
	// An entry whose expectation declares a timeout of its own, when there
	// is one: expectTimeoutMs must override it (a runtime that prefers the
	// declared timeout fails sooner than the host asked).
	sc := scs[0]
	for _, x := range scs {
		if x.DeclaredTimeoutMs != nil && *x.DeclaredTimeoutMs > 0 {
			sc = x
			break
		}
	}
	pg, err := p.Open(sc.URL, glasstest.Approve())
	if err != nil {
		return probe.Broken(err)
	}
	start := time.Now()
	r := pg.Do(sc.Action, p.ScenarioArgs(sc), glasstest.ExpectTimeout(probeExpectTimeout), glasstest.Timeout(probeExpectTimeout+p.CallTimeout()))
	took := time.Since(start)
	o, r, took := pollsPast(p, sc, probeExpectTimeout, r, took)
	if o != nil {
		return *o
	}
	if r.Code() != receipt.CodeExpectationFailed {
		return probe.NotProbed(fmt.Sprintf("%s (manifest expectationFailures) did not fail EXPECTATION_FAILED: %s (see verify.expectation-failed)", sc.Action, report.Got(r)))
	}
	if took < probeExpectTimeout {
		return probe.Failf("%s: the host passed expectTimeoutMs %d, but EXPECTATION_FAILED came after %s: the runtime did not poll the expectation for the timeout the host asked",
			sc.Action, probeExpectTimeout.Milliseconds(), took.Round(time.Millisecond)).With(report.ReceiptEvidence("receipt", r))
	}
	timing := []string{fmt.Sprintf("%s: expectTimeoutMs %d; EXPECTATION_FAILED after %s", sc.Action, probeExpectTimeout.Milliseconds(), took.Round(time.Millisecond))}
	// Without the option, each entry's own timeout (the first three).
	for _, x := range scs[:min(len(scs), 3)] {
		if o, line := declaredTimeout(p, x); o != nil {
			return *o
		} else if line != "" {
			timing = append(timing, x.Action+": "+line)
		}
	}
	return probe.Pass().With(report.TextEvidence("timing", timing...))
}

// defaultExpectTimeout is the timeout of an expectation that declares
// none, when the host passes no options.expectTimeoutMs (CONTRACT.md §2.8).
const defaultExpectTimeout = 2 * time.Second

// declaredTimeout calls the scenario sc once more without
// options.expectTimeoutMs, when the manifest says what timeout its
// expectation declares (declaredTimeoutMs; 0: none): EXPECTATION_FAILED
// may come only once that timeout, or the 2-second default, has passed.
// It returns a violation, or a line of evidence ("" when the manifest
// does not say).
func declaredTimeout(p *probe.Probe, sc manifest.Scenario) (*probe.Outcome, string) {
	if sc.DeclaredTimeoutMs == nil {
		return nil, ""
	}
	want, what := time.Duration(*sc.DeclaredTimeoutMs)*time.Millisecond, "the timeout the expectation declares (manifest declaredTimeoutMs)"
	if want == 0 {
		want, what = defaultExpectTimeout, "the 2-second default (the manifest says the expectation declares no timeout)"
	}
	r, took, err := timedFailure(p, sc, want, 0)
	if err != nil {
		o := probe.Broken(err)
		return &o, ""
	}
	if r.Code() != receipt.CodeExpectationFailed {
		return nil, fmt.Sprintf("without expectTimeoutMs: %s, not judged (see verify.expectation-failed)", report.Got(r))
	}
	if took < want {
		o := probe.Failf("%s: the host passed no expectTimeoutMs, so the runtime must poll for %s, %s, but EXPECTATION_FAILED came after %s",
			sc.Action, want, what, took.Round(time.Millisecond)).With(report.ReceiptEvidence("receipt", r))
		return &o, ""
	}
	line := fmt.Sprintf("no expectTimeoutMs, %s of %s; EXPECTATION_FAILED after %s", what, want, took.Round(time.Millisecond))
	if want < 2*shortWindow {
		return nil, line
	}
	return shorterTimeout(p, sc, want, took, line)
}

// shortExpectTimeout is the expectTimeoutMs that asks a runtime to poll
// for less time than the expectation declares (or the default): the
// host's option wins, so EXPECTATION_FAILED must come sooner.
const shortExpectTimeout = 100 * time.Millisecond

// shortWindow is half the least timeout in force that the comparison
// with shortExpectTimeout is made for (1 s): below it the saving it looks
// for, half of want minus shortExpectTimeout, is too small to tell from a
// loaded machine's slower call.
const shortWindow = time.Second / 2

// shorterTimeout calls sc with expectTimeoutMs shortExpectTimeout and
// compares how long it took with the call without it (took, polling for
// want): a runtime that lets the expectation's own timeout, or the
// default, outlast the host's option saves nothing. An unclear result is
// measured once more, both calls again, and only a second one counts.
func shorterTimeout(p *probe.Probe, sc manifest.Scenario, want, took time.Duration, line string) (*probe.Outcome, string) {
	need := (want - shortExpectTimeout) / 2
	var short time.Duration
	past := false // the first try's call with the option ran past its bound (pollsPastAfter)
	for try := 0; try < 2; try++ {
		if try > 0 {
			r, again, err := timedFailure(p, sc, want, 0)
			if err != nil {
				o := probe.Broken(err)
				return &o, ""
			}
			if r.Code() != receipt.CodeExpectationFailed {
				return nil, line
			}
			took = again
		}
		r, d, err := timedFailure(p, sc, want, shortExpectTimeout)
		if err != nil {
			o := probe.Broken(err)
			return &o, ""
		}
		if o := pollsPastAfter(p, sc, shortExpectTimeout, r, d, took); o != nil {
			switch {
			case try == 0:
				past = true
				continue // measured once more, both calls, before it fails
			case past:
				return o, ""
			}
			return nil, line + fmt.Sprintf("; with expectTimeoutMs %d: %s once, not judged", shortExpectTimeout.Milliseconds(), report.Got(r))
		}
		if past {
			// The first try ran past its bound, this one did not: it counts
			// when it shows the saving, else the two disagree.
			if r.Code() == receipt.CodeExpectationFailed && took-d >= need {
				return nil, line + fmt.Sprintf("; with expectTimeoutMs %d, after %s (CALL_TIMEOUT the first time)", shortExpectTimeout.Milliseconds(), d.Round(time.Millisecond))
			}
			return nil, line + fmt.Sprintf("; with expectTimeoutMs %d: CALL_TIMEOUT, then %s, not judged", shortExpectTimeout.Milliseconds(), report.Got(r))
		}
		if r.Code() != receipt.CodeExpectationFailed {
			return nil, line + fmt.Sprintf("; with expectTimeoutMs %d: %s, not judged", shortExpectTimeout.Milliseconds(), report.Got(r))
		}
		short = d
		if took-short >= need {
			return nil, line + fmt.Sprintf("; with expectTimeoutMs %d, after %s", shortExpectTimeout.Milliseconds(), short.Round(time.Millisecond))
		}
		if try == 1 {
			o := probe.Failf("%s: the host passed expectTimeoutMs %d, which wins over the %s the expectation polls for without it, but EXPECTATION_FAILED came after %s, against %s without the option (twice): the runtime polled longer than the host asked",
				sc.Action, shortExpectTimeout.Milliseconds(), want, short.Round(time.Millisecond), took.Round(time.Millisecond)).With(report.ReceiptEvidence("receipt", r))
			return &o, ""
		}
	}
	return nil, line
}

// timedFailure calls sc on a fresh approved page, with expectTimeoutMs
// expect when it is not 0, and says how long the call took.
func timedFailure(p *probe.Probe, sc manifest.Scenario, want, expect time.Duration) (*receipt.Receipt, time.Duration, error) {
	pg, err := p.Open(sc.URL, glasstest.Approve())
	if err != nil {
		return nil, 0, err
	}
	defer pg.Close()
	opts := []glasstest.CallOption{glasstest.Timeout(want + p.CallTimeout())}
	if expect > 0 {
		opts = append(opts, glasstest.ExpectTimeout(expect))
	}
	start := time.Now()
	r := pg.Do(sc.Action, p.ScenarioArgs(sc), opts...)
	return r, time.Since(start), nil
}

// pollsPast judges r, the receipt of sc called with expectTimeoutMs
// expect, which took d: when the host's own bound ended the call
// (CALL_TIMEOUT), sc is called without the option, and a call that then
// ends EXPECTATION_FAILED, after took, shows the runtime polled past the
// timeout the host asked (an option read as seconds, say) where it must
// report the failure (verify.default-timeout, verify.expectation-failed)
// — when the call with the option ran well past took and expect
// together (pollsPastAfter), and again with both calls made once more.
// Nil otherwise, with the last call with the option and how long it took
// for the caller to judge: a handler slow enough to reach the bound by
// itself, or a call without the option that does not fail so, is not
// judged here.
func pollsPast(p *probe.Probe, sc manifest.Scenario, expect time.Duration, r *receipt.Receipt, d time.Duration) (*probe.Outcome, *receipt.Receipt, time.Duration) {
	want := probeExpectTimeout
	if sc.DeclaredTimeoutMs != nil {
		want = max(time.Duration(*sc.DeclaredTimeoutMs)*time.Millisecond, defaultExpectTimeout)
	}
	for try := 0; ; try++ {
		if r.Code() != receipt.CodeCallTimeout {
			return nil, r, d
		}
		plain, took, err := timedFailure(p, sc, want, 0)
		if err != nil {
			o := probe.Broken(err)
			return &o, r, d
		}
		if plain.Code() != receipt.CodeExpectationFailed {
			return nil, r, d
		}
		o := pollsPastAfter(p, sc, expect, r, d, took)
		if o == nil || try == 1 {
			return o, r, d
		}
		if r, d, err = timedFailure(p, sc, expect, expect); err != nil {
			o := probe.Broken(err)
			return &o, r, d
		}
	}
}

// pollsPastAfter is pollsPast once the call without the option is known
// to have ended EXPECTATION_FAILED after took: the call with the option,
// ended by the host's bound after d, fails the rule when d is past took,
// expect and half the call bound together — a conforming runtime's call
// with the option takes about took less its own timeout plus expect, so
// only a handler slower than half the call bound could reach it.
func pollsPastAfter(p *probe.Probe, sc manifest.Scenario, expect time.Duration, r *receipt.Receipt, d, took time.Duration) *probe.Outcome {
	if r.Code() != receipt.CodeCallTimeout || d < took+expect+p.CallTimeout()/2 {
		return nil
	}
	o := probe.Failf("%s: the host passed expectTimeoutMs %d, and the call had not ended %s after it started, when the host's bound ended it (CALL_TIMEOUT), though without the option it ended EXPECTATION_FAILED after %s (twice): the runtime kept polling the expectation long past the timeout the host asked, where it must report EXPECTATION_FAILED once that timeout passes",
		sc.Action, expect.Milliseconds(), d.Round(time.Millisecond), took.Round(time.Millisecond)).With(report.ReceiptEvidence("receipt", r))
	return &o
}
