package tutorial

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/glassworks/glass/matchers"
)

var _ = Describe("Step 5: a flow", func() {
	It("edits a task through the dialog, as one call with a step ledger", func() {
		page := open()
		r := page.Do("edit", map[string]string{"task": "t2", "title": "Call the electrician"})
		Expect(r).To(SatisfyExpectation("The task has the new title"))
		Expect(r).To(HaveSteps(StepOK("edit.open"), StepOK("edit.title"), StepOK("edit.priority"), StepOK("edit.save")))
		Expect(r).To(HaveChanged(Records(Updated("t2", "title"))))
	})
})
