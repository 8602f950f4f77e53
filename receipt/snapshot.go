package receipt

import (
	"encoding/json"
)

// Snapshot is the page model as the runtime exposes it to an agent: page
// identity, records, the actions available now, state views and feedback.
type Snapshot struct {
	Protocol string          `json:"protocol"`
	Runtime  string          `json:"runtime,omitempty"`
	Revision int64           `json:"revision"`
	Page     PageIdentity    `json:"page"`
	Records  SnapshotRecords `json:"records"`
	Actions  SnapshotActions `json:"actions"`
	State    map[string]any  `json:"state"`
	Feedback []Feedback      `json:"feedback"`

	// Extra keeps top-level fields this model does not know, so that a
	// snapshot from a newer runtime round-trips without losing them.
	Extra map[string]json.RawMessage `json:"-"`
}

// PageIdentity says which page the model describes.
type PageIdentity struct {
	ID    string `json:"id"`
	URL   string `json:"url"`
	Title string `json:"title"`
}

// SnapshotRecords is the bounded list of records and the total count.
type SnapshotRecords struct {
	Total   int      `json:"total"`
	Items   []Record `json:"items"`
	Omitted int      `json:"omitted"`
}

// Record is one business record with its visible fields.
type Record struct {
	ID     string         `json:"id"`
	Fields map[string]any `json:"fields"`
}

// SnapshotActions is the bounded list of actions declared now.
type SnapshotActions struct {
	Items   []ActionInfo `json:"items"`
	Omitted int          `json:"omitted"`
}

// ActionInfo describes one declared action as an agent sees it.
type ActionInfo struct {
	ID          string          `json:"id"`
	Description string          `json:"description"`
	Kind        Kind            `json:"kind"`
	Risk        Risk            `json:"risk"`
	Confirm     bool            `json:"confirm"`
	Params      json.RawMessage `json:"params,omitempty"`
	Available   bool            `json:"available"`
	Reason      string          `json:"reason,omitempty"`
	Fidelity    Fidelity        `json:"fidelity,omitempty"`
	Expect      string          `json:"expect,omitempty"`
	Tool        string          `json:"tool,omitempty"`
	Record      string          `json:"record,omitempty"`
	Steps       []string        `json:"steps,omitzero"`
	// StepOnly marks an action only a flow may run (CONTRACT.md §2.7): it
	// is no tool of its own, and a direct call fails ACTION_UNAVAILABLE.
	StepOnly bool `json:"stepOnly,omitempty"`

	// Extra keeps descriptor fields this model does not know (a page's own
	// metadata about an action), so they survive a round trip.
	Extra map[string]json.RawMessage `json:"-"`
}

// Action returns the declared action with the given id, if any.
func (s *Snapshot) Action(id string) (ActionInfo, bool) {
	for _, a := range s.Actions.Items {
		if a.ID == id {
			return a, true
		}
	}
	return ActionInfo{}, false
}

// AvailableIDs lists the ids of the actions a caller may call now, in
// snapshot order: available and not step-only — what an ACTION_NOT_FOUND
// lists as result.error.available (CONTRACT.md §2.2).
func (s *Snapshot) AvailableIDs() []string {
	var ids []string
	for _, a := range s.Actions.Items {
		if a.Available && !a.StepOnly {
			ids = append(ids, a.ID)
		}
	}
	return ids
}

// ActionIDs lists the ids of the declared actions, in snapshot order.
func (s *Snapshot) ActionIDs() []string {
	ids := make([]string, len(s.Actions.Items))
	for i, a := range s.Actions.Items {
		ids[i] = a.ID
	}
	return ids
}
