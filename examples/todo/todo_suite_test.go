package main

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/glassworks/glass/coverage"
	"github.com/glassworks/glass/glasstest"
)

func TestTodo(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Todo acceptance suite")
}

// Chromium starts before the first spec, so no spec's time includes it.
var _ = BeforeSuite(glasstest.WarmUp)

var _ = AfterSuite(func() {
	Expect(glasstest.Stop()).To(Succeed())
})

// The suite's capability coverage (docs/coverage.md) must not fall: every
// declared action called, every one that asks for confirmation approved and
// denied, every flow failed at a step and resumed, every hand-off completed
// and cancelled. A new action without its specs fails the suite.
var _ = glasstest.ConfigureCoverage(
	glasstest.CoverageMin(coverage.MeasureActions, 100),
	glasstest.CoverageMin(coverage.MeasureConfirm, 100),
	glasstest.CoverageMin(coverage.MeasureStepFailed, 100),
	glasstest.CoverageMin(coverage.MeasureResumed, 100),
	glasstest.CoverageMin(coverage.MeasureHandoffCompleted, 100),
	glasstest.CoverageMin(coverage.MeasureHandoffCancelled, 100),
)
