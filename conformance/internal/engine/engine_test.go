package engine

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/glassworks/glass/conformance/internal/catalog"
	"github.com/glassworks/glass/conformance/internal/checks"
	"github.com/glassworks/glass/conformance/internal/probe"
	"github.com/glassworks/glass/conformance/internal/report"
	"github.com/glassworks/glass/glasstest"
)

// offline is a session whose page registered no WebMCP tools, and that
// cannot probe anything: a rule must be decided before a probe is made.
type offline struct{}

func (offline) TransportUnavailable(tr glasstest.Transport) string {
	if tr == glasstest.TransportWebMCP {
		return probe.NoWebMCPTools
	}
	return ""
}
func (offline) InvalidSnapshot() string                { return "" }
func (offline) Probe(glasstest.Transport) *probe.Probe { panic("offline: no probe") }
func (offline) Hide(f report.Finding) report.Finding   { return f }

func TestARuleWithoutACheckIsNotProbedNeverPassed(t *testing.T) {
	f := Check(offline{}, catalog.Rule{ID: "future.rule"}, glasstest.TransportBridge)
	if f.Verdict != report.NotProbed || f.Message != NoCheckYet {
		t.Errorf("got %s %q, want not probed %q", f.Verdict, f.Message, NoCheckYet)
	}
	f = Check(offline{}, catalog.Rules[0], glasstest.TransportWebMCP)
	if f.Verdict != report.NotProbed || f.Message != probe.NoWebMCPTools {
		t.Errorf("webmcp: got %s %q", f.Verdict, f.Message)
	}
}

// detached is a session whose probes open no page: enough for a check that
// only says what it found.
type detached struct{ offline }

func (detached) Probe(tr glasstest.Transport) *probe.Probe {
	return probe.Detached(nil, probe.Config{}).Probe(tr)
}

// TestPageTextInAFindingIsBoundedInBytes: a check that quotes 18 MB of page
// text (a page that defeated the runtime's own bounds) gives a finding
// within the report's bounds.
func TestPageTextInAFindingIsBoundedInBytes(t *testing.T) {
	huge := strings.Repeat("€", 6<<20)
	checks.Table["test.quotes-the-page"] = checks.Check{Run: func(*probe.Probe) probe.Outcome {
		return probe.Failf("the runtime threw %s", huge).With(report.Evidence{Label: "thrown " + huge, Text: huge})
	}}
	defer delete(checks.Table, "test.quotes-the-page")
	f := Check(detached{}, catalog.Rule{ID: "test.quotes-the-page"}, glasstest.TransportBridge)
	if f.Verdict != report.Fail {
		t.Fatalf("verdict %s, want fail", f.Verdict)
	}
	if n := len(f.Message); n > report.MaxMessageBytes+len("…") || !utf8.ValidString(f.Message) {
		t.Errorf("message of %d bytes, want at most %d, cut at a character", n, report.MaxMessageBytes)
	}
	for _, ev := range f.Evidence {
		if len(ev.Label) > report.MaxMessageBytes+len("…") || len(ev.Text) > report.MaxEvidenceBytes+len("…") {
			t.Errorf("evidence of %d and %d bytes, want at most %d and %d", len(ev.Label), len(ev.Text), report.MaxMessageBytes, report.MaxEvidenceBytes)
		}
	}
}
