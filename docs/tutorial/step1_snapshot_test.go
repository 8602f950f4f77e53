package tutorial

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("Step 1: what the page declares", func() {
	It("shows twelve tasks and the actions an agent may call", func() {
		page := open()
		snap := page.Snapshot()
		Expect(snap.Page.Title).To(Equal("Todo"))
		Expect(snap.Records.Total).To(Equal(12))
		Expect(snap.ActionIDs()).To(ContainElements("add", "toggle", "edit", "remove@t9"))

		remove, _ := snap.Action("remove@t9")
		Expect(remove.Description).To(Equal("Delete the task"))
		Expect(remove.Confirm).To(BeTrue())
	})
})
