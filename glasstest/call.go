package glasstest

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/glassworks/glass/internal/hostlog"
	"github.com/glassworks/glass/internal/pagejs"
	"github.com/glassworks/glass/receipt"
)

// A call is where the harness plays the agent runtime: it issues the
// execution id, reaches the runtime over a transport, and judges the
// answer as a host must before a spec sees it. The runtime's own answer is
// kept apart (Answer) so that the conformance suite judges the runtime,
// not what the host made of it.

// Do calls the declared action id with args as an agent would and returns
// the decoded receipt. It never panics, and fails the spec only for a
// mistake of the spec's own: its ConfirmWith or HandoffWith function
// panicked (the one rule of every callback, see HandoffWith), or args
// cannot be sent (below). Harness failures (no runtime, a crash, a
// time-out, a receipt that is not JSON) come back as receipts with phase
// transport or browser_effect.
//
// The harness gives every call a fresh execution id and passes it to the
// runtime; an answer that carries another execution id (a replayed or
// foreign receipt) is refused as EXECUTION_MISMATCH at phase transport.
// When the runtime's ACTION_NOT_FOUND lists no available actions, the
// harness adds them from a snapshot, as CONTRACT.md §2.2 lets a host do.
//
// args is one of:
//   - nil: no arguments ({});
//   - a Go value — a map, a struct — marshalled to JSON. A value JSON
//     cannot hold (a channel, a func, NaN or ±Inf) fails the spec;
//   - a string, which is JSON text and sent unchanged: valid JSON, or text
//     that opens an object or an array ({ or [) and is malformed on
//     purpose, to test INVALID_ARGS. Any other string — Do("add", "milk")
//     — is a Go string mistaken for the arguments and fails the spec: send
//     map[string]any{"title": "milk"} instead;
//   - []byte or json.RawMessage: sent unchanged and unchecked, for any
//     malformed input.
//
// Under Open a failing spec stops there; a page of OpenPage, which has
// no spec to fail, returns a TRANSPORT_FAILED receipt with the same
// message. A call of a folded row action — id "remove" with args
// {"record": "t9"} — is mapped to the declared action "remove@t9" with
// the remaining arguments.
func (p *Page) Do(id string, args any, opts ...CallOption) *receipt.Receipt {
	s := p.settings.forCall(opts)
	p.noteSecrets(s.secrets)
	return p.finish(p.covered(p.do(id, args, s), s))
}

// Resume continues a compound action (a flow) from the step that failed,
// through the runtime's resume(handle, options). handle is the result's
// resume field of a STEP_FAILED receipt; earlier steps are never replayed.
// The runtime asks again for confirmation of the remaining steps, and
// needs the call's sensitive values again (pass Sensitive options): it
// does not keep them between calls.
//
// Like Do, it never fails the spec but for a panicking ConfirmWith or
// HandoffWith function: an unknown or used handle comes back as ACTION_NOT_FOUND,
// harness failures as transport receipts, and an answer of another
// execution as EXECUTION_MISMATCH.
func (p *Page) Resume(handle string, opts ...CallOption) *receipt.Receipt {
	s := p.settings.forCall(opts)
	p.noteSecrets(s.secrets)
	return p.finish(p.coveredResume(p.resume(handle, s), s, handle))
}

// Answer returns the runtime's own receipt for a receipt this page's Do or
// Resume returned, before the host judged or completed it: the receipt of
// another execution that Do refused as EXECUTION_MISMATCH, or an
// ACTION_NOT_FOUND without the available actions the host added. ok is
// false when the runtime gave no receipt (a harness failure: no runtime, a
// time-out, an answer that is not a receipt) or r did not come from this
// page.
func (p *Page) Answer(r *receipt.Receipt) (answer *receipt.Receipt, ok bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	c, found := p.calls[r]
	if !found || c.answer == nil {
		return nil, false
	}
	return c.answer, true
}

// issuedCall is what the host knows of one call it made: the execution id
// it issued and the runtime's own answer, if there was one.
type issuedCall struct {
	execID string
	answer *receipt.Receipt
}

// callResult is one call's outcome before it is recorded.
type callResult struct {
	r *receipt.Receipt
	issuedCall
}

// finish records a call's receipt and fails the spec with a failure of
// its own during the call (failCall), keyed on the execution the host
// issued (not on the id the receipt claims).
func (p *Page) finish(c callResult) *receipt.Receipt {
	p.mu.Lock()
	p.receipts = append(p.receipts, c.r)
	p.calls[c.r] = c.issuedCall
	if c.answer != nil {
		p.calls[c.answer] = c.issuedCall
	}
	failed := p.failures[c.execID]
	delete(p.failures, c.execID)
	p.mu.Unlock()
	if failed != nil {
		p.fail(failed)
	}
	return c.r
}

// failCall notes a mistake of the spec's own during the call of execID —
// a panicking callback, arguments that cannot be sent — for finish to fail
// the spec with; the first one of a call is kept.
func (p *Page) failCall(execID string, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.failures[execID] == nil {
		p.failures[execID] = err
	}
}

