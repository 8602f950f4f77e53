// Package glass is the root of the Glass module: it holds the one version
// that the CLI (glass-conformance), the Go library (glasstest, matchers,
// conformance, receipt, schema) and the reference page runtime (package
// sdk) share.
//
// The packages are:
//
//   - sdk: the reference page runtime a web app includes, as a classic
//     script and an ES module, with its TypeScript declarations;
//   - glasstest: the harness that drives a page in Chromium;
//   - matchers: Gomega matchers over receipts;
//   - conformance: the rules of CONTRACT.md as checks;
//   - receipt and schema: the Go model and the JSON Schemas of receipts
//     and snapshots.
package glass

// Version is the release of the whole module. The runtime's
// "glass-reference/x.y.z", sdk/package.json and `glass-conformance
// version` carry it too; tests in package sdk fail when any of them
// differs, so a release changes this one line and the files those tests
// name.
const Version = "0.3.0"
