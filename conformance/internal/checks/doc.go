// Package checks is the suite as data: Table maps every rule id of the
// catalog to the check that decides it. A check is a function of a probe
// (probe.Probe) that returns an outcome: pass, fail with one sentence and
// its evidence, or not probed with the reason. The checks themselves live
// in the packages below, by what they probe: calls (refusals, the
// exercise's calls, the manifest's failures, audits of every receipt),
// page (the runtime's global and what the page declares), stages (flows,
// hand-offs, reveals, the timing of stages 6 to 8), host (Glass's own
// harness) and webmcp (the page's WebMCP tools).
package checks
