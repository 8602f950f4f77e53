package checks

import (
	"maps"
	"slices"

	"github.com/glassworks/glass/conformance/internal/checks/calls"
	"github.com/glassworks/glass/conformance/internal/checks/data"
	"github.com/glassworks/glass/conformance/internal/checks/expectwait"
	"github.com/glassworks/glass/conformance/internal/checks/fidelity"
	"github.com/glassworks/glass/conformance/internal/checks/host"
	"github.com/glassworks/glass/conformance/internal/checks/page"
	"github.com/glassworks/glass/conformance/internal/checks/scenarios"
	"github.com/glassworks/glass/conformance/internal/checks/stages"
	"github.com/glassworks/glass/conformance/internal/checks/webmcp"
	"github.com/glassworks/glass/conformance/internal/probe"
	"github.com/glassworks/glass/conformance/internal/refusal"
	"github.com/glassworks/glass/conformance/internal/report"
)

// Check probes one rule.
type Check struct {
	Run func(*probe.Probe) probe.Outcome
	// Audit marks a check that judges every receipt the run has seen; Run
	// runs audits after the other checks.
	Audit bool
}

// Table is the suite, as data: one check per rule id of the catalog. A
// rule without an entry is reported as not probed (NoCheckYet), never as
// passed. Every entry is proven by at least one mutant in
// fixtures/mutants that makes it fail (TestMutationMatrix).
var Table = map[string]Check{
	// Refusals: the right code at the right phase, nothing changed.
	"resolve.unknown-id":      {Run: calls.RefusalCheck(refusal.RefUnknownID, calls.AvailableListed)},
	"resolve.no-dom-fallback": {Run: calls.RefusalCheck(refusal.RefControlName, nil)},
	"args.malformed-json":     {Run: calls.MalformedJSON},
	"args.invalid-params":     {Run: inTurn(calls.InvalidParams, page.AtTheBounds)},
	"args.sensitive-restored": {Run: inTurn(calls.SensitiveRestored, page.NotPlaceholders)},
	"policy.denied":           {Run: calls.ClassRefusal(refusal.RefDenied, true)},
	"policy.no-channel":       {Run: calls.ClassRefusal(refusal.RefNoChannel, false)},
	"envelope.stale-revision": {Run: calls.StaleRevision},
	"unavailable.reason": {Run: inTurn(calls.RefusalCheck(refusal.RefUnavailable, calls.UnavailableReason),
		calls.RefusalCheck(refusal.RefUnavailableElement, calls.UnavailableReason),
		calls.RefusalCheck(refusal.RefUnavailableFunction, calls.UnavailableReason),
		calls.RefusalCheck(refusal.RefUnavailableFlow, calls.UnavailableReason), scenarios.UnavailableAfterCall)},

	// Refusals as a whole.
	"policy.after-validation":            {Run: calls.ValidationBeforeConfirmation},
	"pipeline.no-effect-before-dispatch": {Run: calls.NoEffectBeforeDispatch},
	"pipeline.stage-order":               {Run: calls.StageOrder},
	"resolve.current-model":              {Run: calls.CurrentModel},

	// What the page declares.
	"exec.kinds":        {Run: page.Kinds},
	"protocol.global":   {Run: page.Global},
	"protocol.snapshot": {Run: page.SnapshotValid},
	"snapshot.bounded":  {Run: page.SnapshotBounded},

	// Successful calls and what their receipts claim.
	"verify.expectation":               {Run: calls.Expectation},
	"verify.expect-only-when-verified": {Run: calls.ExpectOnlyWhenVerified},
	"changed.records":                  {Run: calls.ChangedRecords},
	"changed.parts":                    {Run: calls.ChangedParts},
	"changed.write-warning":            {Run: calls.WriteWarning},
	"changed.read-no-warning":          {Run: calls.ReadNoWarning},
	"data.bounded":                     {Run: data.DataBounded},
	"data.function-only":               {Run: calls.DataFunctionOnly, Audit: true},
	"fidelity.reported":                {Run: fidelity.Reported},
	"fidelity.low-warning":             {Run: fidelity.LowWarning},
	"sensitive.never-echoed":           {Run: calls.SensitiveNeverEchoed},
	"policy.ticket":                    {Run: calls.Ticket, Audit: true},
	"policy.risk-classes":              {Run: calls.RiskClasses},
	"envelope.revision":                {Run: calls.Revision, Audit: true},

	// Failures the manifest names.
	"verify.expectation-failed": {Run: scenarios.ExpectationFailed},
	"exec.handler-throws":       {Run: scenarios.HandlerThrows},

	// Audits over every receipt the run saw.
	"changed.bounded":            {Run: calls.ChangedBounded, Audit: true},
	"envelope.execution-id":      {Run: stages.ExecutionIDs, Audit: true},
	"protocol.receipt":           {Run: calls.ReceiptsValid, Audit: true},
	"envelope.phase":             {Run: calls.EnvelopePhase, Audit: true},
	"envelope.recovery-strategy": {Run: calls.RecoveryStrategy, Audit: true},
	"failure.code-table":         {Run: calls.CodeTable, Audit: true},
	"failure.bounded":            {Run: calls.FailureBounded, Audit: true},

	// The runtime's global and what it answers outside calls.
	"protocol.ready":         {Run: page.Ready},
	"protocol.no-throw":      {Run: page.NoThrow},
	"fidelity.assigned":      {Run: page.FidelityAssigned},
	"args.normalised":        {Run: page.ArgsNormalised},
	"envelope.no-auto-retry": {Run: page.NoAutoRetry},

	// Flows.
	"flow.ledger":              {Run: stages.FlowLedger},
	"flow.one-diff":            {Run: stages.FlowOneDiff},
	"flow.step-gates":          {Run: stages.FlowStepGates},
	"flow.step-failed":         {Run: stages.FlowStepFailed},
	"flow.resume":              {Run: stages.FlowResume},
	"flow.resume-unknown":      {Run: stages.FlowResumeUnknown},
	"flow.step-only":           {Run: stages.FlowStepOnly},
	"policy.flow-highest-risk": {Run: stages.FlowHighestRisk},
	"policy.flow-reask":        {Run: stages.FlowReask},

	// Hand-offs, reveals, and the timing of stages 6 to 8.
	"handoff.no-confirmation":   {Run: stages.HandoffNoConfirmation},
	"handoff.request":           {Run: stages.HandoffRequest},
	"handoff.outcome":           {Run: stages.HandoffOutcome},
	"reveal.after-confirmation": {Run: stages.RevealAfterConfirmation},
	"reveal.second-check":       {Run: stages.RevealSecondCheck},
	"changed.window":            {Run: stages.ChangedWindow},
	"verify.default-timeout":    {Run: expectwait.DefaultTimeout},
	"verify.expectation-timing": {Run: stages.ExpectationTiming},
	"verify.settle":             {Run: stages.Settle},

	// The host: Glass's own harness, against the page under test
	// (folded rows) or against its fault fixtures, over the bridge.
	"host.folded-rows":               {Run: host.FoldedRows},
	"host.channels-first":            {Run: host.ChannelsFirst},
	"host.ticket-binding":            {Run: host.BridgeOnly(host.TicketBinding)},
	"host.throw-is-execution-failed": {Run: host.BridgeOnly(host.ThrowIsExecutionFailed)},
	"host.transport":                 {Run: host.BridgeOnly(host.Transport)},
	"host.browser-effect":            {Run: host.BridgeOnly(host.BrowserEffect)},

	// WebMCP: the page's tools themselves, made once per run.
	"webmcp.tool-names":  {Run: webmcp.Once("webmcp.tool-names", webmcp.ToolNames)},
	"webmcp.folded-rows": {Run: webmcp.Once("webmcp.folded-rows", webmcp.FoldedTools)},
	"webmcp.result":      {Run: webmcp.Once("webmcp.result", webmcp.Result)},
	"webmcp.agrees":      {Run: webmcp.Once("webmcp.agrees", webmcp.Agrees)},
}

// inTurn runs the checks of one rule one after another: the first that
// fails decides; else the first that passed (a later part of the rule
// the page gives nothing to probe does not undo it); else the first's
// outcome.
func inTurn(runs ...func(*probe.Probe) probe.Outcome) func(*probe.Probe) probe.Outcome {
	return func(p *probe.Probe) probe.Outcome {
		var first, passed *probe.Outcome
		for _, run := range runs {
			o := run(p)
			switch {
			case o.Verdict == report.Fail:
				return o
			case first == nil:
				first = &o
			}
			if passed == nil && o.Verdict == report.Pass {
				passed = &o
			}
		}
		if passed != nil {
			return *passed
		}
		return *first
	}
}

// IsAudit reports whether the check of rule id is an audit, which a run
// makes after the other checks.
func IsAudit(id string) bool { return Table[id].Audit }

// Checked reports whether the suite has a check for the rule id.
func Checked(id string) bool {
	_, ok := Table[id]
	return ok
}

// CheckIDs lists the rule ids the suite has checks for, sorted.
func CheckIDs() []string {
	return slices.Sorted(maps.Keys(Table))
}
