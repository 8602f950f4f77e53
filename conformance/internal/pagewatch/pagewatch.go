// Package pagewatch holds the scripts the conformance probes install in
// the page under test just before a call and read just after it: the
// runtime's snapshot at the first input event (stage 6), the states the
// page model goes through, the actions a flow declares while it runs, and
// the wait for the page to go quiet. Each reads the runtime's snapshot in
// every form CONTRACT.md §6.1 allows (an object, its JSON text, or a
// promise of either). Beside them: what an idle page changes by itself,
// the DOM witness's reading, and the scripts that reach the runtime's
// global directly (runtime.go).
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
// the page schedules by frames outlasts any number of milliseconds. A
// change inside an element of masks (SelfChange's: the page changes it
// by itself, a clock) does not count.
const Quiet = `([quietMs, quietFrames, maxMs, masks]) => new Promise((resolve) => {
  ` + MaskFind + `
  const start = performance.now();
  let last = start, frames = 0, done = false;
  const counting = document.visibilityState === "visible";
  const own = (r) => {
    const el = r.target && r.target.nodeType === 1 ? r.target : r.target && r.target.parentElement;
    return el && (masks || []).some((m) => { const x = document.body && maskFind(document.body, m); return x && x.contains(el); });
  };
  // Frames are counted from the last change until quietFrames: each
  // requested frame costs the renderer a whole one, so the count stops
  // there and starts again at the next change.
  let waiting = false;
  const onFrame = () => {
    waiting = false;
    if (done) return;
    frames++;
    if (frames < quietFrames) { waiting = true; requestAnimationFrame(onFrame); }
  };
  const count = () => { if (counting && !waiting && !done) { waiting = true; requestAnimationFrame(onFrame); } };
  const mo = new MutationObserver((records) => { if (records.some((r) => !own(r))) { last = performance.now(); frames = 0; count(); } });
  mo.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  count();
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

// targetSig is the scripts' function that names an element by what
// identifies it — its tag and stable attributes (id, name, type, role,
// for, href, data-*; on the element itself also its aria-label, class and
// text), the element's and each ancestor's up to the body — leaving out
// what a call may change of an ancestor (a class) and of a control (a
// value, a checked state). A control a call turned into another (Edit
// into Save, Start into Stop) has another name.
const targetSig = `const sig = (el) => {
    const parts = [];
    for (let n = el; n && n.nodeType === 1 && n !== document.body; n = n.parentElement) {
      const keep = [];
      for (const a of Array.from(n.attributes)) {
        const k = a.name;
        if (k === "id" || k === "name" || k === "type" || k === "role" || k === "for" || k === "href" || k.startsWith("data-") || (n === el && (k === "aria-label" || k === "class"))) keep.push(k + "=" + a.value);
      }
      if (n === el) keep.push("text=" + String(el.textContent || "").trim().slice(0, 80));
      keep.sort();
      parts.push(String(n.tagName).toLowerCase() + "[" + keep.join("][") + "]");
    }
    return parts.join("<");
  };
  const withSig = (s, tag) => Array.from(document.getElementsByTagName(tag)).filter((e) => sig(e) === s);`

// TargetWatch makes the page keep what names the element the first input
// event of the call reached (its signature, targetSig), and whether no
// other element of the page had the same one: the target of an element
// action the runtime executes through its control.
const TargetWatch = `() => {
  ` + targetSig + `
  const w = { seen: false, sig: "", tag: "", unique: false };
  Object.defineProperty(window, "__glassTarget", { value: w, configurable: true });
  const grab = (ev) => {
    if (w.seen) return;
    w.seen = true;
    try {
      const t = ev && ev.target;
      if (!t || t.nodeType !== 1) return;
      w.tag = String(t.tagName).toLowerCase();
      w.sig = sig(t);
      w.unique = withSig(w.sig, w.tag).length === 1;
    } catch (e) {
      w.sig = "";
    }
  };
  for (const t of ` + InputEvents + `) window.addEventListener(t, grab, true);
}`

// ReadTarget reads what TargetWatch kept, as JSON text.
const ReadTarget = `() => JSON.stringify(window.__glassTarget || { seen: false })`

// TargetNow finds, by the signature TargetWatch kept ([sig, tag]), the
// one element that has it now, and says whether a user could use it
// where it is: in the document, rendered with a size, inside the
// viewport, not covered at its centre, not disabled or inert. As JSON
// text: {found, usable, why}.
const TargetNow = `([s, tag]) => {
  ` + targetSig + `
  const all = withSig(s, tag);
  if (all.length !== 1) return JSON.stringify({ found: all.length, usable: false, why: all.length + " elements have its signature" });
  const el = all[0];
  const out = (why) => JSON.stringify({ found: 1, usable: why === "", why });
  const cs = getComputedStyle(el);
  if (cs.display === "none" || cs.visibility !== "visible" || el.getClientRects().length === 0) return out("not rendered");
  const r = el.getBoundingClientRect();
  if (r.width <= 0 || r.height <= 0) return out("no size");
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return out("outside the viewport");
  const hit = document.elementFromPoint(x, y);
  if (!hit || !(hit === el || el.contains(hit) || (hit.control && hit.control === el))) return out("covered");
  const ctl = el.closest("label") && el.closest("label").control;
  if (el.closest(":disabled, [inert], [aria-disabled=true]") || (ctl && ctl.matches(":disabled"))) return out("disabled");
  return out("");
}`

// DOM reads the page's body for the probes' DOM witness (probe.DOMState,
// as JSON text): its HTML and element count, its text outside live
// regions, and its form controls' live values; the elements masks
// (SelfChange's) name are blanked first.
const DOM = `(masks) => {
  const body = document.body;
  if (!body) return JSON.stringify({ html: "", elements: 0, text: "" });
  ` + MaskFind + `
  const own = body.cloneNode(true);
  for (const x of (masks || []).map((m) => maskFind(own, m))) {
    if (x === own) own.replaceChildren();
    else if (x) { x.replaceChildren(); for (const a of Array.from(x.attributes)) x.removeAttribute(a.name); }
  }
  const clone = own.cloneNode(true);
  for (const el of clone.querySelectorAll('[aria-live], [role="status"], [role="alert"], [role="log"], [role="timer"], [role="marquee"], script, style, template')) el.remove();
  const controls = Array.from(body.querySelectorAll("input, textarea, select"), (c) => (c.name || c.id || c.tagName) + "=" + JSON.stringify([c.value, !!c.checked]));
  return JSON.stringify({ html: own.innerHTML, elements: own.getElementsByTagName("*").length, text: clone.textContent || "", controls: controls.join("\n") });
}`

// Rendered reads what the page shows, for the probes' second witness
// (probe.Witness's Rendered), in a world of its own (the page's scripts
// cannot change what it calls): a first line for the body ("- body", or
// "- body [not shown]"), then one line per element the page renders
// ("- role [attributes]", its role attribute or else its tag; an output
// element is a status), with the attributes an assistive technology
// announces and a form control's value, and one per run of text ("- text:
// ..."), nested by two spaces. It walks open shadow roots and what slots
// show, leaves out what is not rendered (display none, aria-hidden,
// content-visibility) and what is invisible (visibility), and stops after
// 200,000 nodes, saying so in a last line. The
// accessibility tree as Playwright reads it costs ten times as much CPU.
const Rendered = `() => {
  const lines = [];
  const skip = new Set(["SCRIPT", "STYLE", "TEMPLATE", "NOSCRIPT"]);
  const names = ["aria-label", "aria-labelledby", "aria-describedby", "aria-expanded", "aria-checked", "aria-selected", "aria-pressed", "aria-disabled", "aria-current", "aria-live", "alt", "title", "placeholder"];
  const line = (el) => {
    const role = el.getAttribute("role");
    let s = role ? role.trim().split(/\s+/)[0] : el.localName === "output" ? "status" : el.localName;
    const shown = [];
    for (const a of names) {
      const v = el.getAttribute(a);
      if (v !== null) shown.push(a + "=" + JSON.stringify(v));
    }
    if (el.localName === "input" || el.localName === "textarea" || el.localName === "select") {
      shown.push("value=" + JSON.stringify(String(el.value)));
      if (el.checked) shown.push("checked");
    }
    return shown.length ? s + " [" + shown.join(" ") + "]" : s;
  };
  const kids = (n) => {
    if (n.shadowRoot) return n.shadowRoot.childNodes;
    if (n.localName === "slot") {
      const a = n.assignedNodes({ flatten: true });
      if (a.length) return a;
    }
    return n.childNodes;
  };
  let budget = 200000;
  const walk = (n, depth, visible) => {
    for (const c of kids(n)) {
      if (--budget < 0) return;
      if (c.nodeType === 3) {
        const t = c.data.replace(/\s+/g, " ").trim();
        if (t && visible) lines.push("  ".repeat(depth) + "- text: " + t);
        continue;
      }
      if (c.nodeType !== 1 || skip.has(c.tagName) || c.getAttribute("aria-hidden") === "true") continue;
      const st = getComputedStyle(c);
      if (st.display === "none" || (st.display !== "contents" && !c.checkVisibility())) continue;
      const v = st.visibility === "visible";
      if (v) lines.push("  ".repeat(depth) + "- " + line(c));
      walk(c, depth + 1, v);
    }
  };
  const body = document.body;
  const shown = !!body && body.checkVisibility() && getComputedStyle(body).visibility === "visible";
  lines.push(body ? "- body" + (shown ? "" : " [not shown]") : "- no body");
  if (body) walk(body, 1, shown);
  if (budget < 0) lines.push("- [cut after 200,000 nodes]");
  return lines.join("\n");
}`

// MaskFind is the scripts' function that finds a self-changing element
// (SelfChange) under root (the body, or a copy of it): by its id, else
// by its place among its parents' children (none: root).
const MaskFind = `const maskFind = (root, m) => {
    if (m.id) return root.querySelector("#" + CSS.escape(m.id));
    let n = root;
    for (const i of (m.path || [])) { n = n && n.children[i]; }
    return n || null;
  };`

// SelfChange watches an idle page for two windows of forMs each
// ([forMs, max]) and names, as JSON text, each element whose content or
// attributes changed in both with no call in flight (a clock, a ticker, a
// carousel; a page that was still drawing its first data in the first
// window only is not one): {id} when its id is the page's only one, else
// {path}, its place under the body. More than max elements, or the body
// itself, is the body ({path: []}). Elements no longer in the document
// are left out. A page that changed nothing in the first window is
// answered then ([]).
const SelfChange = `([forMs, max]) => new Promise((resolve) => {
  const windows = [new Set(), new Set()], many = [false, false];
  let w = 0;
  const note = (records) => {
    for (const r of records) {
      const el = r.target && r.target.nodeType === 1 ? r.target : r.target && r.target.parentElement;
      if (!el || !document.body || !document.body.contains(el)) continue;
      if (windows[w].size >= 4 * max) { many[w] = true; continue; }
      windows[w].add(el);
    }
  };
  const mo = new MutationObserver(note);
  mo.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  setTimeout(() => {
    note(mo.takeRecords());
    if (windows[0].size === 0 && !many[0]) { mo.disconnect(); return resolve("[]"); }
    w = 1;
    setTimeout(() => {
      note(mo.takeRecords());
      mo.disconnect();
      if (many[0] && many[1]) return resolve(JSON.stringify([{ path: [] }]));
      const both = Array.from(windows[1]).filter((el) => windows[0].has(el) && document.body.contains(el));
      const out = [];
      for (const el of both) {
        if (both.some((o) => o !== el && o.contains(el))) continue;
        if (el === document.body || out.length >= max) return resolve(JSON.stringify([{ path: [] }]));
        if (el.id && document.querySelectorAll("#" + CSS.escape(el.id)).length === 1) { out.push({ id: el.id }); continue; }
        const path = [];
        for (let n = el; n && n !== document.body && n.parentElement; n = n.parentElement) path.unshift(Array.prototype.indexOf.call(n.parentElement.children, n));
        out.push({ path });
      }
      resolve(JSON.stringify(out));
    }, forMs);
  }, forMs);
})`

// BodyMasked reports whether masks (SelfChange's) name the whole body.
func BodyMasked(masks []any) bool {
	for _, m := range masks {
		mm, _ := m.(map[string]any)
		path, _ := mm["path"].([]any)
		if id, _ := mm["id"].(string); id == "" && len(path) == 0 {
			return true
		}
	}
	return false
}
