package tutorial

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/glassworks/glass/glasstest"
	. "github.com/glassworks/glass/matchers"
	"github.com/glassworks/glass/receipt"
)

var _ = Describe("Step 4: when the page does not do what it promised", func() {
	It("reports EXPECTATION_FAILED: the call started, so inspect before retrying", func() {
		page := glasstest.Open(appURL+"/?fault=delete-stale", glasstest.Approve())
		r := page.Do("remove@t9", nil, glasstest.ExpectTimeout(300*time.Millisecond))
		Expect(r).To(FailWith(receipt.CodeExpectationFailed))
		Expect(r).To(FailAtPhase(receipt.PhaseVerification))
		Expect(r).To(HaveStarted())
		Expect(r).To(HaveRecoveryStrategy(receipt.RecoveryReport))
	})
})
