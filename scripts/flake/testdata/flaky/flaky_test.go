// Package flaky is the flake tool's own fixture: one Go test and one
// Ginkgo spec that fail on every other run (counted in the file
// $FLAKE_FIXTURE_COUNTER), and one of each that always pass.
package flaky

import (
	"os"
	"strconv"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// run is the number of this run: 1 on the first, 2 on the second, ….
var run = func() int {
	path := os.Getenv("FLAKE_FIXTURE_COUNTER")
	if path == "" {
		return 1
	}
	b, _ := os.ReadFile(path)
	n, _ := strconv.Atoi(string(b))
	n++
	_ = os.WriteFile(path, []byte(strconv.Itoa(n)), 0o644)
	return n
}()

func TestSteady(t *testing.T) {}

func TestFlaky(t *testing.T) {
	if run%2 == 0 {
		t.Fatal("fails on even runs")
	}
}

func TestSuite(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Flaky")
}

var _ = Describe("The fixture", func() {
	It("is steady", func() {})
	It("flakes", func() { Expect(run % 2).To(Equal(1)) })
})
