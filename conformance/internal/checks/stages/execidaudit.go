package stages

import (
	"fmt"
	"regexp"
	"slices"

	"github.com/glassworks/glass/conformance/internal/probe"
	"github.com/glassworks/glass/conformance/internal/refusal"
	"github.com/glassworks/glass/conformance/internal/report"
	"github.com/glassworks/glass/receipt"
)

// executionIDPattern is the form of an executionId (CONTRACT.md).
var executionIDPattern = regexp.MustCompile(receipt.ExecutionIDPattern)

// ExecutionIDs judges every receipt of the run, after making the cheap
// refusals, one approved call and the execution-id probe (calls without
// an executionId, whose ids the runtime must mint, distinct and of the
// contract's form; and calls with one of the probe's choosing, which it
// must echo exactly when it is of that form, and replace when it is
// not): every id of the form, each host-given id echoed, and no two calls
// on one page with the same id.
func ExecutionIDs(p *probe.Probe) probe.Outcome {
	var o *probe.Outcome
	for _, kind := range []string{refusal.RefUnknownID, refusal.RefMalformed} {
		if _, out, ok := p.Refuse(refusal.RefusalByKind(kind)); !ok && out.Verdict == report.Fail {
			return out
		}
	}
	err := p.Each(probe.NeedsConfirmation, func(e *probe.Exercised) bool {
		for _, c := range e.Confirmations {
			if c.Request.ExecutionID != e.Receipt.ExecutionID {
				res := probe.Failf("%s: the confirmation was asked for execution %q, but the receipt is of execution %q",
					e.Action.ID, c.Request.ExecutionID, e.Receipt.ExecutionID).With(report.ReceiptEvidence("receipt", e.Receipt), report.ConfirmationEvidence(e.Confirmations))
				o = &res
			}
		}
		return false
	})
	if err != nil {
		return probe.Broken(err)
	}
	idp, err := ExecutionIDProbe(p)
	if err != nil {
		return probe.Broken(err)
	}
	for _, c := range idp.Calls {
		if c.Problem != "" {
			return probe.Failf("%s: %s", c.What, c.Problem).With(report.ReceiptEvidence("receipt", c.Receipt))
		}
	}
	ro, resumed, notResumed := ResumeExecutionID(p)
	if ro != nil {
		return *ro
	}
	all := p.SentReceipts()
	owner := map[string]string{}
	for _, sn := range all {
		if !sn.ByRuntime {
			continue
		}
		id := sn.Receipt.ExecutionID
		if !executionIDPattern.MatchString(id) {
			return probe.Failf("%s: executionId %q does not match %s", sn.What, id, executionIDPattern).With(report.ReceiptEvidence("receipt", sn.Receipt))
		}
		if sn.Issued != "" {
			return probe.Failf("%s: the host passed options.executionId %q, but the receipt carries %q", sn.What, sn.Issued, id).With(report.ReceiptEvidence("receipt", sn.Receipt))
		}
		key := fmt.Sprint(sn.Page, "|", id)
		if prev, dup := owner[key]; dup {
			return probe.Failf("%s: executionId %q was already given to an earlier call on the same page (%s)", sn.What, id, prev).
				With(report.ReceiptEvidence("receipt", sn.Receipt))
		}
		owner[key] = sn.What
	}
	if o != nil {
		return *o
	}
	if len(all) == 0 {
		return probe.NotProbed("the run saw no receipt")
	}
	res := probe.Pass()
	var lines []string
	for _, c := range idp.Calls {
		lines = append(lines, c.What+" → "+c.Receipt.ExecutionID)
	}
	if resumed != "" {
		lines = append(lines, resumed)
	}
	if len(lines) > 0 {
		res = res.With(report.TextEvidence("execution ids probed", lines...))
	}
	if np := slices.DeleteFunc([]string{idp.NotProbed, notResumed}, func(s string) bool { return s == "" }); len(np) > 0 {
		res = res.With(report.TextEvidence("not probed", np...))
	}
	return res
}
