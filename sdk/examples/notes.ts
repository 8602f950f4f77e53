// A notes page declared in TypeScript with the ES module form of the
// runtime. `go test ./sdk` type-checks it with tsc (strict); the
// declarations in glass-runtime.d.ts give every field of define its type.
import { glassRuntime, type ActionDeclaration, type Receipt } from "@glassworks/glass-runtime";

interface Note {
  id: string;
  text: string;
}

let notes: Note[] = [
  { id: "n1", text: "Buy milk" },
  { id: "n2", text: "Call Anna" },
];
let next = 3;
const toasts: { kind: string; text: string }[] = [];

// The app's own write paths: the agent's calls go through them too.
function addNote(text: string): Note {
  const note = { id: "n" + next++, text: text.trim() };
  notes = notes.concat([note]);
  toasts.push({ kind: "success", text: "Added a note" });
  return note;
}
function removeNote(id: string): void {
  notes = notes.filter((n) => n.id !== id);
}
const rowOf = (id: string) => document.querySelector<HTMLElement>(`li[data-id="${CSS.escape(id)}"]`);

// The arguments of add, as its params describe them.
interface AddArgs {
  text: string;
}

const add: ActionDeclaration<AddArgs> = {
  id: "add",
  description: "Add a note",
  target: "#add-button",
  params: {
    type: "object",
    additionalProperties: false,
    required: ["text"],
    properties: { text: { type: "string", minLength: 1, maxLength: 100 } },
  },
  run: (a) => addNote(a.text),
  // Built after stage 5, right before the call's first effect: it may
  // capture the page's state to compare with later.
  expect: (a) => {
    const before = notes.length;
    return {
      description: "The note is in the list",
      until: () => notes.length === before + 1 && notes[notes.length - 1].text === a.text.trim(),
    };
  },
};

glassRuntime.define({
  page: () => ({ id: "notes", title: "Notes" }),
  records: () => notes.map((n) => ({ id: n.id, fields: { text: n.text } })),
  state: () => ({ count: notes.length }),
  feedback: () => toasts,
  actions: () => [
    add,
    ...notes.map(
      (n): ActionDeclaration => ({
        id: "remove@" + n.id,
        description: "Delete the note",
        risk: "dangerous",
        target: () => rowOf(n.id)?.querySelector("button.remove") ?? null,
        reveal: () => rowOf(n.id)?.scrollIntoView({ block: "center" }),
        available: () => (notes.length > 1 ? true : "the last note cannot be deleted"),
        run: () => removeNote(n.id),
        expect: { description: "The note is gone", until: () => !notes.some((x) => x.id === n.id) },
      }),
    ),
    {
      id: "rename",
      description: "Rename a note",
      params: {
        type: "object",
        required: ["note", "text"],
        properties: { note: { type: "string" }, text: { type: "string", minLength: 1 } },
      },
      steps: [
        { action: (a) => "rename.open@" + a.note, label: "rename.open@<note>" },
        { action: "rename.text", args: (a) => ({ value: a.text }) },
        "rename.save",
      ],
    },
    { id: "rename.text", description: "Type the text", stepOnly: true, target: "#text" },
    {
      id: "sign",
      description: "Have the user sign the list",
      kind: "handoff",
      instructions: "Sign with your security key.",
      check: { description: "The list is signed", until: () => document.body.dataset.signed === "yes" },
      timeoutMs: 120000,
    },
  ],
});

// What a receipt tells a caller, narrowed on result.ok.
export async function addAndReport(text: string): Promise<string> {
  const r: Receipt = await glassRuntime.execute("add", JSON.stringify({ text }), { expectTimeoutMs: 5000 });
  if (r.result.ok) {
    return r.result.action.id + ": " + (r.result.expect ?? "done");
  }
  return r.result.error.code + " at " + r.phase + ": " + (r.result.error.reason ?? r.result.error.message ?? "");
}

// The snapshot: every declared action with its risk and availability.
export function unavailable(): string[] {
  return glassRuntime
    .snapshot({ limit: 100 })
    .actions.items.filter((a) => !a.available)
    .map((a) => a.id + ": " + (a.reason ?? ""));
}
