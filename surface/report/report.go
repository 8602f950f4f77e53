// Package report writes a surface comparison (surface.Report) as the
// files CI keeps: JSON, JUnit XML and a self-contained HTML page, as
// glass-conformance run writes its rule reports. It is apart from package
// surface because its JUnit writer uses Ginkgo's reporter types, which
// package surface — imported by the matchers — has no need of.
//
// Page text is neutralised in every file: JSON through encoding/json and
// receipt.PrintableJSON, JUnit through receipt.PrintableText and
// encoding/xml, HTML through html/template.
package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"html/template"
	"io"

	"github.com/onsi/ginkgo/v2/reporters"

	"github.com/glassworks/glass/receipt"
	"github.com/glassworks/glass/surface"
)

// Files name the two surface files a report compares, as the reports show
// them.
type Files struct {
	Baseline string `json:"baseline"`
	Live     string `json:"live"`
}

type jsonReport struct {
	Files Files `json:"files"`
	// Breaking is the gate's verdict: a breaking difference fails it.
	Breaking    bool                 `json:"breaking"`
	Summary     map[string]int       `json:"summary"`
	Baseline    surface.Page         `json:"baseline"`
	Live        surface.Page         `json:"live"`
	Differences []surface.Difference `json:"differences"`
}

// WriteJSON writes the report as JSON: the files compared, the verdict
// (breaking), the count of each class, both pages, and every difference
// with its class, action, field and sentence.
func WriteJSON(w io.Writer, files Files, rep *surface.Report) error {
	sum := map[string]int{}
	for _, c := range surface.Classes {
		sum[string(c)] = rep.Count(c)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	diffs := rep.Differences
	if diffs == nil {
		diffs = []surface.Difference{}
	}
	if err := enc.Encode(jsonReport{Files: files, Breaking: rep.Breaking(), Summary: sum, Baseline: rep.Baseline, Live: rep.Live, Differences: diffs}); err != nil {
		return fmt.Errorf("report: json: %w", err)
	}
	_, err := w.Write(receipt.PrintableJSON(b.Bytes()))
	return err
}

// JUnitSuite is the report as one JUnit test suite, "glass-surface":
// one test case per difference, named by action and field — a breaking
// one fails, one that needs review is skipped with its sentence (CI
// tools show it, and it does not fail the job), an additive one passes —
// and one passing case when there is no difference. A run that writes
// its own JUnit file can add this suite to it.
func JUnitSuite(files Files, rep *surface.Report) reporters.JUnitTestSuite {
	s := reporters.JUnitTestSuite{
		Name:    "glass-surface",
		Package: receipt.PrintableText(files.Baseline),
		Properties: reporters.JUnitProperties{Properties: []reporters.JUnitProperty{
			{Name: "baseline", Value: receipt.PrintableText(files.Baseline)},
			{Name: "live", Value: receipt.PrintableText(files.Live)},
		}},
	}
	for _, d := range rep.Differences {
		c := reporters.JUnitTestCase{
			Name:      receipt.PrintableID(d.Subject()) + ": " + receipt.PrintableID(d.Field),
			Classname: "glass-surface." + string(d.Class),
			Status:    "passed",
		}
		switch d.Class {
		case surface.Breaking:
			s.Failures++
			c.Status = "failed"
			c.Failure = &reporters.JUnitFailure{Message: d.String(), Type: string(d.Class), Description: d.String()}
		case surface.NeedsReview:
			s.Skipped++
			c.Status = "skipped"
			c.Skipped = &reporters.JUnitSkipped{Message: "needs review: " + d.String()}
		default:
			c.SystemOut = d.String()
		}
		s.TestCases = append(s.TestCases, c)
	}
	if len(rep.Differences) == 0 {
		s.TestCases = append(s.TestCases, reporters.JUnitTestCase{Name: "the surface matches the baseline", Classname: "glass-surface", Status: "passed"})
	}
	s.Tests = len(s.TestCases)
	return s
}

// WriteJUnit writes the report as a JUnit XML file of one suite,
// JUnitSuite's.
func WriteJUnit(w io.Writer, files Files, rep *surface.Report) error {
	s := JUnitSuite(files, rep)
	root := reporters.JUnitTestSuites{Tests: s.Tests, Failures: s.Failures, Disabled: s.Skipped, TestSuites: []reporters.JUnitTestSuite{s}}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(root); err != nil {
		return fmt.Errorf("report: junit: %w", err)
	}
	_, err := io.WriteString(w, "\n")
	return err
}

var htmlPage = template.Must(template.New("surface").Funcs(template.FuncMap{
	"clean": receipt.PrintableText,
	"id":    receipt.PrintableID,
}).Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Glass capability surface</title>
<style>
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2rem auto; max-width: 68rem; padding: 0 1rem; color: #1d1d1f; }
h1 { font-size: 1.5rem; margin-bottom: .2rem; }
.meta { color: #555; margin: 0 0 1rem; }
.summary { padding: .6rem .9rem; border-radius: 6px; font-weight: 600; }
.summary.ok { background: #e6f4ea; color: #1e6b34; }
.summary.bad { background: #fce8e6; color: #a50e0e; }
table { border-collapse: collapse; width: 100%; }
td { vertical-align: top; padding: .35rem .5rem; border-bottom: 1px solid #eee; }
td.v { width: 8rem; }
.badge { display: inline-block; padding: .05rem .45rem; border-radius: 4px; font-size: .8rem; font-weight: 700; }
.breaking { background: #fce8e6; color: #a50e0e; }
.needs-review { background: #fef7e0; color: #8a5a00; }
.additive { background: #e6f4ea; color: #1e6b34; }
code { font: 13px ui-monospace, SFMono-Regular, Menlo, monospace; }
</style>
</head>
<body>
<h1>Glass capability surface</h1>
<p class="meta">baseline <code>{{clean .Files.Baseline}}</code> · live <code>{{clean .Files.Live}}</code> · page <code>{{clean .R.Live.ID}}</code>{{if .R.Live.Path}} <code>{{clean .R.Live.Path}}</code>{{end}}</p>
<p class="summary {{if .R.Breaking}}bad{{else}}ok{{end}}">{{if .R.Breaking}}Breaking changes{{else}}No breaking change{{end}} — {{.R.Summary}}</p>
{{if .R.Differences}}<table>
{{range .R.Differences}}<tr>
<td class="v"><span class="badge {{.Class}}">{{.Class.Label}}</span></td>
<td><code>{{id .Subject}}</code> · {{id .Field}}<div>{{clean .Change}}</div></td>
</tr>
{{end}}</table>{{end}}
</body>
</html>
`))

// WriteHTML writes the report as one self-contained HTML page (inline
// CSS, no scripts, no external assets); html/template escapes every text.
func WriteHTML(w io.Writer, files Files, rep *surface.Report) error {
	return htmlPage.Execute(w, struct {
		Files Files
		R     *surface.Report
	}{files, rep})
}
