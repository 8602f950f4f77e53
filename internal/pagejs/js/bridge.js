async ([method, id, args, options, maxBytes]) => {
  const mark = (kind, extra) => Object.assign({ "$glass": kind }, extra || {});
  const text = (e, n) => { try { return String(e && e.message !== undefined ? e.message : e).slice(0, n); } catch (_) { return "(unprintable)"; } };
  let rt, fn;
  try {
    rt = globalThis.glassRuntime;
    if (!rt || (typeof rt !== "object" && typeof rt !== "function") || typeof rt[method] !== "function") return mark("missing");
    const host = globalThis.glassHost;
    if (host && typeof host.runtimeReplaced === "function" && host.runtimeReplaced(rt)) return mark("replaced");
    if (rt.protocol !== "glass.page/v1") return mark("protocol", { got: String(rt.protocol).slice(0, 80) });
    fn = rt[method];
  } catch (e) {
    return mark("inspect", { message: text(e, 200) });
  }
  let pending;
  try {
    pending = method === "resume" ? fn.call(rt, id, options) : fn.call(rt, id, args, options);
  } catch (e) {
    return mark("threw", { message: text(e, 500) });
  }
  let r;
  try {
    r = await pending;
  } catch (e) {
    return mark("rejected", { message: text(e, 500) });
  }
  let s;
  try {
    s = typeof r === "string" ? r : JSON.stringify(r);
  } catch (e) {
    return mark("unserializable", { message: text(e, 200) });
  }
  if (typeof s !== "string") return mark("empty");
  if (s.length > maxBytes) return mark("toolarge", { size: s.length });
  return s;
}
