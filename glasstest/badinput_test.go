package glasstest_test

import (
	"net"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/glassworks/glass/glasstest"
)

var _ = Describe("OpenPage with a page it cannot open", func() {
	DescribeTable("returns a wrapped error and leaves no browser context behind",
		func(url func() string, says string) {
			b, err := glasstest.Shared()
			Expect(err).NotTo(HaveOccurred())
			contexts := b.Contexts()
			u := url()
			page, err := glasstest.OpenPage(b, u)
			Expect(page).To(BeNil())
			Expect(err).To(MatchError(And(HavePrefix(`glasstest: open "`+u+`": `), ContainSubstring(says))))
			Eventually(b.Contexts).Should(Equal(contexts), "browser contexts left open")
		},
		Entry("a malformed URL", func() string { return "::not a url" }, "invalid URL"),
		Entry("a host nothing answers on", func() string {
			// The port is free again once the listener closes.
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			Expect(err).NotTo(HaveOccurred())
			defer ln.Close()
			return "http://" + ln.Addr().String() + "/"
		}, "ERR_CONNECTION_REFUSED"),
	)
})
