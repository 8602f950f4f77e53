package calls

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/glassworks/glass/conformance/internal/judge"
	"github.com/glassworks/glass/conformance/internal/probe"
	"github.com/glassworks/glass/conformance/internal/report"
	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

// markedIdempotent returns the actions whose snapshot descriptor marks
// them idempotent (x-idempotent: true, CONTRACT.md §5), and whether the
// runtime marks any: one that shows idempotency marks every idempotent
// action, so an unmarked one is not.
func markedIdempotent(s *receipt.Snapshot) (map[string]bool, bool) {
	out := map[string]bool{}
	for _, a := range s.Actions.Items {
		var v bool
		if raw, ok := a.Extra["x-idempotent"]; ok && json.Unmarshal(raw, &v) == nil && v {
			out[a.ID] = true
		}
	}
	return out, len(out) > 0
}

// otherRetryValues are values of options.retry other than "safe": none
// selects the safe-retry policy (CONTRACT.md §6.1).
var otherRetryValues = []any{"never", "Safe", true}

// retrySafeOnlyIdempotent judges envelope.recovery-strategy under the
// safe-retry policy (options.retry "safe", CONTRACT.md §2.10): the runtime
// reports retry_safe, in place of none, only for a failure that did not
// start of an action the page declares idempotent. On a page whose
// runtime marks idempotent actions in its snapshot, every available
// action (at most maxRefusedEach) is called once with that policy and
// arguments that fail before it starts; an action not marked idempotent
// must not get retry_safe (retryCandidates). The receipts stay out of the run's record (the
// audits judge calls made without a retry policy); the first call that got
// retry_safe is then made again with each of otherRetryValues, whose
// receipts the run records: the audit wants none for them. Nil when none did, or
// when the runtime marks no action idempotent (said in why).
func retrySafeOnlyIdempotent(p *probe.Probe) (o *probe.Outcome, why string) {
	idem, marked := markedIdempotent(p.Base())
	if !marked {
		return nil, "the safe-retry policy: the snapshot marks no action idempotent (x-idempotent), so the probe cannot tell which may get retry_safe"
	}
	type answer struct {
		id   string
		args any
		r    *receipt.Receipt
		// retry is the options.retry the call passed.
		retry any
	}
	v, err := p.Memo(fmt.Sprintf("%s|retrySafe", p.Transport), func() (any, error) {
		pg, err := p.Open("", glasstest.Deny())
		if err != nil {
			return nil, err
		}
		defer pg.Close()
		var out []answer
		for _, a := range retryCandidates(p.Candidates(), idem) {
			if len(out) == maxRefusedEach {
				break
			}
			args, ok := argsFailingBeforeStart(p, a)
			if !ok {
				continue
			}
			if r, byRuntime := pg.Answered(pg.Harness.Do(a.ID, args, glasstest.SafeRetry())); byRuntime {
				out = append(out, answer{a.ID, args, r, "safe"})
			}
		}
		// "safe" alone selects the policy (§6.1): the first call that got
		// retry_safe is made again with other values of options.retry,
		// recorded in the run, whose audit wants none for each.
		for _, x := range out {
			if x.r.RecoveryStrategy != receipt.RecoveryRetrySafe || !idem[x.id] {
				continue
			}
			args := x.args
			if text, ok := args.(json.RawMessage); ok {
				args = string(text) // arguments that are not JSON, sent as they are
			}
			for _, other := range otherRetryValues {
				r, err := pg.Raw(x.id, args, map[string]any{"retry": other}, nil)
				switch {
				case errors.Is(err, probe.ErrNoTool):
					continue
				case err != nil:
					return nil, err
				}
				out = append(out, answer{x.id, x.args, r, other})
			}
			break
		}
		return out, nil
	})
	if err != nil {
		b := probe.Broken(err)
		return &b, ""
	}
	for _, x := range v.([]answer) {
		if x.retry != "safe" && x.r.RecoveryStrategy == receipt.RecoveryRetrySafe {
			f := probe.Failf("%s, called with options.retry %s and arguments that fail before it starts: %s carries recoveryStrategy retry_safe, as it did with \"safe\", but only \"safe\" selects the safe-retry policy (CONTRACT.md §6.1: any other value selects none)",
				x.id, judge.JSONText(x.retry), x.r.Code()).With(report.ReceiptEvidence("receipt", x.r))
			return &f, ""
		}
		if x.r.RecoveryStrategy == receipt.RecoveryRetrySafe && !idem[x.id] {
			f := probe.Failf("%s, called with options.retry \"safe\" and arguments that fail before it starts: %s carries recoveryStrategy retry_safe, but the snapshot does not mark %s idempotent (it marks %d actions x-idempotent): retry_safe is only for an action the page declares idempotent",
				x.id, x.r.Code(), x.id, len(idem)).With(report.ReceiptEvidence("receipt", x.r))
			return &f, ""
		}
	}
	return nil, ""
}

// retryCandidates orders the actions the safe-retry probe calls: those
// marked idempotent first (the ones that may get retry_safe), then one
// action of every other tool (per-row actions of one tool are alike).
func retryCandidates(cands []receipt.ActionInfo, idem map[string]bool) []receipt.ActionInfo {
	var first, rest []receipt.ActionInfo
	tools := map[string]bool{}
	for _, a := range cands {
		if idem[a.ID] {
			first = append(first, a)
			continue
		}
		tool := a.ID
		if a.Tool != "" {
			tool = "tool:" + a.Tool
		}
		if !tools[tool] {
			tools[tool] = true
			rest = append(rest, a)
		}
	}
	return append(first, rest...)
}

// retrySafeUnknownID judges envelope.recovery-strategy under the
// safe-retry policy where no action is involved: a call of an id the page
// does not declare, with options.retry "safe", fails ACTION_NOT_FOUND of
// no action, so of none the page declares idempotent, and its
// recoveryStrategy stays none (an outside audit's runtime gave retry_safe
// to every failure that did not start). Its receipt stays out of the
// run's record. Nil when it does, or the runtime did not answer.
func retrySafeUnknownID(p *probe.Probe) *probe.Outcome {
	v, err := p.Memo(string(p.Transport)+"|retrySafe-unknown", func() (any, error) {
		pg, err := p.Open("", glasstest.Deny())
		if err != nil {
			return nil, err
		}
		defer pg.Close()
		r, byRuntime := pg.Answered(pg.Harness.Do(unknownRetryID, nil, glasstest.SafeRetry()))
		if !byRuntime {
			return (*receipt.Receipt)(nil), nil
		}
		return r, nil
	})
	if err != nil {
		b := probe.Broken(err)
		return &b
	}
	r, _ := v.(*receipt.Receipt)
	if r != nil && r.Code() == receipt.CodeActionNotFound && r.RecoveryStrategy != receipt.RecoveryNone {
		f := probe.Failf("a call of the undeclared id %q with options.retry \"safe\" failed ACTION_NOT_FOUND with recoveryStrategy %q: want none, since the policy gives retry_safe only to a failure of an action the page declares idempotent (CONTRACT.md §2.10)", unknownRetryID, r.RecoveryStrategy).
			With(report.ReceiptEvidence("receipt", r))
		return &f
	}
	return nil
}

// unknownRetryID is the undeclared id retrySafeUnknownID calls.
const unknownRetryID = "glass-probe.no-such-action"
