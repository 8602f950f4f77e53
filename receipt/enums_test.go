package receipt_test

import (
	"encoding"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/glassworks/glass/receipt"
)

// textEnum is what every enum of the model implements.
type textEnum interface {
	fmt.Stringer
	encoding.TextMarshaler
}

// roundTrip checks that every value of an enum survives MarshalText,
// UnmarshalText, json.Marshal and json.Unmarshal, that an unknown value is
// refused both ways with a message naming it, and that the zero value is
// written as "".
func roundTrip[T interface {
	~string
	textEnum
}, P interface {
	*T
	encoding.TextUnmarshaler
}](t *testing.T, what string, all []T) {
	t.Helper()
	if len(all) == 0 {
		t.Fatalf("%s: no values", what)
	}
	for _, v := range all {
		b, err := v.MarshalText()
		if err != nil || string(b) != string(v) {
			t.Errorf("%s %q: MarshalText = %q, %v", what, v, b, err)
		}
		var back T
		if err := P(&back).UnmarshalText(b); err != nil || back != v {
			t.Errorf("%s %q: UnmarshalText = %q, %v", what, v, back, err)
		}
		j, err := json.Marshal(v)
		if err != nil || string(j) != `"`+string(v)+`"` {
			t.Errorf("%s %q: json.Marshal = %s, %v", what, v, j, err)
		}
		var fromJSON T
		if err := json.Unmarshal(j, &fromJSON); err != nil || fromJSON != v {
			t.Errorf("%s %q: json.Unmarshal = %q, %v", what, v, fromJSON, err)
		}
		if v.String() != string(v) {
			t.Errorf("%s %q: String = %q", what, v, v.String())
		}
	}
	bad := T("no-such-" + what)
	want := fmt.Sprintf("receipt: unknown %s %q", what, string(bad))
	if _, err := bad.MarshalText(); err == nil || err.Error() != want {
		t.Errorf("%s: MarshalText(%q) error = %v, want %s", what, bad, err, want)
	}
	var into T
	if err := P(&into).UnmarshalText([]byte(bad)); err == nil || err.Error() != want {
		t.Errorf("%s: UnmarshalText(%q) error = %v, want %s", what, bad, err, want)
	}
	if err := json.Unmarshal([]byte(`"`+string(bad)+`"`), &into); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("%s: json.Unmarshal(%q) error = %v", what, bad, err)
	}
	var zero T
	if b, err := zero.MarshalText(); err != nil || len(b) != 0 {
		t.Errorf("%s: zero value MarshalText = %q, %v; want empty", what, b, err)
	}
}

func TestEnumsRoundTrip(t *testing.T) {
	roundTrip[receipt.Phase](t, "phase", receipt.Phases)
	roundTrip[receipt.Code](t, "code", receipt.Codes)
	roundTrip[receipt.Started](t, "started value", receipt.StartedValues)
	roundTrip[receipt.Fidelity](t, "fidelity", receipt.Fidelities)
	roundTrip[receipt.RecoveryStrategy](t, "recovery strategy", receipt.RecoveryStrategies)
	roundTrip[receipt.Risk](t, "risk", receipt.Risks)
	roundTrip[receipt.Kind](t, "kind", receipt.Kinds)
}

func TestEnumListsMatchTheirConstants(t *testing.T) {
	check := func(what string, got []string, want ...string) {
		t.Helper()
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("%s = %v, want %v", what, got, want)
		}
	}
	strs := func(vs ...fmt.Stringer) []string {
		out := make([]string, len(vs))
		for i, v := range vs {
			out[i] = v.String()
		}
		return out
	}
	check("Phases", strs(receipt.PhasePolicy, receipt.PhasePreflight, receipt.PhaseTargetResolution, receipt.PhaseDispatch, receipt.PhaseBrowserEffect, receipt.PhaseVerification, receipt.PhaseTransport),
		"policy", "preflight", "target_resolution", "dispatch", "browser_effect", "verification", "transport")
	check("Risks", strs(receipt.RiskRead, receipt.RiskWrite, receipt.RiskDangerous), "read", "write", "dangerous")
	check("Kinds", strs(receipt.KindElement, receipt.KindFunction, receipt.KindFlow, receipt.KindHandoff), "element", "function", "flow", "handoff")
	if receipt.PhaseNone.String() != "none" {
		t.Errorf("PhaseNone.String() = %q", receipt.PhaseNone.String())
	}
}

func TestRiskRank(t *testing.T) {
	if !(receipt.RiskRead.Rank() < receipt.RiskWrite.Rank() && receipt.RiskWrite.Rank() < receipt.RiskDangerous.Rank()) {
		t.Errorf("ranks: read %d, write %d, dangerous %d", receipt.RiskRead.Rank(), receipt.RiskWrite.Rank(), receipt.RiskDangerous.Rank())
	}
	if receipt.Risk("urgent").Rank() != -1 {
		t.Errorf("unknown risk rank = %d, want -1", receipt.Risk("urgent").Rank())
	}
}

func TestEveryCodeHasOnePhaseAndAStartedAnswer(t *testing.T) {
	for _, c := range receipt.Codes {
		if !c.Phase().Valid() || !c.Started().Valid() || !c.Known() {
			t.Errorf("%s: phase %q, started %q", c, c.Phase(), c.Started())
		}
	}
	if c := receipt.Code("NOPE"); c.Known() || c.Phase() != receipt.PhaseNone || c.Started() != receipt.StartedUnknown {
		t.Errorf("unknown code: known %v, phase %q, started %q", c.Known(), c.Phase(), c.Started())
	}
}

func TestParseFunctionsNameTheBadValue(t *testing.T) {
	if _, err := receipt.ParsePhase("auth"); err == nil || err.Error() != `receipt: unknown phase "auth"` {
		t.Errorf("ParsePhase error = %v", err)
	}
	if p, err := receipt.ParsePhase("policy"); err != nil || p != receipt.PhasePolicy {
		t.Errorf("ParsePhase(policy) = %q, %v", p, err)
	}
	if _, err := receipt.ParseCode("ACTION_MISSING"); err == nil || err.Error() != `receipt: unknown code "ACTION_MISSING"` {
		t.Errorf("ParseCode error = %v", err)
	}
}
