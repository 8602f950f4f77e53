async () => {
  const rt = globalThis.glassRuntime;
  if (!rt || typeof rt !== "object") return "";
  if (typeof rt.ready === "function") await rt.ready();
  const host = globalThis.glassHost;
  if (host && typeof host.runtimeReplaced === "function") host.runtimeReplaced(globalThis.glassRuntime);
  return String(rt.protocol);
}
