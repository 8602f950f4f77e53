// Package conformance decides, rule by rule, whether a page runtime honours
// the Glass contract (CONTRACT.md).
//
// The rule catalog (Catalog) is data: every rule has a stable id, the
// phase it belongs to, the party it binds, one MUST sentence, the seed
// passage it comes from, the conformance specs that check it and what
// those need. CONTRACT.md is the same list in prose; a test fails when the
// two differ, so adding, removing or rewording a rule is one visible diff
// in both.
//
// There are two entry points: Run, the error-returning engine (the CLI
// uses it), and Register, which adds one Ginkgo spec per rule to a suite.
// A run's verdicts come back as a Report, which writes itself as text,
// JSON, JUnit XML, HTML and a directory of evidence.
//
// This package is the facade; docs/architecture.md names the internal
// packages behind it (the catalog, the engine, the probes, the checks, the
// reports, the manifest).
package conformance

import (
	"github.com/glassworks/glass/conformance/internal/catalog"
	"github.com/glassworks/glass/conformance/internal/checks"
	"github.com/glassworks/glass/conformance/internal/engine"
	"github.com/glassworks/glass/conformance/internal/probe"
	"github.com/glassworks/glass/conformance/internal/report"
)

// Rule is one normative rule of CONTRACT.md.
type Rule = catalog.Rule

// Party is who a rule binds.
type Party = catalog.Party

// The parties of the contract.
const (
	// Runtime rules bind the page runtime: what an SDK author implements.
	Runtime = catalog.Runtime
	// Host rules bind the agent runtime around the page, such as the Glass
	// harness: what it does with confirmations, hand-offs, folded rows and
	// its own failures.
	Host = catalog.Host
)

// Catalog lists every rule, in CONTRACT.md order.
var Catalog = catalog.Rules

// RuleByID returns the rule with the given id.
func RuleByID(id string) (Rule, bool) { return catalog.ByID(id) }

// Checked reports whether the suite has a check for the rule id; a rule
// without one is reported not probed (NoCheckYet), never passed.
func Checked(id string) bool { return checks.Checked(id) }

// Verdict is the outcome of one rule.
type Verdict = report.Verdict

// The verdicts. A rule that could not be probed is never reported as
// passed: it is NotProbed, with the reason.
const (
	Pass      = report.Pass
	Fail      = report.Fail
	NotProbed = report.NotProbed
)

// Evidence is one thing a check saw: a receipt excerpt, a snapshot, a
// witness of the DOM or the rendered page. Text is page-provided and
// must be escaped by whatever renders it.
type Evidence = report.Evidence

// Finding is the verdict on one rule over one transport, with its evidence.
type Finding = report.Finding

// Report is the outcome of a conformance run; it writes itself as text
// (WriteText), JSON, JUnit XML, HTML and a directory of evidence
// (WriteArtifacts).
type Report = report.Report

// BaselineStatus is how a baseline of known violations judged a finding.
type BaselineStatus = report.BaselineStatus

// The baseline statuses. A finding of a rule the baseline does not list has
// none.
const (
	// BaselineExpected: the rule fails and the baseline says it does; the
	// failure is reported but does not fail the run.
	BaselineExpected = report.BaselineExpected
	// BaselineStale: the baseline says the rule fails, but it passes now;
	// the entry must go, and until it does the run fails.
	BaselineStale = report.BaselineStale
)

// Target is what a run checks: the page's URL and, optionally, the browser
// to probe it in.
type Target = engine.Target

// ProgressEvent tells a progress display that a rule starts (Finding is
// nil) or has its verdict.
type ProgressEvent = engine.ProgressEvent

// ErrSetup wraps failures that stop a run before any rule is checked: the
// page cannot be opened, has no runtime, or speaks another protocol.
var ErrSetup = probe.ErrSetup

// ErrUsage wraps bad options: an unknown rule id, an impossible shard.
var ErrUsage = engine.ErrUsage

// NoCheckYet is the reason given for a rule of the catalog that no check
// probes yet.
const NoCheckYet = engine.NoCheckYet

// NoWebMCPTools is the reason every rule is not probed over the webmcp
// transport when the page registered no WebMCP tools: the browser has no
// document.modelContext, or the runtime registers none.
const NoWebMCPTools = probe.NoWebMCPTools

// Run checks the selected rules against t over the selected transports
// and returns one finding per rule and transport. It returns an error only
// when the run cannot start: bad options (ErrUsage) or a page that cannot
// be checked at all (ErrSetup). Both read as one line that names the
// option or the page, ready to print as they are.
func Run(t Target, opts ...Option) (*Report, error) {
	cfg, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	return engine.Run(t, cfg)
}
