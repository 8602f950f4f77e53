// Package judge compares what a receipt claims with what the snapshots
// around its call show: records added, removed, updated and reordered,
// the totals and omission counts, actions, state views and feedback. Its
// functions are pure: they read decoded receipts and snapshots and return
// the problem as one sentence, "" when there is none.
package judge
