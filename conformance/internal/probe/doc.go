// Package probe is what the checks stand on: the session a run's checks
// share (the page's first snapshot, every receipt seen, memoized probes,
// the probes' secrets, the host probe pages' server), a check's probe
// of fresh pages over one transport, the witnesses of a page (snapshot,
// DOM, rendered page), the refusals, the exercise, the manifest's
// scenarios, the judges of a receipt's changed that several checks share,
// and the outcome and evidence a check returns.
package probe
