package main

import (
	"time"

	playwright "github.com/mxschmitt/playwright-go"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/glassworks/glass/examples/orders/app"
	"github.com/glassworks/glass/glasstest"
	. "github.com/glassworks/glass/matchers"
	"github.com/glassworks/glass/receipt"
)

// theUser plays the customer-service agent at the keyboard: they type the
// card number the customer reads out, into the order's row, and press Pay.
// The card number never passes through the agent.
func theUser(card string) glasstest.Option {
	return glasstest.HandoffWith(func(h *glasstest.Handoff) glasstest.HandoffOutcome {
		order := h.Request.Action[len("pay@"):]
		Expect(h.Page().GetByLabel("Card number for " + order).Fill(card)).To(Succeed())
		Expect(h.Page().GetByRole("button", playwright.PageGetByRoleOptions{Name: "Pay " + order}).Click()).To(Succeed())
		return glasstest.HandoffCompleted
	})
}

var _ = Describe("The Orders admin page", func() {
	var url string
	BeforeEach(func() {
		url = glasstest.Serve(app.Handler())
	})
	// open gives expectations ten seconds: the writes go through the server
	// and CI machines are busy.
	open := func(url string, opts ...glasstest.PageOption) *glasstest.Page {
		GinkgoHelper()
		return glasstest.Open(url, append([]glasstest.PageOption{glasstest.ExpectTimeout(10 * time.Second)}, opts...)...)
	}

	Describe("refund: a flow of three steps", func() {
		It("validates, refunds and notifies, after one approval", func() {
			page := open(url, glasstest.Approve())
			r := page.Do("refund@o1", nil)
			Expect(r).To(SatisfyExpectation("The order is refunded and the customer notified"))
			Expect(r).To(HaveSteps(StepOK("refund.validate"), StepOK("refund.issue"), StepOK("refund.notify")))
			Expect(r).To(HaveChanged(Records(Updated("o1", ContainElements("status", "notified")))))
			Expect(page.Confirmations()).To(HaveLen(1))
			done, _ := page.Snapshot().Action("refund@o1")
			Expect(done.Available).To(BeFalse(), "a refunded order cannot be refunded again")
		})

		It("changes nothing when the user says no", func() {
			page := open(url, glasstest.Deny())
			before := page.Snapshot()
			r := page.Do("refund@o2", nil)
			Expect(r).To(SatisfyAll(FailWith(receipt.CodePermissionDenied), FailAtPhase(receipt.PhasePolicy), HaveNotStarted()))
			Expect(page.Snapshot()).To(Equal(before))
		})

		It("is unavailable for an order that was never paid, and says why", func() {
			page := open(url, glasstest.Approve())
			r := page.Do("refund@o3", nil)
			Expect(r).To(SatisfyAll(FailAtPhase(receipt.PhaseTargetResolution), HaveNotStarted()))
			Expect(r.Result.Error.Reason).To(Equal("order o3 is pending, only a paid order can be refunded"))
		})

		It("stops at a failed notification with a resume handle; resume does not refund twice", func() {
			page := open(url+"/?fault=notify-fails-once", glasstest.Approve())
			r := page.Do("refund@o5", nil)
			Expect(r).To(SatisfyAll(FailWith(receipt.CodeStepFailed), BeResumable()))
			Expect(r).To(HaveSteps(StepOK("refund.validate"), StepOK("refund.issue"), StepFailed("refund.notify", receipt.CodeExecutionFailed)))

			resumed := page.Resume(r.Result.Resume)
			Expect(resumed).To(SatisfyExpectation("The order is refunded and the customer notified"))
			Expect(resumed).To(HaveSteps(StepSkipped("refund.validate"), StepSkipped("refund.issue"), StepOK("refund.notify")))
		})

		It("its refund step asks on its own: nothing is refunded when the user says no", func() {
			page := open(url, glasstest.Deny())
			r := page.Do("refund.issue", map[string]string{"order": "o2"})
			Expect(r).To(SatisfyAll(FailWith(receipt.CodePermissionDenied), HaveNotStarted()))
			Expect(page.Snapshot().Records.Items[1].Fields["status"]).To(Equal(app.Paid))
		})

		It("its refund and notify steps, called one by one, refund and tell the customer", func() {
			page := open(url, glasstest.Approve())
			Expect(page.Do("refund.issue", map[string]string{"order": "o2"})).To(SatisfyExpectation("The order is refunded"))
			Expect(page.Do("refund.notify", map[string]string{"order": "o2"})).To(HaveChanged(Records(Updated("o2", "notified"))))
		})

		It("its first step is a function action that returns the amount", func() {
			page := open(url)
			r := page.Do("refund.validate", map[string]string{"order": "o2"})
			Expect(r).To(HaveData(SatisfyAll(HaveKeyWithValue("amount", "€18.50"), HaveKeyWithValue("customer", "Grace Hopper"))))
			Expect(r).To(HaveChanged(NothingChanged()))
		})
	})

	It("filters the orders", func() {
		page := open(url)
		Expect(page.Do("filter", map[string]string{"value": "pending"})).To(HaveChanged(State("filter")))
	})

	Describe("pay: a hand-off, the card details are the user's", func() {
		It("the user types the card and the runtime verifies the order is paid", func() {
			page := open(url, theUser(app.TestCard))
			r := page.Do("pay@o3", nil)
			Expect(r).To(SatisfyExpectation("The order is paid"))
			Expect(r).To(HaveChanged(Records(Updated("o3", "status"))))
			Expect(r).To(NeverContain(app.TestCard))
			Expect(page.Handoffs()).To(HaveExactElements(HaveField("Outcome", glasstest.HandoffCompleted)))
		})

		It("a declined card is not a payment: HANDOFF_FAILED", func() {
			page := open(url, theUser("4000 0000 0000 0002"))
			r := page.Do("pay@o6", nil, glasstest.ExpectTimeout(500*time.Millisecond))
			Expect(r).To(SatisfyAll(FailWith(receipt.CodeHandoffFailed), FailAtPhase(receipt.PhaseDispatch)))
			Expect(page.Snapshot().Records.Items[5].Fields["status"]).To(Equal(app.Pending))
		})

		It("the user cancels: HANDOFF_CANCELLED", func() {
			page := open(url, glasstest.HandoffWith(func(*glasstest.Handoff) glasstest.HandoffOutcome {
				return glasstest.HandoffCancelled
			}))
			Expect(page.Do("pay@o3", nil)).To(FailWith(receipt.CodeHandoffCancelled))
		})
	})
})
