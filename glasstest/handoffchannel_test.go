package glasstest_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/glassworks/glass/examples/todo/app"
	"github.com/glassworks/glass/glasstest"
	. "github.com/glassworks/glass/matchers"
	"github.com/glassworks/glass/receipt"
)

var _ = Describe("NoHandoffChannel", func() {
	It("installs no hand-off channel, so the runtime fails a hand-off on its own and the host records nothing", func() {
		page := glasstest.Open(glasstest.Serve(app.Handler()), glasstest.NoHandoffChannel(),
			glasstest.HandoffWith(func(*glasstest.Handoff) glasstest.HandoffOutcome { return glasstest.HandoffCompleted }))
		Expect(page.Playwright().Evaluate("typeof glassHost.handoff")).To(Equal("undefined"))
		Expect(page.Playwright().Evaluate("typeof glassHost.confirm")).To(Equal("function"), "the confirmation channel stays")
		r := page.Do("verify-identity", nil)
		Expect(r).To(FailWith(receipt.CodeHandoffFailed))
		Expect(r).To(FailAtPhase(receipt.PhaseDispatch))
		Expect(page.Handoffs()).To(BeEmpty())
	})
})
