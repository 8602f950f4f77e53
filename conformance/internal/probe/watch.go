package probe

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/glassworks/glass/conformance/internal/pagewatch"
	"github.com/glassworks/glass/receipt"
)

// What the page tells the harness while a call runs. Each watcher is a
// script of package pagewatch, which the harness installs in the page just
// before the call and reads just after it, through the bounded helpers.

// NoInputEvent is Stage6.Why when no input event fired during the call:
// the action ran a developer-supplied path, not its control.
const NoInputEvent = "no input event marked the start of execution (the action runs a function, not its control)"

// Stage6 is what the stage-6 watcher saw: the runtime's snapshot when
// the first input event of the call fired, or why there is none.
type Stage6 struct {
	Snap *receipt.Snapshot
	// Sync is true when the runtime returned Snap at once, in the input
	// event's own task (not a promise): before any listener of the page
	// ran for that event.
	Sync bool
	// Why says why Snap is nil.
	Why string
	// Tag is the element the first input event reached (its tag name),
	// and Native whether it is a native control (a button, a form field,
	// a link, a summary): the page's own element, whatever the runtime
	// reported.
	Tag    string
	Native bool
}

// WatchStage6 installs the stage-6 watcher on pg.
func (pg *Page) WatchStage6() error {
	if _, err := pg.Evaluate(pagewatch.Stage6, nil); err != nil {
		return fmt.Errorf("install the stage-6 watcher: %w", err)
	}
	return nil
}

// ReadStage6 reads what the stage-6 watcher kept.
func (pg *Page) ReadStage6() (Stage6, error) {
	v, err := pg.Evaluate(`() => JSON.stringify(window.__glassStage6 || { state: "gone", text: "" })`, nil)
	if err != nil {
		return Stage6{}, fmt.Errorf("read the stage-6 watcher: %w", err)
	}
	var w struct {
		State  string `json:"state"`
		Text   string `json:"text"`
		Sync   bool   `json:"sync"`
		Tag    string `json:"tag"`
		Native bool   `json:"native"`
	}
	text, _ := v.(string)
	if err := json.Unmarshal([]byte(text), &w); err != nil {
		return Stage6{}, fmt.Errorf("read the stage-6 watcher: %w", err)
	}
	switch w.State {
	case "none":
		return Stage6{Why: NoInputEvent}, nil
	case "kept":
	default:
		return Stage6{Why: "the runtime's snapshot could not be read when execution started (" + w.State + ")"}, nil
	}
	s, err := receipt.DecodeSnapshot([]byte(w.Text))
	if err != nil {
		return Stage6{Why: "the snapshot taken when execution started does not decode: " + FirstLine(err.Error()), Tag: w.Tag, Native: w.Native}, nil
	}
	return Stage6{Snap: s, Sync: w.Sync, Tag: w.Tag, Native: w.Native}, nil
}

// Timeline is the states of the page model the timeline watcher kept.
type Timeline struct {
	States []*receipt.Snapshot
	// Input is the index of the first state kept at or after the first
	// input event, or -1.
	Input int
	Full  bool
}

// WatchTimeline installs the timeline watcher on pg.
func (pg *Page) WatchTimeline() error {
	if _, err := pg.Evaluate(pagewatch.Timeline, []int{40, receipt.MaxReceiptBytes}); err != nil {
		return fmt.Errorf("install the timeline watcher: %w", err)
	}
	return nil
}

// ReadTimeline stops the timeline watcher and reads what it kept.
func (pg *Page) ReadTimeline() (Timeline, error) {
	v, err := pg.Evaluate(`() => { const t = window.__glassTimeline; if (!t) return JSON.stringify(null); t.stop(); return JSON.stringify({ states: t.states, input: t.input, full: t.full }); }`, nil)
	if err != nil {
		return Timeline{}, fmt.Errorf("read the timeline watcher: %w", err)
	}
	text, _ := v.(string)
	var raw *struct {
		States []string `json:"states"`
		Input  int      `json:"input"`
		Full   bool     `json:"full"`
	}
	if err := json.Unmarshal([]byte(text), &raw); err != nil || raw == nil {
		return Timeline{Input: -1}, nil
	}
	t := Timeline{Input: raw.Input, Full: raw.Full}
	for i, s := range raw.States {
		snap, err := receipt.DecodeSnapshot([]byte(s))
		if err != nil {
			if i < t.Input {
				t.Input--
			}
			continue
		}
		t.States = append(t.States, snap)
	}
	return t, nil
}

// The harness's own settle wait: no DOM change for QuietFor and for 20
// animation frames since the last change, QuietMax at most.
const (
	QuietFor = 500 * time.Millisecond
	QuietMax = 5 * time.Second
)

// WaitQuiet waits, within QuietMax, for the page's DOM to go quiet (but
// for what it changes by itself: SelfChanging).
func (pg *Page) WaitQuiet() error {
	_, err := pg.Harness.EvaluateWithin(QuietMax+pg.Probe().CallTimeout(), pagewatch.Quiet, []any{int(QuietFor.Milliseconds()), 20, int(QuietMax.Milliseconds()), pg.p.SelfChanging()})
	if err != nil {
		return fmt.Errorf("wait for the page to go quiet: %w", err)
	}
	return nil
}

// WatchDeclared installs the declared-actions watcher on pg.
func (pg *Page) WatchDeclared() error {
	if _, err := pg.Evaluate(pagewatch.DeclaredWatch, nil); err != nil {
		return fmt.Errorf("install the declared-actions watcher: %w", err)
	}
	return nil
}

// ReadDeclared reads the actions the declared-actions watcher saw, by id:
// the last descriptor seen of each.
func (pg *Page) ReadDeclared() (map[string]receipt.ActionInfo, error) {
	v, err := pg.Evaluate(`() => JSON.stringify(window.__glassDeclared || {})`, nil)
	if err != nil {
		return nil, fmt.Errorf("read the declared-actions watcher: %w", err)
	}
	text, _ := v.(string)
	var m map[string]receipt.ActionInfo
	if err := json.Unmarshal([]byte(text), &m); err != nil {
		return nil, fmt.Errorf("read the declared-actions watcher: %w", err)
	}
	return m, nil
}
