package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/glassworks/glass/conformance/internal/catalog"
	"github.com/glassworks/glass/conformance/internal/manifest"
	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

// hostileReport is a report whose page-provided text carries markup,
// terminal escapes and characters XML 1.0 cannot hold.
func hostileReport() *Report {
	text := "<script>alert(1)</script>\x1b[31mred\x00\x07 ]]> & \"q\" \u202e"
	return &Report{
		URL: "http://127.0.0.1/<b>", Runtime: "evil\x1b[2J", Protocol: receipt.Protocol,
		Transports: []glasstest.Transport{glasstest.TransportBridge, glasstest.TransportWebMCP},
		Notes:      []string{"note " + text},
		Findings: []Finding{
			{Rule: catalog.Rule{ID: "policy.denied", Phase: receipt.PhasePolicy, Must: "MUST deny."}, Transport: glasstest.TransportBridge,
				Verdict: Fail, Message: "failed: " + text, Evidence: []Evidence{{Label: "receipt " + text, Text: `{"description": "` + text + `"}`}}},
			{Rule: catalog.Rule{ID: "policy.denied", Phase: receipt.PhasePolicy, Must: "MUST deny."}, Transport: glasstest.TransportWebMCP,
				Verdict: NotProbed, Message: "the page registers no WebMCP tools"},
			{Rule: catalog.Rule{ID: "changed.bounded", Must: "MUST bound."}, Transport: glasstest.TransportBridge, Verdict: Pass},
		},
	}
}

func TestOutputsNeutralisePageText(t *testing.T) {
	rep := hostileReport()

	var text bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(text.String(), "\x1b\x00\x07\u202e") {
		t.Errorf("text output carries raw control characters: %q", text.String())
	}
	for _, want := range []string{"\npolicy\n  FAIL        policy.denied [bridge] — failed: <script>", `\x1b[31mred`, "NOT PROBED  policy.denied [webmcp]", "\ngeneral\n  PASS        changed.bounded [bridge]", "MUST: MUST deny."} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text output lacks %q:\n%s", want, text.String())
		}
	}

	var junit bytes.Buffer
	if err := rep.WriteJUnit(&junit); err != nil {
		t.Fatal(err)
	}
	var suites struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Skipped  int `xml:"skipped,attr"`
		Suites   []struct {
			Name  string `xml:"name,attr"`
			Cases []struct {
				Name    string `xml:"name,attr"`
				Failure *struct {
					Message string `xml:"message,attr"`
					Text    string `xml:",chardata"`
				} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	dec := xml.NewDecoder(&junit)
	dec.Strict = true
	if err := dec.Decode(&suites); err != nil {
		t.Fatalf("junit is not valid XML: %v", err)
	}
	if suites.Tests != 3 || suites.Failures != 1 || suites.Skipped != 1 || len(suites.Suites) != 2 {
		t.Errorf("junit counts: %+v", suites)
	}
	if f := suites.Suites[0].Cases[0].Failure; f == nil || !strings.Contains(f.Message, "<script>alert(1)</script>") || !strings.Contains(f.Text, `\x1b[31mred`) {
		t.Errorf("junit failure should carry the text as data, escapes visible: %+v", f)
	}

	var js bytes.Buffer
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	if bytes.ContainsAny(js.Bytes(), "\x1b\x00\x07") || bytes.Contains(js.Bytes(), []byte("<script>")) {
		t.Error("json output carries raw control characters or markup")
	}
	var back map[string]any
	if err := json.Unmarshal(js.Bytes(), &back); err != nil {
		t.Fatalf("json output is not JSON: %v", err)
	}
	if back["conforms"] != false {
		t.Errorf("json conforms = %v", back["conforms"])
	}

	var h bytes.Buffer
	if err := rep.WriteHTML(&h); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"<script>alert", "<b>", "\x1b", "\x00", "\x07", "<link", "src=", "href="} {
		if strings.Contains(h.String(), bad) {
			t.Errorf("html report contains %q", bad)
		}
	}
	if !strings.Contains(h.String(), "&lt;script&gt;alert(1)&lt;/script&gt;") || !strings.Contains(h.String(), "<style>") {
		t.Error("html report should show the page's markup escaped, with inline CSS")
	}
}

