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

	b.Reset()
	p = &progress{w: &b, tty: false, total: 2}
	p.event(conformance.ProgressEvent{Done: 0, Total: 2, Rule: rule, Transport: glasstest.TransportBridge})
	p.event(conformance.ProgressEvent{Done: 1, Total: 2, Rule: rule, Transport: glasstest.TransportBridge, Finding: &f})
	p.finish()
	if got := b.String(); got != "[1/2] PASS       policy.denied\n" {
		t.Errorf("CI progress = %q", got)
	}
}
