package matchers

import (
	"fmt"

	"github.com/onsi/gomega/format"
	"github.com/onsi/gomega/types"

	"github.com/glassworks/glass/receipt"
)

// enumArg turns a matcher argument into a typed enum value, or keeps a
// Gomega matcher, which is then applied to the typed value. An untyped
// string is accepted so that FailAtPhase("policy") reads as well as
// FailAtPhase(receipt.PhasePolicy); a value outside the contract is an
// error, because a typo would otherwise make a matcher that never holds.
func enumArg[T ~string](v any, what string, valid func(T) bool) (arg, error) {
	switch x := v.(type) {
	case types.GomegaMatcher:
		return arg{m: x}, nil
	case T:
		if !valid(x) {
			return arg{}, fmt.Errorf("%q is not a %s of the contract", string(x), what)
		}
		return arg{v: x}, nil
	case string:
		return enumArg[T](T(x), what, valid)
	}
	var zero T
	return arg{}, fmt.Errorf("want a %T, a string or a Gomega matcher, got %T", zero, v)
}

// failedWith says how r failed, for the "but" part of a message.
func failedWith(r *receipt.Receipt) string {
	if r.Result.OK {
		return "it succeeded"
	}
	s := fmt.Sprintf("it failed with %s at phase %s", r.Code(), r.FailurePhase())
	if e := r.Result.Error; e != nil && e.Message != "" {
		s += ": " + receipt.Quote(e.Message)
	}
	return s
}

// BeOK succeeds if the call returned without an error (result.ok), the
// first evidence of the seed's table. It says nothing about the
// expectation; SatisfyExpectation does.
//
//	Expect(page.Do("export", nil)).To(BeOK())
func BeOK() types.GomegaMatcher { return &beOK{} }

type beOK struct {
	final
	got *receipt.Receipt
}

func (m *beOK) Match(actual any) (bool, error) {
	s, err := load("BeOK", actual)
	if err != nil {
		return false, err
	}
	m.got = s.r
	return s.r.Result.OK, nil
}

func (m *beOK) FailureMessage(any) string {
	return format.Message(m.got, "to succeed, but "+failedWith(m.got))
}

func (m *beOK) NegatedFailureMessage(any) string {
	return format.Message(m.got, "to fail, but it succeeded")
}

// FailAtPhase succeeds if the call failed at the given phase of the action
// contract: a receipt.Phase, its name, or a Gomega matcher applied to the
// receipt.Phase.
//
//	Expect(page.Do("remove@t9", nil, glasstest.Deny())).To(FailAtPhase(receipt.PhasePolicy))
func FailAtPhase(phase any) types.GomegaMatcher {
	a, err := enumArg[receipt.Phase](phase, "phase", receipt.Phase.Valid)
	return &property{name: "FailAtPhase", want: a, err: err,
		get:      func(r *receipt.Receipt) (any, bool) { return r.FailurePhase(), !r.Result.OK },
		positive: "to fail at phase", negative: "not to fail at phase", has: failedWith}
}

// property is a matcher of one enum-valued fact of a receipt (its failure
// phase, code, recovery strategy, fidelity), compared with a value or
// given to a Gomega matcher.
type property struct {
	final
	name string
	want arg
	err  error
	// get returns the fact, or false where it does not apply: a success
	// has no failure phase.
	get                func(r *receipt.Receipt) (any, bool)
	positive, negative string
	// has says what the receipt has instead, for the "but" of a message.
	has func(r *receipt.Receipt) string
	got *receipt.Receipt
}

func (m *property) Match(actual any) (bool, error) {
	if m.err != nil {
		return false, fmt.Errorf("%s matcher: %w", m.name, m.err)
	}
	s, err := load(m.name, actual)
	if err != nil {
		return false, err
	}
	m.got = s.r
	v, applies := m.get(s.r)
	if !applies {
		return false, nil
	}
	ok, err := m.want.match(v)
	if err != nil {
		return false, fmt.Errorf("%s matcher: %w", m.name, err)
	}
	return ok, nil
}

func (m *property) FailureMessage(any) string {
	return format.Message(m.got, m.positive+" "+m.want.String()+", but "+m.has(m.got))
}

func (m *property) NegatedFailureMessage(any) string {
	return format.Message(m.got, m.negative+" "+m.want.String()+", but "+m.has(m.got))
}

// FailWith succeeds if the call failed with the given error code: a
// receipt.Code, its name, or a Gomega matcher applied to the receipt.Code.
//
//	Expect(page.Do("remove@t9", nil, glasstest.Deny())).To(FailWith(receipt.CodePermissionDenied))
func FailWith(code any) types.GomegaMatcher {
	a, err := enumArg[receipt.Code](code, "code", receipt.Code.Known)
	return &property{name: "FailWith", want: a, err: err,
		get:      func(r *receipt.Receipt) (any, bool) { return r.Code(), !r.Result.OK },
		positive: "to fail with", negative: "not to fail with", has: failedWith}
}

// startedFact is the receipt's answer to "did the operation start?" and
// where the answer comes from: result.error.started when the runtime
// states it, else the contract's code table; a success started.
func startedFact(r *receipt.Receipt) (receipt.Started, string) {
	if r.Result.OK {
		return receipt.StartedYes, "it succeeded: the operation ran"
	}
	if e := r.Result.Error; e != nil && e.Started != "" {
		return e.Started, fmt.Sprintf("error.started is %s (%s at phase %s)", receipt.Quote(string(e.Started)), e.Code, r.FailurePhase())
	}
	c := r.Code()
	return c.Started(), fmt.Sprintf("error.started is absent and the code table says %q for %s", c.Started(), c)
}

