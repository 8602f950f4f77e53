// What the declarations refuse. Each marked line below must be an error
// for tsc, and the marker makes tsc fail when one is not: this file proves
// the types check something (the test runs tsc over it with notes.ts).
import { glassRuntime, type ActionDeclaration } from "@glassworks/glass-runtime";

export const mistakes: ActionDeclaration[] = [
  // @ts-expect-error an action needs an id
  { description: "No id" },
  // @ts-expect-error a risk is read, write or dangerous
  { id: "a", risk: "risky" },
  // @ts-expect-error kind is element, function, flow or handoff
  { id: "b", kind: "button" },
  // @ts-expect-error a step names an action by its id
  { id: "c", steps: [{ args: {} }] },
  // @ts-expect-error an expectation's until is a function
  { id: "d", expect: { description: "x", until: true } },
  // @ts-expect-error stepOnly is a boolean
  { id: "e", stepOnly: "yes" },
];

// @ts-expect-error define takes functions, not values
glassRuntime.define({ records: [] });

export async function misuse(): Promise<void> {
  const r = await glassRuntime.execute("x");
  // @ts-expect-error result.error exists only when result.ok is false
  r.result.error.code;
  if (!r.result.ok) {
    // @ts-expect-error an error code is one of the contract's
    if (r.result.error.code === "NOT_A_CODE") return;
  }
}
