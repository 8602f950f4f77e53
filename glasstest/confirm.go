package glasstest

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"

	"github.com/glassworks/glass/internal/hostfault"
	"github.com/glassworks/glass/receipt"
)

// ConfirmationRecord is one confirmation request the host received and how
// it answered. Solicited is false when the request named no call the
// harness had in flight (a page asking on its own behalf, an execution that
// had already ended, another action than the call's) or came through the
// raw binding instead of glassHost.confirm: such requests are always
// denied.
type ConfirmationRecord struct {
	// Request is what was asked, with sensitive values masked.
	Request  ConfirmRequest
	Approved bool
	// Ticket is the host-issued proof of an approval; empty on a denial.
	Ticket    string
	Solicited bool
	// Raw is true when a page script called the host binding directly.
	Raw bool
	// Reason says why the host denied (empty on an approval).
	Reason string
	// SensitiveMasked is true when the request arrived with a registered
	// sensitive value in clear, which the host then masked: the runtime
	// broke CONTRACT.md's sensitive.never-echoed (the conformance suite
	// reads this).
	SensitiveMasked bool
}

const rawBindingReason = "the host binding was called directly, not through glassHost"

// masked is what the host shows instead of a sensitive value.
const masked = "[sensitive]"

// confirm answers one confirmation request. The answer is bound to the
// pending execution it names: only a request through glassHost, for an
// execution the harness has in flight and for that execution's action, is
// put to the spec's policy. An approval carries a fresh ticket, recorded
// so that VerifyConfirmations can tell a real approval from a claimed one.
func (p *Page) confirm(req ConfirmRequest) confirmAnswer {
	return p.answerConfirm(req, false)
}

// refuseRaw answers a message that came through the raw binding: a
// confirmation request is recorded as unsolicited and denied, anything else
// fails.
func (p *Page) refuseRaw(msg hostMessage) any {
	if msg.Type != "confirm" {
		return map[string]string{"status": "failed", "reason": rawBindingReason}
	}
	var req ConfirmRequest
	_ = json.Unmarshal(msg.Request, &req)
	return p.answerConfirm(req, true)
}