func TestArtifactsKeepEachViolationsEvidence(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "arts")
	if err := hostileReport().WriteArtifacts(dir); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "policy.denied--bridge", "*"))
	if len(files) != 2 {
		t.Fatalf("want the verdict and one evidence file, got %v", files)
	}
	if _, err := os.Stat(filepath.Join(dir, "report.json")); err != nil {
		t.Error(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "changed.bounded--bridge")); err == nil {
		t.Error("a passing rule left artifacts")
	}

	// A failure without evidence and a stale baseline entry still get
	// their verdict.
	dir = filepath.Join(t.TempDir(), "arts")
	rep := &Report{Transports: []glasstest.Transport{glasstest.TransportBridge}, Findings: []Finding{
		{Rule: catalog.Rule{ID: "policy.denied", Must: "MUST deny."}, Transport: glasstest.TransportBridge, Verdict: Fail, Message: "it ran"},
		{Rule: catalog.Rule{ID: "changed.bounded", Must: "MUST bound."}, Transport: glasstest.TransportBridge, Verdict: Pass,
			Baseline: BaselineStale, Message: "stale baseline entry: the rule passes now; remove it from baseline.txt"},
		{Rule: catalog.Rule{ID: "verify.settle", Must: "MUST settle."}, Transport: glasstest.TransportBridge, Verdict: Pass},
	}}
	if err := rep.WriteArtifacts(dir); err != nil {
		t.Fatal(err)
	}
	for sub, want := range map[string]string{
		"policy.denied--bridge":   "it ran\n\nMUST: MUST deny.\n",
		"changed.bounded--bridge": "stale baseline entry: the rule passes now; remove it from baseline.txt\n\nMUST: MUST bound.\n",
	} {
		b, err := os.ReadFile(filepath.Join(dir, sub, "00-verdict.txt"))
		if err != nil || string(b) != want {
			t.Errorf("%s/00-verdict.txt = %q, %v; want %q", sub, b, err, want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "verify.settle--bridge")); err == nil {
		t.Error("a passing rule left artifacts")
	}
}

// TestWriteArtifactsWhereItCannotIsAWrappedError: a directory below a
// regular file cannot be created, even by root.
func TestWriteArtifactsWhereItCannotIsAWrappedError(t *testing.T) {
	file := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	rep := &Report{URL: "http://127.0.0.1/"}
	err := rep.WriteArtifacts(filepath.Join(file, "artifacts"))
	if err == nil || !strings.HasPrefix(err.Error(), "conformance: artifacts: ") || !errors.Is(err, syscall.ENOTDIR) {
		t.Errorf("WriteArtifacts under a file: %v, want a wrapped ENOTDIR", err)
	}
}

func TestApplyBaseline(t *testing.T) {
	b, err := manifest.ParseBaseline("known.txt", []byte("# known\npolicy.denied   # JIRA-1\n\nverify.expectation\n"))
	if err != nil {
		t.Fatal(err)
	}
	rep := &Report{Transports: []glasstest.Transport{glasstest.TransportBridge}, Findings: []Finding{
		{Rule: catalog.Rule{ID: "policy.denied"}, Verdict: Fail, Message: "it succeeded"},
		{Rule: catalog.Rule{ID: "verify.expectation"}, Verdict: Pass},
		{Rule: catalog.Rule{ID: "policy.no-channel"}, Verdict: Fail},
	}}
	rep.ApplyBaseline(b)
	if f := rep.Findings[0]; f.Baseline != BaselineExpected || f.Violation() {
		t.Errorf("expected failure: %+v", f)
	}
	if f := rep.Findings[1]; f.Baseline != BaselineStale || !f.Violation() || !strings.Contains(f.Message, "stale baseline entry") {
		t.Errorf("stale entry: %+v", f)
	}
	if f := rep.Findings[2]; f.Baseline != "" || !f.Violation() {
		t.Errorf("unlisted failure: %+v", f)
	}
	if rep.Conforms() || len(rep.Violations()) != 2 {
		t.Errorf("violations = %d", len(rep.Violations()))
	}
}

