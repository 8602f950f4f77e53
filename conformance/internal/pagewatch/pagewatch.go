// Package pagewatch holds the scripts the conformance probes install in
// the page under test just before a call and read just after it: the
// runtime's snapshot at the first input event (stage 6), the states the
// page model goes through, the actions a flow declares while it runs, and
// the wait for the page to go quiet. Each reads the runtime's snapshot in
// every form CONTRACT.md §6.1 allows (an object, its JSON text, or a
// promise of either).
package pagewatch

// InputEvents are the events that start an element action the runtime
// executes through its control (no run function): the moment stage 6
// begins.
const InputEvents = `["pointerdown", "mousedown", "click", "input", "change", "keydown"]`

// Stage6 makes the page keep the runtime's snapshot as it is when
// the first input event of the call fires: the moment an element action
// without a run function starts executing (stage 6), after its reveal.
const Stage6 = `() => {
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
  for (const t of ` + InputEvents + `) window.addEventListener(t, grab, true);
}`

// Timeline makes the page keep the runtime's snapshot after every
// batch of DOM mutations (and at the first input event), bounded: the
// states the page model went through during the call, among which is the
// runtime's own before snapshot.
const Timeline = `([maxStates, maxBytes]) => {
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
  for (const ev of ` + InputEvents + `) window.addEventListener(ev, () => { if (t.input < 0) { t.input = t.states.length; grab(); } }, true);
  t.stop = () => { t.stopped = true; mo.disconnect(); };
}`

// Quiet resolves once the DOM has not changed for quietMs and, on a
// visible page, for quietFrames animation frames, or after maxMs: the
// harness's own wait for the page to settle. The frames keep the wait
// long enough on a machine so busy that frames come slowly, where work
// the page schedules by frames outlasts any number of milliseconds.
const Quiet = `([quietMs, quietFrames, maxMs]) => new Promise((resolve) => {
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

// DeclaredWatch makes the page keep, after every batch of DOM
// mutations during the call, every action the runtime's snapshot declares
// with its risk and confirm: the descriptors of actions a flow's steps
// declare and withdraw while it runs.
const DeclaredWatch = `() => {
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
