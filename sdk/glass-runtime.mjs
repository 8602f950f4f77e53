// Glass reference page runtime, ES module form — protocol glass.page/v1.
//
// The runtime itself is the classic script next to this file: importing it
// runs it once, and it installs the frozen global glassRuntime (a second
// import or a <script> tag of it changes nothing). This module only hands
// that object out, so the two forms can never differ.
//
//   import { glassRuntime } from "./glass-runtime.mjs";
//   glassRuntime.define({ page: () => ({ id: "todo", title: "Todo" }), ... });
import "./glass-runtime.js";

export const glassRuntime = globalThis.glassRuntime;
export default glassRuntime;