// forged is page text that, printed as it is, would forge lines of the
// terminal report: a verdict, an evidence header and the summary.
const forged = "boom\n  PASS        policy.denied\n              MUST: nothing\n\n71 rules: 71 passed, 0 failed, 0 not probed in 1.0s\r\n"

// glassLine is every line of the text report that Glass writes itself:
// the heading, a phase, a rule's verdict, its MUST sentence, an evidence
// label, notes and the summary. Page text may only follow on such a line
// or be indented as evidence below it.
var glassLine = regexp.MustCompile(`^(|Glass conformance of .*|[a-z_]+|notes:|notes: \d+ before the results above; read them first, they may explain a FAIL|the page's runtime warns about \d+ of its declarations .*:|findings: .*|not probed: \d+ rules?; what would probe them:|  (PASS|FAIL|XFAIL|STALE|NOT PROBED) +[a-z.-]+( \[[a-z]+\])?( — .*)?|              MUST: MUST deny\.|              .*:|  - .*|\d+ rule(s| checks): .* in \d+\.\ds)$`)

var verdictLine = regexp.MustCompile(`^  (PASS|FAIL|XFAIL|STALE|NOT PROBED) `)

// TestPageTextNeverStartsALineOfTheTextReport: a report whose every piece
// of page text holds line breaks and lines that look like Glass's prints
// each of Glass's lines once, and every other line indented as evidence.
func TestPageTextNeverStartsALineOfTheTextReport(t *testing.T) {
	rep := &Report{
		URL: "http://127.0.0.1/" + forged, Runtime: "rt " + forged, Protocol: receipt.Protocol,
		Transports: []glasstest.Transport{glasstest.TransportBridge},
		Notes:      []string{"note " + forged},
		Warnings:   []string{"add: risk " + forged},
		Findings: []Finding{
			{Rule: catalog.Rule{ID: "policy.denied", Phase: receipt.PhasePolicy, Must: "MUST deny."}, Transport: glasstest.TransportBridge,
				Verdict: Fail, Message: "failed: " + forged, Evidence: []Evidence{{Label: "receipt " + forged, Text: `{"message": "` + forged + `"}`}}},
			{Rule: catalog.Rule{ID: "policy.no-channel", Phase: receipt.PhasePolicy, Must: "MUST deny."}, Transport: glasstest.TransportBridge,
				Verdict: NotProbed, Message: forged},
		},
		CallFindings: []CallFinding{{Action: forged, Transport: glasstest.TransportBridge, Kind: CallFailed, Code: forged, Phase: forged, Message: forged}},
	}
	var b strings.Builder
	if err := rep.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	verdicts, summaries := 0, 0
	for i, line := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") {
		switch {
		case strings.HasPrefix(line, evidenceIndent):
		case glassLine.MatchString(line):
			if verdictLine.MatchString(line) {
				verdicts++
			}
			if line != "" && line[0] >= '0' && line[0] <= '9' {
				summaries++
			}
		default:
			t.Errorf("line %d is page text that starts a line: %q", i+1, line)
		}
	}
	if !strings.Contains(b.String(), "\nthe page's runtime warns about 1 of its declarations") {
		t.Errorf("no warnings in the report:\n%s", b.String())
	}
	if verdicts != 2 || summaries != 1 {
		t.Errorf("%d verdict lines and %d summaries, want 2 and 1:\n%s", verdicts, summaries, b.String())
	}
	if ft := FailureText(rep.Findings[0]); strings.Contains(ft, "\n  PASS") || strings.Contains(ft, "\n71 rules") {
		t.Errorf("the Ginkgo failure text lets page text start a line:\n%s", ft)
	}
}

