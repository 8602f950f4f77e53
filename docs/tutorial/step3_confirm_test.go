package tutorial

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/glassworks/glass/glasstest"
	. "github.com/glassworks/glass/matchers"
	"github.com/glassworks/glass/receipt"
)

var _ = Describe("Step 3: a dangerous action, and the user decides", func() {
	It("deletes the weekly report once the user approves", func() {
		page := open(glasstest.Approve())
		r := page.Do("remove@t9", nil)
		Expect(r).To(SatisfyExpectation("The task is no longer in the list"))
		Expect(r).To(HaveChanged(Records(Removed("t9"), Total(12, 11))))
		Expect(page).To(HaveAskedConfirmationFor("remove@t9", Approved(), Times(1)))
	})

	It("changes nothing when the user says no", func() {
		page := open(glasstest.Deny())
		before := page.Snapshot()
		r := page.Do("remove@t9", nil)
		Expect(r).To(FailAtPhase(receipt.PhasePolicy))
		Expect(r).To(HaveNotStarted())
		Expect(page.Snapshot()).To(Equal(before))
		Expect(page).To(HaveAskedConfirmationFor("remove@t9", Denied()))
	})
})
