package glasstest_test

import (
	"net/http"
	"os"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/sdk"
)

// TestMain gives the package's tests, and the browsers and drivers they
// start, a temporary directory of their own: what they leave there is
// theirs (see "leaves no directory of a trace behind").
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "glasstest-")
	if err == nil {
		err = os.Setenv("TMPDIR", dir)
	}
	if err != nil {
		panic(err)
	}
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

func TestGlasstest(t *testing.T) {
	RegisterFailHandler(Fail)
	// Conditions here wait on browsers and subprocesses of a machine that
	// may be busy: a generous deadline, never a sleep.
	SetDefaultEventuallyTimeout(15 * time.Second)
	RunSpecs(t, "glasstest suite")
}

var _ = AfterSuite(func() {
	Expect(glasstest.Stop()).To(Succeed())
})

// harnessHandler serves testdata/harness.html at /, testdata/flow.html at
// /flow.html, and the reference runtime.
func harnessHandler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle(sdk.Path, sdk.Handler())
	page := func(file string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Cache-Control", "no-store")
			http.ServeFile(w, r, file)
		}
	}
	mux.HandleFunc("/flow.html", page("testdata/flow.html"))
	// A response the browser's HTTP cache keeps (the page pool's reset
	// must clear it).
	mux.HandleFunc("/cacheable.txt", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Cache-Control", "max-age=3600")
		_, _ = w.Write([]byte("cached"))
	})
	// A script the browser may keep: the reset leaves it in the cache.
	mux.HandleFunc("/kept.js", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Cache-Control", "max-age=3600")
		w.Header().Set("Content-Type", "text/javascript")
		_, _ = w.Write([]byte("globalThis.keptLoaded = true;"))
	})
	mux.HandleFunc("/", page("testdata/harness.html"))
	return mux
}
