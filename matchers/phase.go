package matchers

import (
	"fmt"

	"github.com/onsi/gomega/format"
	"github.com/onsi/gomega/types"

	"github.com/glassworks/glass/receipt"
)

// FailAtPhase succeeds if the receipt is a failure at the given phase.
//
//	Expect(page.Do("remove@t9", nil, glasstest.Deny())).To(FailAtPhase(receipt.PhasePolicy))
func FailAtPhase(phase receipt.Phase) types.GomegaMatcher {
	return &failAtPhase{phase: phase}
}

type failAtPhase struct {
	phase receipt.Phase
	got   *receipt.Receipt
}

func (m *failAtPhase) Match(actual any) (bool, error) {
	if !m.phase.Valid() {
		return false, fmt.Errorf("FailAtPhase matcher: %q is not a phase of the contract", string(m.phase))
	}
	r, err := toReceipt("FailAtPhase", actual)
	if err != nil {
		return false, err
	}
	m.got = r
	return !r.Result.OK && r.FailurePhase() == m.phase, nil
}

func (m *failAtPhase) FailureMessage(any) string {
	if m.got.Result.OK {
		return format.Message(m.got, fmt.Sprintf("to fail at phase %s, but it succeeded", m.phase))
	}
	return format.Message(m.got, fmt.Sprintf("to fail at phase %s, but it failed with %s at phase %s", m.phase, m.got.Code(), m.got.FailurePhase()))
}

func (m *failAtPhase) NegatedFailureMessage(any) string {
	return format.Message(m.got, fmt.Sprintf("not to fail at phase %s", m.phase))
}
