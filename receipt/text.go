package receipt

import (
	"encoding/json"
	"fmt"
	"slices"
)

// Every enum of the contract is a string type with the same four methods:
// String, Valid (or Known), a Parse function, and MarshalText/UnmarshalText
// so that JSON, YAML and flag packages round-trip it. Unmarshalling accepts
// only the values of the contract; marshalling writes the zero value as ""
// (which omitempty drops) and refuses a value the contract does not define,
// so a receipt built in Go cannot leave the process in a shape the decoder
// would reject.

func parseEnum[T ~string](what, s string, all []T) (T, error) {
	if !slices.Contains(all, T(s)) {
		var zero T
		return zero, fmt.Errorf("receipt: unknown %s %q", what, s)
	}
	return T(s), nil
}

func marshalEnum[T ~string](what string, v T, all []T) ([]byte, error) {
	if v == "" {
		return []byte{}, nil
	}
	if !slices.Contains(all, v) {
		return nil, fmt.Errorf("receipt: unknown %s %q", what, string(v))
	}
	return []byte(v), nil
}

// ---- Phase

func (p Phase) String() string {
	if p == PhaseNone {
		return "none"
	}
	return string(p)
}

// Valid reports whether p is one of Phases.
func (p Phase) Valid() bool { return slices.Contains(Phases, p) }

// ParsePhase returns the phase named s, or an error naming the bad value.
func ParsePhase(s string) (Phase, error) { return parseEnum("phase", s, Phases) }

// MarshalText writes the phase's wire name.
func (p Phase) MarshalText() ([]byte, error) { return marshalEnum("phase", p, Phases) }

// UnmarshalText accepts only the phases of the contract.
func (p *Phase) UnmarshalText(b []byte) error { return unmarshalInto(p, ParsePhase, b) }

// UnmarshalJSON accepts only the phases of the contract.
func (p *Phase) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("phase must be a string: %w", err)
	}
	return p.UnmarshalText([]byte(s))
}

// ---- Code

// ParseCode returns the code named s, or an error naming the bad value.
func ParseCode(s string) (Code, error) { return parseEnum("code", s, Codes) }

// Valid reports whether c is a code of the contract; it is Known's twin,
// named like the other enums' method.
func (c Code) Valid() bool { return c.Known() }

// MarshalText writes the code's wire name.
func (c Code) MarshalText() ([]byte, error) { return marshalEnum("code", c, Codes) }

// UnmarshalText accepts only the codes of the contract.
func (c *Code) UnmarshalText(b []byte) error { return unmarshalInto(c, ParseCode, b) }

// ---- Started

// StartedValues lists the answers a failure gives to "did it start?".
var StartedValues = []Started{StartedNo, StartedYes, StartedUnknown}

func (s Started) String() string { return string(s) }

// Valid reports whether s is one of StartedValues.
func (s Started) Valid() bool { return slices.Contains(StartedValues, s) }

// ParseStarted returns the answer named s, or an error naming the bad value.
func ParseStarted(s string) (Started, error) { return parseEnum("started value", s, StartedValues) }

// MarshalText writes the answer's wire name.
func (s Started) MarshalText() ([]byte, error) {
	return marshalEnum("started value", s, StartedValues)
}

// UnmarshalText accepts only no, yes and unknown.
func (s *Started) UnmarshalText(b []byte) error { return unmarshalInto(s, ParseStarted, b) }

// ---- Fidelity

// Fidelities lists the fidelity levels, most confident first.
var Fidelities = []Fidelity{FidelityHigh, FidelityAuto, FidelityLow}

func (f Fidelity) String() string { return string(f) }

// Valid reports whether f is one of Fidelities.
func (f Fidelity) Valid() bool { return slices.Contains(Fidelities, f) }

// ParseFidelity returns the level named s, or an error naming the bad value.
func ParseFidelity(s string) (Fidelity, error) { return parseEnum("fidelity", s, Fidelities) }

// MarshalText writes the level's wire name.
func (f Fidelity) MarshalText() ([]byte, error) { return marshalEnum("fidelity", f, Fidelities) }

// UnmarshalText accepts only high, auto and low.
func (f *Fidelity) UnmarshalText(b []byte) error { return unmarshalInto(f, ParseFidelity, b) }

// ---- RecoveryStrategy

// RecoveryStrategies lists the strategies of seed 004.
var RecoveryStrategies = []RecoveryStrategy{RecoveryNone, RecoveryReport, RecoveryRetrySafe}

func (r RecoveryStrategy) String() string { return string(r) }

// Valid reports whether r is one of RecoveryStrategies.
func (r RecoveryStrategy) Valid() bool { return slices.Contains(RecoveryStrategies, r) }

// ParseRecoveryStrategy returns the strategy named s, or an error naming
// the bad value.
func ParseRecoveryStrategy(s string) (RecoveryStrategy, error) {
	return parseEnum("recovery strategy", s, RecoveryStrategies)
}

// MarshalText writes the strategy's wire name.
func (r RecoveryStrategy) MarshalText() ([]byte, error) {
	return marshalEnum("recovery strategy", r, RecoveryStrategies)
}

// UnmarshalText accepts only none, report and retry_safe.
func (r *RecoveryStrategy) UnmarshalText(b []byte) error {
	return unmarshalInto(r, ParseRecoveryStrategy, b)
}

// ---- Risk

// Risks lists the risk classes, weakest first.
var Risks = []Risk{RiskRead, RiskWrite, RiskDangerous}

func (r Risk) String() string { return string(r) }

// Valid reports whether r is one of Risks.
func (r Risk) Valid() bool { return slices.Contains(Risks, r) }

// Rank orders risk classes: read 0, write 1, dangerous 2, anything else -1.
// A flow is confirmed at the highest rank among its steps.
func (r Risk) Rank() int { return slices.Index(Risks, r) }

// ParseRisk returns the risk class named s, or an error naming the bad value.
func ParseRisk(s string) (Risk, error) { return parseEnum("risk", s, Risks) }

// MarshalText writes the risk class's wire name.
func (r Risk) MarshalText() ([]byte, error) { return marshalEnum("risk", r, Risks) }

// UnmarshalText accepts only read, write and dangerous.
func (r *Risk) UnmarshalText(b []byte) error { return unmarshalInto(r, ParseRisk, b) }

// ---- Kind

// Kinds lists the four execution modes.
var Kinds = []Kind{KindElement, KindFunction, KindFlow, KindHandoff}

func (k Kind) String() string { return string(k) }

// Valid reports whether k is one of Kinds.
func (k Kind) Valid() bool { return slices.Contains(Kinds, k) }

// ParseKind returns the execution mode named s, or an error naming the bad
// value.
func ParseKind(s string) (Kind, error) { return parseEnum("kind", s, Kinds) }

// MarshalText writes the mode's wire name.
func (k Kind) MarshalText() ([]byte, error) { return marshalEnum("kind", k, Kinds) }

// UnmarshalText accepts only element, function, flow and handoff.
func (k *Kind) UnmarshalText(b []byte) error { return unmarshalInto(k, ParseKind, b) }

// ---- step outcomes

// StepOutcomes lists the outcomes a step ledger entry can have.
var StepOutcomes = []string{StepOK, StepFailed, StepPending, StepSkipped}

func unmarshalInto[T any](dst *T, parse func(string) (T, error), b []byte) error {
	v, err := parse(string(b))
	if err != nil {
		return err
	}
	*dst = v
	return nil
}
