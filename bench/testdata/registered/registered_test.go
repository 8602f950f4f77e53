// Package registered is the conformance suite as an app team registers it
// in its own Ginkgo suite, against the Todo example with its manifest, over
// the bridge: what glass-conformance run checks by default. make bench
// builds it (go test -c) and times its run next to the CLI's. It lives
// under testdata so that go test ./... does not run it.
package registered

import (
	"net/http/httptest"
	"path/filepath"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/glassworks/glass/conformance"
	"github.com/glassworks/glass/examples/todo/app"
	"github.com/glassworks/glass/glasstest"
)

func TestRegistered(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Glass conformance, registered")
}

var url string

var _ = BeforeSuite(func() {
	// The browser starts here, not in the first spec.
	glasstest.WarmUp()
	srv := httptest.NewServer(app.Handler())
	DeferCleanup(srv.Close)
	url = srv.URL + "/"
})

var manifest = func() *conformance.Manifest {
	m, err := conformance.LoadManifest(filepath.Join("..", "..", "..", "cmd", "glass-conformance", "todo-manifest.yaml"))
	if err != nil {
		panic(err)
	}
	return m
}()

var _ = conformance.Register(func() conformance.Target {
	return conformance.Target{URL: url}
}, conformance.WithManifest(manifest))
