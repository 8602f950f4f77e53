// A small todo list in the style of TodoMVC's plain JavaScript version:
// the list lives in localStorage, and starts empty. "?demo" in the address
// starts it with two todos, for demonstrations; "?demo&late" adds them
// 1.4 s after this script ran (init reads the page again once it has been
// quiet for 1.5 s), as a page that defines its model before its request
// for the data answers.
(function () {
  "use strict";

  var STORAGE_KEY = "todos-plain";
  var todos = JSON.parse(localStorage.getItem(STORAGE_KEY) || "[]");
  var nextId = todos.reduce(function (n, t) { return Math.max(n, t.id); }, 0) + 1;
  var filter = "all";

  if (/[?&]demo\b/.test(location.search) && todos.length === 0) {
    var seed = [
      { id: nextId++, title: "Buy milk", completed: false },
      { id: nextId++, title: "Walk the dog", completed: true },
    ];
    if (/[?&]late\b/.test(location.search)) {
      setTimeout(function () { todos = seed; render(); }, 1400);
    } else {
      todos = seed;
    }
  }

  var list = document.getElementById("todo-list");
  var input = document.getElementById("new-todo");

  function save() {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(todos));
  }

  function find(id) {
    for (var i = 0; i < todos.length; i++) if (String(todos[i].id) === String(id)) return todos[i];
    return null;
  }

  function addTodo(title) {
    todos.push({ id: nextId++, title: title.trim(), completed: false });
    save();
    render();
  }

  function toggleTodo(id) {
    var t = find(id);
    t.completed = !t.completed;
    save();
    render();
  }

  function renameTodo(id, title) {
    find(id).title = title.trim();
    save();
    render();
  }

  function removeTodo(id) {
    todos = todos.filter(function (t) { return String(t.id) !== String(id); });
    save();
    render();
  }

  function clearCompleted() {
    todos = todos.filter(function (t) { return !t.completed; });
    save();
    render();
  }

  function visible() {
    return todos.filter(function (t) {
      return filter === "all" || (filter === "active" ? !t.completed : t.completed);
    });
  }

  function render() {
    list.innerHTML = "";
    visible().forEach(function (t) {
      var li = document.createElement("li");
      li.dataset.id = t.id;
      if (t.completed) li.className = "completed";
      var box = document.createElement("input");
      box.type = "checkbox";
      box.className = "toggle";
      box.checked = t.completed;
      box.setAttribute("aria-label", "Done: " + t.title);
      box.addEventListener("change", function () { toggleTodo(t.id); });
      var label = document.createElement("label");
      label.textContent = t.title;
      var destroy = document.createElement("button");
      destroy.className = "destroy";
      destroy.setAttribute("aria-label", "Delete " + t.title);
      destroy.textContent = "×";
      destroy.addEventListener("click", function () { removeTodo(t.id); });
      li.append(box, label, destroy);
      list.appendChild(li);
    });
    var left = todos.filter(function (t) { return !t.completed; }).length;
    document.getElementById("count").textContent = left + (left === 1 ? " item left" : " items left");
    document.getElementById("footer").hidden = todos.length === 0;
    document.querySelectorAll("[data-filter]").forEach(function (a) {
      a.classList.toggle("selected", a.dataset.filter === filter);
    });
  }

  document.getElementById("new-todo-form").addEventListener("submit", function (e) {
    e.preventDefault();
    if (input.value.trim() !== "") addTodo(input.value);
    input.value = "";
  });
  document.getElementById("clear-completed").addEventListener("click", clearCompleted);
  document.querySelectorAll("[data-filter]").forEach(function (a) {
    a.addEventListener("click", function (e) {
      e.preventDefault();
      filter = a.dataset.filter;
      render();
    });
  });

  function rowOf(id) {
    return list.querySelector('li[data-id="' + id + '"]');
  }

  // What an agent may do here, declared for Glass's reference runtime
  // (see the header of glass-runtime.js).
  var notBlank = { type: "string", pattern: "\\S", description: "Not blank" };
  glassRuntime.define({
    page: function () { return { id: "todos", title: "todos" }; },
    records: function () {
      return todos.map(function (t) {
        return { id: String(t.id), fields: { title: t.title, completed: t.completed } };
      });
    },
    state: function () { return { filter: filter }; },
    actions: function () {
      var actions = [
        {
          id: "add",
          description: "Add a todo",
          risk: "write",
          params: { type: "object", required: ["title"], properties: { title: notBlank } },
          run: function (args) { addTodo(args.title); },
          expect: function (args) {
            return {
              description: "The new todo is in the list",
              until: function () { return todos.some(function (t) { return t.title === args.title.trim(); }); },
            };
          },
        },
        {
          id: "filter",
          description: "Show all, active or completed todos",
          risk: "read",
          params: { type: "object", required: ["show"], properties: { show: { type: "string", enum: ["all", "active", "completed"] } } },
          run: function (args) { filter = args.show; render(); },
        },
        {
          id: "clear-completed",
          description: "Delete every completed todo",
          risk: "dangerous",
          target: "#clear-completed",
          available: function () {
            return todos.some(function (t) { return t.completed; }) || "no todo is completed";
          },
        },
      ];
      todos.forEach(function (t) {
        actions.push({
          id: "toggle@" + t.id,
          description: "Mark the todo completed, or active again",
          target: function () { var r = rowOf(t.id); return r && r.querySelector(".toggle"); },
        });
        actions.push({
          id: "edit@" + t.id,
          description: "Rename the todo",
          params: { type: "object", required: ["title"], properties: { title: notBlank } },
          run: function (args) { renameTodo(t.id, args.title); },
        });
        actions.push({
          id: "delete@" + t.id,
          description: "Delete the todo",
          risk: "dangerous",
          target: function () { var r = rowOf(t.id); return r && r.querySelector(".destroy"); },
          expect: { description: "The todo is gone", until: function () { return !find(t.id); } },
        });
      });
      return actions;
    },
  });

  render();
})();
