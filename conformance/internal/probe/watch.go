package probe

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/glassworks/glass/receipt"
)

// What the page tells the harness while a call runs. Each watcher is a
// script the harness installs in the page just before the call and reads
// just after it, through the bounded helpers; each reads the runtime's
// snapshot in every form §6.1 allows (an object, its JSON text, or a
// promise of either).

// inputEvents are the events that start an element action the runtime
// executes through its control (no run function): the moment stage 6
// begins.
const inputEvents = `["pointerdown", "mousedown", "click", "input", "change", "keydown"]`

// stage6Script makes the page keep the runtime's snapshot as it is when
// the first input event of the call fires: the moment an element action
// without a run function starts executing (stage 6), after its reveal.
const stage6Script = `() => {
  const w = { state: "none", text: "", sync: false };
  Object.defineProperty(window, "__glassStage6", { value: w, configurable: true });
  const keep = (v, sync) => {
    try { w.text = typeof v === "string" ? v : JSON.stringify(v); w.state = "kept"; w.sync = sync === true; } catch (e) { w.state = "failed"; }
  };
  const grab = (ev) => {
    if (w.state !== "none") return;
    w.state = "pending";
    try {
      const t = ev && ev.target;
      if (t && t.nodeType === 1) {
        w.tag = String(t.tagName).toLowerCase().slice(0, 40);
        w.native = t.matches(` + "`" + `button, select, textarea, summary, a[href], input:not([type="hidden"])` + "`" + `);
      }
    } catch (e) {
      // the target's tag is a hint only
    }
    try {
      const s = globalThis.glassRuntime.snapshot();
      if (s && typeof s.then === "function") s.then(keep, () => { w.state = "failed"; });
      else keep(s, true);
    } catch (e) {
      w.state = "failed";
    }
  };
  for (const t of ` + inputEvents + `) window.addEventListener(t, grab, true);
}`

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
	if _, err := pg.Harness.Evaluate(stage6Script, nil); err != nil {
		return fmt.Errorf("install the stage-6 watcher: %w", err)
	}
	return nil
}

// ReadStage6 reads what the stage-6 watcher kept.
func (pg *Page) ReadStage6() (Stage6, error) {
	v, err := pg.Harness.Evaluate(`() => JSON.stringify(window.__glassStage6 || { state: "gone", text: "" })`, nil)
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

// timelineScript makes the page keep the runtime's snapshot after every
// batch of DOM mutations (and at the first input event), bounded: the
// states the page model went through during the call, among which is the
// runtime's own before snapshot.
const timelineScript = `([maxStates, maxBytes]) => {
  const rt = globalThis.glassRuntime;
  const t = { states: [], bytes: 0, input: -1, full: false, stopped: false };
  Object.defineProperty(window, "__glassTimeline", { value: t, configurable: true });
  const keep = (v) => {
    if (t.stopped) return;
    let s;
    try { s = typeof v === "string" ? v : JSON.stringify(v); } catch (e) { return; }
    if (typeof s !== "string" || (t.states.length && t.states[t.states.length - 1] === s)) return;
    if (t.states.length >= maxStates || t.bytes + s.length > maxBytes) { t.full = true; return; }
    t.bytes += s.length;
    t.states.push(s);
  };
  const grab = () => {
    if (t.stopped) return;
    try {
      const s = rt.snapshot();
      if (s && typeof s.then === "function") s.then(keep, () => {});
      else keep(s);
    } catch (e) {}
  };
  const mo = new MutationObserver(grab);
  mo.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  for (const ev of ` + inputEvents + `) window.addEventListener(ev, () => { if (t.input < 0) { t.input = t.states.length; grab(); } }, true);
  t.stop = () => { t.stopped = true; mo.disconnect(); };
}`

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
	if _, err := pg.Harness.Evaluate(timelineScript, []int{40, receipt.MaxReceiptBytes}); err != nil {
		return fmt.Errorf("install the timeline watcher: %w", err)
	}
	return nil
}

