async ([options, maxBytes]) => {
  const mark = (kind, extra) => Object.assign({ "$glass": kind }, extra || {});
  const text = (e, n) => { try { return String(e && e.message !== undefined ? e.message : e).slice(0, n); } catch (_) { return "(unprintable)"; } };
  let s;
  try {
    const rt = globalThis.glassRuntime;
    if (!rt || typeof rt !== "object" || typeof rt.snapshot !== "function") return mark("missing");
    const host = globalThis.glassHost;
    if (host && typeof host.runtimeReplaced === "function" && host.runtimeReplaced(rt)) return mark("replaced");
    if (rt.protocol !== "glass.page/v1") return mark("protocol", { got: String(rt.protocol).slice(0, 80) });
    const v = await rt.snapshot(options);
    s = typeof v === "string" ? v : JSON.stringify(v);
  } catch (e) {
    return mark("snapshotfailed", { message: text(e, 500) });
  }
  if (typeof s !== "string") return mark("empty");
  if (s.length > maxBytes) return mark("toolarge", { size: s.length });
  return s;
}
