package coverage

import (
	"fmt"
	"slices"
	"strings"
)

// The enums of this package are strings in JSON, checked when they are read
// back: a coverage file that names an unknown cell or measure is an error,
// not a silently empty column.

// Transport is how a call reached the page runtime.
type Transport string

// The transports of glasstest: the runtime's global through page.Evaluate,
// or the WebMCP tool the runtime registered.
const (
	TransportBridge Transport = "bridge"
	TransportWebMCP Transport = "webmcp"
)

// Transports lists the transports in the order the views show them.
var Transports = []Transport{TransportBridge, TransportWebMCP}

func (t Transport) String() string { return string(t) }

// MarshalText writes t; an unknown transport is an error.
func (t Transport) MarshalText() ([]byte, error) { return marshalEnum("transport", t, Transports) }

// UnmarshalText reads a transport; an unknown one is an error.
func (t *Transport) UnmarshalText(b []byte) error {
	return unmarshalEnum("transport", b, t, Transports)
}

// Answer is how a confirmation a call needed was answered.
type Answer string

// The answers. A call that needed no confirmation has none.
const (
	AnswerApproved  Answer = "approved"
	AnswerDenied    Answer = "denied"
	AnswerNoChannel Answer = "no_channel"
)

// Answers lists the answers in the order the views show them.
var Answers = []Answer{AnswerApproved, AnswerDenied, AnswerNoChannel}

func (a Answer) String() string { return string(a) }

// MarshalText writes a; an unknown answer is an error.
func (a Answer) MarshalText() ([]byte, error) { return marshalEnum("answer", a, Answers) }

// UnmarshalText reads an answer; an unknown one is an error.
func (a *Answer) UnmarshalText(b []byte) error { return unmarshalEnum("answer", b, a, Answers) }

// HandoffOutcome is the user's answer to a hand-off, as the host gave it to
// the runtime (glasstest.HandoffOutcome has the same values).
type HandoffOutcome string

// The hand-off outcomes of CONTRACT.md §6.3.
const (
	HandoffCompleted HandoffOutcome = "completed"
	HandoffCancelled HandoffOutcome = "cancelled"
	HandoffTimeout   HandoffOutcome = "timeout"
	HandoffFailed    HandoffOutcome = "failed"
)

// HandoffOutcomes lists the outcomes in the order the views show them.
var HandoffOutcomes = []HandoffOutcome{HandoffCompleted, HandoffCancelled, HandoffTimeout, HandoffFailed}

func (h HandoffOutcome) String() string { return string(h) }

// MarshalText writes h; an unknown outcome is an error.
func (h HandoffOutcome) MarshalText() ([]byte, error) {
	return marshalEnum("hand-off outcome", h, HandoffOutcomes)
}

// UnmarshalText reads an outcome; an unknown one is an error.
func (h *HandoffOutcome) UnmarshalText(b []byte) error {
	return unmarshalEnum("hand-off outcome", b, h, HandoffOutcomes)
}

// Cell is one thing a spec can exercise on an action: a column of the
// coverage table. Failure codes are columns too, kept apart (Action.Codes)
// because their set is open.
type Cell string

// The cells, in the order the HTML view shows them.
const (
	// CellCalled: a spec called the action directly (Do or Resume), with any
	// outcome.
	CellCalled Cell = "called"
	// CellOK: a call of the action succeeded.
	CellOK Cell = "ok"
	// CellBridge and CellWebMCP: a call reached the runtime over that
	// transport.
	CellBridge Cell = "bridge"
	CellWebMCP Cell = "webmcp"
	// CellApproved, CellDenied, CellNoChannel: a confirmation the call
	// needed was approved, denied by the user, or could not be asked (no
	// confirmation channel).
	CellApproved  Cell = "approved"
	CellDenied    Cell = "denied"
	CellNoChannel Cell = "no_channel"
	// CellAsStep: the action ran (ok or failed) as a step of a flow.
	CellAsStep Cell = "as_step"
	// CellStepFailed: a call of the flow stopped at a failed step.
	CellStepFailed Cell = "step_failed"
	// CellResumed: a spec resumed the flow (Page.Resume).
	CellResumed Cell = "resumed"
	// The hand-off cells: the user's answer, as the host gave it.
	CellHandoffCompleted Cell = "handoff_completed"
	CellHandoffCancelled Cell = "handoff_cancelled"
	CellHandoffTimeout   Cell = "handoff_timeout"
	CellHandoffFailed    Cell = "handoff_failed"
)