// ReadTimeline stops the timeline watcher and reads what it kept.
func (pg *Page) ReadTimeline() (Timeline, error) {
	v, err := pg.Harness.Evaluate(`() => { const t = window.__glassTimeline; if (!t) return JSON.stringify(null); t.stop(); return JSON.stringify({ states: t.states, input: t.input, full: t.full }); }`, nil)
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

// quietScript resolves once the DOM has not changed for quietMs and, on a
// visible page, for quietFrames animation frames, or after maxMs: the
// harness's own wait for the page to settle. The frames keep the wait
// long enough on a machine so busy that frames come slowly, where work
// the page schedules by frames outlasts any number of milliseconds.
const quietScript = `([quietMs, quietFrames, maxMs]) => new Promise((resolve) => {
  const start = performance.now();
  let last = start, frames = 0, done = false;
  const counting = document.visibilityState === "visible";
  const mo = new MutationObserver(() => { last = performance.now(); frames = 0; });
  mo.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  if (counting) {
    const onFrame = () => { if (!done) { frames++; requestAnimationFrame(onFrame); } };
    requestAnimationFrame(onFrame);
  }
  const tick = () => {
    const now = performance.now();
    if ((now - last >= quietMs && (!counting || frames >= quietFrames)) || now - start >= maxMs) {
      done = true; mo.disconnect(); resolve(true); return;
    }
    setTimeout(tick, Math.max(10, quietMs - (now - last)));
  };
  tick();
})`

// The harness's own settle wait: no DOM change for QuietFor and 20
// animation frames, QuietMax at most.
const (
	QuietFor = 500 * time.Millisecond
	QuietMax = 5 * time.Second
)

// WaitQuiet waits, within QuietMax, for the page's DOM to go quiet.
func (pg *Page) WaitQuiet() error {
	_, err := pg.Harness.EvaluateWithin(QuietMax+pg.Probe().CallTimeout(), quietScript, []int{int(QuietFor.Milliseconds()), 20, int(QuietMax.Milliseconds())})
	if err != nil {
		return fmt.Errorf("wait for the page to go quiet: %w", err)
	}
	return nil
}

// declaredWatchScript makes the page keep, after every batch of DOM
// mutations during the call, every action the runtime's snapshot declares
// with its risk and confirm: the descriptors of actions a flow's steps
// declare and withdraw while it runs.
const declaredWatchScript = `() => {
  const rt = globalThis.glassRuntime;
  const seen = {};
  let n = 0;
  Object.defineProperty(window, "__glassDeclared", { value: seen, configurable: true });
  const keep = (v) => {
    let s = v;
    try { if (typeof s === "string") s = JSON.parse(s); } catch (e) { return; }
    const items = s && s.actions && Array.isArray(s.actions.items) ? s.actions.items : [];
    for (const a of items) {
      if (!a || typeof a.id !== "string" || n >= 2000) continue;
      if (!(a.id in seen)) n++;
      seen[a.id] = { id: a.id.slice(0, 200), kind: String(a.kind).slice(0, 20), risk: String(a.risk).slice(0, 20), confirm: a.confirm === true, stepOnly: a.stepOnly === true };
    }
  };
  const grab = () => {
    try {
      const s = rt.snapshot();
      if (s && typeof s.then === "function") s.then(keep, () => {});
      else keep(s);
    } catch (e) {}
  };
  new MutationObserver(grab).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
}`

// WatchDeclared installs the declared-actions watcher on pg.
func (pg *Page) WatchDeclared() error {
	if _, err := pg.Harness.Evaluate(declaredWatchScript, nil); err != nil {
		return fmt.Errorf("install the declared-actions watcher: %w", err)
	}
	return nil
}

// ReadDeclared reads the actions the declared-actions watcher saw, by id:
// the last descriptor seen of each.
func (pg *Page) ReadDeclared() (map[string]receipt.ActionInfo, error) {
	v, err := pg.Harness.Evaluate(`() => JSON.stringify(window.__glassDeclared || {})`, nil)
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
