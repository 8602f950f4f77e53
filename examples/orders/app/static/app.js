// The Orders app: plain DOM code with its own write paths (the API), plus
// the declarations that make it agent-ready. The Refund and Pay buttons and
// the declared actions go through the same functions.
(function () {
  "use strict";

  const initial = JSON.parse(document.getElementById("initial").textContent);
  const session = initial.session;
  let orders = initial.orders;
  const toasts = [];
  const faults = new Set((new URLSearchParams(location.search).get("fault") || "").split(",").filter(Boolean));
  let notifyFailed = false;

  const table = document.getElementById("orders");
  const filter = document.getElementById("filter");

  function rowOf(id) {
    return table.querySelector('tr[data-order="' + CSS.escape(id) + '"]');
  }

  function find(id) {
    return orders.find((o) => o.id === id);
  }

  function shown(o) {
    return filter.value === "all" || filter.value === o.status;
  }

  function cell(text, cls) {
    const td = document.createElement("td");
    td.textContent = text;
    if (cls) td.className = cls;
    return td;
  }

  function render() {
    const rows = orders.filter(shown).map((o) => {
      const tr = document.createElement("tr");
      tr.dataset.order = o.id;
      const act = document.createElement("td");
      if (o.status === "paid") {
        const refund = document.createElement("button");
        refund.type = "button";
        refund.className = "refund";
        refund.textContent = "Refund";
        refund.setAttribute("aria-label", "Refund " + o.id);
        act.append(refund);
      } else if (o.status === "pending") {
        const pay = document.createElement("div");
        pay.className = "pay";
        const card = document.createElement("input");
        card.className = "card";
        card.autocomplete = "off";
        card.setAttribute("aria-label", "Card number for " + o.id);
        const button = document.createElement("button");
        button.type = "button";
        button.className = "pay";
        button.textContent = "Pay";
        button.setAttribute("aria-label", "Pay " + o.id);
        pay.append(card, button);
        act.append(pay);
      } else {
        act.textContent = o.notified ? "customer notified" : "";
      }
      tr.append(cell(o.id), cell(o.customer), cell(o.total), cell(o.status, "status " + o.status), act);
      return tr;
    });
    table.replaceChildren(...rows);
  }

  function toast(kind, text) {
    toasts.push({ kind: kind, text: text });
    while (toasts.length > 3) toasts.shift();
    document.getElementById("toasts").replaceChildren(
      ...toasts.map((t) => {
        const div = document.createElement("div");
        div.className = "toast " + t.kind;
        div.textContent = t.text;
        return div;
      })
    );
  }

  async function api(path, body) {
    const res = await fetch(path, {
      method: "POST",
      headers: { "X-Orders-Session": session, "Content-Type": "application/json" },
      body: JSON.stringify(body || {}),
    });
    if (!res.ok) throw new Error("the server answered " + res.status);
    const o = await res.json();
    orders = orders.map((x) => (x.id === o.id ? o : x));
    render();
    return o;
  }

  // ---- the app's own write paths: the UI and the agent actions use them

  function validateRefund(id) {
    const o = find(id);
    if (!o) throw new Error("no order " + id);
    if (o.status !== "paid") throw new Error("order " + id + " is " + o.status + ", only a paid order can be refunded");
    return { order: o.id, amount: o.total, customer: o.customer };
  }

  async function issueRefund(id) {
    const o = await api("/api/orders/" + encodeURIComponent(id) + "/refund");
    toast("success", "Refunded " + o.total + " on " + o.id);
  }

  async function notifyCustomer(id) {
    if (faults.has("notify-fails-once") && !notifyFailed) {
      notifyFailed = true;
      throw new Error("the mail server did not answer");
    }
    const o = await api("/api/orders/" + encodeURIComponent(id) + "/notify");
    toast("success", "Told " + o.customer + " about the refund");
  }

  async function pay(id) {
    const row = rowOf(id);
    const card = row ? row.querySelector("input.card").value : "";
    try {
      await api("/api/orders/" + encodeURIComponent(id) + "/pay", { card: card });
      toast("success", "Order " + id + " is paid");
    } catch (e) {
      toast("error", "The card was declined");
    }
  }

  // ---- the UI

  table.addEventListener("click", (e) => {
    const tr = e.target.closest("tr");
    if (!tr) return;
    const id = tr.dataset.order;
    if (e.target.matches("button.refund") && window.confirm("Refund order " + id + "?")) {
      Promise.resolve()
        .then(() => validateRefund(id))
        .then(() => issueRefund(id))
        .then(() => notifyCustomer(id))
        .catch((err) => toast("error", String(err.message || err)));
    }
    if (e.target.matches("button.pay")) pay(id);
  });
  filter.addEventListener("change", render);
  render();

  // ---- the declarations

  // unavailable says why a row action cannot run now, or true.
  function hidden(o) {
    return shown(o) ? true : "hidden by the filter \u201c" + filter.value + "\u201d; show all orders first";
  }
  function refundable(o) {
    if (!o) return "no such order";
    if (o.status !== "paid") return "order " + o.id + " is " + o.status + ", only a paid order can be refunded";
    return hidden(o);
  }
  // A refund whose notification failed is still the flow's to finish: it
  // stays available, so that resume can run the last step.
  function finishable(o) {
    return o && o.status === "refunded" && !o.notified ? hidden(o) : refundable(o);
  }
  const orderParam = () => ({ type: "string", description: "The order id, o1…", enum: orders.map((o) => o.id) });
  const byOrder = (a) => (a && a.order ? refundable(find(a.order)) : true);
  const rowControl = (selector) => (a) => (a && a.order && rowOf(a.order) ? rowOf(a.order).querySelector(selector) : null);

  glassRuntime.define({
    page: () => ({ id: "orders", title: "Orders" }),
    records: () => orders.map((o) => ({ id: o.id, fields: { customer: o.customer, total: o.total, status: o.status, notified: o.notified } })),
    state: () => ({ filter: filter.value }),
    feedback: () => toasts.map((t) => ({ kind: t.kind, text: t.text })),
    actions: () => [
      ...orders.map((o) => ({
        id: "refund@" + o.id,
        description: "Refund the order and tell the customer",
        kind: "flow",
        risk: "dangerous",
        available: () => finishable(o),
        steps: [
          { action: "refund.validate", args: () => ({ order: o.id }), label: "validate" },
          { action: "refund.issue", args: () => ({ order: o.id }), label: "refund" },
          { action: "refund.notify", args: () => ({ order: o.id }), label: "notify" },
        ],
        expect: {
          description: "The order is refunded and the customer notified",
          until: () => {
            const x = find(o.id);
            return !!x && x.status === "refunded" && x.notified;
          },
        },
      })),
      {
        id: "refund.validate",
        description: "Check that an order can be refunded, and return the amount",
        kind: "function",
        risk: "read",
        params: { type: "object", additionalProperties: false, required: ["order"], properties: { order: orderParam() } },
        run: (a) => validateRefund(a.order),
      },
      {
        id: "refund.issue",
        description: "Issue the refund of an order",
        risk: "dangerous",
        target: rowControl("button.refund"),
        reveal: (a) => rowOf(a.order) && rowOf(a.order).scrollIntoView({ block: "center" }),
        available: byOrder,
        params: { type: "object", additionalProperties: false, required: ["order"], properties: { order: orderParam() } },
        run: (a) => issueRefund(a.order),
        expect: (a) => ({ description: "The order is refunded", until: () => find(a.order).status === "refunded" }),
      },
      {
        id: "refund.notify",
        description: "Tell the customer about the refund",
        kind: "function",
        risk: "write",
        params: { type: "object", additionalProperties: false, required: ["order"], properties: { order: orderParam() } },
        available: (a) => (!a || !a.order || (find(a.order) && find(a.order).status === "refunded") ? true : "refund the order first"),
        run: (a) => notifyCustomer(a.order).then(() => ({ notified: a.order })),
      },
      ...orders
        .filter((o) => o.status === "pending")
        .map((o) => ({
          id: "pay@" + o.id,
          description: "Have the user enter the card details of the order",
          kind: "handoff",
          risk: "write",
          available: () => hidden(o),
          instructions: "Type the card number into the order's Card number box and press Pay.",
          target: () => rowOf(o.id) && rowOf(o.id).querySelector("input.card"),
          check: { description: "The order is paid", until: () => find(o.id).status === "paid" },
          timeoutMs: 60000,
        })),
      {
        id: "filter",
        description: "Show all orders, or only pending, paid or refunded ones",
        risk: "read",
        target: "#filter",
        params: { type: "object", required: ["value"], properties: { value: { type: "string", enum: ["all", "pending", "paid", "refunded"] } } },
      },
    ],
  });
})();
