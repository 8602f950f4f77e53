package glasstest

import (
	"encoding/json"

	"github.com/glassworks/glass/receipt"
)

// host is the harness's part in the host rules of CONTRACT.md (§6.5): how
// it maps a folded row call to a declared action, when it installs its
// channels, which call in flight a confirmation request is answered for,
// and what it makes of a call that gave no receipt. The harness always
// uses reference. The conformance suite's host mutants replace one of
// these decisions with a broken one to prove that the host checks can
// fail; they exist only in a test build (-tags glasshostfaults,
// hostmutants.go), so nothing a user builds can break the host.
type host struct {
	// foldRow returns the declared row action a call of the folded tool
	// with record runs, and the arguments JSON it passes on to it (the
	// call's args without record).
	foldRow func(snap *receipt.Snapshot, tool, record string, args map[string]json.RawMessage) (string, string, bool)
	// beforeScripts installs the host channels before any page script
	// runs; afterLoad runs once the page has loaded.
	beforeScripts, afterLoad func(p *Page) error
	// bind returns the call in flight a confirmation request is answered
	// for, or nil when the host must refuse it. Called with p.mu held.
	bind func(p *Page, req ConfirmRequest, raw bool) *pendingCall
	// failure is the harness's receipt for a call that gave no receipt of
	// the runtime's (nil when v is the runtime's answer).
	failure func(p *Page, f callFailure) *receipt.Receipt
}

// callFailure is what the harness knows of a call that may have gone
// wrong: the bridge's answer v or the error of the call, and whether the
// page navigated during it.
type callFailure struct {
	id, execID string
	v          any
	err        error
	navigated  bool
}

// reference is the host as CONTRACT.md wants it.
var reference = host{
	foldRow:       foldRow,
	beforeScripts: installChannels,
	afterLoad:     func(*Page) error { return nil },
	bind:          bindConfirmation,
	failure:       failureReceipt,
}

// host is the page's host: the reference one unless a test build broke
// it.
func (p *Page) host() *host {
	if p.settings.host != nil {
		return p.settings.host
	}
	return &reference
}

// foldRow maps a folded call of tool with record to the row action the
// snapshot declares for that record, passing the other arguments on
// unchanged.
func foldRow(snap *receipt.Snapshot, tool, record string, args map[string]json.RawMessage) (string, string, bool) {
	for _, a := range snap.Actions.Items {
		if a.Tool == tool && a.Record == record {
			delete(args, "record")
			rest, _ := json.Marshal(args)
			return a.ID, string(rest), true
		}
	}
	return "", "", false
}

// bindConfirmation answers a request only for a call the host has in
// flight, through glassHost, for that call's action or one of its steps.
func bindConfirmation(p *Page, req ConfirmRequest, raw bool) *pendingCall {
	call := p.pending[req.ExecutionID]
	if raw || call != nil && call.action != req.Action && !p.isStepOf(req.Action, call.action) {
		return nil
	}
	return call
}

// The messages of the host channel and the host's records of them are
// the receipt package's (both the harness and matchers read them); these
// are their names here.
type (
	// ConfirmRequest is what the runtime asks the host before a call that
	// needs confirmation. Sensitive arguments arrive masked.
	ConfirmRequest = receipt.ConfirmRequest
	// ConfirmationRecord is one confirmation request the host received
	// and how it answered (see receipt.ConfirmationRecord).
	ConfirmationRecord = receipt.ConfirmationRecord
	// HandoffRequest is what the runtime asks the host when an action
	// must be performed by the user (a hand-off).
	HandoffRequest = receipt.HandoffRequest
	// HandoffOutcome is the user's answer to a hand-off.
	HandoffOutcome = receipt.HandoffOutcome
	// HandoffRecord is one hand-off request the host received and how it
	// was answered.
	HandoffRecord = receipt.HandoffRecord
)

// The outcomes a hand-off handler returns. The runtime verifies a
// completed step with the action's declared check and reports
// HANDOFF_FAILED when the check does not hold; the others map to
// HANDOFF_CANCELLED, HANDOFF_TIMEOUT and HANDOFF_FAILED.
const (
	HandoffCompleted = receipt.HandoffCompleted
	HandoffCancelled = receipt.HandoffCancelled
	HandoffTimedOut  = receipt.HandoffTimedOut
	HandoffFailed    = receipt.HandoffFailed
)
