// Package hostfault holds the switches that make the Glass host (package
// glasstest) break one of its own guarantees on purpose. They are the host
// mutants of the conformance suite's mutation matrix: a conformance check
// of a host rule is proven by showing that it fails when the host, not the
// page, breaks the rule.
//
// The package is internal so that only code of this module can break the
// host; nothing a user imports can. A fault applies to the pages opened
// with the option Option returns, never to the process as a whole, so host
// mutants can run beside other runs.
package hostfault

// Fault is one guarantee of the host, broken.
type Fault string

// The faults, one per host rule of CONTRACT.md.
const (
	// FoldFirstRow maps a folded row call name+record to the first
	// declared row of name, whatever the record (host.folded-rows).
	FoldFirstRow Fault = "fold-first-row"
	// ChannelsLate installs globalThis.glassHost after the page loaded
	// instead of before its first script (host.channels-first).
	ChannelsLate Fault = "channels-late"
	// ApproveForged approves a confirmation request that names an
	// execution the host has not in flight (host.ticket-binding).
	ApproveForged Fault = "approve-forged"
	// ThrowAsTransport reports a runtime that throws or rejects as
	// TRANSPORT_FAILED (host.throw-is-execution-failed).
	ThrowAsTransport Fault = "throw-as-transport"
	// TimeoutAsExecution reports a runtime that never answers as
	// EXECUTION_FAILED, as if its handler had failed (host.transport).
	TimeoutAsExecution Fault = "timeout-as-execution"
	// FateIgnored does not tell a crash, a close or a navigation apart
	// from any other failed evaluation (host.browser-effect).
	FateIgnored Fault = "fate-ignored"
)

// Option returns a glasstest.Option, as any because this package cannot
// name glasstest's types, that makes the pages it opens break f. Package
// glasstest sets it when it is initialised.
var Option func(f Fault) any
