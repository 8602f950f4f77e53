package receipt

// Phase says where in the action contract an attempt stopped. Every error
// code belongs to exactly one phase (CONTRACT.md, §3 "Error codes").
type Phase string

// The phases of seed 004, in the order an attempt passes through them.
const (
	PhaseNone             Phase = ""
	PhasePolicy           Phase = "policy"
	PhasePreflight        Phase = "preflight"
	PhaseTargetResolution Phase = "target_resolution"
	PhaseDispatch         Phase = "dispatch"
	PhaseBrowserEffect    Phase = "browser_effect"
	PhaseVerification     Phase = "verification"
	PhaseTransport        Phase = "transport"
)

// Phases lists every phase a failure can carry.
var Phases = []Phase{PhasePolicy, PhasePreflight, PhaseTargetResolution, PhaseDispatch, PhaseBrowserEffect, PhaseVerification, PhaseTransport}

// Code is the stable name of one failure. Codes come from seed 000 (the
// lifecycle) and seed 004 (revisions); the harness adds its own codes for
// failures between the harness and the page.
type Code string

// The codes of the contract. See CONTRACT.md, §3 "Error codes".
const (
	CodeNone              Code = ""
	CodeActionNotFound    Code = "ACTION_NOT_FOUND"
	CodeInvalidArgs       Code = "INVALID_ARGS"
	CodeInvalidParams     Code = "INVALID_PARAMS"
	CodeStaleRevision     Code = "STALE_REVISION"
	CodePermissionDenied  Code = "PERMISSION_DENIED"
	CodeActionUnavailable Code = "ACTION_UNAVAILABLE"
	CodeExecutionFailed   Code = "EXECUTION_FAILED"
	CodeStepFailed        Code = "STEP_FAILED"
	CodeHandoffCancelled  Code = "HANDOFF_CANCELLED"
	CodeHandoffTimeout    Code = "HANDOFF_TIMEOUT"
	CodeHandoffFailed     Code = "HANDOFF_FAILED"
	CodeExpectationFailed Code = "EXPECTATION_FAILED"

	// Browser effects observed by the harness while a call was executing.
	CodePageCrashed   Code = "PAGE_CRASHED"
	CodePageNavigated Code = "PAGE_NAVIGATED"
	CodePageClosed    Code = "PAGE_CLOSED"

	// Harness ↔ page failures.
	CodeRuntimeMissing   Code = "RUNTIME_MISSING"
	CodeProtocolMismatch Code = "PROTOCOL_MISMATCH"
	CodeReceiptInvalid   Code = "RECEIPT_INVALID"
	CodeCallTimeout      Code = "CALL_TIMEOUT"
	CodeTransportFailed  Code = "TRANSPORT_FAILED"
	// CodeExecutionMismatch: the answer is a receipt of another execution
	// (its executionId is not the one the host passed for the call).
	CodeExecutionMismatch Code = "EXECUTION_MISMATCH"
)

// Started is what a failure tells about the business operation: did the
// page's own write path possibly run?
type Started string

// The three answers of the contract's code table.
const (
	StartedNo      Started = "no"
	StartedYes     Started = "yes"
	StartedUnknown Started = "unknown"
)

type codeInfo struct {
	phase   Phase
	started Started
}

var codeTable = map[Code]codeInfo{
	CodeActionNotFound:    {PhaseTargetResolution, StartedNo},
	CodeInvalidArgs:       {PhasePreflight, StartedNo},
	CodeInvalidParams:     {PhasePreflight, StartedNo},
	CodeStaleRevision:     {PhasePreflight, StartedNo},
	CodePermissionDenied:  {PhasePolicy, StartedNo},
	CodeActionUnavailable: {PhaseTargetResolution, StartedNo},
	CodeExecutionFailed:   {PhaseDispatch, StartedYes},
	CodeStepFailed:        {PhaseDispatch, StartedYes},
	CodeHandoffCancelled:  {PhaseDispatch, StartedUnknown},
	CodeHandoffTimeout:    {PhaseDispatch, StartedUnknown},
	CodeHandoffFailed:     {PhaseDispatch, StartedUnknown},
	CodeExpectationFailed: {PhaseVerification, StartedYes},
	CodePageCrashed:       {PhaseBrowserEffect, StartedYes},
	CodePageNavigated:     {PhaseBrowserEffect, StartedYes},
	CodePageClosed:        {PhaseBrowserEffect, StartedYes},
	CodeRuntimeMissing:    {PhaseTransport, StartedUnknown},
	CodeProtocolMismatch:  {PhaseTransport, StartedUnknown},
	CodeReceiptInvalid:    {PhaseTransport, StartedUnknown},
	CodeCallTimeout:       {PhaseTransport, StartedUnknown},
	CodeTransportFailed:   {PhaseTransport, StartedUnknown},
	CodeExecutionMismatch: {PhaseTransport, StartedUnknown},
}

// Codes lists every code the contract defines, in table order.
var Codes = []Code{
	CodeActionNotFound, CodeInvalidArgs, CodeInvalidParams, CodeStaleRevision,
	CodePermissionDenied, CodeActionUnavailable, CodeExecutionFailed, CodeStepFailed,
	CodeHandoffCancelled, CodeHandoffTimeout, CodeHandoffFailed, CodeExpectationFailed,
	CodePageCrashed, CodePageNavigated, CodePageClosed,
	CodeRuntimeMissing, CodeProtocolMismatch, CodeReceiptInvalid, CodeCallTimeout, CodeTransportFailed,
	CodeExecutionMismatch,
}

func (c Code) String() string { return string(c) }

// Known reports whether c is a code of the contract.
func (c Code) Known() bool {
	_, ok := codeTable[c]
	return ok
}

// Phase is the one phase c belongs to, or PhaseNone for an unknown code.
func (c Code) Phase() Phase { return codeTable[c].phase }

// Started is the contract's answer to "did the operation start?" for c.
func (c Code) Started() Started {
	if s, ok := codeTable[c]; ok {
		return s.started
	}
	return StartedUnknown
}

// Fidelity is how much confidence the runtime has in an element action's
// execution path (seed 000, "Execution modes").
type Fidelity string

// The fidelity levels; a receipt reports the level only when it is not high.
const (
	FidelityHigh Fidelity = "high"
	FidelityAuto Fidelity = "auto"
	FidelityLow  Fidelity = "low"
)

// RecoveryStrategy is seed 004's explicit recovery policy of a failure.
type RecoveryStrategy string

// The strategies of seed 004, "Recovery policy".
const (
	RecoveryNone      RecoveryStrategy = "none"
	RecoveryReport    RecoveryStrategy = "report"
	RecoveryRetrySafe RecoveryStrategy = "retry_safe"
)

// Risk is an action's risk class; it decides whether the runtime must ask
// for confirmation.
type Risk string

// The risk classes of the contract, weakest first.
const (
	RiskRead      Risk = "read"
	RiskWrite     Risk = "write"
	RiskDangerous Risk = "dangerous"
)

// Kind is an action's execution mode (seed 000, "Execution modes").
type Kind string

// The four execution modes.
const (
	KindElement  Kind = "element"
	KindFunction Kind = "function"
	KindFlow     Kind = "flow"
	KindHandoff  Kind = "handoff"
)