func (p *Page) answerConfirm(req ConfirmRequest, raw bool) confirmAnswer {
	p.mu.Lock()
	call := p.pending[req.ExecutionID]
	if raw || call != nil && call.action != req.Action && !p.isStepOf(req.Action, call.action) {
		call = nil
	}
	if call == nil && !raw && p.settings.broken(hostfault.ApproveForged) {
		for _, c := range p.pending {
			call = c
		}
	}
	secrets := map[string]string{}
	for k, v := range p.settings.secrets {
		secrets[k] = v
	}
	if call != nil {
		for k, v := range call.settings.secrets {
			secrets[k] = v
		}
	} else {
		// A forged request may carry any call's secret; mask them all.
		for _, c := range p.pending {
			for k, v := range c.settings.secrets {
				secrets[k] = v
			}
		}
	}
	p.mu.Unlock()

	clear := req.Args
	req.Args = maskArgs(req.Args, secrets)
	rec := ConfirmationRecord{Request: req, Solicited: call != nil, Raw: raw, SensitiveMasked: !reflect.DeepEqual(clear, req.Args)}
	var ans confirmAnswer
	switch {
	case raw:
		ans.Reason = rawBindingReason
	case call == nil:
		ans.Reason = "no call of the host is waiting for this confirmation"
	case call.settings.policy.kind == policyNoChannel:
		ans.Reason = "no confirmation channel"
	case call.settings.policy.kind == policyApprove:
		ans.Approved = true
	case call.settings.policy.kind == policyFunc:
		ok, err := askFunc(call.settings.policy.fn, req)
		if err != nil {
			ans.Reason = err.Error()
			p.mu.Lock()
			if p.panics[req.ExecutionID] == nil {
				p.panics[req.ExecutionID] = err
			}
			p.mu.Unlock()
		}
		ans.Approved = ok
	}
	if ans.Approved {
		ans.Ticket = newID("tk_")
	} else if ans.Reason == "" {
		ans.Reason = "denied by the user"
	}
	rec.Approved, rec.Ticket, rec.Reason = ans.Approved, ans.Ticket, ans.Reason
	p.mu.Lock()
	p.confirmations = append(p.confirmations, rec)
	if ans.Ticket != "" {
		p.tickets[ans.Ticket] = len(p.confirmations) - 1
	}
	p.mu.Unlock()
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

// askFunc runs the spec's ConfirmWith function. It runs on Playwright's
// goroutine, where a panic would kill the test binary: a panic becomes a
// denial, and Do then fails the spec with it. (A Gomega failure inside the
// function has already been registered with Ginkgo before it panics.)
func askFunc(fn func(ConfirmRequest) bool, req ConfirmRequest) (ok bool, err error) {
	defer func() {
		if v := recover(); v != nil {
			ok, err = false, fmt.Errorf("glasstest: the ConfirmWith function panicked on %q: %v", req.Action, v)
		}
	}()
	return fn(req), nil
}

// maskArgs replaces, at any depth, every string equal to a registered
// sensitive value. The runtime masks too; the host does it again so that a
// runtime that forgets cannot leak a secret into a spec's function, the
// record or the evidence.
func maskArgs(args map[string]any, secrets map[string]string) map[string]any {
	if len(secrets) == 0 || args == nil {
		return args
	}
	values := map[string]bool{}
	for _, v := range secrets {
		if v != "" {
			values[v] = true
		}
	}
	out, _ := maskValue(args, values).(map[string]any)
	return out
}

func maskValue(v any, secrets map[string]bool) any {
	switch x := v.(type) {
	case string:
		if secrets[x] {
			return masked
		}
		return x
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = maskValue(e, secrets)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = maskValue(e, secrets)
		}
		return out
	}
	return v
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
// A harness receipt (transport or browser_effect) reports no
// confirmations; it is checked like any other.
func (p *Page) VerifyConfirmations(r *receipt.Receipt) error {
	if r == nil {
		return errors.New("glasstest: verify confirmations: nil receipt")
	}
	p.mu.Lock()
	records := append([]ConfirmationRecord(nil), p.confirmations...)
	tickets := make(map[string]int, len(p.tickets))
	for k, v := range p.tickets {
		tickets[k] = v
	}
	p.mu.Unlock()

	var errs []error
	seen := map[string]bool{}
	for i, c := range r.Confirmations {
		where := fmt.Sprintf("receipt %s: confirmations[%d] (%s)", r.ExecutionID, i, c.Action)
		if !c.Approved {
			continue
		}
		if c.Ticket == "" {
			errs = append(errs, fmt.Errorf("%s: approved without a host ticket", where))
			continue
		}
		if seen[c.Ticket] {
			errs = append(errs, fmt.Errorf("%s: ticket %q claimed twice", where, c.Ticket))
			continue
		}
		seen[c.Ticket] = true
		idx, ok := tickets[c.Ticket]
		if !ok {
			errs = append(errs, fmt.Errorf("%s: ticket %q was not issued by the host", where, c.Ticket))
			continue
		}
		rec := records[idx]
		// A flow's step reports the step's action; the request named the
		// flow and the step.
		if rec.Request.ExecutionID != r.ExecutionID || (rec.Request.Action != c.Action && rec.Request.Step != c.Action) {
			errs = append(errs, fmt.Errorf("%s: ticket %q was issued for %s of execution %s", where, c.Ticket, rec.Request.Action, rec.Request.ExecutionID))
		}
	}
	// Every solicited answer for this execution must be reported as given.
	var approved, denied int
	for _, rec := range records {
		if !rec.Solicited || rec.Request.ExecutionID != r.ExecutionID {
			continue
		}
		if rec.Approved {
			approved++
			if !seen[rec.Ticket] {
				errs = append(errs, fmt.Errorf("receipt %s: the host approved %s (ticket %q) but the receipt does not report it", r.ExecutionID, rec.Request.Action, rec.Ticket))
			}
		} else {
			denied++
		}
	}
	if reported := countDenied(r); reported < denied {
		errs = append(errs, fmt.Errorf("receipt %s: the host denied %d confirmation(s) but the receipt reports %d denial(s)", r.ExecutionID, denied, reported))
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("glasstest: confirmations do not match the host's record: %w", err)
	}
	return nil
}

func countDenied(r *receipt.Receipt) int {
	n := 0
	for _, c := range r.Confirmations {
		if !c.Approved {
			n++
		}
	}
	return n
}
