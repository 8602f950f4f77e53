package probe

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/glassworks/glass/conformance/internal/report"
	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
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
// because it could not look.
func Broken(err error) Outcome {
	return Outcome{Verdict: report.Fail, Message: CouldNotRun + FirstLine(err.Error())}
}

// CouldNotRun starts the message of a probe that could not run.
const CouldNotRun = "the probe could not run: "

// With adds evidence to o.
func (o Outcome) With(ev ...report.Evidence) Outcome {
	o.Evidence = append(o.Evidence, ev...)
	return o
}

// ReceiptEvidence is the receipt as evidence, in canonical JSON.
func ReceiptEvidence(label string, r *receipt.Receipt) report.Evidence {
	if r == nil {
		return report.Evidence{Label: label, Text: "<no receipt>"}
	}
	b, err := receipt.CanonicalJSON(r)
	if err != nil {
		return report.Evidence{Label: label, Text: r.GomegaString()}
	}
	return report.Evidence{Label: label, Text: report.Clip(strings.TrimSpace(string(b)), report.MaxEvidenceBytes)}
}

// SnapshotEvidence is a snapshot as evidence, bounded.
func SnapshotEvidence(label string, s *receipt.Snapshot) report.Evidence {
	b, err := receipt.CanonicalJSON(s)
	if err != nil {
		return report.Evidence{Label: label, Text: err.Error()}
	}
	return report.Evidence{Label: label, Text: report.Clip(strings.TrimSpace(string(b)), report.MaxEvidenceBytes)}
}

// TextEvidence is lines of text as evidence, bounded.
func TextEvidence(label string, lines ...string) report.Evidence {
	return report.Evidence{Label: label, Text: report.Clip(strings.Join(lines, "\n"), report.MaxEvidenceBytes)}
}

// Got describes how r ended, for "want X, got Y" sentences.
func Got(r *receipt.Receipt) string {
	if r == nil {
		return "no receipt"
	}
	if r.Result.OK {
		return "it succeeded"
	}
	return fmt.Sprintf("it failed with %s at phase %s", r.Code(), r.FailurePhase())
}

// OutcomeCode is how r ended: "ok" or its failure code.
func OutcomeCode(r *receipt.Receipt) string {
	if r.Result.OK {
		return "ok"
	}
	return string(r.Code())
}

// ConfirmationEvidence is the confirmation requests a call made, as
// evidence.
func ConfirmationEvidence(cs []glasstest.ConfirmationRecord) report.Evidence {
	var lines []string
	for _, c := range cs {
		b, _ := json.Marshal(c.Request)
		lines = append(lines, fmt.Sprintf("approved=%t solicited=%t request=%s", c.Approved, c.Solicited, b))
	}
	return TextEvidence("confirmations the host was asked for", lines...)
}
