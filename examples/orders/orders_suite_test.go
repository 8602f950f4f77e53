package main

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/glassworks/glass/glasstest"
)

func TestOrders(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Orders acceptance suite")
}

// Chromium starts before the first spec, so no spec's time includes it.
var _ = BeforeSuite(glasstest.WarmUp)

var _ = AfterSuite(func() {
	Expect(glasstest.Stop()).To(Succeed())
})
