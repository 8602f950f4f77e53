(() => {
  const call = globalThis.__glassHostCall;
  if (typeof call !== "function" || globalThis.glassHost) return;
  const stringify = JSON.stringify, parse = JSON.parse;
  const head = GLASS_HEAD;
  const send = (type, request) => {
    let body;
    try { body = stringify(request); } catch (_) { body = undefined; }
    if (typeof body !== "string") body = "null";
    return call(head + type + '","request":' + body + "}").then((s) => parse(s));
  };
  const host = { protocol: "glass.page/v1" };
  if (GLASS_WITH_CONFIRM) host.confirm = (request) => send("confirm", request);
  host.handoff = (request) => send("handoff", request);
  let pinned, isPinned = false;
  Object.defineProperty(host, "runtimeReplaced", { enumerable: false, value: (rt) => {
    if (!isPinned) { pinned = rt; isPinned = true; return false; }
    return rt !== pinned;
  } });
  Object.defineProperty(globalThis, "glassHost", { value: Object.freeze(host), writable: false, configurable: false, enumerable: false });
})();
