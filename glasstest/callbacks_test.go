package glasstest_test

import (
	"sync/atomic"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/glassworks/glass/examples/todo/app"
	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

// One rule for every callback of the spec the harness runs (ConfirmWith's
// and HandoffWith's functions): a panic, a failed assertion without
// GinkgoRecover included, refuses the runtime's request and fails the
// spec when the call returns, with a message that names the callback and
// the action.
var _ = Describe("The spec's callbacks: one panic rule", func() {
	// A Gomega of its own fails as Ginkgo's Fail does (it panics), but into
	// this spec's hands rather than the suite's.
	failing := NewGomega(func(message string, _ ...int) { panic(message) })

	type callback struct {
		handler func() string
		action  string
		option  func(fn func()) glasstest.PageOption
		code    receipt.Code
		reason  func(*glasstest.Page) string
	}
	confirm := callback{
		handler: func() string { return glasstest.Serve(harnessHandler()) },
		action:  "remove@r1",
		option: func(fn func()) glasstest.PageOption {
			return glasstest.ConfirmWith(func(glasstest.ConfirmRequest) bool { fn(); return true })
		},
		code:   receipt.CodePermissionDenied,
		reason: func(p *glasstest.Page) string { return p.Confirmations()[0].Reason },
	}
	handoff := callback{
		handler: func() string { return glasstest.Serve(app.Handler()) },
		action:  "verify-identity",
		option: func(fn func()) glasstest.PageOption {
			return glasstest.HandoffWith(func(*glasstest.Handoff) glasstest.HandoffOutcome { fn(); return glasstest.HandoffCompleted })
		},
		code:   receipt.CodeHandoffFailed,
		reason: func(p *glasstest.Page) string { return p.Handoffs()[0].Reason },
	}

	DescribeTable("a panicking callback refuses the request and fails the spec",
		func(c callback, name, want string, body func()) {
			page := glasstest.Open(c.handler(), c.option(body))
			var failed atomic.Value
			glasstest.OnFail(page, func(err error) { failed.Store(err.Error()) })
			r := page.Do(c.action, nil)
			Expect(r.Code()).To(Equal(c.code), "%s", r.GomegaString())
			msg := `glasstest: the ` + name + ` function panicked on "` + c.action + `": ` + want
			Expect(failed.Load()).To(Equal(msg), "the spec fails with the panic")
			Expect(c.reason(page)).To(Equal(msg), "the host's record says why it refused")

			// The failure belongs to that call: the next one is clean.
			failed.Store("")
			page.Do("no-such-action", nil)
			Expect(failed.Load()).To(Equal(""))
		},
		Entry("ConfirmWith, a panic", confirm, "ConfirmWith", "boom", func() { panic("boom") }),
		Entry("HandoffWith, a panic", handoff, "HandoffWith", "boom", func() { panic("boom") }),
		Entry("ConfirmWith, a failed assertion without GinkgoRecover", confirm, "ConfirmWith", "Expected\n    <int>: 1\nto equal\n    <int>: 2",
			func() { failing.Expect(1).To(Equal(2)) }),
		Entry("HandoffWith, a failed assertion without GinkgoRecover", handoff, "HandoffWith", "Expected\n    <int>: 1\nto equal\n    <int>: 2",
			func() { failing.Expect(1).To(Equal(2)) }),
	)
})
