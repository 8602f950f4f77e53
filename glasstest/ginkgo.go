package glasstest

import (
	"net/http"
	"net/http/httptest"

	"github.com/glassworks/glass/internal/pagejs"
	"github.com/glassworks/glass/internal/pagepool"
	"github.com/onsi/ginkgo/v2"
)

// ConfirmCancelled: the page records it (CancelledConfirms), and a page
// of Open says so in its spec's output.
func (o *slotOwner) ConfirmCancelled(msg string) {
	o.hostLog.AddCancelled(msg)
	pagepool.TellCancelled(o.settings.spec, ginkgo.GinkgoWriter, msg)
}

// Open opens url in a fresh browser context of the process's shared
// browser, waits for the page runtime, and closes the context when the spec
// ends (DeferCleanup). Any failure fails the spec. Call it inside a spec or
// a BeforeEach.
//
// The context is traced (see Trace). When the spec fails, its evidence — the
// trace, a screenshot, every receipt, snapshot and confirmation of the page —
// is kept under the artifacts directory and attached to the spec's report
// as the "glass artifacts" entry (see ArtifactsDir, KeepArtifacts); when it
// passes, nothing is kept.
func Open(url string, opts ...PageOption) *Page {
	ginkgo.GinkgoHelper()
	b, err := Shared()
	if err != nil {
		ginkgo.Fail(err.Error())
	}
	p, err := OpenPage(b, url, append(evidenceOptions(), opts...)...)
	if err != nil {
		ginkgo.Fail(err.Error())
	}
	p.fail = func(err error) {
		ginkgo.GinkgoHelper()
		ginkgo.Fail(pagejs.Printable(err).Error())
	}
	p.evidence = &specEvidence{number: pageNumber(ginkgo.CurrentSpecReport())}
	coverOpen(p)
	ginkgo.DeferCleanup(func() error {
		p.keepEvidence()
		coverClose(p)
		return p.Close()
	})
	return p
}

// WarmUp starts the process's shared browser (Shared) and opens and closes
// one page in it, so that no spec pays for starting Chromium and its first
// renderer; it fails the suite's set-up when the browser cannot start. One
// line in the suite file:
//
//	var _ = BeforeSuite(glasstest.WarmUp)
//
// Under ginkgo -p every process has its own browser: call it in the
// all-processes function of a SynchronizedBeforeSuite instead.
func WarmUp() {
	ginkgo.GinkgoHelper()
	b, err := Shared()
	if err != nil {
		ginkgo.Fail(err.Error())
	}
	if err := b.Warm(); err != nil {
		ginkgo.Fail(err.Error())
	}
}

// Serve serves h on a loopback port the OS picks and returns its base URL
// (no trailing slash). The server stops when the spec ends.
func Serve(h http.Handler) string {
	ginkgo.GinkgoHelper()
	srv := httptest.NewServer(h)
	ginkgo.DeferCleanup(srv.Close)
	return srv.URL
}
