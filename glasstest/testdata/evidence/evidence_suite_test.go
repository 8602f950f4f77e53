// Package evidence is a fixture suite for the glasstest specs, not part of
// the main test run (it lives under testdata, which `go test ./...` skips):
// some specs fail on purpose so that the harness's evidence on failure can
// be checked in the JSON and JUnit reports, and the suite is run serially
// and with `ginkgo -p` to compare verdicts.
//
// With GLASS_FIXTURE_SHARED_SERVER=1, process 1 starts one Playwright server
// in SynchronizedBeforeSuite and every process connects to it.
package evidence_test

import (
	"os"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/glassworks/glass/glasstest"
)

func TestEvidence(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "glasstest evidence fixture suite")
}

var _ = SynchronizedBeforeSuite(func() []byte {
	if os.Getenv("GLASS_FIXTURE_SHARED_SERVER") != "1" {
		return nil
	}
	srv, err := glasstest.StartPlaywrightServer()
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(srv.Stop)
	return []byte(srv.WSEndpoint)
}, func(ws []byte) {
	if len(ws) == 0 {
		return
	}
	exe, err := glasstest.FindChromium()
	Expect(err).NotTo(HaveOccurred())
	Expect(glasstest.Configure(glasstest.BrowserConfig{Connect: string(ws), Executable: exe})).To(Succeed())
})

var _ = AfterSuite(func() {
	Expect(glasstest.Stop()).To(Succeed())
})
