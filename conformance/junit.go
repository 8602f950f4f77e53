package conformance

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"
)

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Time     string      `xml:"time,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitMessage `xml:"failure,omitempty"`
	Skipped   *junitMessage `xml:"skipped,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitMessage struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Text    string `xml:",chardata"`
}

// WriteJUnit writes the report as JUnit XML: one testsuite per phase, one
// testcase per rule (and transport). A violation is a failure with the
// sentence as message and the evidence as text; a rule not probed, or a
// failure the baseline expects, is skipped with the reason. All text goes
// through encoding/xml, after Sanitize, so the file stays well-formed
// whatever the page says.
func (r *Report) WriteJUnit(w io.Writer) error {
	root := junitSuites{Name: "glass-conformance", Time: seconds(r.Seconds)}
	for _, g := range r.byPhase() {
		s := junitSuite{Name: g.Title}
		var t float64
		for _, f := range g.Findings {
			c := junitCase{Name: r.Name(f), Classname: "glass-conformance." + g.Title, Time: seconds(f.Seconds)}
			t += f.Seconds
			switch {
			case f.Violation():
				s.Failures++
				c.Failure = &junitMessage{Message: Sanitize(f.Message), Type: string(f.Verdict), Text: Sanitize(evidenceText(f))}
				if f.Baseline == BaselineStale {
					c.Failure.Type = "stale-baseline"
				}
			case f.Baseline == BaselineExpected:
				s.Skipped++
				c.Skipped = &junitMessage{Message: Sanitize("expected failure (baseline): " + f.Message), Text: Sanitize(evidenceText(f))}
			case f.Verdict == NotProbed:
				s.Skipped++
				c.Skipped = &junitMessage{Message: Sanitize("not probed: " + f.Message)}
			}
			s.Cases = append(s.Cases, c)
		}
		s.Tests = len(s.Cases)
		s.Time = seconds(t)
		root.Tests += s.Tests
		root.Failures += s.Failures
		root.Skipped += s.Skipped
		root.Suites = append(root.Suites, s)
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

func seconds(s float64) string { return fmt.Sprintf("%.3f", s) }

// evidenceText is a finding's MUST sentence and evidence as plain text.
func evidenceText(f Finding) string {
	var b strings.Builder
	fmt.Fprintf(&b, "MUST: %s\n", f.Rule.Must)
	for _, ev := range f.Evidence {
		fmt.Fprintf(&b, "\n%s:\n%s\n", ev.Label, ev.Text)
	}
	return b.String()
}
