package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/glassworks/glass/conformance"
	"github.com/glassworks/glass/glasstest"
)

func TestProgressOnATerminalIsOneCounterLine(t *testing.T) {
	var b bytes.Buffer
	p := &progress{w: &b, tty: true, total: 2}
	rule := conformance.Rule{ID: "policy.denied"}
	p.event(conformance.ProgressEvent{Done: 0, Total: 2, Rule: rule, Transport: glasstest.TransportBridge})
	f := conformance.Finding{Rule: rule, Verdict: conformance.Pass}
	p.event(conformance.ProgressEvent{Done: 1, Total: 2, Rule: rule, Transport: glasstest.TransportWebMCP, Finding: &f})
	p.finish()
	got := b.String()
	if strings.Contains(got, "\n") || !strings.HasPrefix(got, "\r\x1b[K[0/2] policy.denied") ||
		!strings.Contains(got, "\r\x1b[K[1/2] policy.denied [webmcp]") || !strings.HasSuffix(got, "\r\x1b[K") {
		t.Errorf("terminal progress = %q", got)
	}

	// Off a terminal: a FAIL as it comes, a count every tenth rule and at
	// the last; no line for each rule that passed (the results list them).
	b.Reset()
	p = &progress{w: &b, tty: false, total: 12}
	failed := conformance.Finding{Rule: rule, Verdict: conformance.Fail}
	for done := 1; done <= 12; done++ {
		ev := conformance.ProgressEvent{Done: done, Total: 12, Rule: rule, Transport: glasstest.TransportBridge, Finding: &f}
		if done == 3 {
			ev.Finding = &failed
		}
		p.event(conformance.ProgressEvent{Done: done - 1, Total: 12, Rule: rule, Transport: glasstest.TransportBridge})
		p.event(ev)
	}
	p.finish()
	if got, want := b.String(), "[3/12] FAIL       policy.denied\n[10/12] checked\n[12/12] checked\n"; got != want {
		t.Errorf("CI progress = %q, want %q", got, want)
	}
}