func (p *Page) do(id string, args any, s settings) callResult {
	execID := hostlog.NewID("act_")
	argsJSON, err := encodeArgs(id, args)
	if err != nil {
		p.failCall(execID, err)
		return callResult{r: harnessReceipt(id, execID, receipt.CodeTransportFailed, err.Error()), issuedCall: issuedCall{execID: execID}}
	}
	id, argsJSON = p.fold(id, argsJSON, s)
	end := p.begin(execID, id, s)
	defer end()
	options := callOptions(execID, s)
	var (
		r         *receipt.Receipt
		byRuntime bool
	)
	navBefore := p.navigationCount()
	if s.transport == TransportWebMCP {
		r, byRuntime = p.doWebMCP(id, argsJSON, execID, options, s, navBefore)
	} else {
		v, err := p.evaluate(s.callBound(), pagejs.Bridge, []any{"execute", id, argsJSON, options, MaxReceiptBytes})
		r, byRuntime = p.toReceipt(id, execID, v, err, navBefore)
	}
	return p.judge(id, execID, r, byRuntime, s)
}

func (p *Page) resume(handle string, s settings) callResult {
	flow := p.flowOf(handle)
	execID := hostlog.NewID("act_")
	// The runtime asks confirmations of a resumed flow under the flow's id;
	// a handle the harness never saw binds to no action, so any
	// confirmation it asks for is refused as unsolicited.
	end := p.begin(execID, flow, s)
	defer end()
	name := flow
	if name == "" {
		name = handle
	}
	navBefore := p.navigationCount()
	v, err := p.evaluate(s.callBound(), pagejs.Bridge, []any{"resume", handle, "", callOptions(execID, s), MaxReceiptBytes})
	r, byRuntime := p.toReceipt(name, execID, v, err, navBefore)
	return p.judge(name, execID, r, byRuntime, s)
}

// begin puts the call in flight: from now until end, the host answers
// confirmations and hand-offs that name execID.
func (p *Page) begin(execID, action string, s settings) (end func()) {
	p.mu.Lock()
	p.pending[execID] = &pendingCall{id: execID, action: action, settings: s}
	p.mu.Unlock()
	return func() {
		p.mu.Lock()
		delete(p.pending, execID)
		p.mu.Unlock()
	}
}

// judge is what the host makes of the runtime's answer r (byRuntime) or of
// its own failure receipt: a receipt of another execution is refused; an
// ACTION_NOT_FOUND without the available actions gets them from a
// snapshot. The runtime's answer itself is kept unchanged.
func (p *Page) judge(id, execID string, r *receipt.Receipt, byRuntime bool, s settings) callResult {
	c := callResult{r: r, issuedCall: issuedCall{execID: execID}}
	if !byRuntime {
		return c
	}
	c.answer = r
	if !s.noExecutionID && r.ExecutionID != execID {
		c.r = harnessReceipt(id, execID, receipt.CodeExecutionMismatch, fmt.Sprintf(
			"the runtime answered with the receipt of execution %q, not of this call's execution %q",
			receipt.Clip(r.ExecutionID, 80), execID))
		return c
	}
	if r.Code() == receipt.CodeActionNotFound && len(r.Result.Error.Available) == 0 {
		if snap, err := p.trySnapshot(s.timeout); err == nil {
			filled := *r
			e := *r.Result.Error
			e.Available = snap.AvailableIDs()
			filled.Result.Error = &e
			c.r = &filled
		}
	}
	return c
}

// flowOf finds the flow a resume handle belongs to among the receipts of
// this page.
func (p *Page) flowOf(handle string) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i := len(p.receipts) - 1; i >= 0; i-- {
		if r := p.receipts[i]; r.Result.Resume == handle && handle != "" {
			return r.Result.Action.ID
		}
	}
	return ""
}

// encodeArgs is the JSON text Do sends for args (see Do for the rule), or
// the error that fails the spec when args cannot be sent.
func encodeArgs(id string, args any) (string, error) {
	switch a := args.(type) {
	case nil:
		return "{}", nil
	case string:
		if !json.Valid([]byte(a)) && !opensJSON(a) {
			return "", fmt.Errorf("glasstest: Do(%q): the string argument %q is not JSON text: Do sends a string as JSON text, unchanged; "+
				"send arguments as a map or a struct (map[string]any{...}), or malformed input as json.RawMessage", receipt.Clip(id, 80), receipt.Clip(a, 80))
		}
		return a, nil
	case []byte:
		return string(a), nil
	case json.RawMessage:
		return string(a), nil
	}
	b, err := json.Marshal(args)
	if err != nil {
		return "", fmt.Errorf("glasstest: Do(%q): the arguments (%T) cannot be sent as JSON: %w", receipt.Clip(id, 80), args, err)
	}
	return string(b), nil
}

// opensJSON reports whether s, after white space, opens a JSON object or
// array: malformed arguments written on purpose ({"unterminated).
func opensJSON(s string) bool {
	s = strings.TrimLeft(s, " \t\r\n")
	return strings.HasPrefix(s, "{") || strings.HasPrefix(s, "[")
}

// maxPageText bounds, in bytes, any text of the page the harness repeats
// in a message of its own (a thrown message, a protocol name, an execution
// id). The page bounds it too, but with built-ins it can replace.
const maxPageText = receipt.MaxTextChars
