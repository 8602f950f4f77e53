package engine

import (
	"testing"

	"github.com/glassworks/glass/conformance/internal/catalog"
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
