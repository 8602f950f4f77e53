package pagewatch

// The scripts that reach the runtime's global directly, not through the
// harness: the probes' raw calls over the bridge (probe.Page.Raw and the
// calls beside it), each answer returned as JSON text, and the set-up's
// reading of the global.

// Identify describes the runtime's global as JSON text (probe.GlobalFacts).
const Identify = `() => {
  const rt = globalThis.glassRuntime;
  if (!rt || typeof rt !== "object") return JSON.stringify({ present: false });
  const d = Object.getOwnPropertyDescriptor(globalThis, "glassRuntime") || {};
  const functions = {};
  for (const m of ["ready", "snapshot", "execute", "resume"]) functions[m] = typeof rt[m];
  return JSON.stringify({ present: true, protocol: String(rt.protocol).slice(0, 80), runtime: String(rt.runtime || "").slice(0, 80),
    frozen: Object.isFrozen(rt), writable: d.writable !== false && !d.get, functions: functions });
}`

// HandlerRuns reads a fixture page's own count of its handlers' runs
// (globalThis.glassHandlerRuns) as JSON text, null when it keeps none.
const HandlerRuns = `JSON.stringify(globalThis.glassHandlerRuns && typeof globalThis.glassHandlerRuns === "object" ? globalThis.glassHandlerRuns : null)`

// RawExecute calls execute(id, args, options) ([id, args, options]).
const RawExecute = `async ([id, args, options]) => {
  const r = await globalThis.glassRuntime.execute(id, args, options);
  return typeof r === "string" ? r : JSON.stringify(r);
}`

// EmptyExecute calls execute(id, argsJSON, {}) with the argsJSON value
// form names ([id, form]): "null" null, "undefined" undefined, else "".
const EmptyExecute = `async ([id, form]) => {
  const args = form === "null" ? null : form === "undefined" ? undefined : "";
  const r = await globalThis.glassRuntime.execute(id, args, {});
  return typeof r === "string" ? r : JSON.stringify(r);
}`

// ConcurrentExecute starts n calls of execute(id, args, options) together
// ([id, args, options, n]) and returns their answers in order.
const ConcurrentExecute = `async ([id, args, options, n]) => {
  const rt = globalThis.glassRuntime;
  const calls = [];
  for (let i = 0; i < n; i++) calls.push(rt.execute(id, args, options));
  const all = await Promise.all(calls);
  return all.map((r) => (typeof r === "string" ? r : JSON.stringify(r)));
}`
