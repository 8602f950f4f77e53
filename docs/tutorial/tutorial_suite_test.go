package tutorial

import (
	"net/http/httptest"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/glassworks/glass/examples/todo/app"
	"github.com/glassworks/glass/glasstest"
)

func TestTutorial(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Todo acceptance suite (tutorial)")
}

// appURL is the Todo app, served once for the whole suite. Every page load
// starts a fresh session of twelve tasks, so specs never see each other's
// writes.
var appURL string

var _ = BeforeSuite(func() {
	glasstest.WarmUp() // Chromium starts here, not in the first spec
	srv := httptest.NewServer(app.Handler())
	DeferCleanup(srv.Close)
	appURL = srv.URL
})

var _ = AfterSuite(func() {
	Expect(glasstest.Stop()).To(Succeed())
})

// open opens the Todo page in a fresh browser context. Expectations get ten
// seconds instead of the contract's two: CI machines are busy.
func open(opts ...glasstest.PageOption) *glasstest.Page {
	GinkgoHelper()
	return glasstest.Open(appURL, append([]glasstest.PageOption{glasstest.ExpectTimeout(10 * time.Second)}, opts...)...)
}
