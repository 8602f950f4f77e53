// Package catalog is the rule catalog: every normative rule of CONTRACT.md
// as data, with a stable id, the phase it belongs to, the party it binds,
// one MUST sentence, the seed passage it comes from, the conformance specs
// that check it and what those need. CONTRACT.md is the same list in
// prose; a test fails when the two differ, so adding, removing or
// rewording a rule is one visible diff in both, as in Kubernetes'
// conformance.yaml.
package catalog

import "github.com/glassworks/glass/receipt"

// Rule is one normative rule of CONTRACT.md.
type Rule struct {
	// ID is the stable id, "area.kebab-name"; it is never reused for
	// another meaning.
	ID string `json:"id"`
	// Phase is the phase the rule belongs to; PhaseNone means the rule is
	// about every receipt (written "any" in CONTRACT.md).
	Phase receipt.Phase `json:"phase"`
	// Must is the rule's one sentence, as in CONTRACT.md without the code
	// quotes.
	Must string `json:"must"`
	// Seed names the passages the rule comes from: the seed file and the
	// exact heading, as in 000_3e7eae751e5cbc0b.txt › "Resolve the action",
	// several separated by "; ".
	Seed string `json:"seed"`
	// Party is who the rule binds: the page runtime or the host.
	Party Party `json:"party"`
	// Checks names the conformance specs that check the rule; the spec
	// named by the rule id always does.
	Checks []string `json:"checks"`
	// Needs says what the checks need beyond the page's own snapshot — a
	// page that declares a kind of action, a manifest naming one, or a
	// fixture page — or is empty when any page with a runtime will do. A
	// check that does not find what it needs reports the rule not probed.
	Needs string `json:"needs,omitempty"`
	// Since is the protocol version that introduced the rule.
	Since string `json:"since"`
}

// Party is who a rule binds.
type Party string

// The parties of the contract.
const (
	// Runtime rules bind the page runtime: what an SDK author implements.
	Runtime Party = "runtime"
	// Host rules bind the agent runtime around the page, such as the Glass
	// harness: what it does with confirmations, hand-offs, folded rows and
	// its own failures.
	Host Party = "host"
)

