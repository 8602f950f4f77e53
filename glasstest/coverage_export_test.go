package glasstest

import (
	"io"

	"github.com/onsi/ginkgo/v2/types"
)

// FinishCoverage runs the end of a suite's capability coverage on report
// r, as the ReportAfterSuite does, with ConfigureCoverage's options
// replaced by opts for the call: a spec can check its errors without
// changing what its own suite reports.
func FinishCoverage(r types.Report, w io.Writer, opts ...CoverageOption) error {
	coverageOptions.mu.Lock()
	saved := coverageOptions.cfg
	coverageOptions.cfg = coverageConfig{}
	coverageOptions.mu.Unlock()
	defer func() {
		coverageOptions.mu.Lock()
		coverageOptions.cfg = saved
		coverageOptions.mu.Unlock()
	}()
	ConfigureCoverage(opts...)
	return finishCoverage(r, w)
}
