package receipt

// The messages of the host channel (CONTRACT.md §6.3) — what a runtime
// asks the host before a call that needs confirmation, and when a step
// must be done by the user — and the host's record of each request and of
// its answer. glasstest's harness plays the host and keeps these records
// (glasstest re-exports the names); matchers reads them
// (HaveAskedConfirmation) without importing the harness.

// Masked is what the runtime writes wherever a sensitive value would
// appear (CONTRACT.md §6.3, sensitive.never-echoed), and what the host
// writes where a runtime forgot to.
const Masked = "[sensitive]"

// ConfirmRequest is what the runtime asks the host before a call that
// needs confirmation. Sensitive arguments arrive masked (Masked).
type ConfirmRequest struct {
	ExecutionID string         `json:"executionId"`
	Action      string         `json:"action"`
	Description string         `json:"description"`
	Risk        Risk           `json:"risk"`
	Step        string         `json:"step,omitempty"`
	Args        map[string]any `json:"args"`
}

// ConfirmationRecord is one confirmation request the host received and how
// it answered. Solicited is false when the request named no call the
// host had in flight (a page asking on its own behalf, an execution that
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

// HandoffRequest is what the runtime asks the host when an action must be
// performed by the user (a hand-off): the runtime never simulates the step.
type HandoffRequest struct {
	ExecutionID  string         `json:"executionId"`
	Action       string         `json:"action"`
	Description  string         `json:"description"`
	Args         map[string]any `json:"args"`
	Instructions string         `json:"instructions"`
	TimeoutMs    int64          `json:"timeoutMs"`
}

// HandoffOutcome is the user's answer to a hand-off, as the host reports
// it to the runtime.
type HandoffOutcome string

// The outcomes a hand-off handler returns. The runtime verifies a
// completed step with the action's declared check and reports HANDOFF_FAILED when
// the check does not hold; the others map to HANDOFF_CANCELLED,
// HANDOFF_TIMEOUT and HANDOFF_FAILED.
const (
	HandoffCompleted HandoffOutcome = "completed"
	HandoffCancelled HandoffOutcome = "cancelled"
	HandoffTimedOut  HandoffOutcome = "timeout"
	HandoffFailed    HandoffOutcome = "failed"
)

// HandoffRecord is one hand-off request the host received and how it was
// answered. Solicited is false when the request named no call of the
// host (a page asking on its own behalf): such requests always fail.
type HandoffRecord struct {
	Request   HandoffRequest
	Outcome   HandoffOutcome
	Reason    string
	Solicited bool
	// SensitiveMasked is true when the request arrived with a registered
	// sensitive value in clear, which the host then masked: the runtime
	// broke CONTRACT.md's sensitive.never-echoed (the conformance suite
	// reads this).
	SensitiveMasked bool
}
