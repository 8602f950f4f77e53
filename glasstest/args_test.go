package glasstest_test

import (
	"math"
	"sync/atomic"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

// Arguments the harness cannot send are the spec's mistake, not the
// page's: they fail the spec, and the page is never called.
var _ = Describe("Arguments that cannot be sent", func() {
	var (
		page   *glasstest.Page
		failed atomic.Value
	)
	BeforeEach(func() {
		page = glasstest.Open(glasstest.Serve(harnessHandler()))
		failed.Store("")
		glasstest.OnFail(page, func(err error) { failed.Store(err.Error()) })
	})

	DescribeTable("fail the spec with one clear line",
		func(args any, want string) {
			r := page.Do("count", args)
			Expect(failed.Load()).To(Equal(want))
			Expect(r.Result.Error.Message).To(Equal(want), "OpenPage, with no spec to fail, gets the same message")
		},
		Entry("a channel", make(chan int), `glasstest: Do("count"): the arguments (chan int) cannot be sent as JSON: json: unsupported type: chan int`),
		Entry("a func", func() {}, `glasstest: Do("count"): the arguments (func()) cannot be sent as JSON: json: unsupported type: func()`),
		Entry("NaN", map[string]any{"n": math.NaN()}, `glasstest: Do("count"): the arguments (map[string]interface {}) cannot be sent as JSON: json: unsupported value: NaN`),
		Entry("a Go string meant as the arguments", "milk", `glasstest: Do("count"): the string argument "milk" is not JSON text: Do sends a string as JSON text, unchanged; send arguments as a map or a struct (map[string]any{...}), or malformed input as json.RawMessage`),
	)

	It("still sends malformed JSON written on purpose, for the runtime to refuse", func() {
		r := page.Do("count", `{"unterminated`)
		Expect(failed.Load()).To(Equal(""))
		Expect(r.Code()).To(Equal(receipt.CodeInvalidArgs), "%s", r.GomegaString())
	})
})
