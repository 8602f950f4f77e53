// Package surface turns a page's snapshot into its declared capability
// surface — what an agent may do on the page, and how — and compares two
// surfaces, classifying every difference as breaking, needs review or
// additive. A team keeps the surface of its page in the repository as a
// reviewed baseline (glass-surface.json); CI compares the live page with
// it and fails on a change that breaks agents or users, unless the
// baseline changes in the same pull request. docs/surface.md explains
// every class with an example.
//
//	live, err := surface.FromSnapshot(snap) // snap from glasstest's Page.TrySnapshot
//	base, err := surface.Load("glass-surface.json")
//	rep := surface.Compare(base, live)
//	if rep.Breaking() { … }
//
// The package is pure Go: it reads snapshots (receipt.Snapshot) and files,
// and never drives a browser, so matchers and reports can use it without
// Playwright.
//
// # What the surface holds
//
// One entry per action the snapshot declares, sorted by name: its
// description, kind, risk and confirm, step-only flag and steps (for a
// flow), parameters (the params JSON Schema, canonicalised), sensitive
// parameters, fidelity, expectation and idempotence (x-idempotent). Row
// actions name@record are folded into one entry per tool, named after the
// tool, with the record ids left out (CONTRACT.md §6.4). The page identity
// is its id, its title, and its URL's path — and its host, unless the
// host is a loopback address (a test server's) — without scheme, port,
// query or fragment, which change from one run to the next.
//
// What the surface leaves out, because it is state rather than
// declaration: availability and its reason, records, state views,
// feedback, revisions, the runtime's name and version, and extension
// fields other than x-idempotent.
//
// # Stable files
//
// A surface file is canonical JSON (two-space indent, LF, keys of JSON
// Schemas sorted, required lists and type lists sorted) so that two
// recordings of the same page are byte for byte equal and a change reads
// as a small diff in a pull request. An enum that lists exactly the ids
// of the page's records (a task parameter enumerating t1…t12) is data,
// not declaration: it is recorded as "x-glass-enum": "record-ids".
//
// Reading a surface file is strict: unknown fields, duplicate keys and
// values of the wrong type are errors with their JSONPath, and only a
// regular file under MaxFileBytes is read.
package surface