// Rules lists every rule, in CONTRACT.md order.
var Rules = withDefaults([]Rule{
	{
		ID:    "pipeline.stage-order",
		Phase: receipt.PhaseNone,
		Party: Runtime,
		Must:  "A runtime MUST run every call through the eight stages in order — resolve, parse and restore, validate and normalise, confirm, make usable, execute, observe, compare and report — and MUST stop at the first stage that fails.",
		Seed:  "000_3e7eae751e5cbc0b.txt › \"The pipeline\"",
		Needs: "a page that declares an available action that needs confirmation",
	},
	{
		ID:    "pipeline.no-effect-before-dispatch",
		Phase: receipt.PhaseNone,
		Party: Runtime,
		Must:  "A call that fails before stage 6 MUST report started no and MUST leave the page's records, state views and feedback as they were, apart from records that revealing the target rendered.",
		Seed:  "000_3e7eae751e5cbc0b.txt › \"The pipeline\"",
	},
	{
		ID:    "resolve.unknown-id",
		Phase: receipt.PhaseTargetResolution,
		Party: Runtime,
		Must:  "A call of an action id that is not declared in the current page model MUST fail with ACTION_NOT_FOUND at phase target_resolution, listing the actions available now.",
		Seed:  "000_3e7eae751e5cbc0b.txt › \"Resolve the action\"",
	},
	{
		ID:    "resolve.current-model",
		Phase: receipt.PhaseTargetResolution,
		Party: Runtime,
		Must:  "A runtime MUST resolve an id against the actions declared when the call is made, so that a call of an action an earlier call removed fails with ACTION_NOT_FOUND.",
		Seed:  "000_3e7eae751e5cbc0b.txt › \"Resolve the action\"",
		Needs: "a page on which a successful call removes a declared action (found from the receipt's changed.actions.removed)",
	},
	{
		ID:    "resolve.no-dom-fallback",
		Phase: receipt.PhaseTargetResolution,
		Party: Runtime,
		Must:  "A runtime MUST NOT act on an id that is not declared — no search of the page for a similar control — so a call that fails with ACTION_NOT_FOUND leaves the page model as it was.",
		Seed:  "000_3e7eae751e5cbc0b.txt › \"What the lifecycle does not guarantee\"",
	},
	{
		ID:    "host.folded-rows",
		Phase: receipt.PhaseTargetResolution,
		Party: Host,
		Must:  "A host that offers per-row actions as one tool name with a record argument MUST map a call of name with record r to the declared action name@r, passing the other arguments unchanged, before stage 1.",
		Seed:  "000_3e7eae751e5cbc0b.txt › \"Resolve the action\"",
		Needs: "a page that declares two or more per-row actions of one tool (ids of the form name@record); the other arguments are judged best when one of them takes arguments (params that require a member or forbid undeclared ones)",
	},
	{
		ID:    "args.malformed-json",
		Phase: receipt.PhasePreflight,
		Party: Runtime,
		Must:  "Arguments that are not valid JSON MUST fail with INVALID_ARGS at phase preflight.",
		Seed:  "000_3e7eae751e5cbc0b.txt › \"Decode and validate arguments\"",
		Needs: "a page that declares at least one action",
	},
	{
		ID:    "args.sensitive-restored",
		Phase: receipt.PhasePreflight,
		Party: Runtime,
		Must:  "A runtime MUST replace every {\"$sensitive\": name} placeholder in the arguments with options.secrets[name] before validation, and MUST fail with INVALID_ARGS when name is not in options.secrets; an object with other members beside \"$sensitive\", or whose \"$sensitive\" is not a string, is no placeholder and MUST be left as it is.",
		Seed:  "000_3e7eae751e5cbc0b.txt › \"Decode and validate arguments\"",
		Needs: "a page that declares an action with a string parameter",
	},
	{
		ID:    "args.invalid-params",
		Phase: receipt.PhasePreflight,
		Party: Runtime,
		Must:  "Arguments that are valid JSON but break the action's params schema — a missing required field, a wrong type, a value outside an enum or past a bound — MUST fail with INVALID_PARAMS at phase preflight, with result.error.path the JSON Pointer of the offending value, or for a missing required member the pointer of that member or of the object that lacks it; arguments the schema accepts, a value at an inclusive bound (minimum, maximum, minLength, maxLength) among them, MUST NOT fail with INVALID_PARAMS.",
		Seed:  "000_3e7eae751e5cbc0b.txt › \"Decode and validate arguments\"",
		Needs: "a page that declares an action whose params have a required field, a type or an enum",
	},
	{
		ID:    "args.normalised",
		Phase: receipt.PhasePreflight,
		Party: Runtime,
		Must:  "A runtime MUST pass the handler the validated arguments with the defaults the params schema declares filled in, so that the handler receives the shape described to the model, and a confirmation request of the call MUST show those normalised arguments (§6.3).",
		Seed:  "000_3e7eae751e5cbc0b.txt › \"Decode and validate arguments\"",
		Needs: "a function action whose params declare a default and whose data returns the arguments it received, or an available flow whose params declare a default (for the confirmation request, one of them that needs confirmation)",
	},
	{
		ID:    "policy.after-validation",
		Phase: receipt.PhasePreflight,
		Party: Runtime,
		Must:  "A call whose arguments fail parsing, restoration or validation MUST NOT ask the host for confirmation.",
		Seed:  "000_3e7eae751e5cbc0b.txt › \"The pipeline\"",
		Needs: "a page that declares an available action that needs confirmation",
	},
	{
		ID:    "policy.risk-classes",
		Phase: receipt.PhasePolicy,
		Party: Runtime,
		Must:  "Every declared action MUST carry the risk read, write or dangerous, and a runtime MUST ask the host for confirmation exactly once before running an action whose risk is dangerous or that declares confirm, and MUST NOT ask for any other action.",
		Seed:  "000_3e7eae751e5cbc0b.txt › \"Apply the confirmation policy\"",
		Needs: "a page that declares an available action that needs confirmation",
	},
	{
		ID:    "policy.denied",
		Phase: receipt.PhasePolicy,
		Party: Runtime,
		Must:  "A call whose confirmation is denied MUST fail with PERMISSION_DENIED at phase policy and MUST leave the page model unchanged.",
		Seed:  "000_3e7eae751e5cbc0b.txt › \"Apply the confirmation policy\"",
		Needs: "a page that declares an available action that needs confirmation",
	},
	{
		ID:    "policy.no-channel",
		Phase: receipt.PhasePolicy,
		Party: Runtime,
		Must:  "When no confirmation channel is configured, a call that needs confirmation MUST be denied with PERMISSION_DENIED at phase policy.",
		Seed:  "000_3e7eae751e5cbc0b.txt › \"Apply the confirmation policy\"",
		Needs: "a page that declares an available action that needs confirmation",
	},
	{
		ID:    "policy.ticket",
		Phase: receipt.PhasePolicy,
		Party: Runtime,
		Must:  "A runtime MUST treat a confirmation as approved only when the host's answer has approved true, and MUST list every confirmation it asked, or needed and could not ask for want of a channel, in the receipt's confirmations with the host's ticket copied unchanged.",
		Seed:  "000_3e7eae751e5cbc0b.txt › \"Apply the confirmation policy\"",
		Needs: "a page that declares an available action that needs confirmation",
	},
	{
		ID:    "policy.flow-highest-risk",
		Phase: receipt.PhasePolicy,
		Party: Runtime,
		Must:  "A flow MUST ask for confirmation once, before its first step, at the highest risk that can be resolved from its declared steps.",
		Seed:  "000_3e7eae751e5cbc0b.txt › \"Compound actions\"",
		Needs: "a page that declares a flow",
	},
	{
		ID:    "policy.flow-reask",
		Phase: receipt.PhasePolicy,
		Party: Runtime,
		Must:  "A flow step whose risk turns out higher than the risk the flow's confirmation covered MUST ask for confirmation again before it runs, and a denial there MUST stop the flow with STEP_FAILED.",
		Seed:  "000_3e7eae751e5cbc0b.txt › \"Compound actions\"",
		Needs: "a page whose flow has a step the snapshot cannot resolve before the flow runs and that turns out riskier than the flow's confirmation covered",
	},
	{
		ID:    "handoff.no-confirmation",
		Phase: receipt.PhasePolicy,
		Party: Runtime,
		Must:  "A runtime MUST NOT ask for confirmation of a hand-off, whether the hand-off is an action or a step of a flow.",
		Seed:  "000_3e7eae751e5cbc0b.txt › \"Apply the confirmation policy\"",
		Needs: "a page that declares a hand-off action",
	},
	{
		ID:    "reveal.after-confirmation",
		Phase: receipt.PhaseTargetResolution,
		Party: Runtime,
		Must:  "A runtime MUST NOT reveal or scroll to a target before the call's confirmation is approved, so that a denied call leaves the scroll position as it was.",
		Seed:  "000_3e7eae751e5cbc0b.txt › \"Make the target usable\"",
		Needs: "a page that declares an element action that needs confirmation and whose target is outside the viewport",
	},
	{
		ID:    "reveal.second-check",
		Phase: receipt.PhaseTargetResolution,
		Party: Runtime,
		Must:  "After revealing a target, a runtime MUST let the page settle and check visibility again on the target as it is then, and MUST fail with ACTION_UNAVAILABLE when it is still not visible.",
		Seed:  "000_3e7eae751e5cbc0b.txt › \"Make the target usable\"",
		Needs: "a manifest naming, under reveals, an element action whose reveal shows its target (perhaps re-rendered) and one whose reveal leaves it hidden; on any page, an element action whose call reaches a control that is there again after it, called twice on one page (the second call must check the target as it is then, not one an earlier call found)",
	},
	{
		ID:    "unavailable.reason",
		Phase: receipt.PhaseTargetResolution,
		Party: Runtime,
		Must:  "A declared action whose business prerequisite is unmet, whose control is disabled or whose target stays hidden MUST fail with ACTION_UNAVAILABLE at phase target_resolution with result.error.reason saying why, and a snapshot MUST report an action whose business prerequisite is unmet with available false and the same reason.",
		Seed:  "000_3e7eae751e5cbc0b.txt › \"Make the target usable\"",
		Needs: "a page that declares an action the snapshot reports unavailable",
	},
	{
		ID:    "exec.kinds",
		Phase: receipt.PhaseDispatch,
		Party: Runtime,
		Must:  "Every declared action MUST have exactly one kind — element, function, flow or handoff — and a call of any kind MUST pass the gates of stages 1 to 5 before stage 6.",
		Seed:  "000_3e7eae751e5cbc0b.txt › \"Execution modes\"",
	},
	{
		ID:    "exec.handler-throws",
		Phase: receipt.PhaseDispatch,
		Party: Runtime,
		Must:  "A handler that throws or rejects MUST produce EXECUTION_FAILED at phase dispatch with started yes, and the receipt MUST still carry changed for what the page shows afterwards.",
		Seed:  "000_3e7eae751e5cbc0b.txt › \"Failure position and retry safety\"",
		Needs: "a manifest naming an action whose handler throws (the Todo example: ?fault=delete-throws)",
	},
	{
		ID:    "data.function-only",
		Phase: receipt.PhaseDispatch,
		Party: Runtime,
		Must:  "Only the receipt of a function action MAY carry result.data; a runtime MUST NOT put data in the receipt of an element, flow or hand-off action.",
		Seed:  "000_3e7eae751e5cbc0b.txt › \"Execution modes\"",
		Needs: "a page whose action of a kind other than function can be called successfully",
	},
	{
		ID:    "data.bounded",
		Phase: receipt.PhaseDispatch,
		Party: Runtime,
		Must:  "result.data MUST hold at most 20 entries per array or object plus one marker, strings of at most 500 characters plus a marker, and at most 4 levels of nesting, and every marker MUST say how much was left out.",
		Seed:  "000_3e7eae751e5cbc0b.txt › \"Execution modes\"",
		Needs: "a function action that returns a large value, or one that returns a list of records and a write that adds one",
	},
	{
		ID:    "fidelity.assigned",
		Phase: receipt.PhaseDispatch,
		Party: Runtime,
		Must:  "A runtime MUST assign each element action a fidelity when it registers it — high for a developer-supplied execution path, an explicit target or a declared native control, auto for one nested native target the runtime found, low for DOM simulation — or, when the target is not in the page then, when the target first resolves and before the action runs; it MUST show the fidelity in the snapshot once assigned and MUST NOT change it afterwards.",
		Seed:  "000_3e7eae751e5cbc0b.txt › \"Execution modes\"",
		Needs: "a page that declares element actions",
	},
	{
		ID:    "fidelity.reported",
		Phase: receipt.PhaseDispatch,
		Party: Runtime,
		Must:  "A successful receipt of an element action MUST carry result.fidelity exactly when the action's fidelity is not high, and the receipt of any other kind MUST NOT carry it; a successful receipt of fidelity high or auto MUST mean that the page's own handler for the control ran (only low comes with no guarantee that the application saw the input).",
		Seed:  "000_3e7eae751e5cbc0b.txt › \"Execution modes\"",
		Needs: "a page whose element action can be called successfully, and for the handler, a page that counts its handlers' runs from zero in globalThis.glassHandlerRuns (action id → runs)",
	},
	{
		ID:    "fidelity.low-warning",
		Phase: receipt.PhaseDispatch,
		Party: Runtime,
		Must:  "A successful receipt whose fidelity is low MUST carry a warning.",
		Seed:  "000_3e7eae751e5cbc0b.txt › \"Execution modes\"",
		Needs: "a page that declares an element action of fidelity low; a read one, which some call of the run leaves something to change and a second call in a row changes nothing, shows a warning missing in either state",
	},
	{
		ID:    "handoff.request",
		Phase: receipt.PhaseDispatch,
		Party: Runtime,
		Must:  "A hand-off action MUST ask the host through glassHost.handoff at stage 6, with timeoutMs options.handoffTimeoutMs when the host passes it, and MUST NOT simulate the user's input itself.",
		Seed:  "000_3e7eae751e5cbc0b.txt › \"Execution modes\"",
		Needs: "a page that declares a hand-off action",
	},
	{
		ID:    "handoff.outcome",
		Phase: receipt.PhaseDispatch,
		Party: Runtime,
		Must:  "A hand-off MUST succeed only when the host answers completed and its expectation, if it declares one, is observed, and MUST otherwise fail at phase dispatch with HANDOFF_CANCELLED for cancelled, HANDOFF_TIMEOUT for timeout, and HANDOFF_FAILED for failed, an answer of another status, an unverified outcome or a missing hand-off channel.",
		Seed:  "000_3e7eae751e5cbc0b.txt › \"Failure position and retry safety\"",
		Needs: "a page that declares a hand-off action, and for a success a manifest naming under handoffs the user's steps (user) of one answered completed",
	},
	{
		ID:    "flow.step-gates",
		Phase: receipt.PhaseDispatch,
		Party: Runtime,
		Must:  "Each step of a flow MUST pass resolution, argument validation and availability against the page as it is when the step runs.",
		Seed:  "000_3e7eae751e5cbc0b.txt › \"Compound actions\"",
		Needs: "a page that declares a flow",
	},
	{
		ID:    "flow.ledger",
		Phase: receipt.PhaseDispatch,
		Party: Runtime,
		Must:  "The receipt of a flow MUST carry result.steps, one entry per step in order with its index, its action id and its outcome ok, failed, pending (not reached) or skipped (in a resumed flow: succeeded in the earlier call, not run again), and the error of the step that failed.",
		Seed:  "000_3e7eae751e5cbc0b.txt › \"Compound actions\"",
		Needs: "a page that declares a flow",
	},
	{
		ID:    "flow.one-diff",
		Phase: receipt.PhaseVerification,
		Party: Runtime,
		Must:  "A flow MUST report one changed for the whole flow, from before its first step to after its last.",
		Seed:  "000_3e7eae751e5cbc0b.txt › \"Compound actions\"",
		Needs: "a page that declares a flow",
	},
	{
		ID:    "flow.step-failed",
		Phase: receipt.PhaseDispatch,
		Party: Runtime,
		Must:  "When a step of a flow fails, the call MUST fail with STEP_FAILED at phase dispatch with result.error.step the failed step's index, and the steps after it MUST NOT run.",
		Seed:  "000_3e7eae751e5cbc0b.txt › \"Compound actions\"",
		Needs: "a manifest naming a flow and the arguments that make one of its steps fail",
	},
	{
		ID:    "flow.resume",
		Phase: receipt.PhaseDispatch,
		Party: Runtime,
		Must:  "A STEP_FAILED receipt of a flow that can continue MUST carry result.resume, and resume(handle, options) MUST continue from the failed step without running again any step whose outcome was ok.",
		Seed:  "000_3e7eae751e5cbc0b.txt › \"Compound actions\"",
		Needs: "a manifest naming a flow and the arguments that make one of its steps fail once (flowFailures with resume: true)",
	},
	{
		ID:    "flow.resume-unknown",
		Phase: receipt.PhaseTargetResolution,
		Party: Runtime,
		Must:  "resume of a handle the runtime did not issue, or has already resumed, MUST fail with ACTION_NOT_FOUND at phase target_resolution.",
		Seed:  "000_3e7eae751e5cbc0b.txt › \"Compound actions\"",
	},
	{
		ID:    "flow.step-only",
		Phase: receipt.PhaseTargetResolution,
		Party: Runtime,
		Must:  "An action declared step-only MUST be listed in the snapshot with stepOnly true, MUST NOT be registered as a WebMCP tool or listed in result.error.available, MUST fail a direct call with ACTION_UNAVAILABLE at phase target_resolution with a reason, and MUST pass every gate when a flow runs it.",
		Seed:  "000_3e7eae751e5cbc0b.txt › \"Compound actions\"",
		Needs: "a page that declares a flow with a step-only step",
	},
	{
		ID:    "verify.expectation",
		Phase: receipt.PhaseVerification,
		Party: Runtime,
		Must:  "A successful call of an action that declares an expectation MUST report the expectation's description in expect.",
		Seed:  "000_3e7eae751e5cbc0b.txt › \"Expectation\"",
		Needs: "a page that declares an available action with an expectation (a hand-off's check counts when the manifest names the user's steps under handoffs)",
	},
	{
		ID:    "verify.expect-only-when-verified",
		Phase: receipt.PhaseVerification,
		Party: Runtime,
		Must:  "A receipt MUST NOT carry result.expect unless the action declares an expectation — which its snapshot descriptor shows with expect — and the runtime observed it true during this call.",
		Seed:  "000_3e7eae751e5cbc0b.txt › \"Expectation\"",
		Needs: "a page whose action can be called successfully",
	},
	{
		ID:    "verify.expectation-failed",
		Phase: receipt.PhaseVerification,
		Party: Runtime,
		Must:  "When a declared expectation is not observed true before its timeout, the call MUST fail with EXPECTATION_FAILED at phase verification with started yes and recoveryStrategy report, and MUST still carry changed.",
		Seed:  "000_3e7eae751e5cbc0b.txt › \"Expectation\"",
		Needs: "a manifest naming an action whose expectation does not come true (the Todo example: ?fault=delete-stale)",
	},
	{
		ID:    "verify.default-timeout",
		Phase: receipt.PhaseVerification,
		Party: Runtime,
		Must:  "A runtime MUST poll an expectation until it comes true or its timeout passes — options.expectTimeoutMs when the host passes it, else the timeout the expectation declares, else 2 seconds — before it reports EXPECTATION_FAILED.",
		Seed:  "000_3e7eae751e5cbc0b.txt › \"Expectation\"",
		Needs: "a manifest naming an action whose expectation does not come true (expectationFailures)",
	},
	{
		ID:    "verify.expectation-timing",
		Phase: receipt.PhaseVerification,
		Party: Runtime,
		Must:  "A runtime MUST build an action's expectation from the call's arguments after stage 5 has passed and before stage 6 begins, for every kind of action, and a flow's expectation before its first step runs.",
		Seed:  "000_3e7eae751e5cbc0b.txt › \"Expectation\"",
		Needs: "a manifest naming, under capturingExpectations, actions whose expectation captures the page's state when it is built",
	},
	{
		ID:    "verify.settle",
		Phase: receipt.PhaseVerification,
		Party: Runtime,
		Must:  "A runtime MUST take the after snapshot only once the page has settled — the asynchronous work the handler started has finished and the DOM has stopped changing — or its bounded settle wait has run out.",
		Seed:  "000_3e7eae751e5cbc0b.txt › \"Snapshot comparison\"",
		Needs: "a page whose write can be called successfully; one whose handler updates the page model after asynchronous work tells most",
	},
	{
		ID:    "snapshot.bounded",
		Phase: receipt.PhaseVerification,
		Party: Runtime,
		Must:  "A snapshot MUST list at most 500 records and 500 actions, or options.limit of each when the host passes it, with records.total the full count and each omitted the number left out.",
		Seed:  "000_3e7eae751e5cbc0b.txt › \"Execution modes\"",
		Needs: "a page with at least two records (the check passes options.limit)",
	},
	{
		ID:    "changed.window",
		Phase: receipt.PhaseVerification,
		Party: Runtime,
		Must:  "A runtime MUST take the before snapshot after stages 1 to 5 have passed, immediately before stage 6, and the after snapshot after the expectation check and settling, and MUST report the revision of that before snapshot as revision.before.",
		Seed:  "000_3e7eae751e5cbc0b.txt › \"Snapshot comparison\"",
		Needs: "a page whose element action without a run function starts executing with a DOM event (the manifest's reveals can name one whose reveal renders records)",
	},
	{
		ID:    "changed.parts",
		Phase: receipt.PhaseVerification,
		Party: Runtime,
		Must:  "changed MUST compare exactly what a snapshot exposes — page identity, records and their fields, actions, state views and feedback — MUST carry a part only when something in it changed, and MUST set observed true exactly when a part is present.",
		Seed:  "000_3e7eae751e5cbc0b.txt › \"Snapshot comparison\"",
		Needs: "a page whose action can be called successfully",
	},
	{
		ID:    "changed.records",
		Phase: receipt.PhaseVerification,
		Party: Runtime,
		Must:  "changed.records MUST list the ids of the records added and removed, the records updated with the names of the fields that changed, whether the records present before and after changed order, and the total before and after.",
		Seed:  "000_3e7eae751e5cbc0b.txt › \"Snapshot comparison\"",
		Needs: "a page on which a successful call changes records",
	},
	{
		ID:    "changed.bounded",
		Phase: receipt.PhaseVerification,
		Party: Runtime,
		Must:  "Every list in changed MUST hold at most 20 entries, and the entries left out MUST be counted in the matching omitted field, so that listed plus omitted is the true count.",
		Seed:  "000_3e7eae751e5cbc0b.txt › \"Snapshot comparison\"",
		Needs: "a fixture page whose action changes more than 20 records",
	},
	{
		ID:    "changed.write-warning",
		Phase: receipt.PhaseVerification,
		Party: Runtime,
		Must:  "A successful call of a write or dangerous action whose changed.observed is false MUST carry a warning and MUST still report ok true.",
		Seed:  "000_3e7eae751e5cbc0b.txt › \"Snapshot comparison\"",
		Needs: "a manifest naming, under unchangedWrites, a write action that succeeds without changing the page model",
	},
	{
		ID:    "changed.read-no-warning",
		Phase: receipt.PhaseVerification,
		Party: Runtime,
		Must:  "A successful call of a read action MUST NOT carry a warning unless its fidelity is low.",
		Seed:  "000_3e7eae751e5cbc0b.txt › \"Snapshot comparison\"",
		Needs: "a page that declares an available read action",
	},
	{
		ID:    "envelope.execution-id",
		Phase: receipt.PhaseNone,
		Party: Runtime,
		Must:  "Every receipt MUST carry an executionId, distinct for every call on a page: options.executionId when the host passed one matching ^[A-Za-z0-9_.:-]{1,64}$, else one of that form the runtime assigns.",
		Seed:  "004_e93c79cfe25aa88f.txt › \"Contract shape\"",
	},
	{
		ID:    "envelope.revision",
		Phase: receipt.PhaseNone,
		Party: Runtime,
		Must:  "Every receipt from a runtime MUST carry revision.before and revision.after, and a page's revision MUST never decrease and MUST grow whenever the page model differs from the one last observed, so that after exceeds before when changed.observed is true.",
		Seed:  "004_e93c79cfe25aa88f.txt › \"Action contract\"",
	},
	{
		ID:    "envelope.stale-revision",
		Phase: receipt.PhasePreflight,
		Party: Runtime,
		Must:  "A call whose options.expectedRevision is not the page's current revision MUST fail with STALE_REVISION at phase preflight before stage 1 runs, with result.error.expectedRevision and currentRevision, recoveryStrategy report and recovery observe.",
		Seed:  "004_e93c79cfe25aa88f.txt › \"Contract shape\"",
	},
	{
		ID:    "envelope.phase",
		Phase: receipt.PhaseNone,
		Party: Runtime,
		Must:  "A failed receipt MUST carry phase, the phase the code table gives its code, and a successful receipt MUST NOT carry phase.",
		Seed:  "004_e93c79cfe25aa88f.txt › \"Failure phases\"",
	},
	{
		ID:    "envelope.recovery-strategy",
		Phase: receipt.PhaseNone,
		Party: Runtime,
		Must:  "A failed receipt MUST carry recoveryStrategy report for STALE_REVISION and EXPECTATION_FAILED and none for every other code — except retry_safe in place of none for a failure whose started is no, of an action the page declares idempotent, on a call whose options.retry is \"safe\" — and a recovery suggestion only beside report, because retry_safe is reserved for a retry policy the caller selects.",
		Seed:  "004_e93c79cfe25aa88f.txt › \"Recovery policy\"",
	},
	{
		ID:    "envelope.no-auto-retry",
		Phase: receipt.PhaseDispatch,
		Party: Runtime,
		Must:  "A runtime MUST NOT retry a call or re-target it on its own: one call MUST run its handler at most once.",
		Seed:  "004_e93c79cfe25aa88f.txt › \"Recovery policy\"",
		Needs: "a page that counts its handlers' runs in globalThis.glassHandlerRuns (action id → runs), and the manifest's failure scenarios",
	},
	{
		ID:    "failure.code-table",
		Phase: receipt.PhaseNone,
		Party: Runtime,
		Must:  "A failed receipt MUST carry a result.error.code from the code table and result.error.started as the table gives it for that code.",
		Seed:  "000_3e7eae751e5cbc0b.txt › \"Failure position and retry safety\"; 004_e93c79cfe25aa88f.txt › \"Failure phases\"",
	},
	{
		ID:    "failure.bounded",
		Phase: receipt.PhaseNone,
		Party: Runtime,
		Must:  "A failure's message, reason and path MUST each be at most 1000 characters and MUST NOT contain raw page contents, argument values the caller typed, values restored from options.secrets, JavaScript source or browser protocol payloads.",
		Seed:  "004_e93c79cfe25aa88f.txt › \"Failure phases\"",
		Needs: "a page that declares at least one action",
	},
	{
		ID:    "sensitive.never-echoed",
		Phase: receipt.PhaseNone,
		Party: Runtime,
		Must:  "A value restored from options.secrets MUST NOT appear in any receipt, snapshot, confirmation request or hand-off request, in any spelling — as it is, escaped in JSON, percent-encoded, as HTML character references or in another Unicode normalisation form; where it would appear, the runtime MUST write [sensitive].",
		Seed:  "004_e93c79cfe25aa88f.txt › \"Failure phases\"",
		Needs: "a page that declares an action with a string parameter",
	},
	{
		ID:    "protocol.global",
		Phase: receipt.PhaseTransport,
		Party: Runtime,
		Must:  "A page runtime MUST install one global, globalThis.glassRuntime, a frozen object whose protocol is glass.page/v1 and whose ready, snapshot, execute and resume are functions with the signatures of this contract.",
		Seed:  "004_e93c79cfe25aa88f.txt › \"Action contract\"",
	},
	{
		ID:    "protocol.ready",
		Phase: receipt.PhaseTransport,
		Party: Runtime,
		Must:  "ready() MUST return a promise that resolves once the page has declared its model, after which snapshot lists the declared actions.",
		Seed:  "000_3e7eae751e5cbc0b.txt › \"Execution lifecycle\"",
	},
	{
		ID:    "protocol.snapshot",
		Phase: receipt.PhaseTransport,
		Party: Runtime,
		Must:  "snapshot(options) MUST return, or resolve to, a snapshot or its JSON text that validates against schema/snapshot.schema.json and describes the page as it is now.",
		Seed:  "000_3e7eae751e5cbc0b.txt › \"Snapshot comparison\"",
	},
	{
		ID:    "protocol.receipt",
		Phase: receipt.PhaseTransport,
		Party: Runtime,
		Must:  "execute and resume MUST resolve to a receipt, as an object or its JSON text, in the canonical form, that validates against schema/receipt.schema.json and carries protocol glass.page/v1.",
		Seed:  "000_3e7eae751e5cbc0b.txt › \"What a receipt has to answer\"",
	},
	{
		ID:    "protocol.no-throw",
		Phase: receipt.PhaseTransport,
		Party: Runtime,
		Must:  "execute and resume MUST NOT throw or reject for any failure this contract names; every such failure MUST come back as a receipt.",
		Seed:  "000_3e7eae751e5cbc0b.txt › \"Failure position and retry safety\"",
	},
	{
		ID:    "host.channels-first",
		Phase: receipt.PhasePolicy,
		Party: Host,
		Must:  "A host MUST install globalThis.glassHost, frozen, non-writable and non-configurable, before any page script runs, and MUST leave confirm out of it when it has no confirmation channel.",
		Seed:  "000_3e7eae751e5cbc0b.txt › \"Apply the confirmation policy\"",
		Needs: "nothing from the page: Glass's fault fixture that inspects glassHost from its first script",
	},
	{
		ID:    "host.ticket-binding",
		Phase: receipt.PhasePolicy,
		Party: Host,
		Must:  "A host MUST approve a confirmation request only when its executionId names a call the host has in flight and its action is that call's action or one of its steps, answering with a fresh ticket, and MUST deny every other request.",
		Seed:  "000_3e7eae751e5cbc0b.txt › \"Apply the confirmation policy\"",
		Needs: "nothing from the page: Glass's fault fixture that calls glassHost.confirm on its own (bridge)",
	},
	{
		ID:    "host.throw-is-execution-failed",
		Phase: receipt.PhaseDispatch,
		Party: Host,
		Must:  "A host MUST turn an execute or resume that throws or rejects into a receipt with EXECUTION_FAILED at phase dispatch, never into a hang or a crash of the host.",
		Seed:  "000_3e7eae751e5cbc0b.txt › \"Failure position and retry safety\"",
		Needs: "nothing from the page: Glass's fault fixtures whose execute throws and rejects (bridge)",
	},
	{
		ID:    "host.transport",
		Phase: receipt.PhaseTransport,
		Party: Host,
		Must:  "A host MUST report a failure to reach the runtime — no runtime, another protocol version, no answer within its call timeout, an answer that is not a valid receipt — as a receipt at phase transport with started unknown, never as a hang or a crash of the host.",
		Seed:  "004_e93c79cfe25aa88f.txt › \"Failure phases\"",
		Needs: "nothing from the page: Glass's fault fixtures with no runtime, another protocol version, a runtime that never answers and ones that answer something other than a receipt (bridge)",
	},
	{
		ID:    "host.browser-effect",
		Phase: receipt.PhaseBrowserEffect,
		Party: Host,
		Must:  "A host MUST report a page that crashes, closes or navigates away while a call is executing as PAGE_CRASHED, PAGE_CLOSED or PAGE_NAVIGATED at phase browser_effect with started yes.",
		Seed:  "004_e93c79cfe25aa88f.txt › \"Failure phases\"",
		Needs: "nothing from the page: Glass's fault fixtures that crash, close and navigate away mid-call (bridge)",
	},
	{
		ID:    "webmcp.tool-names",
		Phase: receipt.PhaseTransport,
		Party: Runtime,
		Must:  "When document.modelContext exists, a runtime MUST register each declared action whose id matches ^[A-Za-z0-9_.-]+$, step-only actions excepted, as a WebMCP tool of that name, with the action's description and params as its input schema and readOnlyHint true in its annotations exactly when the action is a read, MUST NOT give readOnlyHint true to a folded tool one of whose row actions is not a read (an action's risk is the one §2.4 resolves and the snapshot reports; a flow that declares read and has a step that resolves only later is a read), and MUST keep the registered tools in step with the declared actions.",
		Seed:  "004_e93c79cfe25aa88f.txt › \"Action contract\"",
		Needs: "a browser with WebMCP enabled",
	},
	{
		ID:    "webmcp.folded-rows",
		Phase: receipt.PhaseTransport,
		Party: Runtime,
		Must:  "A runtime MUST register the per-row actions name@record as one WebMCP tool name whose input schema requires a string record, and a call of that tool with record r MUST run the declared action name@r with the call's other members, record not among them, as its arguments, and one without a string record MUST fail with INVALID_PARAMS at phase preflight with path /record.",
		Seed:  "000_3e7eae751e5cbc0b.txt › \"Resolve the action\"",
		Needs: "a browser with WebMCP enabled and a page that declares per-row actions; the arguments are judged when one of them takes arguments (params that require a member or forbid undeclared ones)",
	},
	{
		ID:    "webmcp.result",
		Phase: receipt.PhaseTransport,
		Party: Runtime,
		Must:  "A WebMCP tool call MUST return the receipt as structuredContent and as the JSON text of a content item of type text.",
		Seed:  "004_e93c79cfe25aa88f.txt › \"Action contract\"",
		Needs: "a browser with WebMCP enabled",
	},
	{
		ID:    "webmcp.agrees",
		Phase: receipt.PhaseTransport,
		Party: Runtime,
		Must:  "The same call over WebMCP, with its options in the reserved input member $glass, and over the bridge MUST give the same receipt, apart from executionId, tickets, resume handles and absolute revisions.",
		Seed:  "004_e93c79cfe25aa88f.txt › \"Action contract\"",
		Needs: "a browser with WebMCP enabled",
	},
})

// withDefaults fills what an entry leaves out: every rule is checked by the
// spec named by its id and was introduced by the first protocol version;
// an entry says so only when it differs.
func withDefaults(rules []Rule) []Rule {
	for i := range rules {
		r := &rules[i]
		if r.Checks == nil {
			r.Checks = []string{r.ID}
		}
		if r.Since == "" {
			r.Since = receipt.Protocol
		}
	}
	return rules
}

// PhaseName is the rule's phase as CONTRACT.md writes it: the phase's wire
// name, or "any" for a rule about every receipt.
func (r Rule) PhaseName() string {
	if r.Phase == receipt.PhaseNone {
		return "any"
	}
	return string(r.Phase)
}

// ByID returns the rule with the given id.
func ByID(id string) (Rule, bool) {
	for _, r := range Rules {
		if r.ID == id {
			return r, true
		}
	}
	return Rule{}, false
}
