package coverage_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/glassworks/glass/examples/todo/app"
	"github.com/glassworks/glass/glasstest"
	. "github.com/glassworks/glass/matchers"
	"github.com/glassworks/glass/receipt"
)

// Every spec makes calls whose cells the harness's spec knows; the Todo
// page declares twelve actions once its rows are folded into remove.
var _ = Describe("Known calls on the Todo page", func() {
	var url string
	BeforeEach(func() {
		url = glasstest.Serve(app.Handler())
	})

	It("approves a remove", func() {
		page := glasstest.Open(url, glasstest.Approve())
		Expect(page.Do("remove@t9", nil)).To(BeOK())
	})

	It("denies a remove", func() {
		page := glasstest.Open(url)
		Expect(page.Do("remove@t8", nil)).To(FailWith(receipt.CodePermissionDenied))
	})

	It("fails on purpose after a remove over WebMCP without a channel", func() {
		page := glasstest.Open(url, glasstest.NoConfirmationChannel())
		r := page.Do("remove", map[string]string{"record": "t7"}, glasstest.Via(glasstest.TransportWebMCP))
		Expect(r).To(FailWith(receipt.CodePermissionDenied))
		Expect(r).To(BeOK(), "this spec fails on purpose, and its calls still count")
	})

	It("adds over both transports and against a stale revision", func() {
		page := glasstest.Open(url)
		Expect(page.Do("add", map[string]string{"title": "a"})).To(BeOK())
		Expect(page.Do("add", map[string]string{"title": "b"}, glasstest.Via(glasstest.TransportWebMCP))).To(BeOK())
		Expect(page.Do("add", map[string]string{"title": "c"}, glasstest.ExpectedRevision(99))).To(FailWith(receipt.CodeStaleRevision))
	})

	It("fails a step of the edit flow and resumes it", func() {
		page := glasstest.Open(url + "/?fault=save-fails-once")
		r := page.Do("edit", map[string]string{"task": "t2", "title": "Call the electrician"})
		Expect(r).To(FailWith(receipt.CodeStepFailed))
		Expect(page.Resume(r.Result.Resume)).To(BeOK())
	})

	It("cancels the identity hand-off", func() {
		page := glasstest.Open(url, glasstest.HandoffWith(func(*glasstest.Handoff) glasstest.HandoffOutcome {
			return glasstest.HandoffCancelled
		}))
		Expect(page.Do("verify-identity", nil)).To(FailWith(receipt.CodeHandoffCancelled))
	})

	It("calls an action the page does not declare", func() {
		page := glasstest.Open(url)
		Expect(page.Do("archive@t9", nil)).To(FailWith(receipt.CodeActionNotFound))
	})
})