// TestNotProbedListsEachRuleWithWhatItNeeds: the not-probed list names
// every finding not probed, in the report's order, with the check's reason
// and the rule's needs, one line each even when page text holds line
// breaks; a report with none writes nothing.
func TestNotProbedListsEachRuleWithWhatItNeeds(t *testing.T) {
	rep := &Report{
		Transports: []glasstest.Transport{glasstest.TransportBridge, glasstest.TransportWebMCP},
		Findings: []Finding{
			{Rule: catalog.Rule{ID: "flow.resume", Phase: receipt.PhaseDispatch, Needs: "a manifest flowFailures entry with resume: true"},
				Transport: glasstest.TransportBridge, Verdict: NotProbed, Message: "no flow failed\n  PASS forged"},
			{Rule: catalog.Rule{ID: "policy.denied", Phase: receipt.PhasePolicy}, Transport: glasstest.TransportBridge, Verdict: Pass},
			{Rule: catalog.Rule{ID: "policy.no-channel", Phase: receipt.PhasePolicy}, Transport: glasstest.TransportWebMCP, Verdict: NotProbed, Message: "no action asks"},
		},
	}
	got := rep.NotProbedRules()
	want := []NotProbedRule{
		{Name: "policy.no-channel [webmcp]", Reason: "no action asks"},
		{Name: "flow.resume [bridge]", Reason: "no flow failed\n  PASS forged", Needs: "a manifest flowFailures entry with resume: true"},
	}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("NotProbedRules = %+v, want %+v", got, want)
	}
	var b strings.Builder
	if err := rep.WriteNotProbed(&b); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "not probed (2)") ||
		lines[2] != `  - flow.resume [bridge]: no flow failed\n  PASS forged — needs a manifest flowFailures entry with resume: true` {
		t.Errorf("WriteNotProbed wrote:\n%s", b.String())
	}
	b.Reset()
	rep.Findings = rep.Findings[1:2]
	if err := rep.WriteNotProbed(&b); err != nil || b.Len() != 0 {
		t.Errorf("a report with every rule probed wrote %q (%v)", b.String(), err)
	}
}

// The summary counts rules, or rule checks over more than one transport,
// in the singular for one.
func TestSummaryNamesItsCount(t *testing.T) {
	one := Finding{Rule: catalog.Rule{ID: "policy.denied"}, Transport: glasstest.TransportBridge, Verdict: Pass}
	bridge := []glasstest.Transport{glasstest.TransportBridge}
	both := []glasstest.Transport{glasstest.TransportBridge, glasstest.TransportWebMCP}
	for _, c := range []struct {
		transports []glasstest.Transport
		findings   []Finding
		want       string
	}{
		{bridge, []Finding{one}, "1 rule: 1 passed, 0 failed, 0 not probed"},
		{bridge, []Finding{one, one}, "2 rules: 2 passed, 0 failed, 0 not probed"},
		{both, []Finding{one}, "1 rule check: 1 passed, 0 failed, 0 not probed"},
		{both, []Finding{one, one}, "2 rule checks: 2 passed, 0 failed, 0 not probed"},
		{bridge, nil, "0 rules: 0 passed, 0 failed, 0 not probed"},
	} {
		if got := (&Report{Transports: c.transports, Findings: c.findings}).Summary(); got != c.want {
			t.Errorf("%d findings over %v: %q, want %q", len(c.findings), c.transports, got, c.want)
		}
	}
}

// TestNotesComeBeforeTheVerdicts: the run's notes (a page that changes by
// itself, a model defined before its data) may explain a FAIL, so they are
// read before the verdicts, and a failing run's summary points back at
// them.
func TestNotesComeBeforeTheVerdicts(t *testing.T) {
	rep := &Report{URL: "http://page", Notes: []string{"the page model changed with no call in flight"},
		Findings: []Finding{{Rule: catalog.Rule{ID: "changed.records", Must: "MUST list."}, Transport: glasstest.TransportBridge, Verdict: Fail, Message: "wrong"}}}
	var b strings.Builder
	if err := rep.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	note, verdict := strings.Index(out, "no call in flight"), strings.Index(out, "FAIL ")
	if note < 0 || verdict < 0 || note > verdict {
		t.Errorf("the notes are not before the verdicts:\n%s", out)
	}
	if !strings.Contains(out[verdict:], "notes: 1 before the results above") {
		t.Errorf("the summary does not point back at the notes:\n%s", out)
	}
}