// Cells lists every cell in the order the HTML view shows them.
var Cells = []Cell{
	CellCalled, CellOK, CellBridge, CellWebMCP,
	CellApproved, CellDenied, CellNoChannel,
	CellAsStep, CellStepFailed, CellResumed,
	CellHandoffCompleted, CellHandoffCancelled, CellHandoffTimeout, CellHandoffFailed,
}

func (c Cell) String() string { return string(c) }

// MarshalText writes c; an unknown cell is an error.
func (c Cell) MarshalText() ([]byte, error) { return marshalEnum("cell", c, Cells) }

// UnmarshalText reads a cell; an unknown one is an error.
func (c *Cell) UnmarshalText(b []byte) error { return unmarshalEnum("cell", b, c, Cells) }

func transportCell(t Transport) Cell {
	if t == TransportWebMCP {
		return CellWebMCP
	}
	return CellBridge
}

func answerCell(a Answer) Cell {
	switch a {
	case AnswerApproved:
		return CellApproved
	case AnswerNoChannel:
		return CellNoChannel
	}
	return CellDenied
}

func handoffCell(h HandoffOutcome) Cell {
	switch h {
	case HandoffCompleted:
		return CellHandoffCompleted
	case HandoffCancelled:
		return CellHandoffCancelled
	case HandoffTimeout:
		return CellHandoffTimeout
	}
	return CellHandoffFailed
}

// Measure is one figure of the summary, and what a floor can require.
type Measure string

// The measures. Each counts declared actions, each (page, action) once;
// an action no page declared counts in none.
const (
	// MeasureActions: declared actions a spec called, or, for a step-only
	// action (which no agent may call), that ran as a step of a flow.
	MeasureActions Measure = "actions"
	// MeasureConfirm: of the actions that ask for confirmation (dangerous
	// ones always do), those with an approved call and a denied one (denied
	// by the user or for want of a channel). A step-only action is not
	// counted: no spec calls it alone, and its flow's request covers it.
	MeasureConfirm Measure = "confirm"
	// MeasureStepFailed: flows with a call that stopped at a failed step.
	MeasureStepFailed Measure = "step_failed"
	// MeasureResumed: flows a spec resumed.
	MeasureResumed Measure = "resumed"
	// MeasureHandoffCompleted and MeasureHandoffCancelled: hand-off actions
	// the user completed, and cancelled.
	MeasureHandoffCompleted Measure = "handoff_completed"
	MeasureHandoffCancelled Measure = "handoff_cancelled"
	// MeasureBothTransports: actions an agent may call (not step-only)
	// called over both the bridge and WebMCP.
	MeasureBothTransports Measure = "both_transports"
)

// Measures lists every measure in the order the summary gives them.
var Measures = []Measure{
	MeasureActions, MeasureConfirm, MeasureStepFailed, MeasureResumed,
	MeasureHandoffCompleted, MeasureHandoffCancelled, MeasureBothTransports,
}

func (m Measure) String() string { return string(m) }

// MarshalText writes m; an unknown measure is an error.
func (m Measure) MarshalText() ([]byte, error) { return marshalEnum("measure", m, Measures) }

// UnmarshalText reads a measure; an unknown one is an error.
func (m *Measure) UnmarshalText(b []byte) error { return unmarshalEnum("measure", b, m, Measures) }

func marshalEnum[T ~string](what string, v T, valid []T) ([]byte, error) {
	if !slices.Contains(valid, v) {
		return nil, fmt.Errorf("coverage: unknown %s %q (want %s)", what, string(v), list(valid))
	}
	return []byte(v), nil
}

func unmarshalEnum[T ~string](what string, b []byte, v *T, valid []T) error {
	t := T(b)
	if !slices.Contains(valid, t) {
		return fmt.Errorf("coverage: unknown %s %q (want %s)", what, string(b), list(valid))
	}
	*v = t
	return nil
}

func list[T ~string](valid []T) string {
	s := make([]string, len(valid))
	for i, v := range valid {
		s[i] = string(v)
	}
	return strings.Join(s, ", ")
}
