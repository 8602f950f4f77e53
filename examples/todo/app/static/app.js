// The Todo app: plain DOM code with its own write path (the API), plus the
// declarations that make it agent-ready.
(function () {
  "use strict";

  const initial = JSON.parse(document.getElementById("initial").textContent);
  const session = initial.session;
  let tasks = initial.tasks;
  const toasts = [];
  const faults = new Set((new URLSearchParams(location.search).get("fault") || "").split(",").filter(Boolean));

  const list = document.getElementById("tasks");

  function rowOf(id) {
    return list.querySelector('li[data-task="' + CSS.escape(id) + '"]');
  }

  function render() {
    const items = tasks.map((t) => {
      const li = document.createElement("li");
      li.dataset.task = t.id;
      if (t.done) li.classList.add("done");
      const title = document.createElement("span");
      title.className = "title";
      title.textContent = t.title;
      const remove = document.createElement("button");
      remove.className = "remove";
      remove.type = "button";
      remove.textContent = "Delete";
      remove.setAttribute("aria-label", "Delete " + t.title);
      remove.addEventListener("click", () => {
        if (window.confirm("Delete \u201c" + t.title + "\u201d?")) deleteTask(t.id).catch(() => {});
      });
      li.append(title, remove);
      return li;
    });
    list.replaceChildren(...items);
    document.getElementById("open-count").textContent = String(tasks.filter((t) => !t.done).length);
  }

  function toast(kind, text) {
    toasts.push({ kind: kind, text: text });
    while (toasts.length > 3) toasts.shift();
    const box = document.getElementById("toasts");
    box.replaceChildren(
      ...toasts.map((t) => {
        const div = document.createElement("div");
        div.className = "toast " + t.kind;
        div.textContent = t.text;
        return div;
      })
    );
  }

  async function api(method, path) {
    const res = await fetch(path, { method: method, headers: { "X-Todo-Session": session } });
    if (!res.ok) throw new Error("the server answered " + res.status);
    return res;
  }

  // deleteTask is the app's own write path; the UI button and the agent
  // action both use it.
  async function deleteTask(id) {
    await api("DELETE", "/api/tasks/" + encodeURIComponent(id));
    if (faults.has("delete-throws")) throw new Error("lost the connection after sending the delete");
    if (faults.has("delete-stale")) return; // a bug: the list is not refreshed
    const t = tasks.find((x) => x.id === id);
    tasks = tasks.filter((x) => x.id !== id);
    render();
    toast("success", "Deleted \u201c" + (t ? t.title : id) + "\u201d");
  }

  render();

  glassRuntime.define({
    page: () => ({ id: "todo", title: "Todo" }),
    records: () => tasks.map((t) => ({ id: t.id, fields: { title: t.title, done: t.done, priority: t.priority } })),
    state: () => ({}),
    feedback: () => toasts.map((t) => ({ kind: t.kind, text: t.text })),
    actions: () =>
      tasks.map((t) => ({
        id: "remove@" + t.id,
        description: "Delete the task",
        risk: "dangerous",
        target: () => rowOf(t.id) && rowOf(t.id).querySelector("button.remove"),
        reveal: () => rowOf(t.id) && rowOf(t.id).scrollIntoView({ block: "center" }),
        run: () => deleteTask(t.id),
        expect: {
          description: "The task is no longer in the list",
          until: () => !rowOf(t.id),
        },
      })),
  });
})();
