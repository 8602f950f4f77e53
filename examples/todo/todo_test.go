package main

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/sebdah/goldie/v2"

	"github.com/glassworks/glass/examples/todo/app"
	"github.com/glassworks/glass/glasstest"
	. "github.com/glassworks/glass/matchers"
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
		Expect(r).To(SatisfyExpectation())
		Expect(r).To(HaveChanged(Actions(Removed("remove@t9"))))

		got, err := receipt.CanonicalJSON(receipt.Normalize(r))
		Expect(err).NotTo(HaveOccurred())
		g := goldie.New(GinkgoTB(), goldie.WithFixtureDir("testdata"), goldie.WithNameSuffix(".golden.json"))
		g.Assert(GinkgoTB(), "remove-t9-approved", got)
	})

	It("asks for confirmation once and reports the approval", func() {
		page := glasstest.Open(url, glasstest.Approve())
		page.Do("remove@t9", nil)
		asked := page.Confirmations()
		Expect(asked).To(HaveLen(1))
		Expect(asked[0].Request.Action).To(Equal("remove@t9"))
		Expect(asked[0].Request.Risk).To(Equal(receipt.RiskDangerous))
		Expect(asked[0].Solicited).To(BeTrue())
	})

	It("denied confirmation: PERMISSION_DENIED at policy, and the page is untouched", func() {
		page := glasstest.Open(url, glasstest.Deny())
		before := page.Snapshot()
		r := page.Do("remove@t9", nil)
		Expect(r).To(FailAtPhase(receipt.PhasePolicy))
		Expect(r.Code()).To(Equal(receipt.CodePermissionDenied))
		Expect(page.Snapshot()).To(Equal(before))
	})

	It("no confirmation channel: the runtime denies", func() {
		page := glasstest.Open(url, glasstest.NoConfirmationChannel())
		r := page.Do("remove@t9", nil)
		Expect(r).To(FailAtPhase(receipt.PhasePolicy))
		Expect(page.Confirmations()).To(BeEmpty())
	})

	It("an expectation that never verifies: EXPECTATION_FAILED at verification", func() {
		page := glasstest.Open(url+"/?fault=delete-stale", glasstest.Approve())
		r := page.Do("remove@t9", nil, glasstest.ExpectTimeout(300*time.Millisecond))
		Expect(r).To(FailAtPhase(receipt.PhaseVerification))
		Expect(r.Code()).To(Equal(receipt.CodeExpectationFailed))
	})

	It("a handler that throws after issuing its request: EXECUTION_FAILED at dispatch", func() {
		page := glasstest.Open(url+"/?fault=delete-throws", glasstest.Approve())
		r := page.Do("remove@t9", nil)
		Expect(r).To(FailAtPhase(receipt.PhaseDispatch))
		Expect(r.Code()).To(Equal(receipt.CodeExecutionFailed))
	})

	It("an unknown action: ACTION_NOT_FOUND with the available actions", func() {
		page := glasstest.Open(url, glasstest.Approve())
		r := page.Do("archive@t9", nil)
		Expect(r).To(FailAtPhase(receipt.PhaseTargetResolution))
		Expect(r.Result.Error.Available).To(ContainElement("remove@t9"))
	})
})
