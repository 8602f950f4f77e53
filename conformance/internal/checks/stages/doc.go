// Package stages holds the checks of a call over time: flows (the step
// ledger, one diff, the gates of each step, failed steps, resuming, the
// confirmation a flow asks), hand-offs, revealing a target (stage 5), and
// when the runtime takes its snapshots and how long it waits (stages 6 to
// 8), and the execution ids every call carries (envelope.execution-id).
package stages
