package calls

import (
	"encoding/json"
	"fmt"

	"github.com/glassworks/glass/conformance/internal/probe"
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

// retrySafeOnlyIdempotent judges envelope.recovery-strategy under the
// safe-retry policy (options.retry "safe", CONTRACT.md §2.10): the runtime
// reports retry_safe, in place of none, only for a failure that did not
// start of an action the page declares idempotent. On a page whose
// runtime marks idempotent actions in its snapshot, every available
// action (at most maxRefusedEach) is called once with that policy and
// arguments that fail before it starts; an action not marked idempotent
// must not get retry_safe. The receipts stay out of the run's record (the
// audits judge calls made without a retry policy). Nil when none did, or
// when the runtime marks no action idempotent (said in why).
func retrySafeOnlyIdempotent(p *probe.Probe) (o *probe.Outcome, why string) {
	idem, marked := markedIdempotent(p.Base())
	if !marked {
		return nil, "the safe-retry policy: the snapshot marks no action idempotent (x-idempotent), so the probe cannot tell which may get retry_safe"
	}
	type answer struct {
		id string
		r  *receipt.Receipt
	}
	v, err := p.Memo(fmt.Sprintf("%s|retrySafe", p.Transport), func() (any, error) {
		pg, err := p.Open("", glasstest.Deny())
		if err != nil {
			return nil, err
		}
		defer pg.Close()
		var out []answer
		for _, a := range p.Candidates() {
			if len(out) == maxRefusedEach {
				break
			}
			args, ok := argsFailingBeforeStart(p, a)
			if !ok {
				continue
			}
			if r, byRuntime := pg.Answered(pg.Harness.Do(a.ID, args, glasstest.SafeRetry())); byRuntime {
				out = append(out, answer{a.ID, r})
			}
		}
		return out, nil
	})
	if err != nil {
		b := probe.Broken(err)
		return &b, ""
	}
	for _, x := range v.([]answer) {
		if x.r.RecoveryStrategy == receipt.RecoveryRetrySafe && !idem[x.id] {
			f := probe.Failf("%s, called with options.retry \"safe\" and arguments that fail before it starts: %s carries recoveryStrategy retry_safe, but the snapshot does not mark %s idempotent (it marks %d actions x-idempotent): retry_safe is only for an action the page declares idempotent",
				x.id, x.r.Code(), x.id, len(idem)).With(probe.ReceiptEvidence("receipt", x.r))
			return &f, ""
		}
	}
	return nil, ""
}
