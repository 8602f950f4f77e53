package matchers

import (
	"fmt"

	"github.com/onsi/gomega"
	"github.com/onsi/gomega/format"
	"github.com/onsi/gomega/types"

	"github.com/glassworks/glass/receipt"
)

// SatisfyExpectation succeeds if the call succeeded and the runtime
// verified the action's declared expectation. With an argument, the
// receipt's expect text must also match it (a string or a Gomega matcher).
//
//	Expect(r).To(SatisfyExpectation("The task is no longer in the list"))
func SatisfyExpectation(text ...any) types.GomegaMatcher {
	m := &satisfyExpectation{}
	if len(text) > 0 {
		m.text = asMatcher(text[0])
	}
	return m
}

type satisfyExpectation struct {
	text types.GomegaMatcher
	got  *receipt.Receipt
	why  string
}

func (m *satisfyExpectation) Match(actual any) (bool, error) {
	r, err := toReceipt("SatisfyExpectation", actual)
	if err != nil {
		return false, err
	}
	m.got = r
	switch {
	case !r.Result.OK:
		m.why = fmt.Sprintf("but it failed with %s at phase %s", r.Code(), r.FailurePhase())
		return false, nil
	case r.Result.Expect == "":
		m.why = "but it reports no verified expectation"
		return false, nil
	}
	if m.text != nil {
		ok, err := m.text.Match(r.Result.Expect)
		if err != nil {
			return false, fmt.Errorf("SatisfyExpectation matcher: %w", err)
		}
		if !ok {
			m.why = "but the expectation differs:\n" + m.text.FailureMessage(r.Result.Expect)
			return false, nil
		}
	}
	return true, nil
}

func (m *satisfyExpectation) FailureMessage(any) string {
	return format.Message(m.got, "to satisfy its expectation, "+m.why)
}

func (m *satisfyExpectation) NegatedFailureMessage(any) string {
	return format.Message(m.got, fmt.Sprintf("not to satisfy its expectation, but the runtime verified %q", m.got.Result.Expect))
}

// asMatcher turns a plain value into Equal(value) and keeps a matcher.
func asMatcher(v any) types.GomegaMatcher {
	if m, ok := v.(types.GomegaMatcher); ok {
		return m
	}
	return gomega.Equal(v)
}
