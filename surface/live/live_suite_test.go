// Package live holds the specs of package surface on live pages, in real
// Chromium: the surface of a fixture page as a runtime declares it, and
// the classification of each kind of change a URL switch of the page
// makes. The package has only tests; package surface itself drives no
// browser.
package live_test

import (
	"net/http"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/glassworks/glass/fixtures"
	"github.com/glassworks/glass/fixtures/stockroom"
	"github.com/glassworks/glass/glasstest"
)

func TestLive(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Capability surface on live pages")
}

var _ = BeforeSuite(glasstest.WarmUp)

var _ = AfterSuite(func() {
	Expect(glasstest.Stop()).To(Succeed())
})

// handler serves the fixture pages with the reference runtime, and the
// step-only page of testdata with the stockroom runtime, which publishes
// stepOnly (the reference runtime does not yet).
func handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/", fixtures.Handler())
	mux.Handle("GET /stockroom-runtime.js", stockroom.Handler())
	mux.HandleFunc("GET /steponly.html", func(w http.ResponseWriter, r *http.Request) {
		http.ServeFile(w, r, "testdata/steponly.html")
	})
	return mux
}
