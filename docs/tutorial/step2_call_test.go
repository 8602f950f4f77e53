package tutorial

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/glassworks/glass/matchers"
)

var _ = Describe("Step 2: call an action, read the receipt", func() {
	It("adds a task through the app's own write path", func() {
		page := open()
		r := page.Do("add", map[string]string{"title": "Buy milk"})
		Expect(r).To(SatisfyExpectation("The new task is in the list"))
		Expect(r).To(HaveChanged(
			Records(Added("t13"), Total(12, 13)),
			Actions(Added("remove@t13")),
		))
	})

	It("refuses arguments the action does not accept, before anything runs", func() {
		page := open()
		r := page.Do("add", map[string]string{"title": ""})
		Expect(r).To(SatisfyAll(FailWith("INVALID_PARAMS"), HaveNotStarted()))
		Expect(page.Snapshot().Records.Total).To(Equal(12))
	})
})
