// The Todo app: plain DOM code with its own write path (the API), plus the
// declarations that make it agent-ready. Every declared action goes
// through the same functions the buttons use.
(function () {
  "use strict";

  const initial = JSON.parse(document.getElementById("initial").textContent);
  const session = initial.session;
  let tasks = initial.tasks;
  let identity = "unverified";
  let editing = null; // the id of the task in the edit dialog
  const toasts = [];
  const faults = new Set((new URLSearchParams(location.search).get("fault") || "").split(",").filter(Boolean));
  // A fault switch: a clock in the header that ticks four times a second,
  // outside the page model (what a page changes by itself).
  if (faults.has("clock")) {
    const clock = document.createElement("span");
    clock.id = "clock";
    document.querySelector("header").append(clock);
    const tick = () => { clock.textContent = new Date().toISOString(); };
    tick();
    setInterval(tick, 250);
  }
  const PRIORITIES = ["low", "normal", "high"];
  // How many times each action's handler ran, by action id: what the
  // conformance suite reads to see that a failed call was not retried
  // (envelope.no-auto-retry), and that a call of an element action
  // without a run function ran the page's own listener for its control
  // (fidelity.reported; those are counted from zero, before their first
  // run). docs/conformance.md.
  const runs = { toggle: 0, filter: 0, "edit.open": 0, "edit.cancel": 0 };
  globalThis.glassHandlerRuns = runs;
  const counted = (id, f) => (...a) => {
    runs[id] = (runs[id] || 0) + 1;
    return f(...a);
  };

  const list = document.getElementById("tasks");
  const filter = document.getElementById("filter");
  const dialog = document.getElementById("edit-dialog");

  function rowOf(id) {
    return list.querySelector('li[data-task="' + CSS.escape(id) + '"]');
  }

  function find(id) {
    return tasks.find((t) => t.id === id);
  }

  function shown(t) {
    return filter.value === "all" || (filter.value === "done") === t.done;
  }

  function render() {
    const items = tasks.filter(shown).map((t) => {
      const li = document.createElement("li");
      li.dataset.task = t.id;
      // A fault switch: rows that no scrolling shows (a row action's
      // reveal leaves its target hidden).
      if (faults.has("rows-hidden")) li.style.display = "none";
      if (t.done) li.classList.add("done");
      const done = document.createElement("input");
      done.type = "checkbox";
      done.className = "toggle";
      done.checked = t.done;
      done.setAttribute("aria-label", "Done: " + t.title);
      const title = document.createElement("span");
      title.className = "title";
      title.textContent = t.title;
      const priority = document.createElement("span");
      priority.className = "priority " + t.priority;
      priority.textContent = t.priority;
      const edit = document.createElement("button");
      edit.className = "edit";
      edit.type = "button";
      edit.textContent = "Edit";
      edit.setAttribute("aria-label", "Edit " + t.title);
      const remove = document.createElement("button");
      remove.className = "remove";
      remove.type = "button";
      remove.textContent = "Delete";
      remove.setAttribute("aria-label", "Delete " + t.title);
      li.append(done, title, priority, edit, remove);
      return li;
    });
    list.replaceChildren(...items);
    document.getElementById("open-count").textContent = String(tasks.filter((t) => !t.done).length);
    document.getElementById("identity").classList.toggle("verified", identity === "verified");
    document.getElementById("identity-status").textContent = identity === "verified" ? "Verified" : "Not verified";
    document.getElementById("export-button").disabled = identity !== "verified";
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

  async function api(method, path, body) {
    const init = { method: method, headers: { "X-Todo-Session": session } };
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const res = await fetch(path, init);
    if (!res.ok) throw new Error("the server answered " + res.status);
    return res;
  }

  function replace(t) {
    tasks = tasks.map((x) => (x.id === t.id ? t : x));
  }

  // ---- the app's own write paths: the UI and the agent actions use them

  async function addTask(title, priority) {
    const res = await api("POST", "/api/tasks", { title: title, priority: priority });
    const t = await res.json();
    tasks = tasks.concat([t]);
    render();
    toast("success", "Added \u201c" + t.title + "\u201d");
    return t;
  }

  async function toggleTask(id, done) {
    try {
      const res = await api("PATCH", "/api/tasks/" + encodeURIComponent(id), { done: done });
      const t = await res.json();
      replace(t);
      render();
      toast("success", (t.done ? "Completed \u201c" : "Reopened \u201c") + t.title + "\u201d");
    } catch (e) {
      render(); // puts the checkbox back
      toast("error", "Could not update the task");
    }
  }

  async function deleteTask(id) {
    await api("DELETE", "/api/tasks/" + encodeURIComponent(id));
    if (faults.has("delete-throws")) throw new Error("lost the connection after sending the delete");
    if (faults.has("delete-stale")) return; // a bug: the list is not refreshed
    const t = tasks.find((x) => x.id === id);
    tasks = tasks.filter((x) => x.id !== id);
    render();
    toast("success", "Deleted \u201c" + (t ? t.title : id) + "\u201d");
  }

  // sync saves the list again: the server already has it, so the page
  // does not change.
  async function sync() {
    await api("POST", "/api/sync");
  }

  function search(query, limit) {
    const q = query.trim().toLowerCase();
    const matches = tasks.filter((t) => t.title.toLowerCase().includes(q)).slice(0, limit);
    return { query: query, limit: limit, tasks: matches.map((t) => ({ id: t.id, title: t.title, done: t.done })) };
  }

  let clearFailed = false;

  async function clearDone() {
    if (faults.has("clear-fails-once") && !clearFailed) {
      clearFailed = true;
      throw new Error("the server did not answer");
    }
    for (const t of tasks.filter((x) => x.done)) await deleteTask(t.id);
  }

  async function deleteEdited() {
    const id = editing;
    editing = null;
    dialog.close();
    if (id) await deleteTask(id);
  }

  function openEdit(id) {
    const t = find(id);
    if (!t) return;
    editing = id;
    document.getElementById("edit-title").value = t.title;
    document.getElementById("edit-priority").value = t.priority;
    dialog.showModal();
  }

  let saveFailed = false;

  async function saveEdit() {
    const title = document.getElementById("edit-title").value.trim();
    if (!title) throw new Error("a task needs a title");
    if (faults.has("save-fails-once") && !saveFailed) {
      saveFailed = true;
      throw new Error("the server did not answer");
    }
    const res = await api("PATCH", "/api/tasks/" + encodeURIComponent(editing), {
      title: title,
      priority: document.getElementById("edit-priority").value,
    });
    const t = await res.json();
    replace(t);
    editing = null;
    dialog.close();
    render();
    toast("success", "Saved \u201c" + t.title + "\u201d");
  }

  async function verifyIdentity() {
    const code = document.getElementById("identity-code").value;
    try {
      await api("POST", "/api/identity", { code: code });
      identity = "verified";
      toast("success", "Identity verified");
    } catch (e) {
      toast("error", "That code is not valid");
    }
    render();
  }

  async function exportTasks() {
    const res = await api("POST", "/api/export");
    const body = await res.json();
    toast("success", "Exported " + body.count + " tasks");
    return {
      reference: body.reference,
      count: body.count,
      tasks: tasks.map((t) => ({ id: t.id, title: t.title, done: t.done, priority: t.priority })),
    };
  }

  // ---- the UI

  document.getElementById("add-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const input = document.getElementById("new-title");
    const title = input.value.trim();
    if (!title) return;
    addTask(title, document.getElementById("new-priority").value)
      .then(() => { input.value = ""; })
      .catch(() => toast("error", "Could not add the task"));
  });
  list.addEventListener("change", (e) => {
    const li = e.target.closest("li");
    if (li && e.target.matches("input.toggle")) counted("toggle", toggleTask)(li.dataset.task, e.target.checked);
  });
  list.addEventListener("click", (e) => {
    const li = e.target.closest("li");
    if (!li) return;
    const t = find(li.dataset.task);
    if (e.target.matches("button.edit")) counted("edit.open", openEdit)(li.dataset.task);
    if (e.target.matches("button.remove") && t && window.confirm("Delete \u201c" + t.title + "\u201d?")) {
      deleteTask(t.id).catch(() => toast("error", "Could not delete the task"));
    }
  });
  filter.addEventListener("change", counted("filter", render));
  document.getElementById("edit-save").addEventListener("click", () => saveEdit().catch(() => toast("error", "Could not save the task")));
  document.getElementById("edit-delete").addEventListener("click", () => deleteEdited().catch(() => toast("error", "Could not delete the task")));
  document.getElementById("dismiss").addEventListener("click", () => {
    toasts.length = 0;
    document.getElementById("toasts").replaceChildren();
  });
  document.getElementById("edit-cancel").addEventListener("click", counted("edit.cancel", () => {
    editing = null;
    dialog.close();
  }));
  document.getElementById("identity-verify").addEventListener("click", verifyIdentity);
  document.getElementById("export-button").addEventListener("click", () => exportTasks().catch(() => toast("error", "Could not export")));

  render();

  // ---- the declarations

  // hiddenReason is the business prerequisite of a row action: the row
  // must be shown by the current filter.
  function hiddenReason(t) {
    if (!t || shown(t)) return true;
    return "hidden by the filter \u201c" + filter.value + "\u201d; show all tasks first";
  }
  const taskParam = () => ({ type: "string", description: "The task id, t1…", enum: tasks.map((t) => t.id) });
  const forTask = (a) => (a && a.task ? hiddenReason(find(a.task)) : true);
  const rowControl = (selector) => (a) => (a && a.task && rowOf(a.task) ? rowOf(a.task).querySelector(selector) : null);
  const revealRow = (a) => rowOf(a.task) && rowOf(a.task).scrollIntoView({ block: "center" });

  glassRuntime.define({
    page: () => ({ id: "todo", title: "Todo" }),
    records: () => tasks.map((t) => ({ id: t.id, fields: { title: t.title, done: t.done, priority: t.priority } })),
    state: () => ({ filter: filter.value, identity: identity }),
    feedback: () => toasts.map((t) => ({ kind: t.kind, text: t.text })),
    actions: () => [
      ...tasks.map((t) => ({
        id: "remove@" + t.id,
        description: "Delete the task",
        risk: "dangerous",
        target: () => rowOf(t.id) && rowOf(t.id).querySelector("button.remove"),
        reveal: () => rowOf(t.id) && rowOf(t.id).scrollIntoView({ block: "center" }),
        available: () => hiddenReason(t),
        run: counted("remove@" + t.id, () => deleteTask(t.id)),
        expect: {
          description: "The task is no longer in the list",
          until: () => !rowOf(t.id),
        },
      })),
      {
        id: "add",
        description: "Add a task",
        target: "#add-button",
        params: {
          type: "object",
          additionalProperties: false,
          required: ["title"],
          properties: {
            title: { type: "string", minLength: 1, maxLength: 200 },
            priority: { type: "string", enum: PRIORITIES, default: "normal" },
          },
        },
        run: counted("add", (a) => addTask(a.title, a.priority)),
        expect: (a) => {
          const before = tasks.length;
          return {
            description: "The new task is in the list",
            until: () => tasks.length > before && tasks[tasks.length - 1].title === a.title.trim(),
          };
        },
      },
      {
        id: "toggle",
        description: "Mark a task done, or open it again",
        target: rowControl("input.toggle"),
        native: true,
        reveal: revealRow,
        available: forTask,
        params: { type: "object", additionalProperties: false, required: ["task"], properties: { task: taskParam() } },
        // Without arguments (the snapshot asks for the description) the
        // builder still returns it, so the descriptor and the receipt say
        // the same (verify.expect-only-when-verified).
        expect: (a) => {
          const t = a && find(a.task);
          const was = t ? t.done : undefined;
          return { description: "The task's done mark flipped", until: () => !!find(a.task) && find(a.task).done !== was };
        },
      },
      {
        id: "edit",
        description: "Change a task's title and priority in the edit dialog",
        params: {
          type: "object",
          additionalProperties: false,
          required: ["task", "title"],
          properties: {
            task: taskParam(),
            title: { type: "string", minLength: 1, maxLength: 200 },
            priority: { type: "string", enum: PRIORITIES },
          },
        },
        steps: [
          { action: "edit.open", args: (a) => ({ task: a.task }) },
          { action: "edit.title", args: (a) => ({ value: a.title }) },
          { action: "edit.priority", args: (a) => ({ value: a.priority || find(a.task).priority }) },
          "edit.save",
        ],
        expect: (a) => ({
          description: "The task has the new title",
          until: () => {
            const t = find(a.task);
            return !!t && t.title === a.title.trim() && (!a.priority || t.priority === a.priority) && !dialog.open;
          },
        }),
      },
      {
        id: "edit.open",
        description: "Open a task in the edit dialog",
        risk: "read",
        target: rowControl("button.edit"),
        native: true,
        reveal: revealRow,
        available: forTask,
        params: { type: "object", additionalProperties: false, required: ["task"], properties: { task: taskParam() } },
      },
      {
        id: "edit.title",
        description: "Type the title in the edit dialog",
        target: "#edit-title",
        params: { type: "object", required: ["value"], properties: { value: { type: "string", minLength: 1, maxLength: 200 } } },
      },
      {
        id: "edit.priority",
        description: "Choose the priority in the edit dialog",
        target: "#edit-priority",
        params: { type: "object", required: ["value"], properties: { value: { type: "string", enum: PRIORITIES } } },
      },
      { id: "edit.save", description: "Save the edit dialog", target: "#edit-save", run: saveEdit },
      { id: "edit.cancel", description: "Close the edit dialog without saving", risk: "read", target: "#edit-cancel", available: () => dialog.open || "the edit dialog is closed" },
      {
        id: "filter",
        description: "Show all, open or done tasks",
        risk: "read",
        target: "#filter",
        params: { type: "object", required: ["value"], properties: { value: { type: "string", enum: ["all", "open", "done"] } } },
      },
      {
        // Returns the arguments it ran with, the default limit filled in
        // (args.normalised).
        id: "search",
        description: "Find the tasks whose title contains a text",
        kind: "function",
        risk: "read",
        params: {
          type: "object",
          additionalProperties: false,
          required: ["query"],
          properties: {
            query: { type: "string", maxLength: 200 },
            limit: { type: "integer", minimum: 1, maximum: 50, default: 10 },
          },
        },
        run: counted("search", (a) => search(a.query, a.limit)),
      },
      {
        id: "sync",
        description: "Save the list to the server again",
        kind: "function",
        risk: "write",
        run: counted("sync", sync),
      },
      {
        // A toast box with a click listener, no native control: the
        // runtime can only simulate a click (fidelity low).
        id: "dismiss",
        description: "Dismiss the notifications",
        risk: "read",
        target: "#dismiss",
      },
      {
        // Confirmed once, as dangerous, before its first step: its last
        // step is dangerous; only a flow may run its first.
        id: "clear-done",
        description: "Show the done tasks, then delete every one of them",
        kind: "flow",
        steps: ["clear-done.show", "clear-done.delete"],
      },
      {
        // Only a flow may run it: on its own it is the filter's job.
        id: "clear-done.show",
        description: "Show only the done tasks",
        kind: "function",
        risk: "read",
        stepOnly: true,
        run: () => {
          filter.value = "done";
          render();
        },
      },
      {
        id: "clear-done.delete",
        description: "Delete every done task",
        kind: "function",
        risk: "dangerous",
        run: clearDone,
      },
      {
        // The dialog's Delete button exists only while the dialog is
        // open: the flow's confirmation (none: opening is a read) does not
        // cover it, so its step asks for confirmation before it runs.
        id: "discard",
        description: "Open a task in the edit dialog and delete it there",
        kind: "flow",
        params: { type: "object", additionalProperties: false, required: ["task"], properties: { task: taskParam() } },
        steps: [{ action: "edit.open", args: (a) => ({ task: a.task }) }, "edit.delete"],
      },
      ...(editing
        ? [{ id: "edit.delete", description: "Delete the task in the edit dialog", risk: "dangerous", stepOnly: true, target: "#edit-delete", run: deleteEdited }]
        : []),
      {
        id: "export",
        description: "Export the tasks and return the export reference",
        kind: "function",
        risk: "read",
        available: () => (identity === "verified" ? true : "verify your identity first (verify-identity)"),
        run: exportTasks,
      },
      {
        id: "verify-identity",
        description: "Have the user confirm their identity with their authenticator app",
        kind: "handoff",
        instructions: "Open your authenticator app, type the code into the Identity box and press Verify.",
        target: "#identity-code",
        check: { description: "The identity is verified", until: () => identity === "verified" },
        timeoutMs: 60000,
      },
    ],
  });
})();
