package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/onsi/ginkgo/v2/reporters"

	"github.com/glassworks/glass/receipt"
)

// junitRoot is Ginkgo's JUnit root with the two attributes CI tools read
// at the top that Ginkgo's form leaves to its suites: the report's name
// and how many cases were skipped.
type junitRoot struct {
	reporters.JUnitTestSuites
	Name    string `xml:"name,attr"`
	Skipped int    `xml:"skipped,attr"`
}

// WriteJUnit writes the report as JUnit XML in the form Ginkgo's reporters
// write: one testsuite per phase, one testcase per rule (and transport). A
// violation is a failure with the sentence as message and the evidence as
// text; a rule not probed, or a failure the baseline expects, is skipped
// with the reason (and, for an expected failure, the evidence as the
// case's system-out). All text goes through encoding/xml, after
// receipt.PrintableText, so the file stays well-formed whatever the page
// says.
func (r *Report) WriteJUnit(w io.Writer) error {
	root := junitRoot{Name: "glass-conformance"}
	root.Time = seconds(r.Seconds)
	for _, g := range r.byPhase() {
		s := reporters.JUnitTestSuite{Name: g.Title, Package: "glass-conformance"}
		var t float64
		for _, f := range g.Findings {
			c := reporters.JUnitTestCase{Name: r.Name(f), Classname: "glass-conformance." + g.Title, Status: "passed", Time: seconds(f.Seconds)}
			t += f.Seconds
			switch {
			case f.Violation():
				s.Failures++
				c.Status = "failed"
				c.Failure = &reporters.JUnitFailure{Message: receipt.PrintableText(f.Message), Type: string(f.Verdict), Description: receipt.PrintableText(evidenceText(f))}
				if f.Baseline == BaselineStale {
					c.Failure.Type = "stale-baseline"
				}
			case f.Baseline == BaselineExpected:
				s.Skipped++
				c.Status = "skipped"
				c.Skipped = &reporters.JUnitSkipped{Message: receipt.PrintableText("expected failure (baseline): " + f.Message)}
				c.SystemOut = receipt.PrintableText(evidenceText(f))
			case f.Verdict == NotProbed:
				s.Skipped++
				c.Status = "skipped"
				c.Skipped = &reporters.JUnitSkipped{Message: receipt.PrintableText("not probed: " + f.Message)}
			}
			s.TestCases = append(s.TestCases, c)
		}
		s.Tests = len(s.TestCases)
		s.Time = seconds(t)
		root.Tests += s.Tests
		root.Failures += s.Failures
		root.Skipped += s.Skipped
		root.TestSuites = append(root.TestSuites, s)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(root); err != nil {
		return fmt.Errorf("conformance: junit: %w", err)
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// seconds rounds a duration in seconds to the millisecond, as the report
// shows it.
func seconds(s float64) float64 { return math.Round(s*1000) / 1000 }

// evidenceText is a finding's MUST sentence and evidence as plain text.
func evidenceText(f Finding) string {
	var b strings.Builder
	fmt.Fprintf(&b, "MUST: %s\n", f.Rule.Must)
	for _, ev := range f.Evidence {
		fmt.Fprintf(&b, "\n%s:\n%s\n", ev.Label, ev.Text)
	}
	return b.String()
}
