// Package engine runs a conformance run: it selects the rules, starts the
// session, runs the checks of checks.Table side by side on a worker pool
// (audits last), reports progress and sorts the findings into catalog
// order.
package engine
