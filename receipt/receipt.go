// Package receipt is the Go model of the Glass contract: the receipt a page
// runtime returns for every call, the snapshot of the page model, and the
// enums (phases, codes, fidelity, recovery) that give them meaning.
//
// It reads receipts; it never drives a browser, so packages that only check
// receipts (matchers, reports, the conformance rules) do not import
// Playwright. CONTRACT.md is the normative description of every field.
//
// Decode and DecodeSnapshot are strict: a document of the wrong shape is an
// *InvalidError listing every offending value by its JSONPath
// ("$.result.changed.records.removed[0]: want string, got number"), and
// errors.Is(err, ErrInvalid) holds. Decode accepts the canonical nested
// form and seed 004's flat form; marshalling always writes the canonical
// form. Fields the model does not know are kept in Extra at the extension
// points of the contract and written back, so a receipt round-trips.
package receipt

import (
	"encoding/json"
)

// Protocol is the page protocol version this model describes.
const Protocol = "glass.page/v1"

// Receipt is the bounded, structured result of one call. Result holds the
// lifecycle receipt of seed 000; the other fields are the Glass envelope of
// seed 004.
//
// Lists are tagged omitzero rather than omitempty: a list the runtime
// wrote empty ("available": []) is written back empty, a list it left out
// stays out, so a receipt round-trips as the JSON value it was.
type Receipt struct {
	Protocol         string           `json:"protocol,omitempty"`
	ExecutionID      string           `json:"executionId,omitempty"`
	Result           Result           `json:"result"`
	Revision         *Revision        `json:"revision,omitempty"`
	Phase            Phase            `json:"phase,omitempty"`
	RecoveryStrategy RecoveryStrategy `json:"recoveryStrategy,omitempty"`
	Recovery         string           `json:"recovery,omitempty"`
	Confirmations    []Confirmation   `json:"confirmations,omitzero"`

	// Extra keeps envelope fields this model does not know, so that a
	// receipt from a newer runtime round-trips without losing them.
	Extra map[string]json.RawMessage `json:"-"`
}

// Result is the lifecycle receipt: what ran, what was verified, what
// changed, and where a failure occurred.
type Result struct {
	OK       bool            `json:"ok"`
	Action   Action          `json:"action,omitzero"`
	Expect   string          `json:"expect,omitempty"`
	Changed  *Changed        `json:"changed,omitempty"`
	Fidelity Fidelity        `json:"fidelity,omitempty"`
	Warning  string          `json:"warning,omitempty"`
	Data     json.RawMessage `json:"data,omitempty"`
	Steps    []Step          `json:"steps,omitzero"`
	Resume   string          `json:"resume,omitempty"`
	Error    *Error          `json:"error,omitempty"`

	// Extra keeps result fields this model does not know.
	Extra map[string]json.RawMessage `json:"-"`
}

// Action names the declared action a call reached. Every receipt a page
// runtime writes names it; only a failure converted from seed 004's flat
// form may lack it, and then it is the zero Action and is not written.
type Action struct {
	ID          string `json:"id"`
	Description string `json:"description,omitempty"`
}

// Error is a structured failure. Code decides the phase and whether the
// operation started; the other fields are bounded evidence.
type Error struct {
	Code             Code     `json:"code"`
	Message          string   `json:"message,omitempty"`
	Reason           string   `json:"reason,omitempty"`
	Path             string   `json:"path,omitempty"`
	Available        []string `json:"available,omitzero"`
	Started          Started  `json:"started,omitempty"`
	Step             *int     `json:"step,omitempty"`
	ExpectedRevision *int64   `json:"expectedRevision,omitempty"`
	CurrentRevision  *int64   `json:"currentRevision,omitempty"`
}

// Revision is the page revision before and after the attempt (seed 004:
// previousRevision / currentRevision).
type Revision struct {
	Before int64 `json:"before"`
	After  int64 `json:"after"`
}

