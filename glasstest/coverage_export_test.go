package glasstest

import (
	"io"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/glassworks/glass/internal/coverrun"
)

// FinishCoverage runs the end of a suite's capability coverage on report
// r, as the ReportAfterSuite does, with ConfigureCoverage's options
// replaced by opts for the call: a spec can check its errors without
// changing what its own suite reports.
func FinishCoverage(r types.Report, w io.Writer, opts ...CoverageOption) error {
	defer coverrun.Swap()()
	ConfigureCoverage(opts...)
	return coverrun.Finish(r, w, processSecrets.Set())
}

// UsedSensitive registers v as a value a call of this process used, as a
// call with Sensitive does.
func UsedSensitive(v string) { processSecrets.Add(v) }
