// Package coverage is a fixture suite for the glasstest specs of capability
// coverage, not part of the main test run (it lives under testdata, which
// `go test ./...` skips): a suite of known calls on the Todo example, one
// spec failing on purpose, whose glass-coverage.json the harness's specs
// read after running it serially and with `ginkgo -p`.
package coverage_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/glassworks/glass/glasstest"
)

func TestCoverageFixture(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "glasstest coverage fixture suite")
}

var _ = BeforeSuite(glasstest.WarmUp)

var _ = AfterSuite(func() {
	Expect(glasstest.Stop()).To(Succeed())
})
