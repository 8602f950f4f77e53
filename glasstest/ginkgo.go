package glasstest

import (
	"net/http"
	"net/http/httptest"

	. "github.com/onsi/ginkgo/v2"
)

// Open opens url in a fresh browser context of the process's shared
// browser, waits for the page runtime, and closes the context when the spec
// ends (DeferCleanup). Any failure fails the spec. Call it inside a spec or
// a BeforeEach.
func Open(url string, opts ...Option) *Page {
	GinkgoHelper()
	b, err := Shared()
	if err != nil {
		Fail(err.Error())
	}
	p, err := OpenPage(b, url, opts...)
	if err != nil {
		Fail(err.Error())
	}
	p.fail = func(err error) {
		GinkgoHelper()
		Fail(err.Error())
	}
	DeferCleanup(p.Close)
	return p
}

// Serve serves h on a loopback port the OS picks and returns its base URL
// (no trailing slash). The server stops when the spec ends.
func Serve(h http.Handler) string {
	GinkgoHelper()
	srv := httptest.NewServer(h)
	DeferCleanup(srv.Close)
	return srv.URL
}
