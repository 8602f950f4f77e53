// Package conformance decides, rule by rule, whether a page runtime honours
// the Glass contract (CONTRACT.md).
//
// The rule catalog is data: every rule has a stable id, the phase it
// belongs to, one MUST sentence and the seed passage it comes from. Run is
// the error-returning engine (the CLI uses it); Register adds one Ginkgo
// spec per rule to any suite.
package conformance

import "github.com/glassworks/glass/receipt"

// Rule is one normative rule of CONTRACT.md.
type Rule struct {
	ID    string        `json:"id"`
	Phase receipt.Phase `json:"phase"`
	Must  string        `json:"must"`
	Seed  string        `json:"seed"`
}

// Catalog lists every rule, in CONTRACT.md order.
var Catalog = []Rule{
	{
		ID:    "resolve.unknown-id",
		Phase: receipt.PhaseTargetResolution,
		Must:  "A call of an action id that is not declared in the current page model MUST fail with ACTION_NOT_FOUND at phase target_resolution, listing the actions available now.",
		Seed:  "000 · Before any side effect › Resolve the action",
	},
	{
		ID:    "args.malformed-json",
		Phase: receipt.PhasePreflight,
		Must:  "Arguments that are not valid JSON MUST fail with INVALID_ARGS at phase preflight.",
		Seed:  "000 · Before any side effect › Decode and validate arguments",
	},
	{
		ID:    "policy.denied",
		Phase: receipt.PhasePolicy,
		Must:  "A call whose confirmation is denied MUST fail with PERMISSION_DENIED at phase policy and MUST leave the page model unchanged.",
		Seed:  "000 · Before any side effect › Apply the confirmation policy",
	},
	{
		ID:    "policy.no-channel",
		Phase: receipt.PhasePolicy,
		Must:  "When no confirmation channel is configured, a call that needs confirmation MUST be denied with PERMISSION_DENIED at phase policy.",
		Seed:  "000 · Before any side effect › Apply the confirmation policy",
	},
	{
		ID:    "verify.expectation",
		Phase: receipt.PhaseVerification,
		Must:  "A successful call of an action that declares an expectation MUST report the expectation's description in expect.",
		Seed:  "000 · After execution: expectation and evidence › Expectation",
	},
}

// RuleByID returns the rule with the given id.
func RuleByID(id string) (Rule, bool) {
	for _, r := range Catalog {
		if r.ID == id {
			return r, true
		}
	}
	return Rule{}, false
}
