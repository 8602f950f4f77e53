package stages

import (
	"fmt"
	"time"

	"github.com/glassworks/glass/conformance/internal/manifest"
	"github.com/glassworks/glass/conformance/internal/probe"
	"github.com/glassworks/glass/conformance/internal/report"
	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

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
		if o := pollsPastAfter(sc, shortExpectTimeout, r, d, took); o != nil {
			return o, ""
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
// (CALL_TIMEOUT, expect and the call bound after it started), sc is
// called once more without the option, and a call that then ends
// EXPECTATION_FAILED shows the runtime polled past the timeout the host
// asked (an option read as seconds, say), where it MUST report the
// failure (verify.default-timeout, verify.expectation-failed). Nil
// otherwise, and when the call without the option does not fail so
// either: the option is then not what kept the call going.
func pollsPast(p *probe.Probe, sc manifest.Scenario, expect time.Duration, r *receipt.Receipt, d time.Duration) *probe.Outcome {
	if r.Code() != receipt.CodeCallTimeout {
		return nil
	}
	want := probeExpectTimeout
	if sc.DeclaredTimeoutMs != nil {
		want = max(time.Duration(*sc.DeclaredTimeoutMs)*time.Millisecond, defaultExpectTimeout)
	}
	plain, took, err := timedFailure(p, sc, want, 0)
	if err != nil || plain.Code() != receipt.CodeExpectationFailed {
		return nil
	}
	return pollsPastAfter(sc, expect, r, d, took)
}

// pollsPastAfter is pollsPast once the call without the option is known
// to have ended EXPECTATION_FAILED after took.
func pollsPastAfter(sc manifest.Scenario, expect time.Duration, r *receipt.Receipt, d, took time.Duration) *probe.Outcome {
	if r.Code() != receipt.CodeCallTimeout {
		return nil
	}
	o := probe.Failf("%s: the host passed expectTimeoutMs %d, and the call had not ended EXPECTATION_FAILED %s after it started, when the host's bound ended it (CALL_TIMEOUT); without the option it ended EXPECTATION_FAILED after %s: the runtime polled the expectation long past the timeout the host asked",
		sc.Action, expect.Milliseconds(), d.Round(time.Millisecond), took.Round(time.Millisecond)).With(report.ReceiptEvidence("receipt", r))
	return &o
}