// Changed is the before/after comparison of the page model. A part is nil
// when nothing in it changed.
type Changed struct {
	Observed bool            `json:"observed"`
	Page     *PageChange     `json:"page,omitempty"`
	Records  *RecordChanges  `json:"records,omitempty"`
	Actions  *ActionChanges  `json:"actions,omitempty"`
	State    *StateChanges   `json:"state,omitempty"`
	Feedback *FeedbackChange `json:"feedback,omitempty"`
}

// RecordChanges reports records added, removed, updated and reordered.
// Every list is bounded; Omitted counts the entries left out.
type RecordChanges struct {
	Added     []string        `json:"added"`
	Removed   []string        `json:"removed"`
	Updated   []UpdatedRecord `json:"updated"`
	Reordered bool            `json:"reordered"`
	Omitted   RecordOmitted   `json:"omitted"`
	Total     *Total          `json:"total,omitempty"`
}

// UpdatedRecord names a record present before and after whose fields changed.
type UpdatedRecord struct {
	ID     string   `json:"id"`
	Fields []string `json:"fields"`
}

// RecordOmitted counts record changes left out of the bounded lists.
type RecordOmitted struct {
	Added   int `json:"added"`
	Removed int `json:"removed"`
	Updated int `json:"updated"`
}

// Total is the record count before and after.
type Total struct {
	From int `json:"from"`
	To   int `json:"to"`
}

// ActionChanges reports declared actions that appeared or disappeared.
type ActionChanges struct {
	Added   []string      `json:"added"`
	Removed []string      `json:"removed"`
	Omitted ActionOmitted `json:"omitted"`
}

// ActionOmitted counts action changes left out of the bounded lists.
type ActionOmitted struct {
	Added   int `json:"added"`
	Removed int `json:"removed"`
}

// StateChanges names the state-view keys whose value changed.
type StateChanges struct {
	Changed []string `json:"changed"`
	Omitted int      `json:"omitted"`
}

// FeedbackChange reports page feedback (toasts, banners, inline errors)
// that appeared or went away.
type FeedbackChange struct {
	Added   []Feedback      `json:"added"`
	Removed []Feedback      `json:"removed"`
	Omitted FeedbackOmitted `json:"omitted"`
}

// FeedbackOmitted counts feedback changes left out of the bounded lists.
type FeedbackOmitted struct {
	Added   int `json:"added"`
	Removed int `json:"removed"`
}

// Feedback is one message the page shows its user.
type Feedback struct {
	Kind string `json:"kind"`
	Text string `json:"text"`
}

// PageChange reports a change of page identity.
type PageChange struct {
	URL   *Transition `json:"url,omitempty"`
	Title *Transition `json:"title,omitempty"`
	ID    *Transition `json:"id,omitempty"`
}

// Transition is a value before and after.
type Transition struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// Step is one entry of a compound action's step ledger.
type Step struct {
	Index   int    `json:"index"`
	ID      string `json:"id"`
	Outcome string `json:"outcome"`
	Error   *Error `json:"error,omitempty"`
}

// The outcomes a step ledger entry can have.
const (
	StepOK      = "ok"
	StepFailed  = "failed"
	StepPending = "pending"
	// StepSkipped marks, in the receipt of a resumed flow, a step that had
	// succeeded in the call that failed and was not run again.
	StepSkipped = "skipped"
)

// Confirmation records one confirmation the runtime asked of the host.
// Ticket is the host's proof that it, not the page, gave the answer.
type Confirmation struct {
	Action   string `json:"action"`
	Risk     Risk   `json:"risk"`
	Approved bool   `json:"approved"`
	Ticket   string `json:"ticket,omitempty"`
}

// Code is the failure code of r, or CodeNone when r succeeded.
func (r *Receipt) Code() Code {
	if r == nil || r.Result.Error == nil {
		return CodeNone
	}
	return r.Result.Error.Code
}

// FailurePhase is the phase r failed at: the envelope's phase when present,
// else the phase of its code.
func (r *Receipt) FailurePhase() Phase {
	if r == nil || r.Result.OK {
		return PhaseNone
	}
	if r.Phase != PhaseNone {
		return r.Phase
	}
	return r.Code().Phase()
}