// HaveNotStarted succeeds if the call failed before the business
// operation started (error.started "no", or the code table's answer when
// the receipt does not say): the failure position after which a retry
// cannot repeat a write. It fails for a success.
//
//	Expect(page.Do("remove@t9", nil, glasstest.Deny())).To(HaveNotStarted())
func HaveNotStarted() types.GomegaMatcher {
	return &haveStarted{name: "HaveNotStarted", want: receipt.StartedNo,
		positive: "to have failed before the operation started",
		negative: "not to have failed before the operation started"}
}

// HaveStarted succeeds if the business operation started (error.started
// "yes", or a success): its effect may have landed, so repeating the call
// may repeat the write.
//
//	Expect(page.Do("remove@t9", nil)).To(HaveStarted())
func HaveStarted() types.GomegaMatcher {
	return &haveStarted{name: "HaveStarted", want: receipt.StartedYes,
		positive: "to have started the operation",
		negative: "not to have started the operation"}
}

// HaveUnknownStart succeeds if the receipt cannot say whether the business
// operation started (error.started "unknown": a hand-off that did not
// finish, a call that timed out between harness and page).
//
//	Expect(page.Do("remove@t9", nil, glasstest.Timeout(time.Millisecond))).To(HaveUnknownStart())
func HaveUnknownStart() types.GomegaMatcher {
	return &haveStarted{name: "HaveUnknownStart", want: receipt.StartedUnknown,
		positive: "to leave unknown whether the operation started",
		negative: "to know whether the operation started"}
}

type haveStarted struct {
	final
	name               string
	want               receipt.Started
	positive, negative string
	got                *receipt.Receipt
	why                string
}

func (m *haveStarted) Match(actual any) (bool, error) {
	s, err := load(m.name, actual)
	if err != nil {
		return false, err
	}
	m.got = s.r
	started, why := startedFact(s.r)
	m.why = why
	return started == m.want, nil
}

func (m *haveStarted) FailureMessage(any) string {
	return format.Message(m.got, m.positive+", but "+m.why)
}

func (m *haveStarted) NegatedFailureMessage(any) string {
	return format.Message(m.got, m.negative+", but "+m.why)
}

func validStrategy(s receipt.RecoveryStrategy) bool {
	switch s {
	case receipt.RecoveryNone, receipt.RecoveryReport, receipt.RecoveryRetrySafe:
		return true
	}
	return false
}

// HaveRecoveryStrategy succeeds if the receipt's envelope names the given
// recovery strategy: a receipt.RecoveryStrategy ("none", "report",
// "retry_safe"), its name, or a Gomega matcher applied to it.
//
//	Expect(r).To(HaveRecoveryStrategy(receipt.RecoveryReport))
func HaveRecoveryStrategy(strategy any) types.GomegaMatcher {
	a, err := enumArg[receipt.RecoveryStrategy](strategy, "recovery strategy", validStrategy)
	return &property{name: "HaveRecoveryStrategy", want: a, err: err,
		get:      func(r *receipt.Receipt) (any, bool) { return r.RecoveryStrategy, true },
		positive: "to have recovery strategy", negative: "not to have recovery strategy",
		has: func(r *receipt.Receipt) string {
			if r.RecoveryStrategy == "" {
				return "recoveryStrategy is absent"
			}
			return "it has " + string(r.RecoveryStrategy)
		}}
}

// OfferActions succeeds if the call failed with ACTION_NOT_FOUND and its
// list of available actions (error.available) includes every given id,
// each a string or a Gomega matcher. With no ids it asks only that the
// list is not empty.
//
//	Expect(page.Do("archive@t9", nil)).To(OfferActions("remove@t9"))
func OfferActions(ids ...any) types.GomegaMatcher { return &offerActions{ids: newArgs(ids)} }

type offerActions struct {
	final
	ids      []arg
	got      *receipt.Receipt
	failures []string
}

func (m *offerActions) expected() string {
	if len(m.ids) == 0 {
		return "to fail with ACTION_NOT_FOUND offering the available actions"
	}
	return "to fail with ACTION_NOT_FOUND offering " + argList(m.ids)
}

func (m *offerActions) Match(actual any) (bool, error) {
	s, err := load("OfferActions", actual)
	if err != nil {
		return false, err
	}
	m.got, m.failures = s.r, nil
	if s.r.Code() != receipt.CodeActionNotFound {
		m.failures = []string{failedWith(s.r)}
		return false, nil
	}
	avail := s.r.Result.Error.Available
	l := list{path: "error.available", n: len(avail), render: func() string { return quoted(avail) }}
	f, err := l.contains(m.ids, func(_ arg, i int) any { return avail[i] }, stringsOnly)
	if err != nil {
		return false, fmt.Errorf("OfferActions matcher: %w", err)
	}
	m.failures = f
	return len(f) == 0, nil
}

func (m *offerActions) FailureMessage(any) string {
	if len(m.failures) == 1 {
		return format.Message(m.got, m.expected()+", but "+m.failures[0])
	}
	return format.Message(m.got, m.expected()+", but:\n"+bullets(m.failures))
}

func (m *offerActions) NegatedFailureMessage(any) string {
	// Gomega asks for this message only after a match, but a caller may
	// ask for it after any Match; a receipt without an error has no list.
	var avail []string
	if m.got != nil && m.got.Result.Error != nil {
		avail = m.got.Result.Error.Available
	}
	return format.Message(m.got, "not "+m.expected()+", but it does: error.available is "+quoted(avail))
}
