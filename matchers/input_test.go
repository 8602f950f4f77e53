package matchers_test

import (
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/types"

	. "github.com/glassworks/glass/matchers"
	"github.com/glassworks/glass/receipt"
)

// call is a Receipter, like a handle a harness could return.
type call struct{ r *receipt.Receipt }

func (c call) Receipt() *receipt.Receipt { return c.r }

// every matcher of the package, each with a fixture it holds for.
func everyMatcher() []struct {
	name    string
	fixture string
	matcher func() types.GomegaMatcher
} {
	return []struct {
		name    string
		fixture string
		matcher func() types.GomegaMatcher
	}{
		{"BeOK", "remove-t9-approved", func() types.GomegaMatcher { return BeOK() }},
		{"SatisfyExpectation", "remove-t9-approved", func() types.GomegaMatcher { return SatisfyExpectation() }},
		{"HaveChanged", "remove-t9-approved", func() types.GomegaMatcher { return HaveChanged(Records(Removed("t9"))) }},
		{"FailAtPhase", "denied", func() types.GomegaMatcher { return FailAtPhase(receipt.PhasePolicy) }},
		{"FailWith", "denied", func() types.GomegaMatcher { return FailWith(receipt.CodePermissionDenied) }},
		{"HaveNotStarted", "denied", func() types.GomegaMatcher { return HaveNotStarted() }},
		{"HaveStarted", "execution-failed", func() types.GomegaMatcher { return HaveStarted() }},
		{"HaveUnknownStart", "call-timeout", func() types.GomegaMatcher { return HaveUnknownStart() }},
		{"HaveRecoveryStrategy", "denied", func() types.GomegaMatcher { return HaveRecoveryStrategy(receipt.RecoveryNone) }},
		{"OfferActions", "not-found", func() types.GomegaMatcher { return OfferActions("remove@t8") }},
		{"HaveFidelity", "element-low-fidelity", func() types.GomegaMatcher { return HaveFidelity(receipt.FidelityLow) }},
		{"HaveWarning", "write-no-change", func() types.GomegaMatcher { return HaveWarning() }},
		{"HaveData", "function-data", func() types.GomegaMatcher { return HaveData(HaveKey("count")) }},
		{"HaveSteps", "flow-ok", func() types.GomegaMatcher { return HaveSteps("search", "toggle@t3", "clear-search") }},
		{"BeResumable", "flow-step-failed", func() types.GomegaMatcher { return BeResumable() }},
		{"BeBounded", "bounded-full", func() types.GomegaMatcher { return BeBounded() }},
		{"NeverContain", "remove-t9-approved", func() types.GomegaMatcher { return NeverContain("hunter2") }},
	}
}

func TestEveryMatcherAcceptsEveryFormOfAReceipt(t *testing.T) {
	for _, c := range everyMatcher() {
		raw := fixture(t, c.fixture)
		r := decoded(t, c.fixture)
		forms := map[string]any{
			"receipt.Receipt":  *r,
			"*receipt.Receipt": r,
			"Receipter":        call{r},
			"[]byte":           raw,
			"string":           string(raw),
			"json.RawMessage":  json.RawMessage(raw),
		}
		for form, actual := range forms {
			ok, err := c.matcher().Match(actual)
			if err != nil || !ok {
				t.Errorf("%s given a %s: Match = %v, %v; want true, nil", c.name, form, ok, err)
			}
		}
	}
}

func TestEveryMatcherNamesItselfForAWrongInput(t *testing.T) {
	for _, c := range everyMatcher() {
		for _, in := range []struct {
			actual any
			err    string
		}{
			{42, c.name + " matcher expects a receipt (receipt.Receipt, *receipt.Receipt, a Receipter, or receipt JSON as []byte, string or json.RawMessage), got int"},
			{nil, c.name + " matcher expects a receipt, got nil"},
			{(*receipt.Receipt)(nil), c.name + " matcher expects a receipt, got a nil *receipt.Receipt"},
			{call{}, c.name + " matcher expects a receipt, got a matchers_test.call carrying none"},
			{&receipt.Snapshot{}, c.name + " matcher expects a receipt (receipt.Receipt, *receipt.Receipt, a Receipter, or receipt JSON as []byte, string or json.RawMessage), got *receipt.Snapshot"},
		} {
			ok, err := c.matcher().Match(in.actual)
			if err == nil || err.Error() != in.err || ok {
				t.Errorf("%s given %T: Match = %v, %v; want false and error %q", c.name, in.actual, ok, err, in.err)
			}
		}
		// JSON that is not a receipt: the decoder's error, wrapped.
		ok, err := c.matcher().Match(`["not", "a", "receipt"]`)
		if err == nil || ok || !errors.Is(err, receipt.ErrInvalid) || !strings.HasPrefix(err.Error(), c.name+" matcher: ") {
			t.Errorf("%s given JSON that is not a receipt: Match = %v, %v; want false and a wrapped receipt.ErrInvalid", c.name, ok, err)
		}
	}
}

func TestEveryMatcherFailsSomewhere(t *testing.T) {
	// The other tests assert messages; this one makes sure no matcher of
	// the package holds for everything.
	for _, c := range everyMatcher() {
		failed := false
		for _, f := range []string{"remove-t9-approved", "denied", "sensitive-leak", "unbounded", "write-no-change"} {
			ok, err := c.matcher().Match(fixture(t, f))
			if err == nil && !ok {
				failed = true
				break
			}
		}
		if !failed {
			t.Errorf("%s holds for every fixture", c.name)
		}
	}
}

func TestAReceiptCannotChangeButAReceipterCan(t *testing.T) {
	r := decoded(t, "denied")
	for _, c := range everyMatcher() {
		m, ok := c.matcher().(interface{ MatchMayChangeInTheFuture(any) bool })
		if !ok {
			t.Errorf("%s does not tell Eventually whether to keep polling", c.name)
			continue
		}
		for _, actual := range []any{r, *r, fixture(t, "denied"), string(fixture(t, "denied"))} {
			if m.MatchMayChangeInTheFuture(actual) {
				t.Errorf("%s: a %T may change, want final", c.name, actual)
			}
		}
		if !m.MatchMayChangeInTheFuture(call{r}) {
			t.Errorf("%s: a Receipter is final, want polled", c.name)
		}
	}
}

func TestEventuallyStopsAtOnceOnAReceipt(t *testing.T) {
	var failure string
	g := NewGomega(func(message string, _ ...int) { failure = message })
	g.Eventually(fixture(t, "denied")).WithTimeout(time.Hour).Should(BeOK())
	if !strings.Contains(failure, "No future change is possible.  Bailing out early") {
		t.Errorf("Eventually on a receipt did not bail out early:\n%s", failure)
	}
}

// polled is a Receipter whose receipt changes: the first calls fail, then
// one succeeds.
type polled struct {
	calls   atomic.Int32
	pending *receipt.Receipt
	done    *receipt.Receipt
}

func (p *polled) Receipt() *receipt.Receipt {
	if p.calls.Add(1) < 3 {
		return p.pending
	}
	return p.done
}

func TestEventuallyPollsAReceipter(t *testing.T) {
	p := &polled{pending: decoded(t, "call-timeout"), done: decoded(t, "remove-t9-approved")}
	g := NewWithT(t)
	g.Eventually(p).WithTimeout(time.Minute).WithPolling(time.Millisecond).Should(SatisfyExpectation())
	if n := p.calls.Load(); n < 3 {
		t.Errorf("the Receipter was asked %d times, want at least 3", n)
	}
}
