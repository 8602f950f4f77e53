package calls

import (
	"github.com/glassworks/glass/conformance/internal/probe"
	"github.com/glassworks/glass/conformance/internal/refusal"
	"github.com/glassworks/glass/conformance/internal/report"
	"github.com/glassworks/glass/receipt"
)

// deniedAskedOnce judges policy.risk-classes on the denied refusal: a
// call the host denies was still asked exactly once ("exactly once", not
// "until approved"). Nil when it was, or when the page offers no call to
// deny.
func deniedAskedOnce(p *probe.Probe) *probe.Outcome {
	res, _, ok := p.Refuse(refusal.RefusalByKind(refusal.RefDenied))
	if !ok || res.Receipt.Code() != receipt.CodePermissionDenied {
		return nil // policy.denied judges the call itself
	}
	asked := 0
	for _, c := range res.Confirmations {
		if c.Request.Step == "" {
			asked++
		}
	}
	if asked != 1 {
		o := probe.Failf("%s: the runtime asked for confirmation %d times, want exactly once (a denial is an answer, not a reason to ask again)", res.Call.Describe, asked).
			With(report.ReceiptEvidence("receipt", res.Receipt), report.ConfirmationEvidence(res.Confirmations))
		return &o
	}
	return nil
}
