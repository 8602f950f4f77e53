package glasstest_test

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/glassworks/glass/fixtures/faults"
	"github.com/glassworks/glass/glasstest"
	. "github.com/glassworks/glass/matchers"
	"github.com/glassworks/glass/receipt"
)

var _ = Describe("Driving actions", func() {
	var page *glasstest.Page
	BeforeEach(func() {
		page = glasstest.Open(glasstest.Serve(harnessHandler()), glasstest.Approve())
	})

	It("lists the available actions from the snapshot, leaving out the unavailable", func() {
		ids := []string{}
		for _, a := range page.Actions() {
			ids = append(ids, a.ID)
		}
		Expect(ids).To(Equal([]string{"sign-in", "count", "wait", "remove@r1", "remove@r2", "remove@r3"}))
		Expect(page.Snapshot().ActionIDs()).To(ContainElement("archive"), "declared, but not available")

		page.Do("remove@r2", nil)
		Expect(page.Actions()).NotTo(ContainElement(HaveField("ID", "remove@r2")))
	})

	It("folds a row call: tool plus record is the declared row action", func() {
		r := page.Do("remove", map[string]any{"record": "r2", "reason": "done"})
		Expect(r.Result.OK).To(BeTrue(), "%s", r.GomegaString())
		Expect(r.Result.Action.ID).To(Equal("remove@r2"))
		Expect(r).To(HaveChanged(Records(Removed("r2"), Total(3, 2))))
	})

	It("does not fold a call that names a declared action, or a record that has no row action", func() {
		r := page.Do("remove", map[string]any{"record": "r9"})
		Expect(r.Code()).To(Equal(receipt.CodeActionNotFound))
		Expect(r.Result.Action.ID).To(Equal("remove"))

		r = page.Do("count", map[string]any{"record": "r1"})
		Expect(r.Result.OK).To(BeTrue(), "%s", r.GomegaString())
		Expect(r.Result.Action.ID).To(Equal("count"))
	})

	It("answers an unknown action with ACTION_NOT_FOUND at target_resolution, listing what is available", func() {
		r := page.Do("remove@r9", nil)
		Expect(r).To(FailAtPhase(receipt.PhaseTargetResolution))
		Expect(r.Result.Error.Available).To(ConsistOf("sign-in", "count", "wait", "remove@r1", "remove@r2", "remove@r3"))
	})

	It("adds the available actions to an ACTION_NOT_FOUND receipt that lacks them", func() {
		terse := glasstest.Open(glasstest.Serve(faults.Handler()) + "/terse-not-found.html")
		r := terse.Do("nope", nil)
		Expect(r).To(FailAtPhase(receipt.PhaseTargetResolution))
		Expect(r.Result.Error.Available).To(Equal([]string{"act", "wipe"}))
	})

	It("passes JSON text through unchanged, so malformed input reaches the runtime", func() {
		r := page.Do("wait", `{"ms":`)
		Expect(r.Code()).To(Equal(receipt.CodeInvalidArgs))
		Expect(r).To(FailAtPhase(receipt.PhasePreflight))

		r = page.Do("wait", []byte(`{"ms": -1}`))
		Expect(r.Code()).To(Equal(receipt.CodeInvalidParams))
		Expect(r.Result.Error.Path).To(Equal("/ms"))
	})

	It("guards a call with the expected revision", func() {
		rev := page.Snapshot().Revision
		r := page.Do("remove@r1", nil, glasstest.ExpectedRevision(rev))
		Expect(r.Result.OK).To(BeTrue(), "%s", r.GomegaString())
		Expect(r.Revision.Before).To(Equal(rev))

		stale := page.Do("remove@r2", nil, glasstest.ExpectedRevision(rev))
		Expect(stale).To(FailAtPhase(receipt.PhasePreflight))
		Expect(stale.Code()).To(Equal(receipt.CodeStaleRevision))
		Expect(*stale.Result.Error.ExpectedRevision).To(Equal(rev))
		Expect(*stale.Result.Error.CurrentRevision).To(Equal(r.Revision.After))
		Expect(page.Snapshot().ActionIDs()).To(ContainElement("remove@r2"), "a stale call changes nothing")
	})

	It("bounds each call by its timeout: the call's option overrides the page's", func() {
		slow := glasstest.Open(glasstest.Serve(harnessHandler()), glasstest.Timeout(300*time.Millisecond))
		start := time.Now()
		r := slow.Do("wait", map[string]any{"ms": 5000})
		Expect(time.Since(start)).To(BeNumerically("<", 300*time.Millisecond+callSlack))
		Expect(r.Code()).To(Equal(receipt.CodeCallTimeout))
		Expect(r).To(FailAtPhase(receipt.PhaseTransport))
		Expect(r.Result.Error.Message).To(Equal("the page did not answer: no answer from the page after 300ms"))

		r = slow.Do("wait", map[string]any{"ms": 400}, glasstest.Timeout(5*time.Second))
		Expect(r.Result.OK).To(BeTrue(), "%s", r.GomegaString())
		Expect(string(r.Result.Data)).To(Equal("400"))
	})

	It("keeps every receipt and snapshot of the page, in order", func() {
		page.Snapshot()
		page.Do("count", nil)
		page.Do("nothing", nil)
		Expect(page.Receipts()).To(HaveLen(2))
		Expect(page.Receipts()[0].Result.Action.ID).To(Equal("count"))
		Expect(page.Receipts()[1].Code()).To(Equal(receipt.CodeActionNotFound))
		Expect(len(page.Snapshots())).To(BeNumerically(">=", 1))
	})
})

var _ = Describe("The default call timeout", func() {
	It("is DefaultTimeout, ten seconds, and a call without its own bound gives up there", func() {
		Expect(glasstest.DefaultTimeout).To(Equal(10 * time.Second))
		page := glasstest.Open(glasstest.Serve(faults.Handler()) + "/never-answers.html")
		start := time.Now()
		r := page.Do("act", nil)
		took := time.Since(start)
		Expect(r.Code()).To(Equal(receipt.CodeCallTimeout))
		Expect(r.Result.Error.Message).To(HaveSuffix("after 10s"))
		Expect(took).To(BeNumerically(">=", glasstest.DefaultTimeout))
		Expect(took).To(BeNumerically("<", glasstest.DefaultTimeout+callSlack))
	})
})
