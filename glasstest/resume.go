package glasstest

import (
	"github.com/glassworks/glass/receipt"
)

// Resume continues a compound action (a flow) from the step that failed,
// through the runtime's resume(handle, options). handle is the result's
// resume field of a STEP_FAILED receipt; earlier steps are never replayed.
// The runtime asks again for confirmation of the remaining steps, and
// needs the call's sensitive values again (pass Sensitive options): it
// does not keep them between calls.
//
// Like Do, it never fails the spec: an unknown or used handle comes back
// as ACTION_NOT_FOUND, harness failures as transport receipts.
func (p *Page) Resume(handle string, opts ...Option) *receipt.Receipt {
	s := p.settings.with(opts)
	r := p.resume(handle, s)
	p.mu.Lock()
	p.receipts = append(p.receipts, r)
	p.mu.Unlock()
	return r
}

func (p *Page) resume(handle string, s settings) *receipt.Receipt {
	flow := p.flowOf(handle)
	execID := newID("act_")
	p.mu.Lock()
	// The runtime asks confirmations of a resumed flow under the flow's id;
	// a handle the harness never saw binds to no action, so any
	// confirmation it asks for is refused as unsolicited.
	p.pending[execID] = &pendingCall{id: execID, action: flow, settings: s}
	navBefore := p.navigations
	p.mu.Unlock()
	defer func() {
		p.mu.Lock()
		delete(p.pending, execID)
		p.mu.Unlock()
	}()
	name := flow
	if name == "" {
		name = handle
	}
	v, err := p.evaluate(s.timeout, bridgeScript, []any{"resume", handle, "", callOptions(execID, s), MaxReceiptBytes})
	return p.toReceipt(name, execID, v, err, navBefore)
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
