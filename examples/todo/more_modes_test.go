package main

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/glassworks/glass/examples/todo/app"
	"github.com/glassworks/glass/glasstest"
	. "github.com/glassworks/glass/matchers"
	"github.com/glassworks/glass/receipt"
)

// The actions the Todo page declares so that a conformance run probes
// every rule (examples/todo is the page `glass-conformance run` checks
// without --url): a function with a default, a write that changes
// nothing, a control with no native element, a dangerous flow whose last
// step only a flow may run, and a flow whose dangerous step exists only
// while it runs.
var _ = Describe("More execution modes on the Todo page", func() {
	var url string
	BeforeEach(func() {
		url = glasstest.Serve(app.Handler())
	})
	open := func(url string, opts ...glasstest.PageOption) *glasstest.Page {
		GinkgoHelper()
		return glasstest.Open(url, append([]glasstest.PageOption{glasstest.ExpectTimeout(10 * time.Second)}, opts...)...)
	}

	It("search returns the matches and the arguments it ran with, the default limit filled in", func() {
		page := open(url)
		r := page.Do("search", map[string]any{"query": "report"})
		Expect(r).To(BeOK())
		Expect(r).To(HaveData(HaveKeyWithValue("limit", BeNumerically("==", 10))))
		Expect(r).To(HaveData(HaveKeyWithValue("query", "report")))
	})

	It("sync saves the list again: a write that changes nothing succeeds with a warning", func() {
		page := open(url)
		r := page.Do("sync", nil)
		Expect(r).To(SatisfyAll(BeOK(), HaveChanged(NothingChanged()), HaveWarning()))
	})

	It("dismiss has no native control: fidelity low, and a warning", func() {
		page := open(url)
		r := page.Do("dismiss", nil)
		Expect(r).To(SatisfyAll(BeOK(), HaveFidelity(receipt.FidelityLow), HaveWarning()))
	})

	Describe("clear-done: a dangerous flow whose first step only a flow may run", func() {
		It("asks once, as the flow, and deletes the done tasks", func() {
			page := open(url, glasstest.Approve())
			Expect(page.Do("toggle", map[string]string{"task": "t1"})).To(BeOK())
			r := page.Do("clear-done", nil)
			Expect(r).To(BeOK())
			Expect(r).To(HaveSteps(StepOK("clear-done.show"), StepOK("clear-done.delete")))
			Expect(r).To(HaveChanged(Records(Removed("t1"))))
		})

		It("denied: nothing runs", func() {
			page := open(url, glasstest.Deny())
			r := page.Do("clear-done", nil)
			Expect(r).To(FailWith(receipt.CodePermissionDenied))
			Expect(r).To(HaveNotStarted())
		})

		It("its first step cannot be called on its own", func() {
			page := open(url, glasstest.Approve())
			Expect(page.Do("clear-done.show", nil)).To(SatisfyAll(FailWith(receipt.CodeActionUnavailable), FailAtPhase(receipt.PhaseTargetResolution)))
		})

		It("its delete step, called on its own, asks; denied, nothing is deleted", func() {
			page := open(url, glasstest.Deny())
			Expect(page.Do("toggle", map[string]string{"task": "t5"})).To(BeOK())
			r := page.Do("clear-done.delete", nil)
			Expect(r).To(SatisfyAll(FailWith(receipt.CodePermissionDenied), HaveNotStarted()))
		})

		It("its delete step, called on its own and approved, deletes the done tasks", func() {
			page := open(url, glasstest.Approve())
			Expect(page.Do("toggle", map[string]string{"task": "t5"})).To(BeOK())
			Expect(page.Do("clear-done.delete", nil)).To(SatisfyAll(BeOK(), HaveChanged(Records(Removed("t5")))))
		})

		It("a delete that fails stops the flow with a resume handle; resume deletes", func() {
			page := open(url+"/?fault=clear-fails-once", glasstest.Approve())
			Expect(page.Do("toggle", map[string]string{"task": "t2"})).To(BeOK())
			r := page.Do("clear-done", nil)
			Expect(r).To(SatisfyAll(FailWith(receipt.CodeStepFailed), BeResumable()))
			Expect(r).To(HaveSteps(StepOK("clear-done.show"), StepFailed("clear-done.delete", receipt.CodeExecutionFailed)))
			resumed := page.Resume(r.Result.Resume)
			Expect(resumed).To(BeOK())
			Expect(resumed).To(HaveChanged(Records(Removed("t2"))))
		})
	})

	Describe("discard: a flow whose dangerous step exists only while it runs", func() {
		It("asks again at the step, and deletes the task from the dialog", func() {
			page := open(url, glasstest.Approve())
			r := page.Do("discard", map[string]string{"task": "t3"})
			Expect(r).To(BeOK())
			Expect(r).To(HaveSteps(StepOK("edit.open"), StepOK("edit.delete")))
			Expect(r).To(HaveChanged(Records(Removed("t3"))))
			asked := page.Confirmations()
			Expect(asked).To(HaveLen(1))
			Expect(asked[0].Request.Action).To(Equal("discard"))
			Expect(asked[0].Request.Step).To(Equal("edit.delete"))
		})

		It("the step denied stops the flow with a resume handle; resume asks again and deletes", func() {
			denied := false
			page := open(url, glasstest.ConfirmWith(func(req glasstest.ConfirmRequest) bool {
				if !denied {
					denied = true
					return false
				}
				return true
			}))
			r := page.Do("discard", map[string]string{"task": "t4"})
			Expect(r).To(SatisfyAll(FailWith(receipt.CodeStepFailed), BeResumable()))
			Expect(r).To(HaveSteps(StepOK("edit.open"), StepFailed("edit.delete", receipt.CodePermissionDenied)))
			resumed := page.Resume(r.Result.Resume)
			Expect(resumed).To(BeOK())
			Expect(resumed).To(HaveChanged(Records(Removed("t4"))))
		})
	})
})
