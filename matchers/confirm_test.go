package matchers_test

import (
	"encoding/json"
	"testing"

	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/types"

	. "github.com/glassworks/glass/matchers"
	"github.com/glassworks/glass/receipt"
)

// records are the host's records of testdata/confirmations.json, recorded
// from glasstest's harness page: sign-in approved with its password
// masked, remove@r1 denied, remove@r2 approved, remove@r3 with no channel,
// and a request a page script forged through the raw binding.
func records(t testing.TB) []receipt.ConfirmationRecord {
	t.Helper()
	var rs []receipt.ConfirmationRecord
	if err := json.Unmarshal(fixture(t, "confirmations"), &rs); err != nil {
		t.Fatal(err)
	}
	return rs
}

// confirmer is a Confirmer, as glasstest's *Page is.
type confirmer struct{ rs []receipt.ConfirmationRecord }

func (p *confirmer) Confirmations() []receipt.ConfirmationRecord { return p.rs }

const listed = `
    1. sign-in, write: approved, args {"note":"hi","password":"[sensitive]","user":"ada"}
    2. remove@r1, dangerous: denied (denied by the user), args {"reason":"done"}
    3. remove@r2, dangerous: approved, args {}
    4. remove@r3, dangerous: denied (no confirmation channel), args {}
    5. remove@r3, dangerous: denied (the host binding was called directly, not through glassHost), args {} [unsolicited: not counted]`

func TestHaveAskedConfirmation(t *testing.T) {
	rs := records(t)
	for _, c := range []struct {
		name    string
		matcher types.GomegaMatcher
		match   bool
		message string
	}{
		{"any request", HaveAskedConfirmation(), true,
			"Expected the page not to have asked the user to confirm a call, at least once,\nbut it asked 4 times that counted, of 5 request(s):" + listed},
		{"how often, the forged request not counted", HaveAskedConfirmation(Times(4)), true,
			"Expected the page not to have asked the user to confirm a call, 4 times,\nbut it asked 4 times that counted, of 5 request(s):" + listed},
		{"approved ones", HaveAskedConfirmation(Approved(), Times(2)), true,
			"Expected the page not to have asked the user to confirm a call, approved, 2 times,\nbut it asked 2 times that counted, of 5 request(s):" + listed},
		{"denied ones, counted by a matcher", HaveAskedConfirmation(Denied(), Times(BeNumerically(">", 2))), false,
			"Expected the page to have asked the user to confirm a call, denied, a number of times that satisfies BeNumerically(…),\nbut it asked 2 times that counted, of 5 request(s):" + listed},
		{"for an action", HaveAskedConfirmationFor("remove@r1"), true,
			"Expected the page not to have asked the user to confirm \"remove@r1\", at least once,\nbut it asked once that counted, of 5 request(s):" + listed},
		{"for an action, approved", HaveAskedConfirmationFor("remove@r1", Approved()), false,
			"Expected the page to have asked the user to confirm \"remove@r1\", approved, at least once,\nbut it asked never that counted, of 5 request(s):" + listed},
		{"for actions a matcher picks", HaveAskedConfirmationFor(HavePrefix("remove@"), Times(3)), true,
			"Expected the page not to have asked the user to confirm HavePrefix(…), 3 times,\nbut it asked 3 times that counted, of 5 request(s):" + listed},
		{"with a masked value", HaveAskedConfirmationFor("sign-in", WithMasked("password")), true,
			"Expected the page not to have asked the user to confirm \"sign-in\", with \"password\" masked, at least once,\nbut it asked once that counted, of 5 request(s):" + listed},
		{"with a value in clear", HaveAskedConfirmationFor("sign-in", WithMasked("password", "user")), false,
			"Expected the page to have asked the user to confirm \"sign-in\", with \"password\", \"user\" masked, at least once,\nbut it asked never that counted, of 5 request(s):" + listed},
		{"an action never asked", HaveAskedConfirmationFor("export", Times(0)), true,
			"Expected the page not to have asked the user to confirm \"export\", never,\nbut it asked never that counted, of 5 request(s):" + listed},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, actual := range []any{&confirmer{rs}, rs} {
				ok, err := c.matcher.Match(actual)
				if err != nil {
					t.Fatalf("Match(%T): %v", actual, err)
				}
				if ok != c.match {
					t.Fatalf("Match(%T) = %v, want %v:\n%s", actual, ok, c.match, c.matcher.FailureMessage(actual))
				}
				got := c.matcher.FailureMessage(actual)
				if ok {
					got = c.matcher.NegatedFailureMessage(actual)
				}
				if got != c.message {
					t.Errorf("message:\n%s\nwant:\n%s", got, c.message)
				}
			}
		})
	}
}

