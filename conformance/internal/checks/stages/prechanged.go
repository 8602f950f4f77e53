package stages

import (
	"fmt"

	"github.com/glassworks/glass/conformance/internal/probe"
	"github.com/glassworks/glass/conformance/internal/refusal"
	"github.com/glassworks/glass/conformance/internal/report"
)

// beforeDispatch are the refusals whose calls fail before stage 5 (the
// reveal) and so never reach stage 6: an undeclared id, arguments that
// break their params, a denied confirmation, a stale revision.
var beforeDispatch = []string{refusal.RefUnknownID, refusal.RefMissing, refusal.RefDenied, refusal.RefStale}

// beforeDispatchChanged judges changed.window on calls that never reached
// stage 6: the before snapshot is taken immediately before stage 6, so a
// call that failed before it has none, and its receipt no changed (§4.1:
// changed is present when the call reached stage 6). A receipt that
// carries one (even observed false) took its before snapshot before
// stages 1 to 5 had passed (an outside audit's runtime took it as the
// call began). Nil when none does, with what was judged.
func beforeDispatchChanged(p *probe.Probe) (*probe.Outcome, []string) {
	var judged []string
	for _, kind := range beforeDispatch {
		res, o, ok := p.Refuse(refusal.RefusalByKind(kind))
		if !ok {
			if o.Verdict == report.Fail {
				return &o, nil
			}
			continue
		}
		r := res.Receipt
		if r == nil || r.Result.OK || r.Code() != refusal.RefusalByKind(kind).Code {
			continue
		}
		if r.Result.Changed != nil {
			f := probe.Failf("%s failed %s before stage 6 (execution never started), but its receipt carries changed: the before snapshot is taken after stages 1 to 5 have passed, immediately before stage 6, so a call refused before then has no changed (CONTRACT.md §4.1)", res.Call.Describe, r.Code()).
				With(report.ReceiptEvidence("receipt", r))
			return &f, nil
		}
		judged = append(judged, fmt.Sprintf("%s → %s, no changed", res.Call.Describe, r.Code()))
	}
	return nil, judged
}
