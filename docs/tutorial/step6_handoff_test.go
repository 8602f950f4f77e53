package tutorial

import (
	playwright "github.com/mxschmitt/playwright-go"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/glassworks/glass/examples/todo/app"
	"github.com/glassworks/glass/glasstest"
	. "github.com/glassworks/glass/matchers"
)

// theUser plays the user of the identity hand-off: they type the code
// from their authenticator app, with real input.
func theUser(code string) glasstest.Option {
	return glasstest.HandoffWith(func(h *glasstest.Handoff) glasstest.HandoffOutcome {
		Expect(h.Page().GetByLabel("Code from your authenticator app").Fill(code)).To(Succeed())
		Expect(h.Page().GetByRole("button", playwright.PageGetByRoleOptions{Name: "Verify"}).Click()).To(Succeed())
		return glasstest.HandoffCompleted
	})
}

var _ = Describe("Step 6: a hand-off, then a function action", func() {
	It("exports once the user has verified their identity", func() {
		page := open(theUser(app.IdentityCode))
		Expect(page.Do("verify-identity", nil)).To(SatisfyExpectation("The identity is verified"))
		r := page.Do("export", nil)
		Expect(r).To(BeOK())
		Expect(r).To(HaveData(HaveKeyWithValue("count", 12.0)))
	})
})