// A flow's step asks again under the flow's action and names the step:
// the request counts for either.
func TestHaveAskedConfirmationForAStepOfAFlow(t *testing.T) {
	rs := []receipt.ConfirmationRecord{{
		Request:  receipt.ConfirmRequest{ExecutionID: "act_1", Action: "checkout", Step: "pay", Risk: receipt.RiskDangerous, Args: map[string]any{}},
		Approved: true, Ticket: "tk_1", Solicited: true,
	}}
	g := NewWithT(t)
	g.Expect(rs).To(HaveAskedConfirmationFor("checkout"))
	g.Expect(rs).To(HaveAskedConfirmationFor("pay", Approved(), Times(1)))
	g.Expect(rs).NotTo(HaveAskedConfirmationFor("ship"))
	m := HaveAskedConfirmationFor("ship")
	m.Match(rs)
	g.Expect(m.FailureMessage(rs)).To(HaveSuffix("1. checkout (step pay), dangerous: approved, args {}"))
}

// A receipt's confirmations are those the runtime reports for the call.
func TestHaveAskedConfirmationOfAReceipt(t *testing.T) {
	g := NewWithT(t)
	g.Expect(fixture(t, "remove-t9-approved")).To(HaveAskedConfirmationFor("remove@t9", Approved(), Times(1)))
	g.Expect(decoded(t, "denied")).To(HaveAskedConfirmationFor("remove@t9", Denied()))
	g.Expect(fixture(t, "call-timeout")).NotTo(HaveAskedConfirmation())
	m := HaveAskedConfirmation(Approved())
	ok, err := m.Match(decoded(t, "denied"))
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(ok).To(BeFalse())
	g.Expect(m.FailureMessage(nil)).To(Equal("Expected the page to have asked the user to confirm a call, approved, at least once,\nbut it asked never that counted, of 1 request(s):\n    1. remove@t9, dangerous: denied"))
}

func TestHaveAskedConfirmationPollsAPageOnly(t *testing.T) {
	g := NewWithT(t)
	type mayChange interface{ MatchMayChangeInTheFuture(any) bool }
	m := HaveAskedConfirmation().(mayChange)
	g.Expect(m.MatchMayChangeInTheFuture(&confirmer{})).To(BeTrue())
	g.Expect(m.MatchMayChangeInTheFuture(records(t))).To(BeFalse())
	g.Expect(m.MatchMayChangeInTheFuture(decoded(t, "denied"))).To(BeFalse())
}

func TestHaveAskedConfirmationErrors(t *testing.T) {
	rs := records(t)
	var nilPage *confirmer
	runErrors(t, []errorCase{
		{"something else", HaveAskedConfirmation(), 42, `HaveAskedConfirmation matcher expects a page (a Confirmer such as *glasstest.Page), []receipt.ConfirmationRecord or a receipt, got int`},
		{"a nil page", HaveAskedConfirmation(), nilPage, `HaveAskedConfirmation matcher expects a page, confirmation records or a receipt, got a nil *matchers_test.confirmer`},
		{"an action of the wrong type", HaveAskedConfirmationFor(7), rs, `HaveAskedConfirmationFor matcher: the action: want a string or a Gomega matcher, got int`},
		{"a count of the wrong type", HaveAskedConfirmation(Times("twice")), rs, `HaveAskedConfirmation matcher: Times wants an int or a Gomega matcher, got string`},
		{"masked values of a receipt", HaveAskedConfirmation(WithMasked("password")), fixture(t, "remove-t9-approved"),
			`HaveAskedConfirmation matcher: WithMasked needs the host's records of the requests (a page or []receipt.ConfirmationRecord); a receipt carries none of their arguments`},
	})
}
