package report_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"strings"
	"testing"

	"github.com/onsi/ginkgo/v2/reporters"

	"github.com/glassworks/glass/surface"
	"github.com/glassworks/glass/surface/report"
)

// hostile is a report whose page text tries to rewrite a terminal, break
// out of XML and inject markup.
func hostile() *surface.Report {
	return &surface.Report{
		Live: surface.Page{ID: "todo<script>", Path: "/"},
		Differences: []surface.Difference{
			{Class: surface.Breaking, Action: "remove", Field: "risk", Change: "risk lowered from dangerous to write: a call no longer asks the user"},
			{Class: surface.NeedsReview, Action: "add", Field: "description", Change: "description changed from \"a\" to \"\x1b[31m<b>x</b>]]>\u202e\""},
			{Class: surface.Additive, Action: "archive", Field: "action", Change: "new action (function, write)"},
		},
	}
}

var files = report.Files{Baseline: "glass-surface.json", Live: "live.json"}

func TestJSONReportCarriesTheVerdictAndEveryDifference(t *testing.T) {
	var b bytes.Buffer
	if err := report.WriteJSON(&b, files, hostile()); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Files       report.Files
		Breaking    bool
		Summary     map[string]int
		Differences []surface.Difference
	}
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	if !got.Breaking || got.Files.Baseline != "glass-surface.json" || got.Summary["breaking"] != 1 || got.Summary["needs-review"] != 1 || got.Summary["additive"] != 1 || len(got.Differences) != 3 {
		t.Errorf("report: %+v", got)
	}
	if bytes.Contains(b.Bytes(), []byte("\x1b")) || bytes.Contains(b.Bytes(), []byte("\u202e")) {
		t.Errorf("the JSON report carries raw control characters:\n%s", b.String())
	}
}

func TestJUnitReportFailsBreakingSkipsReviewPassesAdditive(t *testing.T) {
	var b bytes.Buffer
	if err := report.WriteJUnit(&b, files, hostile()); err != nil {
		t.Fatal(err)
	}
	var got reporters.JUnitTestSuites
	if err := xml.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatalf("not well-formed XML: %v\n%s", err, b.String())
	}
	s := got.TestSuites[0]
	if got.Tests != 3 || got.Failures != 1 || s.Skipped != 1 || len(s.TestCases) != 3 {
		t.Fatalf("suites: %+v", got)
	}
	if c := s.TestCases[0]; c.Name != "remove: risk" || c.Failure == nil || c.Failure.Message != "remove: risk lowered from dangerous to write: a call no longer asks the user" {
		t.Errorf("breaking case: %+v", c)
	}
	if c := s.TestCases[1]; c.Skipped == nil || strings.ContainsAny(c.Skipped.Message, "\x1b\u202e") || !strings.Contains(c.Skipped.Message, `\x1b[31m<b>x</b>]]>\u202e`) {
		t.Errorf("needs-review case: %+v", c.Skipped)
	}
	if c := s.TestCases[2]; c.Failure != nil || c.Skipped != nil {
		t.Errorf("additive case: %+v", c)
	}

	var none bytes.Buffer
	if err := report.WriteJUnit(&none, files, &surface.Report{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(none.String(), `name="the surface matches the baseline"`) || strings.Contains(none.String(), "<failure") {
		t.Errorf("a report without differences:\n%s", none.String())
	}
}

func TestHTMLReportEscapesPageText(t *testing.T) {
	var b bytes.Buffer
	if err := report.WriteHTML(&b, files, hostile()); err != nil {
		t.Fatal(err)
	}
	h := b.String()
	for _, bad := range []string{"<script>", "<b>x</b>", "\x1b", "\u202e"} {
		if strings.Contains(h, bad) {
			t.Errorf("the HTML report carries %q", bad)
		}
	}
	for _, want := range []string{"Breaking changes", "1 breaking, 1 needs review, 1 additive", `class="badge breaking">BREAKING`, "todo&lt;script&gt;"} {
		if !strings.Contains(h, want) {
			t.Errorf("the HTML report lacks %q", want)
		}
	}
}
