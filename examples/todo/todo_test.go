package main

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/glassworks/glass/examples/todo/app"
	"github.com/glassworks/glass/glasstest"
	. "github.com/glassworks/glass/matchers"
	. "github.com/glassworks/glass/matchers/golden"
	"github.com/glassworks/glass/receipt"
)

var _ = Describe("Delete the weekly report", func() {
	It("removes t9 after the user approves", func() {
		page := glasstest.Open(glasstest.Serve(app.Handler()), glasstest.Approve())
		r := page.Do("remove@t9", nil)
		Expect(r).To(SatisfyExpectation("The task is no longer in the list"))
		Expect(r).To(HaveChanged(Records(Removed("t9"), Total(12, 11))))
		Expect(page.Do("remove@t8", nil, glasstest.Deny())).To(FailAtPhase(receipt.PhasePolicy))
	})
})

var _ = Describe("The seed's walkthrough on the Todo page", func() {
	var url string
	BeforeEach(func() {
		url = glasstest.Serve(app.Handler())
	})

	It("produces the seed's receipt for remove@t9, field for field", func() {
		page := glasstest.Open(url, glasstest.Approve())
		r := page.Do("remove@t9", nil)
		Expect(r).To(SatisfyExpectation("The task is no longer in the list"))
		Expect(r).To(HaveChanged(
			Records(Removed("t9"), Total(12, 11)),
			Actions(Removed("remove@t9")),
			Feedback(Added("Deleted “Weekly report”")),
		))
		Expect(r).To(SatisfyAll(HaveFidelity(receipt.FidelityHigh), Not(HaveWarning()), BeBounded()))
		Expect(r).To(MatchGoldenReceipt("remove-t9-approved"))
	})

	It("asks for confirmation once and reports the approval", func() {
		page := glasstest.Open(url, glasstest.Approve())
		Expect(page.Do("remove@t9", nil)).To(BeOK())
		Expect(page.Confirmations()).To(HaveExactElements(SatisfyAll(
			HaveField("Request.Action", "remove@t9"),
			HaveField("Request.Risk", receipt.RiskDangerous),
			HaveField("Solicited", BeTrue()),
		)))
	})

	It("denied confirmation: PERMISSION_DENIED at policy, and the page is untouched", func() {
		page := glasstest.Open(url, glasstest.Deny())
		before := page.Snapshot()
		r := page.Do("remove@t9", nil)
		Expect(r).To(FailWith(receipt.CodePermissionDenied))
		Expect(r).To(FailAtPhase(receipt.PhasePolicy))
		Expect(r).To(HaveNotStarted())
		Expect(page.Snapshot()).To(Equal(before))
	})

	It("no confirmation channel: the runtime denies", func() {
		page := glasstest.Open(url, glasstest.NoConfirmationChannel())
		Expect(page.Do("remove@t9", nil)).To(SatisfyAll(FailWith(receipt.CodePermissionDenied), HaveNotStarted()))
		Expect(page.Confirmations()).To(BeEmpty())
	})

	It("an expectation that never verifies: EXPECTATION_FAILED at verification, so inspect before retrying", func() {
		page := glasstest.Open(url+"/?fault=delete-stale", glasstest.Approve())
		r := page.Do("remove@t9", nil, glasstest.ExpectTimeout(300*time.Millisecond))
		Expect(r).To(FailWith(receipt.CodeExpectationFailed))
		Expect(r).To(FailAtPhase(receipt.PhaseVerification))
		Expect(r).To(HaveStarted())
		Expect(r).To(HaveRecoveryStrategy(receipt.RecoveryReport))
		Expect(r).To(HaveChanged(NothingChanged()))
	})

	It("a handler that throws after issuing its request: EXECUTION_FAILED at dispatch, and the write may have landed", func() {
		page := glasstest.Open(url+"/?fault=delete-throws", glasstest.Approve())
		r := page.Do("remove@t9", nil)
		Expect(r).To(FailWith(receipt.CodeExecutionFailed))
		Expect(r).To(FailAtPhase(receipt.PhaseDispatch))
		Expect(r).To(HaveStarted())
		Expect(r).NotTo(BeResumable())
	})

	It("an unknown action: ACTION_NOT_FOUND with the available actions", func() {
		page := glasstest.Open(url, glasstest.Approve())
		r := page.Do("archive@t9", nil)
		Expect(r).To(FailAtPhase(receipt.PhaseTargetResolution))
		Expect(r).To(OfferActions("remove@t9", "remove@t12"))
		Expect(r).NotTo(OfferActions("archive@t9"))
		Expect(r).To(HaveNotStarted())
	})

	It("a call against an old revision: STALE_REVISION at preflight, before anything runs", func() {
		page := glasstest.Open(url, glasstest.Approve())
		Expect(page.Do("remove@t9", nil)).To(BeOK())
		r := page.Do("remove@t8", nil, glasstest.ExpectedRevision(0))
		Expect(r).To(FailWith(receipt.CodeStaleRevision))
		Expect(r).To(FailAtPhase(receipt.PhasePreflight))
		Expect(r).To(HaveNotStarted())
		Expect(r).To(HaveRecoveryStrategy(receipt.RecoveryReport))
		Expect(page.Do("remove@t8", nil)).To(HaveChanged(Records(Removed("t8"), Total(11, 10))))
	})
})
