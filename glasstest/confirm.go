package glasstest

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/glassworks/glass/internal/hostlog"
	"github.com/glassworks/glass/internal/pagejs"
	"github.com/glassworks/glass/receipt"
)

// recordFull is the denial of a confirmation request once the host's
// record of them is full.
var recordFull = fmt.Sprintf("the host records at most %d confirmation requests of a page", hostlog.MaxRecords)

const rawBindingReason = "the host binding was called directly, not through glassHost"

// confirm answers one confirmation request. The answer is bound to the
// pending execution it names: only a request through glassHost, for an
// execution the harness has in flight and for that execution's action, is
// put to the spec's policy. An approval carries a fresh ticket, recorded
// so that VerifyConfirmations can tell a real approval from a claimed one.
func (p *Page) confirm(req ConfirmRequest) pagejs.ConfirmAnswer {
	return p.answerConfirm(req, false)
}

// refuseRaw answers a message that came through the raw binding: a
// confirmation request is recorded as unsolicited and denied, anything else
// fails.
func (p *Page) refuseRaw(msg pagejs.HostMessage) any {
	if msg.Type != "confirm" {
		return map[string]string{"status": "failed", "reason": rawBindingReason}
	}
	var req ConfirmRequest
	_ = json.Unmarshal(msg.Request, &req)
	return p.answerConfirm(req, true)
}

func (p *Page) answerConfirm(req ConfirmRequest, raw bool) pagejs.ConfirmAnswer {
	p.mu.Lock()
	call := p.host().bind(p, req, raw)
	secrets := p.secretsFor(call)
	p.mu.Unlock()

	var hid bool
	req, hid = hostlog.MaskConfirmRequest(req, secrets)
	rec := ConfirmationRecord{Request: req, Solicited: call != nil, Raw: raw, SensitiveMasked: hid}
	var ans pagejs.ConfirmAnswer
	switch {
	case p.hostLog.ConfirmationsFull():
		// A page that floods the host is denied once the record is full:
		// nothing the page sends may grow the host's memory without bound.
		return pagejs.ConfirmAnswer{Reason: recordFull}
	case raw:
		ans.Reason = rawBindingReason
	case call == nil:
		ans.Reason = "no call of the host is waiting for this confirmation"
	case call.settings.policy.kind == policyNoChannel:
		ans.Reason = "no confirmation channel"
	case call.settings.policy.kind == policyFail:
		ans.Reason, ans.Fail = "the confirmation channel failed", true
	case call.settings.policy.kind == policyApprove:
		ans.Approved = true
	case call.settings.policy.kind == policyFunc:
		var ok bool
		err := p.runCallback(call.id, "ConfirmWith", req.Action, func() { ok = call.settings.policy.fn(req) })
		if err != nil {
			ans.Reason = err.Error()
		}
		ans.Approved = ok && err == nil
	}
	if ans.Approved {
		ans.Ticket = hostlog.NewTicket()
	} else if ans.Reason == "" {
		ans.Reason, ans.As = "denied by the user", call.settings.policy.as
	}
	rec.Approved, rec.Ticket, rec.Reason = ans.Approved, ans.Ticket, ans.Reason
	if !p.hostLog.AddConfirmation(rec) {
		// Filled by requests racing this one: no record backs a ticket.
		return pagejs.ConfirmAnswer{Reason: recordFull}
	}
	return ans
}

// isStepOf reports whether action is a declared step of flow, by the
// latest snapshot that lists flow (CONTRACT.md, host.ticket-binding: a
// request may name the call's action or one of its steps). Called with
// p.mu held.
func (p *Page) isStepOf(action, flow string) bool {
	for i := len(p.snapshots) - 1; i >= 0; i-- {
		if a, ok := p.snapshots[i].Action(flow); ok {
			return slices.Contains(a.Steps, action)
		}
	}
	return false
}

// runCallback runs one of the spec's callbacks — a ConfirmWith or a
// HandoffWith function — for the call whose execution the host issued as
// execID. Both run on a goroutine Playwright gave the host, where a panic
// would end the test binary and Ginkgo's Fail would not reach the spec,
// so every callback follows one rule: a panic (a Gomega failure without
// GinkgoRecover included) is recovered here, the runtime gets a refusal
// (a denial, a failed hand-off), and the call fails the spec when it
// returns (finish) with the error this returns. A callback therefore
// needs no `defer GinkgoRecover()`.
func (p *Page) runCallback(execID, name, action string, fn func()) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("glasstest: the %s function panicked on %q: %v", name, action, v)
			p.failCall(execID, err)
		}
	}()
	fn()
	return nil
}

// VerifyConfirmations checks the confirmations a receipt reports against
// what the host was asked and answered for that execution. It returns nil
// when they agree, and otherwise every disagreement joined:
//
//   - an approval without a ticket, with a ticket the host never issued, or
//     with a ticket issued for another execution or action (a runtime that
//     approved its own call);
//   - one ticket claimed twice;
//   - a confirmation the host answered for this execution that the receipt
//     does not report, or reports as the opposite answer.
//
// The execution is the one the host issued for the call that returned r
// (or for a copy of such a receipt, the issued execution r names), never
// merely the id the receipt claims: a receipt of an execution this page
// never issued is an error. A ticket is good for one execution, one action
// and one claim. A harness receipt (transport or browser_effect) reports
// no confirmations; it is checked like any other.
func (p *Page) VerifyConfirmations(r *receipt.Receipt) error {
	if r == nil {
		return errors.New("glasstest: verify confirmations: nil receipt")
	}
	p.mu.Lock()
	exec, known := p.issuedExecution(r)
	p.mu.Unlock()
	if !known {
		return fmt.Errorf("glasstest: verify confirmations: the receipt is of execution %q, which this page never issued", receipt.Clip(r.ExecutionID, 80))
	}
	if err := p.hostLog.Verify(exec, r); err != nil {
		return fmt.Errorf("glasstest: confirmations do not match the host's record: %w", err)
	}
	return nil
}

// issuedExecution is the execution the host issued for the call that
// returned r, or, for a receipt that is not one Do or Resume returned (a
// spec's copy), the issued execution it names. Called with p.mu held.
func (p *Page) issuedExecution(r *receipt.Receipt) (string, bool) {
	if c, ok := p.calls[r]; ok {
		return c.execID, true
	}
	for _, c := range p.calls {
		if c.execID == r.ExecutionID {
			return c.execID, true
		}
	}
	return "", false
}

// secretsFor lists the sensitive values a request for call may carry: the
// page's, every one a call of the process used, and the call's, or, for a
// request that names no call of the host, every call's in flight. Called
// with p.mu held.
func (p *Page) secretsFor(call *pendingCall) map[string]string {
	secrets := maps.Clone(p.settings.secrets)
	if secrets == nil {
		secrets = map[string]string{}
	}
	for _, v := range processSecrets.Values() {
		secrets["\x00"+v] = v // a name no option can have
	}
	if call != nil {
		maps.Copy(secrets, call.settings.secrets)
		return secrets
	}
	// A forged request may carry any call's secret; mask them all.
	for _, c := range p.pending {
		maps.Copy(secrets, c.settings.secrets)
	}
	return secrets
}

// approvedInFlight tells whether the host approved a confirmation of a
// call that has not returned yet.
func (p *Page) approvedInFlight() bool {
	for _, rec := range p.hostLog.Confirmations() {
		p.mu.Lock()
		_, inFlight := p.pending[rec.Request.ExecutionID]
		p.mu.Unlock()
		if rec.Approved && inFlight {
			return true
		}
	}
	return false
}
