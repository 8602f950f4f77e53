// Package report is the outcome of a run — Report, Finding, Verdict,
// Evidence — and its writers: text for a terminal or a CI log, JSON, JUnit
// XML (Ginkgo's reporters types), self-contained HTML, and a directory of
// evidence. Page-provided text is neutralised in every one of them.
package report
