// A page that includes the classic script (<script src="glass-runtime.js">)
// and uses the global it installs. The reference brings the global's type
// in without importing anything.
/// <reference path="../glass-runtime.d.ts" />

glassRuntime.define({
  page: () => ({ id: "counter", title: "Counter" }),
  records: () => [{ id: "c", fields: { count: Number(document.getElementById("count")?.textContent ?? 0) } }],
  actions: () => [{ id: "inc", description: "Add one", target: "#inc", native: true }],
});
glassRuntime.ready().then((ok: true) => console.log(ok, glassRuntime.protocol === "glass.page/v1"));
